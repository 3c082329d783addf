"""Shared helpers for the tactical_d20 tests: build situations from plain dicts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firefight.dice import ScriptedDice
from firefight.rulesets.tactical_d20 import RULESET
from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.situation import Loaded

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "tactical_d20"


def load(data: dict[str, Any], **house: Any) -> Loaded:
    return RULESET.load_situation(data, source="test", house=TacticalD20House(**house))


def attack(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"kind": "attack", "attacker": "operator", "target": "raider"}
    base.update(fields)
    return base


def scripted(situation: Loaded, faces: list[int]):  # type: ignore[no-untyped-def]
    dice = ScriptedDice(faces)
    result = RULESET.resolve(situation, dice)
    dice.check_all_used()
    return result
