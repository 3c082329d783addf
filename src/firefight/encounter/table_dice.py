"""The table's dice for an encounter, asked for roll by roll: a step, or the start's initiative.

Each answer runs the step (or the start) once on the faces so far
(:func:`firefight.dice.asking.ask`) and records nothing; the faces it ends with, given to
``Encounter.act`` (or ``Encounter.begin``) as scripted dice, record exactly that step. A step
runs on to the next decision, so a step that ends the round asks for the next round's
initiative too.
"""

from __future__ import annotations

from typing import Any

from firefight.core.table_dice import People, asked_json
from firefight.dice.asking import Asked, Program, ask
from firefight.encounter.engine import Engine
from firefight.encounter.record import Encounter, Step


def ask_step(
    enc: Encounter,
    action_id: str,
    faces: list[int],
    *,
    program: Program | None = None,
    seed: int | None = None,
) -> Asked[Step]:
    """What the action needs next of the table's dice, given ``faces`` so far (an unknown
    action or a finished fight is refused before any die is asked)."""
    enc.engine.find_action(enc.state, action_id)
    return ask(lambda d: enc.trial(action_id, d), faces, program=program, seed=seed)


def ask_start(
    engine: Engine, faces: list[int], *, program: Program | None = None, seed: int | None = None
) -> Asked[Encounter]:
    """What the start of the encounter (round 1's initiative) needs next of the table's dice."""
    return ask(lambda d: Encounter.begin(engine, d), faces, program=program, seed=seed)


def step_people(enc: Encounter, action_id: str) -> People:
    """Who may roll in the action's step: everyone in the fight, the actor and the target."""
    action = enc.engine.find_action(enc.state, action_id)
    return People(enc.state.names(), action.actor, action.target or "")


def start_people(engine: Engine) -> People:
    """Who may roll at the start: everyone in the fight (initiative names its roller)."""
    return People(engine.initial().names())


def step_json(enc: Encounter, action_id: str, asked: Asked[Step]) -> dict[str, Any]:
    """The API's answer for a step: the next group, or complete with the step's transcript."""
    lines = asked.result.lines if asked.result is not None else ()
    out = asked_json(asked, step_people(enc, action_id), lines)
    out["action"] = action_id
    return out


def start_json(engine: Engine, asked: Asked[Encounter]) -> dict[str, Any]:
    """The API's answer for the start: the next group, or complete with its transcript."""
    lines = asked.result.start_lines if asked.result is not None else ()
    return asked_json(asked, start_people(engine), lines)
