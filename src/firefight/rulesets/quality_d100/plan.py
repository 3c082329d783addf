"""Turn a validated situation into a plan: chances, modifiers, weapon, armour (fixed before dice).

Everything here is decided without dice, once per situation, so exact enumeration replays only
the rolls. Catalog names are looked up here and fail with a "did you mean" line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from firefight.core.catalog import load_catalog, lookup
from firefight.core.files import source_folder
from firefight.core.loading import validate
from firefight.core.transcript import Modifier
from firefight.dice import exact
from firefight.errors import DiceError, InputError
from firefight.rulesets.quality_d100.house import QualityD100House
from firefight.rulesets.quality_d100.models import ArmourSpec, AttackSituation, WeaponSpec
from firefight.rulesets.quality_d100.modifiers import (
    SC,
    Weapon,
    check_flags,
    defence_modifiers,
    die_modifiers,
    strike_modifiers,
)

PACKAGE = "firefight.rulesets.quality_d100"


@dataclass(frozen=True)
class Armour:
    name: str
    ft: int
    en: int
    dr: int
    example: bool = False


@dataclass(frozen=True)
class Plan:
    """A situation ready to roll: every number the dice do not decide."""

    situation: AttackSituation
    house: QualityD100House
    weapon: Weapon | None
    armour: Armour
    strike_mods: tuple[Modifier, ...]
    defence_mods: tuple[Modifier, ...]
    die_mods: tuple[Modifier, ...]
    #: Damage dice of a hit; None when the attack does no damage (disarm, entangle).
    damage: str | None
    max_damage: int

    @property
    def kind(self) -> str:
        return "attack"

    @property
    def strike_chance(self) -> int:
        return sum(m.value for m in self.strike_mods)

    @property
    def defence(self) -> int:
        return sum(m.value for m in self.defence_mods)

    @property
    def die_modifier(self) -> int:
        return sum(m.value for m in self.die_mods)


def dice_maximum(expr: str, field: str, source: str) -> int:
    """Highest total of a damage expression; refuse bad or open-ended dice with one line."""
    try:
        dist = exact(expr)
    except DiceError as err:
        raise InputError(f"{source}: field {field}: {err.message}", tip=err.tip) from None
    if dist.truncated_mass:
        raise InputError(
            f"{source}: field {field}: {expr!r} is open-ended and has no maximum",
            tip="use dice with a highest total, e.g. d10+2",
        )
    return dist.hi


def _weapon(
    sit: AttackSituation, catalog: dict[str, dict[str, dict[str, object]]], source: str
) -> Weapon | None:
    spec = sit.attacker.weapon
    if spec is None:
        return None
    if isinstance(spec, str):
        entry = lookup(catalog, "weapon", spec, source)
        spec = validate(WeaponSpec, entry, f"{source} (weapon {spec})")
    return Weapon(
        spec.name,
        spec.base_chance,
        spec.damage,
        spec.weapon_class,
        spec.pole,
        spec.two_handed,
        spec.example,
    )


def _armour(
    sit: AttackSituation, catalog: dict[str, dict[str, dict[str, object]]], source: str
) -> Armour:
    spec = sit.defender.armour
    if spec is None:
        spec = ArmourSpec(name="none")
    elif isinstance(spec, str):
        entry = lookup(catalog, "armour", spec, source)
        spec = validate(ArmourSpec, entry, f"{source} (armour {spec})")
    return Armour(spec.name, spec.ft, spec.en, spec.dr + sit.defender.dr, spec.example)


def _base_strike(
    sit: AttackSituation, weapon: Weapon | None, house: QualityD100House, source: str
) -> list[Modifier]:
    a = sit.attacker
    formula_only = sit.special in ("trip", "trample")
    if a.strike_chance is not None:
        if formula_only:
            raise InputError(
                f"{source}: special {sit.special!r} changes the weapon Base Chance (Q08)",
                tip="remove attacker.strike_chance; give attacker.weapon, manual_dexterity, rank",
            )
        return [
            Modifier("strike chance as given", a.strike_chance, SC, "attacker.strike_chance", "Q08")
        ]
    rule = "Q08 strike chance with ranked weapon"
    if sit.special == "trample":
        bc = Modifier(
            "trample Base Chance", house.trample_base_chance, SC, "special", "Q08 trample"
        )
    elif weapon is None:
        raise InputError(
            f"{source}: field attacker: give strike_chance or a weapon",
            tip='e.g. attacker.weapon = "broadsword" or attacker.strike_chance = 55',
        )
    elif sit.special == "trip":
        value = min(weapon.base_chance, house.trip_base_chance)
        bc = Modifier(f"{weapon.name} Base Chance, trip", value, SC, "special", "Q08 trip")
    else:
        bc = Modifier(f"{weapon.name} Base Chance", weapon.base_chance, SC, "attacker.weapon", rule)
    rank = house.strike_rank_multiple * a.rank
    return [
        bc,
        Modifier("modified MD", a.manual_dexterity, SC, "attacker.manual_dexterity", rule),
        Modifier(f"{house.strike_rank_multiple} x rank {a.rank}", rank, SC, "attacker.rank", rule),
        Modifier("magic", a.magic, SC, "attacker.magic", rule),
    ]


def _damage(
    sit: AttackSituation, weapon: Weapon | None, house: QualityD100House, source: str
) -> tuple[str | None, int]:
    if sit.special in ("disarm", "entangle"):
        return None, 0
    if sit.special == "trip":
        expr, field = house.trip_damage, "house trip_damage"
    elif sit.special == "trample":
        expr, field = f"{house.trample_damage_die}+{sit.attacker.size_hexes}", "attacker.size_hexes"
    elif sit.attacker.damage is not None:
        expr, field = sit.attacker.damage, "attacker.damage"
    elif weapon is not None and weapon.damage:
        expr, field = weapon.damage, "attacker.weapon damage"
    else:
        raise InputError(
            f"{source}: field attacker.damage: no damage dice for a hit",
            tip='give attacker.weapon = "broadsword" or attacker.damage = "d10+2"',
        )
    return expr, dice_maximum(expr, field, source)


def make_plan(sit: AttackSituation, house: QualityD100House, source: str) -> Plan:
    check_flags(sit, source)
    where = source_folder(source)
    catalog = load_catalog(PACKAGE, sit.catalogs, where)
    weapon = _weapon(sit, catalog, source)
    armour = _armour(sit, catalog, source)
    strike = _base_strike(sit, weapon, house, source) + strike_modifiers(sit, weapon, house)
    damage, maximum = _damage(sit, weapon, house, source)
    if sit.grievous.chance is not None:
        dice_maximum(sit.grievous.extra_damage, "grievous.extra_damage", source)
    return Plan(
        situation=sit,
        house=house,
        weapon=weapon,
        armour=armour,
        strike_mods=tuple(strike),
        defence_mods=tuple(defence_modifiers(sit, house)),
        die_mods=tuple(die_modifiers(sit, house)),
        damage=damage,
        max_damage=maximum,
    )


def load_attack(data: Mapping[str, Any], source: str, house: QualityD100House) -> Plan:
    """An attack file: validated, then planned (every number the dice do not decide)."""
    return make_plan(validate(AttackSituation, data, source), house, source)
