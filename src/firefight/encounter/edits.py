"""The GM's hand on a fight: edits that are steps of the record like actions.

A GM changes what the rules engine did not see: sets a combatant's state field, adds a
combatant who arrives mid-fight, removes one who flees, reorders this round's initiative, skips
the acting combatant's turn or ends the round. Each edit is data (:data:`Edit`, kept in the
record's step as JSON), applied by :func:`apply_edit` on a dice source like an action (a skipped
turn or an ended round may start the next round, whose initiative rolls), so a record's edits
replay, undo and redo as its actions do.

The engine knows no ruleset here: a ruleset declares which fields a GM may set and the types
that check them (:meth:`~firefight.core.turns.Turns.gm_fields`), and how a combatant joins,
leaves, passes its turn and ends a round (:meth:`~firefight.core.turns.Turns.joined`,
``left``, ``pass_turn``, ``end_round``, each with a default). A combatant added mid-fight is a
row of the scenario's combatant table, so the scenario is rebuilt with it (catalogs and every
field work as in a scenario file) and the fight goes on under the rebuilt engine.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr, create_model

from firefight.core.transcript import Note
from firefight.core.turns import FightState, evolve
from firefight.core.validation import clip, shown, suggest, validate
from firefight.dice import DiceSource
from firefight.encounter.engine import Engine
from firefight.encounter.scenario import build_scenario
from firefight.errors import FirefightError, InputError

#: The actor a record names for an edit (the step's ``edit`` key tells it from an action).
GM = "GM"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Name = Annotated[StrictStr, Field(min_length=1, max_length=10_000)]


class SetField(_Strict):
    """Set one field of a combatant's state (``Jax.hit_points=14``)."""

    kind: Literal["set"] = "set"
    combatant: Name
    field: Name
    value: Any


class AddCombatant(_Strict):
    """A combatant who arrives mid-fight: a row of the scenario's combatant table."""

    kind: Literal["add"] = "add"
    side: Name
    #: The scenario's ``[[combatants]]`` keys (``name`` and the ruleset's fields; ``side``
    #: comes from :attr:`side`).
    combatant: dict[str, Any]
    #: Where it enters this round's order (0 first); None: as the ruleset enters it.
    position: Annotated[StrictInt, Field(ge=0, le=1000)] | None = None
    #: The range from it to everyone (the scenario's default range when None).
    range: StrictInt | StrictFloat | StrictStr | None = None
    #: The cover it holds (``battlefield.cover``), if any.
    cover: StrictStr | None = None


class RemoveCombatant(_Strict):
    """A combatant leaves the fight (fled, out of the scene)."""

    kind: Literal["remove"] = "remove"
    combatant: Name


class Reorder(_Strict):
    """This round's initiative order, as the GM puts it."""

    kind: Literal["order"] = "order"
    order: tuple[Name, ...] = Field(min_length=1, max_length=1000)


class SkipTurn(_Strict):
    """The acting combatant's turn passes without its action."""

    kind: Literal["skip"] = "skip"


class EndRound(_Strict):
    """The round ends now; the next one begins (its initiative rolled)."""

    kind: Literal["end round"] = "end round"


Edit = SetField | AddCombatant | RemoveCombatant | Reorder | SkipTurn | EndRound


_KINDS: dict[str, type[Edit]] = {
    "set": SetField,
    "add": AddCombatant,
    "remove": RemoveCombatant,
    "order": Reorder,
    "skip": SkipTurn,
    "end round": EndRound,
}


class _Holder(_Strict):
    edit: Annotated[Edit, Field(discriminator="kind")]


def parse_edit(data: Any, where: str) -> Edit:
    """An edit from its JSON (a record's step, an API body), or one line naming the field."""
    return validate(_Holder, {"edit": data}, where).edit


def make_edit(kind: str, **fields: Any) -> Edit:
    """An edit of ``kind`` from what a user gave (an API body, command-line words), checked:
    a bad field is one line (``remove: field edit.combatant: ...``), never pydantic's box."""
    model = _KINDS[kind]
    made: Edit = validate(model, {"kind": kind, **fields}, kind)
    return made


def parse_assignment(text: str, names: tuple[str, ...]) -> SetField:
    """``NAME.FIELD=VALUE`` (``Cpl. Hicks.hit_points=14``): the longest combatant name the
    left side starts with, then the field; the value is TOML (``14``, ``true``, ``"prone"``,
    ``["arm_wound"]``), as ``--set`` reads it."""
    import tomllib

    left, sep, raw = text.partition("=")
    if not sep:
        raise InputError(
            f"{clip(text)!r} has no '='", tip="write NAME.FIELD=VALUE, e.g. 'Jax.hit_points=14'"
        )
    left = left.strip()
    found = [n for n in names if left.startswith(n + ".")]
    if not found:
        who = left.rpartition(".")[0] or left
        raise InputError(
            f"{clip(text)!r}: no combatant {clip(who)!r} in the fight",
            tip=suggest(who, names, "combatants"),
        )
    name = max(found, key=len)
    field = left[len(name) + 1 :]
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        raise InputError(
            f"{clip(text)!r}: the value {clip(raw.strip(), 40)!r} is not a TOML value",
            tip="write a number, true or false, or text in quotes: 'Jax.stance=\"prone\"'",
        ) from None
    made = make_edit("set", combatant=name, field=field or "?", value=value)
    assert isinstance(made, SetField)
    return made


def edit_json(edit: Edit) -> dict[str, Any]:
    """The JSON a record keeps of ``edit`` (what :func:`parse_edit` reads back)."""
    return edit.model_dump(mode="json", exclude_none=True)


@dataclass(frozen=True)
class Applied:
    """An edit's result: the engine the fight goes on under (a new one after an addition), the
    state settled to the next decision, and the log's words for the GM and for the players."""

    engine: Engine
    state: FightState
    label: str
    #: The players' log line: never a hidden value (a set shows only who was changed).
    public: str


def apply_edit(engine: Engine, state: FightState, edit: Edit, dice: DiceSource) -> Applied:
    """Apply ``edit`` to ``state`` on ``dice`` and settle to the next decision; refused (one
    line, nothing changed) where the fight or the ruleset does not allow it."""
    turns = engine.turns
    if not isinstance(edit, (SetField, AddCombatant, RemoveCombatant)) and state.ending:
        raise InputError(
            f"the fight is over ({state.ending}): nobody's turn to {_verb(edit)}",
            tip="undo a step, or set a field or add a combatant to go on",
        )
    waiting = turns.busy(state) if state.ending is None else None
    if waiting is not None:
        raise InputError(
            f"the GM's hand waits: {waiting}", tip="take that decision first, then edit"
        )
    if state.ending is not None:  # a set or an addition may give the fight back to two sides
        state = evolve(state, ending=None, winner=None)
    if isinstance(edit, SetField):
        state, label, public = _set(engine, state, edit, dice)
    elif isinstance(edit, AddCombatant):
        engine, state, label = _add(engine, state, edit)
        public = label
        dice.record(Note(label))
    elif isinstance(edit, RemoveCombatant):
        state = _remove(engine, state, edit.combatant, dice)
        label = public = f"{GM}: {edit.combatant} leaves the fight"
    elif isinstance(edit, Reorder):
        state = _reorder(state, edit.order)
        label = public = f"{GM}: this round's order is {', '.join(state.order)}"
        dice.record(Note(label))
    elif isinstance(edit, SkipTurn):
        acting = state.decider()
        label = public = f"{GM}: {acting}'s turn is skipped"
        dice.record(Note(label))
        state = turns.pass_turn(state, dice)
    else:
        label = public = f"{GM}: round {state.round} ends"
        state.decider()
        dice.record(Note(label))
        state = turns.end_round(state, dice)
    state = engine.judge(state)
    if state.ending is None and state.acting is not None:
        acting = state.combatant(state.acting)
        if not turns.can_fight(acting):  # the GM put the acting combatant out of the fight
            state = engine.judge(turns.pass_turn(state, dice))
    return Applied(engine, engine.settle(state, dice), label, public)


def _verb(edit: Edit) -> str:
    return {"order": "reorder", "skip": "skip", "end round": "end"}.get(edit.kind, edit.kind)


# ----------------------------------------------------------------------------------------------
# set
# ----------------------------------------------------------------------------------------------
def _set(
    engine: Engine, state: FightState, edit: SetField, dice: DiceSource
) -> tuple[FightState, str, str]:
    name, field = edit.combatant, edit.field
    combatant = _present(state, name)
    fields = engine.turns.gm_fields(state, name)
    declared = fields.get(field)
    if declared is None:
        tip = (
            suggest(field, fields, "fields a GM may set")
            if fields
            else f"{engine.scenario.ruleset.id} lets a GM set no fields"
        )
        raise InputError(f"{name}.{clip(field)}: not a field a GM may set", tip=tip)
    checked = validate(_model(field, declared.type), {field: edit.value}, name)
    value = checked.model_dump()["value"]
    if declared.put is not None:
        after = declared.put(state, name, value)
        before_value: Any = None
    else:
        before_value = getattr(combatant, field)
        after = state.with_combatant(evolve(combatant, **{field: value}))
    if after == state:
        raise InputError(f"{name}.{field} is {shown(value)} already", tip="nothing to change")
    was = "" if declared.put is not None else f" (was {_value_text(before_value)})"
    label = f"{GM}: {name}.{field} = {_value_text(value)}{was}"
    dice.record(Note(label))
    return after, label, f"{GM}: {name} changed"


@lru_cache(maxsize=256)
def _model(field: str, kind: Any) -> type[BaseModel]:
    """A one-field model checking ``field`` (named as the GM wrote it, for the error line)."""
    model: type[BaseModel] = create_model(
        "GmEdit",
        __config__=ConfigDict(extra="forbid"),
        value=(kind, Field(alias=field)),
    )
    return model


def _value_text(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    return "none" if value is None else shown(value, 40)


# ----------------------------------------------------------------------------------------------
# add and remove
# ----------------------------------------------------------------------------------------------
def _add(engine: Engine, state: FightState, edit: AddCombatant) -> tuple[Engine, FightState, str]:
    data = copy.deepcopy(dict(engine.scenario.data))
    row = dict(edit.combatant)
    name = row.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError("the new combatant has no name", tip='give it name = "..."')
    if "side" in row and row["side"] != edit.side:
        raise InputError(
            f"the new combatant {clip(name)!r} names side {shown(row['side'])}, not {edit.side!r}",
            tip="leave side out of its table: the side is given apart",
        )
    sides = [s.name for s in engine.scenario.spec.sides]
    if edit.side not in sides:
        raise InputError(
            f"side {clip(edit.side)!r} is not a side", tip=f"sides: {', '.join(sides)}"
        )
    known = [e.name for e in engine.scenario.spec.combatants]
    if name in known:
        now = "is in" if name in state.names() else "was in"
        raise InputError(
            f"a combatant called {clip(name)!r} {now} this fight", tip="choose another name"
        )
    data["combatants"] = [*data.get("combatants", ()), {**row, "side": edit.side}]
    if edit.range is not None or edit.cover is not None:
        field = dict(data.get("battlefield") or {})
        if edit.range is not None:
            pairs = [{"between": [name, other], "range": edit.range} for other in known]
            field["pairs"] = [*field.get("pairs", ()), *pairs]
        if edit.cover is not None:
            field["cover"] = {**field.get("cover", {}), name: edit.cover}
        data["battlefield"] = field
    try:
        grown = Engine(build_scenario(data, engine.scenario.spec.source))
    except FirefightError as err:
        raise InputError(f"the new combatant is refused: {err.message}", tip=err.tip) from None
    start = grown.turns.initial()
    state = grown.turns.joined(state, start.combatant(name), start)
    label = f"{GM}: {name} joins {edit.side}"
    if edit.position is not None:
        rest = [n for n in state.order if n != name]
        state = evolve(state, order=(*rest[: edit.position], name, *rest[edit.position :]))
        label += f", place {min(edit.position, len(rest)) + 1} of this round's order"
    return grown, state, label


def _remove(engine: Engine, state: FightState, name: str, dice: DiceSource) -> FightState:
    _present(state, name)
    dice.record(Note(f"{GM}: {name} leaves the fight"))
    if state.acting == name:
        state = engine.turns.pass_turn(state, dice)
    return engine.turns.left(state, name)


def _present(state: FightState, name: str) -> Any:
    try:
        return state.combatant(name)
    except KeyError:
        raise InputError(
            f"no combatant {clip(name)!r} in the fight",
            tip=suggest(name, state.names(), "combatants"),
        ) from None


# ----------------------------------------------------------------------------------------------
# order
# ----------------------------------------------------------------------------------------------
def _reorder(state: FightState, order: tuple[str, ...]) -> FightState:
    """This round's order as given: every name of the current order once, and any combatant
    not in it (one who joined) where the GM puts it."""
    names = state.names()
    seen: set[str] = set()
    for n in order:
        if n not in names:
            raise InputError(
                f"order names {clip(n)!r}, who is not in the fight",
                tip=suggest(n, names, "combatants"),
            )
        if n in seen:
            raise InputError(f"order names {clip(n)!r} twice", tip="name each combatant once")
        seen.add(n)
    missing = [n for n in state.order if n not in seen]
    if missing:
        raise InputError(
            f"order leaves out {', '.join(missing)}",
            tip=f"name everyone in this round's order: {', '.join(state.order)}",
        )
    if tuple(order) == state.order:
        raise InputError("the order is that already", tip="nothing to change")
    return evolve(state, order=tuple(order))
