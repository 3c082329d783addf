"""Exact distributions against icepool as an oracle: identical fractions, value by value."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import icepool
import pytest

from firefight.dice import Depth, exact, exact_tagged
from firefight.errors import DiceError

from .oracle import cp2020, ice_probs, plus_minus, probs

d4, d6, d8, d10, d12, d20, d100 = (
    icepool.d4,
    icepool.d6,
    icepool.d8,
    icepool.d10,
    icepool.d12,
    icepool.d20,
    icepool.d100,
)

# (firefight notation, icepool construction). `k @ die` sums k dice; `k * die` scales the value.
CASES: list[tuple[str, Callable[[], icepool.Die]]] = [
    ("2d20-2d20", lambda: 2 @ d20 - 2 @ d20),
    ("abs(2d20-2d20)", lambda: abs(2 @ d20 - 2 @ d20)),
    ("3d12", lambda: 3 @ d12),
    ("4d6kh3", lambda: d6.highest(4, 3)),
    ("d100", lambda: d100),
    ("d%", lambda: d100),
    ("2d10", lambda: 2 @ d10),
    ("4d6kl3", lambda: d6.lowest(4, 3)),
    ("4d6dl1", lambda: d6.highest(4, 3)),
    ("4d6dh1", lambda: d6.lowest(4, 3)),
    ("2d20kh1", lambda: d20.highest(2, 1)),
    ("2d20kl1", lambda: d20.lowest(2, 1)),
    ("5d10kh2", lambda: d10.highest(5, 2)),
    ("6d8dl3", lambda: d8.highest(6, 3)),
    ("3d6dh0", lambda: 3 @ d6),
    ("3d6kh3", lambda: 3 @ d6),
    ("2*d6", lambda: 2 * d6),
    ("3*(d6+1)", lambda: 3 * (d6 + 1)),
    ("(2d6+3)*2", lambda: (2 @ d6 + 3) * 2),
    ("-2*d4", lambda: -2 * d4),
    ("-d8", lambda: -d8),
    ("-(d4+d6)", lambda: -(d4 + d6)),
    ("d20+5", lambda: d20 + 5),
    ("3d6-2", lambda: 3 @ d6 - 2),
    ("d4+d6+d8+d10+d12+d20", lambda: d4 + d6 + d8 + d10 + d12 + d20),
    ("abs(d6-d6)", lambda: abs(d6 - d6)),
    ("abs(d6-10)", lambda: abs(d6 - 10)),
    ("10d6", lambda: 10 @ d6),
    ("d2+d3", lambda: icepool.Die([1, 2]) + icepool.Die([1, 2, 3])),
    ("((d6))", lambda: d6),
    ("7", lambda: icepool.Die([7])),
    ("2d6 - (d4 - 3)", lambda: 2 @ d6 - (d4 - 3)),
    ("abs(2d20-2d20) + 3 - 1d4*2", lambda: abs(2 @ d20 - 2 @ d20) + 3 - d4 * 2),
    ("4d6kh3 + 2d8kl1 - 3", lambda: d6.highest(4, 3) + d8.lowest(2, 1) - 3),
    ("-(3d6kh2) + 1", lambda: -d6.highest(3, 2) + 1),
    ("3d4dl1 - 3d4dh1", lambda: d4.highest(3, 2) - d4.lowest(3, 2)),
    ("abs(2d20kh1 - 2d20kl1) * 2", lambda: abs(d20.highest(2, 1) - d20.lowest(2, 1)) * 2),
    ("d6kh1", lambda: d6),
    ("5d2kl2", lambda: icepool.Die([1, 2]).lowest(5, 2)),
]


@pytest.mark.parametrize(("expr", "build"), CASES, ids=[c[0] for c in CASES])
def test_plain_expressions_match_icepool(expr: str, build: Callable[[], icepool.Die]) -> None:
    d = exact(expr)
    assert d.truncated_mass == 0
    assert probs(d) == ice_probs(build())


def test_icepool_explode_depth_convention() -> None:
    """icepool's explode(depth=1): one re-roll; that last die counts its face and stops."""
    die = d6.explode(depth=1)
    assert die.denominator() == 36
    assert ice_probs(die) == {
        **{f: Fraction(1, 6) for f in range(1, 6)},
        **{6 + f: Fraction(1, 36) for f in range(1, 7)},
    }
    # firefight's stop=True at depth 1 is the same convention (pm6 = plus chain - minus chain)
    assert probs(exact("pm6", depth=1, stop=True)) == ice_probs(die - die)


@pytest.mark.parametrize("depth", [1, 2, 3, 5, 12])
def test_cp2020_exploding_d10_matches_icepool(depth: int) -> None:
    assert probs(exact("d10x", depth=depth, stop=True)) == ice_probs(cp2020(depth))


@pytest.mark.parametrize("depth", [1, 2, 4, 9, 17])
def test_plus_minus_matches_icepool(depth: int) -> None:
    assert probs(exact("pm6", depth=depth, stop=True)) == ice_probs(plus_minus(depth))


@pytest.mark.parametrize(
    ("expr", "build"),
    [
        ("d10x + 11", lambda k: cp2020(k) + 11),
        ("2d10x", lambda k: cp2020(k) + cp2020(k)),
        ("d10x - d10x", lambda k: cp2020(k) - cp2020(k)),
        ("abs(d10x)", lambda k: abs(cp2020(k))),
        ("14 + pm6 - (12 + pm6)", lambda k: 14 + plus_minus(k) - (12 + plus_minus(k))),
        ("2pm6", lambda k: plus_minus(k) + plus_minus(k)),
        ("pm4 * 2", lambda k: plus_minus(k, 4) * 2),
        (
            "d12x",
            lambda k: icepool.Die(
                [*range(2, 12), 12 + d12.explode(depth=k - 1), -d12.explode(depth=k - 1)]
            ),
        ),
    ],
)
@pytest.mark.parametrize("depth", [2, 4])
def test_exploding_compounds_match_icepool(
    expr: str, build: Callable[[int], icepool.Die], depth: int
) -> None:
    assert probs(exact(expr, depth=depth, stop=True)) == ice_probs(build(depth))


@pytest.mark.parametrize(
    ("expr", "sides", "chains", "build"),
    [
        ("d10x", 10, 1, cp2020),
        ("pm6", 6, 2, plus_minus),
        ("3d10x", 10, 3, None),
        ("d10x + d10x + d10x + d10x + d10x + d10x", 10, 6, None),
        ("pm6 + pm6 - pm6 + d10x", 6, 7, None),
    ],
)
def test_default_mode_drops_less_than_1e12(
    expr: str, sides: int, chains: int, build: Callable[[int], icepool.Die] | None
) -> None:
    """Default mode leaves the branch that would roll past the depth out, and says how much.

    Against icepool at the same depth (which lets the last die count instead): every value has
    at most icepool's probability, and the differences add up to exactly the mass left out.
    """
    d = exact(expr)
    assert 0 < d.truncated_mass < Fraction(1, 10**12)
    assert sum(p for _, p in d.probabilities()) == 1 - d.truncated_mass
    if build is None:
        return
    k = Depth().for_die(sides, chains)
    ref = ice_probs(build(k))
    mine = probs(d)
    assert set(mine) <= set(ref)
    gaps = [ref[v] - mine.get(v, Fraction(0)) for v in ref]
    assert min(gaps) >= 0
    assert sum(gaps) == d.truncated_mass


@pytest.mark.parametrize(
    ("expr", "sides", "chains", "build"),
    [
        ("2d10x", 10, 2, lambda k: cp2020(k) + cp2020(k)),
        ("8d10x", 10, 8, lambda k: 8 @ cp2020(k)),
        ("2pm6", 6, 4, lambda k: plus_minus(k) + plus_minus(k)),
        ("8pm6", 6, 16, lambda k: 8 @ plus_minus(k)),
    ],
)
def test_exploding_pools_at_full_depth_match_icepool(
    expr: str, sides: int, chains: int, build: Callable[[int], icepool.Die]
) -> None:
    """Pools of exploding dice at the default depth: a packed power of one die's chain for two
    dice, FLINT's power for eight (poly.SMALL_POWER_BITS); both equal icepool's sums."""
    k = Depth().for_die(sides, chains)
    assert probs(exact(expr, stop=True)) == ice_probs(build(k))


def test_tag_groups_add_up_to_the_whole() -> None:
    for expr in ("d10x", "pm6", "2d10x + pm6", "abs(d10x - 3) * 2"):
        groups = exact_tagged(expr, depth=3, stop=True)
        whole = exact(expr, depth=3, stop=True)
        merged: dict[int, Fraction] = {}
        for _, d in groups:
            for v, p in d.probabilities():
                merged[v] = merged.get(v, Fraction(0)) + p
        assert merged == probs(whole)


@pytest.mark.parametrize(
    ("expr", "build"),
    [
        ("30d20", lambda: 30 @ d20),
        ("100d6", lambda: 100 @ d6),
        ("40d20 - 45d12", lambda: 40 @ d20 - 45 @ d12),
        ("(d6 + d8) * 1 + 25d12 - 30d4", lambda: d6 + d8 + 25 @ d12 - 30 @ d4),
        ("300d6", lambda: 300 @ d6),
    ],
)
def test_big_integer_totals_stay_exact(expr: str, build: Callable[[], icepool.Die]) -> None:
    d = exact(expr)
    assert d.total >= 2**63  # past int64: exact Python integers
    ref = build()
    assert probs(d) == ice_probs(ref)
    assert d.mean == ref.mean()
    assert d.variance == ref.variance()


@pytest.mark.parametrize(
    ("count", "sides", "keep"),
    [(10, 6, 3), (8, 12, 4), (12, 8, 6), (9, 6, 1), (11, 6, 10), (6, 2, 3), (7, 3, 7), (5, 100, 3)],
)
@pytest.mark.parametrize("mode", ["kh", "kl", "dh", "dl"])
def test_keep_and_drop_match_icepool(count: int, sides: int, keep: int, mode: str) -> None:
    """Order-statistics keep/drop against icepool's pool evaluation (int64 weights)."""
    die = icepool.d(sides)
    kept = keep if mode in ("kh", "kl") else count - keep
    if kept == 0:  # dropping every die is refused, not answered with an empty sum
        with pytest.raises(DiceError, match="impossible number of dice"):
            exact(f"{count}d{sides}{mode}{keep}")
        return
    high = mode in ("kh", "dl")
    ref = die.highest(count, kept) if high else die.lowest(count, kept)
    d = exact(f"{count}d{sides}{mode}{keep}")
    assert d.total == sides**count < 2**62
    assert probs(d) == ice_probs(ref)


@pytest.mark.parametrize(
    ("expr", "build"),
    [
        ("20d10kh5", lambda: d10.highest(20, 5)),
        ("24d8kl6", lambda: d8.lowest(24, 6)),
        ("30d20dl25", lambda: d20.highest(30, 5)),
        ("21d10kh5 + 3d6", lambda: d10.highest(21, 5) + 3 @ d6),
    ],
)
def test_big_keep_pools_match_icepool(expr: str, build: Callable[[], icepool.Die]) -> None:
    """Past int64 the keep polynomial's coefficients are Python integers: still exact."""
    d = exact(expr)
    assert d.total >= 2**63
    assert probs(d) == ice_probs(build())


@pytest.mark.parametrize("text", ["4d6kh0", "4d6kl0", "4d6dh4", "4d6dl4", "4d6kh5"])
def test_keeping_no_dice_or_more_than_rolled_is_refused(text: str) -> None:
    with pytest.raises(DiceError, match="impossible number of dice"):
        exact(text)


def test_keep_sums_match_every_roll_counted() -> None:
    """Every keep/drop of up to 5 dice of 2..6 faces against counting each roll of the pool."""
    from collections import Counter
    from itertools import product

    for count in range(1, 6):
        for sides in range(2, 7):
            rolls = [sorted(roll) for roll in product(range(1, sides + 1), repeat=count)]
            for keep in range(1, count + 1):
                high = Counter(sum(roll[count - keep :]) for roll in rolls)
                low = Counter(sum(roll[:keep]) for roll in rolls)
                for notation, counted in (
                    (f"{count}d{sides}kh{keep}", high),
                    (f"{count}d{sides}dl{count - keep}", high),
                    (f"{count}d{sides}kl{keep}", low),
                    (f"{count}d{sides}dh{count - keep}", low),
                ):
                    d = exact(notation)
                    assert dict(d.items()) == dict(counted), notation
                    assert d.total == sides**count, notation


def test_keep_sums_of_many_faces_match_every_roll_counted() -> None:
    """40 faces: the Horner steps switch from products to shift-and-divide part-way down."""
    from collections import Counter
    from itertools import product

    rolls = [sorted(roll) for roll in product(range(1, 41), repeat=3)]
    for notation, kept in (("3d40kh2", slice(1, 3)), ("3d40kl2", slice(0, 2))):
        counted = Counter(sum(roll[kept]) for roll in rolls)
        assert dict(exact(notation).items()) == dict(counted), notation
