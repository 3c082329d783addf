"""The text's worked examples of suppression (G09, G10, G11) through scripted dice, every printed
figure, plus the other suppression rules on hand-picked dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firefight.core.loading import read_toml
from firefight.core.transcript import Check, Note, StateChange
from firefight.dice import ScriptedDice
from firefight.rulesets.graydawn.house import GraydawnHouse, SuppressionHouse
from firefight.rulesets.graydawn.suppression import (
    action_penalty,
    check_tn,
    hits_for_miss,
    lane_levels,
    lane_max_width,
    levels_from_attack,
)
from firefight.rulesets.graydawn.suppression_round import resolve_suppression
from firefight.rulesets.graydawn.suppression_situation import SuppressionSituation, load_suppression

EXAMPLES = Path(__file__).parents[3] / "examples" / "graydawn"
RULES = SuppressionHouse()


def load(data: dict[str, Any], house: Any = None) -> SuppressionSituation:
    return load_suppression(data, "test.toml", house or GraydawnHouse())


def andre(**changes: Any) -> SuppressionSituation:
    data = read_toml(EXAMPLES / "suppress_andre.toml")
    for key, value in changes.items():
        if key.startswith("target_"):
            data["target"][key.removeprefix("target_")] = value
        else:
            data["shooters"][0][key] = value
    return load_suppression(data, str(EXAMPLES / "suppress_andre.toml"), GraydawnHouse())


def checks(result: Any) -> list[Check]:
    return result.transcript.of_type(Check)


# ---------------------------------------------------------------------------------------------
# G09: Andre, 8 m, full magazine of an automatic pistol (2 levels), TN 15
# ---------------------------------------------------------------------------------------------
def test_andre_22_puts_4_levels() -> None:
    dice = ScriptedDice([8, 9, 5, 7, 5])
    r = resolve_suppression(andre(), dice)
    attack = checks(r)[0]
    assert (attack.value, attack.target, attack.passed) == (22, 15, True)
    notes = [e.message for e in r.transcript.of_type(Note)]
    assert any("2 base level(s)" in m for m in notes)  # full pistol magazine
    assert "+2 level(s), 4 in all" in attack.detail  # 1 for meeting 15, 1 for 5 over
    assert r.outcome.levels == 4
    assert r.summary["suppression levels"] == 4
    assert dice.unused == []


def test_andre_25_puts_5_levels() -> None:
    # 10 explodes, then 1: 14 + 11 = 25 -> 3 extra levels
    r = resolve_suppression(andre(), ScriptedDice([10, 1, 9, 5, 7, 5]))
    assert (checks(r)[0].value, r.outcome.levels) == (25, 5)


def test_andre_22_plus_two_luck_points_is_26_and_5_levels() -> None:
    r = resolve_suppression(andre(luck_spent=2), ScriptedDice([8, 9, 5, 7, 5]))
    assert (checks(r)[0].value, r.outcome.levels) == (26, 5)


def test_attack_levels_pure() -> None:
    assert [levels_from_attack(t, 15, RULES) for t in (14, 15, 19, 20, 22, 24, 25, 26)] == [
        0, 1, 1, 2, 2, 2, 3, 3,
    ]  # fmt: skip


# ---------------------------------------------------------------------------------------------
# G10/G11: the failed TN 25 check -> -8 behind cover, -12 in the open
# ---------------------------------------------------------------------------------------------
def test_failed_tn_25_check_leaves_minus_8_in_cover_minus_12_in_the_open() -> None:
    r = resolve_suppression(andre(), ScriptedDice([8, 9, 5, 7, 5]))
    check = checks(r)[1]
    assert (check.value, check.target, check.passed, check.detail) == (20, 25, False, "fail")
    assert r.summary["check TN"] == 25
    assert r.summary["penalty behind cover"] == -8
    assert r.summary["penalty in the open"] == -12
    assert action_penalty(4, "fail", in_open=False, rules=RULES) == 8
    assert action_penalty(4, "fail", in_open=True, rules=RULES) == 12


# ---------------------------------------------------------------------------------------------
# G11: the melee rush: dodge 16 - 12 + 3 = 7 vs TN 20 -> 2 hits; attack 25 - 15 = 10 vs 15 -> 1
# ---------------------------------------------------------------------------------------------
def test_melee_rush_takes_2_then_1_hits() -> None:
    r = resolve_suppression(andre(), ScriptedDice([8, 9, 5, 7, 5]))
    _, _, dodge, attack = checks(r)
    assert (dodge.value, dodge.target, dodge.passed) == (7, 20, False)
    assert dodge.detail == "roll 16 -12 +3 = 7; 2 hit(s)"
    assert (attack.value, attack.target, attack.passed) == (10, 15, False)
    assert attack.detail == "roll 25 -15 = 10 vs the opponent's 15; 1 hit(s)"
    assert r.outcome.hits == 3
    assert r.summary["hits"] == 3


def test_without_the_ma_bonus_the_dodge_of_4_would_take_3_hits() -> None:
    assert hits_for_miss(16 - 12, 20, RULES) == 3
    assert hits_for_miss(16 - 12 + 3, 20, RULES) == 2
    assert hits_for_miss(10, 15, RULES) == 1
    assert hits_for_miss(11, 15, RULES) == 0  # missing by 4 is no full 5
    assert hits_for_miss(15, 15, RULES) == 0


def test_hits_never_exceed_rounds_fired() -> None:
    # 10 rounds, 3 levels, check 16 vs 20 fails: penalty (3 + 2) x 2 = 10 in the open.
    # Dodge: natural 1, then 10 and 9: 11 - 19 - 10 + 3 = -15 vs 20 -> 7 hits; the attack
    # fumbles the same way: 18 - 19 - 13 = -14 vs 10 + 5 -> 5 hits; 12 > 10 rounds fired
    sit = andre(full_magazine=False, rounds=10)
    r = resolve_suppression(sit, ScriptedDice([8, 5, 1, 10, 9, 1, 10, 9, 5]))
    assert r.outcome.levels == 1 + 2  # 10 pistol shots = 1, +2 for the 22
    assert r.outcome.hits == 10
    assert any("capped" in e.message for e in r.transcript.of_type(Note))


# ---------------------------------------------------------------------------------------------
# G10 results
# ---------------------------------------------------------------------------------------------
def test_check_tn_table() -> None:
    assert [check_tn(n, RULES) for n in range(1, 8)] == [10, 15, 20, 25, 30, 30, 30]


def test_printed_covering_fire_tn_23_is_the_older_points_system() -> None:
    # G29 prints: a 16-round 9 mm magazine as covering fire = 8 points -> "TN 23". Under G10's
    # levels (TN 10 + 5 per level after the first, max 30) 8 levels give TN 30; 23 = 15 + 8.
    sit = load_suppression(
        read_toml(EXAMPLES / "suppress_covering.toml"), "x.toml", GraydawnHouse()
    )
    r = resolve_suppression(sit, ScriptedDice([5, 5]))
    assert r.outcome.levels == 8
    assert r.summary["check TN"] == 30 != 23


def test_fumble_costs_initiative_and_below_zero_the_action() -> None:
    # initiative 3, 4 levels: natural 1 on the check (1 then 2: 11 - 2 = 9 > 0) -> fumble,
    # initiative 3 - 4 = -1 -> the action is lost and the target hunkers down instead
    sit = andre(target_initiative=3)
    r = resolve_suppression(sit, ScriptedDice([8, 1, 2, 6]))
    assert r.outcome.check == "fumble"
    assert r.outcome.lost_action
    changes = [(c.field, c.before, c.after) for c in r.transcript.of_type(StateChange)]
    assert ("initiative", 3, -1) in changes
    hunker = checks(r)[-1]
    assert hunker.rule == "G12" and hunker.target == 10
    assert hunker.value == 5 + 5 + 6  # LUCK + dodge/cover + d10, no penalty behind cover
    assert r.outcome.hits == 0


def test_fumble_with_initiative_left_keeps_the_action() -> None:
    sit = andre(target_initiative=9)
    r = resolve_suppression(sit, ScriptedDice([8, 1, 2, 5, 7, 5]))
    assert r.outcome.check == "fumble" and not r.outcome.lost_action
    assert r.outcome.hits == 3  # still at 2 x levels, as a failure


def test_total_zero_or_less_panics() -> None:
    # natural 1, then 10 and 2: 11 - 12 = -1 -> panic; no declared actions
    r = resolve_suppression(andre(), ScriptedDice([8, 1, 10, 2]))
    assert r.outcome.check == "panic" and r.outcome.panicked
    assert r.outcome.hits == 0


def test_panic_table_when_asked() -> None:
    data = read_toml(EXAMPLES / "suppress_andre.toml")
    data["panic_table"] = True
    sit = load(data)
    r = resolve_suppression(sit, ScriptedDice([8, 1, 10, 2, 10, 4]))
    notes = [e.message for e in r.transcript.of_type(Note)]
    assert any("take 4 actions firing at random" in m for m in notes)


def test_pass_leaves_1_x_levels() -> None:
    # 11 + 10 + 4 = 25 vs 25 -> pass: -4 behind cover, -6 in the open
    r = resolve_suppression(andre(), ScriptedDice([8, 10, 4, 5, 7, 5]))
    assert r.outcome.check == "pass"
    assert (r.summary["penalty behind cover"], r.summary["penalty in the open"]) == (-4, -6)


def test_armour_aid_per_full_5_torso_sp() -> None:
    sit = andre(target_armour={"torso": 14})
    r = resolve_suppression(sit, ScriptedDice([8, 9, 5, 7, 5]))
    assert checks(r)[1].value == 20 + 2


def test_full_cover_within_reach_acts_as_a_pass_for_actions_that_do_not_expose() -> None:
    assert action_penalty(4, "fail", in_open=False, rules=RULES) == 8
    for exposes, pen in ((False, 4), (True, 8)):
        got = action_penalty(
            4, "fail", in_open=False, rules=RULES, full_cover_within_reach=True, exposes=exposes
        )
        assert got == pen


def test_bracing_doubles_the_penalty() -> None:
    assert action_penalty(4, "fail", in_open=False, rules=RULES, bracing=True) == 16
    assert action_penalty(3, "pass", in_open=False, rules=RULES, bracing=True) == 6


def test_flanked_target_failing_without_cover_in_reach_panics() -> None:
    r = resolve_suppression(andre(target_stance={"flanked": True}), ScriptedDice([8, 9, 5]))
    assert r.outcome.check == "fail" and r.outcome.panicked
    sit = andre(target_stance={"flanked": True}, target_cover_within_one_move=True)
    r = resolve_suppression(sit, ScriptedDice([8, 9, 5, 7, 5]))
    assert not r.outcome.panicked
    assert any("flushed" in e.message for e in r.transcript.of_type(Note))


def test_flanked_target_loses_dodge_skill_on_the_dodge_check() -> None:
    sit = andre(target_stance={"flanked": True}, target_cover_within_one_move=True)
    r = resolve_suppression(sit, ScriptedDice([8, 9, 5, 7, 5]))
    assert checks(r)[2].detail.startswith("roll 11 ")  # 6 + 5, no dodge/cover 5


# ---------------------------------------------------------------------------------------------
# G12 hunker down, G29 covering fire, G30 lanes, G14 diving
# ---------------------------------------------------------------------------------------------
def test_hunker_in_the_open_uses_luck_only_with_the_penalty() -> None:
    data = read_toml(EXAMPLES / "suppress_andre.toml")
    data["target"]["cover"] = {"level": 0, "position": "none"}
    data["target"]["actions"] = [{"kind": "hunker"}]
    r = resolve_suppression(load(data), ScriptedDice([8, 9, 3]))
    hunker = checks(r)[-1]
    # failed check in the open: (4 + 2) x 2 = 12; LUCK 5 - 12 + 3 = -4 vs 10 -> 2 hits
    assert (hunker.value, hunker.target) == (-4, 10)
    assert r.outcome.hits == 2


def test_burst_covering_fire_one_defence_roll_per_burst() -> None:
    sit = load(read_toml(EXAMPLES / "suppress_burst.toml"))
    # rookie: RD ceil((4+5)/2) = 5 + dodge 1 = 6; bursts 2 and 4 roll a natural 1 deep enough
    faces = [4, 1, 9, 6, 1, 10, 3, 5, 7, 8, 6]
    r = resolve_suppression(sit, ScriptedDice(faces))
    assert r.outcome.levels == 5
    assert r.outcome.fire_hits == 2
    defence = [c for c in checks(r) if c.rule == "G29"]
    assert [c.value for c in defence] == [10, -3, 12, -7, 11]


def test_lane_width_and_levels() -> None:
    assert lane_max_width(30, RULES) == 6
    assert lane_levels(30, 2) == 15  # the printed "+15 suppression"
    sit = load(read_toml(EXAMPLES / "suppress_lane.toml"))
    # 30 rounds / 4 m = 7 levels, TN 30; the check 6 + 4 + 1 (armour) + 10 + 9 = 30 passes,
    # the crossing dodge 7 + 4 + 1 ... natural 1 then 9: 11 - 9 = 2 vs TN 7 fails -> d6 6 -> 3
    r = resolve_suppression(sit, ScriptedDice([10, 9, 1, 9, 6]))
    assert r.outcome.levels == 7 and r.outcome.check == "pass"
    assert r.outcome.hits == 3


def test_grenade_dive_halves_damage_and_costs_the_action() -> None:
    sit = load(read_toml(EXAMPLES / "suppress_grenade.toml"))
    r = resolve_suppression(sit, ScriptedDice([6]))
    assert (r.outcome.dive, r.outcome.lost_action) == ("half", True)
    assert r.summary["blast damage"] == "half"
    r = resolve_suppression(sit, ScriptedDice([5]))  # 14 vs 15: never heard it
    assert r.outcome.dive == "full"


def test_launched_grenade_dive_needs_tn_15() -> None:
    data = read_toml(EXAMPLES / "suppress_grenade.toml")
    data["area"] = {"delivery": "launched", "distance_m": 3}
    sit = load(data)
    # RD 6 + dodge 4 = 10: a 5 makes 15 -> half; a 4 makes 14 -> full
    assert resolve_suppression(sit, ScriptedDice([5])).outcome.dive == "half"
    assert resolve_suppression(sit, ScriptedDice([4])).outcome.dive == "full"


def test_neighbours_within_a_space_are_suppressed() -> None:
    sit = load(read_toml(EXAMPLES / "suppress_covering.toml"))
    r = resolve_suppression(sit, ScriptedDice([5, 5]))
    assert r.summary["neighbours suppressed"] == ["second sentry"]


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("suppress*.toml")))
def test_every_example_resolves_on_seeded_dice(name: str) -> None:
    from firefight.dice import SeededDice

    sit = load_suppression(read_toml(EXAMPLES / name), str(EXAMPLES / name), GraydawnHouse())
    r = resolve_suppression(sit, SeededDice(7))
    assert r.outcome.hits >= 0 and len(r.transcript) > 0


def test_wound_state_lowers_cl_on_the_check_and_ref_cl_on_the_attack() -> None:
    # serious wounds (5-8 marks): -1 REF, -1 CL (G20)
    sit = andre(target_wounds={"wounding": 6}, wounds={"wounding": 6})
    r = resolve_suppression(sit, ScriptedDice([8, 9, 5, 7, 5]))
    attack, check = checks(r)[:2]
    assert attack.value == 22 - 1  # ceil((7 + 5) / 2) = 6 instead of 7
    assert check.value == 20 - 1


def test_several_shooters_add_up_and_spend_ammunition() -> None:
    data = read_toml(EXAMPLES / "suppress_andre.toml")
    second = {"name": "Bea", "weapon": "smg", "rounds": 20, "distance_m": 30}
    second |= {"stats": {"REF": 6, "CL": 6}, "skills": {"smg": 4}}
    data["shooters"].append(second)
    data["target"]["actions"] = []
    r = resolve_suppression(load(data), ScriptedDice([8, 4, 9]))
    # Andre 4 levels; Bea: 20 SMG rounds = 2 levels, 6 + 4 + 4 = 14 vs TN 20 (30 m of 150 m is
    # medium) -> +0: 6 levels, TN 30
    assert r.outcome.levels == 6 and r.summary["check TN"] == 30
    ammo = [
        (c.who, c.before, c.after)
        for c in r.transcript.of_type(StateChange)
        if c.field == "rounds in magazine"
    ]
    assert ammo == [("Andre", 20, 0), ("Bea", 30, 10)]


def test_base_levels_by_weapon_kind() -> None:
    from firefight.rulesets.graydawn.models import Weapon
    from firefight.rulesets.graydawn.suppression import base_levels, rally_tn, unsuitable_reason

    pistol = Weapon(kind="pistol", magazine=16, rof=2)
    assert [base_levels(pistol, n, RULES) for n in (9, 10, 15, 16)] == [0, 1, 1, 2]
    smg = Weapon(kind="smg", magazine=50, rof=30)
    assert [base_levels(smg, n, RULES) for n in (9, 10, 29, 30, 50)] == [0, 1, 2, 3, 5]
    shotgun = Weapon(kind="shotgun", magazine=8, rof=2)
    assert [base_levels(shotgun, n, RULES) for n in (1, 2, 4, 5)] == [0, 1, 2, 2]
    assert unsuitable_reason(Weapon(kind="sniper", magazine=5), RULES) is not None
    assert unsuitable_reason(Weapon(kind="pistol", magazine=8), RULES) is not None
    assert unsuitable_reason(Weapon(kind="grenade"), RULES) is not None
    assert unsuitable_reason(Weapon(kind="machine_gun", magazine=100), RULES) is None
    assert rally_tn(4, RULES) == 25  # G15: leadership vs the unit's suppression TN
