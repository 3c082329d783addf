"""Range bands (G39, G26, G05): listed range = long, medium = half, close = a quarter.

Raw bands by distance ``d`` against the listed range ``L``: close <= L/4, medium <= L/2, long <= L,
extreme <= 2L (reading: the text bounds extreme only through bracing's "double extreme = 4x
listed"), double extreme <= 4L, quadruple extreme <= 8L. Bracing shifts one band shorter and allows
shots to 4L; a scope (bracing only) shifts one more and allows 8L. The effective band must end at
extreme; shotguns have no extreme band at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from firefight.errors import InputError
from firefight.rulesets.graydawn.house import GraydawnHouse
from firefight.rulesets.graydawn.models import Weapon

BAND_NAMES = ("close", "medium", "long", "extreme", "double extreme", "quadruple extreme")
CLOSE, MEDIUM, LONG, EXTREME = 0, 1, 2, 3


@dataclass(frozen=True)
class RangeBand:
    """Where a shot falls: the raw band, the band after bracing/scope, and why."""

    raw: int
    effective: int
    listed_m: int
    shift: int
    scope_used: bool
    point_blank: bool = False

    @property
    def name(self) -> str:
        return "point-blank" if self.point_blank else BAND_NAMES[self.effective]

    @property
    def tn_index(self) -> int:
        """Index into the TN table (G05): 0 point-blank, 1 short/close ... 4 extreme."""
        return 0 if self.point_blank else self.effective + 1


def raw_band(distance: float, listed: int, house: GraydawnHouse) -> int:
    """The band of ``distance`` before any shift (0 close .. 5 quadruple extreme, 6 beyond)."""
    edges = (
        listed / house.close_range_divisor,
        listed / house.medium_range_divisor,
        float(listed),
        listed * 2.0,
        listed * 4.0,
        listed * 8.0,
    )
    for i, edge in enumerate(edges):
        if distance <= edge:
            return i
    return len(edges)


def range_band(
    weapon: Weapon,
    distance: float,
    *,
    bracing: bool,
    use_scope: bool,
    point_blank: bool,
    house: GraydawnHouse,
    source: str = "attack.range_m",
) -> RangeBand:
    """The effective band of a ranged shot, or one clear line if it cannot be taken."""
    if point_blank:
        return RangeBand(0, 0, weapon.range_m, 0, False, point_blank=True)
    scope_used = weapon.scope and bracing and use_scope
    listed = weapon.range_m
    if weapon.scope and weapon.scope_blocks_irons and not scope_used:
        listed = min(listed, house.pistol_range_m)
    raw = raw_band(distance, listed, house)
    shift = (1 if bracing else 0) + (1 if scope_used else 0)
    if scope_used:
        limit = house.scoped_max_range_multiple
    elif bracing:
        limit = house.bracing_max_range_multiple
    else:
        limit = house.unbraced_max_range_multiple
    if distance > listed * limit:
        raise InputError(
            f"{source}: {distance:g} m is beyond the {listed * limit} m this shot can reach "
            f"({weapon.name}, listed {listed} m, x{limit})",
            tip="brace (G32) or use a scope (G39) to reach further, or close in",
        )
    effective = max(0, raw - shift)
    if effective > EXTREME:
        raise InputError(f"{source}: {distance:g} m is beyond extreme range for this shot")
    if weapon.kind == "shotgun" and effective > LONG:
        raise InputError(
            f"{source}: shotguns have no extreme range (G26): {distance:g} m > {listed} m",
            tip="past long range the pellets do no substantial damage",
        )
    return RangeBand(raw, effective, listed, shift, scope_used)
