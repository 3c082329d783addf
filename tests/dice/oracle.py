"""Helpers to compare firefight's exact distributions with icepool's (the test oracle)."""

from __future__ import annotations

from fractions import Fraction

import icepool

from firefight.dice import Dist


def probs(d: Dist) -> dict[int, Fraction]:
    return dict(d.probabilities())


def ice_probs(die: icepool.Die) -> dict[int, Fraction]:
    den = die.denominator()
    return {int(v): Fraction(q, den) for v, q in die.items() if q}


def cp2020(depth: int) -> icepool.Die:
    """``d10x`` at ``depth`` re-rolls per chain in icepool's stop convention: faces 2..9 count,
    a 10 adds an exploding d10, a first 1 is replaced by minus an exploding d10."""
    inner = icepool.d10.explode(depth=depth - 1)
    return icepool.Die([*range(2, 10), 10 + inner, -inner])


def plus_minus(depth: int, sides: int = 6) -> icepool.Die:
    """``pm6``: an exploding plus die minus an exploding minus die."""
    die = icepool.Die(range(1, sides + 1))
    return die.explode(depth=depth) - die.explode(depth=depth)
