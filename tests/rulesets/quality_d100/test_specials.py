"""Q07 evading parries and the Q08 special attacks inside a strike (scripted dice)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from firefight.errors import InputError
from firefight.rulesets.quality_d100.house import QualityD100House
from tests.rulesets.quality_d100.helpers import lines, load, run

ATTACKER = {"name": "Aldric", "weapon": "broadsword", "manual_dexterity": 14, "rank": 3}
# Evading, rank 2: defence = AG 15 + evading 10 + 4 x 2 = 33 (levels 33 / 14 / 7 / 4)
EVADER = {"name": "Brun", "agility": 15, "evading": True, "rank": 2, "armour": "chainmail"}


def evading(**defender: Any) -> dict[str, Any]:
    return {"attacker": dict(ATTACKER), "defender": EVADER | defender}


@pytest.mark.parametrize(
    ("faces", "parry"),
    [
        ([60, 3, 5], "disarm"),  # Average vs Decisive: margin 3; 5 + 2 - 3 = 4
        ([60, 7, 1], "parry"),  # Average vs Crucial: margin 2; 1 + 2 - 3 = 0
        ([60, 7, 10], "disarm + riposte"),  # 10 + 2 - 3 = 9
        ([60, 7, 4], "parry"),  # 4 + 2 - 3 = 3: still a plain parry
        ([60, 7, 8], "disarm"),  # 8 + 2 - 3 = 7: still disarm
        ([60, 20], ""),  # Average vs Average: margin 0, no parry roll
    ],
)
def test_evading_parry(faces: list[int], parry: str) -> None:
    assert run(evading(), faces).outcome.parry == parry


def test_parry_needs_a_margin_of_two() -> None:
    assert run(evading(), [30, 3, 1]).outcome.parry == "parry"  # Better 2 vs Decisive 4
    assert run(evading(), [17, 3]).outcome.parry == ""  # Crucial 3 vs Decisive 4: margin 1


def test_parry_damage_goes_to_the_attacker_by_default_house_rule_to_evader() -> None:
    assert "Aldric takes 1 EN" in lines(run(evading(), [60, 3, 5]))
    house = QualityD100House(parry_en_damage_to="evader")
    assert "Brun takes 1 EN" in lines(run(evading(), [60, 3, 5], house))


def test_no_parry_when_declined_or_ranged() -> None:
    assert run(evading(parry=False), [60, 3]).outcome.parry == ""
    ranged = {
        "mode": "ranged",
        "attacker": {"strike_chance": 60, "damage": "d6"},
        "defender": {"agility": 15, "evading": True},
    }
    assert run(ranged, [60, 3]).outcome.parry == ""


BASE = {
    "attacker": dict(ATTACKER),
    "defender": {
        "agility": 16,
        "shield": 10,
        "armour": "chainmail",
        "manual_dexterity": 12,
        "rank": 2,
    },
}


def special(name: str, **attacker: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE) | {"special": name}
    data["attacker"].update(attacker)
    return data


def test_knockout_needs_result_quality_3() -> None:
    out = run(special("knockout"), [17, 50, 3]).outcome
    assert (out.result_quality, out.special, out.en_damage) == (3, "knocked out", 3)
    assert run(special("knockout"), [30, 50]).outcome.special == ""  # result 2


def test_disarm_minus_20_and_md_plus_rank_to_avoid_no_damage() -> None:
    plan = load(special("disarm"))
    assert plan.strike_chance == 81 - 20
    out = run(special("disarm"), [60, 50, 15]).outcome  # avoid: 15 > 12 + 2
    assert (out.special, out.damage) == ("disarmed", 0)
    assert run(special("disarm"), [60, 50, 14]).outcome.special == "avoided"
    two = special("disarm")
    two["defender"]["two_handed"] = True  # 2 x 12 + 2 = 26
    assert run(two, [60, 50, 26]).outcome.special == "avoided"


def test_trip_base_chance_40_damage_d10_agility_to_avoid() -> None:
    plan = load(special("trip"))
    assert plan.strike_chance == 40 + 14 + 12 and plan.damage == "d10"
    out = run(special("trip"), [60, 50, 49, 6]).outcome  # avoid 3 x 16 = 48: 49 fails
    assert (out.special, out.ft_damage) == ("knocked down", 2)  # 6 - FT 4
    assert run(special("trip"), [60, 50, 48, 6]).outcome.special == "avoided"


def test_trample_base_chance_40_size_damage_automatic_knockdown() -> None:
    data = {
        "special": "trample",
        "attacker": {"manual_dexterity": 5, "size_hexes": 3},
        "defender": {"armour": "leather"},
    }
    plan = load(data)
    assert plan.strike_chance == 45 and plan.damage == "d10+3"
    out = run(data, [20, 90, 7]).outcome  # Average vs Poor: 7 + 3 - FT 2 = 8
    assert (out.special, out.ft_damage) == ("knocked down", 8)


def test_entangle_and_shield_rush() -> None:
    out = run(special("entangle"), [60, 50, 90]).outcome
    assert (out.special, out.damage) == ("entangled", 0)
    out = run(special("shield_rush"), [60, 50, 10, 5]).outcome
    assert (out.special, out.ft_damage) == ("avoided", 3)


def test_trip_with_a_given_strike_chance_is_refused() -> None:
    data = {"special": "trip", "attacker": {"strike_chance": 60}, "defender": {}}
    with pytest.raises(InputError, match="Base Chance"):
        load(data)
