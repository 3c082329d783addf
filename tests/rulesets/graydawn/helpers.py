"""Small builders for graydawn attack situations in tests (plain dicts, as a TOML file gives)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, TypeVar

from firefight.core.transcript import Check, Note
from firefight.dice import ScriptedDice
from firefight.dice.sources import clear_derived, path_by_path
from firefight.rulesets import get_ruleset
from firefight.rulesets.graydawn.house import GraydawnHouse
from firefight.rulesets.graydawn.situation import AttackSituation

T = TypeVar("T")

RULESET = get_ruleset("graydawn")

RIFLE_4D6 = {
    "name": "assault rifle 4d6+1",
    "kind": "assault_rifle",
    "skill": "rifle",
    "wa": 0,
    "range_m": 400,
    "damage": "4d6+1",
    "rof": 30,
    "magazine": 30,
    "burst": True,
    "full_auto": True,
}
SMG_2D6 = {
    "name": "smg 2d6+1",
    "kind": "smg",
    "skill": "smg",
    "wa": 0,
    "range_m": 150,
    "damage": "2d6+1",
    "rof": 30,
    "magazine": 30,
    "burst": True,
    "full_auto": True,
}


def merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


BASE: dict[str, Any] = {
    "kind": "attack",
    "attacker": {
        "name": "shooter",
        "stats": {"REF": 6, "CL": 6, "MA": 6, "BODY": 6, "LUCK": 5},
        "skills": {"rifle": 5, "smg": 5, "handgun": 5, "dodge_cover": 3},
        "weapon": RIFLE_4D6,
    },
    "target": {
        "name": "target",
        "stats": {"REF": 6, "CL": 6, "MA": 6, "BODY": 6, "LUCK": 5},
        "skills": {"dodge_cover": 3},
    },
    "attack": {"mode": "single", "range_m": 50},
}


def situation(
    extra: dict[str, Any] | None = None, house: GraydawnHouse | None = None
) -> AttackSituation:
    data = merge(BASE, extra or {})
    loaded = RULESET.load_situation(data, source="test", house=house or GraydawnHouse())
    assert isinstance(loaded, AttackSituation)
    return loaded


def scripted(sit: AttackSituation, faces: list[int]):  # type: ignore[no-untyped-def]
    """Resolve on the given faces; every face must be used."""
    dice = ScriptedDice(faces)
    result = RULESET.resolve(sit, dice)
    dice.check_all_used()
    return result


def checks(result, name: str) -> list[Check]:  # type: ignore[no-untyped-def]
    return [e for e in result.transcript if isinstance(e, Check) and e.name == name]


def notes(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [e.message for e in result.transcript if isinstance(e, Note)]


def roll_exprs(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [r.expr.replace(" ", "") for r in result.transcript.rolls()]


def both_routes(compute: Callable[[], T]) -> tuple[T, T]:
    """``compute()`` on exact dice by the tables and path by path, each from cold caches: a
    rule's vectorised route must give the very fractions of replaying its code."""
    clear_derived()
    fast = compute()
    clear_derived()
    with path_by_path():
        slow = compute()
    clear_derived()
    return fast, slow
