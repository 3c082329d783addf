"""Exact sub-rule results shared across nested enumerations, and vectorised exact stages.

``dice.derive(why, fn, key)`` memoises ``fn``'s exact distribution per *enumeration*; a derive
nested inside another derive's ``fn`` is enumerated again for every enumeration of its parent.
graydawn nests checks (graze, crippling) inside wounds inside attacks, so :func:`derive` keeps each
key's branches for the whole process and hands them to the exact source before asking it.

:func:`branch` goes one step further for the heavy stages (a wound from 30 damage dice, the opposed
roll): on exact dice it takes the stage's distribution from ``weighted()``, which runs the *same
pure rule steps* over the distributions of the dice (integer weights, no path replay), instead of
replaying ``fn`` path by path. Tests hold both routes to identical fractions (:data:`VECTORISE`).

Both hand the exact source a ready distribution through the core's public
``dice.derive(..., exact=table)``. On seeded and scripted dice both are exactly ``dice.derive``,
which simply runs ``fn``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from firefight.dice import Depth, DiceSource, ExactDice, Weighted, enumerate_outcomes

T = TypeVar("T", bound=Hashable)

#: Most keys kept before a cache starts over (bounded memory).
LIMIT = 200_000
#: Exact stages may come from distributions instead of path replay; tests switch this off to
#: check that both routes give the same fractions.
VECTORISE = True

_WEIGHTED: dict[Hashable, Any] = {}
_KEPT: dict[int, object] = {}


def _process_cached(full_key: Hashable, make: Callable[[], Weighted[T]]) -> Weighted[T]:
    found = _WEIGHTED.get(full_key)
    if found is None:
        found = make()
        if len(_WEIGHTED) >= LIMIT:
            _WEIGHTED.clear()
        _WEIGHTED[full_key] = found
    return found


def derive(dice: DiceSource, why: str, fn: Callable[[DiceSource], T], key: Hashable) -> T:
    """``dice.derive(why, fn, key=key)``, with exact results shared process-wide by ``key``."""
    if isinstance(dice, ExactDice):
        depth = dice.depth
        return dice.derive(
            why,
            fn,
            key=("enumerated", key),
            exact=lambda: _process_cached(
                ("enumerated", key, depth), lambda: enumerate_outcomes(fn, depth=depth)
            ),
        )
    return dice.derive(why, fn, key=key)


def branch(
    dice: DiceSource,
    why: str,
    fn: Callable[[DiceSource], T],
    key: Hashable,
    weighted: Callable[[], Weighted[T]] | None,
) -> T:
    """Run the sub-rule ``fn`` (seeded/scripted) or branch over its exact distribution.

    ``weighted()`` computes the same distribution from the distributions of the dice ``fn``
    rolls, by the same pure rule steps; it is used on exact dice when :data:`VECTORISE` is on
    (else ``fn`` is enumerated path by path, as :func:`derive` does).
    """
    if not isinstance(dice, ExactDice) or weighted is None or not VECTORISE:
        return derive(dice, why, fn, key)
    if dice.depth != Depth():
        # the vectorised stages use the core's default explosion depth; any other depth is
        # honoured by enumerating path by path
        return derive(dice, why, fn, key)
    table = weighted
    return dice.derive(
        why,
        fn,
        key=("vectorised", key),
        exact=lambda: _process_cached(("vectorised", key), table),
    )


def exact_weighted(fn: Callable[[DiceSource], T], key: Hashable) -> Weighted[T]:
    """The exact distribution of a sub-rule, enumerated once per process and key."""
    return _process_cached(("weighted", key, VECTORISE), lambda: enumerate_outcomes(fn))


def cached(key: Hashable, make: Callable[[], Weighted[T]]) -> Weighted[T]:
    """A vectorised stage's distribution, computed once per process and key."""
    return _process_cached(("cached", key), make)


def combine(parts: dict[tuple[T, int], int]) -> Weighted[T]:
    """``{(outcome, denominator): numerator}`` -> one Weighted over the least common multiple
    of the denominators (exact integers throughout; mass left out stays out)."""
    common = 1
    for _, den in parts:
        common = math.lcm(common, den)
    weights: dict[T, int] = {}
    for (outcome, den), num in parts.items():
        weights[outcome] = weights.get(outcome, 0) + num * (common // den)
    return Weighted(weights, common)


_COUNTER = itertools.count(1)


def new_token() -> int:
    """A fresh number for keys that belong to one computation only."""
    return next(_COUNTER)


def token(obj: object) -> int:
    """A cheap hashable stand-in for a large frozen object (house rules) in derive keys.

    The object is kept alive so its id can never be reused by a different object.
    """
    _KEPT.setdefault(id(obj), obj)
    return id(obj)


def clear() -> None:
    """Forget every cached sub-rule (for timing, and for comparing the two exact routes)."""
    _WEIGHTED.clear()
