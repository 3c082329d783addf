"""Turn catalog names and inline tables of a situation into validated creatures and weapons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firefight.core.catalog import Catalog, load_catalog, lookup
from firefight.core.loading import validate
from firefight.core.validation import check_name
from firefight.errors import InputError
from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.models import Creature, Ref, Weapon

PACKAGE = "firefight.rulesets.tactical_d20"


def catalog_for(catalogs: tuple[str, ...], source: str) -> Catalog:
    """The shipped catalog plus the situation's own files (paths relative to the situation)."""
    here = Path(source).parent if source and source != "input" else None
    return load_catalog(PACKAGE, catalogs, here)


def _entry(catalog: Catalog, section: str, ref: Ref, source: str, where: str) -> dict[str, Any]:
    if isinstance(ref, str):
        return lookup(catalog, section, ref, f"{source}: {where}")
    data = dict(ref)
    name = data.pop("use", None)
    if name is None:
        return data
    if not isinstance(name, str):
        raise InputError(
            f"{source}: {where}.use must be a catalog name",
            tip='e.g. { use = "operator", agility = 3 }',
        )
    base = lookup(catalog, section, name, f"{source}: {where}")
    base.update(data)
    return base


#: Proficiencies the rules read (T03, T08, T09, T10, T05); a weapon may name another (``skill``).
RULE_SKILLS = frozenset(
    {"firearms", "ranged", "melee", "willpower", "athletics", "dexterity", "body"}
)


def known_skills(catalog: Catalog) -> set[str]:
    """The rules' proficiencies and every ``skill`` a catalog weapon names."""
    names = set(RULE_SKILLS)
    for entry in catalog.get("weapons", {}).values():
        if isinstance(entry.get("skill"), str) and entry["skill"]:
            names.add(entry["skill"])
    return names


def creature(catalog: Catalog, ref: Ref, source: str, where: str) -> Creature:
    """A creature by catalog name, or ``{ use = name, field = override }``, or a full table.
    A skill name no rule or weapon reads would count as 0 and quietly change the odds: refused."""
    found = validate(
        Creature, _entry(catalog, "creatures", ref, source, where), f"{source}: {where}"
    )
    known = sorted(known_skills(catalog))
    for name in found.skills:
        check_name(name, known, f"{source}: {where}.skills", "skill")
    return found


def weapon(catalog: Catalog, ref: Ref, source: str, where: str, house: TacticalD20House) -> Weapon:
    """A weapon by catalog name or table; ``"unarmed"`` is the unarmed strike (T10)."""
    if isinstance(ref, str) and ref.strip().lower() == "unarmed":
        return Weapon(
            name="unarmed",
            kind="unarmed",
            damage=house.unarmed_damage,
            damage_type=house.unarmed_damage_type,
        )
    found = validate(Weapon, _entry(catalog, "weapons", ref, source, where), f"{source}: {where}")
    _, size = found.dice
    if size not in house.die_steps:
        raise InputError(
            f"{source}: {where}: damage die d{size} is not on the die-size ladder",
            tip=f"use one of d{', d'.join(str(s) for s in house.die_steps)} (house rule die_steps)",
        )
    return found
