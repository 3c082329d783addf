"""The tracker's operations, apart from HTTP: create, read, act, undo, redo, edit, watch.

Every operation is the encounter engine's (:class:`~firefight.encounter.record.Encounter`), so the
web layer holds no rule of any ruleset. An encounter is kept open in memory between requests (its
replay is done once), checked against the database's version on every request so a second server
on the same database is never ignored, and written back whole after each step in one
transaction. A step that is refused (bad action, bad faces, a finished fight) writes nothing.

Every write names the version of the state it was chosen on: a write on any other version is
refused (:class:`Stale`, with what happened since), so a click made on a page that was behind,
or the same request sent twice at once, never lands on a state nobody saw.

Watchers (the players' pages, the GM's) get the new version number on an asyncio queue as soon as
a step commits; they then fetch the view they may see. The GM's watchers also get the odds of the
acting combatant's choices as they are refined (:mod:`firefight.web.odds`, worked out on a thread
of their own, the old version's work cancelled by each change).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import secrets
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import firefight.analysis  # noqa: F401  (registers the optimal policy: scenarios may name it)
from firefight.analysis.budget import cpu
from firefight.analysis.choices import BUDGET, CEILING, action_json
from firefight.core.validation import clip
from firefight.dice import DiceSource, ScriptedDice, SeededDice
from firefight.dice.asking import AskingDice, Program, too_few_faces_explained
from firefight.dice.faces import parse_faces
from firefight.encounter import Encounter, Engine, read_scenario, show_json
from firefight.encounter.edits import Edit
from firefight.encounter.examples import Example, offered
from firefight.encounter.table_dice import ask_start, ask_step, start_json, step_json
from firefight.errors import FirefightError, InputError
from firefight.web.builder import scenario_from_text
from firefight.web.odds import OddsWorker
from firefight.web.store import Row, StaleVersion, Store, token_digest
from firefight.web.views import ENEMY_DETAILS, EnemyDetail, cards, player_view

#: What a watcher's queue receives when the server stops (versions start at 1).
CLOSED = 0
#: Changes remembered per encounter, to say what happened since a stale write's version.
HISTORY = 32


class Stale(StaleVersion):
    """A write chosen on a version that is not the encounter's now: nothing was changed."""


class NotFound(FirefightError, LookupError):
    """No encounter has this id."""


class Forbidden(FirefightError, PermissionError):
    """The token does not open this encounter, or not for writing."""


@dataclass(frozen=True)
class Created:
    """A new encounter's id and its two links' tokens (shown once, stored only as digests)."""

    id: str
    gm_token: str
    player_token: str


@dataclass
class _Open:
    version: int
    row: Row
    enc: Encounter
    #: The players' view of this version (every watching page asks for it after a step).
    player: dict[str, Any] | None = None
    #: CPU seconds the write that made this version took here (its odds' budget is the rest).
    made_in: float = 0.0


#: A page's live stream: its event loop, its queue (versions; and, for a GM's page, the odds
#: as they are refined) and whether it is the GM's.
_Watcher = tuple[asyncio.AbstractEventLoop, "asyncio.Queue[Any]", bool]


class Tracker:
    """Encounters on a :class:`Store`, kept open in memory, with watchers per encounter;
    ``budget`` and ``ceiling`` are the odds' CPU seconds (first answers of a list, and each
    answer's refinement at most)."""

    def __init__(
        self,
        store: Store,
        examples: Path | None = None,
        keep_open: int = 64,
        *,
        budget: float = BUDGET,
        ceiling: float = CEILING,
    ) -> None:
        self.store = store
        self.examples = examples
        self.keep_open = keep_open
        self._open: OrderedDict[str, _Open] = OrderedDict()
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._watchers: dict[str, set[_Watcher]] = {}
        self.odds_worker = OddsWorker(
            budget=budget, ceiling=ceiling, on_update=self._odds_update, watched=self._gm_watches
        )
        #: The newest version each watched encounter's watchers were told of.
        self._announced: dict[str, int] = {}
        self._example_list: list[Example] | None = None
        #: Engines of scenarios asked for their start's dice before they are created, by text.
        self._starting: OrderedDict[tuple[str | None, str | None], Engine] = OrderedDict()
        #: encounter id -> (version, what made it) of its latest changes made here.
        self._history: dict[str, deque[tuple[int, str]]] = {}

    # -- who may do what -----------------------------------------------------------------------
    def role(self, encounter_id: str, token: str | None) -> str:
        """``"gm"`` or ``"player"`` for ``token``; NotFound or Forbidden otherwise."""
        row = self._row(encounter_id)
        given = token_digest(token or "")
        is_gm = hmac.compare_digest(given, row.gm_digest)
        is_player = hmac.compare_digest(given, row.player_digest)
        if is_gm:
            return "gm"
        if is_player:
            return "player"
        raise Forbidden(
            "this token does not open this encounter", tip="use the link the GM was given"
        )

    def require_gm(self, encounter_id: str, token: str | None) -> None:
        if self.role(encounter_id, token) != "gm":
            raise Forbidden(
                "the players' token only reads the players' view",
                tip="use the GM's link to change the encounter",
            )

    # -- creating ------------------------------------------------------------------------------
    def create(
        self,
        *,
        scenario: str | None = None,
        example: str | None = None,
        record: Any = None,
        players_side: str | None = None,
        enemy_detail: EnemyDetail = "status",
        seed: int | None = None,
        dice: list[Any] | None = None,
    ) -> Created:
        """Start an encounter from scenario TOML text, a bundled example or an exported record;
        round 1's initiative on the program's dice (``seed``) or the table's (``dice``)."""
        given = [x is not None for x in (scenario, example, record)]
        if sum(given) != 1:
            raise InputError(
                "give exactly one of scenario, example or record",
                tip='e.g. {"scenario": "<scenario TOML text>"}',
            )
        if record is not None:
            if dice is not None or seed is not None:
                raise InputError(
                    "a record brings its own start: dice and seed are for a new encounter",
                    tip="leave dice and seed out when importing a record",
                )
            enc = Encounter.from_json(record, "record")
        elif dice is not None:
            if seed is not None:
                raise InputError(_BOTH, tip=_ONE_OF_THEM)
            engine = self._starting_engine(scenario, example)
            enc = _begin_on_table_dice(engine, dice, _ASK_START)
        else:
            engine = Engine(
                self._example(example) if example is not None else scenario_from_text(str(scenario))
            )
            enc = Encounter.begin(engine, SeededDice(_seed(seed)))
        side = self._players_side(enc, players_side)
        _check_detail(enemy_detail)
        created = Created(
            secrets.token_hex(8), secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        )
        spec = enc.engine.scenario.spec
        row = Row(
            id=created.id,
            title=spec.title[:200],
            ruleset=spec.ruleset,
            gm_digest=token_digest(created.gm_token),
            player_digest=token_digest(created.player_token),
            players_side=side,
            enemy_detail=enemy_detail,
            record=_dump(enc),
            version=1,
        )
        self.store.add(row)
        with self._guard:
            self._remember(created.id, _Open(1, row, enc))
        return created

    def start_dice(
        self,
        scenario: str | None,
        example: str | None,
        faces: list[Any],
        roll: Program | None = None,
    ) -> dict[str, Any]:
        """What round 1's initiative needs next of the table's dice, before the encounter is
        created (creating it with ``dice`` set to the faces this ends with); writes nothing."""
        engine = self._starting_engine(scenario, example)
        asked = ask_start(engine, _table_faces(faces) if faces else [], program=roll)
        return start_json(engine, asked)

    def _starting_engine(self, scenario: str | None, example: str | None) -> Engine:
        """The engine of a scenario about to start, kept while its start's dice are asked for."""
        if (scenario is None) == (example is None):
            raise InputError(
                "give exactly one of scenario or example", tip='e.g. {"example": "graydawn/duel"}'
            )
        key = (scenario, example)
        with self._guard:
            engine = self._starting.get(key)
        if engine is None:
            engine = Engine(
                self._example(example) if example is not None else scenario_from_text(str(scenario))
            )
            with self._guard:
                self._starting[key] = engine
                while len(self._starting) > 16:
                    self._starting.popitem(last=False)
        return engine

    @staticmethod
    def _players_side(enc: Encounter, side: str | None) -> str:
        sides = [s.name for s in enc.engine.scenario.spec.sides]
        if side is None:
            return sides[0]
        if side not in sides:
            raise InputError(
                f"players_side {side!r} is not a side", tip=f"sides: {', '.join(sides)}"
            )
        return side

    def examples_list(self) -> list[dict[str, str]]:
        """The example scenarios (the bundled folder's and those the rulesets ship): id
        (``ruleset/name``), ruleset and title."""
        return [{"id": e.id, "ruleset": e.ruleset, "title": e.title} for e in self._examples()]

    def _examples(self) -> list[Example]:
        if self._example_list is None:
            self._example_list = offered(self.examples)
        return self._example_list

    def _example(self, example: str) -> Any:
        found = {e.id: e.path for e in self._examples()}
        if example not in found:
            raise InputError(
                f"example {example!r} is not a bundled example",
                tip="GET /api/examples lists them" if found else "this server has no examples",
            )
        return read_scenario(found[example])

    # -- reading -------------------------------------------------------------------------------
    def state(self, encounter_id: str) -> dict[str, Any]:
        """``firefight encounter show --json`` of the encounter, plus ``after`` once it ends,
        ``version`` (what a write names) and the fields a GM may set of each combatant."""
        with self._lock(encounter_id):
            return _state_json(self._load(encounter_id))

    def log(self, encounter_id: str) -> dict[str, Any]:
        """The start's transcript and every step (label, faces, transcript lines), for the GM."""
        with self._lock(encounter_id):
            enc = self._load(encounter_id).enc
            return {
                "start": list(enc.start_lines),
                "steps": [s.to_json() for s in enc.steps],
                "redo": len(enc.redo_stack),
            }

    def actions(
        self,
        encounter_id: str,
        odds: bool = True,
        *,
        budget: float | None = None,
        ceiling: float | None = None,
    ) -> list[dict[str, Any]]:
        """The legal actions, each with its odds, risk and win chance unless ``odds`` is false
        (first answers within ``budget`` CPU seconds, then refined; see :meth:`choices`)."""
        if not odds:
            with self._lock(encounter_id):
                enc = self._load(encounter_id).enc
                if enc.state.ending is not None:
                    return []
                return [action_json(a) for a in enc.engine.legal_actions(enc.state)]
        rows: list[dict[str, Any]] = self.choices(encounter_id, budget=budget, ceiling=ceiling)[
            "actions"
        ]
        return rows

    def choices(
        self,
        encounter_id: str,
        *,
        budget: float | None = None,
        ceiling: float | None = None,
    ) -> dict[str, Any]:
        """The acting combatant's choices with their answers so far and the progress
        (``{"version", "actions", "progress"}``): the first answers worked out within
        ``budget`` CPU seconds (the server's by default; the step that made this version
        counts against it), refined afterwards on the odds thread up to ``ceiling`` seconds an
        answer, and pushed to the GM's live streams. Waits for the first answers only."""
        with self._lock(encounter_id):
            held = self._load(encounter_id)
            state = held.enc.state
            if state.ending is not None:
                cpu_spent = {"step": held.made_in, "first_answers": 0.0}
                return {"version": held.version, "actions": [], "progress": {"cpu": cpu_spent}}
            job = self.odds_worker.job(
                encounter_id,
                held.version,
                held.enc.engine,
                state,
                budget=budget,
                ceiling=ceiling,
                spent=held.made_in,
            )
        self.odds_worker.answers(job)
        if job.error is not None:
            raise InputError(f"the odds could not be worked out: {job.error}")
        if job.cancel.is_set() and not job.rows:
            raise Stale("the fight moved on while its odds were worked out", tip=_RELOAD)
        return job.snapshot()

    def odds(self, encounter_id: str, action_id: str) -> dict[str, Any]:
        """One action's odds so far (its row of :meth:`choices`)."""
        with self._lock(encounter_id):
            held = self._load(encounter_id)
            held.enc.engine.find_action(held.enc.state, action_id)  # one line if there is none
        for row in self.choices(encounter_id)["actions"]:
            if row["id"] == action_id:
                found: dict[str, Any] = row["odds"]
                return found
        raise InputError(f"no action {action_id!r} now")  # pragma: no cover - found above

    def dice(
        self,
        encounter_id: str,
        action: str,
        faces: list[Any],
        *,
        version: int,
        actor: str | None = None,
        roll: Program | None = None,
    ) -> dict[str, Any]:
        """What the action needs next of the table's dice, given the faces so far (the
        program rolling the next group or all the rest, with ``roll``); writes nothing. Asked
        on ``version`` (and, if named, for ``actor``) and refused as a write on them would be,
        so a dialog never gathers faces for a step that can no longer be taken."""
        parsed = _table_faces(faces) if faces else []
        with self._lock(encounter_id):
            held = self._load(encounter_id)
            self._check_version(encounter_id, held, version)
            _check_actor(held.enc, actor)
            asked = ask_step(held.enc, action, parsed, program=roll)
            return {**step_json(held.enc, action, asked), "version": held.version}

    def restart_dice(
        self, encounter_id: str, faces: list[Any], *, version: int, roll: Program | None = None
    ) -> dict[str, Any]:
        """What round 1's initiative needs next of the table's dice, to roll it again (as
        :meth:`restart` takes the faces this ends with, before the first step); writes
        nothing."""
        parsed = _table_faces(faces) if faces else []
        with self._lock(encounter_id):
            held = self._load(encounter_id)
            self._check_version(encounter_id, held, version)
            _check_not_started(held.enc)
            engine = held.enc.first_engine
            return {
                **start_json(engine, ask_start(engine, parsed, program=roll)),
                "version": version,
            }

    def player(self, encounter_id: str) -> dict[str, Any]:
        with self._lock(encounter_id):
            held = self._load(encounter_id)
            if held.player is None:
                detail: EnemyDetail = "names" if held.row.enemy_detail == "names" else "status"
                view = player_view(held.enc, held.row.players_side, detail)
                held.player = {"version": held.version, **view}
            return held.player

    def record(self, encounter_id: str) -> dict[str, Any]:
        """The record, exactly as ``firefight encounter`` saves it (import it there or here)."""
        with self._lock(encounter_id):
            return self._load(encounter_id).enc.to_json()

    def version(self, encounter_id: str) -> int:
        version = self.store.version(encounter_id)
        if version is None:
            raise NotFound(f"no encounter {encounter_id!r}")
        return version

    def settings(self, encounter_id: str) -> dict[str, Any]:
        row = self._row(encounter_id)
        return {
            "players_side": row.players_side,
            "enemy_detail": row.enemy_detail,
            "version": row.version,
        }

    # -- writing -------------------------------------------------------------------------------
    def act(
        self,
        encounter_id: str,
        action: str,
        dice: list[Any] | None = None,
        seed: int | None = None,
        *,
        version: int,
        actor: str | None = None,
    ) -> dict[str, Any]:
        """Resolve one action on the table's faces (``dice``) or the program's (``seed``), on
        ``version`` (and, if named, by ``actor``: whose turn the page showed). Too few faces
        are refused naming what each missing die is for."""
        source = _source(dice, seed, AskingDice)

        def change(enc: Encounter) -> str:
            _check_actor(enc, actor)
            faces = source.faces if isinstance(source, AskingDice) else []
            with too_few_faces_explained(partial(enc.trial, action), faces, "dice", _ASK_STEP):
                step = enc.act(action, source, faces_of_this_step=True)
            return f"{step.actor} acted"

        return self._write(encounter_id, version, change)

    def edit(
        self,
        encounter_id: str,
        edit: Edit,
        dice: list[Any] | None = None,
        seed: int | None = None,
        *,
        version: int,
    ) -> dict[str, Any]:
        """One of the GM's edits (a field set, a combatant added or removed, the order, a turn
        skipped, the round ended) as a step, on ``version``; ``dice``/``seed`` for any roll it
        leads to (the next round's initiative)."""
        source = _source(dice, seed)

        def change(enc: Encounter) -> str:
            step = enc.edit(edit, source, faces_of_this_step=True)
            return f"the GM edited it ({step.label.removeprefix('GM: ')})"

        return self._write(encounter_id, version, change)

    def undo(self, encounter_id: str, *, version: int) -> dict[str, Any]:
        return self._write(encounter_id, version, lambda enc: f"{enc.undo().label} was undone")

    def redo(self, encounter_id: str, *, version: int) -> dict[str, Any]:
        return self._write(encounter_id, version, lambda enc: f"{enc.redo().label} was redone")

    def restart(self, encounter_id: str, dice: list[Any], *, version: int) -> dict[str, Any]:
        """Round 1's initiative again, on the faces the table rolled (only before any step)."""

        def change(enc: Encounter) -> str:
            _check_not_started(enc)
            fresh = _begin_on_table_dice(enc.first_engine, dice, _ASK_RESTART)
            vars(enc).update(vars(fresh))
            return "the start was rolled again"

        return self._write(encounter_id, version, change)

    def set_settings(
        self,
        encounter_id: str,
        *,
        version: int,
        enemy_detail: str | None = None,
        players_side: str | None = None,
    ) -> dict[str, Any]:
        """What the players' page shows: their side in full, enemies as ``enemy_detail``."""
        if enemy_detail is not None:
            _check_detail(enemy_detail)
        values: dict[str, Any] = {}
        with self._lock(encounter_id):
            held = self._load(encounter_id)
            self._check_version(encounter_id, held, version)
            if players_side is not None:
                values["players_side"] = self._players_side(held.enc, players_side)
            if enemy_detail is not None:
                values["enemy_detail"] = enemy_detail
            if not values:
                raise InputError("no setting given", tip="send enemy_detail or players_side")
            new = self.store.write(encounter_id, held.version, **values)
            self._forget(encounter_id)
            self._remember_change(encounter_id, new, "the players' page settings changed")
        self._notify(encounter_id, new)
        return self.settings(encounter_id)

    def _write(
        self, encounter_id: str, version: int, change: Callable[[Encounter], str]
    ) -> dict[str, Any]:
        """``change`` made to the encounter on ``version`` and written in one transaction; a
        refusal (stale version, bad action) leaves the record and the version as they were."""
        with self._lock(encounter_id):
            held = self._load(encounter_id)
            self._check_version(encounter_id, held, version)
            enc = held.enc
            before = _snapshot(enc)
            start = cpu()
            try:
                words = change(enc)
                new = self.store.write(encounter_id, held.version, record=_dump(enc))
            except BaseException:
                vars(enc).update(before)
                self._forget(encounter_id)
                raise
            held.version, held.player, held.made_in = new, None, cpu() - start
            self._remember_change(encounter_id, new, words)
            state = _state_json(held)
        self.odds_worker.moved(encounter_id, new)
        self._notify(encounter_id, new)
        return state

    def _check_version(self, encounter_id: str, held: _Open, version: int) -> None:
        """Refuse a write chosen on a version that is not the encounter's now, saying what
        happened since (as far as this server saw it)."""
        if version == held.version:
            return
        if version > held.version:
            raise Stale(
                f"version {clip(version, 20)} is not one this encounter has had (it is at "
                f"{held.version})",
                tip=_RELOAD,
            )
        with self._guard:
            seen = [w for v, w in self._history.get(encounter_id, ()) if v > version]
        missed = held.version - version
        if len(seen) == missed == 1:
            what = f": {seen[0]} since you looked"
        elif seen and len(seen) == missed:
            what = f": {missed} changes since you looked, the last: {seen[-1]}"
        else:
            what = f" since you looked ({missed} change{'s' if missed > 1 else ''})"
        raise Stale(f"the fight moved on{what}", tip=_RELOAD)

    def _remember_change(self, encounter_id: str, version: int, words: str) -> None:
        with self._guard:
            history = self._history.setdefault(encounter_id, deque(maxlen=HISTORY))
            history.append((version, words))

    # -- watching ------------------------------------------------------------------------------
    def watch(self, encounter_id: str, version: int, gm: bool = False) -> asyncio.Queue[Any]:
        """A queue that receives the encounter's new version after every committed change, made
        here or (found by :meth:`poll`) by another server on the same database; ``version`` is
        the one the watcher already has. A GM's queue also receives the odds of the choices
        (a dict: :meth:`choices`) each time they are refined."""
        queue: asyncio.Queue[Any] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        with self._guard:
            self._watchers.setdefault(encounter_id, set()).add((loop, queue, gm))
            self._announced[encounter_id] = max(self._announced.get(encounter_id, 0), version)
        return queue

    def unwatch(self, encounter_id: str, queue: asyncio.Queue[Any]) -> None:
        with self._guard:
            watchers = self._watchers.get(encounter_id, set())
            for entry in [w for w in watchers if w[1] is queue]:
                watchers.discard(entry)
            if not watchers:
                self._watchers.pop(encounter_id, None)
                self._announced.pop(encounter_id, None)

    def watching(self, encounter_id: str) -> int:
        with self._guard:
            return len(self._watchers.get(encounter_id, ()))

    def watched(self) -> bool:
        """Whether any page watches any encounter here."""
        with self._guard:
            return bool(self._watchers)

    def poll(self) -> None:
        """Announce the watched encounters that another server on the same database changed
        (one query for all of them): their watchers here hear of it as of a change made here."""
        with self._guard:
            watched = list(self._watchers)
        for encounter_id, version in self.store.versions(watched).items():
            self._notify(encounter_id, version)

    def close_watchers(self) -> None:
        """End every live stream (the server is stopping): each queue gets :data:`CLOSED`; the
        odds thread stops."""
        with self._guard:
            watchers = [w for group in self._watchers.values() for w in group]
        for loop, queue, _ in watchers:
            loop.call_soon_threadsafe(queue.put_nowait, CLOSED)
        self.odds_worker.close()

    def _gm_watches(self, encounter_id: str) -> bool:
        """Whether a GM's page follows the encounter's live stream here."""
        with self._guard:
            return any(gm for _, _, gm in self._watchers.get(encounter_id, ()))

    def _odds_update(self, encounter_id: str, version: int, choices: dict[str, Any]) -> None:
        """The odds thread refined the choices of ``version``: to the GM's live streams."""
        with self._guard:
            gms = [(loop, q) for loop, q, gm in self._watchers.get(encounter_id, ()) if gm]
        for loop, queue in gms:
            loop.call_soon_threadsafe(queue.put_nowait, choices)

    def _notify(self, encounter_id: str, version: int) -> None:
        """Tell the encounter's watchers of ``version``, once: a change made here may also be
        found by :meth:`poll`, and whichever comes second is dropped."""
        self.odds_worker.moved(encounter_id, version)
        with self._guard:
            if version <= self._announced.get(encounter_id, 0):
                return
            watchers = list(self._watchers.get(encounter_id, ()))
            if watchers:
                self._announced[encounter_id] = version
        for loop, queue, _ in watchers:
            loop.call_soon_threadsafe(queue.put_nowait, version)

    # -- the open encounters -------------------------------------------------------------------
    def _lock(self, encounter_id: str) -> threading.Lock:
        """The encounter's lock (held briefly, for every read and write; odds are worked out
        apart, on the odds thread, so a step is never held up by them)."""
        with self._guard:
            return self._locks.setdefault(encounter_id, threading.Lock())

    def _row(self, encounter_id: str) -> Row:
        row = self.store.get(encounter_id)
        if row is None:
            raise NotFound(f"no encounter {encounter_id!r}", tip="check the link")
        return row

    def _load(self, encounter_id: str) -> _Open:
        """The open encounter, replayed from the database if it changed or was never opened."""
        version = self.version(encounter_id)
        with self._guard:
            held = self._open.get(encounter_id)
        if held is not None and held.version == version:
            return held
        row = self._row(encounter_id)
        enc = Encounter.from_json(json.loads(row.record), f"encounter {encounter_id}")
        held = _Open(row.version, row, enc)
        with self._guard:
            self._remember(encounter_id, held)
        return held

    def _remember(self, encounter_id: str, held: _Open) -> None:
        self._open[encounter_id] = held
        self._open.move_to_end(encounter_id)
        while len(self._open) > self.keep_open:
            self._open.popitem(last=False)

    def _forget(self, encounter_id: str) -> None:
        with self._guard:
            self._open.pop(encounter_id, None)


_ASK_STEP = "give every face in transcript order; POST .../dice asks for them group by group"
_ASK_START = "give every face in transcript order; POST /api/start/dice asks for them"
_ASK_RESTART = "give every face in transcript order; POST .../start/dice asks for them"
_RELOAD = "reload to see the fight as it is now, then choose again"
_BOTH = "dice and seed both given"
_ONE_OF_THEM = "use one: table dice or program dice"


def _snapshot(enc: Encounter) -> dict[str, Any]:
    """The encounter's fields, their lists and dicts copied: what a refused write restores."""
    return {k: v.copy() if isinstance(v, (list, dict)) else v for k, v in vars(enc).items()}


def _check_actor(enc: Encounter, actor: str | None) -> None:
    """Refuse an action chosen for ``actor`` (if named) when it is not their turn now."""
    if actor is not None and enc.state.acting != actor:
        raise Stale(
            f"the fight moved on: it is {enc.state.acting or 'nobody'}'s turn, not "
            f"{clip(actor, 40)}'s",
            tip=_RELOAD,
        )


def _check_not_started(enc: Encounter) -> None:
    """Refuse the start's dice once a step was taken (undo back to the start first)."""
    if enc.steps:
        raise InputError(
            "the start's dice can be typed only before the first step",
            tip="undo every step first",
        )


def _begin_on_table_dice(engine: Engine, dice: list[Any], tip: str) -> Encounter:
    """The encounter settled to its first decision on the table's faces, every one used; too
    few are refused naming what each missing die is for."""
    faces = _table_faces(dice) if dice else []
    source = AskingDice(faces)
    with too_few_faces_explained(partial(Encounter.begin, engine), faces, "dice", tip):
        enc = Encounter.begin(engine, source)
    source.check_all_used()
    return enc


def _source(
    dice: list[Any] | None, seed: int | None, table: type[ScriptedDice] = ScriptedDice
) -> DiceSource:
    """The table's faces (``dice``, as ``table`` dice) or the program's dice (``seed``, or
    fresh)."""
    if dice is not None and seed is not None:
        raise InputError(_BOTH, tip=_ONE_OF_THEM)
    if dice is None:
        return SeededDice(_seed(seed))
    # [] is a step that rolls nothing (e.g. an attack that waits for the defence)
    return table(_table_faces(dice) if dice else [])


def _check_detail(enemy_detail: str) -> None:
    if enemy_detail not in ENEMY_DETAILS:
        raise InputError(f"enemy_detail {enemy_detail!r} is not one of {', '.join(ENEMY_DETAILS)}")


def _table_faces(dice: list[Any]) -> list[int]:
    """Faces sent as JSON, one an element: a whole number, or its digits as text (the page sends
    what it cannot read as a number as text, for this line to name it). Anything else (``true``,
    ``3.5``, ``"4 8"``) is refused in the line ``--dice`` gives, naming the face."""
    for i, face in enumerate(dice, start=1):
        one = isinstance(face, str) and len(face.replace(",", " ").split()) == 1
        if isinstance(face, bool) or not (isinstance(face, int) or one):
            shown = json.dumps(face)
            raise InputError(
                f"dice face {i} is {shown if len(shown) <= 24 else shown[:21] + '...'}, "
                "not a face of a die",
                tip="give one whole number a face, e.g. [4, 8, 11, 4]",
            )
    return parse_faces(" ".join(str(f) for f in dice), "dice")


def _seed(seed: int | None) -> int:
    if seed is not None and seed < 0:
        raise InputError(f"seed {seed} is below 0", tip="give a seed of 0 or more")
    return secrets.randbits(63) if seed is None else seed


def _dump(enc: Encounter) -> str:
    return json.dumps(enc.to_json(), sort_keys=True)


def _state_json(held: _Open) -> dict[str, Any]:
    enc = held.enc
    state = enc.state
    turns = enc.engine.turns
    out = show_json(enc)
    out["after"] = turns.after_fight(state) if state.ending else []
    out["version"] = held.version
    out["sides"] = [s.name for s in enc.engine.scenario.spec.sides]
    out["editable"] = {name: list(turns.gm_fields(state, name)) for name in state.names()}
    out["cards"] = cards(turns.layout, out["combatants"])
    return out
