"""Single rules of the attack half, each through scripted dice or the pure helpers."""

from __future__ import annotations

import pytest

from firefight.core.transcript import Modifier
from firefight.errors import InputError
from firefight.rulesets.graydawn.damage import death_penalty, save_penalty, track_increase
from firefight.rulesets.graydawn.house import GraydawnHouse
from firefight.rulesets.graydawn.models import Stats, btm_for_body
from firefight.rulesets.graydawn.ranges import range_band

from .helpers import RULESET, checks, notes, roll_exprs, scripted, situation

H = GraydawnHouse()


def mods(result) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return {m.name: m.value for m in result.transcript if isinstance(m, Modifier)}


# -- G01 ------------------------------------------------------------------------------------
def test_g01_derived_values_round_up_and_btm_table() -> None:
    s = Stats(REF=7, CL=6, MA=4, BODY=9)
    assert (s.ra_base, s.rd_base, s.cqb_base) == (7, 6, 8)
    assert [btm_for_body(b) for b in (2, 3, 4, 5, 7, 8, 9, 10, 11, 14)] == [
        0, -1, -1, -2, -2, -3, -3, -4, -5, -5,
    ]  # fmt: skip


# -- G39 range bands --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("distance", "bracing", "scope", "band"),
    [
        (100, False, False, "close"),
        (101, False, False, "medium"),
        (400, False, False, "long"),
        (800, False, False, "extreme"),
        (150, True, False, "close"),  # medium shifted to close by bracing
        (1600, True, False, "extreme"),  # braced: up to 4x listed
        (400, True, True, "close"),  # long -> close with bracing + scope
        (3200, True, True, "extreme"),  # scoped: up to 8x listed
    ],
)
def test_g39_range_bands(distance: float, bracing: bool, scope: bool, band: str) -> None:
    rifle = {"name": "sniper rifle", "range_m": 400, "scope_blocks_irons": False}
    sit = situation({"attacker": {"weapon": rifle}})
    weapon = sit.attacker.weapon
    assert weapon is not None
    got = range_band(weapon, distance, bracing=bracing, use_scope=scope, point_blank=False, house=H)
    assert got.name == band


def test_g39_extreme_range_is_bounded_and_the_error_says_how_to_reach_further() -> None:
    sit = situation()
    weapon = sit.attacker.weapon
    assert weapon is not None
    with pytest.raises(InputError, match="beyond the 800 m"):
        range_band(weapon, 801, bracing=False, use_scope=True, point_blank=False, house=H)


def test_g39_scope_blocking_irons_without_bracing_means_pistol_ranges() -> None:
    sit = situation({"attacker": {"weapon": "sniper rifle"}})
    weapon = sit.attacker.weapon
    assert weapon is not None
    got = range_band(weapon, 30, bracing=False, use_scope=True, point_blank=False, house=H)
    assert (got.listed_m, got.name) == (50, "long")  # 30 m of 50: past half, within listed


def test_g39_range_penalty_in_the_attack() -> None:
    result = scripted(situation({"attack": {"range_m": 300}}), [5, 5])
    assert mods(result)["long range"] == -10  # 300 m of 400: long; miss (16 - 10 < 14)


# -- G04 / G05 ------------------------------------------------------------------------------
def test_g05_tn_system_mook_target_no_dodge() -> None:
    sit = situation({"target": {"mook": True}, "attack": {"range_m": 150}})
    # medium range TN 20; attack 11 + 9 = 20 meets it; no defence roll; no graze roll (mook)
    result = scripted(sit, [9, 3, 3, 3, 3, 3, 1])
    (contest,) = checks(result, "attack vs defence")
    assert (contest.value, contest.target, contest.passed) == (20, 20, True)
    assert "long range" not in mods(result) and "medium range" not in mods(result)


def test_g05_dodging_in_the_tn_system_adds_5_per_band_beyond_short() -> None:
    sit = situation({"attack": {"system": "tn", "range_m": 300}})
    result = scripted(sit, [5, 5])  # attack 16; dodge 9 + 10 (long) + 5 = 24: miss
    assert mods(result)["dodging at long range"] == 10
    (contest,) = checks(result, "attack vs defence")
    assert (contest.value, contest.target) == (16, 24)


def test_g35_flanked_target_loses_its_dodge_skill() -> None:
    result = scripted(situation({"target": {"stance": {"flanked": True}}}), [2, 9])
    (contest,) = checks(result, "attack vs defence")
    assert contest.target == 6 + 9  # REF/MA 6 + die, no dodge_cover 3
    assert contest.value == 13 and not contest.passed


def test_g34_running_and_sprinting_targets_add_ma_to_defence() -> None:
    run = scripted(situation({"target": {"stance": {"moves": 2}}}), [2, 9])
    assert mods(run)["target moving (2 moves)"] == 3
    sprint = scripted(situation({"target": {"stance": {"moves": 3}}}), [2, 9])
    assert mods(sprint)["target moving (3 moves)"] == 6


def test_g38_close_quarters_dodge_bonus_by_weapon() -> None:
    rifle = scripted(situation({"attack": {"close_quarters": True, "range_m": 1}}), [2, 9])
    assert mods(rifle)["close quarters vs a rifle"] == 6
    pistol = situation(
        {"attacker": {"weapon": "9mm pistol"}, "attack": {"close_quarters": True, "range_m": 1}}
    )
    assert mods(scripted(pistol, [2, 9]))["close quarters vs a pistol"] == 2


def test_g04_close_combat_uses_ref_body_on_both_sides() -> None:
    sit = situation(
        {
            "attacker": {"weapon": "club", "skills": {"melee": 4}, "stats": {"BODY": 10}},
            "target": {"skills": {"brawling": 2}, "stats": {"BODY": 8}},
            "attack": {"mode": "melee"},
        }
    )
    # attack ceil((6+10)/2) = 8 + 4 + 5 = 17; defence ceil((6+8)/2) = 7 + 2 + 3 = 12
    # club 1d6+2 = 6, graze 5 + 2 = 7 fails; BTM -3: 3, blunt -> 1 real + 2 stun (G21)
    result = scripted(sit, [5, 3, 3, 4, 2, 1])
    (contest,) = checks(result, "attack vs defence")
    assert (contest.value, contest.target) == (17, 12)
    assert result.outcome.wound.marks == 1 and result.outcome.wound.stun_marks == 2


# -- G24 aiming -----------------------------------------------------------------------------
def test_g24_aimed_shot_needs_bracing() -> None:
    sit = situation({"attack": {"mode": "aimed", "aim_location": "head"}})
    with pytest.raises(InputError, match="bracing"):
        RULESET.odds(sit)


def test_g24_aimed_head_shot_doubles_after_btm() -> None:
    sit = situation(
        {
            "attacker": {"stance": {"bracing": True}},
            "target": {"stance": {"moves": 0}},
            "attack": {"mode": "aimed", "aim_location": "head"},
        }
    )
    # attack 11 - 4 + 9 = 16 vs defence without skill? no: the *attacker* braces; 9 + 2 = 11
    # 4d6+1 = 5 -> 3 after BTM -> 6 marks on the track; stun save 1
    result = scripted(sit, [9, 2, 1, 1, 1, 1, 1])
    assert mods(result)["aimed shot at the head"] == -4
    assert result.summary["location"] == "head"
    assert result.summary["damage (marks added)"] == 6


def test_g24_aimed_at_a_prone_target_is_only_minus_2() -> None:
    sit = situation(
        {
            "attacker": {"stance": {"bracing": True}},
            "target": {"stance": {"prone": True}},
            "attack": {"mode": "aimed", "aim_location": "torso"},
        }
    )
    assert mods(scripted(sit, [2, 2, 1, 1, 1, 1, 1]))["aimed shot at the torso"] == -2


def test_g25_grazing_head_shot_is_not_doubled_and_head_8_kills() -> None:
    sit = situation(
        {
            "attacker": {"stance": {"bracing": True}},
            "target": {"stats": {"LUCK": 10}},
            "attack": {"mode": "aimed", "aim_location": "head"},
        }
    )
    # 4d6+1 = 25; graze 10 - 2 (head) + 7 = 15: grazed -> 5 - 2 = 3 marks, not doubled
    grazed = scripted(sit, [9, 2, 6, 6, 6, 6, 7, 1])
    assert grazed.summary["grazed"] is True and grazed.summary["damage (marks added)"] == 3
    # graze fails (10 - 2 + 2 = 10): 25 - 2 = 23 >= 8 -> instantly fatal; destroyed on a failed
    # BODY + LUCK + d10 (6 + 10 + 2 = 18 < 23); 46 marks
    dead = scripted(sit, [9, 2, 6, 6, 6, 6, 2, 2, 5])
    assert dead.summary["killed outright"] is True
    assert dead.summary["severed"] is True
    assert dead.summary["damage (marks added)"] == 46
    assert dead.summary["death save failed"] is True


# -- G22 crippling --------------------------------------------------------------------------
def test_g22_limb_crippled_caps_at_8_and_forces_a_death_save() -> None:
    sit = situation({"target": {"mook": True}})
    # location 7 (left leg); 4d6+1 = 17, -2 = 15 >= 8: crippled, 8 marks; BODY + LUCK + 5 = 16
    # >= 15 keeps the leg; stun save 3 <= 6 - 1; death save 4 <= 6 at -0
    result = scripted(sit, [9, 7, 4, 4, 4, 4, 5, 3, 4])  # a mook: range TN 15, no defence roll
    assert result.summary["location"] == "left_leg"
    assert result.summary["crippled"] is True and result.summary["severed"] is False
    assert result.summary["damage (marks added)"] == 8
    assert result.summary["death save needed"] is True
    assert result.summary["death save failed"] is False


def test_g22_wounds_to_an_already_crippled_limb_add_nothing() -> None:
    sit = situation({"target": {"mook": True, "wounds": {"crippled": ["left_leg"]}}})
    result = scripted(sit, [9, 7, 1, 1, 1, 1])
    assert result.summary["damage (marks added)"] == 0


# -- G21 damage kinds -----------------------------------------------------------------------
def test_g21_minor_wound_and_stun_weapon_and_overwriting_stun() -> None:
    sit = situation({"target": {"mook": True, "stats": {"BODY": 2}}})
    five = scripted(sit, [9, 3, 1, 1, 1, 1, 1])  # 4d6+1 = 5, BTM 0: a wound of 5
    assert five.outcome.wound.kind == "wounding" and five.summary["damage (marks added)"] == 5
    armoured = situation({"target": {"mook": True, "stats": {"BODY": 2}, "armour": {"torso": 4}}})
    one = scripted(armoured, [9, 3, 1, 1, 1, 1, 1])  # 5 - 4 SP = 1: a minor wound
    assert one.outcome.wound.kind == "minor" and one.summary["damage (marks added)"] == 1
    assert track_increase(3, 0, stun_on_track=2) == 1  # three real marks overwrite two stun
    assert track_increase(0, 3, stun_on_track=2) == 3  # stun adds fresh boxes


def test_g21_stun_weapon_marks_stun_only() -> None:
    sit = situation(
        {
            "attacker": {"weapon": "stun baton", "skills": {"melee": 4}},
            "target": {"stats": {"BODY": 2}},
            "attack": {"mode": "melee"},
        }
    )
    result = scripted(sit, [9, 2, 3, 3, 3, 2, 1])  # 2d6 = 6; graze 5 + 2 fails; BTM 0
    assert result.outcome.wound.kind == "stun"
    assert result.outcome.wound.stun_marks == 6 and result.outcome.wound.marks == 0


# -- G18-G20 saves and wound states ---------------------------------------------------------
def test_g18_g19_save_penalties_by_wound_state() -> None:
    assert [save_penalty(m, H) for m in (1, 4, 5, 8, 9, 12, 13, 16, 17, 21)] == [
        0, 0, -1, -1, -2, -2, -3, -3, -4, -5,
    ]  # fmt: skip
    assert [death_penalty(m, H) for m in (8, 12, 13, 16, 17, 21)] == [0, 0, 0, 0, -1, -2]


def test_g20_wound_state_lowers_the_attackers_ref_and_cl() -> None:
    sit = situation({"attacker": {"wounds": {"wounding": 6}}})
    result = scripted(sit, [2, 9])
    assert mods(result)["wound state (serious)"] == -1  # ceil((5 + 5) / 2) = 5 vs 6
    braced = situation({"attacker": {"wounds": {"wounding": 6}, "stance": {"bracing": True}}})
    # bracing ignores the REF penalty (G32): ceil((6 + 5) / 2) = 6, no change
    assert "wound state (serious)" not in mods(scripted(braced, [2, 9]))


# -- G26 shotguns, G36 point-blank, G07 cover, ammunition --------------------------------------
def test_g26_shotgun_bonus_dice_lost_and_half_cover() -> None:
    sit = situation(
        {
            "attacker": {"weapon": "pump shotgun"},
            "target": {"mook": True, "cover": {"level": 2, "position": "active"}},
            "attack": {"range_m": 30},
        }
    )
    # 30 m of 40: long -> +6, 4d6 - 2 dice = 2d6; location 3 (covered torso): 2 SP per level
    result = scripted(sit, [9, 3, 6, 6, 1])  # 11 + 6 + 9 = 26 vs TN 25; 2d6 = 12 - 4 SP
    assert mods(result)["shotgun spread at long range"] == 6
    assert "2d6" in roll_exprs(result)
    (cover,) = checks(result, "cover SP")
    assert cover.target == 4


def test_g36_point_blank_shot_does_maximum_damage() -> None:
    sit = situation({"target": {"mook": True}, "attack": {"point_blank": True, "range_m": 1}})
    result = scripted(sit, [2, 3, 1, 1])  # TN 10 (point-blank) vs 13; torso; stun, death saves
    assert result.outcome.damage == 25 - 2
    assert any("maximum damage" in n for n in notes(result))


def test_g07_full_cover_attack_at_minus_level_through_the_cover() -> None:
    sit = situation({"target": {"cover": {"level": 3, "position": "full"}}})
    result = scripted(sit, [9, 2, 8, 2, 2, 2, 2])  # leg behind cover: 9 - 12 SP -> nothing
    assert mods(result)["target in full cover (level 3)"] == -3
    assert result.summary["damage (marks added)"] == 0


def test_armour_piercing_halves_armour() -> None:
    ap = {"name": "AP", "armour_piercing": True}
    sit = situation(
        {
            "attacker": {"weapon": {"name": "assault rifle", "ammo": ap}},
            "target": {"mook": True, "armour": {"torso": 20}},
        }
    )
    result = scripted(sit, [9, 3, 3, 3, 3, 3, 3])  # 4d6+1 = 13 vs 20 / 2 = 10 SP
    (armour,) = checks(result, "armour SP (torso)")
    assert armour.target == 10
    assert result.summary["damage (marks added)"] == 1  # 3 through, BTM -2


# -- G37 firing into close combat -----------------------------------------------------------
def test_g37_a_miss_into_a_melee_hits_the_ally_who_dodges_worst() -> None:
    ally = {"name": "Rook", "stats": {"REF": 4, "MA": 4}, "skills": {"dodge_cover": 0}}
    sit = situation({"attack": {"into_close_combat": True, "allies_in_melee": [ally]}})
    # attack 11 - 3 + 5 = 13 vs 9 + 9 = 18: miss; Rook dodges 4 + 3 + 2 = 9 < 13: hit
    result = scripted(sit, [5, 9, 2])
    assert mods(result)["firing into close combat"] == -3
    assert result.summary["ally hit"] == "Rook"


# -- G17 luck in the contest ----------------------------------------------------------------
def test_g17_attacker_rerolls_a_miss_then_the_target_buys_it_back() -> None:
    sit = situation(
        {
            "luck": {"attacker": {"reroll": ["attack"]}, "target": {"boost": ["defence"]}},
            "target": {"stats": {"LUCK": 2}},
            "attack": {"range_m": 20},
        }
    )
    # 11 + 2 = 13 < 9 + 7 = 16: re-roll (2 points) 11 + 8 = 19 >= 16; target pays 2 points
    # (+4) for 20 > 19: a miss
    result = scripted(sit, [2, 7, 8])
    assert result.summary["hit"] is False
    luck = [e for e in result.transcript if getattr(e, "field", "") == "luck points"]
    assert [(e.who, e.before, e.after) for e in luck] == [("shooter", 5, 3), ("target", 2, 0)]


# -- G40 reloading --------------------------------------------------------------------------
def test_g40_reload_as_an_extra_action_and_shell_by_shell() -> None:
    extra = situation(
        {"attack": {"mode": "reload", "reload": {"method": "extra_action", "actions": 3}}}
    )
    # REF 6 + rifle 5 - 6 + 9 = 14 < 15: not loaded
    result = scripted(extra, [9])
    assert result.summary["loaded"] is False
    shells = situation(
        {
            "attacker": {"weapon": "pump shotgun"},
            "attack": {"mode": "reload", "reload": {"method": "shells", "actions": 1}},
        }
    )
    # 11 + 5 = 16, 11 - 3 + 5 = 13, 11 - 6 + 2 = 7 < 10: two shells
    assert scripted(shells, [5, 5, 2]).summary["rounds/shells"] == 2
    only = situation({"attack": {"mode": "reload"}})
    assert scripted(only, []).summary["loaded"] is True
    odds = RULESET.odds(shells)
    assert odds.distributions["shells"].p(0) > 0


def test_g19_a_turn_in_mortal_condition_bleeds_a_mark_and_needs_a_death_save() -> None:
    from firefight.dice import ScriptedDice
    from firefight.rulesets.graydawn.damage import mortal_turn

    assert mortal_turn(ScriptedDice([]), "t", 6, 12, H).marks_added == 0  # not mortal: nothing
    turn = mortal_turn(ScriptedDice([7]), "t", 6, 16, H)  # 17 marks: -1, 7 > 5 fails
    assert turn.marks_added == 1 and turn.death_save_failed
    assert not mortal_turn(ScriptedDice([5]), "t", 6, 16, H).death_save_failed


@pytest.mark.parametrize(
    ("attack", "tn"),
    [
        ({"point_blank": True, "range_m": 1}, 10),
        ({"range_m": 100}, 15),
        ({"range_m": 200}, 20),
        ({"range_m": 400}, 25),
        ({"range_m": 800}, 30),
    ],
)
def test_g05_range_tn_table(attack: dict[str, object], tn: int) -> None:
    from firefight.rulesets.graydawn.attack import plan_attack

    plan = plan_attack(situation({"target": {"mook": True}, "attack": attack}))
    assert plan.tn == tn


@pytest.mark.parametrize(
    ("reliability", "face", "jams"),
    [
        ("very_reliable", 8, False),
        ("very_reliable", 9, True),
        ("standard", 5, False),
        ("standard", 6, True),
        ("unreliable", 3, False),
        ("unreliable", 4, True),
    ],
)
def test_g06_reliability_thresholds(reliability: str, face: int, jams: bool) -> None:
    sit = situation(
        {
            "attacker": {"weapon": {"reliability": reliability}, "stats": {"REF": 1, "CL": 1}},
            "attack": {"range_m": 20},
        }
    )
    # 1 + 5 (rifle) - 10 on a first 1 then 10, 2: total 6 - 12 = -6 -> critical failure
    result = scripted(sit, [1, 10, 2, 5, face])
    assert result.summary["jammed"] is jams
    assert result.summary["critical failure"] == "dumps the magazine"  # 6 below 1: one step


def test_g26_shotguns_have_no_extreme_range() -> None:
    sit = situation({"attacker": {"weapon": "pump shotgun"}, "attack": {"range_m": 60}})
    with pytest.raises(InputError, match="no extreme range"):
        RULESET.odds(sit)


# -- more options, one each --------------------------------------------------------------------
def test_g28_bipod_removes_recoil_to_medium_and_spread_shares_rounds() -> None:
    from firefight.rulesets.graydawn.plan import plan_attack

    medium = {"mode": "full_auto", "rounds": 30, "range_m": 150}
    assert "full-auto recoil, 30 rounds" in {
        m.name for m in plan_attack(situation({"attack": medium})).attack_mods
    }
    bipod = plan_attack(situation({"attack": {**medium, "bipod": True}}))
    assert not any("recoil" in m.name for m in bipod.attack_mods)
    spread = plan_attack(
        situation(
            {"attack": {"mode": "full_auto", "rounds": 30, "spread_targets": 2, "spread_m": 2}}
        )
    )
    assert spread.rounds_at_target == (30 - 10) // 2
    with pytest.raises(InputError, match="leave none"):
        plan_attack(situation({"attack": {"mode": "full_auto", "rounds": 10, "spread_m": 2}}))


def test_g39_aiming_caps_at_3_rounds_plus_concentration_at_long_range() -> None:
    from firefight.rulesets.graydawn.plan import plan_attack

    def aim(attack: dict[str, object]) -> int:
        mods = plan_attack(situation({"attack": attack})).attack_mods
        return sum(m.value for m in mods if "aiming" in m.name)

    assert aim({"aim_rounds": 5, "range_m": 20}) == 3
    assert aim({"aim_rounds": 5, "concentration": 1, "range_m": 20}) == 3  # close range
    assert aim({"aim_rounds": 5, "concentration": 1, "range_m": 300}) == 4  # long range


def test_g39_a_scoped_shot_doubles_the_movement_bonus() -> None:
    from firefight.rulesets.graydawn.plan import plan_attack

    sit = situation(
        {
            "attacker": {"weapon": "sniper rifle", "stance": {"bracing": True}},
            "target": {"stance": {"moves": 3}},
            "attack": {"range_m": 300},
        }
    )
    mods = {m.name: m.value for m in plan_attack(sit).defence_mods}
    assert mods["target moving (3 moves)"] == 12  # MA 6, doubled


def test_g36_armour_that_stops_point_blank_rolls_damage() -> None:
    sit = situation(
        {
            "target": {"mook": True},
            "attack": {"point_blank": True, "range_m": 1, "armour_stops_point_blank": True},
        }
    )
    result = scripted(sit, [2, 3, 1, 1, 1, 1, 1])
    assert result.outcome.damage == 5 - 2


def test_g17_target_rerolls_a_head_location_and_a_failed_death_save() -> None:
    sit = situation(
        {
            "target": {"stats": {"LUCK": 6}, "wounds": {"wounding": 14}},
            "luck": {"target": {"reroll": ["hit_location_head", "death_save"]}},
        }
    )
    # attack 20 vs 11; location 1 -> re-rolled (2 points) to 3; 4d6+1 = 5: no graze roll;
    # 3 marks -> 17 (mortal): stun save 9 fails; death save 9 fails -> re-rolled (2 points): 2
    result = scripted(sit, [9, 2, 1, 3, 1, 1, 1, 1, 9, 9, 2])
    assert result.summary["location"] == "torso"
    assert result.summary["death save failed"] is False
    luck = [e for e in result.transcript if getattr(e, "field", "") == "luck points"]
    assert [(e.before, e.after) for e in luck] == [(6, 4), (4, 2)]


def test_g22_luck_boost_keeps_a_crippled_leg() -> None:
    sit = situation(
        {
            "target": {"mook": True, "stats": {"LUCK": 3}},
            "luck": {"target": {"boost": ["sever"]}},
        }
    )
    # leg hit for 17 - 2 = 15; BODY 6 + LUCK 3 + 4 = 13 < 15: one point (+2) makes 15
    result = scripted(sit, [9, 7, 4, 4, 4, 4, 4, 3, 4])
    assert result.summary["crippled"] is True and result.summary["severed"] is False


def test_input_guards_are_errors_that_survive_python_o() -> None:
    """Situations built in code skip the loader's checks; the rule code refuses them with the
    project's error (an ``assert`` would vanish under ``python -O``)."""
    from firefight.errors import InputError
    from firefight.rulesets.graydawn.models import Combatant, Weapon
    from firefight.rulesets.graydawn.odds import attack_distribution

    with pytest.raises(InputError, match="has no weapon"):
        Combatant(name="Unarmed Ulla").armed()
    bad = Weapon.model_construct(**{**dict(Weapon(kind="pistol")), "damage": "lots"})
    with pytest.raises(InputError, match="not NdX"):
        _ = bad.damage_dice
    sit = situation({"attacker": {"stance": {"bracing": True}}})
    aimed = sit.attack.model_copy(update={"mode": "aimed", "aim_location": None})
    unnamed = sit.model_copy(update={"attack": aimed})
    with pytest.raises(InputError, match="aim_location"):
        attack_distribution(unnamed)  # every branch, hits included


# -- G06 in an attack file: a melee weapon breaks, a fumble's own wound is resolved -----------
def _club(armour: bool = True) -> dict[str, object]:
    """Attack 8 (CQB ceil((6+10)/2)) + melee 4 = 12 with a standard club (1d6+2, blunt)."""
    attacker = {"weapon": "club", "skills": {"melee": 4}, "stats": {"BODY": 10}}
    if armour:
        attacker["armour"] = "light armour jacket"
    return {"attacker": attacker, "attack": {"mode": "melee"}}


def test_g06_a_melee_weapon_breaks_and_a_slip_hurts_the_bare_hands() -> None:
    sit = situation(_club())
    # 12 + (1, then 10 and 7 subtracted) = -5: severity 1, the weapon slips; defence 5;
    # reliability 6 >= 6 (standard): the club breaks; 1d3 = 2 to the right arm, the jacket's
    # SP 14 not counted (the hands are bare), BTM -4 keeps the 1-point minimum: blunt, so 1
    # stun mark; the attacker's stun save d10 3
    result = scripted(sit, [1, 10, 7, 5, 6, 2, 3])
    s = result.summary
    assert s["broken"] is True and "jammed" not in s
    assert s["critical failure"].startswith("the weapon slips")
    assert s["attacker hurt"] == "right arm: stun"
    assert s["attacker's wound track"] == "0 -> 1 (light)"
    (armour,) = checks(result, "armour SP (right_arm)")
    assert (armour.value, armour.target) == (2, 0)


def test_g06_a_wild_swing_hits_the_swinger_through_his_armour_with_his_btm_added() -> None:
    sit = situation(_club())
    # 12 - 22 = -10: severity 2; reliability 3 holds; location d10 3 (torso, SP 14); 1d6+2 =
    # 8 - 14 stops at the armour: no wound, no saves
    result = scripted(sit, [1, 10, 10, 2, 5, 3, 3, 6])
    assert "attacker hurt" in result.summary and result.summary["attacker hurt"].endswith("none")
    # the legs are bare: 1d6+2 = 6 + |BTM| 4 = 10, blunt: 5 real + 5 stun; stun save 3
    result = scripted(sit, [1, 10, 10, 2, 5, 3, 8, 4, 3])
    assert result.outcome.own[1].marks == 5 and result.outcome.own[1].stun_marks == 5


def test_g06_odds_of_a_fumble_hurting_the_attacker_follow_the_attack_total() -> None:
    """P(attacker hurt) for a club swung without armour: a slip (total -5..-9) always hurts
    (1d3, the 1-point minimum), a wild swing (-10..-14) too (no armour); P(broken) is
    P(total <= 0) x 5/10 (standard reliability), from the d10x's own distribution."""
    from fractions import Fraction

    from firefight.dice import exact

    sit = situation(_club(armour=False))
    report = RULESET.odds(sit)
    d10x = exact("d10x")

    def p_total(low: int, high: int) -> Fraction:
        return sum((p for v, p in d10x.probabilities() if low <= 12 + v <= high), Fraction(0))

    kept = Fraction(d10x.kept, d10x.total)  # the defence is rolled all the same
    hurt = report.probabilities["p_attacker_hurt"]
    assert abs(float(hurt - p_total(-14, -5) * kept)) < 1e-15
    broken = report.probabilities["p_broken"]
    assert abs(float(broken - p_total(-(10**6), 0) * kept / 2)) < 1e-15
    assert "p_jammed" not in report.probabilities
    assert report.distributions["attacker damage"].p(0) == 1 - hurt
