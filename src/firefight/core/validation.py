"""The one validation path every ruleset's files go through (situations, catalogs, house rules).

:func:`validate` checks data read from TOML (or ``--set``) against a pydantic model in two passes:

1. the ordinary (lax) pass builds the model, so a valid file gives exactly the model it always
   gave;
2. a strict pass over the same data as JSON refuses what the lax pass quietly converts: ``true``
   where a number belongs, ``1`` or ``"yes"`` where ``true``/``false`` belongs, ``"3"`` for 3.

Before either pass every number in the data is checked against :data:`MAX_NUMBER` (and floats
must be finite), so no rule sees a stat of 2**63, and no text but a title may be empty. The first
error becomes one line: the file, the field as the user wrote it (``shooters[0].skills``), what is
wrong in plain words (never an internal class name), and a tip that says how to fix it, with the
nearest valid key or name where one is close. Long input is shown as its start and "...".
"""

from __future__ import annotations

import difflib
import json
import math
import re
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ValidationError

from firefight.errors import InputError

M = TypeVar("M", bound=BaseModel)

#: Largest number (either sign) a file may hold unless a field says otherwise: far above any stat,
#: range or count a rule text uses, far below what would make a rule loop for hours.
MAX_NUMBER = 1_000_000
#: Keys whose text may be empty (everything else that is text names something).
FREE_TEXT = frozenset({"title", "note", "notes", "description"})
#: Longest echo of user input inside a message.
MAX_SHOWN = 60


def clip(text: object, limit: int = MAX_SHOWN) -> str:
    """``repr``-free short form of user input: its start and "..." when it is long."""
    s = str(text).replace("\n", " ")
    return s if len(s) <= limit else s[: limit - 3] + "..."


def clip_path(path: object, limit: int = 160) -> str:
    """A file path for a message: whole when it is short, else "..." and its end (the name)."""
    s = str(path).replace("\n", " ")
    return s if len(s) <= limit else "..." + s[-(limit - 3) :]


def shown(value: object, limit: int = MAX_SHOWN) -> str:
    """A value as the user wrote it in TOML, clipped: strings quoted, booleans lower case."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(clip(value, limit))
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (list, tuple)):
        return "a list"
    return clip(value, limit)


#: A list of choices this long or shorter is shown whole, even beside a "did you mean".
SHORT_LIST = 6


def suggest(name: str, known: Iterable[str], what: str = "", cutoff: float = 0.6) -> str:
    """A tip naming the nearest of ``known`` for a misspelt ``name``, and every choice when
    there are few (else the first dozen)."""
    options = sorted({str(k) for k in known})
    close = difflib.get_close_matches(str(name), options, n=3, cutoff=cutoff)
    if not options:
        return f"there are no {what or 'names'} to choose from"
    head = ", ".join(clip(o, 40) for o in options[:12]) + (", ..." if len(options) > 12 else "")
    if close:
        guess = f"did you mean {' or '.join(repr(clip(c, 40)) for c in close)}?"
        return f"{guess} valid {what or 'names'}: {head}" if len(options) <= SHORT_LIST else guess
    return f"valid {what or 'names'}: {head}"


def check_name(name: str, known: Iterable[str], where: str, what: str) -> str:
    """``name`` if it is one of ``known``, else one line naming the nearest known names."""
    options = list(known)
    if name not in options:
        raise InputError(f"{where}: unknown {what} {shown(name)}", tip=suggest(name, options, what))
    return name


def situation_kind(data: Mapping[str, Any], kinds: Sequence[str], default: str, source: str) -> str:
    """The file's ``kind`` (``default`` when absent), or one line naming the kinds there are."""
    kind = data.get("kind", default)
    if not isinstance(kind, str) or kind not in kinds:
        close = difflib.get_close_matches(kind, list(kinds), n=1) if isinstance(kind, str) else []
        raise InputError(
            f"{source}: field kind: unknown situation kind {shown(kind)}",
            tip=f"did you mean {close[0]!r}?" if close else f"use one of: {', '.join(kinds)}",
        )
    return kind


# --------------------------------------------------------------------------- numbers


def _check_values(data: Any, path: list[str | int], source: str) -> None:
    """Refuse any number beyond :data:`MAX_NUMBER`, any float that is not finite, and empty text
    (a name, a catalog entry, a choice) outside :data:`FREE_TEXT`."""
    if isinstance(data, bool):
        return
    if isinstance(data, int):
        if abs(data) > MAX_NUMBER:
            raise InputError(
                f"{source}: field {field_path(path)}: {shown(data, 24)} is too large",
                tip=f"numbers go from -{MAX_NUMBER:,} to {MAX_NUMBER:,}",
            )
    elif isinstance(data, float):
        if not math.isfinite(data) or abs(data) > MAX_NUMBER:
            raise InputError(
                f"{source}: field {field_path(path)}: {data} is not a usable number",
                tip=f"give a finite number from -{MAX_NUMBER:,} to {MAX_NUMBER:,}",
            )
    elif isinstance(data, Mapping):
        for key, value in data.items():
            if isinstance(value, str) and not value.strip() and key not in FREE_TEXT:
                raise InputError(
                    f"{source}: field {field_path([*path, key])}: is empty",
                    tip="give it a value, or leave the key out",
                )
            _check_values(value, [*path, key], source)
    elif isinstance(data, (list, tuple)):
        for i, value in enumerate(data):
            if isinstance(value, str) and not value.strip():
                raise InputError(
                    f"{source}: field {field_path([*path, i])}: is empty",
                    tip="give it a value, or remove it from the list",
                )
            _check_values(value, [*path, i], source)


# --------------------------------------------------------------------------- error wording


def field_path(loc: Sequence[int | str]) -> str:
    """A pydantic location as the user writes the field: ``shooters[0].skills``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _members(annotation: Any) -> list[Any]:
    """The types an annotation allows (unions flattened, ``Annotated`` and ``None`` dropped)."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _members(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        out: list[Any] = []
        for arg in typing.get_args(annotation):
            out.extend(_members(arg))
        return out
    if annotation is type(None):
        return []
    return [annotation]


def _type_tag(tp: Any) -> str:
    return getattr(tp, "__name__", str(tp))


def _walk(model: type[BaseModel], loc: Sequence[int | str]) -> tuple[list[int | str], Any]:
    """Follow a pydantic error location through ``model``'s annotations.

    Returns the location as the user wrote it (union branch tags such as ``str`` or a class name
    dropped) and the annotation of the last part (``None`` when it cannot be followed).
    """
    clean: list[int | str] = []
    current: list[Any] = [model]
    for part in loc:
        nxt: list[Any] = []
        tagged = False
        for tp in current:
            if isinstance(part, str) and (part == _type_tag(tp) or "[" in part):
                nxt.append(tp)  # a union branch tag: not part of the user's path
                tagged = True
        if tagged:
            current = nxt
            continue
        clean.append(part)
        for tp in current:
            origin = typing.get_origin(tp)
            if isinstance(tp, type) and issubclass(tp, BaseModel):
                field = tp.model_fields.get(str(part))
                if field is not None:
                    nxt.extend(_members(field.annotation))
            elif origin in (tuple, list, frozenset, set) and isinstance(part, int):
                args = [a for a in typing.get_args(tp) if a is not Ellipsis]
                if args:
                    nxt.extend(_members(args[min(part, len(args) - 1)]))
            elif origin is dict:
                pair = typing.get_args(tp)
                if len(pair) == 2:
                    nxt.extend(_members(pair[1]))
        current = nxt
    return clean, current


def _model_at(model: type[BaseModel], loc: Sequence[int | str]) -> type[BaseModel] | None:
    _, types_here = _walk(model, loc)
    for tp in types_here:
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return tp
    return None


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (list, tuple)):
        return "a list"
    return "a value of another kind"


_WANTS = {
    "int": ("a whole number", "write it without quotes or a decimal point, e.g. 3"),
    "float": ("a number", "write it without quotes, e.g. 2.5"),
    "bool": ("true or false", "write true or false, without quotes"),
    "string": ("text", 'put it in quotes, e.g. "pistol"'),
    "dict": ("a table", "write it as a [section] or { key = value, ... }"),
    "model": ("a table", "write it as a [section] or { key = value, ... }"),
    "tuple": ("a list", "write it as [a, b, ...]"),
    "list": ("a list", "write it as [a, b, ...]"),
}


def _as_written(path: list[int | str], data: Any) -> list[int | str]:
    """A model's path as the file writes it: ``targets[0]`` is ``target`` in a file that gives
    one ``[target]`` table where the model holds a list of ``targets``."""
    out: list[int | str] = []
    node = data
    i = 0
    while i < len(path):
        part = path[i]
        if (
            isinstance(node, Mapping)
            and isinstance(part, str)
            and part not in node
            and part.endswith("s")
            and part[:-1] in node
            and path[i + 1 : i + 2] == [0]
        ):
            out.append(part[:-1])
            node = node[part[:-1]]
            i += 2
            continue
        out.append(part)
        if isinstance(node, Mapping):
            node = node.get(part)
        elif isinstance(node, (list, tuple)) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            node = None
        i += 1
    return out


def _describe(
    model: type[BaseModel], err: Mapping[str, Any], data: Any
) -> tuple[str, str, str | None]:
    """(field, what is wrong, tip) for one pydantic error, in the user's words."""
    loc = list(err.get("loc", ()))
    clean, _ = _walk(model, loc)
    where = field_path(_as_written(clean, data))
    kind = str(err.get("type", ""))
    value = err.get("input")
    ctx = err.get("ctx") or {}
    family = kind.split("_")[0]
    if kind == "extra_forbidden":
        parent = _model_at(model, loc[:-1])
        known = list(parent.model_fields) if parent is not None else []
        key = str(clean[-1]) if clean else "?"
        return where, f"unknown key {key!r}", suggest(key, known, "keys here")
    if kind == "missing":
        return where, "is missing", f"add {where} to the file"
    if kind in ("model_type", "model_attributes_type", "dict_type") or (
        family in _WANTS and kind.endswith(("_type", "_parsing", "_from_float", "_fraction"))
    ):
        fam = "model" if kind.startswith("model") else family
        wants, tip = _WANTS.get(fam, ("another kind of value", "see the file format"))
        if fam == "string":
            tip = _text_tip(model, loc, clean, where)
        got = _kind_of(value)
        if isinstance(value, (bool, int, float, str)):
            got += f" ({shown(value)})"
        return where, f"must be {wants}, not {got}", tip
    if kind == "literal_error":
        expected = str(ctx.get("expected", ""))
        options = [o.strip().strip("'") for o in expected.replace(" or ", ", ").split(",")]
        close = difflib.get_close_matches(str(value), [o for o in options if o], n=2)
        tip = f"did you mean {' or '.join(map(repr, close))}?" if close else "write one of these"
        return where, f"{shown(value)} is not one of {clip(expected, 200)}", tip
    bounds = {
        "greater_than_equal": ("at least", "ge"),
        "greater_than": ("more than", "gt"),
        "less_than_equal": ("at most", "le"),
        "less_than": ("less than", "lt"),
    }
    if kind in bounds:
        word, key = bounds[kind]
        limit = ctx.get(key)
        return where, f"{shown(value)} is out of range", f"it must be {word} {limit}"
    if kind in ("too_short", "too_long"):
        lo, hi = ctx.get("min_length"), ctx.get("max_length")
        actual = ctx.get("actual_length")
        if kind == "too_short":
            tip = f"give at least {lo}" if lo else "give more"
            return where, f"has {actual} item(s), too few", tip
        return where, f"has {actual} item(s), too many", f"give at most {hi}"
    if kind == "string_too_short":
        return where, "is empty", "give it a name or value"
    if kind in ("value_error", "assertion_error"):
        msg = str(err.get("msg", "")).removeprefix("Value error, ")
        msg = msg.removeprefix("Assertion failed, ")
        named = re.match(r"^([A-Za-z_][\w.\[\]]*): (.+)$", msg)
        if named and not clean:  # a whole-file check that names its own field
            return named.group(1), clip(named.group(2), 200), None
        return where, clip(msg, 200), None
    return where, clip(str(err.get("msg", kind)), 160), None


def _text_tip(
    model: type[BaseModel], loc: list[int | str], clean: list[int | str], where: str
) -> str:
    """How to write a text field: quoted, with the field's own example where it gives one (an
    armour's tip shows an armour), and that an optional field can be left out."""
    key = clean[-1] if clean and isinstance(clean[-1], str) else None
    if key is None:
        return 'put it in quotes, e.g. "text"'
    at = max(i for i, part in enumerate(loc) if part == key)
    parent = _model_at(model, loc[:at])
    field = parent.model_fields.get(key) if parent is not None else None
    examples = (field.examples if field is not None else None) or ["..."]
    tip = f'put it in quotes, e.g. {key} = "{examples[0]}"'
    if field is not None and not field.is_required() and field.default is None:
        tip += f"; for none, leave it out (--set {where}= removes it)"
    return tip


def _pick(errors: list[Any], data: Any) -> Any:
    """The error to show: a union of branches reports one error per branch; keep the branch the
    input's own kind belongs to (a table -> the table branch), else the first. A key missing
    beside an unknown one is most likely that key misspelt: the unknown key is shown (its
    line suggests the missing one)."""
    kinds = {str(e.get("type", "")) for e in errors}
    if {"missing", "extra_forbidden"} <= kinds:
        return next(e for e in errors if e.get("type") == "extra_forbidden")
    first = errors[0]
    loc = first.get("loc", ())
    for err in errors:
        etype = str(err.get("type", ""))
        value = err.get("input")
        if isinstance(value, dict) and etype in ("model_type", "dict_type", "string_type"):
            continue
        if err.get("loc", ())[:1] == loc[:1]:
            return err
    return first


def _raise(model: type[M], errors: list[Any], data: Any, source: str) -> typing.NoReturn:
    """One line for the first error; an unknown key leads (a misspelt key is the likely cause
    of the others), and a missing field it is a misspelling of is not counted again."""
    unknown = [e for e in errors if e.get("type") == "extra_forbidden"]
    chosen = unknown[0] if unknown else _pick(list(errors), data)
    where, what, tip = _describe(model, chosen, data)
    # one count per field (a union reports each of its branches at the same field)
    fields = {tuple(_walk(model, e.get("loc", ()))[0]) for e in errors}
    fields -= {tuple(_walk(model, loc)[0]) for loc in _misspelt(unknown, errors)}
    # a list that fails because an item of it fails is the same mistake
    others = {f for f in fields if not any(g[: len(f)] == f and g != f for g in fields)}
    more = f" (and {len(others) - 1} more)" if len(others) > 1 else ""
    raise InputError(f"{source}: field {where}: {what}{more}", tip=tip)


def _misspelt(unknown: list[Any], errors: list[Any]) -> set[tuple[Any, ...]]:
    """The missing fields that an unknown key beside them is a misspelling of."""
    out = set()
    for err in errors:
        loc = tuple(err.get("loc", ()))
        if err.get("type") != "missing" or not loc:
            continue
        for bad in unknown:
            near = tuple(bad.get("loc", ()))
            if near[:-1] == loc[:-1] and difflib.get_close_matches(
                str(near[-1]), [str(loc[-1])], cutoff=0.6
            ):
                out.add(loc)
    return out


def _json_default(value: Any) -> Any:
    if isinstance(value, BaseModel):  # e.g. a house-rules object a ruleset passes along
        return value.model_dump(mode="json")
    return str(value)  # a TOML date or time


def _json_safe(data: Any) -> Any:
    """The data as JSON would carry it, or ``None`` if it cannot be (the strict pass is then
    skipped)."""
    try:
        return json.loads(json.dumps(data, default=_json_default))
    except (TypeError, ValueError):
        return None


def validate(model: type[M], data: Mapping[str, Any], source: str = "input") -> M:
    """Validate ``data`` against ``model``; the first error becomes one line with its field."""
    if not isinstance(data, Mapping):
        raise InputError(
            f"{source}: must be a table of keys, not {_kind_of(data)}",
            tip="write key = value lines",
        )
    _check_values(data, [], source)
    try:
        result = model.model_validate(data)
    except ValidationError as err:
        _raise(model, list(err.errors()), data, source)
    except RecursionError:
        raise InputError(f"{source}: nests too deeply", tip="flatten the tables") from None
    found = _coerced(data, result, [])
    if found is not None:
        path, value, out = found
        wants, tip = _WANTS[_kind_key(out)]
        raise InputError(
            f"{source}: field {field_path(path)}: must be {wants}, not {_kind_of(value)} "
            f"({shown(value)})",
            tip=tip,
        )
    as_json = _json_safe(data)
    if as_json is not None:
        try:
            model.model_validate_json(json.dumps(as_json), strict=True)
        except ValidationError as err:
            strict_only = [e for e in err.errors() if _is_type_error(e)]
            if strict_only:
                _raise(model, strict_only, data, source)
    return result


def _kind_key(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    return "int" if isinstance(value, int) else "float"


def _coerced(
    value: Any, out: Any, path: list[int | str]
) -> tuple[list[int | str], Any, Any] | None:
    """The first scalar the lax pass turned into another kind (``true`` -> 1, ``"3"`` -> 3,
    ``1`` -> ``true``, ``3.0`` -> 3), found by walking the input beside the validated model."""
    if isinstance(out, BaseModel):
        if not isinstance(value, Mapping):
            return None
        fields = type(out).model_fields
        by_alias = {f.alias: n for n, f in fields.items() if f.alias}
        for key, item in value.items():
            name = key if key in fields else by_alias.get(key)
            if name is not None:
                found = _coerced(item, getattr(out, name, None), [*path, key])
            else:  # a one-or-many table ([target] for targets = [...]) or a renamed key
                many = getattr(out, f"{key}s", None) if f"{key}s" in fields else None
                one = many[0] if isinstance(many, tuple) and len(many) == 1 else None
                found = _coerced(item, one, [*path, key]) if one is not None else None
            if found is not None:
                return found
        return None
    if isinstance(out, (tuple, list)) and isinstance(value, (list, tuple)):
        if len(out) != len(value):
            return None
        for i, (a, b) in enumerate(zip(value, out, strict=True)):
            found = _coerced(a, b, [*path, i])
            if found is not None:
                return found
        return None
    if isinstance(out, Mapping) and isinstance(value, Mapping):
        for key, item in value.items():
            if key in out:
                found = _coerced(item, out[key], [*path, key])
                if found is not None:
                    return found
        return None
    number = isinstance(out, (int, float)) and not isinstance(out, bool)
    if (
        (isinstance(value, bool) and number)
        or (isinstance(out, bool) and not isinstance(value, bool))
        or (isinstance(value, str) and number)
        or (isinstance(value, float) and isinstance(out, int) and not isinstance(out, bool))
    ):
        return path, value, out
    return None


_STRICT_KINDS = frozenset(
    {
        "int_type",
        "int_parsing",
        "int_from_float",
        "float_type",
        "float_parsing",
        "bool_type",
        "bool_parsing",
        "string_type",
    }
)


def _is_type_error(err: Any) -> bool:
    """A strict-pass error about a single value of the wrong kind (``true`` for a number, ``"3"``
    for 3, ``1`` for true): what the lax pass would have converted. Lists and tables are left to
    the lax pass (a ruleset's own validators may reshape them)."""
    value = err.get("input")
    return str(err.get("type", "")) in _STRICT_KINDS and isinstance(value, (bool, int, float, str))


# --------------------------------------------------------------------------- dice-valued fields


def _dice_text(value: str) -> str:
    from firefight.dice import parse
    from firefight.dice.limits import check_exact

    node = parse(value)
    if node.is_sorted:
        raise ValueError(f"{clip(value)} is a tuple of faces, not a number")
    check_exact(node, value)
    return value


#: A field holding a dice expression (``"2d10"``, ``"d10x+2"``): parsed when the file loads, so a
#: bad one is refused with the file and field instead of failing in the middle of a rule.
DiceText = Annotated[str, AfterValidator(_dice_text)]


def _dice_pool(value: str) -> str:
    from firefight.dice.nodes import Dice

    node = _node(value)
    if not (isinstance(node, Dice) and node.keep is None):
        raise ValueError(f"{clip(value)!r} is not a plain pool of dice: write NdX, e.g. 2d20")
    return value


def _node(value: str) -> Any:
    from firefight.dice import parse

    return parse(value)


#: A field holding a plain pool ``NdX`` (no keep, no constant), e.g. warfare2d20's ``2d20``.
DicePool = Annotated[str, AfterValidator(_dice_pool)]


def field_type(model: type[BaseModel], name: str) -> Any:
    """The type of ``model``'s field ``name`` with its constraints (``Annotated[int, ...]``),
    for checking one value the way the model checks it (a GM's edit of a combatant's state)."""
    info = model.model_fields[name]
    return Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation
