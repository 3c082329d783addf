"""Seeded dice agree with the exact distributions; the same seed gives the same rolls."""

from __future__ import annotations

import numpy as np
import pytest

from firefight.dice import Dist, SeededDice, exact, parse, sample
from firefight.dice.exact import chain

from .stats import chi_square, critical_value

EXPRESSIONS = [
    "2d20-2d20",
    "abs(2d20-2d20)",
    "4d6kh3",
    "3d12",
    "d10x + 11",
    "2d10x",
    "pm6",
    "14 + pm6 - pm6",
    "(3d6kl2 - d4) * 2",
    "d%",
    "7d6 + 3d20",  # several dice per draw, and a lone die left over (20**3 > TABLE_ROWS)
]


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_vectorised_sample_fits_the_exact_distribution(expr: str) -> None:
    values = sample(expr, 20_000, np.random.default_rng(20_261_121))
    stat, dof = chi_square(values, exact(expr))
    assert dof >= 1
    assert stat < critical_value(dof), f"{expr}: chi-square {stat:.1f} on {dof} dof"


@pytest.mark.parametrize(("sides", "k"), [(6, 4), (20, 2), (10, 3), (2, 13)])
def test_a_draw_of_several_dice_reads_a_table_of_their_exact_sums(sides: int, k: int) -> None:
    """One uniform index over the ``sides ** k`` face combinations: the table's sums, counted,
    are the exact weights of ``kdX`` (so a draw is k dice at once, exactly)."""
    from firefight.dice.sample import TABLE_ROWS, _sums

    assert sides**k <= TABLE_ROWS
    table = _sums(sides, k, np.dtype(np.int16))
    assert len(table) == sides**k
    counts = np.bincount(table)
    d = exact(f"{k}d{sides}")
    assert [(v, int(counts[v])) for v in range(d.lo, d.hi + 1)] == list(d.items())


@pytest.mark.parametrize("expr", ["d10x + 11", "pm6", "4d6kh3", "abs(2d20-2d20)"])
def test_seeded_dice_rolls_fit_the_exact_distribution(expr: str) -> None:
    dice = SeededDice(7)
    values = [dice.roll(expr).total for _ in range(4_000)]
    stat, dof = chi_square(values, exact(expr))
    assert stat < critical_value(dof), f"{expr}: chi-square {stat:.1f} on {dof} dof"


def test_the_check_rejects_a_near_miss() -> None:
    """Control: d10x samples against a d10x *without* the fumble rule (a 1 simply counts)."""
    no_fumble = Dist.mix([(9, Dist.uniform(1, 9)), (1, chain(10, 12, False) + 10)], 10)
    values = sample("d10x", 20_000, np.random.default_rng(20_261_121))
    stat, dof = chi_square(values, no_fumble)
    assert stat > critical_value(dof)


def test_same_seed_same_rolls() -> None:
    def session(seed: int) -> list[tuple[int, tuple[int, ...]]]:
        dice = SeededDice(seed)
        return [(r.total, r.faces) for r in (dice.roll(e) for e in EXPRESSIONS * 3)]

    assert session(11) == session(11)
    assert session(11) != session(12)
    assert SeededDice(np.random.default_rng(5)).roll("10d10").faces == (
        SeededDice(5).roll("10d10").faces
    )
    for expr in EXPRESSIONS:
        assert np.array_equal(sample(expr, 500, 3), sample(expr, 500, 3))
    assert np.array_equal(sample("sort(4d12)", 100, 3), sample("sort(4d12)", 100, 3))


def test_seeded_faces_are_pinned() -> None:
    """numpy's PCG64 stream: the same seed gives these faces on every machine."""
    assert SeededDice(2026).roll("6d20").faces == tuple(
        int(f) for f in np.random.default_rng(2026).integers(1, 21, size=6)
    )
    assert SeededDice(2026).roll("6d20").faces == (18, 4, 1, 13, 8, 10)


def test_sorted_samples_are_descending_faces() -> None:
    values = sample("sort(3d12)", 1000, 1)
    assert values.shape == (1000, 3)
    assert (np.diff(values, axis=1) <= 0).all()
    assert values.min() >= 1 and values.max() <= 12


@pytest.mark.parametrize(
    ("expr", "itemsize"),
    [("abs(2d20-2d20)", 1), ("4d6kh3", 1), ("-3*d4 + 2d6", 1), ("1000d6", 2), ("d10x + 11", 8)],
)
def test_samples_use_the_smallest_type_that_holds_every_value(expr: str, itemsize: int) -> None:
    values = sample(expr, 5000, 9)
    assert values.dtype.itemsize == itemsize and values.dtype.kind == "i"
    d = exact(expr)
    assert d.lo <= int(values.min()) and int(values.max()) <= d.hi


def test_bounds_are_the_exact_extremes() -> None:
    from firefight.dice.sample import bounds

    for expr in ("abs(2d20-2d20)", "(3d6kl2 - d4) * 2", "-(2d6) * 3", "abs(d6 - 4)", "4d6dh1"):
        d = exact(expr)
        assert bounds(parse(expr)) == (d.lo, d.hi), expr


def test_chunked_samples_fit_the_exact_distribution() -> None:
    from firefight.dice.sample import chunk_rows, value_type

    expr = "abs(2d20-2d20) + 3 - 1d4*2"
    n = 3 * chunk_rows(value_type(parse(expr))) + 17  # several chunks and a short last one
    values = sample(expr, n, np.random.default_rng(4))
    assert values.shape == (n,)
    stat, dof = chi_square(values, exact("abs(2d20-2d20) + 3 - 1d4*2"))
    assert stat < critical_value(dof)
