"""Shared test helpers: load an example situation, resolve it on scripted dice, read events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firefight.core.loading import read_toml
from firefight.core.resolution import Resolution
from firefight.core.transcript import Check, Note, StateChange
from firefight.dice import ScriptedDice
from firefight.rulesets.warfare2d20 import RULESET
from firefight.rulesets.warfare2d20.house import Warfare2d20House

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "warfare2d20"


def situation(name: str, house: Warfare2d20House | None = None, **changes: Any) -> Any:
    """An example file (or ``changes`` on top of it) loaded into a situation."""
    path = EXAMPLES / name
    data = {**read_toml(path), **changes}
    return RULESET.load_situation(data, source=str(path), house=house or Warfare2d20House())


def scripted(sit: Any, faces: list[int]) -> Resolution:
    """Resolve on the given faces; every face must be used."""
    dice = ScriptedDice(faces)
    result = RULESET.resolve(sit, dice)
    dice.check_all_used()
    return result


def checks(res: Resolution, name: str) -> list[Check]:
    return [e for e in res.transcript.of_type(Check) if e.name == name]


def notes(res: Resolution) -> list[str]:
    return [e.message for e in res.transcript.of_type(Note)]


def changes(res: Resolution, who: str, field: str) -> list[tuple[Any, Any]]:
    return [
        (e.before, e.after)
        for e in res.transcript.of_type(StateChange)
        if e.who == who and e.field == field
    ]
