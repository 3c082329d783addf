"""Q03, Q10: strikes on scripted dice, each figure of the result table checked by hand.

Base situation: strike chance 81 (broadsword BC 55 + MD 14 + 4 x rank 3), defence 26 (AG 16 +
shield 10, front hex), chainmail FT 4 / EN 2 (example catalog), damage d10+2 (max 12).
Attacker levels at 81: Decisive <= 9, Crucial <= 17, Better <= 33, Average <= 81.
"""

from __future__ import annotations

from typing import Any

import pytest

from firefight.core.transcript import Modifier, StateChange
from firefight.rulesets.quality_d100.house import QualityD100House
from firefight.rulesets.quality_d100.strike import StrikeOutcome
from tests.rulesets.quality_d100.helpers import lines, run

BASE: dict[str, Any] = {
    "attacker": {"weapon": "broadsword", "manual_dexterity": 14, "rank": 3},
    "defender": {
        "agility": 16,
        "shield": 10,
        "armour": "chainmail",
        "fatigue": 22,
        "endurance": 18,
    },
}


def strike(faces: list[int], data: dict[str, Any] | None = None, **house: Any) -> Any:
    result = run(data or BASE, faces, QualityD100House(**house) if house else None)
    assert isinstance(result.outcome, StrikeOutcome)
    return result


def test_chance_and_defence_are_built_from_named_parts() -> None:
    result = strike([90, 90])
    assert result.summary["strike_chance"] == 81
    assert result.summary["defence"] == 26
    mods = result.transcript.of_type(Modifier)
    assert [(m.name, m.value) for m in mods] == [
        ("broadsword Base Chance", 55),
        ("modified MD", 14),
        ("4 x rank 3", 12),
        ("magic", 0),
        ("modified AG", 16),
        ("shield", 10),
        ("magical defence", 0),
    ]


def test_average_result_is_rolled_weapon_damage_less_ft_armour() -> None:
    # 60 vs 81: Average; 50 vs 26: Poor; result 1: d10 4 + 2 = 6 - FT 4 = 2 FT
    result = strike([60, 50, 4])
    out = result.outcome
    assert (out.attack_quality, out.defence_quality, out.result_quality) == (1, 0, 1)
    assert (out.ft_damage, out.en_damage) == (2, 0)
    changes = result.transcript.of_type(StateChange)
    assert [(c.field, c.before, c.after) for c in changes] == [("FT", 22, 20)]


def test_better_result_is_maximum_fatigue_and_rolls_no_damage_die() -> None:
    out = strike([30, 50]).outcome  # 30 <= 33 Better; max 12 - FT 4 = 8
    assert (out.result_quality, out.ft_damage, out.en_damage) == (2, 8, 0)


def test_crucial_result_is_endurance_less_en_armour() -> None:
    out = strike([17, 50, 3]).outcome  # 3 + 2 = 5 - EN 2 = 3 EN
    assert (out.result_quality, out.ft_damage, out.en_damage) == (3, 0, 3)
    assert not out.possible_grievous


def test_decisive_result_raises_a_possible_grievous_injury() -> None:
    result = strike([5, 50, 7])  # 7 + 2 = 9 - EN 2 = 7 EN
    out = result.outcome
    assert (out.result_quality, out.en_damage, out.possible_grievous) == (4, 7, True)
    assert not out.grievous  # no chance configured: the event only
    assert "possible specific grievous injury" in lines(result)


def test_equal_qualities_are_blocked() -> None:
    out = strike([60, 20]).outcome  # Average vs Average (20 <= 26)
    assert (out.result_quality, out.damage, out.hit) == (0, 0, False)


def test_natural_01_against_natural_01_is_blocked() -> None:
    out = strike([1, 1]).outcome
    assert (out.attack_quality, out.defence_quality, out.result_quality) == (4, 4, 0)


def test_natural_00_attack_is_poor_even_when_the_chance_exceeds_100() -> None:
    data = {"attacker": {"strike_chance": 150, "damage": "d6"}, "defender": {"defence": 10}}
    out = strike([100, 99], data).outcome
    assert (out.attack_quality, out.result_quality) == (0, 0)


HIGH = {
    "attacker": {"strike_chance": 250, "damage": "2d6+3"},
    "defender": {"defence": 50, "armour": "leather", "dr": 1},
    "grievous": {"chance": 30, "extra_damage": "d6", "effect": "severed tendon"},
}


def test_excellent_is_maximum_endurance_with_no_armour_but_dr() -> None:
    # 250: Excellent <= 15, Fantastic <= 5. Max 2d6+3 = 15, less DR 1 only = 14.
    result = strike([15, 60, 31], HIGH)  # grievous: 31 > 30, does not happen
    out = result.outcome
    assert (out.result_quality, out.en_damage, out.possible_grievous, out.grievous) == (
        5,
        14,
        True,
        False,
    )


def test_fantastic_is_maximum_plus_10_and_the_grievous_extra_ignores_armour_and_dr() -> None:
    result = strike([5, 60, 30, 4], HIGH)  # 15 + 10 - DR 1 = 24; grievous 30 <= 30, d6 4
    out = result.outcome
    assert (out.result_quality, out.en_damage, out.grievous) == (6, 28, True)
    assert "severed tendon: +4 EN" in lines(result)


def test_dr_applies_to_fatigue_and_endurance_results() -> None:
    low = {
        "attacker": {"strike_chance": 60, "damage": "d6"},
        "defender": {"defence": 50, "armour": "leather", "dr": 1},
    }
    out = strike([50, 60, 5], low).outcome  # Average vs Poor: 5 - FT 2 - DR 1 = 2 FT
    assert (out.result_quality, out.ft_damage, out.en_damage) == (1, 2, 0)
    out = strike([12, 60, 5], low).outcome  # Crucial (<= 12) vs Poor: 5 - EN 1 - DR 1 = 3 EN
    assert (out.result_quality, out.ft_damage, out.en_damage) == (3, 0, 3)
    out = strike([50, 60, 1], low).outcome  # damage never goes below 0
    assert (out.result_quality, out.damage) == (1, 0)


def test_house_rule_fantastic_extra_and_transcript_says_so() -> None:
    result = strike([5, 60, 99], HIGH, fantastic_extra_damage=20)
    assert result.outcome.en_damage == 15 + 20 - 1
    assert "house rule: fantastic_extra_damage = 20 (the text says 10)" in lines(result)


@pytest.mark.parametrize(
    ("faces", "level"), [([1, 50, 1], 4), ([40, 50, 1], 1), ([33, 27], 2), ([34, 27, 9], 1)]
)
def test_result_levels(faces: list[int], level: int) -> None:
    assert strike(faces).outcome.result_quality == level
