"""Single rules D01-D10 on scripted dice (faces: plus die and re-rolls, then minus die and
re-rolls)."""

from __future__ import annotations

from typing import Any

import pytest

from firefight.core.catalog import load_catalog
from firefight.core.transcript import Check, Modifier, Note, StateChange
from firefight.dice import ScriptedDice
from firefight.errors import InputError
from firefight.rulesets import get_ruleset
from firefight.rulesets.dragonwarriors2.contests import DoubleSix, plus_minus
from firefight.rulesets.dragonwarriors2.fight import roll_initiative
from firefight.rulesets.dragonwarriors2.gear import fighter as make_fighter
from firefight.rulesets.dragonwarriors2.models import CombatantSpec

from .conftest import exchange, fighter, load

RULESET = get_ruleset("dragonwarriors2")


def run(data: dict[str, Any], faces: list[int]) -> Any:
    dice = ScriptedDice(faces)
    result = RULESET.resolve(load(data), dice)
    dice.check_all_used()
    return result


def checks(result: Any) -> list[tuple[str, int, int]]:
    return [(c.name, c.value, c.target) for c in result.transcript.of_type(Check)]


def messages(result: Any) -> list[str]:
    return [n.message for n in result.transcript.of_type(Note)]


A = fighter("Ann", 12, 10, 10, riposte="always")
B = fighter("Bob", 10, 10, 10, riposte="always")


# D01 ------------------------------------------------------------------------------------------
def test_plus_minus_is_open_ended_both_ways() -> None:
    assert ScriptedDice([6, 6, 2, 1]).roll("pm6").total == 14 - 1
    assert ScriptedDice([1, 6, 6, 3]).roll("pm6").total == 1 - 15


def test_double_six_is_recorded_and_the_hook_may_add_an_effect() -> None:
    dice = ScriptedDice([6, 2, 6, 1])
    assert plus_minus(dice, "Ann", "attack") == 1
    assert [e for e in dice.events if isinstance(e, DoubleSix)] == [DoubleSix("Ann", "attack", 0)]
    dice = ScriptedDice([6, 2, 6, 1])
    assert plus_minus(dice, "Ann", "attack", lambda who, role, roll: 5) == 6
    dice = ScriptedDice([6, 2, 5])
    assert plus_minus(dice, "Ann", "attack", lambda who, role, roll: 5) == 3  # not a double


def test_double_six_bonus_option_reaches_the_contest() -> None:
    data = exchange(A, B, options={"double_six_bonus": 3})
    # Ann: 6,1 / 6,1 = 0 (double six, +3) -> 15; Bob 3,3 -> 10: 5 wounds; stun 3,3 -> 10 vs 10
    result = run(data, [6, 1, 6, 1, 3, 3, 3, 3])
    assert checks(result)[0] == ("Ann attack vs Bob", 15, 10)
    assert any("double six on Ann's attack roll" in line for line in result.transcript.lines())


# D02 / D04 ------------------------------------------------------------------------------------
def test_tie_is_no_damage_and_no_riposte() -> None:
    result = run(exchange(fighter("Ann", 10, 10, 10), B), [3, 3, 3, 3])
    assert result.summary["result"] == "no wound"
    assert "a tie: no damage and no riposte (reading)" in messages(result)


def test_damage_is_margin_plus_weapon_minus_armour() -> None:
    ann = fighter("Ann", 12, 10, 10, weapon="mace")
    bob = fighter("Bob", 10, 10, 10, armour="ring")
    # Ann 12 + (5-1) = 16 vs Bob 10 + 0 = 10: margin 6, +2 mace, -2 ring = 6 wounds; stun 3,3
    result = run(exchange(ann, bob), [5, 1, 3, 3, 3, 3])
    assert result.summary["damage"] == 6
    mods = [(m.name, m.value) for m in result.transcript.of_type(Modifier)]
    assert ("one-handed heavy weapon", 2) in mods and ("armour", -2) in mods


def test_armour_can_absorb_a_narrow_win() -> None:
    bob = fighter("Bob", 10, 10, 10, armour="plate")
    result = run(exchange(A, bob), [3, 3, 2, 2])  # 12 vs 10: margin 2 - 3 = no wound
    assert result.summary["result"] == "no wound"
    assert result.transcript.of_type(StateChange) == []


def test_weapon_attack_bonus_adds_to_the_attack() -> None:
    ann = fighter("Ann", 12, 10, 10, weapon="two-handed sword")
    result = run(exchange(ann, B), [3, 3, 4, 1, 3, 3])  # 14 + 0 vs 10 + 3: 1 + 1 dmg = 2
    assert checks(result)[0] == ("Ann attack vs Bob", 14, 13)
    assert result.summary["damage"] == 2


# D05 ------------------------------------------------------------------------------------------
def test_riposte_chain_until_a_hit() -> None:
    # Ann 12+(1-5)=8 vs Bob 10+(5-1)=14: Bob wins by 6, ripostes 6; Bob 6+0 vs Ann 10+4=14:
    # Ann wins by 8, counter-ripostes 8; Ann 8+0 vs Bob 10-4 = 6: 2 wounds to Bob; stun 3,3
    faces = [1, 5, 5, 1, 3, 3, 5, 1, 3, 3, 1, 5, 3, 3]
    result = run(exchange(A, B), faces)
    assert [c[1:] for c in checks(result)[:3]] == [(8, 14), (6, 14), (8, 6)]
    assert result.summary["damage"] == 2 and result.summary["contests"] == 3


def test_riposte_margin_policy() -> None:
    bob = fighter("Bob", 10, 10, 10, riposte="margin", riposte_margin=4)
    result = run(exchange(A, bob), [1, 3, 2, 1])  # 10 vs 11: Bob wins by 1 < 4
    assert result.summary["contests"] == 1
    assert any("does not riposte (policy: when the margin is at least 4)" in m
               for m in messages(result))  # fmt: skip


def test_riposte_choices_run_out_into_no_riposte() -> None:
    bob = fighter("Bob", 10, 10, 10, riposte="choose", riposte_choices=[False])
    result = run(exchange(A, bob), [1, 3, 2, 1])
    assert any("(table's choice 1)" in m for m in messages(result))


def test_choose_needs_choices() -> None:
    with pytest.raises(InputError, match="riposte_choices"):
        load(exchange(A, fighter("Bob", 10, 10, 10, riposte="choose")))


def test_weapon_bonus_on_riposte_is_an_option() -> None:
    ann = fighter("Ann", 12, 10, 10, riposte="never")
    bob = fighter("Bob", 10, 10, 10, weapon="sword", riposte="always")
    faces = [1, 5, 5, 1, 3, 3, 3, 3]  # Ann 8 vs Bob 14: Bob wins by 6, ripostes vs Ann 10
    on = run(exchange(ann, bob), faces)
    assert checks(on)[1][1:] == (7, 10)  # 6 + sword 1
    off = run(exchange(ann, bob, options={"weapon_bonus_on_riposte": False}), faces)
    assert checks(off)[1][1:] == (6, 10)


# D06 / D07 ------------------------------------------------------------------------------------
def test_stun_check_fail_by_more_than_five_knocks_out() -> None:
    # Ann 12 + 4 = 16 vs Bob 10: 6 wounds; stun check 10 + (1-2) = 9 vs 11: stunned by 2
    stunned = run(exchange(A, B), [5, 1, 3, 3, 1, 2])
    assert stunned.summary["Bob"]["stunned"] is True
    out = run(exchange(A, B), [5, 1, 3, 3, 1, 5])  # 10 - 4 = 6 vs 11: by 5, stunned
    assert out.summary["Bob"]["stunned"] and not out.summary["Bob"]["knocked_out"]
    ko = run(exchange(A, B), [5, 1, 3, 3, 1, 6, 1])  # 10 + 1 - 7 = 4 vs 11: by 7, out
    assert ko.summary["Bob"]["knocked_out"] is True


def test_death_check_only_once_wounds_already_exceed_toughness() -> None:
    hurt = fighter("Bob", 10, 10, 10, wounds=11)
    # Ann 16 vs 10: 6 -> 17 wounds; death check 10 + (5-1) = 14 vs 17: dies
    dead = run(exchange(A, hurt), [5, 1, 3, 3, 5, 1])
    assert dead.summary["Bob"]["dead"] is True
    # a tie holds: 10 + 7 (6,1 / 1... ) -> use wounds 13 + 1 = 14 vs 10 + 4 = 14: survives
    tie = run(exchange(fighter("Ann", 7, 10, 10), fighter("Bob", 10, 10, 10, wounds=13)),
              [5, 1, 3, 3, 5, 1, 3, 3])  # fmt: skip
    assert ("Bob death check (Toughness vs Wounds)", 14, 14) in checks(tie)
    assert tie.summary["Bob"]["dead"] is False
    at = fighter("Bob", 10, 10, 10, wounds=10)  # equal to Toughness: no death check yet
    result = run(exchange(A, at), [5, 1, 3, 3, 3, 3])
    assert not any("death" in c[0] for c in checks(result))


def test_wounds_roll_reading_of_the_death_check() -> None:
    hurt = fighter("Bob", 10, 10, 10, wounds=11)
    data = exchange(A, hurt, options={"death_check": "wounds roll"})
    # 17 wounds + (1-5) = 13 vs Toughness 10: more -> dies
    result = run(data, [5, 1, 3, 3, 1, 5])
    assert ("Bob death check (Wounds vs T.)", 13, 10) in checks(result)
    assert result.summary["Bob"]["dead"] is True


# D08 ------------------------------------------------------------------------------------------
def test_full_parry_adds_attack_and_forbids_riposte() -> None:
    bob = fighter("Bob", 10, 10, 10, stance="full parry", riposte="always")
    result = run(exchange(A, bob), [3, 3, 3, 3])  # 12 vs 20
    assert checks(result)[0][1:] == (12, 20)
    assert result.summary["contests"] == 1
    assert any("full parry allows no riposte" in m for m in messages(result))


def test_aggressive_parry_bonus_does_not_carry_into_the_counter_riposte() -> None:
    bob = fighter("Bob", 11, 10, 10, stance="aggressive parry", riposte="choose",
                  riposte_choices=[True, False])  # fmt: skip
    # 12 vs 10 + 5 = 15 (+0): Bob ripostes 3 vs Ann 10: Ann wins by 7, counter 7 vs Bob 10 (no +5)
    result = run(exchange(A, bob), [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3])
    assert [c[1:] for c in checks(result)[:3]] == [(12, 15), (3, 10), (7, 10)]


def test_an_attacker_cannot_be_in_a_parry_stance() -> None:
    with pytest.raises(InputError, match="gives up his own attack"):
        load(exchange(fighter("Ann", 12, 10, 10, stance="full parry"), B))


def test_stunned_combatant_has_attack_and_defence_zero() -> None:
    bob = fighter("Bob", 10, 10, 10, stunned=True, shield="shield")
    result = run(exchange(A, bob), [3, 3, 3, 3, 3, 3])  # 12 vs 0 + shield 2
    assert checks(result)[0][1:] == (12, 2)


# D09 ------------------------------------------------------------------------------------------
def test_bow_difficulty_is_range_in_fathoms_plus_shield_and_modifiers() -> None:
    bob = fighter("Bob", 10, 10, 10, shield="shield")
    shot = {"weapon": "bow", "range_feet": 95, "modifiers": [{"name": "cover", "value": 3}]}
    result = run(exchange(A, bob, missile=shot), [3, 3, 3, 3])
    assert checks(result)[0][1:] == (12, 15 + 3 + 2)
    assert result.summary["contests"] == 1


def test_thrown_weapon_difficulty_is_range_in_feet_and_may_be_fixed() -> None:
    shot = {"weapon": "knife", "range_fathoms": 1, "difficulty_rolled": False}
    result = run(exchange(A, B, missile=shot), [1, 2, 3, 3])  # 12 - 1 = 11 vs 6 feet
    assert checks(result)[0][1:] == (11, 6)


def test_missile_miss_allows_no_riposte() -> None:
    shot = {"weapon": "javelin", "range_feet": 20}
    result = run(exchange(A, B, missile=shot), [3, 3, 3, 3])
    assert result.summary["contests"] == 1
    assert any("no riposte to a missile" in m for m in messages(result))


def test_a_sword_cannot_be_thrown() -> None:
    with pytest.raises(InputError, match="cannot be thrown"):
        load(exchange(A, B, missile={"weapon": "sword", "range_feet": 10}))


def test_missile_needs_exactly_one_range() -> None:
    with pytest.raises(InputError, match="exactly one of range_feet or range_fathoms"):
        load(exchange(A, B, missile={"weapon": "bow"}))


# D10 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "attack", "damage"),
    [
        ("great axe", 1, 3), ("two-handed sword", 2, 1), ("spear", 1, 0), ("mace", 0, 2),
        ("morningstar", 0, 2), ("sword", 1, 0), ("knife", 0, 0), ("unarmed", 0, -1),
    ],
)  # fmt: skip
def test_weapon_classes(name: str, attack: int, damage: int) -> None:
    cat = load_catalog("firefight.rulesets.dragonwarriors2")
    f = make_fighter(CombatantSpec(name="X", attack=1, defence=1, toughness=1, weapon=name),
                     cat, "t")  # fmt: skip
    assert f.weapon is not None and (f.weapon.attack, f.weapon.damage) == (attack, damage)


@pytest.mark.parametrize(
    ("armour", "cut"),
    [("leather", 1), ("cloth", 1), ("ring", 2), ("scale", 2), ("chain", 3), ("plate", 3)],
)
def test_armour_classes(armour: str, cut: int) -> None:
    cat = load_catalog("firefight.rulesets.dragonwarriors2")
    f = make_fighter(CombatantSpec(name="X", attack=1, defence=1, toughness=1, armour=armour),
                     cat, "t")  # fmt: skip
    assert f.armour_reduction == cut


# D03 ------------------------------------------------------------------------------------------
def test_initiative_subtracts_armour_and_breaks_ties_by_reflexes() -> None:
    cat = load_catalog("firefight.rulesets.dragonwarriors2")
    slow = make_fighter(CombatantSpec(name="Slow", attack=1, defence=1, toughness=1,
                                      reflexes=10, armour="chain"), cat, "t")  # fmt: skip
    quick = make_fighter(CombatantSpec(name="Quick", attack=1, defence=1, toughness=1,
                                       reflexes=12), cat, "t")  # fmt: skip
    dice = ScriptedDice([5, 1, 1, 3])  # Slow 10 + 4 - 3 = 11, Quick 12 - 2 = 10
    order = roll_initiative(dice, [slow, quick])
    assert [(i.name, i.total) for i in order] == [("Slow", 11), ("Quick", 10)]
    dice = ScriptedDice([5, 1, 2, 3])  # Slow 11, Quick 11: Quick has the higher Reflexes
    assert [i.name for i in roll_initiative(dice, [slow, quick])] == ["Quick", "Slow"]


def test_a_parry_adds_the_sheets_attack_not_the_weapons_bonus() -> None:
    """Reading (D08 "adds his Attack score"): the sheet's ATT; a sword's +1 Attack (D10) is a
    bonus to his attacks and stays out, unless ``options.weapon_bonus_on_parry``."""
    bob = fighter("Bob", 10, 10, 10, stance="full parry", weapon="sword")
    result = run(exchange(A, bob), [3, 3, 3, 3])  # 12 vs 10 + 10 = 20
    assert checks(result)[0][1:] == (12, 20)
    both = exchange(A, bob, options={"weapon_bonus_on_parry": True})
    assert checks(run(both, [3, 3, 3, 3]))[0][1:] == (12, 21)
    half = fighter("Bob", 11, 10, 10, stance="aggressive parry", weapon="sword", riposte="never")
    result = run(exchange(A, half, options={"weapon_bonus_on_parry": True}), [3, 3, 3, 3])
    assert checks(result)[0][1:] == (12, 16)  # 10 + (11 + 1) // 2
