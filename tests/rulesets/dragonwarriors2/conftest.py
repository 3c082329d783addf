"""Shared helpers for the dragonwarriors2 tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firefight.core.house import load_house
from firefight.rulesets import get_ruleset

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "dragonwarriors2"


def load(data: dict[str, Any], house: Any = None) -> Any:
    ruleset = get_ruleset("dragonwarriors2")
    rules = house if house is not None else load_house(ruleset.house_model, None)
    return ruleset.load_situation(data, source="test.toml", house=rules)


def fighter(name: str, attack: int, defence: int, toughness: int, **kw: Any) -> dict[str, Any]:
    return {"name": name, "attack": attack, "defence": defence, "toughness": toughness, **kw}


def exchange(attacker: dict[str, Any], defender: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"kind": "exchange", "attacker": attacker, "defender": defender, **kw}
