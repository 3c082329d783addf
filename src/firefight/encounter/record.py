"""The record of an encounter: the scenario plus, per step, the action and the faces it consumed.

Replaying the faces as scripted dice rebuilds every state exactly, so undo is "drop the last step"
(the states are kept in memory as snapshots while a record is open) and a saved file needs no
state at all to be trusted: loading replays it, and a file whose steps do not replay, or whose
replay disagrees with the state it saved, was edited or damaged and is refused.

Saves are atomic: a temporary file in the same folder, flushed and fsynced, then ``os.replace``,
so an interrupted save leaves the previous file whole.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firefight.core.files import write_text_atomically
from firefight.core.transcript import Transcript
from firefight.core.turns import FightState, state_from_json, state_to_json
from firefight.dice import DiceSource, ScriptedDice
from firefight.encounter.engine import Engine
from firefight.encounter.scenario import build_scenario
from firefight.errors import FirefightError, InputError

FORMAT = "firefight-encounter"
VERSION = 1


@dataclass(frozen=True)
class Step:
    """One step of the record: who did what, on which faces, and the transcript it gave."""

    round: int
    actor: str
    action: str
    label: str
    faces: tuple[int, ...]
    events: tuple[dict[str, Any], ...]
    #: Transcript lines (for narration), kept beside the JSON events.
    lines: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "actor": self.actor,
            "action": self.action,
            "label": self.label,
            "faces": list(self.faces),
            "events": list(self.events),
            "lines": list(self.lines),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Step:
        return cls(
            round=int(data["round"]),
            actor=str(data["actor"]),
            action=str(data["action"]),
            label=str(data.get("label", "")),
            faces=tuple(int(f) for f in data["faces"]),
            events=tuple(data.get("events", ())),
            lines=tuple(str(x) for x in data.get("lines", ())),
        )


@dataclass
class Encounter:
    """A fight being played: its engine, the faces of the start, its steps and its redo stack."""

    engine: Engine
    start_faces: tuple[int, ...]
    start_lines: tuple[str, ...]
    steps: list[Step] = field(default_factory=list)
    redo_stack: list[Step] = field(default_factory=list)
    #: states[0] is the settled start, states[i] the state after step i.
    states: list[FightState] = field(default_factory=list)

    # -- building ------------------------------------------------------------------------------
    @classmethod
    def begin(cls, engine: Engine, dice: DiceSource) -> Encounter:
        """Settle the scenario to its first decision on ``dice`` (round 1's initiative)."""
        mark_e, mark_t = len(dice.events), len(_tape(dice))
        state = engine.start(dice)
        lines = Transcript.since(dice.events, mark_e).lines()
        return cls(engine, tuple(_tape(dice)[mark_t:]), tuple(lines), states=[state])

    @property
    def state(self) -> FightState:
        return self.states[-1]

    def act(self, action_id: str, dice: DiceSource, *, faces_of_this_step: bool = False) -> Step:
        """Resolve one legal action on ``dice``; the redo stack is cleared.

        ``faces_of_this_step``: the scripted dice hold this step's faces only (the table's
        faces typed for it), so a face left over is refused before anything is recorded and the
        encounter stays as it was. Without it, scripted dice may run on into later steps.
        """
        step, state = self._play(self.state, action_id, dice)
        if faces_of_this_step and isinstance(dice, ScriptedDice):
            dice.check_all_used()
        self.steps.append(step)
        self.states.append(state)
        self.redo_stack.clear()
        return step

    def trial(self, action_id: str, dice: DiceSource) -> Step:
        """The step the action would record on ``dice``, recording nothing (the table's dice
        asked for roll by roll run it once per answer)."""
        return self._play(self.state, action_id, dice)[0]

    def _play(self, state: FightState, action_id: str, dice: DiceSource) -> tuple[Step, FightState]:
        action = self.engine.find_action(state, action_id)
        mark_e, mark_t = len(dice.events), len(_tape(dice))
        after = self.engine.step(state, action, dice)
        events = Transcript.since(dice.events, mark_e)
        step = Step(
            round=state.round,
            actor=action.actor,
            action=action.id,
            label=action.label,
            faces=tuple(_tape(dice)[mark_t:]),
            events=tuple(events.to_json()),
            lines=tuple(events.lines()),
        )
        return step, after

    def undo(self) -> Step:
        if not self.steps:
            raise InputError("nothing to undo: the encounter is at its start")
        step = self.steps.pop()
        self.states.pop()
        self.redo_stack.append(step)
        return step

    def redo(self) -> Step:
        if not self.redo_stack:
            raise InputError("nothing to redo", tip="redo follows an undo")
        step = self.redo_stack.pop()
        dice = ScriptedDice(step.faces)
        again, state = self._play(self.state, step.action, dice)
        dice.check_all_used()
        self.steps.append(again)
        self.states.append(state)
        return again

    # -- the record as JSON ------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "scenario": dict(self.engine.scenario.data),
            "source": self.engine.scenario.spec.source,
            "start": {"faces": list(self.start_faces), "lines": list(self.start_lines)},
            "steps": [s.to_json() for s in self.steps],
            "redo": [s.to_json() for s in self.redo_stack],
            "state": state_to_json(self.state),
        }

    @classmethod
    def from_json(cls, data: Any, where: str) -> Encounter:
        """Rebuild by replay; refuse a record that is foreign, newer, edited or damaged."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InputError(f"{where}: not a firefight encounter record", tip=_START_TIP)
        version = data.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise InputError(
                f"{where}: damaged record (its format version is {version!r}, not a whole "
                "number from 1)",
                tip="give the file as firefight saved it",
            )
        if version > VERSION:
            raise InputError(
                f"{where}: record format version {version!r} is newer than this firefight's "
                f"({VERSION})",
                tip="upgrade firefight to open it",
            )
        try:
            scenario = build_scenario(data["scenario"], str(data["source"]))
            engine = Engine(scenario)
            faces = tuple(int(f) for f in data["start"]["faces"])
            steps = [Step.from_json(s) for s in data["steps"]]
            redo = [Step.from_json(s) for s in data.get("redo", [])]
            saved = data["state"]
        except FirefightError as err:
            raise InputError(f"{where}: the record's scenario is refused: {err.message}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise InputError(f"{where}: damaged record ({type(err).__name__}: {err})") from None
        return cls.replay(engine, faces, steps, redo, saved, where)

    @classmethod
    def replay(
        cls,
        engine: Engine,
        start_faces: tuple[int, ...],
        steps: list[Step],
        redo: list[Step],
        saved_state: Any,
        where: str,
    ) -> Encounter:
        n = 0
        try:
            dice = ScriptedDice(start_faces)
            enc = cls.begin(engine, dice)
            dice.check_all_used()
            for n, step in enumerate(steps, start=1):  # noqa: B007 - n names the bad step
                dice = ScriptedDice(step.faces)
                enc.act(step.action, dice)
                dice.check_all_used()
                if enc.steps[-1].events != step.events:
                    raise InputError("its transcript differs")
        except FirefightError as err:
            where_step = f"step {n}" if n else "the start"
            raise InputError(
                f"{where}: the record does not replay at {where_step} ({err.message})",
                tip="the file was edited or damaged; start the encounter again",
            ) from None
        enc.redo_stack = list(redo)
        if saved_state is not None and state_to_json(enc.state) != saved_state:
            raise InputError(
                f"{where}: the saved state differs from its replay",
                tip="the file was edited or damaged; start the encounter again",
            )
        return enc

    def state_types(self) -> tuple[type, ...]:
        return self.engine.turns.state_types

    def decode_state(self, data: Any) -> FightState:
        state: FightState = state_from_json(data, self.state_types())
        return state


_START_TIP = "make one with `firefight encounter start SCENARIO.toml --save FILE`"


def _tape(dice: DiceSource) -> list[int]:
    tape: list[int] = getattr(dice, "tape", [])
    return tape


# ----------------------------------------------------------------------------------------------
# Files
# ----------------------------------------------------------------------------------------------
def save_record(enc: Encounter, path: str | Path) -> None:
    """Write the record atomically: temporary file, flush, fsync, ``os.replace``."""
    write_text_atomically(path, json.dumps(enc.to_json(), indent=1, sort_keys=True) + "\n")


def load_record(path: str | Path) -> Encounter:
    """Read and replay a saved record, or one line saying why it cannot be trusted."""
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such record", tip=_START_TIP)
    try:
        text = p.read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InputError(
            f"{p}: not a readable record ({type(err).__name__})",
            tip="the file is truncated or not JSON; " + _START_TIP,
        ) from None
    return Encounter.from_json(data, str(p))
