"""Q04-Q06: named situation options become the 57.1 / 57.2 modifiers and die modifiers."""

from __future__ import annotations

from typing import Any

import pytest

from firefight.errors import InputError
from firefight.rulesets.quality_d100.house import QualityD100House
from firefight.rulesets.quality_d100.plan import Plan
from tests.rulesets.quality_d100.helpers import load, run


def plan(data: dict[str, Any], **house: Any) -> Plan:
    p = load(data, QualityD100House(**house) if house else None)
    assert isinstance(p, Plan)
    return p


def strike_mods(p: Plan) -> dict[str, int]:
    return {m.name: m.value for m in p.strike_mods[1:]}


def defence_mods(p: Plan) -> dict[str, int]:
    return {m.name: m.value for m in p.defence_mods}


def test_melee_attacker_options() -> None:
    p = plan(
        {
            "mode": "melee",
            "attacker": {
                "strike_chance": 50,
                "damage": "d6",
                "no_fatigue": True,
                "offensive_withdrawal": True,
                "charge": "pole_or_shield",
                "secondary_hand": True,
                "multiple_strike": True,
                "airborne": True,
            },
            "defender": {"hex": "rear", "kneeling_or_prone": True, "agility": 10},
        }
    )
    assert strike_mods(p) == {
        "attacker has no Fatigue": -10,
        "offensive withdrawal": -20,
        "charging with pole weapon or shield": 20,
        "attacking a rear hex": 30,
        "defender kneeling or prone": 20,
        "weapon in secondary hand": -20,
        "multiple strike": -10,
        "attacker is airborne": -10,
    }
    assert p.strike_chance == 50 - 10 - 20 + 20 + 30 + 20 - 20 - 10 - 10


def test_close_combat_uses_physical_strength_and_its_own_fatigue_values() -> None:
    p = plan(
        {
            "mode": "close",
            "attacker": {
                "strike_chance": 30,
                "damage": "d6",
                "physical_strength": 14,
                "no_fatigue": True,
            },
            "defender": {
                "agility": 12,
                "physical_strength": 9,
                "no_fatigue": True,
                "stunned": True,
                "magic_defence": 3,
            },
        }
    )
    assert strike_mods(p) == {"attacker's PS": 14, "attacker has no Fatigue": -20}
    # Stunned: only magic + modifiers (no AG), and the close-combat stunned modifier too.
    assert defence_mods(p) == {
        "magical defence": 3,
        "defender's PS": 9,
        "defender has no Fatigue": -20,
        "defender is stunned": -20,
    }
    assert p.defence == 3 + 9 - 20 - 20


def test_ranged_options_range_bands_aim_and_worst_visibility_only() -> None:
    p = plan(
        {
            "mode": "ranged",
            "attacker": {
                "weapon": "short_bow",
                "manual_dexterity": 10,
                "rank": 2,
                "aim": True,
                "kneeling": True,
                "range_hexes": 11,
                "visibility": ["starry_night", "cave", "cloudy_night"],
            },
            "defender": {
                "agility": 15,
                "shield": 5,
                "hex": "flank",
                "moving": True,
                "kneeling_or_prone": True,
                "evading": True,
                "sheltered_hex": True,
                "airborne": True,
            },
        }
    )
    mods = strike_mods(p)
    assert mods["attacking a flank hex"] == 10
    assert mods["attacker is kneeling"] == 10
    assert mods["aim"] == 20
    # 11 hexes: 6 past the first 5 -> two bands of 5 (or part) -> -6
    assert [v for k, v in mods.items() if k.startswith("missile")] == [-6]
    assert [v for k, v in mods.items() if k.startswith("visibility")] == [-30]
    assert p.die_modifier == -5
    # Flank: AG + magic, no shield.
    assert defence_mods(p) == {
        "modified AG": 15,
        "magical defence": 0,
        "defender is moving": 5,
        "defender kneeling or prone": 10,
        "defender is evading": 20,
        "sheltered hex": 20,
        "defender is airborne": 20,
    }


def test_thrown_weapons_lose_3_per_hex() -> None:
    p = plan(
        {
            "mode": "ranged",
            "attacker": {"weapon": "throwing_knife", "range_hexes": 4},
            "defender": {},
        }
    )
    assert [v for k, v in strike_mods(p).items() if k.startswith("thrown")] == [-12]


def test_missile_within_5_hexes_has_no_range_modifier() -> None:
    p = plan(
        {"mode": "ranged", "attacker": {"weapon": "crossbow", "range_hexes": 5}, "defender": {}}
    )
    assert not [k for k in strike_mods(p) if k.startswith("missile")]


def test_melee_evading_with_prepared_weapon_rank() -> None:
    p = plan(
        {
            "attacker": {"strike_chance": 50, "damage": "d6"},
            "defender": {
                "agility": 14,
                "shield": 6,
                "evading": True,
                "rank": 3,
                "defensive_withdrawal": True,
            },
        }
    )
    assert defence_mods(p) == {
        "modified AG": 14,
        "shield": 6,
        "magical defence": 0,
        "defensive withdrawal": 20,
        "defender is evading": 10,
        "evading with prepared weapon, rank 3": 12,
    }


def test_front_defence_pc_is_a_house_rule() -> None:
    data = {
        "attacker": {"strike_chance": 50, "damage": "d6"},
        "defender": {"agility": 14, "perception": 11, "shield": 6},
    }
    assert plan(data).defence == 20
    assert plan(data, front_defence_adds_pc=True).defence == 31


@pytest.mark.parametrize(
    ("approach", "hex_", "rank", "expected"),
    [
        ("surprise", "front", 4, -8),
        ("behind", "front", 4, -4),
        ("front", "front", 7, -2),
        (None, "rear", 5, -5),
        (None, "flank", 5, -1),
    ],
)
def test_assassin_ranks_are_die_modifiers(
    approach: str | None, hex_: str, rank: int, expected: int
) -> None:
    attacker: dict[str, Any] = {"strike_chance": 50, "damage": "d6", "assassin_rank": rank}
    if approach:
        attacker["assassin_approach"] = approach
    p = plan({"attacker": attacker, "defender": {"hex": hex_}})
    assert p.die_modifier == expected


def test_aimed_shot_scripted_reaches_decisive() -> None:
    # short bow BC 45 + MD 10 + 4 x 2 + aim 20 - 6 (11 hexes) = 77; natural 13 - 5 = 8 <= 7.7 up
    data = {
        "mode": "ranged",
        "attacker": {
            "weapon": "short_bow",
            "manual_dexterity": 10,
            "rank": 2,
            "aim": True,
            "range_hexes": 11,
        },
        "defender": {"agility": 12},
    }
    out = run(data, [13, 80, 7]).outcome
    assert out.attack_quality == 4 and out.result_quality == 4
    assert out.en_damage == 7 + 1  # d8 7 + 1, no armour


@pytest.mark.parametrize(
    ("mode", "side", "field"),
    [
        ("melee", "attacker", "aim"),
        ("melee", "defender", "sheltered_hex"),
        ("ranged", "attacker", "offensive_withdrawal"),
        ("ranged", "defender", "no_fatigue"),
        ("close", "defender", "evading"),
    ],
)
def test_flags_that_mean_nothing_in_the_mode_are_refused(mode: str, side: str, field: str) -> None:
    data: dict[str, Any] = {
        "mode": mode,
        "attacker": {"strike_chance": 50, "damage": "d6"},
        "defender": {},
    }
    data[side][field] = True
    with pytest.raises(InputError, match=f"{side}.{field}"):
        load(data)


def test_extra_modifiers_from_the_current_rules_are_named() -> None:
    p = plan(
        {
            "attacker": {
                "strike_chance": 50,
                "damage": "d6",
                "modifiers": [{"name": "blessed blade", "value": 5}],
            },
            "defender": {"defence": 30, "modifiers": [{"name": "fog", "value": 7}]},
        }
    )
    assert p.strike_chance == 55 and p.defence == 37
    assert p.strike_mods[-1].rule == "current rules"


def test_house_rule_changes_a_table_value() -> None:
    data = {"attacker": {"strike_chance": 50, "damage": "d6"}, "defender": {"hex": "rear"}}
    assert plan(data).strike_chance == 80
    assert plan(data, melee_rear_hex=25).strike_chance == 75
