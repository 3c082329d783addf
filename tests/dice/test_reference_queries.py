"""Issue 2's three reference queries (the benchmark's) give icepool's fractions exactly."""

from __future__ import annotations

from fractions import Fraction

import icepool

from firefight.dice import Depth, exact

from .oracle import cp2020, plus_minus


def test_a_the_121_cell_table() -> None:
    d = exact("abs(2d20-2d20)")
    ref = abs(2 @ icepool.d20 - 2 @ icepool.d20)
    cells = [(m, t) for m in range(-4, 7) for t in range(4, 15)]
    assert len(cells) == 121
    nums = d.cdf_array([t - m for m, t in cells]).tolist()
    for (m, t), n in zip(cells, nums, strict=True):
        assert Fraction(n, d.total) == (ref + m <= t).probability(True)
        assert d.cdf(t - m) == Fraction(n, d.total)


def test_b_cp2020_contest() -> None:
    k = Depth().for_die(10, 1)
    x = exact("d10x", depth=k, stop=True)
    ice = cp2020(k)
    assert (x + 14).p_compare(">=", x + 12) == (14 + ice >= 12 + ice).probability(True)
    # the default (drop) mode differs from it by less than the mass it left out, twice over
    drop = exact("d10x")
    gap = abs((drop + 14).p_compare(">=", drop + 12) - (x + 14).p_compare(">=", x + 12))
    assert gap <= 2 * drop.truncated_mass


def test_c_dragon_warriors_contest() -> None:
    k = Depth().for_die(6, 2)
    r = exact("pm6", depth=k, stop=True)
    ice = plus_minus(k)
    assert (r + 14).p_compare(">", r + 12) == (14 + ice > 12 + ice).probability(True)
    assert exact("14 + pm6 - (12 + pm6)", depth=k, stop=True).at_least(1) == (
        (r + 14).p_compare(">", r + 12)
    )
