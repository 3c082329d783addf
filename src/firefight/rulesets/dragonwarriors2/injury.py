"""Injury: stun, knock-out and death (D06, D07). The checks that follow a wound, each a dice
request followed by a pure decision (:func:`judge_death`, :func:`judge_stun`) that the odds reuse.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from firefight.core.transcript import Check, Note, StateChange
from firefight.dice import DiceSource
from firefight.rulesets.dragonwarriors2.contests import DoubleSixHook, plus_minus
from firefight.rulesets.dragonwarriors2.gear import Fighter
from firefight.rulesets.dragonwarriors2.house import DragonWarriors2House
from firefight.rulesets.dragonwarriors2.models import Options

Status = Literal["unhurt", "wounded", "stunned", "knocked out", "dead"]


def death_check_due(wounds_before: int, toughness: int) -> bool:
    """Reading of D07: the check is due when wounds ALREADY exceeded Toughness before this wound
    (the example: Lennox goes from 7 to 16 against Toughness 10 with no death check)."""
    return wounds_before > toughness


def judge_death(options: Options, toughness: int, wounds: int, roll: int) -> tuple[bool, int, int]:
    """(survives, rolled total, number to meet). Ties hold, as in the text's stun draw (D02)."""
    if options.death_check == "toughness roll":
        total = toughness + roll
        return total >= wounds, total, wounds
    total = wounds + roll
    return total <= toughness, total, toughness


def judge_stun(
    house: DragonWarriors2House, toughness: int, wounds: int, roll: int
) -> tuple[Status, int, int]:
    """(result, Toughness total, Wounds + 5): fail -> stunned, fail by more than 5 -> out (D06)."""
    total = toughness + roll
    target = wounds + house.stun_target_bonus
    if total >= target:
        return "wounded", total, target
    if target - total > house.knock_out_margin:
        return "knocked out", total, target
    return "stunned", total, target


def injure(
    dice: DiceSource,
    victim: Fighter,
    new_wounds: int,
    options: Options,
    house: DragonWarriors2House,
    hook: DoubleSixHook | None = None,
) -> tuple[Fighter, Status]:
    """Add wounds, then the death check (if due) and the stun check, on real dice."""
    before = victim.wounds
    after = before + new_wounds
    dice.record(StateChange(victim.name, "wounds", before, after, "D04"))
    victim = replace(victim, wounds=after)
    t = victim.toughness
    if death_check_due(before, t):
        roll = plus_minus(dice, victim.name, "death check", hook)
        alive, total, target = judge_death(options, t, after, roll)
        what = "Toughness vs Wounds" if options.death_check == "toughness roll" else "Wounds vs T."
        detail = "survives" if alive else "dies of his wounds"
        dice.record(
            Check(f"{victim.name} death check ({what})", total, target, alive, "D07", detail)
        )
        if not alive:
            dice.record(StateChange(victim.name, "dead", False, True, "D07"))
            return replace(victim, dead=True), "dead"
    roll = plus_minus(dice, victim.name, "stun check", hook)
    result, total, target = judge_stun(house, t, after, roll)
    passed = result == "wounded"
    detail = {
        "wounded": "keeps his wits" + (" (a draw holds)" if total == target else ""),
        "stunned": f"failed by {target - total}: stunned",
        "knocked out": f"failed by {target - total} (more than {house.knock_out_margin}): out",
    }[result]
    dice.record(
        Check(
            f"{victim.name} stun check (Toughness vs Wounds + {house.stun_target_bonus})",
            total,
            target,
            passed,
            "D06",
            detail,
        )
    )
    if result == "stunned":
        if victim.stunned:
            dice.record(Note(f"{victim.name} is stunned again, until this time next turn", "D06"))
        else:
            dice.record(StateChange(victim.name, "stunned", False, True, "D06"))
        return replace(victim, stunned=True), result
    if result == "knocked out":
        dice.record(StateChange(victim.name, "knocked out", False, True, "D06"))
        return replace(victim, knocked_out=True), result
    return victim, result
