"""Skill and stat checks with luck (G02, G03, G17), as small sub-rules that exact dice memoise.

A check returns only what the rule needs next (passed?, luck points left), so on exact dice the
open-ended d10 behind it collapses to two or three branches (``dice.derive`` with a content key,
kept for the process: ``keep=True``).
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_left
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import TypeVar

from firefight.core.transcript import Check, Note, StateChange
from firefight.dice import DiceSource, Weighted, exact
from firefight.dice.sources import derived_distribution, mixed_weights

T = TypeVar("T", bound=Hashable)

#: G02: the exploding CP2020 d10 (a 10 adds a roll, a first 1 subtracts one).
D10X = "d10x"


@dataclass(frozen=True)
class LuckUse:
    """What one side may spend on one check (G17)."""

    who: str
    points: int
    reroll: bool = False
    boost: bool = False
    reroll_cost: int = 2
    point_bonus: int = 2


NO_LUCK = LuckUse("nobody", 0)


def with_points(luck: LuckUse, points: int) -> LuckUse:
    """``luck`` with ``points`` left (itself if unchanged): ``dataclasses.replace`` without its
    field-by-field keyword copy, on each path of a saves table."""
    if points == luck.points:
        return luck
    return LuckUse(luck.who, points, luck.reroll, luck.boost, luck.reroll_cost, luck.point_bonus)


def combine(parts: dict[tuple[T, int], int]) -> Weighted[T]:
    """``{(outcome, denominator): numerator}`` -> one Weighted over the least common multiple
    of the denominators (exact integers throughout; mass left out stays out): how the
    vectorised exact routes add up branches whose dice have different totals."""
    dens = {den for _, den in parts}  # a few distinct ones over many outcomes
    common = math.lcm(*dens)
    scale = {den: common // den for den in dens}
    weights: dict[T, int] = {}
    for (outcome, den), num in parts.items():
        weights[outcome] = weights.get(outcome, 0) + num * scale[den]
    return Weighted.adopt(weights, common)


def mix(groups: list[tuple[list[tuple[T, int]], int, int]]) -> Weighted[T]:
    """``[(outcomes with weights, group weight, group denominator)]`` -> one Weighted over the
    least common multiple of the denominators: :func:`combine` for tables whose branches come
    in groups that share a denominator (:func:`.dice.sources.mixed_weights`)."""
    return Weighted.adopt(*mixed_weights(groups))


@functools.cache
def _faces(expr: str) -> tuple[tuple[tuple[int, int], ...], int]:
    """(value, weight) pairs and total of ``expr`` at the default depth, listed once for the
    process: every check's table walks them (hundreds of tables in a long burst's odds)."""
    dist = exact(expr)
    return tuple(dist.items()), dist.total


@functools.cache
def _running(expr: str) -> tuple[list[int], list[int]] | None:
    """``expr``'s values (ascending) and the running sums of their weights, or None if
    :func:`_faces` does not list them in ascending order."""
    items, _ = _faces(expr)
    values = [v for v, _ in items]
    if values != sorted(values):
        return None
    return values, list(accumulate((w for _, w in items), initial=0))


def _regions(expr: str, low: float, high: int) -> Sequence[tuple[int, int]]:
    """:func:`_faces` with the values below ``low`` as one and those at or above ``high`` as
    one (the first value of each, their weights summed), in ascending order: for a check's
    table, which reads a value only through its region when it lies outside [low, high)."""
    items, _ = _faces(expr)
    running = _running(expr)
    if running is None:
        return items
    values, sums = running
    j = bisect_left(values, high)
    i = min(bisect_left(values, low), j)
    out = [(values[0], sums[i])] if i else []
    out.extend(items[i:j])
    if j < len(values):
        out.append((values[j], sums[-1] - sums[j]))
    return out


def spend(dice: DiceSource, luck: LuckUse, points: int, why: str) -> LuckUse:
    """Record ``points`` of luck spent and return what is left."""
    left = luck.points - points
    dice.record(StateChange(luck.who, "luck points", luck.points, left, f"G17 ({why})"))
    return with_points(luck, left)


def roll_over(
    dice: DiceSource,
    *,
    name: str,
    base: int,
    target: int,
    rule: str,
    luck: LuckUse = NO_LUCK,
    expr: str = D10X,
) -> tuple[bool, int]:
    """base + d10x >= target, with the caller's luck choices. Returns (passed, luck left)."""
    key, run, weighted = _over(name, base, target, rule, luck, expr)
    return dice.derive(name, run, key, exact=weighted, keep=True)


def over_weights(
    *, name: str, base: int, target: int, rule: str, luck: LuckUse = NO_LUCK, expr: str = D10X
) -> Weighted[tuple[bool, int]]:
    """The exact distribution of :func:`roll_over` with these arguments: the very table its
    derive keeps (for tables built out of checks, without enumerating a wrapper)."""
    key, run, weighted = _over(name, base, target, rule, luck, expr)
    return derived_distribution(run, key, exact=weighted)


def _over(
    name: str, base: int, target: int, rule: str, luck: LuckUse, expr: str
) -> tuple[
    Hashable,
    Callable[[DiceSource], tuple[bool, int]],
    Callable[[], Weighted[tuple[bool, int]]],
]:
    """:func:`roll_over` as a sub-rule: its key, its rolling form and its table."""

    def boosted(total: int, points: int) -> tuple[bool, int]:
        """After a failure: the fewest +2s that turn it into a success, if affordable."""
        if luck.boost:
            need = math.ceil((target - total) / luck.point_bonus)
            if 0 < need <= points:
                return True, points - need
        return False, points

    def run(d: DiceSource) -> tuple[bool, int]:
        left = luck
        total = base + d.roll(expr, why=f"{name} ({rule})").total
        passed = total >= target
        if not d.is_exact:
            d.record(Check(name, total, target, passed, rule, f"{base} + {expr}"))
        if not passed and left.reroll and left.points >= left.reroll_cost:
            left = spend(d, left, left.reroll_cost, f"re-roll {name}")
            total = base + d.roll(expr, why=f"{name} re-rolled with luck (G17)").total
            passed = total >= target
            d.record(Check(f"{name} (re-roll)", total, target, passed, rule))
        if passed:
            return True, left.points
        passed, points = boosted(total, left.points)
        if passed:
            spend(d, left, left.points - points, f"+{(left.points - points) * 2} to {name}")
            d.record(Note(f"{name} turned into a success with luck", "G17"))
        return passed, points

    def weighted() -> Weighted[tuple[bool, int]]:
        """The same steps over the d10x distribution (:func:`_walk`). A value is read only
        through whether it passes and, just below the target, how many +2s it needs: the
        values that pass are one, and so are those too far below for any point to help."""
        points = luck.points
        high = target - base  # the rolled values that pass
        low: float = high  # without +2s every failure is the same failure
        if luck.boost:  # more than the points can make up
            low = high - luck.point_bonus * points if luck.point_bonus > 0 else -math.inf
        items = _regions(expr, low, high)
        return _walk(items, _faces(expr)[1], luck, lambda v: base + v >= target, boosted_value)

    def boosted_value(v: int, points: int) -> tuple[bool, int]:
        return boosted(base + v, points)

    return ("over", base, target, luck, expr), run, weighted


def _walk(
    items: Sequence[tuple[int, int]],
    total: int,
    luck: LuckUse,
    passes: Callable[[int], bool],
    boosted: Callable[[int, int], tuple[bool, int]],
) -> Weighted[tuple[bool, int]]:
    """A check's table, (passed, luck left), over the rolled values ``items`` (of ``total``):
    a failure re-rolled if the luck allows (the re-roll's branch computed once and added once,
    times the weight of every first roll that fails), then ``boosted`` (value, points) for a
    failure that stands. Outcomes in the order a roll-by-roll walk meets them."""
    points = luck.points
    # (outcome, denominator) -> numerator
    parts: dict[tuple[tuple[bool, int], int], int] = {}
    rerolls = luck.reroll and points >= luck.reroll_cost
    second: dict[tuple[bool, int], int] = {}
    if rerolls:
        after = points - luck.reroll_cost
        for v, w in items:
            outcome = (True, after) if passes(v) else boosted(v, after)
            second[outcome] = second.get(outcome, 0) + w
    failed = 0
    for v, w in items:
        if passes(v):
            key = ((True, points), total)
        elif rerolls:
            if not failed:  # the re-roll's outcomes take their places at the first failure
                for outcome in second:
                    parts.setdefault((outcome, total * total), 0)
            failed += w
            continue
        else:
            key = (boosted(v, points), total)
        parts[key] = parts.get(key, 0) + w
    for outcome, w2 in second.items() if failed else ():
        parts[(outcome, total * total)] += failed * w2
    return combine(parts)


def roll_under(
    dice: DiceSource,
    *,
    name: str,
    stat: int,
    modifier: int,
    rule: str,
    luck: LuckUse = NO_LUCK,
) -> tuple[bool, int]:
    """A save: d10 <= stat + modifier (G03/G18). Returns (passed, luck left)."""
    threshold = stat + modifier

    def boosted(face: int, points: int) -> tuple[bool, int]:
        """After a failure: the fewest points in favour that turn it into a success, if
        affordable and the roll can still succeed (a threshold of 1 or more)."""
        if luck.boost:
            need = math.ceil((face - threshold) / luck.point_bonus)
            if 0 < need <= points and threshold + need * luck.point_bonus >= 1:
                return True, points - need
        return False, points

    def run(d: DiceSource) -> tuple[bool, int]:
        left = luck
        face = d.roll("d10", why=f"{name} ({rule})").total
        passed = face <= threshold
        if not d.is_exact:
            d.record(Check(name, face, threshold, passed, rule, f"d10 <= {stat} {modifier:+d}"))
        if not passed and left.reroll and left.points >= left.reroll_cost:
            left = spend(d, left, left.reroll_cost, f"re-roll {name}")
            face = d.roll("d10", why=f"{name} re-rolled with luck (G17)").total
            passed = face <= threshold
            d.record(Check(f"{name} (re-roll)", face, threshold, passed, rule))
        if not passed:
            passed, points = boosted(face, left.points)
            if passed:
                need = left.points - points
                left = spend(d, left, need, f"{need * left.point_bonus} in favour of {name}")
                d.record(Note(f"{name} turned into a success with luck", "G17"))
        return passed, left.points

    def weighted() -> Weighted[tuple[bool, int]]:
        """The same steps over the d10's faces."""
        items, total = _faces("d10")
        return _walk(items, total, luck, lambda face: face <= threshold, boosted)

    key = ("under", stat, modifier, luck)
    return dice.derive(name, run, key, exact=weighted, keep=True)
