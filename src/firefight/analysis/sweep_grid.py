"""Sweep grids: ``--vary PATH=VALUES`` parsed, scenario fields addressed by name, cells, seeds.

A path addresses the scenario's TOML data the way ``--set`` does, except that a list of named
tables (``[[combatants]]``, ``[[sides]]``) is entered by the item's ``name``:
``combatants.Rolf.attack``, ``sides.red.policy``, ``battlefield.range``, ``house.<key>``,
``max_rounds``. A name with dots in it is matched whole (``combatants.Cpl. Hicks.weapon``) or may
be quoted (``combatants."Cpl. Hicks".weapon``); a list of unnamed tables is entered by index
(``battlefield.pairs.0.range``). A path is resolved once, against the scenario, into a
*locator* (keys and list indices) that workers apply to their copy of the data.

``VALUES`` is a range (``10..16``, ``0..30:5``, both ends included; ``0.5..2:0.5``) or a list
(``leather,chain,plate``; each item read as a TOML scalar where it parses, else as a string).
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from firefight.errors import InputError

#: Most cells one sweep may have.
MAX_CELLS = 1_000_000
#: Most values one ``--vary`` may give.
MAX_VALUES = 100_000

Locator = tuple[str | int, ...]

_NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
_RANGE = re.compile(rf"^\s*({_NUMBER})\s*\.\.\s*({_NUMBER})\s*(?::\s*({_NUMBER}))?\s*$")
_WHAT = {"combatants": "combatant", "sides": "side"}


@dataclass(frozen=True)
class Vary:
    """One varied field: the path as a column name, its locator, and its values in order."""

    column: str
    locator: Locator
    values: tuple[Any, ...]
    #: True when the field is absent from the scenario (so a misspelt key is caught early).
    new_key: bool = False


def parse_values(text: str, flag: str) -> tuple[Any, ...]:
    """``10..16`` / ``0..30:5`` / ``a,b,c`` -> the values, or one line saying what is wrong."""
    odd = next((c for c in text if c.isdigit() and not c.isascii()), None)
    if odd is not None:
        raise InputError(
            f"{flag}: {odd!r} is not one of the digits 0-9 (a full-width or other script's digit)",
            tip="type the numbers with the digits 0-9",
        )
    m = _RANGE.match(text)
    if m:
        return _range(m.group(1), m.group(2), m.group(3), flag)
    if not text.strip():
        raise InputError(f"{flag}: no values", tip="give a range like 10..16 or a list like a,b,c")
    items = [item.strip() for item in text.split(",")]
    if any(not item for item in items):
        raise InputError(f"{flag}: an empty item in the list", tip="write values like a,b,c")
    values = tuple(_scalar(item) for item in items)
    seen: list[str] = []
    for v in values:
        key = canonical(v)
        if key in seen:
            raise InputError(f"{flag}: {v!r} is listed twice", tip="give each value once")
        seen.append(key)
    if len(values) > MAX_VALUES:
        raise InputError(f"{flag}: {len(values):,} values", tip=f"give at most {MAX_VALUES:,}")
    return values


def _scalar(item: str) -> Any:
    try:
        value = tomllib.loads(f"v = {item}")["v"]
    except tomllib.TOMLDecodeError:
        return item
    if isinstance(value, (list, dict)):
        return item
    return value


def _range(start_text: str, end_text: str, step_text: str | None, flag: str) -> tuple[Any, ...]:
    floats = any("." in t for t in (start_text, end_text, step_text or ""))
    conv = float if floats else int
    start, end = conv(start_text), conv(end_text)
    step = conv(step_text) if step_text is not None else conv(1)
    if step <= 0:
        raise InputError(f"{flag}: step {step_text} is not positive", tip="e.g. 0..30:5")
    if start > end:
        raise InputError(
            f"{flag}: the range {start_text}..{end_text} is empty (it counts upwards)",
            tip=f"write {end_text}..{start_text}",
        )
    count = int((end - start) / step + 1e-9) + 1
    if count > MAX_VALUES:
        raise InputError(f"{flag}: {count:,} values", tip=f"give at most {MAX_VALUES:,}")
    if floats:
        return tuple(round(float(start) + i * float(step), 10) for i in range(count))
    return tuple(int(start) + i * int(step) for i in range(count))


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
    """A path against the scenario data: (locator, canonical column name, key is new)."""
    tokens = split_path(text)
    node: Any = data
    locator: list[str | int] = []
    names: list[str] = []
    i = 0
    where = "the scenario"
    while i < len(tokens):
        if isinstance(node, list):
            what = _WHAT.get(str(locator[-1]), "item") if locator else "item"
            k, i = _find_item(node, tokens, i, flag, where, what)
            locator.append(k)
            item = node[k]
            names.append(_quote(str(item.get("name", k)) if isinstance(item, dict) else str(k)))
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
                f"{flag}: {where} is {node!r}, not a table", tip="check the path's parts"
            )
        key = tokens[i].lstrip("\0")
        locator.append(key)
        names.append(_quote(key))
        i += 1
        if i == len(tokens):
            if key == "name" and len(locator) >= 2 and isinstance(locator[-2], int):
                raise InputError(
                    f"{flag}: names cannot be varied (the table's columns are named by them)",
                    tip="vary another field",
                )
            return tuple(locator), ".".join(names), key not in node
        nxt = node.get(key)
        where = ".".join(names)
        node = {} if nxt is None else nxt
    raise AssertionError("unreachable")  # pragma: no cover


def _quote(name: str) -> str:
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
    """Set the field at ``locator`` in ``data`` (in place), creating tables on the way."""
    node: Any = data
    for step in locator[:-1]:
        if isinstance(step, int):
            node = node[step]
            continue
        nxt = node.get(step)
        if nxt is None:
            nxt = node[step] = {}
        node = nxt
    node[locator[-1]] = value


def with_values(data: Mapping[str, Any], sets: Sequence[tuple[Locator, Any]]) -> dict[str, Any]:
    """A deep copy of ``data`` with each (locator, value) set."""
    out = copy.deepcopy(dict(data))
    for locator, value in sets:
        set_at(out, locator, value)
    return out


def parse_vary(data: Mapping[str, Any], text: str, option: str = "--vary") -> Vary:
    """``PATH=VALUES`` against the scenario data."""
    path, sep, values = text.partition("=")
    flag = f"{option} {text}"
    if not sep or not path.strip():
        raise InputError(f"{flag}: not PATH=VALUES", tip="e.g. --vary combatants.Rolf.attack=8..18")
    locator, column, new_key = resolve(data, path, flag)
    return Vary(column, locator, parse_values(values, flag), new_key)


def parse_set(data: Mapping[str, Any], text: str) -> tuple[Locator, Any]:
    """``--set PATH=VALUE``: one fixed change, addressed like ``--vary``."""
    path, sep, raw = text.partition("=")
    if not sep or not path.strip():
        raise InputError(f"--set {text}: not PATH=VALUE", tip="e.g. --set battlefield.range=close")
    locator, _, _ = resolve(data, path, f"--set {text}")
    value = _scalar(raw.strip()) if raw.strip() else ""
    if isinstance(value, str) and value == raw.strip() and any(c.isspace() for c in value):
        raise InputError(
            f"--set {text}: text with spaces must be quoted",
            tip=f"""write --set '{path.strip()}="{value}"'""",
        )
    return locator, value


def canonical(value: Any) -> str:
    """The canonical JSON of a value (sorted keys, no spaces): what a cell's seed is made from."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def cell_seed(seed: int, values: Mapping[str, Any]) -> int:
    """A cell's seed: ``seed`` and the SHA-256 of the canonical JSON of the cell's values
    (column -> value) through ``numpy.random.SeedSequence``. It depends on nothing else (not on
    the cell's place in the grid, nor on where it runs), so a cell gives the same fights in any
    sweep that contains it."""
    digest = hashlib.sha256(canonical(dict(values)).encode("ascii")).digest()
    words = [int.from_bytes(digest[k : k + 4], "little") for k in range(0, len(digest), 4)]
    state = np.random.SeedSequence([seed, *words]).generate_state(2, np.uint64)
    return int(state[0]) >> 1  # 63 bits: fits a signed 64-bit column


def grid(varies: Sequence[Vary]) -> list[tuple[Any, ...]]:
    """Every combination, the first ``--vary`` outermost."""
    cells = 1
    for v in varies:
        cells *= len(v.values)
    if cells > MAX_CELLS:
        raise InputError(f"the sweep has {cells:,} cells", tip=f"give at most {MAX_CELLS:,}")
    return list(itertools.product(*(v.values for v in varies)))


def column_values(values: Sequence[Any]) -> list[Any]:
    """A varied field's values as one table column type (numbers stay numbers; a mixture of
    numbers and words becomes words)."""
    kinds = {type(v) for v in values}
    if kinds <= {int} or kinds <= {float} or kinds <= {str} or kinds <= {bool}:
        return list(values)
    if kinds <= {int, float}:
        return [float(v) for v in values]
    return [v if isinstance(v, str) else canonical(v) for v in values]
