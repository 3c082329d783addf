"""Exact odds come from enumerating the resolve code: checked against closed forms built from the
dice module, and against seeded sampling of the same situations."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from firefight.core.loading import read_toml
from firefight.core.odds import outcome_distribution
from firefight.dice import DiceSource, Dist, SeededDice, enumerate_outcomes, exact
from firefight.dice.sources import clear_derived, path_by_path
from firefight.rulesets.tactical_d20 import RULESET
from firefight.rulesets.tactical_d20.initiative import rank_table, ranks

from .helpers import EXAMPLES, attack, load

F = Fraction


def mixture(parts: list[tuple[Fraction, Dist]]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for weight, d in parts:
        for v, p in d.probabilities():
            out[v] = out.get(v, F(0)) + weight * p
    return out


def as_dict(d: Dist) -> dict[int, Fraction]:
    return dict(d.probabilities())


def test_rifle_example_odds_match_a_closed_form() -> None:
    report = RULESET.odds(load(read_toml(EXAMPLES / "rifle_single_torso.toml")))
    # operator +4 vs Dodge 12: d20 >= 8 -> 13/20; a natural 20 doubles the dice (torso critical)
    assert report.p_hit == F(13, 20)
    assert report.probabilities["p_critical"] == F(1, 20)
    expected = mixture(
        [(F(7, 20), Dist.constant(0)), (F(12, 20), exact("2d4")), (F(1, 20), exact("4d4"))]
    )
    assert as_dict(report.distributions["damage"]) == expected


def test_coach_gun_example_odds_match_a_closed_form() -> None:
    report = RULESET.odds(load(read_toml(EXAMPLES / "coach_gun_buckshot.toml")))
    # +4 +3 -3 vs 12: d20 >= 8. Hit: 1d8 + 1d6; critical: 2d8 + 1d8.
    assert report.p_hit == F(13, 20)
    expected = mixture(
        [
            (F(7, 20), Dist.constant(0)),
            (F(12, 20), exact("1d8+1d6")),
            (F(1, 20), exact("3d8")),
        ]
    )
    assert as_dict(report.distributions["damage"]) == expected


def test_threshold_shifts_damage_and_piles_up_at_zero() -> None:
    report = RULESET.odds(load(attack(weapon="pistol", distance=10, target="guard")))
    # guard Dodge 11: d20 >= 7 -> 14/20; 1d6 (2d6 on a critical) minus DT 2, never below 0
    hit = exact("1d6").map(lambda v: max(0, v - 2))
    crit = exact("2d6").map(lambda v: max(0, v - 2))
    expected = mixture([(F(6, 20), Dist.constant(0)), (F(13, 20), hit), (F(1, 20), crit)])
    assert as_dict(report.distributions["damage"]) == expected


def test_head_shot_effect_probabilities() -> None:
    report = RULESET.odds(load(attack(weapon="pistol", distance=10, region="arms")))
    # 4 - 3 vs 12: d20 >= 11 -> 10/20 hits; every hit wounds the arm, the 20 lastingly
    assert report.p_hit == F(1, 2)
    assert report.probabilities["p_arm_wound"] == F(1, 2)
    assert report.tables["effects"] == {
        "arm_wound until the end of its next turn": F(9, 20),
        "arm_wound until a DC 15 Body check (1 Action)": F(1, 20),
    }
    head = RULESET.odds(load(attack(weapon="pistol", distance=10, region="head")))
    assert head.probabilities["p_stunned"] == F(1, 20)


def test_grapple_members_share_the_hits() -> None:
    report = RULESET.odds(load(read_toml(EXAMPLES / "grapple_ranged.toml")))
    # medic +2, range -3 vs Dodge 12: d20 >= 13 -> 8/20; each member half of that
    assert report.p_hit == F(2, 5)
    assert report.tables["p_hit_per_member"] == {"raider": F(1, 5), "guard": F(1, 5)}


def test_melee_of_three_members() -> None:
    group = attack(weapon="pistol", distance=10, target=None, targets=["raider", "guard", "brute"])
    report = RULESET.odds(load(group))
    assert set(report.tables["p_hit_per_member"].values()) == {report.p_hit / 3}


def test_cone_probabilities() -> None:
    report = RULESET.odds(load(read_toml(EXAMPLES / "suppress_crossing.toml")))
    # DC 16, Willpower +1: d20 <= 14 fails, 15..18 partial, 19..20 passes
    assert report.tables["check"] == {"fail": F(7, 10), "partial": F(1, 5), "pass": F(1, 10)}
    damage = as_dict(report.distributions["damage"])
    assert damage[0] == F(4, 5)
    assert all(damage[v] == F(1, 30) for v in range(1, 7))


def test_contest_odds_match_a_double_sum() -> None:
    report = RULESET.odds(load(read_toml(EXAMPLES / "trip.toml")))
    # brute +5 must beat raider +3
    wins = sum(1 for a in range(1, 21) for b in range(1, 21) if a + 5 > b + 3)
    assert report.probabilities["p_success"] == F(wins, 400)


def test_initiative_odds() -> None:
    two = {"kind": "initiative", "creatures": ["operator", {"use": "raider", "agility": 3}]}
    report = RULESET.odds(load(two))
    # same Agility, player wins ties: P(first) = (190 + 20) / 400
    assert report.tables["acts_first"]["operator"] == F(210, 400)
    twins = {
        "kind": "initiative",
        "creatures": ["operator", {"use": "operator", "name": "twin"}],
    }
    report = RULESET.odds(load(twins))
    first = report.tables["acts_first"]
    assert abs(first["operator"] - F(1, 2)) < F(1, 10**12)
    assert first["operator"] == first["twin"]
    assert 0 < report.truncated_mass < F(1, 10**12)


def test_turn_odds_are_the_steps_odds() -> None:
    report = RULESET.odds(load(read_toml(EXAMPLES / "turn_two_bursts.toml")))
    single = RULESET.odds(load(attack(weapon="smg", mode="burst", distance=30)))
    assert report.tables["steps"]["step 1 (attack): hit"] == single.p_hit
    assert report.tables["steps"]["step 2 (attack): hit"] == single.p_hit
    damage = report.distributions["damage"]
    one = single.distributions["damage"]
    assert damage == one + one  # two independent bursts


@pytest.mark.parametrize(
    "name", ["coach_gun_buckshot.toml", "grapple_ranged.toml", "suppress_crossing.toml"]
)
def test_exact_odds_agree_with_seeded_sampling(name: str) -> None:
    situation = load(read_toml(EXAMPLES / name))
    report = RULESET.odds(situation)
    rng = np.random.default_rng(20261121)
    n = 3000
    damages = []
    for _ in range(n):
        outcome = RULESET.resolve(situation, SeededDice(rng)).outcome
        damages.append(outcome.damage)  # type: ignore[attr-defined]
    exact_damage = report.distributions["damage"]
    mean = float(exact_damage.mean)
    sd = math.sqrt(float(exact_damage.variance))
    # 4.5 standard errors: a false alarm about once in 150,000 runs (fixed seed: deterministic)
    assert abs(np.mean(damages) - mean) < 4.5 * sd / math.sqrt(n)
    p0 = float(exact_damage.p(0))
    share0 = sum(d == 0 for d in damages) / n
    assert abs(share0 - p0) < 4.5 * math.sqrt(p0 * (1 - p0) / n)


def test_odds_json_has_p_hit_and_damage() -> None:
    data = RULESET.odds(load(read_toml(EXAMPLES / "rifle_single_torso.toml"))).to_json()
    assert data["p_hit"] == "13/20"
    assert data["damage"][0] == {"value": 0, "p": "7/20", "p_float": 0.35}


def test_initiative_odds_reroll_with_the_modifier() -> None:
    # operator +3, medic +1, both player characters. First rolls: the operator is ahead when
    # a - b >= -1 (210 + 19 = 229 of 400 pairs), a tie when a - b = -2 (18 of 400). The re-roll is
    # the Initiative roll again, d20 + modifier (T01), so every re-roll repeats the same odds:
    # P(operator first) = 229 / (400 - 18) = 229/382 (a bare d20 re-roll would give 238/400).
    pair = {"kind": "initiative", "creatures": ["operator", "medic"]}
    report = RULESET.odds(load(pair))
    first = report.tables["acts_first"]["operator"]
    assert abs(first - F(229, 382)) < F(1, 10**12)
    assert abs(first - F(238, 400)) > F(4, 1000)


@pytest.mark.parametrize(
    ("mods", "die"), [((3, 1), 20), ((0, 0, 0), 20), ((2, -1, 2), 20), ((1, 0, 1, 3), 6)]
)
def test_rank_table_is_the_replay_of_the_rolls(mods: tuple[int, ...], die: int) -> None:
    """The one-pass table of the scores' ranks equals replaying every roll path by path."""

    def rolls(d: DiceSource) -> tuple[int, ...]:
        return ranks([d.roll(f"1d{die}").total + m for m in mods])

    assert rank_table(mods, die) == enumerate_outcomes(rolls)


@pytest.mark.parametrize(
    "name",
    ["initiative", "smg_burst_head", "coach_gun_buckshot", "turn_two_bursts", "rifle_single_torso"],
)
def test_tables_equal_path_by_path(name: str) -> None:
    """The derived requests with tables (initiative ranks with a same-side tie, the attack
    roll's verdicts, the summed damage dice) give the fractions of replaying every face."""
    sit = load(read_toml(EXAMPLES / f"{name}.toml"))
    fast = outcome_distribution(sit.run)
    with path_by_path():
        clear_derived()
        slow = outcome_distribution(sit.run)
    clear_derived()
    assert fast == slow
