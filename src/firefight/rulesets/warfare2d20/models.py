"""Data model (pydantic, validated at the edge): combatants, weapons, protection, situations.

A situation file names catalog entries (``weapon = "AK-47"``) or gives them inline as tables; the
ruleset resolves names against the shipped ``catalog.toml`` plus any ``catalogs = [...]`` files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from firefight.core.transcript import Modifier

if TYPE_CHECKING:  # the house model's own fields use DicePool from here
    from firefight.rulesets.warfare2d20.house import Warfare2d20House

_DICE = re.compile(r"^\s*(\d+)\s*d\s*(\d+)\s*$")


def _dice_pool(text: str) -> str:
    """``NdX`` with at least one die of at least two sides (damage and soak pools, W06)."""
    m = _DICE.match(text)
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 2:
        raise ValueError(f"{text!r} is not a dice pool: write NdX with N >= 1, e.g. 3d10")
    from firefight.dice import parse
    from firefight.dice.limits import check_exact

    pool = f"{int(m.group(1))}d{int(m.group(2))}"
    check_exact(parse(pool), pool)  # the roll budget and the sides limit, before any rule runs
    return pool


DicePool = Annotated[str, AfterValidator(_dice_pool)]

Aim = str  # "none", "aiming", "scope", "high-power scope", or a [sights] catalog name
Movement = Literal["still", "walking", "running", "sprinting"]
Visibility = Literal["clearly visible", "vaguely visible", "hardly visible"]
TargetAction = Literal["none", "moving to cover", "taking cover"]
ModTarget = Literal["delta", "delta t", "delta s", "delta c"]


#: A catalog name, or an inline table validated as the entry's model when the names are resolved
#: (so an error names the inline table's own field).
Named = str | dict[str, Any]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Combatant(_Model):
    """A character's attributes (the text's names)."""

    name: str
    mettle: int = Field(ge=0, description="cool under fire: initiative and shock checks")
    endurance: int = Field(ge=0, description="2d10 roll-under when a hit goes past 25% of HP")
    dexterity: int = Field(ge=0, description="sets the most actions per round (W11)")
    hit_points: int = Field(gt=0, description="total hit points")
    stamina: int = Field(ge=0, description="total stamina points: the damper for damage")
    pain_threshold: int = Field(ge=0, description="stamina taken off every hit that gets through")


class FireMode(_Model):
    """A rate of fire: its exposure bonus, its recoil and the shock zone it creates."""

    delta_t: int = 0
    recoil: int = Field(0, ge=0, description="added to delta (precision lost to recoil)")
    delta_s: int = Field(0, ge=0, description="shock margin above delta t (cover fire)")


class Weapon(_Model):
    name: str
    damage: DicePool
    fire_modes: dict[str, FireMode] = Field(min_length=1)
    #: Range band -> delta modifier.
    range_modifiers: dict[str, int] = Field(default_factory=lambda: {"close": 0})


class Protection(_Model):
    """Body armour, a shield or cover: soak dice, and for cover and shields a delta c."""

    name: str
    soak: DicePool
    delta_c: int | None = Field(None, ge=0, description="cover and shields only")


class Sight(_Model):
    name: str
    aim: Literal["aiming", "scope", "high-power scope"]


class ExtraModifier(_Model):
    """Any other modifier the table wants, named (S03)."""

    name: str
    target: ModTarget
    value: int
    rule: str = "house"


class TargetSpec(_Model):
    """One target of an attack (or of a blast) and what protects it."""

    combatant: Named
    name: str | None = None
    armour: Named | None = Field(None, examples=["body armour"])
    cover: Named | None = Field(None, examples=["brick wall"])
    visibility: Visibility = "clearly visible"
    action: TargetAction = "none"
    hit_points_left: int | None = None
    stamina_left: int | None = Field(None, ge=0)
    distance_m: float | None = Field(None, ge=0, description="blast targets: metres from centre")
    modifiers: tuple[ExtraModifier, ...] = ()


def _one_or_many(data: Any) -> Any:
    """Accept ``[target]`` (one) as well as ``[[targets]]`` (several)."""
    if isinstance(data, dict) and "target" in data:
        if "targets" in data:
            raise ValueError("give either [target] or [[targets]], not both")
        data = {**data, "targets": [data["target"]]}
        del data["target"]
    return data


class AttackFile(_Model):
    """``kind = "attack"``: one attacker firing one weapon at one or more targets.

    ``kind = "suppression"`` is the same fire given as cover fire (W05), for ``firefight
    suppress``: the rules are the same, a miss within delta s shocks.
    """

    kind: Literal["attack", "suppression"] = "attack"
    title: str = "attack"
    catalogs: tuple[str, ...] = ()
    attacker: Named | None = None
    weapon: Named
    fire_mode: str | None = None
    aim: Aim = "none"
    movement: Movement = "still"
    range: str | None = None
    #: "shared": one attacker roll against every target (a burst, W15 d); "each": one per target.
    attack_roll: Literal["shared", "each"] = "each"
    modifiers: tuple[ExtraModifier, ...] = ()
    targets: tuple[TargetSpec, ...] = Field(min_length=1)

    _targets = model_validator(mode="before")(_one_or_many)


class MortarFile(_Model):
    """``kind = "mortar"``: rounds of one calibre on a spot, targets at distances (W12)."""

    kind: Literal["mortar"]
    title: str = "mortar fire"
    catalogs: tuple[str, ...] = ()
    shell: str
    rounds: int = Field(1, ge=1, le=20)
    #: "each": every target in the blast rolls its own 2d20 (the rule); "group": the GM rolls
    #: once for the spot (the example).
    spot_roll: Literal["each", "group"] = "each"
    modifiers: tuple[ExtraModifier, ...] = ()
    targets: tuple[TargetSpec, ...] = Field(min_length=1)

    _targets = model_validator(mode="before")(_one_or_many)


class ThrownFile(_Model):
    """``kind = "thrown"``: a grenade or other object thrown at a spot (W13)."""

    kind: Literal["thrown"]
    title: str = "thrown object"
    thrower: Named | None = None
    item: str = "grenade"
    movement: Movement = "still"
    modifiers: tuple[ExtraModifier, ...] = ()


class InitiativeFile(_Model):
    """``kind = "initiative"``: who acts first when a confrontation starts (W10)."""

    kind: Literal["initiative"]
    title: str = "initiative"
    catalogs: tuple[str, ...] = ()
    combatants: tuple[Named, ...] = Field(min_length=1)
    #: Names of combatants springing an ambush: automatic initiative, no roll.
    ambushers: tuple[str, ...] = ()


# ----------------------------------------------------------------------------------------------
# Situations after loading (situation.py): catalog names resolved, defaults filled, ready for
# the rules.
# ----------------------------------------------------------------------------------------------
#: W09 status words, worst last.
Status = Literal["unhurt", "wounded", "unconscious", "dead"]

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
    status: Status = "unhurt"


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


#: What the loaders of :mod:`.situation` return.
Situation = Attack | Mortar | Thrown | Initiative
