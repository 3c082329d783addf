"""T12: the text's three worked examples, every printed figure, through scripted dice.

The example files in examples/tactical_d20/ are the situations; the printed d20 and damage faces
are fed in order (attack d20, weapon dice, extra die).
"""

from __future__ import annotations

import pytest

from firefight.core.loading import read_toml
from firefight.core.transcript import Check, Modifier
from firefight.errors import ScriptError

from .helpers import EXAMPLES, load, scripted


def _example(name: str, **house: object):  # type: ignore[no-untyped-def]
    return load(read_toml(EXAMPLES / name), **house)


def _attack_mods(result) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return {
        m.name: m.value for m in result.transcript.of_type(Modifier) if m.target == "attack roll"
    }


def _check(result) -> Check:  # type: ignore[no-untyped-def]
    return next(c for c in result.transcript.of_type(Check) if c.name == "attack roll")


def _damage_rolls(result) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    return [(r.expr, r.total) for r in result.transcript.rolls()[1:]]


# --- Example 1: SMG burst at the head, 30 ft ---------------------------------------------------
def test_smg_burst_at_head_attack_roll_is_13() -> None:
    # 11 (d20) + 4 (Firearms) + 3 (burst) - 5 (head) = 13
    result = scripted(_example("smg_burst_head.toml", head_doubles_damage_dice=False), [11, 4, 1])
    assert _attack_mods(result) == {
        "firearms modifier": 4,
        "burst bonus": 3,
        "head target penalty": -5,
    }
    check = _check(result)
    assert result.transcript.rolls()[0].total == 11
    assert check.value == 13
    assert check.passed  # the raider's Dodge is 12


def test_smg_burst_printed_damage_needs_the_head_doubling_off() -> None:
    # Printed: 4 (1d6) + 1 (1d4, burst bonus) = 5. This is the text's arithmetic only if the head
    # hit does not double the damage dice (house rule head_doubles_damage_dice = false).
    result = scripted(_example("smg_burst_head.toml", head_doubles_damage_dice=False), [11, 4, 1])
    assert _damage_rolls(result) == [("1d6", 4), ("1d4", 1)]
    assert result.summary["damage rolled"] == 5
    assert result.summary["hp lost"] == 5


def test_smg_burst_under_the_head_rule_doubles_the_dice() -> None:
    # Known slip: the head rule (T05) doubles the damage dice -> 2d6. The burst die is sized on
    # what the SMG "normally deals", its printed 1d6 (reading printed_dice, issue 12) -> d4, the
    # example's own burst die. The printed three faces run out: the doubled dice take two.
    # (Figures changed with the printed_dice default: under rolled_dice the die was a d6.)
    situation = _example("smg_burst_head.toml")
    with pytest.raises(ScriptError):
        scripted(situation, [11, 4, 1])
    result = scripted(situation, [11, 4, 3, 1])
    assert _check(result).value == 13
    assert _damage_rolls(result) == [("2d6", 7), ("1d4", 1)]
    assert result.summary["hp lost"] == 8


def test_smg_burst_at_the_head_under_the_rolled_dice_reading() -> None:
    # House reading rolled_dice (the project's default before issue 12): with two weapon dice
    # rolled after the head doubling, the burst die is the same size -> d6.
    situation = _example("smg_burst_head.toml", extra_die_rule="rolled_dice")
    result = scripted(situation, [11, 4, 3, 6])
    assert _damage_rolls(result) == [("2d6", 7), ("1d6", 6)]
    assert result.summary["hp lost"] == 13


def test_smg_burst_under_the_other_extra_die_reading() -> None:
    # base_dice_critical_upgrade sizes the burst die on the printed 1d6 -> d4 even when doubled.
    situation = _example("smg_burst_head.toml", extra_die_rule="base_dice_critical_upgrade")
    result = scripted(situation, [11, 4, 3, 1])
    assert _damage_rolls(result) == [("2d6", 7), ("1d4", 1)]
    assert result.summary["hp lost"] == 8


# --- Example 2: infantry rifle single shot at the torso, 80 ft -------------------------------
def test_rifle_single_shot_at_torso() -> None:
    # 18 (d20) + 4 (Firearms) = 22; damage 6 (2d4) = 6
    result = scripted(_example("rifle_single_torso.toml"), [18, 3, 3])
    assert _attack_mods(result) == {"firearms modifier": 4}  # 80 ft is inside the first range
    check = _check(result)
    assert check.value == 22
    assert check.passed
    assert "critical" not in check.detail
    assert _damage_rolls(result) == [("2d4", 6)]
    assert result.summary["damage rolled"] == 6
    assert result.summary["hp lost"] == 6


# --- Example 3: coach gun, buckshot, 50 ft ---------------------------------------------------
def test_coach_gun_buckshot_critical() -> None:
    # 20 (d20) + 4 (Firearms) + 3 (buckshot) - 3 (range) = 24; a natural 20: critical hit.
    # Damage 8 (2d8, critical) + 5 (1d8, burst bonus, critical) = 13.
    result = scripted(_example("coach_gun_buckshot.toml"), [20, 3, 5, 5])
    assert _attack_mods(result) == {
        "firearms modifier": 4,
        "buckshot bonus": 3,
        "extended range penalty (50 ft, band 2)": -3,
    }
    check = _check(result)
    assert check.value == 24
    assert "critical hit" in check.detail
    assert result.summary["result"] == "critical hit"
    assert _damage_rolls(result) == [("2d8", 8), ("1d8", 5)]
    assert result.summary["damage rolled"] == 13
    assert result.summary["hp lost"] == 13


@pytest.mark.parametrize("reading", ["printed_dice", "rolled_dice", "base_dice_critical_upgrade"])
def test_coach_gun_both_extra_die_readings_give_the_printed_dice(reading: str) -> None:
    result = scripted(_example("coach_gun_buckshot.toml", extra_die_rule=reading), [20, 3, 5, 5])
    assert _damage_rolls(result) == [("2d8", 8), ("1d8", 5)]


def test_coach_gun_without_the_critical_rolls_1d8_and_a_smaller_extra_die() -> None:
    # The same shot on a natural 19 (total 23): no doubling, the buckshot die one size lower.
    result = scripted(_example("coach_gun_buckshot.toml"), [19, 7, 6])
    assert _check(result).value == 23
    assert result.summary["result"] == "hit"
    assert _damage_rolls(result) == [("1d8", 7), ("1d6", 6)]
    assert result.summary["hp lost"] == 13
