"""The tracker's HTTP face: the JSON API under ``/api``, the GM's and players' pages, live updates.

Routes that compute (act, dice, previews) are plain ``def`` so FastAPI runs them on its thread
pool and the event loop stays free for the players' live streams. Every write names the
``version`` of the state it was chosen on, and so does every question of the table's dice about
an encounter (a dialog never gathers faces for a step that can no longer be taken). Every refusal
is JSON ``{"detail": "one line"}``: 401 without a token, 403 with the wrong one (a players' token
writing, another encounter's token), 404 for an unknown encounter, 409 for a write or a dice
question on a version that is not the encounter's now (what happened since: "the fight moved on:
Insurgent acted since you looked"), 413 for an oversized request, 422 for a bad action, faces,
edit or scenario, 429 past the rate limit. A line is at most :data:`MAX_LINE` characters (a
100,000-character id is shown by its start).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from sqlalchemy.exc import SQLAlchemyError

from firefight.analysis.choices import BUDGET, CEILING
from firefight.core.loading import parse_toml_text
from firefight.encounter.edits import Edit, make_edit
from firefight.errors import FirefightError, InputError
from firefight.web import builder
from firefight.web.limits import BodyLimit, RateLimit
from firefight.web.store import StaleVersion, Store
from firefight.web.tracker import CLOSED, Forbidden, NotFound, Tracker

STATIC = Path(__file__).parent / "static"
#: Seconds between keep-alive comments on a live stream (proxies close idle connections).
KEEP_ALIVE = 15.0
#: Seconds between looks at the database for changes another server made to watched encounters
#: (players' pages hear of a step within a second, whichever server the GM used).
POLL = 0.5
#: Longest refusal line (as the command line's): longer ones keep their start and "...".
MAX_LINE = 400
#: Most CPU seconds a request may give the first answers of its odds, and each answer's
#: refinement.
MAX_BUDGET, MAX_CEILING = 60.0, 600.0


class _Unauthorized(Exception):
    pass


#: The version of the state a write was chosen on (``version`` of GET .../{id}).
Version = Annotated[
    StrictInt,
    Field(ge=1, description="the version of the state this was chosen on (from GET .../{id})"),
]
Seed = Annotated[StrictInt, Field(ge=0, le=2**63 - 1)]
Budget = Annotated[
    float | None,
    Query(
        gt=0,
        le=MAX_BUDGET,
        description="CPU seconds for the first answers of the whole list (default: the server's)",
    ),
]
Ceiling = Annotated[
    float | None,
    Query(
        ge=0,
        le=MAX_CEILING,
        description="CPU seconds of an action's longest exact attempt, and of its risk's and win "
        "chance's refinement (default: the server's)",
    ),
]
#: Any JSON here, checked by the tracker: typed as ``int | str``, pydantic would quietly read
#: ``true`` as a face of 1 and ``10.0`` as 10, where ``--dice`` refuses them.
_FACE_ITEMS: dict[str, Any] = {"items": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}
Faces = Annotated[
    list[Any] | None,
    Field(
        description="faces in transcript order: one whole number (or its digits as text) each",
        json_schema_extra=_FACE_ITEMS,
    ),
]
#: The faces the table rolled so far, in transcript order (checked as :data:`Faces` are).
SoFar = Annotated[
    list[Any],
    Field(
        description="the faces rolled so far, in transcript order", json_schema_extra=_FACE_ITEMS
    ),
]


class CreateBody(BaseModel):
    """Start an encounter: one of scenario TOML text, a bundled example id, or a record."""

    model_config = ConfigDict(extra="forbid")
    scenario: StrictStr | None = Field(None, description="scenario TOML text")
    example: StrictStr | None = Field(None, description="a bundled example, e.g. graydawn/duel")
    record: dict[str, Any] | None = Field(
        None, description="a record exported by the tracker or saved by `firefight encounter`"
    )
    players_side: StrictStr | None = Field(
        None, description="the side the players' link shows in full"
    )
    enemy_detail: Literal["status", "names"] = "status"
    seed: Seed | None = Field(None, description="seed of the start's dice (initiative)")
    dice: Faces = Field(
        None,
        description="the table's faces for round 1's initiative, in transcript order (as "
        "POST /api/start/dice collects them), instead of seed",
    )


class Created(BaseModel):
    id: str
    gm_token: str
    player_token: str


#: Whose action it is, as the page showed it: refused with 409 if it is not their turn now.
Actor = Annotated[
    StrictStr | None,
    Field(description="whose action it is (refused with 409 if it is not their turn now)"),
]


class _Write(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: Version


class _Rolling(_Write):
    """A write that may roll (the next round's initiative): the table's faces or a seed."""

    dice: Faces = None
    seed: Seed | None = None


class ActBody(_Rolling):
    """One action, on the table's faces (``dice``) or the program's dice (``seed``, or fresh)."""

    action: StrictStr = Field(description="an action id from GET .../actions")
    actor: Actor = None


class EditBody(_Rolling):
    """Set a field of a combatant's state (GET .../{id} lists each one's ``editable`` fields)."""

    combatant: StrictStr
    field: StrictStr
    value: Any = Field(description="the new value (its type as the field's)")


class AddBody(_Rolling):
    """A combatant who arrives mid-fight: its table as in a scenario's ``[[combatants]]``."""

    side: StrictStr
    combatant: dict[str, Any] | StrictStr = Field(
        description="its keys as a JSON object, or as TOML text"
    )
    position: StrictInt | None = Field(
        None, ge=0, description="its place in this round's order (0 first)"
    )
    range: StrictInt | float | StrictStr | None = Field(None, description="its range to everyone")
    cover: StrictStr | None = None


class RemoveBody(_Rolling):
    combatant: StrictStr


class OrderBody(_Rolling):
    order: list[StrictStr] = Field(description="this round's order, every combatant in it once")


class StartBody(_Write):
    """Round 1's initiative again, on the faces the table rolled (before the first step)."""

    dice: list[Any] = Field(
        description="the faces the table rolled for round 1's initiative, in transcript order "
        "(as POST .../start/dice collects them)",
        json_schema_extra=_FACE_ITEMS,
    )


#: Which dice the program rolls for the table when asked.
Roll = Annotated[
    Literal["group", "rest"] | None,
    Field(description='"group": the program rolls the next group for the table; "rest": all'),
]


class DiceBody(_Write):
    """What an action needs next of the table's dice, given the faces so far, on ``version``."""

    action: StrictStr = Field(description="an action id from GET .../actions")
    actor: Actor = None
    faces: SoFar = []
    roll: Roll = None


class StartDiceBody(BaseModel):
    """What round 1's initiative of a scenario needs next of the table's dice."""

    model_config = ConfigDict(extra="forbid")
    scenario: StrictStr | None = Field(None, description="scenario TOML text")
    example: StrictStr | None = Field(None, description="a bundled example, e.g. graydawn/duel")
    faces: SoFar = []
    roll: Roll = None


class RestartDiceBody(_Write):
    """What round 1's initiative of an encounter needs next, to roll it again on the table's
    dice (before the first step), on ``version``."""

    faces: SoFar = []
    roll: Roll = None


class CheckBody(BaseModel):
    """A scenario written on the start page, judged as a file is."""

    model_config = ConfigDict(extra="forbid")
    scenario: StrictStr = Field(description="scenario TOML text")
    draft: bool = Field(
        False, description="a scenario being built: one side and one combatant will do"
    )


class SettingsBody(_Write):
    enemy_detail: Literal["status", "names"] | None = None
    players_side: StrictStr | None = Field(None, description="the side the players' page shows")


def _tracker(request: Request) -> Tracker:
    tracker: Tracker = request.app.state.tracker
    return tracker


def _bearer(authorization: Annotated[str | None, Header()] = None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _Unauthorized()
    return token.strip()


Token = Annotated[str, Depends(_bearer)]


def _gm(encounter_id: str, request: Request, token: Token) -> str:
    _tracker(request).require_gm(encounter_id, token)
    return encounter_id


#: An encounter id whose request carries that encounter's GM token.
GmId = Annotated[str, Depends(_gm)]


def create_app(
    store: Store,
    *,
    examples: Path | None = None,
    max_body: int = 1 << 20,
    rate: float = 100.0,
    burst: int = 300,
    budget: float = BUDGET,
    ceiling: float = CEILING,
) -> FastAPI:
    """The tracker on ``store``; ``examples`` is the folder of bundled example scenarios (the
    rulesets' own are offered too); ``budget`` and ``ceiling`` the odds' CPU seconds (first
    answers of a list; each answer's refinement at most)."""
    tracker = Tracker(store, examples, budget=budget, ceiling=ceiling)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        polling = asyncio.create_task(_poll(tracker))
        try:
            yield
        finally:
            polling.cancel()
            with suppress(asyncio.CancelledError):
                await polling
            await asyncio.to_thread(tracker.odds_worker.close)

    app = FastAPI(
        lifespan=lifespan,
        title="firefight tracker",
        description="The GM's combat tracker for the five rulesets of firefight. Tokens travel "
        "as `Authorization: Bearer <token>`.",
        version="1",
    )
    app.state.tracker = tracker
    app.add_middleware(RateLimit, rate=rate, burst=burst)
    app.add_middleware(BodyLimit, max_body=max_body)
    _errors(app)

    # -- API -----------------------------------------------------------------------------------
    @app.get("/api/examples", tags=["encounters"])
    def examples_list() -> list[dict[str, str]]:
        """The example scenarios a GM can start from: the bundled folder's, then those the
        rulesets ship."""
        return tracker.examples_list()

    @app.get("/api/rulesets", tags=["scenarios"])
    def rulesets_list() -> dict[str, Any]:
        """The rulesets that run whole fights, and the policies a side may use."""
        return builder.rulesets()

    forms: dict[str, dict[str, Any]] = {}

    @app.get("/api/rulesets/{ruleset_id}", tags=["scenarios"])
    def ruleset_form(ruleset_id: str) -> dict[str, Any]:
        """What the scenario form needs of a ruleset: the JSON schema of its combatant table
        (a field with `catalog` names a section of the catalog), its shipped catalog, and the
        combatants of its example scenarios."""
        if ruleset_id not in forms:
            forms[ruleset_id] = builder.ruleset_form(ruleset_id, examples)
        return forms[ruleset_id]

    @app.post("/api/scenarios/check", tags=["scenarios"])
    def check_scenario(body: CheckBody) -> dict[str, Any]:
        """Scenario TOML text judged as `firefight fight` judges a file: the data as read, or
        422 with the one line a file would get."""
        return builder.check_scenario(body.scenario, draft=body.draft)

    @app.post("/api/encounters", status_code=201, response_model=Created, tags=["encounters"])
    def create(body: CreateBody) -> Created:
        """Start an encounter; the two tokens are shown here once and never again."""
        made = tracker.create(**body.model_dump())
        return Created(id=made.id, gm_token=made.gm_token, player_token=made.player_token)

    @app.get("/api/encounters/{encounter_id}", tags=["GM"])
    def state(encounter_id: GmId) -> dict[str, Any]:
        """The state, as `firefight encounter show --json` prints it (and `after` at the end)."""
        return tracker.state(encounter_id)

    @app.get("/api/encounters/{encounter_id}/actions", tags=["GM"])
    def actions(
        encounter_id: GmId, odds: bool = True, budget: Budget = None, ceiling: Ceiling = None
    ) -> list[dict[str, Any]]:
        """The legal actions of whoever acts, each with its `odds` (exact where they finish in
        time, else estimated with intervals) and `win` chance, as far as they are worked out
        (`?odds=false`: the list alone, at once). The first answers of the whole list take at
        most `budget` CPU seconds (default: the server's); they are refined afterwards."""
        return tracker.actions(encounter_id, odds, budget=budget, ceiling=ceiling)

    @app.get("/api/encounters/{encounter_id}/choices", tags=["GM"])
    def choices(
        encounter_id: GmId, budget: Budget = None, ceiling: Ceiling = None
    ) -> dict[str, Any]:
        """The actions as `/actions` gives them, with the `version` they belong to and the
        `progress` of their refinement (`text`: "exact for 31 of 45; the rest estimated,
        refining"); a GM's live stream then carries each refinement as an `odds` event."""
        return tracker.choices(encounter_id, budget=budget, ceiling=ceiling)

    @app.get("/api/encounters/{encounter_id}/odds", tags=["GM"])
    def odds(encounter_id: GmId, action: str) -> dict[str, Any]:
        """One action's odds as far as they are worked out (`?action=ID`)."""
        return tracker.odds(encounter_id, action)

    @app.get("/api/encounters/{encounter_id}/log", tags=["GM"])
    def log(encounter_id: GmId) -> dict[str, Any]:
        """The start's transcript and every step with its faces and transcript."""
        return tracker.log(encounter_id)

    @app.post("/api/encounters/{encounter_id}/act", tags=["GM"])
    def act(encounter_id: GmId, body: ActBody) -> dict[str, Any]:
        """Resolve one action; the new state. Refused faces or ids change nothing."""
        return tracker.act(
            encounter_id, body.action, body.dice, body.seed, version=body.version, actor=body.actor
        )

    @app.post("/api/encounters/{encounter_id}/dice", tags=["GM"])
    def dice(encounter_id: GmId, body: DiceBody) -> dict[str, Any]:
        """The next group of the table's dice the action needs, given the faces so far (who
        rolls it, which dice, what for, the rule), or `complete` with the transcript; then
        POST .../act with `dice` set to `faces_so_far` and the same `version`. Writes nothing;
        asked on a version that is not the encounter's now, 409 as a write would be."""
        return tracker.dice(
            encounter_id,
            body.action,
            body.faces,
            version=body.version,
            actor=body.actor,
            roll=body.roll,
        )

    @app.post("/api/start/dice", tags=["encounters"])
    def start_dice(body: StartDiceBody) -> dict[str, Any]:
        """The next group of the table's dice round 1's initiative needs, before the encounter
        exists; then POST /api/encounters with `dice` set to `faces_so_far`. Writes nothing."""
        return tracker.start_dice(body.scenario, body.example, body.faces, body.roll)

    @app.post("/api/encounters/{encounter_id}/undo", tags=["GM"])
    def undo(encounter_id: GmId, body: _Write) -> dict[str, Any]:
        return tracker.undo(encounter_id, version=body.version)

    @app.post("/api/encounters/{encounter_id}/redo", tags=["GM"])
    def redo(encounter_id: GmId, body: _Write) -> dict[str, Any]:
        return tracker.redo(encounter_id, version=body.version)

    @app.post("/api/encounters/{encounter_id}/start", tags=["GM"])
    def restart(encounter_id: GmId, body: StartBody) -> dict[str, Any]:
        """Round 1's initiative again on the faces the table rolled (before any step)."""
        return tracker.restart(encounter_id, body.dice, version=body.version)

    @app.post("/api/encounters/{encounter_id}/start/dice", tags=["GM"])
    def restart_dice(encounter_id: GmId, body: RestartDiceBody) -> dict[str, Any]:
        """The next group of the table's dice round 1's initiative needs, to roll it again
        before any step; then POST .../start with `dice` set to `faces_so_far`. Writes
        nothing."""
        return tracker.restart_dice(encounter_id, body.faces, version=body.version, roll=body.roll)

    def edited(encounter_id: str, edit: Edit, body: _Rolling) -> dict[str, Any]:
        return tracker.edit(encounter_id, edit, body.dice, body.seed, version=body.version)

    @app.post("/api/encounters/{encounter_id}/edit", tags=["GM's hand"])
    def edit(encounter_id: GmId, body: EditBody) -> dict[str, Any]:
        """Set a field of a combatant's state, as a step of the record (undo takes it back)."""
        change = make_edit("set", combatant=body.combatant, field=body.field, value=body.value)
        return edited(encounter_id, change, body)

    @app.post("/api/encounters/{encounter_id}/add", tags=["GM's hand"])
    def add(encounter_id: GmId, body: AddBody) -> dict[str, Any]:
        """Add a combatant who arrives mid-fight (the scenario's combatant table)."""
        table = body.combatant
        if isinstance(table, str):
            table = parse_toml_text(table, "combatant")
        change = make_edit(
            "add",
            side=body.side,
            combatant=table,
            position=body.position,
            range=body.range,
            cover=body.cover,
        )
        return edited(encounter_id, change, body)

    @app.post("/api/encounters/{encounter_id}/remove", tags=["GM's hand"])
    def remove(encounter_id: GmId, body: RemoveBody) -> dict[str, Any]:
        """Remove a combatant (fled, out of the scene)."""
        return edited(encounter_id, make_edit("remove", combatant=body.combatant), body)

    @app.post("/api/encounters/{encounter_id}/order", tags=["GM's hand"])
    def order(encounter_id: GmId, body: OrderBody) -> dict[str, Any]:
        """Reorder this round's initiative."""
        if not body.order:
            raise InputError("order names nobody", tip="list this round's order")
        return edited(encounter_id, make_edit("order", order=body.order), body)

    @app.post("/api/encounters/{encounter_id}/skip", tags=["GM's hand"])
    def skip(encounter_id: GmId, body: _Rolling) -> dict[str, Any]:
        """Skip the acting combatant's turn."""
        return edited(encounter_id, make_edit("skip"), body)

    @app.post("/api/encounters/{encounter_id}/end-round", tags=["GM's hand"])
    def end_round(encounter_id: GmId, body: _Rolling) -> dict[str, Any]:
        """End the round now; the next begins (its initiative on dice or seed)."""
        return edited(encounter_id, make_edit("end round"), body)

    @app.get("/api/encounters/{encounter_id}/record", tags=["GM"])
    def record(encounter_id: GmId) -> dict[str, Any]:
        """The record, the same JSON `firefight encounter` saves (import it there or here)."""
        return tracker.record(encounter_id)

    @app.get("/api/encounters/{encounter_id}/settings", tags=["GM"])
    def settings(encounter_id: GmId) -> dict[str, Any]:
        return tracker.settings(encounter_id)

    @app.put("/api/encounters/{encounter_id}/settings", tags=["GM"])
    def put_settings(encounter_id: GmId, body: SettingsBody) -> dict[str, Any]:
        """Which side the players' page shows in full (`players_side`) and what it shows of
        the other sides (`enemy_detail`: "status" or "names")."""
        return tracker.set_settings(
            encounter_id,
            version=body.version,
            enemy_detail=body.enemy_detail,
            players_side=body.players_side,
        )

    @app.get("/api/encounters/{encounter_id}/player", tags=["players"])
    def player(encounter_id: str, token: Token) -> dict[str, Any]:
        """The players' view (players' or GM's token): never the enemies' hidden fields."""
        tracker.role(encounter_id, token)
        return tracker.player(encounter_id)

    @app.get("/api/encounters/{encounter_id}/events", tags=["players"])
    async def events(
        encounter_id: str, request: Request, token: Annotated[str, Query()]
    ) -> StreamingResponse:
        """Server-sent events: `data: <version>` after every committed change; on the GM's
        token, also `event: odds` with the choices (as `/choices` gives them) each time they
        are refined. The token is a query parameter here because browsers' EventSource cannot
        send headers."""
        role = await asyncio.to_thread(tracker.role, encounter_id, token)
        version = await asyncio.to_thread(tracker.version, encounter_id)
        queue = tracker.watch(encounter_id, version, gm=role == "gm")
        return StreamingResponse(
            _stream(tracker, encounter_id, queue, version, request),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    # -- pages ---------------------------------------------------------------------------------
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/gm/{encounter_id}", include_in_schema=False)
    def gm_page(encounter_id: str) -> FileResponse:
        return FileResponse(STATIC / "gm.html")

    @app.get("/play/{encounter_id}", include_in_schema=False)
    def player_page(encounter_id: str) -> FileResponse:
        return FileResponse(STATIC / "player.html")

    return app


async def _poll(tracker: Tracker) -> None:
    """Every :data:`POLL` seconds, while pages watch, look for their encounters' changes made by
    another server on the same database (:meth:`Tracker.poll`)."""
    while True:
        await asyncio.sleep(POLL)
        if not tracker.watched():
            continue
        try:
            await asyncio.to_thread(tracker.poll)
        except SQLAlchemyError:
            continue  # the database is briefly unreachable: the next look tries again


async def _stream(
    tracker: Tracker,
    encounter_id: str,
    queue: asyncio.Queue[Any],
    version: int,
    request: Request,
) -> AsyncIterator[str]:
    try:
        yield f"data: {version}\n\n"
        while not await request.is_disconnected():
            try:
                item = await asyncio.wait_for(queue.get(), timeout=KEEP_ALIVE)
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            if isinstance(item, dict):  # a GM's odds, refined
                yield f"event: odds\ndata: {json.dumps(item)}\n\n"
                continue
            if item == CLOSED:
                return
            yield f"data: {item}\n\n"
    finally:
        tracker.unwatch(encounter_id, queue)


def _errors(app: FastAPI) -> None:
    """Every refusal as ``{"detail": "one line"}`` with its status."""

    def reply(status: int, text: str) -> JSONResponse:
        line = " ".join(text.split())
        if len(line) > MAX_LINE:  # every FirefightError is cut to fit already
            line = line[: MAX_LINE - 3] + "..."
        return JSONResponse({"detail": line}, status_code=status)

    @app.exception_handler(_Unauthorized)
    async def unauthorized(_request: Request, _err: _Unauthorized) -> JSONResponse:
        response = reply(401, "no token: send Authorization: Bearer <token>")
        response.headers["WWW-Authenticate"] = "Bearer"
        return response

    @app.exception_handler(NotFound)
    async def not_found(_request: Request, err: NotFound) -> JSONResponse:
        return reply(404, err.one_line(MAX_LINE))

    @app.exception_handler(Forbidden)
    async def forbidden(_request: Request, err: Forbidden) -> JSONResponse:
        return reply(403, err.one_line(MAX_LINE))

    @app.exception_handler(StaleVersion)
    async def stale(_request: Request, err: StaleVersion) -> JSONResponse:
        return reply(409, err.one_line(MAX_LINE))

    @app.exception_handler(FirefightError)
    async def refused(_request: Request, err: FirefightError) -> JSONResponse:
        return reply(422, err.one_line(MAX_LINE))

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, err: RequestValidationError) -> JSONResponse:
        return reply(422, _first_problem(err.errors()))


def _first_problem(errors: Any) -> str:
    """Pydantic's list of problems as one line: the first field and what is wrong with it."""
    if not errors:
        return "the request is not valid"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    if first.get("type") == "json_invalid":
        return f"the body is not valid JSON: {first.get('msg', '')}"
    return f"{where}: {first.get('msg', 'not valid')}{more}"
