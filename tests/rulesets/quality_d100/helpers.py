"""Shared helpers for the quality_d100 tests."""

from __future__ import annotations

from typing import Any

from firefight.core.resolution import Resolution
from firefight.dice import ScriptedDice
from firefight.rulesets.quality_d100 import RULESET
from firefight.rulesets.quality_d100.house import QualityD100House


def load(data: dict[str, Any], house: QualityD100House | None = None) -> Any:
    return RULESET.load_situation(data, source="test.toml", house=house or QualityD100House())


def run(
    data: dict[str, Any], faces: list[int], house: QualityD100House | None = None
) -> Resolution:
    """Resolve on scripted faces and insist every face was used."""
    dice = ScriptedDice(faces)
    result = RULESET.resolve(load(data, house), dice)
    dice.check_all_used()
    return result


def lines(result: Resolution) -> str:
    return "\n".join(result.transcript.lines())
