"""The GM's hand on a graydawn fight (``firefight.encounter.edits``): the fields a GM may set,
and how a combatant joins, leaves, passes its turn and ends the round, in this text's terms.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from firefight.core.turns import FightState, GmField, evolve
from firefight.core.validation import MAX_NUMBER, field_type
from firefight.dice import DiceSource
from firefight.rulesets.graydawn.encounter_setup import EncounterFields
from firefight.rulesets.graydawn.encounter_state import STANCES, STATUSES, Board
from firefight.rulesets.graydawn.encounter_turn import end_turn
from firefight.rulesets.graydawn.models import WoundTrack

if TYPE_CHECKING:
    from firefight.rulesets.graydawn.encounter import GraydawnTurns

#: Wound track fields of :class:`.encounter_state.Fighter` and their :class:`WoundTrack` names.
_TRACK = {"minor": "minor", "wounding": "wounding", "crippling": "crippling", "stun_marks": "stun"}


def gm_fields(t: GraydawnTurns, state: FightState, name: str) -> Mapping[str, GmField]:
    """The wound track's marks (G21), the status (G18/G19), luck left (G17), the gun (rounds
    in the magazine up to its size, spare magazines, jammed: G06/G39), stance (G32), metres to
    its cover, suppression levels (G10) and the metres to each other combatant
    (``range.NAME``)."""
    e = t.entries[name]
    w = e.combatant.armed()
    fields: dict[str, GmField] = {
        field: GmField(field_type(WoundTrack, track)) for field, track in _TRACK.items()
    }
    fields["status"] = GmField(Literal[STATUSES])
    fields["luck"] = GmField(Annotated[int, Field(ge=0, le=e.combatant.luck_available)])
    if w.is_firearm:
        fields["ammo"] = GmField(Annotated[int, Field(ge=0, le=w.magazine)])
        fields["spares"] = GmField(field_type(EncounterFields, "spare_magazines"))
        fields["jammed"] = GmField(bool)
    fields["stance"] = GmField(Literal[STANCES])
    if e.cover is not None:
        fields["cover_m"] = GmField(field_type(EncounterFields, "cover_m"))
    fields["levels"] = GmField(Annotated[int, Field(ge=0, le=1000)])
    metres = Annotated[float, Field(ge=0, le=MAX_NUMBER)]
    for other in state.names():
        if other != name:
            fields[f"range.{other}"] = GmField(metres, _put_range(other))
    return fields


def _put_range(other: str) -> Any:
    def put(state: FightState, name: str, metres: float) -> FightState:
        return evolve(state, board=state.board.with_distance(name, other, float(metres)))

    return put


def busy(state: FightState) -> str | None:
    """A panic's re-rolled initiative waits for the end of the suppression checks."""
    if type(state.board) is not Board:
        return "initiative re-rolls wait for the end of the suppression checks"
    return None


def pass_turn(t: GraydawnTurns, state: FightState, dice: DiceSource) -> FightState:
    """Asked to declare suppressing fire (G16): it declares none. In its turn: the turn ends
    as a turn ends (G13: the suppression on it lifts), and the round goes on."""
    name = state.decider()
    if state.phase == "declare":
        board = state.board
        asked = Board(board.distances, (*board.asked, name), board.declared)
        return t.advance(evolve(state, board=asked, acting=None), dice)
    return t.advance(evolve(end_turn(t, state, name, dice), acting=None), dice)


def end_round(t: GraydawnTurns, state: FightState, dice: DiceSource) -> FightState:
    """Nobody else acts this round; its end as the last turn brings it (bleeding, G19)."""
    people = tuple(f if f.acted else evolve(f, acted=True, pending=()) for f in state.combatants)
    return t._end_round(evolve(state, combatants=people), dice)


def joined(state: FightState, newcomer: Any, start: FightState) -> FightState:
    """The newcomer acts after everyone this round and rolls initiative at the next round's
    start, as in round 1 (G33); its distances come from the battlefield."""
    rows = tuple(d for d in start.board.distances if newcomer.name in d[:2])
    board = state.board
    return evolve(
        state,
        combatants=(*state.combatants, evolve(newcomer, reroll=True)),
        order=(*state.order, newcomer.name),
        board=Board(board.distances + rows, board.asked, board.declared),
    )


def left(state: FightState, name: str) -> FightState:
    """Gone: its declared fire, and fire declared at it, are no more; whoever it grappled or
    flanked is free of it."""
    board = state.board
    declared = tuple(d for d in board.declared if name not in (d.shooter, d.target))
    people = []
    for f in state.combatants:
        if f.name == name:
            continue
        if f.grappled_by == name or name in f.flanked_by:
            f = evolve(
                f,
                grappled_by=None if f.grappled_by == name else f.grappled_by,
                flanked_by=tuple(n for n in f.flanked_by if n != name),
            )
        people.append(f)
    return evolve(
        state,
        combatants=tuple(people),
        order=tuple(n for n in state.order if n != name),
        board=Board(board.distances, board.asked, declared),
    )
