"""The shared data model of graydawn (both halves: attacks and suppression).

Names are stable; the suppression half builds on them:

- :class:`Stats` - the CP2020 stats (INT REF TECH CL ATTR LUCK MA BODY EMP) and the derived
  values of G01: ``ra_base`` = ceil((REF+CL)/2), ``rd_base`` = ceil((REF+MA)/2), ``cqb_base`` =
  ceil((REF+BODY)/2), ``btm`` from the CP2020 BODY table.
- :class:`Combatant` - a name, stats, ``skills`` (name -> level; weapon skills such as "handgun",
  "rifle", "smg", "heavy_weapons", "melee", "brawling", "martial_arts", plus "dodge_cover"), luck
  points, the ``uses_luck`` perk and ``mook`` flag, a :class:`WoundTrack`, :class:`Armour` SP per
  :data:`Location`, a :class:`Weapon`, a :class:`Cover` and a :class:`Stance`.
- :class:`Weapon` - kind (:data:`WeaponKind`), skill, WA, listed (long) range, damage dice + flat
  bonus, ROF, magazine, reliability, burst / full-auto modes, scope, :class:`Ammo` modifiers.
- :class:`Cover` - cover level 0-6, the position taken (none / active / full / bunker) and which
  hit-location faces it covers (active cover exposes faces 1, 2, 5, 6: G07).

Hit locations are read from a *face* of the location die (d10 table of G24; the d8 and centre-of-
mass d6 options read the same table's first 8 / 6 faces), because cover covers faces: active cover
protects torso faces 3-4 but not face 2.
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from firefight.core.identity import per_object
from firefight.errors import InputError

Location = Literal["head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"]
LOCATIONS: tuple[Location, ...] = (
    "head",
    "torso",
    "left_arm",
    "right_arm",
    "left_leg",
    "right_leg",
)
LIMBS: tuple[Location, ...] = ("left_arm", "right_arm", "left_leg", "right_leg")

#: G24: the CP2020 hit-location table, face of a d10 -> location.
HIT_TABLE: dict[int, Location] = {
    1: "head",
    2: "torso",
    3: "torso",
    4: "torso",
    5: "left_arm",
    6: "right_arm",
    7: "left_leg",
    8: "left_leg",
    9: "right_leg",
    10: "right_leg",
}

WeaponKind = Literal[
    "pistol",
    "smg",
    "assault_rifle",
    "shotgun",
    "rifle",
    "sniper",
    "machine_gun",
    "grenade",
    "melee",
    "unarmed",
]
Reliability = Literal["very_reliable", "standard", "unreliable"]
DamageType = Literal["wounding", "stun", "blunt"]
CoverPosition = Literal["none", "active", "full", "bunker"]
#: G38: how a gun handles when grappled for (rifle +6, carbine/SMG/shotgun +4, pistol +2)
Handling = Literal["rifle", "carbine", "pistol", "none"]


class Model(BaseModel):
    """Frozen, strict models: unknown keys are refused with the field named."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Stats(Model):
    """CP2020 stats (G01). Upper-case names as on the character sheet."""

    INT: int = Field(5, ge=0, le=20)
    REF: int = Field(5, ge=0, le=20)
    TECH: int = Field(5, ge=0, le=20)
    CL: int = Field(5, ge=0, le=20, description="Cool")
    ATTR: int = Field(5, ge=0, le=20)
    LUCK: int = Field(5, ge=0, le=20)
    MA: int = Field(5, ge=0, le=20, description="movement allowance (metres per move)")
    BODY: int = Field(5, ge=0, le=20)
    EMP: int = Field(5, ge=0, le=20)

    @property
    def ra_base(self) -> int:
        """G01/G04: ceil((REF + CL) / 2), the stat part of a ranged attack."""
        return math.ceil((self.REF + self.CL) / 2)

    @property
    def rd_base(self) -> int:
        """G01/G04: ceil((REF + MA) / 2), the stat part of a ranged defence."""
        return math.ceil((self.REF + self.MA) / 2)

    @property
    def cqb_base(self) -> int:
        """G01/G04: ceil((REF + BODY) / 2), close-combat attack and defence."""
        return math.ceil((self.REF + self.BODY) / 2)

    @property
    def btm(self) -> int:
        """G01: body type modifier from the CP2020 table (a reduction, <= 0)."""
        return btm_for_body(self.BODY)


def btm_for_body(body: int) -> int:
    """CP2020 BTM: BODY 2 -> 0, 3-4 -> -1, 5-7 -> -2, 8-9 -> -3, 10 -> -4, 11+ -> -5."""
    if body <= 2:
        return 0
    if body <= 4:
        return -1
    if body <= 7:
        return -2
    if body <= 9:
        return -3
    if body == 10:
        return -4
    return -5


class Ammo(Model):
    """Ammunition modifiers (G25): graze modifier (+ helps the target), armour piercing."""

    name: str = "standard"
    graze_modifier: int = Field(
        0, description="added to the target's graze roll (AP usually +, hollow point usually -)"
    )
    armour_piercing: bool = Field(
        False, description="CP2020 reading: armour (not cover) counts at half SP, rounded down"
    )


_DAMAGE = re.compile(r"^\s*(\d+)\s*d\s*(6|10)\s*(?:([+-])\s*(\d+))?\s*$")


class Weapon(Model):
    """A weapon as a CP2020 catalog lists it (G41)."""

    name: str = "unnamed"
    kind: WeaponKind
    skill: str = Field("handgun", description="the skill used to attack with it")
    wa: int = Field(0, description="weapon accuracy, added to single shots (not bursts)")
    range_m: int = Field(50, ge=1, description="listed range = long range (G39)")
    damage: str = Field("2d6", description="damage dice + flat bonus, e.g. '4d6+1' (d6 or d10)")
    damage_type: DamageType = "wounding"
    #: At most 50: full auto enumerates every round fired, and the text's weapons stay below 40.
    rof: int = Field(1, ge=1, le=50)
    magazine: int = Field(1, ge=0, le=1000)
    reliability: Reliability = "standard"
    burst: bool = Field(False, description="has a 3-round burst mode (G27)")
    full_auto: bool = Field(False, description="has a full-auto mode (G28)")
    scope: bool = Field(False, description="fitted with a scope (G39, needs bracing)")
    scope_blocks_irons: bool = Field(False, description="without the scope: pistol ranges")
    removable_magazine: bool = True
    tube_fed: bool = Field(False, description="pump shotgun style loading (G40)")
    handling: Handling | None = Field(None, description="G38 class; default from kind")
    ammo: Ammo = Ammo()

    @field_validator("damage")
    @classmethod
    def _damage_form(cls, v: str) -> str:
        if not _DAMAGE.match(v):
            raise ValueError("damage must look like '2d6+1', '4d6', '7d6' or '1d10' (d6 or d10)")
        return v.replace(" ", "")

    def _damage_parts(self) -> re.Match[str]:
        m = _DAMAGE.match(self.damage)
        if m is None:  # validated on load; a weapon built with model_construct is not
            raise InputError(
                f"weapon {self.name!r}: damage {self.damage!r} is not NdX+B",
                tip="write it as '2d6+1', '4d6', '7d6' or '1d10' (d6 or d10)",
            )
        return m

    @property
    def damage_dice(self) -> int:
        return int(self._damage_parts().group(1))

    @property
    def damage_die(self) -> int:
        return int(self._damage_parts().group(2))

    @property
    def damage_bonus(self) -> int:
        m = self._damage_parts()
        if m.group(3) is None:
            return 0
        return int(m.group(4)) * (1 if m.group(3) == "+" else -1)

    @property
    def is_firearm(self) -> bool:
        return self.kind not in ("melee", "unarmed", "grenade")

    @property
    def close_quarters_handling(self) -> Handling:
        """G38 class: explicit, else rifle for long guns, carbine for SMG/shotgun, pistol."""
        if self.handling is not None:
            return self.handling
        return {
            "pistol": "pistol",
            "smg": "carbine",
            "shotgun": "carbine",
            "assault_rifle": "rifle",
            "rifle": "rifle",
            "sniper": "rifle",
            "machine_gun": "rifle",
        }.get(self.kind, "none")  # type: ignore[return-value]


class Armour(Model):
    """Armour SP by location (G24 locations). Several named pieces: the best SP per location."""

    head: int = Field(0, ge=0)
    torso: int = Field(0, ge=0)
    left_arm: int = Field(0, ge=0)
    right_arm: int = Field(0, ge=0)
    left_leg: int = Field(0, ge=0)
    right_leg: int = Field(0, ge=0)

    def sp(self, location: Location) -> int:
        return int(getattr(self, location))


class Cover(Model):
    """Cover between the target and the shooter (G07)."""

    level: int = Field(0, ge=0, le=10, description="1 light concealment .. 6 jersey barrier")
    position: CoverPosition = Field(
        "none", description="none, active (faces 1 2 5 6 exposed), full (all covered), bunker"
    )
    covered_faces: tuple[int, ...] | None = Field(
        None, description="hit-location faces the cover protects (overrides the position's)"
    )
    intersects: bool = Field(True, description="the line of fire crosses the cover (G07)")
    graze_bonus: int = Field(0, description="Ref's option for poles and bushes: graze bonus")

    @field_validator("covered_faces")
    @classmethod
    def _faces(cls, v: tuple[int, ...] | None) -> tuple[int, ...] | None:
        if v is not None and any(not 1 <= f <= 10 for f in v):
            raise ValueError("covered_faces are hit-location faces 1..10")
        return v

    @property
    def effective(self) -> bool:
        return self.level > 0 and self.intersects and self.position != "none"

    def covers(self, face: int) -> bool:
        """Does the cover protect hit-location ``face``?"""
        if not self.effective:
            return False
        if self.covered_faces is not None:
            return face in self.covered_faces
        if self.position == "full":
            return True
        if self.position == "bunker":
            return face != 1
        return face not in (1, 2, 5, 6)  # active cover (G07)


class Stance(Model):
    """What the combatant is doing, as far as attacks care (G32/G34/G35 feed the defence roll)."""

    bracing: bool = Field(False, description="G32/G39: aiming from a braced stance")
    moves: int = Field(0, ge=0, le=3, description="movement actions taken this round (G34)")
    prone: bool = False
    incapacitated: bool = False
    flanked: bool = Field(False, description="G35: no dodge/cover skill in defence")
    ambushed: bool = Field(False, description="G35: no dodge/cover skill in defence")
    suppressed: bool = Field(False, description="G29/G35: no dodge/cover skill vs aimed fire")


WoundState = Literal["uninjured", "light", "serious", "critical", "mortal"]


class WoundTrack(Model):
    """Marks on the wound track by kind (G21/G22) and crippled/severed locations."""

    minor: int = Field(0, ge=0, description="'/' marks: single-point wounds")
    wounding: int = Field(0, ge=0, description="'X' marks: wounds of 2+ points")
    crippling: int = Field(0, ge=0, description="the filled marks of crippling wounds")
    stun: int = Field(0, ge=0, description="'-' marks: stun damage")
    crippled: tuple[Location, ...] = ()
    severed: tuple[Location, ...] = ()

    @property
    def marks(self) -> int:
        return self.minor + self.wounding + self.crippling + self.stun


def wound_state(marks: int) -> WoundState:
    """G20: light 1-4, serious 5-8, critical 9-12, mortal 13+."""
    if marks <= 0:
        return "uninjured"
    if marks <= 4:
        return "light"
    if marks <= 8:
        return "serious"
    if marks <= 12:
        return "critical"
    return "mortal"


class Combatant(Model):
    """One side of an attack."""

    name: str = "combatant"
    stats: Stats = Stats()
    skills: dict[str, int] = Field(default_factory=dict)
    luck_points: int | None = Field(None, ge=0, description="points left; default LUCK (G17)")
    uses_luck: bool = Field(True, description="PCs and NPCs with the 'Uses Luck' perk")
    mook: bool = Field(False, description="mooks: TN system, no graze rolls (G05/G25)")
    wounds: WoundTrack = WoundTrack()
    armour: Armour = Armour()
    weapon: Weapon | None = None
    cover: Cover = Cover()
    stance: Stance = Stance()

    def skill(self, name: str) -> int:
        return int(self.skills.get(name, 0))

    def armed(self) -> Weapon:
        """The weapon it fights with. A file without one is refused when loaded; this guards
        situations built in code too, as an :class:`InputError` (not an ``assert``, which
        ``python -O`` drops)."""
        if self.weapon is None:
            raise InputError(
                f"{self.name} has no weapon", tip="give it a weapon (a catalog name or a table)"
            )
        return self.weapon

    @property
    def dodge_cover(self) -> int:
        return self.skill("dodge_cover")

    @property
    def luck_available(self) -> int:
        if not self.uses_luck:
            return 0
        return self.stats.LUCK if self.luck_points is None else self.luck_points


@per_object
def content_key(model: BaseModel) -> str:
    """A frozen model (a situation, the house rules) named by content, every field's value, for
    the keys of sub-rules kept across enumerations (``dice.derive(..., keep=True)``): equal
    models share results, a changed number never does. Computed once per object."""
    return f"{type(model).__name__}:{model.model_dump_json()}"


def hash_once(self: Any) -> int:
    """A frozen dataclass's own hash (its fields' values as one tuple), kept once worked out:
    exact odds hash the same wound, saves and outcome in every table and replay. A class sets it
    as ``__hash__`` with :func:`state_without_hash`; ``core.turns.evolve`` drops the kept one."""
    values = self.__dict__
    h: int | None = values.get("_hash")
    if h is None:
        h = values["_hash"] = hash(tuple(values.values()))
    return h


def state_without_hash(self: Any) -> dict[str, Any]:
    """The fields without the kept hash (for pickle and deepcopy: another process salts string
    hashes anew)."""
    return {k: v for k, v in self.__dict__.items() if k != "_hash"}
