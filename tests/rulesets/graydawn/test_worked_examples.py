"""Every worked example of the attack half (G02, G23, G25, G27, G28), through scripted dice."""

from __future__ import annotations

from firefight.core.transcript import Check, Note
from firefight.dice import ScriptedDice
from firefight.rulesets.graydawn.checks import roll_over

from .helpers import SMG_2D6, checks, notes, roll_exprs, scripted, situation


# -- G02: the exploding d10 -------------------------------------------------------------------
def test_g02_skill_roll_explodes_up_10_then_4_gives_25() -> None:
    dice = ScriptedDice([10, 4])
    passed, _ = roll_over(dice, name="skill roll", base=7 + 4, target=25, rule="G02")
    check = next(e for e in dice.events if isinstance(e, Check))
    assert check.value == 25
    assert passed  # 25 meets a TN of 25
    dice.check_all_used()


def test_g02_skill_roll_explodes_down_1_10_4_gives_minus_3() -> None:
    dice = ScriptedDice([1, 10, 4])
    passed, _ = roll_over(dice, name="skill roll", base=7 + 4, target=10, rule="G02")
    check = next(e for e in dice.events if isinstance(e, Check))
    assert check.value == -3
    assert not passed
    dice.check_all_used()


def _stat7_skill4() -> dict[str, object]:
    return {
        "attacker": {"stats": {"REF": 7, "CL": 7}, "skills": {"rifle": 4}},
        "attack": {"range_m": 20},
    }


def test_g02_attack_roll_of_25_in_an_attack() -> None:
    sit = situation(_stat7_skill4())
    # attack 10,4 -> 25; defence 9 + 2 = 11; location 3 (torso); 4d6+1 = 5 -> 3 after BTM
    result = scripted(sit, [10, 4, 2, 3, 1, 1, 1, 1, 9])
    (contest,) = checks(result, "attack vs defence")
    assert (contest.value, contest.target, contest.passed) == (25, 11, True)
    assert result.summary["damage (marks added)"] == 3  # 5 damage, BTM -2, no graze roll


def test_g02_minus_3_is_a_critical_failure_with_a_reliability_roll() -> None:
    sit = situation(_stat7_skill4())
    # attack 1,10,4 -> -3; defence 5; reliability d10 = 3 (standard fails on 6+)
    result = scripted(sit, [1, 10, 4, 5, 3])
    (contest,) = checks(result, "attack vs defence")
    assert contest.value == -3 and not contest.passed
    (reliability,) = checks(result, "reliability")
    assert reliability.value == 3 and reliability.passed
    assert result.summary["critical failure"] == "simply misses"  # 3 below 1: mildest (G06)
    assert result.summary["jammed"] is False


def test_g06_deeper_fumble_and_a_jam() -> None:
    sit = situation(_stat7_skill4())
    # attack 1, 10, 10, 3 -> 11 - 23 = -12: two steps of 5 down the list; reliability 6 jams
    result = scripted(sit, [1, 10, 10, 3, 5, 6])
    assert result.summary["critical failure"].startswith("critical weapon failure")
    assert result.summary["jammed"] is True
    assert any("jams" in n for n in notes(result))


# -- G28: full auto, 28 vs 15 -> 14 hits, and the damage dice it implies ----------------------
def full_auto_28_vs_15() -> list[int]:
    # attacker: ceil((6+6)/2) = 6 + rifle 5 + 3 (30 rounds at close range) = 14; 10,4 -> 28
    # defender: ceil((6+6)/2) = 6 + dodge 3 = 9; 6 -> 15
    return [10, 4, 6, 3] + [3] * 17 + [5, 5, 5]


def test_g28_full_auto_28_vs_15_gives_14_hits() -> None:
    sit = situation({"attack": {"mode": "full_auto", "rounds": 30, "range_m": 50}})
    result = scripted(sit, full_auto_28_vs_15())
    (contest,) = checks(result, "attack vs defence")
    assert (contest.value, contest.target) == (28, 15)
    assert result.summary["hits"] == 14
    assert "full auto: 1 + 13 = 14 hits (of 30)" in notes(result)


def test_g28_contradiction_one_die_per_extra_hit_gives_17d6_plus_1_not_18d6() -> None:
    """G28's text says 14 hits with a 4d6+1 rifle make 18d6+1; one die per *additional* hit
    (the rule, and the burst example 3 hits -> 4d6+1) gives 4 + 13 = 17d6+1. We follow the rule."""
    sit = situation({"attack": {"mode": "full_auto", "rounds": 30, "range_m": 50}})
    result = scripted(sit, full_auto_28_vs_15())
    damage_rolls = [r for r in result.transcript.rolls() if r.why.startswith("damage")]
    assert [r.expr.replace(" ", "") for r in damage_rolls] == ["17d6+1"]
    assert "18d6+1" not in roll_exprs(result)
    assert damage_rolls[0].total == 17 * 3 + 1
    # 52 damage, no armour, graze roll 5 - 13 (extra shots) + 5 fails, BTM -2 -> 50 marks
    assert result.summary["damage (marks added)"] == 50
    assert result.summary["death save needed"] is True


# -- G27: the 3-round SMG burst, 2d6+1 -> 4d6+1 -----------------------------------------------
def test_g27_three_round_smg_burst_deals_4d6_plus_1() -> None:
    sit = situation({"attacker": {"weapon": SMG_2D6}, "attack": {"mode": "burst", "range_m": 20}})
    # attack 6 + smg 5 + burst 3 = 14, +5 = 19; defence 9 + 5 = 14; burst d6 = 6 -> 3 hits;
    # location 3; 4d6+1 = 9; graze 5 - 2 + 5 = 8 fails; 9 - 2 = 7 marks; stun save 3 <= 5
    result = scripted(sit, [5, 5, 6, 3, 2, 2, 2, 2, 5, 3])
    assert result.summary["hits"] == 3
    damage = [r for r in result.transcript.rolls() if r.why.startswith("damage")]
    assert [r.expr.replace(" ", "") for r in damage] == ["4d6+1"]
    assert result.summary["damage (marks added)"] == 7
    assert result.summary["stunned"] is False


def test_g27_burst_table() -> None:
    sit = situation({"attacker": {"weapon": SMG_2D6}, "attack": {"mode": "burst", "range_m": 20}})
    for face, hits in ((1, 1), (2, 1), (3, 2), (5, 2), (6, 3)):
        dice_left = {1: "2d6+1", 2: "3d6+1", 3: "4d6+1"}[hits]
        faces = [5, 5, face, 3] + [1] * (hits + 1) + [1]  # all-ones damage: no graze roll
        result = scripted(sit, faces)
        assert result.summary["hits"] == hits
        assert dice_left in roll_exprs(result)


# -- G25: a 4d6+1 graze deals 5, BTM -2 leaves 3 ----------------------------------------------
def test_g25_graze_4d6_plus_1_deals_5_then_3_after_btm() -> None:
    sit = situation({"target": {"stats": {"LUCK": 8}}})
    # attack 11 + 7 = 18 vs 9 + 2 = 11; torso; 4d6+1 = 25; graze LUCK 8 + 7 = 15 vs 15 -> graze
    result = scripted(sit, [7, 2, 3, 6, 6, 6, 6, 7, 4])
    (graze,) = checks(result, "graze roll")
    assert (graze.value, graze.target, graze.passed) == (15, 15, True)
    assert "grazed: 5 damage (4d6+1)" in notes(result)
    assert result.summary["grazed"] is True
    assert result.summary["damage (marks added)"] == 3


def test_g25_without_the_graze_an_average_4d6_plus_1_is_a_13_point_wound() -> None:
    sit = situation({"target": {"stats": {"LUCK": 8}}})
    # 4d6+1 = 15 (its average); graze 8 + 6 = 14 < 15; 15 - 2 = 13 marks; saves at mortal
    result = scripted(sit, [7, 2, 3, 3, 4, 4, 3, 6, 1, 1])
    assert result.summary["grazed"] is False
    assert result.summary["damage (marks added)"] == 13


# -- G23: the four 7d6 grenade cases ----------------------------------------------------------
SEVEN_D6_24 = [4, 4, 4, 3, 3, 3, 3]  # 24, the example's average


def grenade(target: dict[str, object]) -> dict[str, object]:
    base_target = {"stats": {"BODY": 2, "LUCK": 5}}  # BODY 2: BTM 0, as the example reads
    base_target.update(target)
    return {
        "attacker": {"weapon": "frag grenade", "skills": {"athletics": 4}},
        "target": base_target,
        "attack": {"mode": "explosion"},
    }


def blast_note(result) -> str:  # type: ignore[no-untyped-def]
    return next(n for n in notes(result) if n.startswith("blast wound"))


def test_g23_sp14_vest_only_10_plus_12() -> None:
    sit = situation(grenade({"armour": ["sp 14 vest"]}))
    # blast check BODY 2 + LUCK 5 + 9 = 16 >= 15 (kept); stun save fails at mortal; death save 5
    result = scripted(sit, [*SEVEN_D6_24, 9, 5, 5])
    assert blast_note(result) == "blast wound 10, extremities wound 12"
    assert result.summary["damage (marks added)"] == 22
    assert result.summary["severed"] is False


def test_g23_with_an_sp20_helmet_the_secondary_wound_is_8() -> None:
    sit = situation(grenade({"armour": ["sp 14 vest", "sp 20 helmet"]}))
    result = scripted(sit, [*SEVEN_D6_24, 9, 5, 5])
    assert blast_note(result) == "blast wound 10, extremities wound 8"
    assert result.summary["damage (marks added)"] == 18


def test_g23_behind_level_2_cover_2_plus_4_for_the_arms() -> None:
    sit = situation(
        grenade(
            {
                "armour": ["sp 14 vest", "sp 20 helmet"],
                "cover": {"level": 2, "position": "active"},
            }
        )
    )
    result = scripted(sit, [*SEVEN_D6_24, 1])  # no blast check (< 8); stun save 1
    assert blast_note(result) == "blast wound 2, extremities wound 4"
    assert any("left_arm, right_arm" in n for n in notes(result))
    assert result.summary["damage (marks added)"] == 6


def test_g23_full_body_armour_and_helmet_10_and_nothing_else() -> None:
    sit = situation(grenade({"armour": ["sp 14 full body armour", "steel helmet"]}))
    result = scripted(sit, [*SEVEN_D6_24, 1])  # nothing unarmoured to lose: no blast check
    assert blast_note(result) == "blast wound 10, extremities wound 0"
    assert result.summary["damage (marks added)"] == 10


def test_g23_failed_blast_check_takes_a_random_unprotected_extremity() -> None:
    sit = situation(grenade({"armour": ["sp 14 vest"]}))
    # blast check 7 + 2 = 9 < 15: d5 over head, arms, legs -> 1 = the head
    result = scripted(sit, [*SEVEN_D6_24, 2, 1, 5])
    assert "the blast takes the head" in notes(result)
    assert result.summary["killed outright"] is True
    assert result.summary["death save failed"] is True


def test_transcript_names_rule_ids() -> None:
    sit = situation({"attack": {"mode": "full_auto", "rounds": 30, "range_m": 50}})
    result = scripted(sit, full_auto_28_vs_15())
    rules = {getattr(e, "rule", "") for e in result.transcript if isinstance(e, Note | Check)}
    assert {"G28", "G24", "G25"} <= {r.split("/")[0] for r in rules if r}
