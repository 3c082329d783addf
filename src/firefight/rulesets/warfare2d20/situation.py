"""Situations after loading: catalog names resolved, defaults filled, ready for the rules."""

from __future__ import annotations

from dataclasses import dataclass

from firefight.core.transcript import Modifier
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.models import Combatant, ExtraModifier, Protection, Weapon

AIM_LEVELS = ("none", "aiming", "scope", "high-power scope")


@dataclass(frozen=True)
class Target:
    """A target with its protection and its state before the attack."""

    name: str
    combatant: Combatant
    armour: Protection | None
    cover: Protection | None
    visibility: str
    action: str
    hit_points_left: int
    stamina_left: int
    distance_m: float | None
    modifiers: tuple[ExtraModifier, ...]
    #: W09 status before the attack (an encounter carries it from hit to hit).
    status: str = "unhurt"


@dataclass(frozen=True)
class Attack:
    title: str
    attacker: str
    weapon: Weapon
    fire_mode: str
    #: What the file said (e.g. "ACOG") and the aim level it stands for (e.g. "high-power scope").
    aim: str
    aim_level: str
    movement: str
    range: str | None
    attack_roll: str
    modifiers: tuple[ExtraModifier, ...]
    targets: tuple[Target, ...]
    house: Warfare2d20House
    kind: str = "attack"
    #: Named modifiers the shooter's own state brings (an encounter's "out of breath", W11).
    named: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class Mortar:
    title: str
    shell: str
    rounds: int
    spot_roll: str
    modifiers: tuple[ExtraModifier, ...]
    targets: tuple[Target, ...]
    house: Warfare2d20House
    kind: str = "mortar"


@dataclass(frozen=True)
class Thrown:
    title: str
    thrower: str
    item: str
    movement: str
    modifiers: tuple[ExtraModifier, ...]
    house: Warfare2d20House
    kind: str = "thrown"
    #: Named modifiers the thrower's own state brings (an encounter's "out of breath", W11).
    named: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class Initiative:
    title: str
    combatants: tuple[Combatant, ...]
    ambushers: tuple[str, ...]
    house: Warfare2d20House
    kind: str = "initiative"
