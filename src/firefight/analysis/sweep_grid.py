"""Sweep grids: ``--vary PATH=VALUES`` parsed, scenario fields addressed by name, cells, seeds.

A path addresses the scenario's TOML data as ``--set`` does everywhere (:mod:`firefight.core.paths`:
``combatants.Rolf.attack``, ``sides.red.policy``, ``battlefield.range``, ``house.<key>``,
``max_rounds``). It is resolved once, against the scenario, into a *locator* (keys and list
indices) that workers apply to their copy of the data.

``VALUES`` is a range (``10..16``, ``0..30:5``, both ends included; ``0.5..2:0.5``) or a list
(``leather,chain,plate``; each item read as a TOML scalar where it parses, else as a string).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from firefight.core.paths import Locator, resolve
from firefight.errors import InputError

#: Most cells one sweep may have.
MAX_CELLS = 1_000_000
#: Most values one ``--vary`` may give.
MAX_VALUES = 100_000

_NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
_RANGE = re.compile(rf"^\s*({_NUMBER})\s*\.\.\s*({_NUMBER})\s*(?::\s*({_NUMBER}))?\s*$")
#: ``4-8``: a range written with a dash, which would be the text "4-8".
_DASHED = re.compile(rf"^\s*({_NUMBER})\s*-\s*({_NUMBER})\s*$")


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
    dashed = _DASHED.match(text)
    if dashed:
        a, b = dashed.groups()
        raise InputError(
            f"{flag}: {text.strip()} is not a range",
            tip=f"write {a}..{b} for {a} to {b} (both included); "
            f"for the text, quote it: '\"{text.strip()}\"'",
        )
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


def parse_vary(data: Mapping[str, Any], text: str, option: str = "--vary") -> Vary:
    """``PATH=VALUES`` against the scenario data."""
    path, sep, values = text.partition("=")
    flag = f"{option} {text}"
    if not sep or not path.strip():
        raise InputError(f"{flag}: not PATH=VALUES", tip="e.g. --vary combatants.Rolf.attack=8..18")
    locator, column, new_key = resolve(data, path, flag)
    return Vary(column, locator, parse_values(values, flag), new_key)


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
