"""Suppression in graydawn: suppressing fire, the suppression check, braving the fire, hunkering
down, area weapons, panic, covering fire and firing lanes (G08-G15, G29, G30; G35 where a
defender loses its dodge/cover skill).

One resolution function, :func:`resolve_suppression`, runs the round in the text's order
(G16): the suppressing-fire phase puts levels on the target, covering fire and lanes may hit,
the target makes its suppression check, then takes its actions under the penalty, taking a hit
per full 5 points by which an exposed action misses. :func:`suppression_odds` enumerates that
same function on exact dice. The small rule functions above it take plain ints so a round loop
can reuse them; the per-round bookkeeping lives in :mod:`.tactics`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from firefight.core.catalog import load_catalog
from firefight.core.house import house_events
from firefight.core.loading import validate
from firefight.core.odds import OddsReport, outcome_distribution
from firefight.core.resolution import Resolution
from firefight.core.transcript import Check, Modifier, Note, StateChange, Transcript
from firefight.dice import (
    NATURAL_ONE,
    DiceSource,
    Dist,
    Weighted,
    enumerate_outcomes,
    exact,
    exact_tagged,
)
from firefight.errors import InputError
from firefight.rulesets.graydawn import memo, tactics
from firefight.rulesets.graydawn.models import Combatant, GraydawnHouseRules, Weapon
from firefight.rulesets.graydawn.plan import stat_penalty, wounded_base
from firefight.rulesets.graydawn.ranges import range_band
from firefight.rulesets.graydawn.situation import combatant_entry
from firefight.rulesets.graydawn.suppression_models import SuppressionHouseRules

RULESET_ID = "graydawn"


# ------------------------------------------------------------------------------------------------
# Situation files of kind "suppression" (format: docs/rules/graydawn.md, "Suppression situations")
# ------------------------------------------------------------------------------------------------
FireKind = Literal["suppressing", "covering", "burst", "lane"]
RangeBand = Literal["point_blank", "close", "medium", "long", "extreme"]
RANGE_BANDS: tuple[RangeBand, ...] = ("point_blank", "close", "medium", "long", "extreme")
CheckResult = Literal["none", "pass", "fail", "fumble", "panic"]
CHECK_RESULTS: tuple[CheckResult, ...] = ("none", "pass", "fail", "fumble", "panic")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Shooter(Combatant):
    """A combatant laying suppressing fire on the target (G09, G29, G30)."""

    name: str = "shooter"
    fire: FireKind = Field(
        "suppressing",
        description="suppressing (G09 attack vs range TN), covering (G29), burst (G29), lane (G30)",
    )
    rounds: int | None = Field(None, ge=1, description="rounds spent on this target")
    full_magazine: bool = Field(False, description="G09: empties the magazine (pistol: 2 levels)")
    actions: int | None = Field(
        None, ge=1, description="covering fire: firing actions (full ROF each); burst: bursts"
    )
    distance_m: float | None = Field(None, gt=0, description="metres to the target")
    range_band: RangeBand | None = Field(None, description="instead of distance_m")
    lane_width_m: int | None = Field(None, ge=1, description="G30: width of the firing lane")
    modifiers: dict[str, int] = Field(
        default_factory=dict, description="named attack modifiers (wounds, darkness, off-hand...)"
    )
    luck_spent: int = Field(0, ge=0, description="G17: luck points spent, +2 each")
    panicked: bool = Field(False, description="G15: panicked units cannot suppress")


ActionKind = Literal["move", "act", "hunker"]


class TargetAction(_Strict):
    """One of the target's actions this round, after its suppression check (G11, G12)."""

    kind: ActionKind
    name: str = ""
    moves: int = Field(1, ge=1, le=3, description="move: movement actions used (G11, G34)")
    to_cover: bool = Field(False, description="move: ends behind cover (no dodge check, G11)")
    stat: int = Field(0, description="act: the stat part of the roll (e.g. ra_base, cqb_base)")
    skill: int = Field(0, description="act: the skill part of the roll")
    tn: int | None = Field(None, description="act: the TN to meet")
    opposed: int | None = Field(
        None, description="act: the opponent's stat + skill; the opponent rolls 1d10 against it"
    )
    exposes: bool = Field(True, description="act: the action exposes the target to the fire")
    modifiers: dict[str, int] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _act_needs_a_target(self) -> TargetAction:
        if self.kind == "act" and (self.tn is None) == (self.opposed is None):
            raise ValueError("an 'act' action needs exactly one of tn or opposed")
        return self


class Neighbour(_Strict):
    """A combatant near the target (G29: covering fire suppresses neighbours too)."""

    name: str
    spaces: int = Field(1, ge=0, description="spaces (metres, hexes, inches) from the target")


class SuppressedTarget(Combatant):
    """The target of the fire: its check (G10), then its actions this round (G11, G12)."""

    name: str = "target"
    full_cover_within_reach: bool = Field(
        False, description="G10: can get behind full cover: a failed check acts as passed"
    )
    cover_within_one_move: bool = Field(
        False, description="G35: flanked + failed check: shifts to cover within one move"
    )
    initiative: int | None = Field(None, description="G10/G33: initiative score this round")
    in_lane: Literal["no", "inside", "crossing"] = Field(
        "no", description="G30: inside a firing lane, or crossing it this round"
    )
    check_modifiers: dict[str, int] = Field(
        default_factory=dict, description="named modifiers to the suppression check"
    )
    defence_modifiers: dict[str, int] = Field(
        default_factory=dict, description="named modifiers to defence rolls vs covering fire"
    )
    actions: list[TargetAction] = Field(default_factory=list)
    neighbours: list[Neighbour] = Field(default_factory=list)


class AreaAttack(_Strict):
    """G14: a grenade, shell or rocket landing near the target."""

    delivery: Literal["timed", "launched"] = Field(
        "timed", description="timed (hand grenades, artillery) or launched (impact grenades)"
    )
    distance_m: float = Field(ge=0, description="metres from the target to the blast")
    dive: bool = Field(True, description="the target dives for cover / hits the deck")
    cover_between: bool = Field(False, description="cover between the target and the blast")
    notice_tn: int | None = Field(None, description="awareness/notice TN to hear it coming")
    notice_base: int = Field(0, description="the target's INT + awareness/notice")


class SuppressionSituation(_Strict):
    """A validated suppression situation: who fires how at whom, and what the target does."""

    kind: Literal["suppression"] = "suppression"
    name: str = "suppression"
    shooters: list[Shooter] = Field(default_factory=list)
    target: SuppressedTarget = SuppressedTarget()
    area: AreaAttack | None = None
    panic_table: bool = Field(False, description="G15: roll the optional d10 panic behaviour")
    catalogs: list[str] = Field(default_factory=list, description="extra catalog files")
    #: Set by :func:`load_suppression` from ``--house``; not part of the file.
    house: GraydawnHouseRules = GraydawnHouseRules()

    @property
    def rules(self) -> SuppressionHouseRules:
        return self.house.suppression


def suppression_rules(house: Any) -> SuppressionHouseRules:
    """The suppression numbers from the package house model (its ``suppression`` field)."""
    if isinstance(house, SuppressionHouseRules):
        return house
    sub = getattr(house, "suppression", None)
    return sub if isinstance(sub, SuppressionHouseRules) else SuppressionHouseRules()


# ------------------------------------------------------------------------------------------------
# G09 suppressing fire: suitable weapons, base levels, the attack vs the range TN
# ------------------------------------------------------------------------------------------------
AUTOMATIC_KINDS = ("smg", "assault_rifle", "machine_gun")


def unsuitable_reason(weapon: Weapon, rules: SuppressionHouseRules) -> str | None:
    """G09: why a weapon cannot lay suppressing fire, or None if it can."""
    if weapon.kind in AUTOMATIC_KINDS or weapon.kind == "shotgun":
        return None
    if weapon.kind == "pistol":
        if weapon.magazine >= rules.pistol_shots_per_level:
            return None
        return (
            f"a pistol holding {weapon.magazine} rounds is not high-capacity "
            f"(at least {rules.pistol_shots_per_level}) and cannot suppress"
        )
    if weapon.kind == "grenade":
        return "area weapons do not lay suppressing fire; describe the blast under [area] (G14)"
    return f"a {weapon.kind.replace('_', ' ')} has too low a rate of fire or magazine to suppress"


def base_levels(weapon: Weapon, rounds: int, rules: SuppressionHouseRules) -> int:
    """G09: levels by weapon kind and rounds spent, before the attack roll.

    Pistols: 1 per 10 shots, 2 for a full magazine; automatic weapons: 1 per 10 shots;
    shotguns: 1 per ROF worth of shots.
    """
    if weapon.kind == "pistol":
        if rounds >= weapon.magazine:
            return max(rules.pistol_full_magazine_levels, rounds // rules.pistol_shots_per_level)
        return rounds // rules.pistol_shots_per_level
    if weapon.kind == "shotgun":
        return rules.shotgun_levels_per_rof * (rounds // weapon.rof)
    return rounds // rules.automatic_shots_per_level


def levels_from_attack(total: int, tn: int, rules: SuppressionHouseRules) -> int:
    """G09: meeting the range TN adds 1 level, each full 5 above it 1 more (22 vs 15 -> 2)."""
    if total < tn:
        return 0
    return rules.levels_for_meeting_tn + (total - tn) // rules.points_per_extra_level


def range_band_for(
    distance_m: float, weapon: Weapon, house: GraydawnHouseRules, source: str = "distance_m"
) -> str:
    """G39 via the attack half's :func:`.ranges.range_band` (unbraced, no scope): the band
    name whose TN the suppressing-fire attack must meet; one clear line when out of reach."""
    band = range_band(
        weapon,
        distance_m,
        bracing=False,
        use_scope=False,
        point_blank=False,
        house=house,
        source=source,
    )
    return RANGE_BANDS[band.tn_index]


def range_tn(band: str, rules: SuppressionHouseRules) -> int:
    """G05/G09: TN 10/15/20/25/30 for point-blank, close, medium, long, extreme."""
    return rules.range_tns[RANGE_BANDS.index(band)]


# ------------------------------------------------------------------------------------------------
# G08 / G10 the suppression check
# ------------------------------------------------------------------------------------------------
def check_tn(levels: int, rules: SuppressionHouseRules, shotgun_shots: int = 0) -> int:
    """G10: TN 10 for 1 level, +5 per further level, at most 30.

    G26: shotgun shots fired as covering fire add +2 each (reading: the sentence replaces the
    covering-fire system's "+1 per attack", so it applies to shotgun covering fire, on top of
    its G29 levels; G09's own shotgun row covers aimed suppressing fire). The cap still applies.
    """
    tn = rules.check_tn_first_level + rules.check_tn_per_level * (max(levels, 1) - 1)
    tn += rules.shotgun_tn_per_shot * shotgun_shots
    return min(tn, rules.check_tn_max)


def armour_aid(torso_sp: int, rules: SuppressionHouseRules) -> int:
    """G08: +1 to the suppression check per full 5 SP of torso armour."""
    return torso_sp // rules.armour_sp_per_check_bonus


def check_result(total: int, natural_one: bool, tn: int, rules: SuppressionHouseRules) -> str:
    """G10: total <= 0 -> panic; a natural 1 -> fumble (a failure whatever the total); else pass
    when the total meets the TN, fail when it does not."""
    if total <= rules.panic_at_or_below:
        return "panic"
    if natural_one:
        return "fumble"
    return "pass" if total >= tn else "fail"


def penalty_levels(levels: int, in_open: bool, rules: SuppressionHouseRules) -> int:
    """G11: acting in the open (not seeking cover, or having left it) counts 2 more levels."""
    if levels <= 0:
        return 0
    return levels + (rules.open_ground_extra_levels if in_open else 0)


def action_penalty(
    levels: int,
    result: str,
    *,
    in_open: bool,
    rules: SuppressionHouseRules,
    bracing: bool = False,
    full_cover_within_reach: bool = False,
    exposes: bool = True,
) -> int:
    """G10/G11/G32: the penalty on each action this round, as a positive number.

    Pass -> 1 x levels; fail or fumble -> 2 x levels, unless the target can get behind full cover
    and the action does not expose it (then as a pass); in the open +2 levels; bracing doubles.
    Worked: 4 levels, failed: -8 behind cover, -12 in the open.
    """
    eff = penalty_levels(levels, in_open, rules)
    as_pass = result == "pass" or (
        result in ("fail", "fumble") and full_cover_within_reach and not exposes and not in_open
    )
    per = rules.pass_penalty_per_level if as_pass else rules.fail_penalty_per_level
    return eff * per * tactics.penalty_multiplier("bracing" if bracing else "active_cover", rules)


# ------------------------------------------------------------------------------------------------
# G11 braving the fire, G12 hunkering down
# ------------------------------------------------------------------------------------------------
def hits_for_miss(total: int, tn: int, rules: SuppressionHouseRules) -> int:
    """G11: an exposed action that fails takes 1 hit per full 5 points it missed by."""
    if total >= tn:
        return 0
    return (tn - total) // rules.points_missed_per_hit


def leave_cover_tn(moves: int, rules: SuppressionHouseRules) -> int:
    """G11: leaving cover under fire: dodge/cover check TN 15 / 20 / 25 for 1 / 2 / 3 moves."""
    return rules.leave_cover_tns[min(max(moves, 1), 3) - 1]


# ------------------------------------------------------------------------------------------------
# G29 covering fire, G30 firing lanes
# ------------------------------------------------------------------------------------------------
def covering_levels(firing_actions: int, rules: SuppressionHouseRules) -> int:
    """G29: +1 level per firing action (a full ROF) of covering fire, or per burst."""
    return rules.covering_levels_per_action * firing_actions


def lane_max_width(rof: int, rules: SuppressionHouseRules) -> int:
    """G30: a lane is 2 m wide at least and 1 m per 5 ROF at most (ROF 30 -> 6 m)."""
    return rof // rules.lane_rof_per_metre


def lane_levels(rounds: int, width_m: int) -> int:
    """G30: suppression = shots fired / lane width (rounded down); also the crossing TN."""
    return rounds // width_m


def burst_table_hits(face: int, house: GraydawnHouseRules) -> int:
    """G27/G30: the burst table, d6 1-2 -> 1 hit, 3-5 -> 2, 6 -> 3."""
    return house.burst_table[face - 1]


def neighbour_spaces(shooters: list[Shooter], rules: SuppressionHouseRules) -> int:
    """G29: covering fire suppresses neighbours within 1 space, full-auto fire within 2."""
    spaces = -1
    for s in shooters:
        if s.fire == "lane":
            spaces = max(spaces, rules.full_auto_neighbour_spaces)
        elif s.fire in ("covering", "burst"):
            spaces = max(spaces, rules.neighbour_spaces)
    return spaces


# ------------------------------------------------------------------------------------------------
# G15 panic
# ------------------------------------------------------------------------------------------------
PANIC_TABLE: dict[int, str] = {
    1: "flee from combat",
    2: "flee from combat",
    3: "flee from combat",
    4: "drop prone / freeze behind cover",
    5: "drop prone / freeze behind cover",
    6: "drop equipped weapon and flee",
    7: "drop equipped weapon and flee",
    8: "run toward the enemy lines",
    9: "empty the magazine as covering fire at random targets",
    10: "take 1d6 actions firing at random nearby targets",
}


def panic_behaviour(dice: DiceSource, who: str) -> str:
    """G15 (optional table): d10 -> what a panicked combatant does; 10 -> 1d6 wild actions."""
    face = dice.roll("d10", why=f"{who} panic behaviour (G15)").total
    text = PANIC_TABLE[face]
    if face == 10:
        n = dice.roll("d6", why=f"{who} wild actions (G15)").total
        text = f"take {n} actions firing at random nearby targets"
    dice.record(Note(f"{who} panics: {text}", "G15"))
    return text


def rally_tn(levels: int, rules: SuppressionHouseRules) -> int:
    """G15: an ally's leadership roll ends a unit's panic at the unit's suppression TN."""
    return check_tn(levels, rules)


# ------------------------------------------------------------------------------------------------
# Loading a situation file of kind "suppression"
# ------------------------------------------------------------------------------------------------
def _graydawn_house(house: Any) -> GraydawnHouseRules:
    if isinstance(house, GraydawnHouseRules):
        return house
    return GraydawnHouseRules(suppression=suppression_rules(house))


def _with_catalog_names(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """Catalog names (weapons, armour, cover; G41) become full tables before validation, the
    same way the attack half loads a combatant."""
    extra = data.get("catalogs", [])
    if not isinstance(extra, list) or not all(isinstance(x, str) for x in extra):
        raise InputError(
            f"{source}: field catalogs: must be a list of file paths",
            tip='e.g. catalogs = ["my_guns.toml"]',
        )
    relative = Path(source).parent if source and Path(source).exists() else None
    catalog = load_catalog("firefight.rulesets.graydawn", extra, relative)
    out = dict(data)
    shooters = out.get("shooters")
    if isinstance(shooters, list):
        out["shooters"] = [
            combatant_entry(s, catalog, f"{source}: shooters[{i}]") for i, s in enumerate(shooters)
        ]
    if "target" in out:
        out["target"] = combatant_entry(out["target"], catalog, f"{source}: target")
    return out


def shooter_rounds(s: Shooter, rules: SuppressionHouseRules) -> int:
    """Rounds a shooter spends on the target: given, a full magazine, or actions x ROF."""
    w = s.weapon
    assert w is not None
    if s.rounds is not None:
        return s.rounds
    if s.full_magazine:
        return w.magazine
    if s.fire == "lane":
        return w.rof
    if s.actions is not None:
        per = rules.burst_rounds if s.fire == "burst" else w.rof
        return s.actions * per
    return 0


def shooter_band(s: Shooter, house: GraydawnHouseRules, source: str = "distance_m") -> str:
    """The range band of a shooter: given, or from its distance (G39)."""
    if s.range_band is not None:
        return s.range_band
    assert s.weapon is not None and s.distance_m is not None
    return range_band_for(s.distance_m, s.weapon, house, source)


def _check_shooter(s: Shooter, i: int, source: str, house: GraydawnHouseRules) -> None:
    rules = house.suppression
    where = f"{source}: shooters[{i}]"
    w = s.weapon
    if w is None:
        raise InputError(f"{where}.weapon is missing", tip="name a catalog weapon or give a table")
    if s.panicked:
        raise InputError(f"{where}: a panicked unit cannot lay suppressing fire (G15)")
    reason = unsuitable_reason(w, rules)
    if reason is not None:
        raise InputError(
            f"{where}.weapon {w.name!r}: {reason} (G09)",
            tip="suppress with a high-capacity pistol, SMG, assault rifle, machine gun or shotgun",
        )
    if s.fire == "suppressing" and s.rounds is None and not s.full_magazine:
        raise InputError(f"{where}: say how much it fires", tip="add rounds = N or full_magazine")
    if s.fire in ("covering", "burst") and s.rounds is None and s.actions is None:
        raise InputError(f"{where}: say how much it fires", tip="add actions = N or rounds = N")
    if s.fire == "burst" and not w.burst:
        raise InputError(f"{where}.weapon {w.name!r} has no burst mode (G27/G29)")
    if s.fire == "lane":
        if not w.full_auto:
            raise InputError(f"{where}.weapon {w.name!r}: firing lanes need full auto (G30)")
        if s.lane_width_m is None:
            raise InputError(f"{where}.lane_width_m is missing", tip="add lane_width_m = 2 or more")
        widest = lane_max_width(w.rof, rules)
        if s.lane_width_m < rules.lane_min_width_m:
            raise InputError(
                f"{where}.lane_width_m {s.lane_width_m} is narrower than "
                f"{rules.lane_min_width_m} m (G30)",
                tip=f"use {rules.lane_min_width_m}..{widest}",
            )
        if s.lane_width_m > widest:
            raise InputError(
                f"{where}.lane_width_m {s.lane_width_m} is wider than {w.name!r} allows: "
                f"{widest} m at ROF {w.rof} (1 m per {rules.lane_rof_per_metre} ROF, G30)",
                tip=f"use a width of {rules.lane_min_width_m}..{widest}",
            )
    rounds = shooter_rounds(s, rules)
    if rounds > w.magazine:
        raise InputError(
            f"{where}.rounds {rounds} is more than {w.name!r}'s magazine holds ({w.magazine})",
            tip=f"fire at most {w.magazine} rounds (reload is an action, G40)",
        )
    if s.fire == "lane" and rounds > w.rof:
        raise InputError(
            f"{where}.rounds {rounds} is more than one full-auto burst (ROF {w.rof}, G30)",
            tip=f"fire at most {w.rof} rounds into the lane",
        )
    if s.range_band is None and s.distance_m is None:
        raise InputError(f"{where}: distance_m is missing", tip="add distance_m or range_band")
    band = shooter_band(s, house, f"{where}.distance_m")
    if s.fire != "suppressing" and band == "extreme":
        raise InputError(
            f"{where}: covering fire reaches only to long range (G29)",
            tip='suppress at extreme range with aimed suppressing fire (fire = "suppressing")',
        )


def load_suppression(data: Mapping[str, Any], source: str, house: Any) -> SuppressionSituation:
    """Validate a ``kind = "suppression"`` situation; one clear line naming the field on error.

    ``house`` is the package's house model (its ``suppression`` field holds the numbers used
    here) or a bare :class:`SuppressionHouseRules`.
    """
    if "house" in data:
        raise InputError(
            f"{source}: field house is not part of a situation", tip="use --house FILE"
        )
    gh = _graydawn_house(house)
    sit = validate(SuppressionSituation, _with_catalog_names(data, source), source)
    sit = sit.model_copy(update={"house": gh})
    for i, s in enumerate(sit.shooters):
        _check_shooter(s, i, source, gh)
    if not sit.shooters and sit.area is None:
        raise InputError(f"{source}: nothing fires", tip="add [[shooters]] or an [area] blast")
    if sit.target.in_lane != "no" and not any(s.fire == "lane" for s in sit.shooters):
        raise InputError(
            f"{source}: target.in_lane is {sit.target.in_lane!r} but no shooter fires a lane",
            tip='add a shooter with fire = "lane" or set in_lane = "no"',
        )
    return sit


# ------------------------------------------------------------------------------------------------
# Resolution
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SuppressionOutcome:
    """What odds enumerate: small and hashable."""

    levels: int
    check: str  # none, pass, fail, fumble, panic
    hits: int  # hits on the target this round, at most the rounds fired at it
    fire_hits: int  # of those, from covering fire and firing lanes (G29, G30)
    panicked: bool
    lost_action: bool  # a fumble took initiative below 0 (G10), or it dived (G14)
    dive: str = ""  # G14: "", "half" or "full" damage


def _defence_base(t: Combatant) -> tuple[int, int]:
    """RD stat part and the dodge/cover skill the defender may add (G35)."""
    skill_ok = tactics.defence_skill_applies(
        flanked=t.stance.flanked,
        ambushed=t.stance.ambushed,
        bracing=t.stance.bracing,
        prone=t.stance.prone,
        aimed_attack=False,
    )
    _, rd = wounded_base(t, "MA", t.stance.bracing)  # G20: REF penalty by wound state
    return rd, t.dodge_cover if skill_ok else 0


def rounds_at_target(sit: SuppressionSituation) -> int:
    """G11: the most hits the target can take this round."""
    return sum(shooter_rounds(s, sit.rules) for s in sit.shooters)


def _capped(dice: DiceSource, sit: SuppressionSituation, hits: int) -> int:
    """No action takes more hits than the rounds fired (G11); keeps exact odds small too."""
    cap = rounds_at_target(sit)
    if hits > cap:
        dice.record(Note(f"{hits} hits capped at the {cap} rounds fired", "G11"))
    return min(hits, cap)


def _roll_total(dice: DiceSource, why: str, base: int) -> tuple[int, bool]:
    r = dice.roll("d10x", why=why)
    return base + r.total, NATURAL_ONE in r.tags


def _mods(dice: DiceSource, mods: Mapping[str, int], target: str, source: str, rule: str) -> int:
    for name, value in mods.items():
        dice.record(Modifier(name, value, target, source, rule))
    return sum(mods.values())


def fire_levels(s: Shooter, rules: SuppressionHouseRules) -> int:
    """G29/G30: levels of covering fire (per firing action), burst covering fire (per burst)
    or a firing lane (shots / width); no roll involved."""
    w = s.weapon
    assert w is not None
    rounds = shooter_rounds(s, rules)
    if s.fire == "covering":
        return covering_levels(rounds // w.rof, rules)
    if s.fire == "burst":
        return covering_levels(rounds // rules.burst_rounds, rules)
    assert s.fire == "lane" and s.lane_width_m is not None
    return lane_levels(rounds, s.lane_width_m)


def _shooter_levels(sit: SuppressionSituation, s: Shooter, dice: DiceSource) -> int:
    """G09 / G29 / G30: the levels one shooter puts on the target."""
    rules, w = sit.rules, s.weapon
    assert w is not None
    rounds = shooter_rounds(s, rules)
    if s.fire != "suppressing":
        levels = fire_levels(s, rules)
        how = {"covering": "covering fire", "burst": "burst covering fire", "lane": "firing lane"}
        rule = "G30" if s.fire == "lane" else "G29"
        dice.record(Note(f"{s.name}: {how[s.fire]}, {rounds} rounds -> {levels} level(s)", rule))
        return levels
    base = base_levels(w, rounds, rules)
    dice.record(Note(f"{s.name}: {rounds} rounds from a {w.kind} -> {base} base level(s)", "G09"))
    band = shooter_band(s, sit.house)
    tn = range_tn(band, rules)
    before, after = wounded_base(s, "CL", False)
    if after != before:
        dice.record(
            Modifier("wound state", after - before, "suppressing-fire attack", s.name, "G20")
        )
    ra = after + s.skill(w.skill)
    extra = _mods(dice, s.modifiers, "suppressing-fire attack", s.name, "G09")
    if rules.suppressing_fire_wa and w.wa:
        dice.record(
            Modifier("weapon accuracy (WA)", w.wa, "suppressing-fire attack", w.name, "G09")
        )
        extra += w.wa
    luck = s.luck_spent * sit.house.luck_point_bonus
    if luck:
        dice.record(Modifier("luck points", luck, "suppressing-fire attack", s.name, "G17"))
    dice.record(
        Note(
            f"{s.name} attack base: (REF+CL)/2 {after} + {w.skill} {s.skill(w.skill)} "
            f"+ modifiers {extra + luck:+d} = {ra + extra + luck}; TN {tn} at {band} range",
            "G09",
        )
    )
    total, _ = _roll_total(dice, f"{s.name} suppressing-fire attack (G09)", ra + extra + luck)
    more = levels_from_attack(total, tn, rules)
    dice.record(
        Check(
            f"{s.name} suppressing-fire attack at {band} range",
            total,
            tn,
            total >= tn,
            "G09",
            f"+{more} level(s), {base + more} in all",
        )
    )
    return base + more


def _all_levels(sit: SuppressionSituation, dice: DiceSource) -> int:
    total = 0
    for i, s in enumerate(sit.shooters):
        total += dice.derive(
            f"{s.name} levels", partial(_shooter_levels, sit, s), key=("lv", id(sit), i)
        )
    return total


def _defence_hit(dice: DiceSource, *, sit: SuppressionSituation, why: str) -> bool:
    """G29/G30: the target's defence roll; a total of 0 or less is hit."""
    t, rules = sit.target, sit.rules
    stat, skill = _defence_base(t)
    mods = sum(t.defence_modifiers.values())
    total, _ = _roll_total(dice, f"{t.name} {why} (G29)", stat + skill + mods)
    hit = total <= rules.covering_hit_at_or_below
    dice.record(
        Check(
            f"{t.name} {why}",
            total,
            rules.covering_hit_at_or_below,
            not hit,
            "G29",
            "hit" if hit else "missed",
        )
    )
    return hit


def _fire_hits(sit: SuppressionSituation, dice: DiceSource) -> int:
    """G29: one defence roll per covering shooter (one round at most hits), one per burst;
    G30: one roll inside a lane, a 0 or less -> burst-table hits."""
    rules, hits = sit.rules, 0
    for i, s in enumerate(sit.shooters):
        rounds = shooter_rounds(s, rules)
        if s.fire == "covering":
            hit = dice.derive(
                "covering fire",
                partial(_defence_hit, sit=sit, why=f"defence vs {s.name}'s covering fire"),
                key=("cov", id(sit), i),
            )
            hits += rules.covering_max_hits if hit else 0
        elif s.fire == "burst":
            for b in range(rounds // rules.burst_rounds):
                hit = dice.derive(
                    "burst",
                    partial(_defence_hit, sit=sit, why=f"defence vs {s.name}'s burst {b + 1}"),
                    key=("burst", id(sit)),
                )
                hits += 1 if hit else 0
        elif s.fire == "lane" and sit.target.in_lane == "inside":
            hits += dice.derive("lane", partial(_lane_hits, sit=sit, s=s), key=("lane", id(sit), i))
    return hits


def _lane_hits(dice: DiceSource, *, sit: SuppressionSituation, s: Shooter) -> int:
    if not _defence_hit(dice, sit=sit, why=f"defence inside {s.name}'s firing lane"):
        return 0
    face = dice.roll("d6", why=f"{sit.target.name} hits in the lane, burst table (G30)").total
    return burst_table_hits(face, sit.house)


def _dive(sit: SuppressionSituation, dice: DiceSource) -> tuple[str, bool]:
    """G14: diving for cover from an area weapon -> ("half"/"full" damage, next action lost)."""
    a, t, rules = sit.area, sit.target, sit.rules
    assert a is not None
    direct = a.distance_m <= rules.direct_hit_m
    if not a.dive:
        dice.record(Note(f"{t.name} does not dive: full blast", "G14"))
        return "full", False
    if a.delivery == "timed":
        if a.notice_tn is not None:
            total, _ = _roll_total(
                dice, f"{t.name} notices the incoming weapon (G14)", a.notice_base
            )
            heard = total >= a.notice_tn
            dice.record(Check(f"{t.name} awareness/notice", total, a.notice_tn, heard, "G14"))
            if not heard:
                return "full", False
        if direct:
            dice.record(
                Note(f"{t.name} dives, but a direct hit (<= {rules.direct_hit_m} m): full", "G14")
            )
            return "full", True
        dice.record(Note(f"{t.name} dives for cover: misses its next action, half damage", "G14"))
        return "half", True
    stat, skill = _defence_base(t)
    total, _ = _roll_total(dice, f"{t.name} dives for cover (G14)", stat + skill)
    ok = total >= rules.dive_tn and not direct
    dice.record(
        Check(
            f"{t.name} dodge/cover dive",
            total,
            rules.dive_tn,
            total >= rules.dive_tn,
            "G14",
            "half damage" if ok else "full damage",
        )
    )
    return ("half" if ok else "full"), True


def _check_base(sit: SuppressionSituation) -> int:
    """What :func:`_check` adds to its d10x (see there)."""
    t = sit.target
    aid = armour_aid(t.armour.torso, sit.rules)
    cl_pen = stat_penalty(t.stats.CL, t.wounds.marks)
    return t.stats.CL + cl_pen + t.dodge_cover + aid + sum(t.check_modifiers.values())


def _check_table(sit: SuppressionSituation, tn: int) -> Weighted[str]:
    """:func:`_check` on exact dice: its result from the d10x's distribution (split by the
    natural-1 tag), not from replaying the check once per value."""
    base, out = _check_base(sit), dict[str, int]()
    groups = exact_tagged("d10x")
    for tags, d in groups:
        for v, w in d.items():
            result = check_result(base + v, NATURAL_ONE in tags, tn, sit.rules)
            out[result] = out.get(result, 0) + w
    return Weighted(out, groups[0][1].total)


def _check(sit: SuppressionSituation, levels: int, tn: int, dice: DiceSource) -> str:
    """G10 (with G08): CL + Dodge/Cover + armour aid + modifiers + 1d10 vs the levels' TN."""
    t, rules = sit.target, sit.rules
    aid = armour_aid(t.armour.torso, rules)
    if aid:
        dice.record(
            Modifier("armour aid", aid, "suppression check", f"torso SP {t.armour.torso}", "G08")
        )
    mods = _mods(dice, t.check_modifiers, "suppression check", t.name, "G10")
    cl_pen = stat_penalty(t.stats.CL, t.wounds.marks)
    if cl_pen:
        dice.record(Modifier("wound state (CL)", cl_pen, "suppression check", t.name, "G20"))
    base = t.stats.CL + cl_pen + t.dodge_cover + aid + mods
    dice.record(
        Note(
            f"{t.name} check base: CL {t.stats.CL} + Dodge/Cover {t.dodge_cover} "
            f"+ modifiers {cl_pen + aid + mods:+d} = {base}; TN {tn} for {levels} level(s)",
            "G10",
        )
    )
    total, natural_one = _roll_total(dice, f"{t.name} suppression check (G10)", base)
    result = check_result(total, natural_one, tn, rules)
    dice.record(
        Check(
            f"{t.name} suppression check ({levels} levels)",
            total,
            tn,
            result == "pass",
            "G10",
            result,
        )
    )
    return result


@dataclass(frozen=True)
class _Round:
    levels: int
    result: str
    auto_hunker: bool


def _cross_lane(dice: DiceSource, *, sit: SuppressionSituation) -> int:
    """G30: having passed its check, the target crosses: dodge/athletics vs shots / width; a
    failure -> burst-table hits before it acts."""
    t, rules = sit.target, sit.rules
    lane = next(s for s in sit.shooters if s.fire == "lane")
    assert lane.lane_width_m is not None
    lane_tn = lane_levels(shooter_rounds(lane, rules), lane.lane_width_m)
    stat, skill = _defence_base(t)
    total, _ = _roll_total(dice, f"{t.name} crosses the lane, dodge/athletics (G30)", stat + skill)
    ok = total >= lane_tn
    dice.record(Check(f"{t.name} crossing the firing lane", total, lane_tn, ok, "G30"))
    if ok:
        return 0
    face = dice.roll("d6", why=f"{t.name} hits crossing the lane, burst table (G30)").total
    return burst_table_hits(face, sit.house)


def _hunker(
    dice: DiceSource, *, sit: SuppressionSituation, in_open: bool, pen: int, under_fire: bool
) -> int:
    """G12: LUCK + dodge/cover vs TN 10 behind cover, no penalty; in the open LUCK only, with
    the penalty. A failure takes 1 hit per full 5 missed (G11)."""
    t, rules = sit.target, sit.rules
    if in_open:
        base, how = t.stats.LUCK - pen, f"in the open: LUCK only, penalty -{pen}"
    else:
        base, how = t.stats.LUCK + t.dodge_cover, "behind cover: no penalty"
    total, _ = _roll_total(dice, f"{t.name} hunkers down (G12)", base)
    got = hits_for_miss(total, rules.hunker_tn, rules) if under_fire else 0
    dice.record(
        Check(
            f"{t.name} hunker down, {how}",
            total,
            rules.hunker_tn,
            total >= rules.hunker_tn,
            "G12",
            f"{got} hit(s)",
        )
    )
    return _capped(dice, sit, got)


def _move_out(dice: DiceSource, *, sit: SuppressionSituation, a: TargetAction, pen: int) -> int:
    """G11: moving out of cover under fire: dodge/cover check vs TN 15/20/25 for 1/2/3 moves,
    +half MA / +MA for 2 / 3 moves, at the suppression penalty; 1 hit per full 5 missed."""
    t, rules = sit.target, sit.rules
    label = a.name or "moves"
    stat, skill = _defence_base(t)
    bonus = tactics.movement_dodge_bonus(a.moves, t.stats.MA)
    dice.record(Modifier("suppression penalty", -pen, "dodge/cover check", "fire", "G10/G11"))
    if bonus:
        dice.record(
            Modifier(f"{a.moves} moves", bonus, "dodge/cover check", f"MA {t.stats.MA}", "G11")
        )
    extra = _mods(dice, a.modifiers, "dodge/cover check", label, "G11")
    tn = leave_cover_tn(a.moves, rules)
    raw, _ = _roll_total(dice, f"{t.name} {label}: dodge/cover check (G11)", stat + skill + extra)
    total = raw - pen + bonus
    got = hits_for_miss(total, tn, rules)
    dice.record(
        Check(
            f"{t.name} {label}, {a.moves} move(s) out of cover",
            total,
            tn,
            total >= tn,
            "G11",
            f"roll {raw} {-pen:+d} {bonus:+d} = {total}; {got} hit(s)",
        )
    )
    return _capped(dice, sit, got)


def _act(
    dice: DiceSource,
    *,
    sit: SuppressionSituation,
    a: TargetAction,
    pen: int,
    multi: int,
    counts: bool,
) -> int:
    """G11: an action at the suppression (and extra-action) penalty; if it exposes the target
    and fails, 1 hit per full 5 points it missed by. Opposed: the opponent rolls 1d10 too (one
    request for both dice, attacker first, so exact odds see only their difference)."""
    t, rules = sit.target, sit.rules
    label = a.name or "action"
    if pen:
        dice.record(Modifier("suppression penalty", -pen, label, "fire", "G10/G11"))
    if multi:
        dice.record(Modifier("extra actions", -multi, label, "actions this round", "G31/G34"))
    base = a.stat + a.skill + _mods(dice, a.modifiers, label, t.name, "G11")
    if a.tn is not None:
        raw, _ = _roll_total(dice, f"{t.name} {label}", base)
        total, tn = raw - pen - multi, a.tn
        shown = f"roll {raw} {-pen - multi:+d} = {total}"
    else:
        assert a.opposed is not None
        r = dice.roll("d10x - d10x", why=f"{t.name} {label}, then the opponent's roll")
        if r.rolled is not None:
            mine, theirs = (c.total for c in r.rolled.children)
            total, tn = base + mine - pen - multi, a.opposed + theirs
            shown = f"roll {base + mine} {-pen - multi:+d} = {total} vs the opponent's {tn}"
        else:  # exact dice know only the difference, which is all the rule needs
            total, tn = base - pen - multi + r.total, a.opposed
            shown = "opposed"
    got = hits_for_miss(total, tn, rules) if counts else 0
    detail = f"{shown}; " + (f"{got} hit(s)" if counts else "not exposed to the fire")
    dice.record(Check(f"{t.name} {label}", total, tn, total >= tn, "G11", detail))
    return _capped(dice, sit, got)


Step = tuple[Any, ...]
#: A check's roll, the offset added to it, its TN (``total = offset + roll`` against ``tn``).
_Terms = tuple[str, int, int]


def _plan(sit: SuppressionSituation, r: _Round) -> tuple[Step, ...]:
    """G11/G12/G30/G31: the target's actions as steps with their penalties worked out (no dice):
    where it stands for each, the suppression and extra-action penalties, whether it exposes."""
    t, rules = sit.target, sit.rules
    in_open = not t.cover.effective
    under_fire = r.levels > 0
    steps: list[Step] = []
    if t.in_lane == "crossing":
        if r.result != "pass":
            steps.append(("note", f"{t.name} does not dare cross the firing lane", "G30"))
        else:
            steps.append(("cross",))
            in_open = True
    plan = list(t.actions)
    if r.auto_hunker:
        if plan:
            msg = f"{t.name} loses its declared actions and hunkers down"
            steps.append(("note", msg, "G10/G12"))
        plan = [TargetAction(kind="hunker", name="hunker down (lost action)")]
    moves = sum(a.moves for a in plan if a.kind == "move")
    acts = sum(1 for a in plan if a.kind == "act")
    multi = tactics.multi_action_penalty(moves, acts, rules)

    def penalty(open_: bool, exposes: bool = True) -> int:
        return action_penalty(
            r.levels,
            r.result,
            in_open=open_,
            rules=rules,
            bracing=t.stance.bracing,
            full_cover_within_reach=t.full_cover_within_reach,
            exposes=exposes,
        )

    for i, a in enumerate(plan):
        if a.kind == "hunker":
            steps.append(("hunker", in_open, penalty(True) if in_open else 0, under_fire))
            break
        if a.kind == "move":
            if in_open and a.to_cover:
                msg = f"{t.name} moves {a.moves}x MA into cover: no dodge roll"
                steps.append(("note", msg, "G11"))
            elif under_fire:
                steps.append(("move", i, penalty(True)))
            in_open = not a.to_cover
            continue
        exposed = in_open or a.exposes
        steps.append(("act", i, penalty(in_open, exposed), multi, exposed and under_fire))
    return tuple(steps)


def _miss_table(sit: SuppressionSituation, terms: _Terms, counts: bool) -> Weighted[int]:
    """A check's hits (G11) from the roll's distribution: ``total = offset + roll`` against
    ``tn``, hits for the miss (:func:`hits_for_miss` on a whole array), the G11 cap: the steps
    the check's sub-rule takes, without replaying it once per value of an open-ended roll."""
    expr, offset, tn = terms
    roll, cap = exact(expr), rounds_at_target(sit)
    totals = roll.support + offset
    missed = np.maximum(tn - totals, 0) // sit.rules.points_missed_per_hit
    hits = np.minimum(missed, cap) if counts else np.zeros_like(totals)
    out = {int(h): int(roll.weights[hits == h].sum()) for h in np.unique(hits).tolist()}
    return Weighted(out, roll.total)


def _act_check(sit: SuppressionSituation, a: TargetAction, pen: int, multi: int) -> _Terms:
    """What :func:`_act` rolls and needs (see there)."""
    base = a.stat + a.skill + sum(a.modifiers.values())
    if a.tn is not None:
        return "d10x", base - pen - multi, a.tn
    assert a.opposed is not None
    return "d10x - d10x", base - pen - multi, a.opposed


def _move_check(sit: SuppressionSituation, a: TargetAction, pen: int) -> _Terms:
    """What :func:`_move_out` rolls and needs (see there)."""
    t = sit.target
    stat, skill = _defence_base(t)
    bonus = tactics.movement_dodge_bonus(a.moves, t.stats.MA)
    offset = stat + skill + sum(a.modifiers.values()) - pen + bonus
    return "d10x", offset, leave_cover_tn(a.moves, sit.rules)


def _hunker_check(sit: SuppressionSituation, in_open: bool, pen: int) -> _Terms:
    """What :func:`_hunker` rolls and needs (see there)."""
    t = sit.target
    base = t.stats.LUCK - pen if in_open else t.stats.LUCK + t.dodge_cover
    return "d10x", base, sit.rules.hunker_tn


StepRule = tuple[str, Callable[[DiceSource], int], Callable[[], Weighted[int]] | None]


def _step_rule(sit: SuppressionSituation, step: Step) -> StepRule:
    """A dice step of the plan as a sub-rule returning its hits, with its exact table if the
    hits follow from one roll's distribution (None: enumerate the sub-rule)."""
    kind = step[0]
    if kind == "cross":
        return "cross", partial(_cross_lane, sit=sit), None
    if kind == "hunker":
        _, in_open, pen, under_fire = step
        terms = _hunker_check(sit, in_open, pen)
        fn = partial(_hunker, sit=sit, in_open=in_open, pen=pen, under_fire=under_fire)
        return "hunker", fn, partial(_miss_table, sit, terms, under_fire)
    plan = sit.target.actions
    if kind == "move":
        a = plan[step[1]]
        fn_m = partial(_move_out, sit=sit, a=a, pen=step[2])
        return "move", fn_m, partial(_miss_table, sit, _move_check(sit, a, step[2]), True)
    _, i, pen, multi, counts = step
    a = plan[i] if i < len(plan) else TargetAction(kind="hunker")
    fn_a = partial(_act, sit=sit, a=a, pen=pen, multi=multi, counts=counts)
    return "act", fn_a, partial(_miss_table, sit, _act_check(sit, a, pen, multi), counts)


def _actions(sit: SuppressionSituation, steps: tuple[Step, ...], dice: DiceSource) -> int:
    """The planned steps on the dice; each is one derived sub-rule returning its hits, so
    exact odds branch only on hit counts."""
    hits = 0
    for step in steps:
        if step[0] == "note":
            dice.record(Note(step[1], step[2]))
            continue
        why, fn, table = _step_rule(sit, step)
        if table is None:
            hits += dice.derive(why, fn, key=(why, id(sit)))
        else:
            hits += memo.branch(dice, why, fn, (memo.token(sit), *step), table)
    return _capped(dice, sit, hits)


def _panicked(sit: SuppressionSituation, levels: int, result: str, dice: DiceSource) -> int:
    """G15 with G12: a panicked target still takes fire. In the open it is hunkering down
    "from panic": LUCK only, with the suppression penalty. Behind cover it flees at full speed
    (three moves); running through an automatic weapon's suppressing fire (G09's automatic
    weapons, or a lane) it makes the 3-move dodge/cover check of G11; other fire does not
    catch a runner."""
    t, rules = sit.target, sit.rules
    if levels <= 0:
        return 0
    in_open = not t.cover.effective
    pen = action_penalty(levels, result, in_open=True, rules=rules, bracing=t.stance.bracing)
    if in_open:
        dice.record(Note(f"{t.name} is in the open: hunkers down from panic", "G12/G15"))
        return _hunker(dice, sit=sit, in_open=True, pen=pen, under_fire=True)
    automatic = [
        s
        for s in sit.shooters
        if s.fire == "lane" or (s.weapon is not None and s.weapon.kind in AUTOMATIC_KINDS)
    ]
    if not automatic:
        dice.record(Note(f"{t.name} flees; only automatic fire catches a runner", "G15"))
        return 0
    dice.record(Note(f"{t.name} flees through {automatic[0].name}'s automatic fire", "G15"))
    return _move_out(dice, sit=sit, a=TargetAction(kind="move", name="flees", moves=3), pen=pen)


def _actions_table(sit: SuppressionSituation, steps: tuple[Step, ...]) -> Weighted[int]:
    """:func:`_actions` on exact dice: the steps roll their own dice, so the total's
    distribution is the sum of theirs (a convolution), then the G11 cap."""
    acc, total = {0: 1}, 1
    for step in steps:
        if step[0] == "note":
            continue
        _, fn, table = _step_rule(sit, step)
        w = table() if table is not None else enumerate_outcomes(fn)
        nxt: dict[int, int] = {}
        for a, x in acc.items():
            for b, y in w.items():
                nxt[a + b] = nxt.get(a + b, 0) + x * y
        acc, total = nxt, total * w.total
    cap, out = rounds_at_target(sit), dict[int, int]()
    for hits, weight in acc.items():
        out[min(hits, cap)] = out.get(min(hits, cap), 0) + weight
    return Weighted(out, total)


def _run(sit: SuppressionSituation, dice: DiceSource) -> tuple[SuppressionOutcome, dict[str, Any]]:
    """One round against one target, in the order of operations (G16)."""
    rules, t = sit.rules, sit.target
    summary: dict[str, Any] = {}
    # suppressing-fire phase: levels, ammunition (G09, G29, G30)
    levels = dice.derive("suppression levels", lambda d: _all_levels(sit, d), key=("all", id(sit)))
    rounds_total, shotgun_shots = 0, 0
    for s in sit.shooters:
        w = s.weapon
        assert w is not None
        n = shooter_rounds(s, rules)
        rounds_total += n
        shotgun_shots += n if (w.kind == "shotgun" and s.fire == "covering") else 0
        dice.record(StateChange(s.name, "rounds in magazine", w.magazine, w.magazine - n, "G09"))
    summary["rounds fired at target"] = rounds_total
    if sit.shooters:
        dice.record(StateChange(t.name, "suppression levels", 0, levels, "G09/G10"))
    summary["suppression levels"] = levels
    fire_hits = 0
    if any(s.fire != "suppressing" for s in sit.shooters):
        fire_hits = dice.derive("fire hits", lambda d: _fire_hits(sit, d), key=("fire", id(sit)))
        summary["hits from covering fire / lane"] = fire_hits
    spaces = neighbour_spaces(sit.shooters, rules)
    if spaces >= 0:
        cover_levels = sum(fire_levels(s, rules) for s in sit.shooters if s.fire != "suppressing")
        near = [nb for nb in t.neighbours if nb.spaces <= spaces]
        for nb in near:
            dice.record(StateChange(nb.name, "suppression levels", 0, cover_levels, "G29"))
        summary["neighbours suppressed"] = [nb.name for nb in near]
    dive, lost_action = "", False
    if sit.area is not None:
        dive, lost_action = dice.derive("dive", lambda d: _dive(sit, d), key=("dive", id(sit)))
        summary["blast damage"] = dive
    # the suppression check (G10), flushing (G35), fumble and panic (G10, G15, G33)
    result, panicked, auto_hunker = "none", False, False
    if levels > 0:
        tn = check_tn(levels, rules, shotgun_shots)
        summary["check TN"] = tn
        result = memo.branch(
            dice,
            "check",
            partial(_check, sit, levels, tn),
            ("check", memo.token(sit), levels, tn),
            partial(_check_table, sit, tn),
        )
        summary["check"] = result
        if result == "panic":
            panicked = True
        elif result in ("fail", "fumble") and t.stance.flanked:
            if tactics.flushed_result(t.cover_within_one_move) == "panic":
                dice.record(
                    Note(f"{t.name} is flanked, fails and has no cover in reach: panics", "G35")
                )
                panicked = True
            else:
                dice.record(
                    Note(f"{t.name} is flushed out: shifts to cover within one move", "G35")
                )
        if result == "fumble":
            if t.initiative is not None:
                new, lost = tactics.initiative_after_fumble(t.initiative, levels)
                dice.record(StateChange(t.name, "initiative", t.initiative, new, "G10"))
                if lost:
                    dice.record(
                        Note(f"{t.name} misses its action; re-rolls initiative next round", "G10")
                    )
                    auto_hunker = True
            else:
                dice.record(Note(f"{t.name}: initiative -{levels}", "G10"))
        if panicked:
            dice.record(StateChange(t.name, "stance", "-", "panic", "G15"))
            if sit.panic_table:
                dice.derive("panic", lambda d: panic_behaviour(d, t.name), key=("panic", id(sit)))
        for where, open_ in (("behind cover", False), ("in the open", True)):
            summary[f"penalty {where}"] = -action_penalty(
                levels, result, in_open=open_, rules=rules, bracing=t.stance.bracing
            )
    # the target's actions (G11, G12, G30)
    action_hits = 0
    if panicked:
        dice.record(Note(f"{t.name} is panicked: flees instead of its declared actions", "G15"))
        action_hits = dice.derive(
            "panic", partial(_panicked, sit, levels, result), key=("panicked", id(sit), levels)
        )
    elif lost_action:
        dice.record(Note(f"{t.name} dived and misses its next action", "G14"))
    elif t.actions or auto_hunker or t.in_lane == "crossing":
        steps = _plan(sit, _Round(levels, result, auto_hunker))
        action_hits = memo.branch(
            dice,
            "actions",
            partial(_actions, sit, steps),
            ("steps", memo.token(sit), steps),
            partial(_actions_table, sit, steps),
        )
    hits = fire_hits + action_hits
    if hits > rounds_total:
        dice.record(Note(f"hits capped at the {rounds_total} rounds fired", "G11"))
        hits = rounds_total
    if sit.shooters:
        dice.record(StateChange(t.name, "hits from the fire", 0, hits, "G11"))
        summary["hits"] = hits
        if levels and not panicked:
            dice.record(StateChange(t.name, "suppression levels", levels, 0, "G13"))
    outcome = SuppressionOutcome(
        levels, result, hits, min(fire_hits, hits), panicked, auto_hunker or lost_action, dive
    )
    return outcome, summary


def resolve_suppression(situation: SuppressionSituation, dice: DiceSource) -> Resolution:
    """Resolve one round of suppression against the target, with a full transcript."""
    mark = len(dice.events)
    for e in house_events(situation.rules, "suppression."):
        dice.record(e)
    outcome, summary = _run(situation, dice)
    return Resolution(RULESET_ID, outcome, Transcript.since(dice.events, mark), summary)


def suppression_outcomes(situation: SuppressionSituation) -> Any:
    """Every outcome of :func:`resolve_suppression` with its exact probability."""
    return outcome_distribution(lambda d: _run(situation, d)[0])


def suppression_odds(situation: SuppressionSituation) -> OddsReport:
    """Exact odds from the same code: levels, the check, hits, P(hit) by covering fire / lane."""
    w = suppression_outcomes(situation)
    t = situation.target
    check: dict[str, Fraction] = {}
    for name in CHECK_RESULTS:
        p = w.probability(lambda o, name=name: o.check == name)
        if p:
            check[name] = p
    dists: dict[str, Dist] = {}
    probs: dict[str, Fraction] = {}
    if situation.shooters:
        dists["levels"] = w.to_dist(lambda o: o.levels)
        dists["hits"] = w.to_dist(lambda o: o.hits)
    fire = {s.fire for s in situation.shooters}
    if fire & {"covering", "burst"}:
        probs["p_hit_covering_fire"] = w.probability(lambda o: o.fire_hits > 0)
    if "lane" in fire:
        probs["p_hit_lane"] = w.probability(lambda o: o.hits > 0 if t.in_lane != "no" else False)
    probs["p_panic"] = w.probability(lambda o: o.panicked)
    if situation.area is not None:
        probs["p_half_damage"] = w.probability(lambda o: o.dive == "half")
    p_hit = w.probability(lambda o: o.hits > 0) if situation.shooters else None
    outcomes = {f"check {k}": v for k, v in check.items()}
    return OddsReport(
        ruleset=RULESET_ID,
        title=f"graydawn suppression: {situation.name}",
        p_hit=p_hit,
        outcomes=outcomes,
        distributions=dists,
        tables={"check": check},
        probabilities=probs,
        truncated_mass=w.truncated_mass,
        notes=(
            "hits = hits on the target from the fire this round, at most the rounds fired (G11)",
        ),
    )
