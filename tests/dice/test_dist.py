"""Dist queries against brute force and icepool; immutability; big-integer and size limits."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.dice import Dist, Weighted, exact
from firefight.errors import DiceError

from .oracle import cp2020, plus_minus

OPS = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def brute(faces: list[list[int]]) -> dict[int, Fraction]:
    """Exact distribution of a sum by listing every combination of faces."""
    counts = Counter(sum(c) for c in itertools.product(*faces))
    n = math.prod(len(f) for f in faces)
    return {v: Fraction(c, n) for v, c in counts.items()}


@st.composite
def dists(draw: st.DrawFn) -> Dist:
    """Small distributions with gaps, negative values and left-out mass."""
    lo = draw(st.integers(-20, 20))
    weights = draw(st.lists(st.integers(0, 50), min_size=1, max_size=12))
    if not any(weights):
        weights[0] = 1
    extra = draw(st.integers(0, 30))
    return Dist(lo, weights, sum(weights) + extra)


def test_2d6_by_brute_force() -> None:
    d = exact("2d6")
    assert dict(d.probabilities()) == brute([list(range(1, 7))] * 2)
    assert d.mean == 7
    assert d.variance == Fraction(35, 6)
    assert d.cdf(7) == Fraction(21, 36)
    assert d.at_least(10) == Fraction(6, 36)
    assert d.at_most(1) == 0 and d.cdf(12) == 1 and d.cdf(100) == 1
    assert d.at_least(-5) == 1 and d.at_least(13) == 0
    assert d.quantile(Fraction(1, 2)) == 7
    assert d.quantile(0) == 2 and d.quantile(1) == 12
    assert d.p(1) == 0 and d.p(7) == Fraction(1, 6)


@given(dists())
@settings(max_examples=80, deadline=None)
def test_queries_match_a_direct_count(d: Dist) -> None:
    pairs = d.probabilities()
    kept = sum(p for _, p in pairs)
    assert kept == 1 - d.truncated_mass
    for t in range(d.lo - 2, d.hi + 3):
        assert d.cdf(t) == sum((p for v, p in pairs if v <= t), Fraction(0))
        assert d.at_least(t) == sum((p for v, p in pairs if v >= t), Fraction(0))
    ts = np.arange(d.lo - 2, d.hi + 3)
    assert [Fraction(int(n), d.total) for n in d.cdf_array(ts)] == [d.cdf(int(t)) for t in ts]
    assert [Fraction(int(n), d.total) for n in d.at_least_array(ts)] == [
        d.at_least(int(t)) for t in ts
    ]
    assert d.mean == sum(v * p for v, p in pairs) / kept
    assert d.variance == sum((v - d.mean) ** 2 * p for v, p in pairs) / kept
    for q in (Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(99, 100), Fraction(1)):
        expected = next(v for v, _ in pairs if sum(p for u, p in pairs if u <= v) >= q * kept)
        assert d.quantile(q) == expected


@given(dists(), dists())
@settings(max_examples=80, deadline=None)
def test_compare_and_arithmetic_match_a_direct_count(x: Dist, y: Dist) -> None:
    px, py = x.probabilities(), y.probabilities()
    for op, test in OPS.items():
        expected = sum((p * q for a, p in px for b, q in py if test(a, b)), Fraction(0))
        assert x.p_compare(op, y) == expected
        assert x.p_compare(op, 3) == sum((p for a, p in px if test(a, 3)), Fraction(0))
    s = x + y
    assert s.total == x.total * y.total
    joint: dict[int, Fraction] = {}
    for a, p in px:
        for b, q in py:
            joint[a - b] = joint.get(a - b, Fraction(0)) + p * q
    assert dict((x - y).probabilities()) == joint
    assert dict(x.abs().probabilities()) == dict(x.map(abs).probabilities())
    assert dict(x.times(-3).probabilities()) == dict(x.map(lambda v: -3 * v).probabilities())
    assert (x + 5).lo == x.lo + 5 and (5 + x).hi == x.hi + 5
    assert dict((-x).probabilities()) == {-v: p for v, p in px}


def test_icepool_summaries_for_exploding_dice() -> None:
    x = exact("d10x", depth=5, stop=True)
    ix = cp2020(5)
    assert x.mean == ix.mean()
    assert x.variance == ix.variance()
    assert x.p_compare(">=", x + -2) == (ix >= ix - 2).probability(True)
    r = exact("pm6", depth=6, stop=True)
    ir = plus_minus(6)
    for op in OPS:
        mine = (r + 14).p_compare(op, r + 12)
        ref = {
            "<": 14 + ir < 12 + ir,
            "<=": 14 + ir <= 12 + ir,
            ">": 14 + ir > 12 + ir,
            ">=": 14 + ir >= 12 + ir,
            "==": 14 + ir == 12 + ir,
            "!=": 14 + ir != 12 + ir,
        }[op]
        assert mine == ref.probability(True), op
    for t in range(-10, 11):
        assert r.cdf(t) == ir.probability("<=", t)
        assert r.at_least(t) == ir.probability(">=", t)


def test_big_integer_compare_and_quantile() -> None:
    d = exact("30d20")
    ice = 30 @ icepool.d20
    assert d.weights.dtype == object
    assert d.p_compare(">", exact("30d20") - 3) == (ice > ice - 3).probability(True)
    assert d.at_least(400) == ice.probability(">=", 400)
    assert d.quantile(Fraction(1, 2)) == 315
    assert d.quantile(Fraction(1, 10**6)) == int(ice.quantile_low(1, 10**6))


def test_values_are_immutable() -> None:
    d = exact("2d6")
    with pytest.raises(ValueError):
        d.weights[0] = 5
    _ = ((d + 1).abs(), -d, d.times(3))
    assert dict(d.probabilities()) == brute([list(range(1, 7))] * 2)


def test_equal_distributions_compare_and_hash_equal() -> None:
    a = Dist(0, [0, 1, 2, 0], 3)
    b = Dist(1, [2, 4], 6)
    assert a == b and hash(a) == hash(b)
    assert a != Dist(1, [2, 4], 7)
    assert exact("4d6dl1") == exact("4d6kh3")


def test_mix_and_scaled_keep_left_out_mass() -> None:
    part = Dist(0, [1, 1], 3)  # one third left out
    m = Dist.mix([(1, part), (1, Dist.constant(5))], 2)
    assert m.truncated_mass == Fraction(1, 6)
    assert m.p(5) == Fraction(1, 2)
    assert part.scaled(7) == part and part.scaled(7).total == 21


@pytest.mark.parametrize(
    ("weights", "total", "message"),
    [
        ([], None, "needs some weight"),
        ([0, 0], None, "needs some weight"),
        ([1, -1, 2], None, "non-negative"),
        ([3, 3], 5, "at most total"),
        ([[1, 2]], None, "one-dimensional integers"),
        ([1.5, 2], None, "one-dimensional integers"),
    ],
)
def test_bad_weights_are_refused(weights: list[object], total: int | None, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        Dist(0, weights, total)  # type: ignore[arg-type]


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6, 7, 8, 12, 13])
def test_repeat_is_the_sum_of_that_many_copies(count: int) -> None:
    # binary powering against adding one copy at a time, on a die with a hole and cut-off mass
    d = Dist(-1, [2, 0, 1, 3], 7)
    added = d
    for _ in range(count - 1):
        added = added + d
    assert d.repeat(count) == added
    assert d.repeat(count).truncated_mass == added.truncated_mass


def test_bad_queries_are_refused() -> None:
    d = exact("d6")
    with pytest.raises(DiceError, match=r"outside 0\.\.1"):
        d.quantile(2)
    with pytest.raises(DiceError, match="unknown comparison"):
        d.p_compare("=>", d)
    with pytest.raises(DiceError):
        d.repeat(0)


def test_size_limits_raise_dice_errors_not_memory_errors() -> None:
    with pytest.raises(DiceError, match="too large"):
        exact("d6 * 1000000")
    with pytest.raises(DiceError, match="too long"):
        exact("1000d1000")
    with pytest.raises(DiceError, match="too long"):
        exact("4d10000")


def test_weighted_from_fractions_and_marginals() -> None:
    w = Weighted.from_fractions({"a": Fraction(1, 3), "b": Fraction(1, 2)}, Fraction(1, 6))
    assert w.truncated_mass == Fraction(1, 6)
    assert w.probability(lambda o: o == "a") == Fraction(1, 3)
    d = w.to_dist(lambda o: 1 if o == "a" else 2)
    assert d.p(2) == Fraction(1, 2) and d.truncated_mass == Fraction(1, 6)
    with pytest.raises(DiceError, match="not an integer"):
        w.to_dist()
