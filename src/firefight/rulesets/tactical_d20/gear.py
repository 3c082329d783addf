"""Turn catalog names and inline tables of a situation into validated creatures and weapons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firefight.core.catalog import Catalog, load_catalog, lookup
from firefight.core.loading import validate
from firefight.errors import InputError
from firefight.rulesets.tactical_d20.house import TacticalHouse
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
        raise InputError(f"{source}: {where}.use must be a catalog name")
    base = lookup(catalog, section, name, f"{source}: {where}")
    base.update(data)
    return base


def creature(catalog: Catalog, ref: Ref, source: str, where: str) -> Creature:
    """A creature by catalog name, or ``{ use = name, field = override }``, or a full table."""
    return validate(
        Creature, _entry(catalog, "creatures", ref, source, where), f"{source}: {where}"
    )


def weapon(catalog: Catalog, ref: Ref, source: str, where: str, house: TacticalHouse) -> Weapon:
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
