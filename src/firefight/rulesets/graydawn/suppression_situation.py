"""The suppression situation file (``kind = "suppression"``): who fires how at whom, and what the
target does (format: docs/rules/graydawn.md, "Suppression situation files").

Validated at the edge, as the attack file (:mod:`.situation`) is: catalog names become full
tables (G41), then every shooter is checked against the rules it invokes (G09, G15, G29, G30),
so a bad file stops with one line naming the field before any die is rolled.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from firefight.core.loading import validate
from firefight.errors import InputError
from firefight.rulesets.graydawn.house import GraydawnHouse, SuppressionHouse
from firefight.rulesets.graydawn.models import Combatant
from firefight.rulesets.graydawn.situation import combatant_entry, file_catalog
from firefight.rulesets.graydawn.suppression import (
    FireKind,
    RangeBand,
    lane_max_width,
    range_band_for,
    unsuitable_reason,
)

# ------------------------------------------------------------------------------------------------
# Situation files of kind "suppression" (format: docs/rules/graydawn.md, "Suppression situations")
# ------------------------------------------------------------------------------------------------


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
    house: GraydawnHouse = GraydawnHouse()

    @property
    def rules(self) -> SuppressionHouse:
        return self.house.suppression


def suppression_rules(house: Any) -> SuppressionHouse:
    """The suppression numbers from the package house model (its ``suppression`` field)."""
    if isinstance(house, SuppressionHouse):
        return house
    sub = getattr(house, "suppression", None)
    return sub if isinstance(sub, SuppressionHouse) else SuppressionHouse()


# ------------------------------------------------------------------------------------------------
# Loading a situation file of kind "suppression"
# ------------------------------------------------------------------------------------------------
def _graydawn_house(house: Any) -> GraydawnHouse:
    if isinstance(house, GraydawnHouse):
        return house
    return GraydawnHouse(suppression=suppression_rules(house))


def _with_catalog_names(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """Catalog names (weapons, armour, cover; G41) become full tables before validation, the
    same way the attack half loads a combatant."""
    catalog = file_catalog(data, source)
    out = dict(data)
    shooters = out.get("shooters")
    if isinstance(shooters, list):
        out["shooters"] = [
            combatant_entry(s, catalog, f"{source}: shooters[{i}]") for i, s in enumerate(shooters)
        ]
    if "target" in out:
        out["target"] = combatant_entry(out["target"], catalog, f"{source}: target")
    return out


def shooter_rounds(s: Shooter, rules: SuppressionHouse) -> int:
    """Rounds a shooter spends on the target: given, a full magazine, or actions x ROF."""
    w = s.armed()
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


def shooter_band(s: Shooter, house: GraydawnHouse, source: str = "distance_m") -> str:
    """The range band of a shooter: given, or from its distance (G39)."""
    if s.range_band is not None:
        return s.range_band
    if s.distance_m is None:
        raise InputError(f"{s.name}: distance_m is missing", tip="add distance_m or range_band")
    return range_band_for(s.distance_m, s.armed(), house, source)


def lane_width_missing(shooter: str) -> InputError:
    """The error for a lane without a width (the loader refuses it first; situations built in
    code meet this one, under ``python -O`` too)."""
    return InputError(
        f"{shooter}: a firing lane needs lane_width_m (G30)", tip="add lane_width_m = 2 or more"
    )


def acted_against(a: TargetAction) -> int:
    """An ``act`` action's opponent (stat + skill) when it names no TN (G11)."""
    if a.opposed is None:
        raise InputError(
            f"target action {a.name or a.kind!r}: an 'act' action needs one of tn or opposed",
            tip="add tn = N or opposed = N",
        )
    return a.opposed


def _check_shooter(s: Shooter, i: int, source: str, house: GraydawnHouse) -> None:
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
    here) or a bare :class:`SuppressionHouse`.
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
