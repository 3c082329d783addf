"""The tracker's operations, apart from HTTP: create, read, act, undo, redo, watch.

Every operation is the encounter engine's (:class:`~firefight.encounter.record.Encounter`), so the
web layer holds no rule of any ruleset. An encounter is kept open in memory between requests (its
replay is done once), checked against the database's version on every request so a second server
on the same database is never ignored, and written back whole after each step in one
transaction. A step that is refused (bad action, bad faces, a finished fight) writes nothing.

Watchers (the players' pages) get the new version number on an asyncio queue as soon as a step
commits; they then fetch the view they may see.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import secrets
import threading
import tomllib
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import firefight.analysis  # noqa: F401  (registers the optimal policy: scenarios may name it)
from firefight.core.turns import Action, FightState
from firefight.dice import ScriptedDice, SeededDice
from firefight.dice.faces import parse_faces
from firefight.encounter import ESTIMATE_PLAYS, Encounter, Engine, read_scenario, show_json
from firefight.encounter.scenario import build_scenario
from firefight.errors import FirefightError, InputError
from firefight.web.store import Row, Store, token_digest
from firefight.web.views import ENEMY_DETAILS, EnemyDetail, player_view

#: What a watcher's queue receives when the server stops (versions start at 1).
CLOSED = 0


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
    #: Odds previews of this version's actions, by action id, as they are computed.
    odds: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The players' view of this version (every watching page asks for it after a step).
    player: dict[str, Any] | None = None


class Tracker:
    """Encounters on a :class:`Store`, kept open in memory, with watchers per encounter."""

    def __init__(self, store: Store, examples: Path | None = None, keep_open: int = 64) -> None:
        self.store = store
        self.examples = examples
        self.keep_open = keep_open
        self._open: OrderedDict[str, _Open] = OrderedDict()
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._watchers: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[int]]]] = {}
        #: The newest version each watched encounter's watchers were told of.
        self._announced: dict[str, int] = {}
        self._example_list: list[dict[str, str]] | None = None

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
    ) -> Created:
        """Start an encounter from scenario TOML text, a bundled example or an exported record."""
        given = [x is not None for x in (scenario, example, record)]
        if sum(given) != 1:
            raise InputError(
                "give exactly one of scenario, example or record",
                tip='e.g. {"scenario": "<scenario TOML text>"}',
            )
        if record is not None:
            enc = Encounter.from_json(record, "record")
        else:
            engine = Engine(
                self._example(example) if example is not None else _scenario(str(scenario))
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
        """The bundled example scenarios: id (``ruleset/name``), ruleset and title."""
        if self._example_list is None:
            found = []
            if self.examples is not None and self.examples.is_dir():
                for path in sorted(self.examples.glob("*/encounters/*.toml")):
                    try:
                        title = str(tomllib.loads(path.read_text("utf-8")).get("title", path.stem))
                    except (OSError, tomllib.TOMLDecodeError):
                        continue
                    ruleset = path.parent.parent.name
                    found.append(
                        {"id": f"{ruleset}/{path.stem}", "ruleset": ruleset, "title": title}
                    )
            self._example_list = found
        return self._example_list

    def _example(self, example: str) -> Any:
        known = {e["id"] for e in self.examples_list()}
        if example not in known or self.examples is None:
            raise InputError(
                f"example {example!r} is not a bundled example",
                tip="GET /api/examples lists them" if known else "this server has no examples",
            )
        ruleset, name = example.split("/")
        return read_scenario(self.examples / ruleset / "encounters" / f"{name}.toml")

    # -- reading -------------------------------------------------------------------------------
    def state(self, encounter_id: str) -> dict[str, Any]:
        """``firefight encounter show --json`` of the encounter, plus ``after`` once it ends."""
        with self._lock(encounter_id):
            return _state_json(self._load(encounter_id).enc)

    def log(self, encounter_id: str) -> dict[str, Any]:
        """The start's transcript and every step (label, faces, transcript lines), for the GM."""
        with self._lock(encounter_id):
            enc = self._load(encounter_id).enc
            return {
                "start": list(enc.start_lines),
                "steps": [s.to_json() for s in enc.steps],
                "redo": len(enc.redo_stack),
            }

    def actions(self, encounter_id: str, odds: bool = True) -> list[dict[str, Any]]:
        """The legal actions, each with its exact odds preview unless ``odds`` is false."""
        with self._lock(encounter_id):
            held = self._load(encounter_id)
            state = held.enc.state
            listed = held.enc.engine.legal_actions(state) if state.ending is None else ()
        rows = [_bare_action(a) for a in listed]
        if odds:
            for row, action in zip(rows, listed, strict=True):
                row["odds"] = self._odds(encounter_id, held, state, action)
        return rows

    def odds(self, encounter_id: str, action_id: str) -> dict[str, Any]:
        """One action's exact odds preview (a page fills its list in one action at a time)."""
        with self._lock(encounter_id):
            held = self._load(encounter_id)
            state = held.enc.state
            action = held.enc.engine.find_action(state, action_id)
        return self._odds(encounter_id, held, state, action)

    def _odds(
        self, encounter_id: str, held: _Open, state: FightState, action: Action
    ) -> dict[str, Any]:
        """Computed outside the encounter's lock (a heavy preview must not hold up a step), one
        at a time per encounter (a page refreshed while one runs waits for it), kept while
        ``state`` is the encounter's."""
        with self._lock(encounter_id, previews=True):
            with self._lock(encounter_id):
                found: dict[str, Any] | None = (
                    held.odds.get(action.id) if held.enc.state is state else None
                )
            if found is None:
                found = held.enc.engine.preview(state, action, estimate=ESTIMATE_PLAYS).to_json()
                with self._lock(encounter_id):
                    if held.enc.state is state:
                        held.odds[action.id] = found
        return found

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
        return {"players_side": row.players_side, "enemy_detail": row.enemy_detail}

    # -- writing -------------------------------------------------------------------------------
    def act(
        self,
        encounter_id: str,
        action: str,
        dice: list[int | str] | None = None,
        seed: int | None = None,
    ) -> dict[str, Any]:
        """Resolve one action on the table's faces (``dice``) or the program's (``seed``)."""
        if dice is not None and seed is not None:
            raise InputError("dice and seed both given", tip="use one: table dice or program dice")
        source = (
            SeededDice(_seed(seed))
            if dice is None
            # [] is a step that rolls nothing (e.g. an attack that waits for the defence)
            else ScriptedDice(_table_faces(dice) if dice else [])
        )
        return self._write(
            encounter_id, lambda enc: enc.act(action, source, faces_of_this_step=True)
        )

    def undo(self, encounter_id: str) -> dict[str, Any]:
        return self._write(encounter_id, lambda enc: enc.undo())

    def redo(self, encounter_id: str) -> dict[str, Any]:
        return self._write(encounter_id, lambda enc: enc.redo())

    def set_enemy_detail(self, encounter_id: str, enemy_detail: str) -> dict[str, Any]:
        _check_detail(enemy_detail)
        with self._lock(encounter_id):
            held = self._load(encounter_id)
            version = self.store.write(encounter_id, held.version, enemy_detail=enemy_detail)
            self._forget(encounter_id)
        self._notify(encounter_id, version)
        return self.settings(encounter_id)

    def _write(self, encounter_id: str, change: Any) -> dict[str, Any]:
        with self._lock(encounter_id):
            held = self._load(encounter_id)
            enc = held.enc
            before = (list(enc.steps), list(enc.states), list(enc.redo_stack))
            try:
                change(enc)
                version = self.store.write(encounter_id, held.version, record=_dump(enc))
            except BaseException:
                enc.steps, enc.states, enc.redo_stack = before
                self._forget(encounter_id)
                raise
            held.version, held.odds, held.player = version, {}, None
            state = _state_json(enc)
        self._notify(encounter_id, version)
        return state

    # -- watching ------------------------------------------------------------------------------
    def watch(self, encounter_id: str, version: int) -> asyncio.Queue[int]:
        """A queue that receives the encounter's new version after every committed change, made
        here or (found by :meth:`poll`) by another server on the same database; ``version`` is
        the one the watcher already has."""
        queue: asyncio.Queue[int] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        with self._guard:
            self._watchers.setdefault(encounter_id, set()).add((loop, queue))
            self._announced[encounter_id] = max(self._announced.get(encounter_id, 0), version)
        return queue

    def unwatch(self, encounter_id: str, queue: asyncio.Queue[int]) -> None:
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
        """End every live stream (the server is stopping): each queue gets :data:`CLOSED`."""
        with self._guard:
            watchers = [w for group in self._watchers.values() for w in group]
        for loop, queue in watchers:
            loop.call_soon_threadsafe(queue.put_nowait, CLOSED)

    def _notify(self, encounter_id: str, version: int) -> None:
        """Tell the encounter's watchers of ``version``, once: a change made here may also be
        found by :meth:`poll`, and whichever comes second is dropped."""
        with self._guard:
            if version <= self._announced.get(encounter_id, 0):
                return
            watchers = list(self._watchers.get(encounter_id, ()))
            if watchers:
                self._announced[encounter_id] = version
        for loop, queue in watchers:
            loop.call_soon_threadsafe(queue.put_nowait, version)

    # -- the open encounters -------------------------------------------------------------------
    def _lock(self, encounter_id: str, previews: bool = False) -> threading.Lock:
        """The encounter's lock (held briefly, for every read and write), or its previews' lock
        (held while odds are computed, apart, so a step is never held up by a preview)."""
        with self._guard:
            return self._locks.setdefault(
                f"{encounter_id}:previews" if previews else encounter_id, threading.Lock()
            )

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


def _check_detail(enemy_detail: str) -> None:
    if enemy_detail not in ENEMY_DETAILS:
        raise InputError(f"enemy_detail {enemy_detail!r} is not one of {', '.join(ENEMY_DETAILS)}")


def _scenario(text: str) -> Any:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"scenario: not valid TOML ({err})", tip="check the file") from None
    if isinstance(data.get("house"), str):
        raise InputError(
            f"scenario: house = {data['house']!r} names a file the server cannot read",
            tip="write the house rules inline as a [house] table",
        )
    return build_scenario(data, "scenario")


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


def _bare_action(action: Any) -> dict[str, Any]:
    return {
        "id": action.id,
        "label": action.label,
        "kind": action.kind,
        "target": action.target,
        "actor": action.actor,
    }


def _state_json(enc: Encounter) -> dict[str, Any]:
    out = show_json(enc)
    out["after"] = enc.engine.turns.after_fight(enc.state) if enc.state.ending else []
    return out
