"""Data of tactical_d20: creatures, weapons and the situation files, validated at the edge.

Creatures and weapons come from ``catalog.toml`` (or a situation's own catalogs) by name, with
any field overridden in place: ``attacker = { use = "operator", skills = { firearms = 5 } }``.
"""

from __future__ import annotations

import itertools
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Side = Literal["player", "gm"]
Size = Literal["tiny", "small", "medium", "large", "huge"]
SIZES: tuple[Size, ...] = ("tiny", "small", "medium", "large", "huge")
Condition = Literal[
    "stunned",
    "arm_wound",
    "leg_wound",
    "prone",
    "restrained",
    "restraining",
    "grappled",
    "disarmed",
]
Region = Literal["head", "torso", "arms", "legs"]
FireCapability = Literal["single", "semi", "auto"]
FireMode = Literal["single", "burst", "double_burst"]
Ammo = Literal["standard", "buckshot", "birdshot", "armour_piercing"]
Cover = Literal["none", "concealment", "light", "heavy"]
WeaponKind = Literal["firearm", "ranged", "melee", "unarmed"]
Calibre = Literal["pistol", "rifle", "shotgun", "none"]
Property = Literal["compact", "concealable"]

_DICE = re.compile(r"^\s*(\d+)\s*d\s*(\d+)\s*$")


def parse_damage(text: str) -> tuple[int, int]:
    """``"2d4"`` -> (2, 4); the damage dice of a weapon are always ``NdX``."""
    m = _DICE.match(text)
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 2:
        raise ValueError(f"damage {text!r} must be dice like 1d6 or 2d4")
    return int(m.group(1)), int(m.group(2))


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Creature(_Strict):
    """A combatant: what the rules read off a character sheet."""

    name: str
    side: Side = "gm"
    #: Agility modifier; also the Initiative modifier (T01).
    agility: int = 0
    #: The attack roll must reach this to hit (T03).
    dodge: int = Field(10, ge=0)
    hp: int = Field(10, ge=0)
    #: Damage threshold by damage type (ballistic, slashing, crushing, ...), subtracted from damage.
    thresholds: dict[str, int] = Field(default_factory=dict)
    speed: int = Field(30, ge=0)
    size: Size = "medium"
    #: Proficiency modifiers: firearms, melee, ranged, athletics, willpower, body, dexterity.
    skills: dict[str, int] = Field(default_factory=dict)
    conditions: tuple[Condition, ...] = ()

    def skill(self, name: str) -> int:
        return self.skills.get(name, 0)

    def threshold(self, damage_type: str) -> int:
        return self.thresholds.get(damage_type, 0)

    def has(self, condition: str) -> bool:
        return condition in self.conditions


class Weapon(_Strict):
    """A weapon: damage dice and type, fire capability, range thresholds, magazine, properties."""

    name: str
    kind: WeaponKind = "firearm"
    damage: str
    damage_type: str = "ballistic"
    fire: FireCapability = "single"
    #: Range thresholds in feet, nearest first; the last is the longest range (T06).
    ranges: tuple[int, ...] = ()
    magazine: int = Field(0, ge=0)
    calibre: Calibre = "none"
    properties: tuple[Property, ...] = ()
    ammo: tuple[Ammo, ...] = ("standard",)
    #: Which proficiency the attack adds (default by kind: firearms / ranged / melee).
    skill: str = ""

    @field_validator("damage")
    @classmethod
    def _dice(cls, v: str) -> str:
        parse_damage(v)
        return v.replace(" ", "")

    @field_validator("ranges")
    @classmethod
    def _ranges(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        if any(b <= a for a, b in itertools.pairwise(v)) or any(r <= 0 for r in v):
            raise ValueError("ranges must be positive and increasing, e.g. [50, 100, 200]")
        return v

    @model_validator(mode="after")
    def _ranged_needs_ranges(self) -> Weapon:
        if self.kind in ("firearm", "ranged") and not self.ranges:
            raise ValueError(f"{self.kind} weapon {self.name!r} needs ranges = [first, ...]")
        return self

    @property
    def dice(self) -> tuple[int, int]:
        return parse_damage(self.damage)

    @property
    def is_ranged(self) -> bool:
        return self.kind in ("firearm", "ranged")

    @property
    def proficiency(self) -> str:
        if self.skill:
            return self.skill
        return {"firearm": "firearms", "ranged": "ranged"}.get(self.kind, "melee")


Ref = str | dict[str, Any]


class ExtraModifier(_Strict):
    """A modifier the GM adds that the text does not name (shown in the transcript)."""

    name: str
    value: int


class AttackFields(_Strict):
    """One attack, as a situation file or a turn-plan step gives it (T03, T05-T07, T09, T11)."""

    #: The creature attacked (a catalog name or a table), or several: a Grapple/Melee (T09).
    target: Ref | None = None
    targets: tuple[Ref, ...] = ()
    weapon: Ref = "unarmed"
    mode: FireMode = "single"
    ammo: Ammo = "standard"
    #: Rounds in the weapon before the attack (default: a full magazine).
    loaded: int | None = Field(None, ge=0)
    region: Region = "torso"
    distance: int = Field(5, ge=0)
    cover: Cover = "none"
    #: The attacker knows where a concealed target is (T11).
    knows_position: bool = True
    #: Names of the creatures the attacker shares a Grapple/Melee with (T09).
    grappling: tuple[str, ...] = ()
    #: A melee attack made as a Free Action after moving into reach (T09).
    free: bool = False
    modifiers: tuple[ExtraModifier, ...] = ()

    def target_problem(self) -> str | None:
        """Why the target fields do not name one target or one group, or None."""
        if self.target is None and not self.targets:
            return 'give target = "name" or targets = [...] (a Grapple or Melee)'
        if self.target is not None and self.targets:
            return "give target or targets, not both"
        if len(self.targets) == 1:
            return "targets lists a Grapple or Melee: at least two creatures"
        return None


class AttackSituation(AttackFields):
    kind: Literal["attack"] = "attack"
    catalogs: tuple[str, ...] = ()
    attacker: Ref

    @model_validator(mode="after")
    def _one_target(self) -> AttackSituation:
        problem = self.target_problem()
        if problem:
            raise ValueError(problem)
        return self


class SuppressionSituation(_Strict):
    """One creature facing a suppressing-fire cone (T08)."""

    kind: Literal["suppression"] = "suppression"
    catalogs: tuple[str, ...] = ()
    shooter: Ref
    weapon: Ref
    loaded: int | None = Field(None, ge=0)
    creature: Ref
    #: Where the creature is: acting inside the cone, moving through it, or starting its turn in it.
    position: Literal["in_area", "crossing", "starts_turn_inside"] = "in_area"
    #: Feet from the shooter to the creature (must be inside the cone).
    distance: int = Field(0, ge=0)
    #: A solid barrier that ends the cone before the first range threshold, in feet.
    barrier_at: int | None = Field(None, ge=0)
    #: The creature is protected (behind something) where it starts its turn.
    protected: bool = False


ContestAction = Literal[
    "disarm", "restrain", "trip", "escape", "manacles", "body_check", "move_melee"
]


class ContestSituation(_Strict):
    """A melee action contest or a fixed-DC check (T10, T09, T05)."""

    kind: Literal["contest"] = "contest"
    catalogs: tuple[str, ...] = ()
    action: ContestAction
    actor: Ref
    #: The creature resisting (not needed for body_check and move_melee).
    opponent: Ref | None = None
    distance: int = Field(5, ge=0)


class InitiativeSituation(_Strict):
    """The creatures rolling Initiative at the start of combat (T01)."""

    kind: Literal["initiative"] = "initiative"
    catalogs: tuple[str, ...] = ()
    creatures: tuple[Ref, ...] = Field(min_length=1)


StepName = Literal[
    "move",
    "attack",
    "suppress",
    "disarm",
    "restrain",
    "trip",
    "escape",
    "manacles",
    "body_check",
    "exit_grapple",
    "free_action",
]


class Step(AttackFields):
    """One step of a turn plan; attack fields are used by ``do = "attack"``."""

    do: StepName

    @model_validator(mode="after")
    def _attack_has_target(self) -> Step:
        problem = self.target_problem() if self.do == "attack" else None
        if problem:
            raise ValueError(f"attack step: {problem}")
        return self


class TurnSituation(_Strict):
    """A creature's turn as a list of steps, checked against the 4-Action budget (T02, T04)."""

    kind: Literal["turn"] = "turn"
    catalogs: tuple[str, ...] = ()
    actor: Ref
    steps: tuple[Step, ...] = Field(min_length=1)
