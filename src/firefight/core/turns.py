"""The turn structure a ruleset gives the encounter engine: the round is a rule too.

A ruleset that runs whole fights returns a :class:`Turns` object from
``Ruleset.encounter(spec)``. It holds what does not change during the fight (stats, weapons,
the battlefield as the scenario gives it) and answers four questions about a :class:`FightState`,
which holds only what does change:

- ``initial()``: the state before round 1 (round 0, nobody acting);
- ``start_round(state, dice)``: the next round begins (initiative as the text gives it, what
  wears off at the start of a round); returns a state whose ``acting`` names who decides first,
  or ``None`` if nobody can act this round;
- ``legal_actions(state)``: what ``state.acting`` may do now, each :class:`Action` with a stable id;
- ``act(state, action, dice)``: the action resolved by the ruleset's own rule code, then the turn
  passed on (end of turn, end of round); ``acting`` is ``None`` when the round is over.

Both ``start_round`` and ``act`` ask ``dice`` for every roll, so the same code plays on seeded
dice, replays the faces a table rolled, and enumerates exactly (the transition kernel). The
engine (``firefight.encounter``) owns rounds counted against ``max_rounds``, the ending, the
record, policies and previews; it never asks which ruleset it is driving.

States must be small, frozen and hashable (frozen dataclasses of numbers, strings, tuples), so
exact kernels cache well and :func:`state_to_json` / :func:`state_from_json` round-trip exactly.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from firefight.core.house import HouseRules
from firefight.core.layout import ViewLayout
from firefight.dice import DiceSource
from firefight.errors import InputError

Ending = Literal["terminated", "truncated"]
#: Combatants (by index in ``FightState.combatants``) and the names of their fields a step
#: neither reads nor writes (:meth:`Turns.unread`).
Unread = tuple[tuple[int, tuple[str, ...]], ...]
#: One part of an action's resolution (:meth:`Turns.preview_stages`): the state so far and the
#: dice in, the state after the part out.
Stage = Callable[["FightState", DiceSource], "FightState"]


class CombatantState(Protocol):
    """What the engine reads of a ruleset's per-combatant state (a frozen dataclass)."""

    @property
    def name(self) -> str:
        """Unique in the scenario: actions, records and ``FightState.combatant`` find it by this."""
        ...

    @property
    def side(self) -> str:
        """The side it fights for: the fight ends when at most one side can still fight."""
        ...


@dataclass(frozen=True)
class FightState:
    """Everything that changes during a fight; the rest lives in the :class:`Turns` object.

    ``combatants`` keeps the scenario's order; ``board`` is the ruleset's shared state (ranges
    that change as combatants close, suppression zones, an exchange in progress), ``None`` if it
    needs none.
    """

    round: int
    #: The ruleset's name for where the round stands ("initiative", "turns", "exchange", ...).
    phase: str
    #: Initiative order of this round (names).
    order: tuple[str, ...]
    #: Who decides now; ``None`` between rounds.
    acting: str | None
    combatants: tuple[Any, ...]
    board: Any = None
    #: Set by the engine when the fight is over.
    ending: Ending | None = None
    winner: str | None = None

    def __hash__(self) -> int:
        """The fields' hash, kept once worked out: exact enumeration hashes each state it meets
        several times (outcome tables, kernels, previews). A copy made from ``__dict__`` must
        drop ``_hash`` (``__getstate__`` does, for pickle and deepcopy)."""
        h: int | None = self.__dict__.get("_hash")
        if h is None:
            h = hash(
                (
                    self.round,
                    self.phase,
                    self.order,
                    self.acting,
                    self.combatants,
                    self.board,
                    self.ending,
                    self.winner,
                )
            )
            self.__dict__["_hash"] = h
        return h

    def __getstate__(self) -> dict[str, Any]:
        """The fields without the kept hash (another process salts string hashes anew)."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def combatant(self, name: str) -> Any:
        """The state of the combatant called ``name``."""
        for c in self.combatants:
            if c.name == name:
                return c
        raise KeyError(name)

    def with_combatant(self, new: Any) -> FightState:
        """A copy with one combatant's state replaced (matched by name)."""
        return evolve(
            self, combatants=tuple(new if c.name == new.name else c for c in self.combatants)
        )

    def decider(self) -> str:
        """Who decides now, for code that runs only while a decision is due: an error line
        rather than ``None`` reaching a rule when nobody is (between rounds, or the fight over)."""
        if self.acting is None:
            raise InputError(
                f"nobody is acting in round {self.round} ({self.phase})",
                tip="start the encounter again; a saved one may have been edited",
            )
        return self.acting

    def names(self) -> tuple[str, ...]:
        """The combatants' names, in the scenario's order."""
        return tuple(c.name for c in self.combatants)


R = TypeVar("R")
#: A record type's field names, or None where :func:`evolve` must go through ``__init__``.
_FIELDS: dict[type, frozenset[str] | None] = {}


def evolve(obj: R, **changes: Any) -> R:
    """``dataclasses.replace`` for frozen states without running ``__init__`` again: exact
    previews replay a turn once per path and the fast path masks states by the thousand, and
    replacing a 35-field record through ``__init__`` was most of that time. A kept hash
    (``_hash``) is dropped with the old values; an unknown field is an error, as there; a record
    with slots or a ``__post_init__`` is replaced the usual way."""
    kind = type(obj)
    if kind not in _FIELDS:
        plain = hasattr(obj, "__dict__") and not hasattr(kind, "__post_init__")
        fields = dataclasses.fields(obj)  # type: ignore[arg-type]
        _FIELDS[kind] = frozenset(f.name for f in fields) if plain else None
    names = _FIELDS[kind]
    if names is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    if not names.issuperset(changes):
        raise TypeError(f"{kind.__name__} has no field {sorted(set(changes) - names)}")
    new = object.__new__(kind)
    values = new.__dict__
    values.update(obj.__dict__)
    values.update(changes)
    values.pop("_hash", None)
    return new


def action_key(action_id: str) -> str:
    """An action id as :class:`Action` writes it: spaces as underscores (records saved with
    spaced ids, ``take cover``, replay by this)."""
    return action_id.strip().replace(" ", "_")


@dataclass(frozen=True)
class Action:
    """One thing the acting combatant may do now.

    ``id`` is stable (the same state lists the same ids) and unique among the legal actions, so a
    record can name it and a replay find it again; ``label`` is what a person reads. An id has
    no spaces (a name in it, ``fire:Team leader:single``, is written ``fire:Team_leader:single``)
    so it is one word on a command line; :func:`action_key` reads an id either way.
    """

    id: str
    actor: str
    label: str
    #: "attack", "move", "delay", "defend", "stance", "wait", ... (the ruleset's words).
    kind: str
    target: str | None = None
    #: One of the text's defensive options (taking cover, full parry, ...): the cautious policy
    #: prefers these when its combatant is hurt or suppressed.
    defensive: bool = False
    #: The ruleset's own parameters of the action (hashable pairs).
    params: tuple[tuple[str, Any], ...] = ()
    #: Whose blow this step resolves when that is not the actor's (a defender choosing a stance
    #: lets the attacker's attack land in the defender's step): harm dealt is credited to them.
    credit: str | None = None

    @property
    def striker(self) -> str:
        """Who the harm this step does to the other side is credited to."""
        return self.credit or self.actor

    def __post_init__(self) -> None:
        if " " in self.id:
            object.__setattr__(self, "id", action_key(self.id))

    def param(self, key: str, default: Any = None) -> Any:
        """The value of one of :attr:`params` (``default`` when the action has none)."""
        for k, v in self.params:
            if k == key:
                return v
        return default


@dataclass(frozen=True)
class GmField:
    """A field of a combatant that a GM may set (:meth:`Turns.gm_fields`).

    ``type`` checks a value (a pydantic type: ``Annotated[int, Field(ge=0, le=14)]``,
    ``Literal[...]``), so an impossible one is refused in one line naming the field. ``put``
    writes a checked value where it does not live on the combatant's own state under the
    field's name (a range kept on the board); by default the state field of that name is set.
    """

    type: Any
    put: Callable[[FightState, str, Any], FightState] | None = None


@dataclass(frozen=True)
class SideSpec:
    """A side of a scenario and the name of the policy that chooses for it in automatic play."""

    name: str
    policy: str = "first"


@dataclass(frozen=True)
class CombatantEntry:
    """One combatant of a scenario: its name, side and the ruleset's own fields (unvalidated)."""

    name: str
    side: str
    fields: Mapping[str, Any]
    #: Where it sits in the file, for messages: ``combatants[2]``.
    where: str


@dataclass(frozen=True)
class Battlefield:
    """Ranges between combatants and the cover each one holds, as the scenario gives them.

    ``range`` is the default between any two combatants; ``pairs`` override it for two names.
    Values are the ruleset's own (a range band, metres, feet); the ruleset validates them.
    """

    range: Any = None
    pairs: tuple[tuple[frozenset[str], Any], ...] = ()
    cover: Mapping[str, str] = field(default_factory=dict)

    def between(self, a: str, b: str) -> Any:
        """The range between ``a`` and ``b``: their own pair's if the scenario gives one."""
        key = frozenset((a, b))
        for names, value in self.pairs:
            if names == key:
                return value
        return self.range


@dataclass(frozen=True)
class ScenarioSpec:
    """A scenario after the engine checked its common part (sides, names, battlefield)."""

    ruleset: str
    title: str
    #: The file it came from: messages name it; relative catalog paths start from its folder.
    source: str
    sides: tuple[SideSpec, ...]
    combatants: tuple[CombatantEntry, ...]
    battlefield: Battlefield
    house: HouseRules
    #: The ruleset's own top-level scenario keys (e.g. ``catalogs``), unvalidated.
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: A scenario being built (the tracker's form adds one combatant at a time): each
    #: combatant is checked, but not how many there are yet or on which sides.
    draft: bool = False

    def fail(self, where: str, message: str, tip: str | None = None) -> InputError:
        """One line naming the file and field."""
        return InputError(f"{self.source}: {where}: {message}", tip=tip)


class Turns(ABC):
    """A ruleset's turn structure for one scenario (see the module docstring)."""

    #: Frozen dataclass types that may appear inside a state (for the JSON round trip).
    state_types: ClassVar[tuple[type, ...]] = ()
    #: Integer combatant fields the fast path may carry in arrays beside its states (under
    #: policies that choose from the legal actions alone), the states holding them at their
    #: initial values. A ruleset promises that nothing reads them but ``harm`` and the steps
    #: that leave them unread (:meth:`unread`) or replace them in a stand-in (:meth:`stand_in`),
    #: and that such a step's outcome depends on them only through whether its loss brings
    #: one to 0 or below (a kill), the harm it deals not at all.
    counters: ClassVar[tuple[str, ...]] = ()

    def counter_cap(self, combatant: Any, field: str) -> int | None:
        """How much of a counter (:attr:`counters`) of ``combatant`` (as the fight starts) the
        steps read: ``None`` (the default), only whether a loss brings it to 0 or below (a
        kill); a number, its value only up to that cap (stamina that a hit draws on only to the
        pain threshold), read only where :meth:`stand_in` replaces its owner or it is unread,
        and never a kill. The fast path keys a lane's step by its capped counters (its class),
        so lanes whose counter stands anywhere above the cap share states and transitions."""
        return None

    def __init__(self, spec: ScenarioSpec) -> None:
        self.spec = spec

    @abstractmethod
    def initial(self) -> FightState:
        """The state before round 1: round 0, ``acting`` None."""

    @abstractmethod
    def start_round(self, state: FightState, dice: DiceSource) -> FightState:
        """Begin round ``state.round + 1``: initiative, start-of-round effects."""

    @abstractmethod
    def legal_actions(self, state: FightState) -> tuple[Action, ...]:
        """What ``state.acting`` may do now (never empty while someone is acting)."""

    @abstractmethod
    def act(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        """Resolve ``action`` with the rule code, then pass the turn on."""

    def preview_act(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        """``act`` as an odds preview reads it (``Engine.preview``): only the combatants of the
        result are read, so a ruleset may sum out what only later steps read (a burst's shared
        roll, kept for its next targets) and branch over less. The combatants' distribution
        must be ``act``'s as far as a preview reads it: each one's :meth:`can_fight`,
        :meth:`is_dead` and :meth:`conditions`, whether it changed, jointly, and its
        :meth:`harm` in the mean (a wound's detail that nothing
        after reads may be merged, the harm's mean kept: graydawn's hunkering); the default
        is ``act`` itself."""
        return self.act(state, action, dice)

    def preview_stages(self, state: FightState, action: Action) -> tuple[Stage, ...] | None:
        """:meth:`preview_act` as parts run one after the other (the first gets ``state``), or
        ``None`` (the default): a preview enumerates ``preview_act`` path by path. With parts,
        an exact preview carries the distinct states each part leaves to the next, merged, so
        its work grows with the states met part-way, not with every path through the dice
        (a graydawn round played out after a suppressing-fire declaration). Run in order on
        any dice, the parts must be ``preview_act`` (best: ``act`` itself runs them); a part
        given a state it has nothing to do for returns it. Actions followed through
        (:meth:`in_progress`) are not: a ruleset that has both answers ``None``."""
        return None

    def preview_idle(self, state: FightState) -> Unread | None:
        """Fields of combatants that the rest of :meth:`preview_stages` from ``state`` (a state
        a part left) neither reads nor writes, nor :meth:`can_fight`, :meth:`harm` and
        :meth:`conditions`; ``None`` (the default): none. A staged preview sets them back to
        the acting state's values (a combatant they told apart counts as changed), so states
        that differ only there (a score that only the next round reads) merge before the rest
        multiplies them."""
        return None

    def preview_stand_in(self, state: FightState) -> FightState | None:
        """A state that the rest of :meth:`preview_stages` from ``state`` (a state a part left)
        treats as it treats ``state``, as far as a preview reads the end (each combatant's
        :meth:`can_fight`, :meth:`conditions`, :meth:`harm` and whether it differs from the
        acting state's), or ``None`` (the default): ``state`` itself. A staged preview carries
        the stand-in, so states that differ only where the rest reads them alike (suppression
        levels whose penalty nobody reads) merge before the rest multiplies them."""
        return None

    def preview_carry(
        self, state: FightState
    ) -> tuple[FightState, tuple[tuple[int, Fraction], ...]] | None:
        """``state`` (a state a part of :meth:`preview_stages` left) with the harm it carries
        only for the preview taken out, and that harm per combatant index; ``None`` (the
        default): none. A ruleset whose preview merges outcomes that the rest reads alike
        (``preview_act``) may keep their harm's exact mean in the state (:meth:`harm` reads
        it); carried apart, states that differ only in that mean merge, and the preview adds
        it back (``Engine._staged``). The state without it must play on as ``state`` does."""
        return None

    @abstractmethod
    def can_fight(self, combatant: Any) -> bool:
        """Still in the fight (not dead, unconscious, fled, ...)."""

    def is_dead(self, combatant: Any) -> bool:
        """Dead, not just out of the fight (reports count the dead apart); default never."""
        return False

    def in_progress(self, state: FightState) -> bool:
        """An action is half done, waiting on a decision inside it (a defender's stance, a
        riposte): a preview then follows it through on each decider's first legal action, so an
        attack previews the blow it leads to, not just the question it asks."""
        return False

    def shift_rounds(self, state: FightState, delta: int) -> FightState | None:
        """``state`` moved ``delta`` rounds on (``delta`` may be negative; the round stays >= 1):
        every round number it holds moved by ``delta``, or ``None`` (the default) where the step
        from ``state`` or from the moved state reads the round (an ambush in round 1). A ruleset
        that answers promises that stepping the moved state is the step moved (and that
        ``can_fight`` and ``harm`` read no round number): the engine then enumerates one kernel
        for all the rounds of a situation instead of one per round (``Engine.kernel``)."""
        return None

    def round_start_stand_in(self, state: FightState) -> FightState | None:
        """A state whose :meth:`start_round` is ``state``'s on any dice (the same dice asked,
        the same states out), or ``None`` (the default): ``state`` itself. ``state`` is a round
        over (nobody acting, the fight going on); what the round's start sets before anything
        reads it (this round's marks, the order, initiative rolled afresh) may stand at fixed
        values in the stand-in, the round and what :meth:`can_fight` reads as in ``state``. The
        exact chain settles the states an action leaves by their stand-ins, once for all that
        share one (``Engine.settled``): a duel's round ends mostly in states that differ only
        there (the last round's scores). A test holds each answer to the state's own
        settling."""
        return None

    def unread(self, state: FightState, action: Action) -> Unread | None:
        """Fields of combatants (by index) that the whole step from ``state`` by ``action``
        neither reads nor writes (the action, the turn passed on, rounds ended and begun, and
        ``can_fight`` as the engine judges the ending), or ``None`` (the default): nothing is
        promised. The fast path keys the step's kernel by the state with those fields set
        aside (``Engine.masked``), so one kernel serves every state that differs only there:
        hit points spread wide would otherwise give every fight states (and kernels) of its
        own. A test holds each answer to the state's own kernel."""
        return None

    def stand_in(self, state: FightState, action: Action) -> FightState | None:
        """A state whose step, each outcome carried back by :meth:`carry`, is the step from
        ``state`` (the same distribution), or ``None`` (the default): the fast path keys the
        kernel by the stand-in, so states that differ where the step reads them only through
        what it applies (a target's hit points: only the damage taken off them is drawn) share
        one kernel. ``state`` is already masked (``Engine.masked``). A test holds each answer,
        carried back, to the state's own kernel."""
        return None

    def carry(
        self, state: FightState, action: Action, stand_in: FightState, after: FightState
    ) -> FightState:
        """``after``, an outcome of the step from :meth:`stand_in`'s answer, as the outcome of
        the step from ``state`` (the lane's own, not masked; the unread fields are given back
        after, by ``Engine.unmask``): settled, or left for the engine to settle without dice
        (a target that falls ends the fight or the round)."""
        raise NotImplementedError(f"{type(self).__name__} gives no stand-ins")

    def idle(self, state: FightState) -> Unread | None:
        """Fields that nothing reads from ``state`` on: no step, legal action or policy of the
        rest of the fight, nor ``can_fight``, ``is_dead`` or ``harm`` (a W10 result that could
        only ever unlock a signal to allies, where there are none). The fast path carries its
        lanes' states with them at their initial values (``Engine.lumped``), so fights that
        differ only there share states; the default, ``None``, lumps nothing."""
        return None

    @abstractmethod
    def harm(self, combatant: Any) -> int:
        """How much harm the combatant has taken, in the text's units (damage, wounds, ...):
        the engine reports damage dealt and taken from it and the aggressive policy maximises
        it on the other side."""

    def is_hurt(self, combatant: Any) -> bool:
        """Hurt or pinned enough that the cautious policy turns to defensive options."""
        return self.harm(combatant) > 0

    def conditions(self, combatant: Any) -> frozenset[str]:
        """What the combatant suffers now beyond harm, in the text's words ("stunned",
        "pinned", "disarmed", "suppressed", "prone", ...): an odds preview gives the chance an
        action leaves each one newly on someone, so choices that differ only there show apart.
        Out of the fight and dead are the engine's own (:meth:`can_fight`, :meth:`is_dead`).
        A preview's merging (:meth:`preview_act`, :meth:`preview_stand_in`, ...) must keep
        them. Default: none."""
        return frozenset()

    def alike(self, state: FightState, first: Action, second: Action) -> str | None:
        """Why two actions of ``state`` whose previews came out the same are the same by the
        rules here, in one phrase ("the rate of fire's delta t is cancelled by its recoil"),
        or ``None`` (the default): the odds then say only that they are the same."""
        return None

    @abstractmethod
    def view(self, combatant: Any) -> dict[str, Any]:
        """The combatant's state in the text's own terms, JSON-ready (everything the GM sees)."""

    #: Keys of :meth:`view` that a players' page may show for the other side (visible status).
    public_keys: ClassVar[tuple[str, ...]] = ("status",)
    #: Which fields of :meth:`view` a page draws as vital bars and which as condition chips
    #: (the rest are details, folded): see :mod:`firefight.core.layout`. Default: no bars,
    #: ``status`` as a chip.
    layout: ClassVar[ViewLayout] = ViewLayout()

    def decision_features(self, state: FightState) -> dict[str, Any]:
        """What the decision due at ``state`` may turn on that no combatant's :meth:`view`
        shows (a riposte's margin, the range to the enemy), by name, in the text's words;
        default none. ``firefight solve`` tabulates the best decisions against these, the
        views and the round."""
        return {}

    def after_fight(self, state: FightState) -> list[str]:
        """What the text says happens after the fight (recovery), in lines; default none."""
        return []

    def reported(self, state: FightState) -> tuple[str, ...]:
        """What an ended fight's state says happened that a rule asks to be reported (a
        riposte chain cut at its limit, ...): ``simulate`` gives how often each did. Default
        none."""
        return ()

    def unreported(self, state: FightState) -> FightState:
        """``state`` without what only :meth:`reported` reads (a fact kept to the fight's end
        for ``simulate`` to count): who wins from it is the same, so ``solve``, which asks only
        that, merges states that differ only there. Default: the state itself."""
        return state

    # -- the GM's hand (``firefight.encounter.edits``) -----------------------------------------
    def gm_fields(self, state: FightState, name: str) -> Mapping[str, GmField]:
        """The fields of combatant ``name`` a GM may set in ``state``, each with the type that
        checks a value (its bounds from the ruleset's models and the combatant's own stats).
        Default: none, so a ruleset that declares nothing still takes every other edit."""
        return {}

    def busy(self, state: FightState) -> str | None:
        """Why the GM's hand must wait in ``state`` (an action half done, waiting on a decision
        inside it), or ``None``. Default: :meth:`in_progress`."""
        if self.in_progress(state):
            return f"an action waits on {state.acting}'s decision inside it"
        return None

    def joined(self, state: FightState, newcomer: Any, start: FightState) -> FightState:
        """``state`` with ``newcomer`` (its state as the fight starts, taken from ``start``: this
        turn structure's :meth:`initial`, which knows it) in the fight. Default: it is added to
        the combatants and to the end of this round's order, so it acts after everyone this
        round and rolls initiative with the rest where the text rolls it each round; a ruleset
        whose board names combatants (distances) copies the newcomer's rows from ``start``."""
        return evolve(
            state,
            combatants=(*state.combatants, newcomer),
            order=(*state.order, newcomer.name),
        )

    def left(self, state: FightState, name: str) -> FightState:
        """``state`` without combatant ``name`` (fled, out of the scene), who is not acting.
        Default: it leaves the combatants and the order; a ruleset whose board names it
        (grapples, declared fire) drops it there too."""
        return evolve(
            state,
            combatants=tuple(c for c in state.combatants if c.name != name),
            order=tuple(n for n in state.order if n != name),
        )

    def pass_turn(self, state: FightState, dice: DiceSource) -> FightState:
        """The acting combatant's turn ends without its action (the GM skips it), the turn
        passed on as the ruleset passes it (``acting`` None when the round is over). Default:
        the next combatant after it in the order who can fight."""
        order = state.order
        acting = state.decider()
        after = order[order.index(acting) + 1 :] if acting in order else ()
        for name in after:
            if self.can_fight(state.combatant(name)):
                return evolve(state, acting=name)
        return self.end_round(state, dice)

    def end_round(self, state: FightState, dice: DiceSource) -> FightState:
        """The round ends now (the GM ends it): whoever has not acted does not, and what the
        text does at a round's end is done; ``acting`` None. Default: just that."""
        return evolve(state, acting=None)


# ----------------------------------------------------------------------------------------------
# JSON round trip of states
# ----------------------------------------------------------------------------------------------
_CORE_TYPES: tuple[type, ...] = (FightState,)


def state_to_json(value: Any) -> Any:
    """A JSON-ready form of a state: dataclasses tagged by type, tuples as lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"__type__": type(value).__name__}
        for f in dataclasses.fields(value):
            out[f.name] = state_to_json(getattr(value, f.name))
        return out
    if isinstance(value, tuple):
        return [state_to_json(v) for v in value]
    if isinstance(value, frozenset):
        items = [state_to_json(v) for v in value]
        return {"__frozenset__": sorted(items, key=repr)}
    if isinstance(value, Fraction):
        return {"__fraction__": f"{value.numerator}/{value.denominator}"}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"state holds a {type(value).__name__}, which has no JSON form")


def state_from_json(data: Any, types: tuple[type, ...]) -> Any:
    """Inverse of :func:`state_to_json`; ``types`` are the dataclasses that may appear."""
    by_name = {t.__name__: t for t in (*_CORE_TYPES, *types)}
    return _decode(data, by_name)


def _decode(data: Any, by_name: dict[str, type]) -> Any:
    if isinstance(data, list):
        return tuple(_decode(v, by_name) for v in data)
    if isinstance(data, dict):
        if "__frozenset__" in data:
            return frozenset(_decode(v, by_name) for v in data["__frozenset__"])
        if "__fraction__" in data:
            return Fraction(data["__fraction__"])
        name = data.get("__type__")
        if name not in by_name:
            raise InputError(f"saved state names an unknown type {name!r}")
        cls = by_name[name]
        kwargs = {k: _decode(v, by_name) for k, v in data.items() if k != "__type__"}
        return cls(**kwargs)
    return data


def shift_round(state: FightState, delta: int) -> FightState | None:
    """:meth:`Turns.shift_rounds` for a ruleset whose states hold no round number but the
    state's own: the round moved, or ``None`` below round 1."""
    if state.round + delta < 1:
        return None
    return FightState(
        state.round + delta,
        state.phase,
        state.order,
        state.acting,
        state.combatants,
        state.board,
        state.ending,
        state.winner,
    )
