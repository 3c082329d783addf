"""Field paths into a file's data: the one syntax of ``--set`` and ``--vary``, in every command.

A path is keys joined by dots (``target.armour``, ``battlefield.range``, ``house.<key>``). A list
of named tables (``[[combatants]]``, ``[[sides]]``, ``[[targets]]``) is entered by the item's
``name`` (``combatants.Rolf.attack``, ``sides.red.policy``); a name with dots in it is matched
whole (``combatants.Cpl. Hicks.weapon``) or may be quoted (``combatants."Cpl. Hicks".weapon``); a
list of unnamed tables is entered by index (``battlefield.pairs.0.range``). Tables missing on the
way are created. A path is resolved once, against the data, into a *locator* (keys and list
indices) that :func:`set_at` applies, so sweep workers can apply it to their own copy.

``--set PATH=VALUE`` reads the value as TOML (``3``, ``true``, ``"text"``, ``[1, 2]``; anything
that does not parse is taken as text); ``--set PATH=`` (nothing after ``=``) removes the field, so
an optional field (a target's armour) can be taken away as well as changed.
"""

from __future__ import annotations

import copy
import difflib
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from firefight.core.validation import clip
from firefight.errors import FirefightError, InputError

Locator = tuple[str | int, ...]


class _Removed:
    """The value of ``--set PATH=``: remove the field."""

    def __repr__(self) -> str:
        return "REMOVED"


#: Set this to remove the field (``--set PATH=``).
REMOVED: Any = _Removed()

#: Singular words for the named lists, in messages ("has no combatant 'Rolf'").
_WHAT = {"combatants": "combatant", "sides": "side", "targets": "target"}


def split_path(text: str) -> list[str]:
    """``combatants."Cpl. Hicks".weapon`` -> ["combatants", "Cpl. Hicks", "weapon"] (quoted
    parts are kept whole and marked by a leading NUL so they are never re-joined)."""
    parts: list[str] = []
    current = ""
    quoted = False
    was_quoted = False
    for ch in text.strip():
        if ch == '"':
            quoted = not quoted
            was_quoted = True
        elif ch == "." and not quoted:
            parts.append("\0" + current if was_quoted else current)
            current, was_quoted = "", False
        else:
            current += ch
    if quoted:
        raise InputError(f"path {text!r} has an unclosed quote", tip='write "Name With. Dots"')
    parts.append("\0" + current if was_quoted else current)
    if any(not p.lstrip("\0").strip() for p in parts):
        raise InputError(f"path {text!r} has an empty part", tip="e.g. combatants.Rolf.attack")
    return parts


def resolve(data: Mapping[str, Any], text: str, flag: str) -> tuple[Locator, str, bool]:
    """A path against the data: (locator, canonical column name, the key is new)."""
    tokens = split_path(text)
    node: Any = data
    locator: list[str | int] = []
    names: list[str] = []
    i = 0
    where = "the file"
    while i < len(tokens):
        if isinstance(node, list):
            what = _WHAT.get(str(locator[-1]), "item") if locator else "item"
            k, i = _find_item(node, tokens, i, flag, where, what)
            locator.append(k)
            item = node[k]
            names.append(quote_name(str(item.get("name", k)) if isinstance(item, dict) else str(k)))
            node = item
            where = ".".join(names)
            if i == len(tokens):
                raise InputError(
                    f"{flag}: {where} is a whole {what}, not a field",
                    tip=f"name one of its fields, e.g. {where}.{_first_field(item)}",
                )
            continue
        if not isinstance(node, dict):
            raise InputError(
                f"{flag}: {where} is {_what(node)}, not a table",
                tip=f"set {where} itself, e.g. --set {where}=...",
            )
        key = tokens[i].lstrip("\0")
        locator.append(key)
        names.append(quote_name(key))
        i += 1
        if i == len(tokens):
            if key == "name" and len(locator) >= 2 and isinstance(locator[-2], int):
                verb = "varied" if flag.startswith("--vary") else "changed"
                raise InputError(
                    f"{flag}: names cannot be {verb} "
                    "(the table's columns and other fields are named by them)",
                    tip="change another field",
                )
            return tuple(locator), ".".join(names), key not in node
        nxt = node.get(key)
        where = ".".join(names)
        node = {} if nxt is None else nxt
    raise AssertionError("unreachable")  # pragma: no cover


def _what(value: Any) -> str:
    if isinstance(value, str):
        return f"the text {clip(value, 30)!r}"
    if isinstance(value, list):
        return "a list"
    return f"the single value {clip(value, 30)}"


def quote_name(name: str) -> str:
    """A list item's name as a path part: quoted when it holds a dot or a quote."""
    return f'"{name}"' if "." in name or '"' in name else name


def _first_field(item: Any) -> str:
    if isinstance(item, dict):
        for k in item:
            if k not in ("name", "side"):
                return str(k)
    return "field"


def _find_item(
    items: list[Any], tokens: list[str], i: int, flag: str, where: str, what: str
) -> tuple[int, int]:
    """The list item named by ``tokens[i:j]`` (longest name first), or by index."""
    if not tokens[i].startswith("\0"):
        for j in range(len(tokens), i, -1):
            if any(t.startswith("\0") for t in tokens[i:j]):
                continue
            name = ".".join(tokens[i:j])
            for k, item in enumerate(items):
                if isinstance(item, dict) and item.get("name") == name:
                    return k, j
    else:
        name = tokens[i][1:]
        for k, item in enumerate(items):
            if isinstance(item, dict) and item.get("name") == name:
                return k, i + 1
    token = tokens[i].lstrip("\0")
    if token.isdigit() and int(token) < len(items):
        return int(token), i + 1
    named = [str(item["name"]) for item in items if isinstance(item, dict) and "name" in item]
    listed = f"{what}s: {', '.join(named)}" if named else f"give an index below {len(items)}"
    raise InputError(f"{flag}: {where} has no {what} {token!r}", tip=listed)


def set_at(data: dict[str, Any], locator: Locator, value: Any) -> None:
    """Set the field at ``locator`` in ``data`` (in place), creating tables on the way;
    :data:`REMOVED` removes it."""
    node: Any = data
    for step in locator[:-1]:
        if isinstance(step, int):
            node = node[step]
            continue
        nxt = node.get(step)
        if nxt is None:
            nxt = node[step] = {}
        node = nxt
    if value is REMOVED:
        node.pop(locator[-1], None)
    else:
        node[locator[-1]] = value


def with_values(data: Mapping[str, Any], sets: Sequence[tuple[Locator, Any]]) -> dict[str, Any]:
    """A deep copy of ``data`` with each (locator, value) set."""
    out = copy.deepcopy(dict(data))
    for locator, value in sets:
        set_at(out, locator, value)
    return out


# ---------------------------------------------------------------------------------- --set


def parse_override(text: str) -> tuple[str, Any]:
    """``a.b=3`` -> ("a.b", 3); ``a.b=`` -> ("a.b", REMOVED). Values are read as TOML
    (numbers, booleans, "strings", [arrays]); a single word that is not valid TOML is taken as
    text (``aim=scope``), words with spaces between them must be quoted."""
    if "=" not in text:
        raise InputError(
            f"--set {clip(text)!r} has no '='",
            tip="write --set key=value, e.g. range=20 (key= removes the key)",
        )
    key, raw = text.split("=", 1)
    if not key.strip():
        raise InputError(
            f"--set {clip(text)!r} has an empty key", tip="write --set section.key=value"
        )
    split_path(key)  # an empty part is refused here, before the data is read
    raw = raw.strip()
    if not raw:
        return key.strip(), REMOVED
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
        if any(c.isspace() for c in value):  # a bare word is text; bare words are not
            raise InputError(
                f"--set {clip(text)!r}: text with spaces must be quoted",
                tip=f"""write --set '{key.strip()}="{clip(value, 40)}"'""",
            ) from None
    except (ValueError, RecursionError):
        raise InputError(f"--set {clip(text)!r}: the value is not a TOML value") from None
    return key.strip(), value


def parse_set(data: Mapping[str, Any], text: str) -> tuple[Locator, Any]:
    """``--set PATH=VALUE`` against the data: the locator and the value (or :data:`REMOVED`),
    refusing to remove a field the data does not have (a misspelt key would do nothing)."""
    path, value = parse_override(text)
    flag = f"--set {clip(text)!r}"
    locator, column, new_key = resolve(data, path, flag)
    if value is REMOVED and new_key:
        parent = _node_at(data, locator[:-1])
        keys = [str(k) for k in parent] if isinstance(parent, dict) else []
        close = difflib.get_close_matches(str(locator[-1]), keys, n=1)
        raise InputError(
            f"{flag}: there is no {column} to remove",
            tip=f"did you mean {close[0]!r}?" if close else "check the path against the file",
        )
    return locator, value


def _node_at(data: Any, locator: Locator) -> Any:
    node = data
    for step in locator:
        if isinstance(step, int):
            node = node[step]
        else:
            node = node.get(step) if isinstance(node, dict) else None
    return node


def apply_overrides(data: Mapping[str, Any], overrides: Sequence[str]) -> dict[str, Any]:
    """A copy of ``data`` with each ``--set PATH=VALUE`` applied in turn."""
    out = copy.deepcopy(dict(data))
    for text in overrides:
        locator, value = parse_set(out, text)
        set_at(out, locator, value)
    return out


@contextmanager
def removal_tip(overrides: Sequence[str]) -> Iterator[None]:
    """A refusal of the text ``none`` that ``--set PATH=none`` gave (an unknown armour 'none')
    gains the tip that ``--set PATH=`` removes the field."""
    try:
        yield
    except FirefightError as err:
        for text in overrides:
            path, value = parse_override(text)
            if value == "none" and "'none'" in err.message:
                remove = f"--set {path}= (nothing after '=') removes the field"
                err.tip = f"{err.tip}; {remove}" if err.tip else remove
                break
        raise
