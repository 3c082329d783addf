"""Combatants with their gear looked up in the catalog (D10), and riposte policies (D05).

A :class:`Fighter` is a combatant's numbers for the rules: scores, state and the bonuses his
weapon, shield and armour give. It is frozen; a fight replaces it as wounds and stuns change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firefight.core.catalog import Catalog, lookup
from firefight.core.loading import validate
from firefight.core.validation import clip
from firefight.errors import InputError
from firefight.rulesets.dragonwarriors2.models import (
    ArmourEntry,
    CombatantSpec,
    MissileSpec,
    ShieldEntry,
    WeaponEntry,
)


@dataclass(frozen=True)
class Weapon:
    """A weapon's class and its bonuses to Attack and damage (D10)."""

    name: str
    weapon_class: str
    attack: int = 0
    damage: int = 0
    thrown: bool = False
    #: "fathoms" for bows and crossbows; None for melee weapons (thrown ones use feet).
    missile: str | None = None


@dataclass(frozen=True)
class RipostePolicy:
    """When a defender who won counter-attacks (D05)."""

    rule: str = "margin"
    margin: int = 3
    choices: tuple[bool, ...] = ()

    def decide(self, won_by: int, chance: int) -> tuple[bool, str]:
        """(riposte?, why) for the ``chance``-th opportunity (0-based) of this combatant."""
        if self.rule == "always":
            return True, "policy: always"
        if self.rule == "never":
            return False, "policy: never"
        if self.rule == "margin":
            yes = won_by >= self.margin
            return yes, f"policy: when the margin is at least {self.margin}"
        if chance < len(self.choices):
            return self.choices[chance], f"table's choice {chance + 1}"
        return False, f"no table choice left (choice {chance + 1}): no riposte"


@dataclass(frozen=True)
class Fighter:
    """One combatant as the rules see him."""

    name: str
    attack: int
    defence: int
    toughness: int
    reflexes: int
    wounds: int
    stunned: bool
    knocked_out: bool
    dead: bool
    weapon: Weapon | None
    shield: str | None
    shield_bonus: int
    armour: str | None
    armour_reduction: int
    stance: str
    policy: RipostePolicy

    @property
    def out_of_fight(self) -> bool:
        return self.knocked_out or self.dead

    @property
    def attack_score(self) -> int:
        """Attack as the rules use it now: 0 while stunned (D06)."""
        return 0 if self.stunned else self.attack

    @property
    def defence_score(self) -> int:
        """Defence as the rules use it now: 0 while stunned (D06)."""
        return 0 if self.stunned else self.defence


def _weapon(catalog: Catalog, name: str, source: str) -> Weapon:
    entry: dict[str, Any] = lookup(catalog, "weapon", name, source)
    spec = validate(WeaponEntry, entry, f"{source}: catalog weapon {clip(name)!r}")
    return Weapon(
        name=spec.name,
        weapon_class=spec.weapon_class or spec.name,
        attack=spec.attack,
        damage=spec.damage,
        thrown=spec.thrown,
        missile=spec.missile,
    )


def fighter(spec: CombatantSpec, catalog: Catalog, source: str) -> Fighter:
    """Look up a combatant's gear and build his :class:`Fighter`."""
    where = f"{source}: {spec.name}"
    weapon = _weapon(catalog, spec.weapon, where) if spec.weapon else None
    shield_bonus = 0
    if spec.shield:
        entry = lookup(catalog, "shield", spec.shield, where)
        shield_bonus = validate(ShieldEntry, entry, f"{where}: catalog shield").defence
    reduction = 0
    if spec.armour:
        entry = lookup(catalog, "armour", spec.armour, where)
        reduction = validate(ArmourEntry, entry, f"{where}: catalog armour").reduction
    if spec.riposte == "choose" and not spec.riposte_choices:
        raise InputError(
            f"{where}: riposte = 'choose' needs riposte_choices",
            tip="list the table's decisions, e.g. riposte_choices = [true, false]",
        )
    return Fighter(
        name=spec.name,
        attack=spec.attack,
        defence=spec.defence,
        toughness=spec.toughness,
        reflexes=spec.reflexes,
        wounds=spec.wounds,
        stunned=spec.stunned,
        knocked_out=spec.knocked_out,
        dead=spec.dead,
        weapon=weapon,
        shield=spec.shield,
        shield_bonus=shield_bonus,
        armour=spec.armour,
        armour_reduction=reduction,
        stance=spec.stance,
        policy=RipostePolicy(spec.riposte, spec.riposte_margin, spec.riposte_choices),
    )


@dataclass(frozen=True)
class Missile:
    """A missile attack resolved to its weapon and difficulty rating (D09)."""

    weapon: Weapon
    #: Range converted to the unit the weapon uses (feet or fathoms).
    range_value: int
    unit: str
    modifiers: tuple[tuple[str, int], ...]
    rolled: bool


def missile(spec: MissileSpec, catalog: Catalog, source: str, feet_per_fathom: int) -> Missile:
    weapon = _weapon(catalog, spec.weapon, f"{source}: missile")
    if weapon.missile == "fathoms":
        unit = "fathoms"
        if spec.range_fathoms is not None:
            value = spec.range_fathoms
        else:
            value = (spec.range_feet or 0) // feet_per_fathom
    elif weapon.thrown:
        unit = "feet"
        if spec.range_feet is not None:
            value = spec.range_feet
        else:
            value = (spec.range_fathoms or 0) * feet_per_fathom
    else:
        raise InputError(
            f"{source}: missile.weapon {weapon.name!r} cannot be thrown or shot (D09, D10)",
            tip="use a bow, crossbow or a throwable weapon (spear, axe, knife, rock, javelin)",
        )
    mods = tuple((m.name, m.value) for m in spec.modifiers)
    return Missile(weapon, value, unit, mods, spec.difficulty_rolled)
