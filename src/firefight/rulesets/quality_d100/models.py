"""Situation files for quality_d100 (validated at the edge; see docs/rules/quality_d100.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Mode = Literal["melee", "close", "ranged"]
Hex = Literal["front", "flank", "rear"]
Visibility = Literal[
    "starry_night",
    "shadowy_interior",
    "cloudy_night",
    "cave",
    "unlit_interior",
    "pitch_black",
    "cannot_see",
]
Special = Literal["none", "shield_rush", "disarm", "trip", "knockout", "entangle", "trample"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class WeaponSpec(Strict):
    """A weapon: Base Chance, damage dice, class (which range modifier applies)."""

    name: str = "weapon"
    base_chance: int
    damage: str
    weapon_class: Literal["melee", "thrown", "missile"] = Field("melee", alias="class")
    pole: bool = False
    two_handed: bool = False
    example: bool = False


class ArmourSpec(Strict):
    """Armour: FT armour, EN armour, and damage reduction (DR) that stacks with both."""

    name: str = "armour"
    ft: int = Field(0, ge=0)
    en: int = Field(0, ge=0)
    dr: int = Field(0, ge=0)
    example: bool = False


class Extra(Strict):
    """A modifier from the current rules that this text does not list (named, with its source)."""

    name: str
    value: int


class Attacker(Strict):
    name: str = "attacker"
    #: Strike chance before the 57.1 situation modifiers; omit to use the Q08 weapon formula.
    strike_chance: int | None = None
    weapon: str | WeaponSpec | None = None
    #: Damage dice, replacing the weapon's.
    damage: str | None = None
    manual_dexterity: int = 0
    rank: int = Field(0, ge=0)
    magic: int = 0
    physical_strength: int = Field(0, ge=0)
    no_fatigue: bool = False
    offensive_withdrawal: bool = False
    charge: Literal["none", "pole_or_shield", "other"] = "none"
    kneeling: bool = False
    aim: bool = False
    snapshot: bool = False
    range_hexes: int = Field(0, ge=0)
    secondary_hand: bool = False
    multiple_strike: bool = False
    multi_hex_b_class: bool = False
    airborne: bool = False
    visibility: tuple[Visibility, ...] = ()
    assassin_rank: int = Field(0, ge=0)
    assassin_approach: Literal["surprise", "behind", "front"] | None = None
    size_hexes: int = Field(1, ge=1)
    modifiers: tuple[Extra, ...] = ()


class Defender(Strict):
    name: str = "defender"
    #: Defence before the 57.2 modifiers; omit to use the Q05 formulas (front/rear-flank/stunned).
    defence: int | None = None
    agility: int = 0
    perception: int = 0
    shield: int = 0
    magic_defence: int = 0
    hex: Hex = "front"
    stunned: bool = False
    no_fatigue: bool = False
    defensive_withdrawal: bool = False
    evading: bool = False
    #: Rank with the prepared weapon (evading bonus, parry, disarm avoidance).
    rank: int = Field(0, ge=0)
    parry: bool = True
    moving: bool = False
    kneeling_or_prone: bool = False
    sheltered_hex: bool = False
    airborne: bool = False
    physical_strength: int = Field(0, ge=0)
    manual_dexterity: int = 0
    two_handed: bool = False
    armour: str | ArmourSpec | None = Field(None, examples=["leather"])
    dr: int = Field(0, ge=0)
    fatigue: int | None = None
    endurance: int | None = None
    modifiers: tuple[Extra, ...] = ()


class Grievous(Strict):
    """Q10: the text leaves the specific grievous injury table out; configure it here."""

    #: Percent chance that a possible grievous injury happens (D100 at or under); none: not rolled.
    chance: int | None = Field(None, ge=0, le=100)
    #: Extra EN damage of a grievous injury; no armour and no DR come off it.
    extra_damage: str = "0"
    effect: str = "specific grievous injury (table not in the text)"


class AttackSituation(Strict):
    kind: Literal["attack"] = "attack"
    title: str = ""
    mode: Mode = "melee"
    special: Special = "none"
    catalogs: tuple[str, ...] = ()
    attacker: Attacker = Field(default_factory=Attacker)
    defender: Defender = Field(default_factory=Defender)
    grievous: Grievous = Field(default_factory=Grievous)
