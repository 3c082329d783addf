"""The record of an encounter: the scenario plus, per step, the action and the faces it consumed.

Replaying the faces as scripted dice rebuilds every state exactly, so undo is "drop the last step"
(the states are kept in memory as snapshots while a record is open) and a saved file needs no
state at all to be trusted: loading replays it, and a file whose steps do not replay, or whose
replay disagrees with the state it saved, was edited or damaged and is refused.

A step is an action or one of the GM's edits (:mod:`firefight.encounter.edits`: a field set, a
combatant added or removed, the order changed, a turn skipped, a round ended); both replay on
their faces. An addition rebuilds the scenario with the newcomer, so the encounter keeps the
engine each step left it under (undo goes back to the one before).

Saves are atomic: a temporary file in the same folder, flushed and fsynced, then ``os.replace``,
so an interrupted save leaves the previous file whole. A save over a file refuses to replace it
when another process changed it since it was read (:func:`open_record`, :func:`save_over`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from firefight.core.files import write_text_atomically
from firefight.core.transcript import Transcript
from firefight.core.turns import FightState, state_from_json, state_to_json
from firefight.core.validation import MAX_NUMBER, clip, clip_path, field_path
from firefight.dice import DiceSource, ScriptedDice
from firefight.encounter.edits import GM, Edit, apply_edit, edit_json, parse_edit
from firefight.encounter.engine import Engine
from firefight.encounter.scenario import build_scenario
from firefight.errors import FirefightError, InputError

FORMAT = "firefight-encounter"
#: 2: steps may be the GM's edits (a step with an ``edit`` key); version 1 records still load.
VERSION = 2


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
    #: The GM's edit this step made (its JSON, :func:`~firefight.encounter.edits.edit_json`);
    #: None for an action.
    edit: Mapping[str, Any] | None = None
    #: What the players' log shows of an edit (never a hidden value); not kept in the record.
    public: str = field(default="", compare=False)

    def to_json(self) -> dict[str, Any]:
        out = {
            "round": self.round,
            "actor": self.actor,
            "action": self.action,
            "label": self.label,
            "faces": list(self.faces),
            "events": list(self.events),
            "lines": list(self.lines),
        }
        if self.edit is not None:
            out["edit"] = dict(self.edit)
        return out

    @property
    def is_edit(self) -> bool:
        """One of the GM's edits, not an action."""
        return self.edit is not None

    @classmethod
    def from_json(cls, data: Any, where: str = "step") -> Step:
        """A step as a record keeps it, checked strictly: a face or round that is not a whole
        number (``4.7``, ``Infinity``, ``true``), a missing or unknown key, is one line."""
        try:
            m = _StepModel.model_validate(data, strict=True)
        except ValidationError as err:
            raise _damaged(where, err) from None
        return cls(
            round=m.round,
            actor=m.actor,
            action=m.action,
            label=m.label,
            faces=tuple(m.faces),
            events=tuple(m.events),
            lines=tuple(m.lines),
            edit=m.edit,
        )


Face = Annotated[StrictInt, Field(ge=-MAX_NUMBER, le=MAX_NUMBER)]


class _StepModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    round: Annotated[StrictInt, Field(ge=0, le=MAX_NUMBER)]
    actor: StrictStr
    action: StrictStr
    label: StrictStr = ""
    faces: list[Face]
    events: list[dict[str, Any]] = []
    lines: list[StrictStr] = []
    edit: dict[str, Any] | None = None


class _StartModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    faces: list[Face]
    lines: list[StrictStr] = []


def _damaged(where: str, err: ValidationError) -> InputError:
    first = err.errors()[0]
    loc = field_path(list(first.get("loc", ())))
    value = first.get("input")
    shown = "" if isinstance(value, (dict, list)) else f" ({clip(json.dumps(value), 24)})"
    return InputError(
        f"{where}: damaged record: {loc}: {first.get('msg', 'not valid').lower()}{shown}",
        tip="give the file as firefight saved it",
    )


@dataclass
class Encounter:
    """A fight being played: its engine, the faces of the start, its steps and its redo stack.

    ``engine`` is the engine the fight goes on under now: the scenario's, or the one an
    addition rebuilt (the first is kept for the record, and each addition's previous engine for
    its undo)."""

    engine: Engine
    start_faces: tuple[int, ...]
    start_lines: tuple[str, ...]
    steps: list[Step] = field(default_factory=list)
    redo_stack: list[Step] = field(default_factory=list)
    #: states[0] is the settled start, states[i] the state after step i.
    states: list[FightState] = field(default_factory=list)
    #: The engine before step i (its number from 1) where that step changed it (an addition).
    engines_before: dict[int, Engine] = field(default_factory=dict)

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

    @property
    def first_engine(self) -> Engine:
        """The engine of the scenario as the record gives it (before any addition)."""
        return self.engines_before[min(self.engines_before)] if self.engines_before else self.engine

    def act(self, action_id: str, dice: DiceSource, *, faces_of_this_step: bool = False) -> Step:
        """Resolve one legal action on ``dice``; the redo stack is cleared.

        ``faces_of_this_step``: the scripted dice hold this step's faces only (the table's
        faces typed for it), so a face left over is refused before anything is recorded and the
        encounter stays as it was. Without it, scripted dice may run on into later steps.
        """
        step, state = self._play(self.state, action_id, dice)
        if faces_of_this_step and isinstance(dice, ScriptedDice):
            dice.check_all_used()
        self._push(step, state, self.engine)
        self.redo_stack.clear()
        return step

    def trial(self, action_id: str, dice: DiceSource) -> Step:
        """The step the action would record on ``dice``, recording nothing (the table's dice
        asked for roll by roll run it once per answer); it runs under the engine the fight
        goes on under now."""
        return self._play(self.state, action_id, dice)[0]

    def edit(self, edit: Edit, dice: DiceSource, *, faces_of_this_step: bool = False) -> Step:
        """Apply one of the GM's edits on ``dice`` (a skipped turn or an ended round may roll
        the next round's initiative) as a step; the redo stack is cleared. Refused edits change
        nothing (see :meth:`act` for ``faces_of_this_step``)."""
        step, state, engine = self._edited(self.state, edit, dice)
        if faces_of_this_step and isinstance(dice, ScriptedDice):
            dice.check_all_used()
        self._push(step, state, engine)
        self.redo_stack.clear()
        return step

    def _push(self, step: Step, state: FightState, engine: Engine) -> None:
        self.steps.append(step)
        self.states.append(state)
        if engine is not self.engine:
            self.engines_before[len(self.steps)] = self.engine
            self.engine = engine

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

    def _edited(
        self, state: FightState, edit: Edit, dice: DiceSource
    ) -> tuple[Step, FightState, Engine]:
        mark_e, mark_t = len(dice.events), len(_tape(dice))
        done = apply_edit(self.engine, state, edit, dice)
        events = Transcript.since(dice.events, mark_e)
        step = Step(
            round=state.round,
            actor=GM,
            action=f"gm:{edit.kind}",
            label=done.label,
            faces=tuple(_tape(dice)[mark_t:]),
            events=tuple(events.to_json()),
            lines=tuple(events.lines()),
            edit=edit_json(edit),
            public=done.public,
        )
        return step, done.state, done.engine

    def _again(self, step: Step, dice: DiceSource, where: str) -> tuple[Step, FightState, Engine]:
        """``step`` played again on ``dice`` (a replay or a redo)."""
        if step.edit is None:
            again, state = self._play(self.state, step.action, dice)
            return again, state, self.engine
        return self._edited(self.state, parse_edit(step.edit, where), dice)

    def undo(self) -> Step:
        if not self.steps:
            raise InputError("nothing to undo: the encounter is at its start")
        before = self.engines_before.pop(len(self.steps), None)
        if before is not None:
            self.engine = before
        step = self.steps.pop()
        self.states.pop()
        self.redo_stack.append(step)
        return step

    def redo(self) -> Step:
        if not self.redo_stack:
            raise InputError("nothing to redo", tip="redo follows an undo")
        step = self.redo_stack[-1]
        dice = ScriptedDice(step.faces)
        again, state, engine = self._again(step, dice, "redo")
        dice.check_all_used()
        self.redo_stack.pop()
        self._push(again, state, engine)
        return again

    # -- the record as JSON ------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        first = self.first_engine.scenario
        return {
            "format": FORMAT,
            "version": VERSION,
            "scenario": dict(first.data),
            "source": first.spec.source,
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
                f"{where}: damaged record (its format version is {clip(repr(version), 24)}, "
                "not a whole number from 1)",
                tip="give the file as firefight saved it",
            )
        if version > VERSION:
            raise InputError(
                f"{where}: record format version {clip(version, 24)} is newer than this "
                f"firefight's ({VERSION})",
                tip="upgrade firefight to open it",
            )
        for key in ("scenario", "source", "start", "steps"):
            if key not in data:
                raise InputError(f"{where}: damaged record (no {key!r})", tip=_START_TIP)
        if not isinstance(data["scenario"], dict) or not isinstance(data["source"], str):
            raise InputError(f"{where}: damaged record (its scenario or source)", tip=_START_TIP)
        try:
            start = _StartModel.model_validate(data["start"], strict=True)
        except ValidationError as err:
            raise _damaged(f"{where}: start", err) from None
        steps = [
            Step.from_json(s, f"{where}: steps[{i}]")
            for i, s in enumerate(_list(data, "steps", where))
        ]
        redo = [
            Step.from_json(s, f"{where}: redo[{i}]")
            for i, s in enumerate(_list(data, "redo", where))
        ]
        try:
            scenario = build_scenario(data["scenario"], data["source"])
        except FirefightError as err:
            raise InputError(f"{where}: the record's scenario is refused: {err.message}") from None
        except RecursionError:
            raise InputError(f"{where}: the record's scenario nests too deeply") from None
        return cls.replay(
            Engine(scenario), tuple(start.faces), steps, redo, data.get("state"), where
        )

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
        """Play the record again on its faces: every step (action or edit) must give its own
        transcript, and so must every step on the redo stack, played on from the last step
        (then taken back), so ``redo`` never plays a roll nobody made."""
        n = 0
        label = "step"
        try:
            dice = ScriptedDice(start_faces)
            enc = cls.begin(engine, dice)
            dice.check_all_used()
            for n, step in enumerate(steps, start=1):  # noqa: B007 - n names the bad step
                enc._replayed(step, where)
            label = "redo entry"
            for n, step in enumerate(reversed(redo), start=1):  # noqa: B007
                enc._replayed(step, where)
            for _ in redo:
                enc.undo()
        except FirefightError as err:
            at = f"{label} {n}" if n else "the start"
            raise InputError(
                f"{where}: the record does not replay at {at} ({err.message})",
                tip="the file was edited or damaged; start the encounter again",
            ) from None
        enc.redo_stack = list(redo)
        if saved_state is not None and state_to_json(enc.state) != saved_state:
            raise InputError(
                f"{where}: the saved state differs from its replay",
                tip="the file was edited or damaged; start the encounter again",
            )
        return enc

    def _replayed(self, step: Step, where: str) -> None:
        """``step`` played again on its own faces and checked against its transcript."""
        dice = ScriptedDice(step.faces)
        again, state, engine = self._again(step, dice, where)
        dice.check_all_used()
        if again.events != step.events:
            raise InputError("its transcript differs")
        self._push(again, state, engine)

    def state_types(self) -> tuple[type, ...]:
        return self.engine.turns.state_types

    def decode_state(self, data: Any) -> FightState:
        state: FightState = state_from_json(data, self.state_types())
        return state


def _list(data: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise InputError(f"{where}: damaged record ({key} is not a list)", tip=_START_TIP)
    return value


_START_TIP = "make one with `firefight encounter start SCENARIO.toml --save FILE`"


def _tape(dice: DiceSource) -> list[int]:
    tape: list[int] = getattr(dice, "tape", [])
    return tape


# ----------------------------------------------------------------------------------------------
# Files
# ----------------------------------------------------------------------------------------------
def save_record(enc: Encounter, path: str | Path) -> None:
    """Write the record atomically: temporary file, flush, fsync, ``os.replace``."""
    write_text_atomically(path, _record_text(enc))


def _record_text(enc: Encounter) -> str:
    return json.dumps(enc.to_json(), indent=1, sort_keys=True) + "\n"


def load_record(path: str | Path) -> Encounter:
    """Read and replay a saved record, or one line saying why it cannot be trusted."""
    return open_record(path).enc


@dataclass
class Opened:
    """A record read from a file, with the digest of the bytes read (see :func:`save_over`)."""

    enc: Encounter
    path: Path
    digest: str


def open_record(path: str | Path) -> Opened:
    """Read and replay a saved record, remembering what was read so that :func:`save_over`
    can refuse to replace a file another process changed meanwhile."""
    p = Path(path)
    name = clip_path(p)
    try:
        if not p.is_file():
            raise InputError(f"{name}: no such record", tip=_START_TIP)
        raw = p.read_bytes()
    except OSError as err:
        raise InputError(
            f"{name}: cannot be read ({err.strerror or type(err).__name__})",
            tip="check the path",
        ) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise InputError(
            f"{name}: not a readable record ({type(err).__name__})",
            tip="the file is truncated or not JSON; " + _START_TIP,
        ) from None
    except ValueError:  # a whole number of thousands of digits
        raise InputError(
            f"{name}: not a readable record (a number in it has too many digits)",
            tip="give the file as firefight saved it",
        ) from None
    return Opened(Encounter.from_json(data, name), p, _digest(raw))


def save_over(opened: Opened) -> None:
    """Save ``opened.enc`` over the file it was read from, atomically, unless another process
    changed the file since it was read (then nothing is written): two commands on one save
    never lose a step, the second is refused. The check and the replacement hold a lock on
    the folder, so two saves cannot both pass the check."""
    text = _record_text(opened.enc)
    with _folder_lock(opened.path):
        try:
            now = _digest(opened.path.read_bytes())
        except OSError:
            now = ""
        if now != opened.digest:
            raise InputError(
                f"{clip_path(opened.path)}: changed by another process since it was read; "
                "nothing saved",
                tip="run the command again on the file as it is now (`firefight encounter show`)",
            )
        write_text_atomically(opened.path, text)
    opened.digest = _digest(text.encode("utf-8"))


def _digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


@contextmanager
def _folder_lock(path: Path) -> Iterator[None]:
    """An exclusive ``flock`` on the file's folder while the block runs (where the platform
    has it; else none)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on this platform
        yield
        return
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
