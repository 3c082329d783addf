"""Melee actions (T10) as contests, and the fixed-DC checks of T05 and T09.

Readings: a contest is d20 + skill each, the actor must beat the opponent (a tie leaves things as
they were: house ``contest_ties``); escaping a restraint is an Athletics contest costing 2 Actions
like restraining; "your size or smaller" compares the size ladder tiny..huge.
"""

from __future__ import annotations

from dataclasses import dataclass

from firefight.core.transcript import Check, Modifier, Note, StateChange
from firefight.dice import DiceSource
from firefight.errors import RuleError, present
from firefight.rulesets.tactical_d20.attack import check_can_act
from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.models import SIZES, ContestAction, Creature

#: (skill, what success does, rule) per action.
ACTIONS: dict[str, tuple[str, str, str]] = {
    "disarm": ("athletics", "disarmed", "T10"),
    "restrain": ("athletics", "restrained", "T10"),
    "trip": ("athletics", "prone", "T10"),
    "escape": ("athletics", "free of the restraint", "T10"),
    "manacles": ("dexterity", "manacled", "T10"),
    "body_check": ("body", "shakes off its arm/leg wound", "T05"),
    "move_melee": ("athletics", "moves the Melee", "T09"),
}


@dataclass(frozen=True)
class ContestOutcome:
    success: bool


@dataclass(frozen=True)
class PreparedContest:
    action: ContestAction
    actor: Creature
    opponent: Creature | None
    dc: int | None
    actor_mods: tuple[Modifier, ...]
    opponent_mods: tuple[Modifier, ...]
    house: TacticalD20House


def action_cost(action: str, house: TacticalD20House) -> int:
    return {
        "disarm": house.melee_action_actions,
        "restrain": house.melee_action_actions,
        "trip": house.melee_action_actions,
        "escape": house.escape_actions,
        "manacles": house.manacles_actions,
        "body_check": house.body_check_actions,
        "move_melee": house.move_actions,
    }[action]


def prepare_contest(
    action: ContestAction,
    actor: Creature,
    opponent: Creature | None,
    distance: int,
    house: TacticalD20House,
) -> PreparedContest:
    skill, _, rule = ACTIONS[action]
    if action == "escape":
        if not actor.has("restrained"):
            raise RuleError(f"{actor.name} is not restrained: nothing to escape (T10)")
    elif action == "manacles":
        if opponent is not None and not opponent.has("restrained"):
            raise RuleError(f"manacles go on a restrained creature; {opponent.name} is not (T10)")
        if actor.has("stunned") or actor.has("restrained"):
            check_can_act(actor, "apply manacles")
    else:
        check_can_act(actor, action.replace("_", " "))
    fixed = {"body_check": house.body_check_dc, "move_melee": house.move_melee_dc}.get(action)
    if fixed is None and opponent is None:
        raise RuleError(
            f"{action} is a contest: name the opponent ({rule})",
            tip='opponent = "name" (in a turn step: target = "name")',
        )
    if fixed is None and distance > house.melee_reach:
        raise RuleError(
            f"{action} needs the opponent within {house.melee_reach} ft, not {distance} ({rule})"
        )
    if action == "body_check" and not (actor.has("arm_wound") or actor.has("leg_wound")):
        raise RuleError(f"{actor.name} has no arm or leg wound to shake off (T05)")
    if (
        action == "restrain"
        and opponent is not None
        and SIZES.index(opponent.size) > SIZES.index(actor.size)
    ):
        raise RuleError(
            f"{actor.name} ({actor.size}) can restrain only creatures its size or smaller, "
            f"not {opponent.name} ({opponent.size}) (T10)"
        )
    actor_mods = (Modifier(f"{skill} modifier", actor.skill(skill), "contest", actor.name, rule),)
    opp_mods: tuple[Modifier, ...] = ()
    if fixed is None and opponent is not None:
        opp_mods = (
            Modifier(f"{skill} modifier", opponent.skill(skill), "resistance", opponent.name, rule),
        )
        if action == "disarm" and opponent.has("restrained"):
            opp_mods += (
                Modifier(
                    "restrained: resisting disarm",
                    house.restrained_disarm_penalty,
                    "resistance",
                    opponent.name,
                    "T10",
                ),
            )
    return PreparedContest(
        action, actor, opponent if fixed is None else None, fixed, actor_mods, opp_mods, house
    )


def roll_contest(p: PreparedContest, dice: DiceSource) -> ContestOutcome:
    """Both sides roll d20 + skill (or the actor against a DC); the actor must win."""
    _, effect, rule = ACTIONS[p.action]
    for m in p.actor_mods + p.opponent_mods:
        dice.record(m)
    mine = dice.roll("1d20", why=f"{p.actor.name} {p.action} d20 ({rule})").total
    mine += sum(m.value for m in p.actor_mods)
    if p.opponent is None:
        dc = present(p.dc, f"{p.action} needs an opponent or a DC")
        won = mine >= dc
        dice.record(Check(p.action.replace("_", " "), mine, dc, won, rule))
    else:
        theirs = dice.roll("1d20", why=f"{p.opponent.name} resists d20 ({rule})").total
        theirs += sum(m.value for m in p.opponent_mods)
        won = mine > theirs or (mine == theirs and p.house.contest_ties == "attacker")
        tie = " (tie)" if mine == theirs else ""
        dice.record(
            Check(f"{p.action} contest", mine, theirs, won, rule, f"vs {p.opponent.name}{tie}")
        )
    who = p.opponent.name if p.opponent is not None else p.actor.name
    if not won:
        dice.record(Note(f"{p.action.replace('_', ' ')} fails", rule))
        return ContestOutcome(False)
    if p.action in ("disarm", "restrain", "trip", "manacles"):
        dice.record(StateChange(who, "condition", "-", effect, rule))
        if p.action == "restrain":
            dice.record(StateChange(p.actor.name, "condition", "-", "restraining", rule))
    else:
        dice.record(Note(f"{who} {effect}", rule))
    return ContestOutcome(True)


def summary(o: ContestOutcome) -> dict[str, object]:
    """The result of a contest for the CLI table and JSON."""
    return {"result": "success" if o.success else "failure"}
