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
- :class:`GraydawnHouseRules` - every number the text fixes (S04); its ``suppression`` field holds
  :class:`~firefight.rulesets.graydawn.suppression_models.SuppressionHouseRules`.

Hit locations are read from a *face* of the location die (d10 table of G24; the d8 and centre-of-
mass d6 options read the same table's first 8 / 6 faces), because cover covers faces: active cover
protects torso faces 3-4 but not face 2.
"""

from __future__ import annotations

import math
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from firefight.core.house import HouseRules
from firefight.rulesets.graydawn.suppression_models import SuppressionHouseRules

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

    @property
    def damage_dice(self) -> int:
        m = _DAMAGE.match(self.damage)
        assert m is not None
        return int(m.group(1))

    @property
    def damage_die(self) -> int:
        m = _DAMAGE.match(self.damage)
        assert m is not None
        return int(m.group(2))

    @property
    def damage_bonus(self) -> int:
        m = _DAMAGE.match(self.damage)
        assert m is not None
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

    @property
    def dodge_cover(self) -> int:
        return self.skill("dodge_cover")

    @property
    def luck_available(self) -> int:
        if not self.uses_luck:
            return 0
        return self.stats.LUCK if self.luck_points is None else self.luck_points


class GraydawnHouseRules(HouseRules):
    """Every number the text fixes (S04). Defaults are the text's values; rule IDs in brackets."""

    # G02/G05 TNs by range band: point-blank, short, medium, long, extreme
    range_tns: tuple[int, int, int, int, int] = (10, 15, 20, 25, 30)
    dodge_per_band_beyond_short: int = Field(5, description="G05: +5 dodge per band past short")
    point_blank_dodge: int = Field(-5, description="G05: point-blank dodge -5")
    # G39 range
    range_penalties: tuple[int, int, int, int] = (0, -5, -10, -15)
    medium_range_divisor: int = Field(2, ge=1, description="G39: medium = listed / 2")
    close_range_divisor: int = Field(4, ge=1, description="G39: close = listed / 4")
    bracing_max_range_multiple: int = Field(4, ge=1, description="G32: braced up to 4x listed")
    unbraced_max_range_multiple: int = Field(
        2, ge=1, description="reading: extreme range ends at 2x listed (not stated in the text)"
    )
    pistol_range_m: int = Field(50, description="G39: scope blocking irons -> pistol ranges")
    tn_dodge_replaces_tn: bool = Field(
        True, description="G05 reading: a dodge total replaces the range TN (else the higher)"
    )
    stun_penalty_per_mortal_level: int = Field(-1, description="CP2020: -1 per 4 marks past 13")
    scoped_max_range_multiple: int = Field(8, ge=1, description="G39: scope: 4x extreme = 8x")
    # G06 reliability: the d10 roll at or above which the weapon fails
    reliability_fails_on: tuple[int, int, int] = Field(
        (9, 6, 4), description="G06: very reliable, standard, unreliable"
    )
    # G07 cover
    cover_sp_per_level: int = Field(4, ge=0, description="G07: 4 SP per cover level")
    # G24 aiming
    aimed_penalty: int = Field(-4, description="G24: aimed at a location")
    aimed_penalty_helpless: int = Field(-2, description="G24: aimed vs prone/incapacitated")
    centre_of_mass_penalty: int = Field(-2, description="G24: centre of mass, then d6")
    aim_bonus_per_round: int = Field(1, description="G39: +1 per full round of aiming")
    aim_rounds_max: int = Field(3, description="G39: up to 3 rounds (+ concentration)")
    # G25 grazing
    graze_tn: int = Field(15, description="G25: LUCK + 1d10 vs 15")
    graze_head: int = Field(-2, description="G25: head shots -2")
    graze_limb: int = Field(2, description="G25: limbs +2")
    graze_barely: int = Field(1, description="G25: attack = defence or +1 -> +1")
    graze_per_extra_shot: int = Field(-1, description="G25: -1 per additional shot in a burst")
    graze_per_d6: int = Field(1, description="G25: a graze deals 1 per d6")
    graze_per_d10: int = Field(2, description="G25: a graze deals 2 per d10")
    # G26 shotguns
    shotgun_bonus: tuple[int, int, int] = Field((2, 4, 6), description="G26: close/medium/long")
    shotgun_dice_lost_per_band: int = Field(1, description="G26: one die less per band")
    shotgun_cover_sp_per_level: int = Field(2, description="G26: cover gives 2 SP/level")
    # G27 burst
    burst_bonus: int = Field(3, description="G27: +3 instead of WA")
    burst_rounds: int = Field(3, ge=1)
    burst_table: tuple[int, int, int, int, int, int] = Field(
        (1, 1, 2, 2, 2, 3), description="G27: d6 face 1..6 -> hits"
    )
    # G28 full auto
    full_auto_rounds_per_step: int = Field(10, ge=1, description="G28: +/-1 per 10 rounds")
    full_auto_gap_rounds_per_m: int = Field(5, description="G28: 5 rounds lost per metre")
    # G22 wound track
    mortal_above: int = Field(12, description="G19: more than 12 marks = mortal")
    cripple_at: int = Field(8, description="G22: 8+ after BTM cripples a limb/head")
    limb_cap: int = Field(8, description="G22: a crippled limb adds at most 8 marks")
    head_multiplier: int = Field(2, description="G22: head damage doubled after BTM")
    # G18 stun save penalty by wound state (reading: CP2020's 0/-1/-2/-3 ...)
    stun_penalty_light: int = 0
    stun_penalty_serious: int = -1
    stun_penalty_critical: int = -2
    stun_penalty_mortal: int = -3
    # G23 explosions
    explosion_limb_sp: int = Field(8, description="G23: an extremity with 8+ SP is protected")
    explosion_cover_level: int = Field(2, description="G23: or cover of level 2+")
    explosion_limb_marks: int = Field(2, description="G23: 2 per unprotected limb")
    explosion_head_marks: int = Field(4, description="G23: 4 for an unprotected head")
    explosion_sever_tn: int = Field(15, description="G23: BODY + LUCK + 1d10 vs 15")
    # G37/G38 close combat
    into_close_combat_penalty: int = Field(-3, description="G37")
    ally_dodge_bonus: int = Field(3, description="G37: allies dodge at +3")
    close_quarters_dodge: tuple[int, int, int] = Field(
        (6, 4, 2), description="G38: vs rifle, carbine/SMG/shotgun, pistol"
    )
    # G17 luck
    luck_reroll_cost: int = Field(2, description="G17: 2 points re-roll a roll")
    luck_point_bonus: int = Field(2, description="G17: 1 point = +2")
    # G25/CP2020: a penetrating hit does at least this much after BTM (reading)
    btm_minimum_damage: int = Field(1, ge=0, description="CP2020: BTM never takes a hit below 1")
    # G34 movement, G31 actions
    extra_action_penalty: int = Field(-3, description="G31: -3 per action past the first")
    # G40 reloading
    reload_tn: int = Field(15, description="G40: extra-action reload, REF + skill vs 15")
    tube_reload_tn: int = Field(10, description="G40: shell by shell, REF + rifle vs 10")
    # G06 jam clearing
    jam_clear_weaponsmith_tn: int = 10
    jam_clear_skill_tn: int = 15
    # G33 initiative in an encounter: rolled once for the fight (the handout's streamlined
    # system) or every round (the traditional CP2020 one)
    initiative: Literal["streamlined", "traditional"] = Field(
        "streamlined", description="G33: streamlined (once) or traditional (every round)"
    )
    # suppression half (issue 8)
    suppression: SuppressionHouseRules = SuppressionHouseRules()

    @model_validator(mode="after")
    def _sane(self) -> GraydawnHouseRules:
        if self.close_range_divisor < self.medium_range_divisor:
            raise ValueError("close_range_divisor must be at least medium_range_divisor")
        return self
