"""Properties of the suppression rules: more levels never make the check easier; more shots never
lower the levels; penalties and hits move the right way."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from firefight.core.loading import read_toml
from firefight.rulesets.graydawn.house import GraydawnHouse, SuppressionHouse
from firefight.rulesets.graydawn.models import Weapon
from firefight.rulesets.graydawn.odds import suppression_odds
from firefight.rulesets.graydawn.suppression import (
    action_penalty,
    base_levels,
    check_result,
    check_tn,
    hits_for_miss,
    levels_from_attack,
)
from firefight.rulesets.graydawn.suppression_situation import load_suppression

EXAMPLES = Path(__file__).parents[3] / "examples" / "graydawn"
RULES = SuppressionHouse()
WEAPONS = {
    "pistol": Weapon(kind="pistol", magazine=16, rof=2),
    "smg": Weapon(kind="smg", magazine=50, rof=30),
    "shotgun": Weapon(kind="shotgun", magazine=8, rof=2),
    "machine_gun": Weapon(kind="machine_gun", magazine=100, rof=30),
}


@given(st.integers(1, 12), st.integers(-20, 60), st.booleans())
def test_more_levels_never_make_the_check_easier(levels: int, total: int, one: bool) -> None:
    order = ["pass", "fail", "fumble", "panic"]  # pass is best; fail and fumble both fail
    a = check_result(total, one, check_tn(levels, RULES), RULES)
    b = check_result(total, one, check_tn(levels + 1, RULES), RULES)
    assert check_tn(levels + 1, RULES) >= check_tn(levels, RULES)
    assert order.index(b) >= order.index(a)


def covering(levels: int) -> Any:
    data: dict[str, Any] = read_toml(EXAMPLES / "suppress_covering.toml")
    data["shooters"][0]["rounds"] = 2 * levels  # ROF 2: one level per firing action
    return load_suppression(data, "x.toml", GraydawnHouse())


def test_exact_p_pass_never_rises_with_levels() -> None:
    passes = [suppression_odds(covering(n)).tables["check"].get("pass", 0) for n in range(1, 8)]
    assert all(b <= a for a, b in pairwise(passes))
    assert passes[0] > passes[-1]


@given(st.sampled_from(sorted(WEAPONS)), st.integers(1, 100), st.integers(0, 40))
def test_more_shots_never_lower_the_base_levels(kind: str, rounds: int, more: int) -> None:
    w = WEAPONS[kind]
    a, b = min(rounds, w.magazine), min(rounds + more, w.magazine)
    assert base_levels(w, b, RULES) >= base_levels(w, a, RULES)


def andre_rounds(rounds: int) -> Any:
    data: dict[str, Any] = read_toml(EXAMPLES / "suppress_andre.toml")
    data["shooters"][0].pop("full_magazine")
    data["shooters"][0]["rounds"] = rounds
    data["target"]["actions"] = []
    return load_suppression(data, "x.toml", GraydawnHouse())


def test_more_shots_never_lower_the_level_distribution() -> None:
    # first-order stochastic dominance: P(levels >= k) never falls as rounds rise
    dists = [suppression_odds(andre_rounds(n)).distributions["levels"] for n in (9, 10, 19, 20)]
    for lo, hi in pairwise(dists):
        for k in range(0, 12):
            assert hi.at_least(k) >= lo.at_least(k) - 1e-11  # depth-limit mass aside


@given(st.integers(-30, 60), st.integers(5, 30))
def test_attack_levels_and_hits_are_monotone(total: int, tn: int) -> None:
    assert levels_from_attack(total + 1, tn, RULES) >= levels_from_attack(total, tn, RULES)
    assert hits_for_miss(total + 1, tn, RULES) <= hits_for_miss(total, tn, RULES)


@given(st.integers(1, 15), st.sampled_from(["pass", "fail", "fumble"]), st.booleans())
def test_penalty_grows_with_levels_failure_open_ground_and_bracing(
    levels: int, result: str, bracing: bool
) -> None:
    cover = action_penalty(levels, result, in_open=False, rules=RULES, bracing=bracing)
    assert action_penalty(levels + 1, result, in_open=False, rules=RULES, bracing=bracing) > cover
    assert action_penalty(levels, result, in_open=True, rules=RULES, bracing=bracing) > cover
    assert action_penalty(levels, "pass", in_open=False, rules=RULES, bracing=bracing) <= cover
    assert action_penalty(levels, result, in_open=False, rules=RULES, bracing=True) >= cover
