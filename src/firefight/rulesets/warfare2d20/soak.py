"""Damage dice against soak dice (W06) and layered soak (W07), written once on numpy arrays.

The same functions serve one attack (arrays of one row, with the transcript) and the exact table
(every sorted damage tuple against every sorted soak tuple at once), so the odds and the table
rule cannot drift apart. Faces are sorted high to low; a stopped die becomes 0 and sorts to the
end, so the dice that got through stay in order for the next layer.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from firefight.dice import Weighted, exact_sorted
from firefight.rulesets.warfare2d20.checks import sorted_pool

IntArray = npt.NDArray[np.integer[Any]]
BoolArray = npt.NDArray[np.bool_]


def beats(damage: IntArray, soak: IntArray) -> BoolArray:
    """Which damage dice beat the soak die they are paired with (W06).

    Both sorted high to low along the last axis and paired in that order; a tie is stopped;
    a damage die with no soak die left to face counts in full (reading), extra soak dice do
    nothing.
    """
    n, m = damage.shape[-1], soak.shape[-1]
    if m < n:
        pad = np.zeros((*soak.shape[:-1], n - m), dtype=soak.dtype)
        soak = np.concatenate([soak, pad], axis=-1)
    return np.asarray(damage > soak[..., :n])


def through(damage: IntArray, soak: IntArray) -> IntArray:
    """The damage dice that got through one layer, full value, still high to low (W07)."""
    kept = np.where(beats(damage, soak), damage, 0)
    kept.sort(axis=-1)
    return np.asarray(kept[..., ::-1])


#: Below this total, float64 bincount sums integer weights exactly.
_FLOAT_EXACT = 2**53


def _tuples(expr: str) -> tuple[IntArray, list[int]]:
    w = exact_sorted(sorted_pool(expr))
    items = list(w.items())
    # int16 is plenty for faces (the dice core allows at most 10,000 sides) and keeps the
    # broadcast tables small.
    return np.array([k for k, _ in items], dtype=np.int16), [x for _, x in items]


@lru_cache(maxsize=64)
def _soak_tuples(expr: str, n: int) -> tuple[IntArray, list[int]]:
    """The soak tuples as ``n`` damage dice meet them: only the ``n`` highest soak dice face a
    damage die (:func:`beats`), so tuples alike in those are merged (exact: their weights
    summed). Five soak dice against three damage dice: 4,368 tuples become 364."""
    soak, weights = _tuples(expr)
    if soak.shape[1] <= n:
        return soak, weights
    top = soak[:, :n]
    base = int(top.max()) + 1
    codes = top.astype(np.int64) @ (base ** np.arange(n, dtype=np.int64))
    uniq, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    summed = _add_up(inverse.reshape(-1), np.array(weights, dtype=object), len(uniq), False)
    return top[first], summed


def _add_up(keys: IntArray, weights: npt.NDArray[Any], size: int, exact: bool) -> list[int]:
    """Sum weights by integer key (float64 bincount while exact, else Python integers)."""
    if exact:
        return [int(x) for x in np.bincount(keys, weights=weights, minlength=size)]
    out = [0] * size
    for k, w in zip(keys.tolist(), weights.tolist(), strict=True):
        out[k] += int(w)
    return out


def _joint(weights: list[int], soak_w: list[int], exact: bool) -> npt.NDArray[Any]:
    kind = float if exact else object
    out: npt.NDArray[Any] = np.multiply.outer(
        np.array(weights, dtype=kind), np.array(soak_w, dtype=kind)
    )
    return out


def _sums_through(rows: IntArray, soak: IntArray) -> IntArray:
    """Damage through the last layer, every damage tuple (rows) against every soak tuple
    (columns): :func:`beats` one paired position at a time, added up (no (rows, soak, dice)
    temporaries, no reduction along a short last axis)."""
    sums = np.zeros((rows.shape[0], soak.shape[0]), dtype=np.int64)
    for i in range(rows.shape[1]):
        die = rows[:, None, i : i + 1]
        sums += np.where(beats(die, soak[None, :, i : i + 1]), die, 0)[..., 0]
    return sums


@lru_cache(maxsize=64)
def damage_table(damage: str, layers: tuple[str, ...]) -> Weighted[int]:
    """Exact distribution of the damage that gets through every soak layer, in order.

    Each layer is one broadcast of the rule over (distinct dice still going) x (soak tuples);
    between layers equal rows are merged (:func:`through`), after the last only sums matter.
    """
    rows, weights = _tuples(damage)
    total = sum(weights)
    if not layers:
        sums = rows.sum(axis=1, dtype=np.int64)
        out = _add_up(sums, np.array(weights, dtype=object), int(sums.max()) + 1, False)
        return Weighted(dict(enumerate(out)), total)
    base = int(rows.max()) + 1
    for layer in layers[:-1]:
        soak, soak_w = _soak_tuples(layer, rows.shape[1])
        kept = through(rows[:, None, :], soak[None, :, :]).reshape(-1, rows.shape[1])
        total *= sum(soak_w)
        joint = _joint(weights, soak_w, total < _FLOAT_EXACT).reshape(-1)
        codes = kept.astype(np.int64) @ (base ** np.arange(kept.shape[1], dtype=np.int64))
        uniq, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        weights = _add_up(inverse.reshape(-1), joint, len(uniq), total < _FLOAT_EXACT)
        rows = kept[first]
    soak, soak_w = _soak_tuples(layers[-1], rows.shape[1])
    total *= sum(soak_w)
    sums = _sums_through(rows, soak).reshape(-1)
    joint = _joint(weights, soak_w, total < _FLOAT_EXACT).reshape(-1)
    out = _add_up(sums, joint, int(sums.max()) + 1, total < _FLOAT_EXACT)
    return Weighted(dict(enumerate(out)), total)
