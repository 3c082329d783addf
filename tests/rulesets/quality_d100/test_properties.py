"""Properties of the opposed rolls: more strike chance never hurts, more defence never helps."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.rulesets.quality_d100 import RULESET
from firefight.rulesets.quality_d100.quality import quality
from tests.rulesets.quality_d100.helpers import load


def p_hit(chance: int, defence: int, **attacker: Any) -> Fraction:
    data = {
        "mode": "ranged" if attacker.get("aim") else "melee",
        "attacker": {"strike_chance": chance, "damage": "1", **attacker},
        "defender": {"defence": defence},
    }
    report = RULESET.odds(load(data))
    assert report.p_hit is not None
    return report.p_hit


def test_higher_strike_chance_never_lowers_p_hit() -> None:
    for defence in (1, 45, 160):
        hits = [p_hit(c, defence) for c in range(-10, 421, 3)]
        assert all(a <= b for a, b in itertools.pairwise(hits))
        assert hits[-1] > hits[0]


def test_higher_defence_never_raises_p_hit() -> None:
    for chance in (1, 60, 250):
        hits = [p_hit(chance, d) for d in range(-30, 421, 3)]
        assert all(a >= b for a, b in itertools.pairwise(hits))
        assert hits[-1] < hits[0]


@settings(max_examples=40, deadline=None)
@given(st.integers(-50, 450), st.integers(0, 60), st.integers(-50, 450))
def test_more_chance_never_hurts(chance: int, more: int, defence: int) -> None:
    assert p_hit(chance + more, defence) >= p_hit(chance, defence)
    assert p_hit(chance, defence + more) <= p_hit(chance, defence)


def test_aiming_die_modifier_never_lowers_p_hit() -> None:
    for chance in (10, 55, 130, 260):
        assert p_hit(chance, 40, aim=True) >= p_hit(chance + 20, 40)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 100), st.integers(-100, 600), st.integers(-20, 0))
def test_quality_is_between_0_and_6_and_natural_rules_hold(
    roll: int, chance: int, die: int
) -> None:
    level = quality(roll + die, chance, natural=roll)
    assert 0 <= level <= 6
    if roll == 100:
        assert level == 0
    if roll == 1:
        assert level >= 4
    assert quality(roll + die, chance, natural=roll) >= quality(roll, chance, natural=roll)
