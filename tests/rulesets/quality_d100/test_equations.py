"""Q08: the combat equation summary (57.3) as resolution functions, scripted and exact."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from firefight.errors import InputError
from firefight.rulesets.quality_d100 import RULESET
from firefight.rulesets.quality_d100.house import QualityD100House
from tests.rulesets.quality_d100.helpers import load, run


def eq(name: str, **values: int) -> dict[str, Any]:
    return {"kind": "equation", "equation": name, "values": values}


@pytest.mark.parametrize(
    ("data", "faces", "result", "value"),
    [
        (
            eq("engaged_initiative", perception=12, agility=15, weapon_rank=3, warrior_rank=2),
            [],
            "initiative 32",
            32,
        ),
        (eq("unengaged_initiative", perception=12, military_scientist=3), [7], "initiative 25", 25),
        (
            eq("strike_chance", base_chance=55, manual_dexterity=14, rank=3, modifiers=5),
            [],
            "strike chance 86",
            86,
        ),
        (
            eq("restrain", attacker_ps=15, attacker_ag=14, defender_ps=12, defender_ag=13),
            [12],
            "restrained",
            12,
        ),
        (
            eq("restrain", attacker_ps=15, attacker_ag=14, defender_ps=12, defender_ag=13),
            [13],
            "not restrained",
            12,
        ),
        (eq("fumble", initiative=40), [30], "recovered", 30),
        (eq("fumble", initiative=40), [31], "roll on the Fumble Table (52.4, not in the text)", 30),
        (eq("withdraw", friendly_ps=20, hostile_ps=15), [5], "withdraws", 10),
        (eq("withdraw", friendly_ps=20, hostile_ps=15), [4], "stays engaged", 9),
        (eq("repulse_charge", rank=4), [4], "charge repulsed", 4),
        (eq("repulse_charge", rank=4), [3], "not repulsed", 3),
        (eq("stay_conscious", endurance=5, willpower=14), [], "conscious", None),
        (eq("stay_conscious", endurance=3, willpower=14), [42], "conscious", 42),
        (eq("stay_conscious", endurance=3, willpower=14), [43], "unconscious", 42),
        (eq("stun_recovery", willpower=14, fatigue=10), [38], "recovers", 38),
        (eq("stun_recovery", willpower=14, fatigue=10), [39], "still stunned", 38),
        (eq("parry", evader_rank=2, attacker_rank=3), [5], "disarm", None),
    ],
)
def test_equation(data: dict[str, Any], faces: list[int], result: str, value: int | None) -> None:
    out = run(data, faces).outcome
    assert (out.result, out.value) == (result, value)


def test_roll_under_strictly_is_a_house_rule() -> None:
    house = QualityD100House(roll_under_inclusive=False)
    out = run(eq("stay_conscious", endurance=3, willpower=14), [42], house).outcome
    assert out.result == "unconscious"


def test_equation_odds_from_the_same_code() -> None:
    report = RULESET.odds(load(eq("withdraw", friendly_ps=20, hostile_ps=15)))
    assert report.probabilities["p_success"] == Fraction(6, 10)  # D10 >= 5
    report = RULESET.odds(load(eq("stay_conscious", endurance=2, willpower=15)))
    assert report.outcomes == {"conscious": Fraction(30, 100), "unconscious": Fraction(70, 100)}
    report = RULESET.odds(load(eq("unengaged_initiative", perception=10)))
    assert report.distributions["value"].mean == Fraction(155, 10)


def test_missing_or_unknown_values_are_one_line() -> None:
    with pytest.raises(InputError, match="needs values"):
        load({"kind": "equation", "equation": "withdraw"})
    with pytest.raises(InputError, match="hostile_ps"):
        load(eq("withdraw", friendly_ps=3))
    with pytest.raises(InputError, match="equation"):
        load({"kind": "equation", "equation": "juggle", "values": {"x": 1}})
