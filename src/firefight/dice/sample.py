"""Vectorised sampling: ``n`` values of an expression as one numpy array.

Each node is simulated on whole arrays (no per-roll Python). Values live in the smallest signed
integer type that holds every value the expression (and each of its parts) can take, so a
``2d20`` sum moves bytes, not 8-byte words; a sum of dice is drawn a few dice at a time (one
uniform index over their face combinations, read in a table of their sums: one draw for ``2d20``)
and added in place, in chunks that stay in cache. Open-ended dice (no upper bound) use int64
and keep rolling only the rows still exploding. Sorted dice give an ``(n, count)`` array, highest
face first.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from firefight.dice.nodes import (
    Abs,
    Add,
    Const,
    Dice,
    Exploding,
    Mul,
    Neg,
    Node,
    PlusMinus,
    Sorted,
    Sub,
    walk,
)
from firefight.dice.parse import as_node
from firefight.errors import DiceError, present

IntArray = npt.NDArray[Any]
#: Most face combinations one draw covers (a table of their sums, a few kB, stays in cache).
TABLE_ROWS = 1 << 13
#: Rows per pass at least: a few hundred kB of temporaries, which stay in cache.
CHUNK = 1 << 15
#: Bytes of one column per pass: narrow values take longer passes (int8: 131,072 rows), so the
#: per-pass Python calls cost less; int32 and int64 keep :data:`CHUNK` rows.
CHUNK_BYTES = 1 << 17
_TYPES = (np.int8, np.int16, np.int32, np.int64)


def bounds(node: Node) -> tuple[int, int] | None:
    """Least and greatest value of a numeric expression (None: open-ended, no bound)."""
    if isinstance(node, Const):
        return node.value, node.value
    if isinstance(node, Dice):
        return node.kept_count, node.kept_count * node.sides
    if isinstance(node, Sorted):
        return 1, node.sides
    if isinstance(node, (Exploding, PlusMinus)):
        return None
    if isinstance(node, (Add, Sub)):
        a, b = bounds(node.left), bounds(node.right)
        if a is None or b is None:
            return None
        if isinstance(node, Add):
            return a[0] + b[0], a[1] + b[1]
        return a[0] - b[1], a[1] - b[0]
    if isinstance(node, (Neg, Mul, Abs)):
        inner = bounds(node.operand)
        if inner is None:
            return None
        lo, hi = inner
        if isinstance(node, Neg):
            return -hi, -lo
        if isinstance(node, Mul):
            ends = (lo * node.factor, hi * node.factor)
            return min(ends), max(ends)
        return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
    raise DiceError(f"cannot sample {node!r}")


def value_type(node: Node) -> np.dtype[Any]:
    """The smallest signed integer type holding every value of ``node`` and of each part."""
    lo, hi = 0, 0
    for part in walk(node):
        b = bounds(part)
        if b is None:
            return np.dtype(np.int64)
        factor = part.factor if isinstance(part, Mul) else 0
        lo, hi = min(lo, b[0], factor), max(hi, b[1], factor)
    for t in _TYPES:
        info = np.iinfo(t)
        if info.min <= lo and hi <= info.max:
            return np.dtype(t)
    raise DiceError("the values of this expression do not fit 64-bit integers")


def _chain(rng: np.random.Generator, sides: int, n: int) -> IntArray:
    """n open-ended chains: roll, and roll again and add while the top face shows."""
    total = np.zeros(n, dtype=np.int64)
    live = np.arange(n)
    while live.size:
        faces = rng.integers(1, sides + 1, size=live.size)
        total[live] += faces
        live = live[faces == sides]
    return total


def _exploding(node: Exploding, n: int, rng: np.random.Generator) -> IntArray:
    out = np.zeros(n, dtype=np.int64)
    for _ in range(node.count):
        first = rng.integers(1, node.sides + 1, size=n)
        top = first == node.sides
        one = first == 1
        value = np.where(one, 0, first)
        special = np.flatnonzero(top | one)
        extra = _chain(rng, node.sides, special.size)
        value[special] += np.where(one[special], -extra, extra)
        out += value
    return out


@lru_cache(maxsize=64)
def _sums(sides: int, k: int, dt: np.dtype[Any]) -> IntArray:
    """The sum of ``k`` dice for each of their ``sides ** k`` equally likely face combinations
    (mixed radix: combination ``i`` shows faces ``i // sides**j % sides + 1``)."""
    faces = np.arange(1, sides + 1, dtype=np.int64)
    out = faces
    for _ in range(k - 1):
        out = np.add.outer(out, faces).reshape(-1)
    table: IntArray = out.astype(dt)
    table.setflags(write=False)
    return table


def _per_draw(sides: int, count: int) -> int:
    """How many dice one draw throws: the most whose face combinations stay within
    :data:`TABLE_ROWS` (one uniform index over them is every die at once, exactly)."""
    k = 1
    while k < count and sides ** (k + 1) <= TABLE_ROWS:
        k += 1
    return k


def _dice(node: Dice, n: int, rng: np.random.Generator, dt: np.dtype[Any]) -> IntArray:
    high = node.sides + 1
    if node.keep is None:  # a few dice per draw, summed in place: no (n, count) array
        k = _per_draw(node.sides, node.count)
        out: IntArray | None = None
        left = node.count
        while left:
            m = min(k, left)
            if m == 1:
                part = rng.integers(1, high, size=n, dtype=dt)
            else:
                index = rng.integers(0, node.sides**m, size=n, dtype=np.uint16)
                part = np.take(_sums(node.sides, m, dt), index)
            if out is None:
                out = part
            else:
                out += part
            left -= m
        return present(out, "a dice pool of no dice")
    faces = rng.integers(1, high, size=(n, node.count), dtype=dt)
    faces.sort(axis=1)
    k = node.kept_count
    kept = faces[:, node.count - k :] if node.keep in ("kh", "dl") else faces[:, :k]
    total: IntArray = kept.sum(axis=1, dtype=dt)
    return total


def _sample(node: Node, n: int, rng: np.random.Generator, dt: np.dtype[Any]) -> IntArray:
    """``n`` values of ``node`` as a fresh array of type ``dt`` (which holds every value)."""
    if isinstance(node, Const):
        return np.full(n, node.value, dtype=dt)
    if isinstance(node, Dice):
        return _dice(node, n, rng, dt)
    if isinstance(node, Exploding):
        return _exploding(node, n, rng).astype(dt, copy=False)
    if isinstance(node, PlusMinus):
        out = np.zeros(n, dtype=np.int64)
        for _ in range(node.count):
            out += _chain(rng, node.sides, n) - _chain(rng, node.sides, n)
        return out.astype(dt, copy=False)
    if isinstance(node, (Add, Sub)):
        left = _sample(node.left, n, rng, dt)
        right = _sample(node.right, n, rng, dt)
        if isinstance(node, Add):
            return np.add(left, right, out=left)
        return np.subtract(left, right, out=left)
    if isinstance(node, Neg):
        inner = _sample(node.operand, n, rng, dt)
        return np.negative(inner, out=inner)
    if isinstance(node, Mul):
        scaled = _sample(node.operand, n, rng, dt)
        scaled *= dt.type(node.factor)
        return scaled
    if isinstance(node, Abs):
        inner = _sample(node.operand, n, rng, dt)
        return np.abs(inner, out=inner)
    raise DiceError(f"cannot sample {node!r}")


def sample(expr: str | Node, n: int, rng: np.random.Generator | int | None = None) -> IntArray:
    """``n`` independent values of ``expr`` (an ``(n, count)`` array for sorted dice), in the
    smallest integer type that holds them (:func:`value_type`): cast before summing many."""
    if n < 0:
        raise DiceError(f"cannot draw {n} samples", tip="use n >= 0")
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    node = as_node(expr)
    dt = value_type(node)
    if isinstance(node, Sorted):
        faces = gen.integers(1, node.sides + 1, size=(n, node.count), dtype=dt)
        faces.sort(axis=1)
        return np.ascontiguousarray(faces[:, ::-1])
    rows = chunk_rows(dt)
    if n <= rows:
        return _sample(node, n, gen, dt)
    out = np.empty(n, dtype=dt)
    for start in range(0, n, rows):
        stop = min(start + rows, n)
        out[start:stop] = _sample(node, stop - start, gen, dt)
    return out


def chunk_rows(dt: np.dtype[Any]) -> int:
    """Rows per pass for values of type ``dt``: :data:`CHUNK_BYTES` of a column, at least
    :data:`CHUNK` rows."""
    return max(CHUNK, CHUNK_BYTES // dt.itemsize)
