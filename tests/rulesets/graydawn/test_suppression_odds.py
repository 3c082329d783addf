"""Exact suppression odds (enumerating resolve_suppression) against seeded resolution and against
independent computations with the dice library's exact distributions."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from firefight.core.loading import read_toml
from firefight.dice import NATURAL_ONE, Dist, SeededDice, enumerate_outcomes, exact, exact_tagged
from firefight.rulesets.graydawn.house import GraydawnHouse
from firefight.rulesets.graydawn.odds import suppression_odds, suppression_outcomes
from firefight.rulesets.graydawn.suppression_round import resolve_suppression
from firefight.rulesets.graydawn.suppression_situation import SuppressionSituation, load_suppression

from .helpers import both_routes

EXAMPLES = Path(__file__).parents[3] / "examples" / "graydawn"
SEED = 20261121
N = 3000
#: 4 standard errors plus a small floor: a false alarm about 1 in 15,000 per comparison.
SIGMAS = 4.0


def close(p_hat: float, p: Fraction | float, n: int = N) -> bool:
    sd = math.sqrt(max(float(p) * (1 - float(p)), 1e-9) / n)
    return abs(p_hat - float(p)) <= SIGMAS * sd + 0.002


def same(a: Fraction, b: Fraction) -> bool:
    """Equal up to the mass the depth limits of open-ended d10s leave out (below 1e-11)."""
    return abs(float(a) - float(b)) < 1e-11


def load(data: dict[str, Any]) -> SuppressionSituation:
    return load_suppression(data, "test.toml", GraydawnHouse())


def plain_suppression(rounds: int = 20) -> SuppressionSituation:
    """Andre's fire and the target's check, no actions."""
    data = read_toml(EXAMPLES / "suppress_andre.toml")
    data["shooters"][0].pop("full_magazine")
    data["shooters"][0]["rounds"] = rounds
    data["target"]["actions"] = []
    return load(data)


def d10x_tagged() -> dict[bool, Dist]:
    """d10x split by the natural-1 tag (exact, from the dice library)."""
    return {NATURAL_ONE in tags: d for tags, d in exact_tagged("d10x")}


def test_levels_distribution_matches_an_independent_computation() -> None:
    sit = plain_suppression(20)  # 20 of 20 rounds: full magazine, 2 base levels; RA 14, TN 15
    report = suppression_odds(sit)
    levels = report.distributions["levels"]
    roll = exact("d10x + 14")
    assert same(levels.p(2), roll.at_most(14))
    assert same(levels.p(3), sum((roll.p(v) for v in range(15, 20)), Fraction(0)))
    assert same(levels.p(4), sum((roll.p(v) for v in range(20, 25)), Fraction(0)))
    assert same(levels.p(3), Fraction(4, 10))  # faces 2-5: 16-19 (a 1 subtracts)


def test_check_table_matches_an_independent_computation() -> None:
    # covering fire: deterministic levels (8, TN 30); check base CL 5 + dodge 3 + armour aid
    sit = load(read_toml(EXAMPLES / "suppress_covering.toml"))
    check = suppression_odds(sit).tables["check"]
    base = 5 + 3 + sit.target.armour.torso // 5
    parts = d10x_tagged()
    plain, ones = parts[False], parts[True]
    panic = plain.at_most(-base) + ones.at_most(-base)
    fumble = ones.at_least(1 - base)
    passed = plain.at_least(30 - base)
    assert same(check["panic"], panic)
    assert same(check["fumble"], fumble)
    assert same(check["pass"], passed)
    assert same(check["fail"], 1 - panic - fumble - passed)


def test_p_hit_under_covering_fire_matches_an_independent_computation() -> None:
    sit = load(read_toml(EXAMPLES / "suppress_covering.toml"))
    report = suppression_odds(sit)
    rd = 5 + 3  # ceil((5 + 5) / 2) + dodge/cover 3
    assert same(report.probabilities["p_hit_covering_fire"], exact("d10x").at_most(-rd))


def test_p_hit_for_burst_covering_fire_is_binomial() -> None:
    sit = load(read_toml(EXAMPLES / "suppress_burst.toml"))
    w = suppression_outcomes(sit)
    q = exact("d10x").at_most(-6)  # rookie RD 5 + dodge 1
    p_none = w.probability(lambda o: o.fire_hits == 0)
    assert p_none == pytest.approx(float((1 - q) ** 5), rel=1e-9)
    p_two = w.probability(lambda o: o.fire_hits == 2)
    assert float(p_two) == pytest.approx(10 * float(q) ** 2 * float(1 - q) ** 3, rel=1e-9)


def test_p_hit_in_a_lane() -> None:
    """The lane's own defence roll lands burst-table hits with P(total <= 0). Issue 12 changed
    what else can hit: a target that panics in the open now hunkers down with LUCK only at the
    suppression penalty (G12/G15: "from ... panic") and may be hit that way too, so the lane's
    hits are read from ``fire_hits`` and P(any hit) is at least the lane's (it was equal while a
    panicked target took no further fire)."""
    data = read_toml(EXAMPLES / "suppress_lane.toml")
    data["target"]["in_lane"] = "inside"
    sit = load(data)
    report = suppression_odds(sit)
    w = suppression_outcomes(sit)
    q = exact("d10x").at_most(-(7 + 4))  # RD ceil((7 + 7) / 2) + dodge 4
    assert same(w.probability(lambda o: o.fire_hits > 0), q)
    lane = w.to_dist(lambda o: o.fire_hits)
    assert same(lane.p(3), q / 6) and same(lane.p(2), q / 2) and same(lane.p(1), q / 3)
    assert same(report.probabilities["p_hit_lane"], w.probability(lambda o: o.hits > 0))
    panicked_and_hit = w.probability(lambda o: o.panicked and o.hits > o.fire_hits)
    assert panicked_and_hit > 0
    assert report.probabilities["p_hit_lane"] > q


@pytest.mark.parametrize(
    "build",
    [
        lambda: plain_suppression(20),
        lambda: load(read_toml(EXAMPLES / "suppress_shotgun.toml")),
        lambda: load(read_toml(EXAMPLES / "suppress_burst.toml")),
    ],
    ids=["suppressing", "shotgun-covering-and-actions", "burst-and-hunker"],
)
def test_exact_odds_match_seeded_resolution(build: Any) -> None:
    sit = build()
    report = suppression_odds(sit)
    rng = np.random.default_rng(SEED)
    seen = [resolve_suppression(sit, SeededDice(rng)).outcome for _ in range(N)]
    levels = Counter(o.levels for o in seen)
    for value, p in report.distributions["levels"].probabilities():
        assert close(levels[value] / N, p), ("levels", value)
    results = Counter(o.check for o in seen)
    for name, p in report.tables["check"].items():
        assert close(results[name] / N, p), ("check", name)
    hits = Counter(o.hits for o in seen)
    for value, p in report.distributions["hits"].probabilities():
        assert close(hits[value] / N, p), ("hits", value)
    assert close(sum(1 for o in seen if o.hits) / N, report.p_hit or 0)


def test_odds_json_has_levels_check_hits() -> None:
    out = suppression_odds(plain_suppression(20)).to_json()
    assert {"levels", "check", "hits", "p_hit"} <= set(out)
    assert set(out["check"]) <= {"none", "pass", "fail", "fumble", "panic"}
    total = sum(Fraction(v) for v in out["check"].values())
    assert abs(float(total) - 1) < 1e-9


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("suppress_*.toml")))
def test_check_and_hit_tables_equal_path_by_path_enumeration(name: str) -> None:
    """The shooters' levels, the suppression check and the hits of the target's actions come
    from the rolls' distributions on exact dice; replaying the sub-rules path by path gives the
    same fractions."""
    sit = load_suppression(read_toml(EXAMPLES / name), name, GraydawnHouse())
    fast, slow = both_routes(lambda: suppression_outcomes(sit))
    assert fast.probabilities() == slow.probabilities()
    assert fast.truncated_mass == slow.truncated_mass


@pytest.mark.parametrize("in_open", [False, True])
def test_encounter_sub_rules_equal_path_by_path_enumeration(in_open: bool) -> None:
    """What the encounter asks of the suppression half on exact dice (the levels, the check,
    hunkering down, moving out) branches on the rules' results, from the same tables as the
    odds; replayed path by path, the fractions are the same."""
    from firefight.rulesets.graydawn.suppression import check_tn
    from firefight.rulesets.graydawn.suppression_actions import hunker_hits, move_out_hits
    from firefight.rulesets.graydawn.suppression_round import check, shooter_levels
    from firefight.rulesets.graydawn.suppression_situation import TargetAction

    sit = plain_suppression(20)
    flee = TargetAction(kind="move", name="flees", moves=3)

    def rule(d: Any) -> tuple[int, str, int, int]:
        levels = shooter_levels(sit, 0, d)
        result = check(sit, levels, check_tn(levels, sit.rules), d)
        return levels, result, hunker_hits(d, sit, in_open, 4), move_out_hits(d, sit, flee, 4)

    fast, slow = both_routes(lambda: enumerate_outcomes(rule))
    assert fast.probabilities() == slow.probabilities()
    assert fast.truncated_mass == slow.truncated_mass
    assert {o[0] for o in fast.probabilities()} >= {2, 3, 4}
