"""The GM's hand on a tactical_d20 fight (``firefight.encounter.edits``): the fields a GM may
set, and how a creature joins, leaves, passes its turn and ends the round, in this text's terms.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args

from pydantic import Field

from firefight.core.turns import FightState, GmField
from firefight.core.validation import MAX_NUMBER
from firefight.dice import DiceSource
from firefight.rulesets.tactical_d20.encounter_state import Board, Fighter, Lasting

if TYPE_CHECKING:
    from firefight.rulesets.tactical_d20.encounter import TacticalTurns

#: Conditions (T05) a GM may give or take away; a Grapple's come with its group.
GmCondition = Literal["stunned", "arm_wound", "leg_wound", "prone"]
CONDITIONS: tuple[str, ...] = get_args(GmCondition)


def gm_fields(t: TacticalTurns, state: FightState, name: str) -> Mapping[str, GmField]:
    """Hit points (0 puts it down, as a hit does: it leaves its group and its cones), its
    conditions (T05: a stun until the end of its next turn, a wound until a Body check), the
    Reaction, disarmed, cover held (where the battlefield gives it some) and the feet to each
    other creature (``range.NAME``)."""
    c = t.roster[name]
    fields: dict[str, GmField] = {
        "hp": GmField(
            Annotated[int, Field(ge=0, le=c.creature.hp)], lambda s, n, v: _hp(t, s, n, v)
        ),
        "conditions": GmField(tuple[GmCondition, ...], _conditions),
        "reaction": GmField(bool),
        "disarmed": GmField(bool),
    }
    if c.cover != "none":
        fields["in_cover"] = GmField(bool)
    feet = Annotated[int, Field(ge=0, le=MAX_NUMBER)]
    for other in state.names():
        if other != name:
            fields[f"range.{other}"] = GmField(feet, _put_range(other))
    return fields


def _hp(t: TacticalTurns, state: FightState, name: str, hp: int) -> FightState:
    state = state.with_combatant(dataclasses.replace(state.combatant(name), hp=hp))
    if hp > 0:
        return state
    return t._tidy_groups(dataclasses.replace(state, board=state.board.drop(name)))


def _conditions(state: FightState, name: str, names: tuple[str, ...]) -> FightState:
    """The conditions as given: one it has keeps its duration, a new one lasts as a wound
    taken outside its turn does (a stun to the end of its next turn, the rest until a Body
    check)."""
    me: Fighter = state.combatant(name)
    kept = {e.condition: e for e in me.effects if e.condition not in CONDITIONS}
    old = {e.condition: e for e in me.effects}
    for cond in names:
        kept[cond] = old.get(cond) or Lasting(cond, 1 if cond == "stunned" else 0)
    effects = tuple(sorted(kept.values(), key=lambda e: e.condition))
    return state.with_combatant(dataclasses.replace(me, effects=effects))


def _put_range(other: str) -> Any:
    def put(state: FightState, name: str, feet: int) -> FightState:
        pair = (name, other) if name < other else (other, name)
        board: Board = state.board
        rows = tuple((p, feet if p == pair else d) for p, d in board.distances)
        return dataclasses.replace(state, board=dataclasses.replace(board, distances=rows))

    return put


def busy(state: FightState) -> str | None:
    board: Board = state.board
    if board.pending is not None:
        return f"{board.pending.reactor}'s Reaction to {board.pending.mover} leaving is owed"
    return None


def pass_turn(t: TacticalTurns, state: FightState, dice: DiceSource) -> FightState:
    """Its turn ends as "end turn" ends it (T02: timed conditions count down)."""
    return t._end_turn(state, state.decider(), dice)


def end_round(t: TacticalTurns, state: FightState, dice: DiceSource) -> FightState:
    """The acting creature's turn ends; nobody after it in the order acts this round."""
    ended = t._end_turn(state, state.decider(), dice, pass_on=False)
    return dataclasses.replace(ended, acting=None, phase="end of round")


def joined(state: FightState, newcomer: Any, start: FightState) -> FightState:
    """The newcomer takes the last place of the order, kept from round to round (T01: the
    order is rolled once); its distances come from the battlefield."""
    board: Board = state.board
    rows = tuple(r for r in start.board.distances if newcomer.name in r[0])
    return dataclasses.replace(
        state,
        combatants=(*state.combatants, newcomer),
        order=(*state.order, newcomer.name),
        board=dataclasses.replace(board, distances=tuple(sorted(board.distances + rows))),
    )


def left(t: TacticalTurns, state: FightState, name: str) -> FightState:
    """Gone: it leaves its group and every cone, its own cones end (as when it goes down)."""
    state = dataclasses.replace(
        state,
        combatants=tuple(c for c in state.combatants if c.name != name),
        order=tuple(n for n in state.order if n != name),
        board=state.board.drop(name),
    )
    return t._tidy_groups(state)
