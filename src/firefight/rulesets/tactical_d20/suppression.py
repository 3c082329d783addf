"""Suppressing fire (T08): the cone, and one creature's Willpower check in or crossing it.

Readings: the check is d20 + Willpower against DC 12 + the shooter's proficiency with the weapon
(Firearms); meeting the DC passes by 0. A creature starting its turn unprotected inside fails ->
moves out unhurt; a partial pass lets it stay and act but it takes the weapon's damage; a
protected creature makes no check. The damage is the weapon's printed dice less the creature's
damage threshold (no region, burst or critical dice).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from firefight.core.transcript import Check, Modifier, Note, StateChange
from firefight.dice import DiceSource
from firefight.errors import RuleError
from firefight.rulesets.tactical_d20.attack import check_can_act
from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.models import Creature, SuppressionSituation, Weapon

#: The Willpower check's results, or why no check is made (T08).
ConeResult = Literal["fail", "partial", "pass", "outside", "protected"]
RESULTS: tuple[ConeResult, ...] = ("fail", "partial", "pass")


@dataclass(frozen=True)
class SuppressOutcome:
    """``result`` is fail / partial / pass, or outside / protected when no check is made."""

    result: ConeResult
    damage: int = 0


@dataclass(frozen=True)
class PreparedCone:
    shooter: Creature
    weapon: Weapon
    creature: Creature
    situation: SuppressionSituation
    cone_length: int
    dc: int
    loaded: int
    house: TacticalD20House


def check_suppressing_fire(weapon: Weapon, loaded: int, house: TacticalD20House) -> None:
    """Refuse suppressing fire from a weapon that is not automatic or lacks 15 rounds (T08)."""
    if weapon.kind != "firearm" or weapon.fire != "auto":
        raise RuleError(
            f"{weapon.name} is not an automatic weapon: only automatic weapons lay down "
            "suppressing fire (T07, T08)"
        )
    if loaded < house.suppress_rounds:
        raise RuleError(
            f"suppressing fire uses {house.suppress_rounds} rounds but {weapon.name} has "
            f"{loaded} loaded (T08)",
            tip="reload first",
        )


def prepare_cone(
    shooter: Creature,
    weapon: Weapon,
    creature: Creature,
    s: SuppressionSituation,
    house: TacticalD20House,
) -> PreparedCone:
    check_can_act(shooter, "lay down suppressing fire")
    loaded = weapon.magazine if s.loaded is None else s.loaded
    check_suppressing_fire(weapon, loaded, house)
    length = weapon.ranges[0] if s.barrier_at is None else min(weapon.ranges[0], s.barrier_at)
    dc = house.suppress_dc_base + shooter.skill(weapon.proficiency)
    return PreparedCone(shooter, weapon, creature, s, length, dc, loaded, house)


def roll_cone(p: PreparedCone, dice: DiceSource) -> SuppressOutcome:
    """The cone for one creature: who must check, the Willpower check, and its result."""
    house = p.house
    dice.record(
        StateChange(
            p.weapon.name, "rounds loaded", p.loaded, p.loaded - house.suppress_rounds, "T08"
        )
    )
    dice.record(
        Note(f"the cone reaches {p.cone_length} ft (first range threshold or barrier)", "T08")
    )
    return check_in_cone(p, dice)


def check_in_cone(p: PreparedCone, dice: DiceSource) -> SuppressOutcome:
    """One creature and a cone already laid (the encounter checks each turn without re-firing)."""
    s, house, c = p.situation, p.house, p.creature
    if s.distance > p.cone_length:
        dice.record(Note(f"{c.name} at {s.distance} ft is outside the cone: no check", "T08"))
        return SuppressOutcome("outside")
    if s.position == "starts_turn_inside" and s.protected:
        dice.record(Note(f"{c.name} starts its turn protected: no check", "T08"))
        return SuppressOutcome("protected")
    skill = p.weapon.proficiency
    dc_mods = (
        Modifier("base DC", house.suppress_dc_base, "Willpower DC", "suppressing fire", "T08"),
        Modifier(
            f"{skill} proficiency",
            p.dc - house.suppress_dc_base,
            "Willpower DC",
            p.shooter.name,
            "T08",
        ),
    )
    for m in dc_mods:
        dice.record(m)
    dice.record(
        Modifier("Willpower modifier", c.skill("willpower"), "Willpower check", c.name, "T08")
    )
    natural = dice.roll("1d20", why="Willpower check d20 (T08)").total
    total = natural + c.skill("willpower")
    margin = total - p.dc
    if margin < 0:
        result = "fail"
    elif margin <= house.suppress_partial_margin:
        result = "partial"
    else:
        result = "pass"
    dice.record(
        Check(
            "Willpower check",
            total,
            p.dc,
            margin >= 0,
            "T08",
            f"{result}: " + (f"missed by {-margin}" if margin < 0 else f"passed by {margin}"),
        )
    )
    if result == "fail":
        verdict = {
            "in_area": "cannot take actions inside the cone",
            "crossing": "cannot move through the cone",
            "starts_turn_inside": "must move out of the cone, taking no damage",
        }[s.position]
        dice.record(Note(f"{c.name} {verdict}", "T08"))
        return SuppressOutcome("fail")
    if result == "pass":
        dice.record(Note(f"{c.name} moves and acts as normal", "T08"))
        return SuppressOutcome("pass")
    raw = dice.roll(p.weapon.damage, why="the weapon's normal damage (T08)").total
    threshold = c.threshold(p.weapon.damage_type)
    if threshold:
        dice.record(
            Modifier(
                f"damage threshold ({p.weapon.damage_type})", -threshold, "damage", c.name, "T03"
            )
        )
    damage = max(0, raw - threshold)
    dice.record(Note(f"{c.name} goes on but takes {damage} damage", "T08"))
    dice.record(StateChange(c.name, "hp", c.hp, c.hp - damage, "T08"))
    return SuppressOutcome("partial", damage)


def summary(o: SuppressOutcome) -> dict[str, object]:
    """Key figures of suppressing fire for the CLI table and JSON."""
    return {"result": o.result, "damage": o.damage}
