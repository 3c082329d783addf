"""The fast path: many fights at once, sampling cached exact kernels shared by many states.

Every fight is a lane holding the id of its current state. Each pass finds every lane's *key*:
the policy's action (chosen once per state, or per lane for the random policy) and the state
with the fields that step does not read set aside (``Turns.unread``, ``Engine.masked``: the
hit points of a warfare2d20 duellist who is not being shot at), so one exact transition kernel
(``Engine.kernel``: the step's every branch, by the rule code) serves every state that agrees on
the rest. All lanes draw their outcome in one numpy pass over the built kernels' concatenated
alias tables; (state, outcome) -> next state (the outcome given the lane's unread fields back)
is worked out once and then looked up. A step whose target's numbers are read only through
the losses it applies is keyed by a stand-in (``Turns.stand_in``: a target no hit can kill),
its outcomes carried back (``Turns.carry``); under policies blind to them, lanes carry such
numbers (``Turns.counters``: hit points, stamina) in arrays beside states that hold them at
their initial values, and a transition (state, outcome, a kill or not) moves them by its change,
so fights whose hit points spread wide still meet few states; a counter read only up to a cap
(``Turns.counter_cap``: stamina, to the pain threshold) keys a lane's step by its value so
capped (the lane's class). Keys met by few lanes are stepped
plainly on seeded dice; once a pass steps nearly all its lanes so (a big fight whose every
state is new), the chunk plays its remaining lanes to their ends as the reference loop does,
without interning their states, so such a fight costs what the loop does. Cost grows with the
distinct states and transitions met, not with the fights.

Work is cut into chunks of :data:`CHUNK` fights, chunk ``k`` drawing from a generator seeded by
``(seed, k)``, and the chunks' tallies are merged in order: the same seed gives the same report
whether the chunks run in this process or on several.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from firefight.analysis.reference import harm_dealt, new_tally
from firefight.analysis.report import Tally
from firefight.core.collector import collector_paused
from firefight.core.sampling import AliasTable
from firefight.core.turns import Action, FightState, Unread, evolve
from firefight.dice import ScriptedDice, SeededDice, enumerate_outcomes
from firefight.dice.sources import TooManyPaths
from firefight.encounter.engine import Engine
from firefight.encounter.policies import get_policy, mixture

#: Fights per chunk (one generator each).
CHUNK = 1 << 15
#: Most enumeration paths of the start before lanes roll their starts one by one instead.
START_PATHS = 20_000
#: Paths of the start always worth listing: a run of n fights lists its start only within
#: max(START_FLOOR, n) paths (a path costs about what rolling one lane's start does).
START_FLOOR = 500
#: Most enumeration paths of a kernel worth building.
KERNEL_PATHS = 20_000
#: Lanes of one chunk that must reach a (state, action) before its lanes draw from its exact
#: kernel (built once, kept by the process).
KERNEL_FROM = 8
#: Fewest lanes meeting a new key at once for its kernel to be considered at the first meeting.
FRESH = 2
#: Share of a pass's lanes stepped plainly (no kernel worth building for them) from which the
#: chunk's remaining lanes are played to their ends plainly, as the reference loop plays them.
SOLO_FROM = 0.9


#: Policies that choose from the legal actions alone (never from hit points or odds): the only
#: ones under which lanes may carry ``Turns.counters`` beside their states.
BLIND = frozenset({"first", "random"})
#: A combatant's round of falling out of the fight, while it has not.
_NEVER = np.iinfo(np.int64).max


@dataclass
class _Lanes:
    """A chunk's fights: each lane's state id, its counters (``KernelSampler.counted``), harm
    dealt by each combatant (column), and the round each combatant first fell out of the fight
    (:data:`_NEVER`: not yet)."""

    state_of: npt.NDArray[np.int64]
    counts: npt.NDArray[np.int64]
    dealt: npt.NDArray[np.float64]
    fell: npt.NDArray[np.int64]
    #: The lanes still fighting after the last whole pass (:func:`_still_fighting`): every
    #: other lane's fight is over, and no pass touches its row again.
    active: npt.NDArray[Any]
    #: Of ``active``, how many (the first, in order) :func:`_play_out` has played to their ends.
    played: int = 0


@dataclass(frozen=True)
class _Kernel:
    table: AliasTable[FightState]
    next_ids: npt.NDArray[np.int64]


@dataclass
class _Key:
    """One kernel the lanes share: a step (``action``) from ``state``, which is a lane's state
    with the fields the step does not read set aside (``Engine.masked``; ``unread`` names
    them, None: the lane's state itself). Every lane state that agrees with it on the rest
    draws from its kernel; the outcome, given that lane's own unread fields back, is the
    lane's next state."""

    state: FightState
    action: Action
    unread: Unread | None
    column: int
    #: ``state`` is the masked state's stand-in (``Turns.stand_in``): outcomes are carried
    #: back (``Turns.carry``) before the unread fields are given back.
    stand_in: bool = False
    #: Index of its first outcome in the sampler's flat outcome arrays, once built (-1: not).
    offset: int = -1
    too_big: bool = False
    #: The step reads counters the key does not set aside (lanes carry them beside their
    #: states, ``KernelSampler.counted``): its lanes are stepped plainly, on their own states.
    whole: bool = False


def counted(engine: Engine) -> tuple[str, ...]:
    """The counters lanes carry beside their states (``Turns.counters``), under policies blind
    to them (:data:`BLIND`); none otherwise."""
    blind = all(s.policy in BLIND for s in engine.scenario.spec.sides)
    return engine.turns.counters if blind else ()


def counter_caps(engine: Engine) -> list[int | None]:
    """Each carried counter's cap (``Turns.counter_cap``), combatant by combatant."""
    turns = engine.turns
    names = counted(engine)
    return [turns.counter_cap(c, f) for c in engine.initial().combatants for f in names]


def classes(engine: Engine) -> int:
    """How many classes the capped counters split a state's plan into (a sampler's tables hold
    one row per state and class)."""
    return int(np.prod([cap + 1 for cap in counter_caps(engine) if cap is not None]))


class KernelSampler:
    """Interned states and the kernels their lanes share, for one engine (one scenario).

    Lanes are stepped in bulk: every lane's step is a draw from its key's kernel (alias tables
    of every built kernel concatenated, so all lanes draw in one numpy pass), then a look-up of
    (state, outcome) in the transitions met so far. Python runs once per new state, new key
    and new transition, and for the lanes of keys too rarely met to be worth a kernel.
    """

    def __init__(self, engine: Engine, start_paths: int = START_PATHS) -> None:
        """``start_paths``: most paths of the start's enumeration (see :func:`start_budget`)."""
        self.engine = engine
        self.states: list[FightState] = []
        self.ids: dict[FightState, int] = {}
        names = [c.name for c in engine.scenario.spec.combatants]
        self.column = {n: i for i, n in enumerate(names)}
        self.policy_names = {s.name: s.policy for s in engine.scenario.spec.sides}
        #: Combatant fields (``Turns.counters``) the lanes carry in arrays beside their states,
        #: which then hold them at their initial values: hit points spread wide made every
        #: fight's states (and its transitions) its own. Only under policies blind to them.
        self.counted: tuple[str, ...] = counted(engine)
        first = engine.initial().combatants
        self.first_list = [getattr(c, f) for c in first for f in self.counted]
        self.first_counts = np.array(self.first_list, dtype=np.int64)
        caps = counter_caps(engine)
        #: Counters read up to a cap (``Turns.counter_cap``): their columns and caps. A lane's
        #: *class* numbers its capped counters capped (mixed radix): a state's plan is per
        #: class, its keys stepping the state with those counters put in.
        self.capped = [(j, cap) for j, cap in enumerate(caps) if cap is not None]
        self.classes = int(np.prod([cap + 1 for _, cap in self.capped], dtype=np.int64))
        #: Counters whose loss to 0 or below is a kill (every counter not capped).
        self.kills = np.array([cap is None for cap in caps], dtype=bool)
        #: Per state id (numpy arrays grown by doubling, so a pass reads them without copying
        #: every state seen so far): ended, who is out of the fight, the round, and, per state
        #: and class (``sid * classes + class``), its plan: the key of its policy's one action
        #: (-2: not worked out yet, -1: a mixture).
        self.ended = np.zeros(1024, dtype=bool)
        self.out_flags = np.zeros((1024, len(engine.scenario.spec.combatants)), dtype=bool)
        self.rounds = np.zeros(1024, dtype=np.int64)
        self.plan = np.full(1024 * self.classes, -2, dtype=np.int64)
        self.keys: list[_Key] = []
        #: (masked state or state id and class, action id) -> key.
        self.key_ids: dict[tuple[Hashable, ...], int] = {}
        #: (state id * classes + class, action id) -> key, for the actions of a mixture.
        self.mixed_keys: dict[tuple[int, str], int] = {}
        #: Per key: its outcomes' offset and count in the flat arrays (-1, 0: not built), and
        #: the lanes that met it so far.
        self.offsets = np.full(64, -1, dtype=np.int64)
        self.sizes = np.zeros(64, dtype=np.int64)
        #: Per key, in the current chunk only: the lanes that met it, and whether its lanes
        #: draw from its kernel (see :meth:`begin_chunk`).
        self.met = np.zeros(64, dtype=np.int64)
        self.using = np.zeros(64, dtype=bool)
        #: Every built kernel's alias table, concatenated (aliases as flat indices), and the
        #: outcome states (masked) and the key each belongs to, by flat index.
        self.prob = np.zeros(0)
        self.alias = np.zeros(0, dtype=np.int64)
        self.outcomes: list[FightState] = []
        self.owner: list[int] = []
        #: (state id << 32 | flat outcome) -> transition; per transition: next state id, harm
        #: dealt, the striker's column.
        self.transitions: dict[int, int] = {}
        #: Its codes sorted and their transitions, as of the last :meth:`_snapshot`.
        self.snap_codes = np.zeros(0, dtype=np.int64)
        self.snap_ids = np.zeros(0, dtype=np.int64)
        self.next_id = np.zeros(1024, dtype=np.int64)
        self.dealt = np.zeros(1024)
        self.striker = np.zeros(1024, dtype=np.int64)
        #: Lanes that reached a key's situation (its round-1 twin) in the current chunk,
        #: stepped plainly until worth a kernel.
        self.visits: dict[tuple[FightState, str], int] = {}
        self.choices: dict[int, list[tuple[Action, float]] | None] = {}
        #: Lanes of the last chunk played to their ends plainly (:func:`_play_out`).
        self.played_out = 0
        #: Per flat outcome of a built kernel: its counters' change from the key's state.
        self.flat_delta = np.zeros((0, len(self.first_counts)), dtype=np.int64)
        #: Per flat outcome: whether it takes off a counter whose loss can kill.
        self.flat_kills = np.zeros(0, dtype=bool)
        #: Per transition: the counters' change.
        self.step_delta = np.zeros((1024, len(self.first_counts)), dtype=np.int64)
        self.first_names = [c.name for c in first]
        #: (combatant, state id, its counters) -> harm they add to the state's (:meth:`add_harm`).
        self.harms: dict[tuple[int, ...], int] = {}
        #: The settled start's distribution (round 1's initiative), when small enough to list.
        self.start: _Kernel | None = None
        try:
            start = enumerate_outcomes(engine.start, max_paths=start_paths)
            table: AliasTable[FightState] = AliasTable.build(start)
            entered = [self.enter(s) for s in table.outcomes]
            ids = np.array([sid for sid, _ in entered], dtype=np.int64)
            self.start = _Kernel(table, ids)
            self.start_counts = self._rows([row for _, row in entered])
        except TooManyPaths:
            pass  # many combatants' initiative: each lane rolls its own start

    def _rows(self, rows: list[list[int]]) -> npt.NDArray[np.int64]:
        return np.array(rows, dtype=np.int64).reshape(len(rows), len(self.first_counts))

    def counts_of(self, state: FightState) -> list[int]:
        """The state's counters, in the lanes' column order."""
        names = self.counted
        return [getattr(c, f) for c in state.combatants for f in names]

    def enter(self, state: FightState) -> tuple[int, list[int]]:
        """The id of the state with its counters at their initial values, and the counters."""
        if not self.counted:
            return self.intern(state), self.first_list
        counts = self.counts_of(state)
        if counts != self.first_list:
            state = self._with_counts(state, self.first_list, counts)
        return self.intern(state), counts

    def whole(self, sid: int, counts: npt.NDArray[np.int64]) -> FightState:
        """State ``sid`` with the lane's own counters."""
        if not self.counted:
            return self.states[sid]
        own = counts.tolist()
        state = self.states[sid]
        return state if own == self.first_list else self._with_counts(state, own, self.first_list)

    def _with_counts(self, state: FightState, counts: list[int], now: list[int]) -> FightState:
        """``state`` (whose counters are ``now``) with ``counts`` instead."""
        names, k = self.counted, len(self.counted)
        people = list(state.combatants)
        for i, c in enumerate(people):
            mine = counts[i * k : (i + 1) * k]
            if mine != now[i * k : (i + 1) * k]:
                people[i] = evolve(c, **dict(zip(names, mine, strict=True)))
        changed: FightState = evolve(state, combatants=tuple(people))
        return changed

    def intern(self, state: FightState) -> int:
        state = self.engine.lumped(state)
        found = self.ids.get(state)
        if found is None:
            found = self.ids[state] = len(self.states)
            self.states.append(state)
            if found >= len(self.ended):
                self.ended, self.rounds = _grown(self.ended), _grown(self.rounds)
                self.plan, self.out_flags = _grown(self.plan, -2), _grown(self.out_flags)
            self.ended[found] = state.ending is not None
            turns = self.engine.turns
            self.out_flags[found] = [not turns.can_fight(c) for c in state.combatants]
            self.rounds[found] = state.round
        return found

    def choice(self, sid: int) -> list[tuple[Action, float]] | None:
        """The acting side's policy as a distribution over actions, or None (ask per lane)."""
        if sid not in self.choices:
            state = self.states[sid]
            actor = state.decider()
            name = self.policy_names[self.engine.side_of(actor)]
            actions = self.engine.legal_actions(state)
            mixed = mixture(name, self.engine, state, actions)
            self.choices[sid] = None if mixed is None else [(a, float(p)) for a, p in mixed]
        return self.choices[sid]

    def add_harm(
        self, tally: Tally, state_of: npt.NDArray[np.int64], counts: npt.NDArray[np.int64]
    ) -> None:
        """Add to ``tally`` the harm that ending lanes' own counters add to their states' (which
        hold them at their initial values), combatant by combatant: a tally sums harm taken,
        so the lanes need not be told apart by all their counters at once."""
        k = len(self.counted)
        turns = self.engine.turns
        for i, name in enumerate(self.first_names):
            first = self.first_list[i * k : (i + 1) * k]
            rows = np.column_stack([state_of, counts[:, i * k : (i + 1) * k]])
            firsts, many = _distinct(rows)
            extra = 0
            for row, n in zip(rows[firsts].tolist(), many.tolist(), strict=True):
                found = self.harms.get((i, *row))
                if found is None:
                    c = self.states[row[0]].combatants[i]
                    own = row[1:]
                    found = 0
                    if own != first:
                        mine = evolve(c, **dict(zip(self.counted, own, strict=True)))
                        found = turns.harm(mine) - turns.harm(c)
                    self.harms[(i, *row)] = found
                extra += found * n
            if extra:
                tally.taken[name] = tally.taken.get(name, 0) + extra

    def class_of(self, counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Each lane's class (see :attr:`capped`) from its counters (rows)."""
        code = np.zeros(len(counts), dtype=np.int64)
        for j, cap in self.capped:
            code = code * (cap + 1) + np.clip(counts[:, j], 0, cap)
        return code

    def plan_of(self, slot: int) -> int:
        """Work out the plan of a state and class (see :attr:`plan`)."""
        sid, cls = divmod(slot, self.classes)
        mixed = self.choice(sid)
        found = -1 if mixed is None or len(mixed) != 1 else self.key_of(sid, mixed[0][0], cls)
        self.plan[slot] = found
        return found

    def classed(self, sid: int, cls: int) -> FightState:
        """State ``sid`` with its capped counters at class ``cls``'s values."""
        if not self.capped:
            return self.states[sid]
        counts = list(self.first_list)
        for j, cap in reversed(self.capped):
            cls, counts[j] = divmod(cls, cap + 1)
        state = self.states[sid]
        return (
            state
            if counts == self.first_list
            else self._with_counts(state, counts, self.first_list)
        )

    def key_of(self, sid: int, action: Action, cls: int = 0) -> int:
        """The key whose kernel steps ``action`` from state ``sid`` in class ``cls``."""
        state = self.classed(sid, cls)
        masked = self.engine.masked(state, action)
        # a state keyed by itself is found by its id: hashing a big state again costs
        shared, unread = masked if masked is not None else (state, None)
        look: tuple[Hashable, ...] = (
            (sid, cls, action.id) if masked is None else (shared, action.id)
        )
        stand_in = self.engine.turns.stand_in(shared, action)
        if stand_in is not None:
            shared, look = stand_in, (stand_in, action.id, "stand-in")
        found = self.key_ids.get(look)
        if found is None:
            found = self.key_ids[look] = len(self.keys)
            column = self.column[action.striker]
            key = _Key(shared, action, unread, column, stand_in=stand_in is not None)
            key.whole = not self._sets_counters_aside(state, key)
            self.keys.append(key)
            if found >= len(self.offsets):
                self.offsets, self.sizes = _grown(self.offsets, -1), _grown(self.sizes)
                self.met, self.using = _grown(self.met), _grown(self.using)
        return found

    def _sets_counters_aside(self, state: FightState, key: _Key) -> bool:
        """Whether the key's state leaves out every counter of the lanes' states: each
        unread, or replaced by the stand-in (a capped one: read by it up to its cap, which
        the lane's class holds)."""
        if not self.counted:
            return True
        free = dict(key.unread or ())
        k = len(self.counted)
        pairs = zip(state.combatants, key.state.combatants, strict=True)
        for i, (mine, theirs) in enumerate(pairs):
            for n, f in enumerate(self.counted):
                if f in free.get(i, ()):
                    continue
                if self.kills[i * k + n]:
                    if getattr(mine, f) == getattr(theirs, f):
                        return False
                elif not key.stand_in:
                    return False
        return True

    def begin_chunk(self) -> None:
        """Forget which keys earned a kernel: a chunk decides from its own lanes alone.

        Kernels built by earlier chunks stay cached, but whether a lane draws from one or is
        stepped on dice must not depend on which chunks this process ran before (a
        worker's share depends on scheduling), or the same seed would give another report
        on another number of workers or cores.
        """
        self.met[:] = 0
        self.using[:] = False
        self.visits.clear()
        self.played_out = 0

    def worth_a_kernel(self, kid: int, lanes: int) -> bool:
        """Build (or use) the key's exact kernel, or step these few lanes one by one?

        A kernel costs one enumeration of the step's every branch, which in a big fight (a burst
        at three targets: 1,599 joint outcomes) is worth hundreds of plain steps; keys that few
        lanes share are stepped plainly, so a big fight is never much slower than the reference.
        Lanes are counted by situation: a key's round-1 twin, whose kernel every round shares.
        A key first met by fewer than :data:`FRESH` lanes is stepped plainly with no more
        asked (in a big fight nearly every step is new, and looking for its twin costs).
        """
        key = self.keys[kid]
        if self.using[kid]:
            return True
        if key.too_big or key.whole:
            return False
        met = self.met[kid]
        self.met[kid] += lanes
        if not met and lanes < FRESH:
            return False
        engine = self.engine
        twin = engine.round_one(key.state) or key.state
        situation = (twin, key.action.id)
        self.visits[situation] = seen = self.visits.get(situation, 0) + lanes
        if seen < KERNEL_FROM:
            return False
        if key.offset < 0:
            try:
                dist = engine.kernel(key.state, key.action, max_paths=KERNEL_PATHS, staged=False)
            except TooManyPaths:
                key.too_big = True
                return False
            self._add_kernel(kid, AliasTable.build(dist))
        self.using[kid] = True
        return True

    def _add_kernel(self, kid: int, table: AliasTable[FightState]) -> None:
        offset = len(self.outcomes)
        self.outcomes.extend(table.outcomes)
        self.owner.extend([kid] * len(table.outcomes))
        self.prob = np.concatenate([self.prob, table.prob])
        self.alias = np.concatenate([self.alias, offset + table.alias.astype(np.int64)])
        self.keys[kid].offset = self.offsets[kid] = offset
        self.sizes[kid] = len(table.outcomes)
        if self.counted:
            base = np.array(self.counts_of(self.keys[kid].state), dtype=np.int64)
            moved = self._rows([self.counts_of(o) for o in table.outcomes]) - base
            self.flat_delta = np.concatenate([self.flat_delta, moved])
            self.flat_kills = np.concatenate([self.flat_kills, (moved[:, self.kills] != 0).any(1)])

    def draw(self, kids: npt.NDArray[np.int64], rng: np.random.Generator) -> npt.NDArray[Any]:
        """One outcome (a flat index) of each key's kernel: Walker's alias method, every kernel
        in one pass (as :meth:`AliasTable.sample` does for one)."""
        size = self.sizes[kids]
        u = rng.random(len(kids))
        u *= size
        column = u.astype(np.int64)
        np.minimum(column, size - 1, out=column)
        u -= column
        flat = self.offsets[kids] + column
        return np.where(u < self.prob[flat], flat, self.alias[flat])

    def follow(
        self, sids: npt.NDArray[np.int64], flat: npt.NDArray[Any], counts: npt.NDArray[np.int64]
    ) -> npt.NDArray[Any]:
        """The transitions of (state, drawn outcome, whether it brings a counter of the lane's
        to 0 or below): looked up, or made where new.

        Most lanes are found in one ``searchsorted`` over a sorted copy of the transitions met
        so far; only lanes meeting a transition newer than that copy go through the dict (and
        the copy is made again once a quarter of the transitions are newer than it)."""
        codes = ((sids << 32) | flat) << 1
        if self.counted:
            # only outcomes taking off a counter whose loss can kill
            some = np.flatnonzero(self.flat_kills[flat])
            delta = self.flat_delta[flat[some]]
            killed = (delta != 0) & (counts[some] + delta <= 0)
            codes[some] |= killed[:, self.kills].any(axis=1)
        snap = self.snap_codes
        if len(snap):
            pos = np.searchsorted(snap, codes)
            np.minimum(pos, len(snap) - 1, out=pos)
            found = np.where(snap[pos] == codes, self.snap_ids[pos], -1)
        else:
            found = np.full(len(codes), -1, dtype=np.int64)
        miss = np.flatnonzero(found < 0)
        if miss.size:
            known = self.transitions
            for i, code in zip(miss.tolist(), codes[miss].tolist(), strict=True):
                t = known.get(code)
                if t is None:
                    t = self._transition(code, int(sids[i]), int(flat[i]), counts[i])
                found[i] = t
            if len(known) - len(snap) > max(1024, len(snap) // 4):
                self._snapshot()
        return found

    def _snapshot(self) -> None:
        """A sorted copy of the transitions met so far, for :meth:`follow`."""
        known = self.transitions
        codes = np.fromiter(known.keys(), np.int64, len(known))
        ids = np.fromiter(known.values(), np.int64, len(known))
        order = np.argsort(codes)
        self.snap_codes, self.snap_ids = codes[order], ids[order]

    def _transition(self, code: int, sid: int, flat: int, counts: npt.NDArray[np.int64]) -> int:
        """A new transition, worked out on one lane's own state: every lane meeting it (the
        same state and outcome, a counter brought to 0 or below alike) moves the same way."""
        state = self.whole(sid, counts)
        key = self.keys[self.owner[flat]]
        after = self.outcomes[flat]
        if key.stand_in:
            after = carried(self.engine, state, key.action, key.state, key.unread, after)
        elif key.unread is not None:
            after = self.engine.unmask(state, key.state, key.unread, after)
        t = self.transitions[code] = len(self.transitions)
        if t >= len(self.next_id):
            self.next_id, self.dealt = _grown(self.next_id), _grown(self.dealt)
            self.striker, self.step_delta = _grown(self.striker), _grown(self.step_delta)
        self.next_id[t], moved = self.enter(after)
        self.step_delta[t] = np.array(moved, dtype=np.int64) - counts
        self.dealt[t] = harm_dealt(self.engine, state, after, key.action.striker)
        self.striker[t] = key.column
        return t


def carried(
    engine: Engine,
    state: FightState,
    action: Action,
    stand_in: FightState,
    unread: Unread | None,
    after: FightState,
) -> FightState:
    """``after``, an outcome of the step from ``stand_in`` (``Turns.stand_in`` of ``state``
    masked of ``unread``), as the outcome of the step from ``state``: carried back
    (``Turns.carry``), settled on dice that roll nothing (a carried step rolls no more), its
    unread fields given back."""
    back = engine.settle(engine.turns.carry(state, action, stand_in, after), ScriptedDice(()))
    return back if unread is None else engine.unmask(state, stand_in, unread, back)


def _grown(a: npt.NDArray[Any], fill: int = 0) -> npt.NDArray[Any]:
    """``a`` at twice its length, the new rows ``fill``."""
    b = np.full((2 * len(a), *a.shape[1:]), fill, dtype=a.dtype)
    b[: len(a)] = a
    return b


@collector_paused
def run_chunk(
    sampler: KernelSampler,
    n: int,
    rng: np.random.Generator,
    on_fights: Callable[[int], None] | None = None,
) -> Tally:
    """``n`` fights to their ends, tallied: the same ``rng`` gives the same tally whatever
    chunks ``sampler`` ran before. ``on_fights`` is told how many more fights are over after
    each pass (and each fight played out plainly).

    Ctrl-C stops the chunk: the tally then holds the fights that were over before the pass
    (or the fight played out) it came in, whole, and says ``interrupted``. The sampler may be
    left half-way through learning a transition: use it for nothing more.

    The cyclic garbage collector is paused for the chunk: the sampler keeps every state met
    (hundreds of thousands of objects), which each full collection walks again, a quarter
    of a warfare2d20 duel's time; the chunk's steps leave next to no cycles (a few hundred
    objects in 32,768 duels), collected once it is back on."""
    sampler.begin_chunk()
    try:
        chunk = _start_lanes(sampler, n, rng)
    except KeyboardInterrupt:
        stopped = new_tally(sampler.engine)
        stopped.interrupted = True
        return stopped
    try:
        _fight_out(sampler, chunk, rng, on_fights)
    except KeyboardInterrupt:
        over = np.ones(n, dtype=bool)
        over[chunk.active[chunk.played :]] = False
        stopped = _tally(sampler, chunk, np.flatnonzero(over))
        stopped.interrupted = True
        return stopped
    return _tally(sampler, chunk)


def _start_lanes(sampler: KernelSampler, n: int, rng: np.random.Generator) -> _Lanes:
    """``n`` lanes at the start of their fights (round 1's initiative drawn)."""
    engine = sampler.engine
    if sampler.start is not None:
        picks = sampler.start.table.sample(n, rng)
        return _lanes(sampler, sampler.start.next_ids[picks], sampler.start_counts[picks])
    # initiative of many combatants: roll each lane's start plainly
    dice = SeededDice(rng)
    return _entered(sampler, [engine.start(dice) for _ in range(n)])


def _entered(sampler: KernelSampler, states: list[FightState]) -> _Lanes:
    """A lane at each of ``states``."""
    entered = [sampler.enter(s) for s in states]
    state_of = np.array([sid for sid, _ in entered], dtype=np.int64)
    return _lanes(sampler, state_of, sampler._rows([row for _, row in entered]))


def _lanes(
    sampler: KernelSampler, state_of: npt.NDArray[np.int64], counts: npt.NDArray[np.int64]
) -> _Lanes:
    n, width = len(state_of), len(sampler.column)
    never = np.full((n, width), _NEVER, dtype=np.int64)
    return _Lanes(state_of, counts, np.zeros((n, width)), never, np.arange(n))


@collector_paused
def run_from(sampler: KernelSampler, states: list[FightState], rng: np.random.Generator) -> Tally:
    """A fight from each of ``states`` (any state of the scenario's fights: the one an action
    left) played to its end by the sides' policies, tallied as :func:`run_chunk` tallies
    fights from the start. Interrupted (Ctrl-C, or a stop from the dice's check), the sampler
    may be left half-way through learning a transition: use it for nothing more."""
    sampler.begin_chunk()
    chunk = _entered(sampler, states)
    _fight_out(sampler, chunk, rng, None)
    return _tally(sampler, chunk)


def _fight_out(
    sampler: KernelSampler,
    chunk: _Lanes,
    rng: np.random.Generator,
    on_fights: Callable[[int], None] | None,
) -> None:
    """Every lane's fight to its end, pass by pass."""
    active = _still_fighting(sampler, chunk, chunk.active, on_fights)
    while active.size:
        lanes, kids = _keys_of(sampler, chunk, active, rng)
        plain = _step(sampler, lanes, kids, chunk, rng)
        _mark_fallen(sampler, chunk, active)
        active = _still_fighting(sampler, chunk, active, on_fights)
        if plain >= SOLO_FROM * len(lanes):
            _play_out(sampler, chunk, rng, on_fights)
            break


def _still_fighting(
    sampler: KernelSampler,
    chunk: _Lanes,
    active: npt.NDArray[Any],
    on_fights: Callable[[int], None] | None,
) -> npt.NDArray[Any]:
    """The lanes of ``active`` whose fights are not over, kept as the chunk's ``active`` (a
    pass is whole: Ctrl-C after this keeps the others); ``on_fights`` told how many ended."""
    left: npt.NDArray[Any] = active[~sampler.ended[chunk.state_of[active]]]
    chunk.active = left
    if on_fights is not None and len(left) < len(active):
        on_fights(len(active) - len(left))
    return left


def _tally(sampler: KernelSampler, chunk: _Lanes, rows: npt.NDArray[Any] | None = None) -> Tally:
    """The tally of the chunk's fights, or of its lanes ``rows`` only (fights over)."""
    engine = sampler.engine
    state_of, held, dealt, fell = chunk.state_of, chunk.counts, chunk.dealt, chunk.fell
    if rows is not None:
        state_of, held, dealt, fell = state_of[rows], held[rows], dealt[rows], fell[rows]
    tally = new_tally(engine)
    initial = engine.initial()
    # each ending state once, with its lanes' count (their counters at the initial values),
    # then the harm their own counters add
    sids, many = np.unique(state_of, return_counts=True)
    for sid, count in zip(sids.tolist(), many.tolist(), strict=True):
        tally.add(engine.turns, sampler.states[sid], count, initial)
    if sampler.counted and len(state_of):
        sampler.add_harm(tally, state_of, held)
    for name, col in sampler.column.items():
        tally.add_dealt(name, float(dealt[:, col].sum()))
        fallen = fell[:, col]
        rounds, counts = np.unique(fallen[fallen != _NEVER], return_counts=True)
        for r, count in zip(rounds.tolist(), counts.tolist(), strict=True):
            tally.add_fell(name, r, count)
    return tally


def _distinct(rows: npt.NDArray[np.int64]) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """The rows' distinct values: the index of the first row holding each, and how many do."""
    # one integer per row (each column above its least), where it fits
    low = rows.min(axis=0)
    spans = (rows.max(axis=0) - low + 1).tolist()
    if int(np.prod(spans, dtype=object)) >= 1 << 62:
        _, first, many = np.unique(rows, axis=0, return_index=True, return_counts=True)
        return first, many
    code = np.zeros(len(rows), dtype=np.int64)
    for j, span in enumerate(spans):
        code = code * span + (rows[:, j] - low[j])
    _, first, many = np.unique(code, return_index=True, return_counts=True)
    return first, many


def _keys_of(
    sampler: KernelSampler,
    chunk: _Lanes,
    active: npt.NDArray[Any],
    rng: np.random.Generator,
) -> tuple[npt.NDArray[Any], npt.NDArray[np.int64]]:
    """Each active lane and the key of its step: its state's plan in its class, or (a
    mixture) the action its policy picks for this lane."""
    slots = chunk.state_of[active]
    if sampler.capped:
        slots = slots * sampler.classes + sampler.class_of(chunk.counts[active])
    plans = sampler.plan[slots]
    new = plans == -2
    if new.any():
        for slot in np.unique(slots[new]).tolist():
            sampler.plan_of(slot)
        plans = sampler.plan[slots]
    mixed = plans < 0
    if not mixed.any():
        return active, plans
    lanes = [active[~mixed]]
    kids = [plans[~mixed]]
    their, states = active[mixed], slots[mixed]
    order = np.argsort(states, kind="stable")
    uniq, starts = np.unique(states[order], return_index=True)
    bounds = [*starts.tolist(), len(order)]
    # groups in the order of their first lanes, so the generator is read in an order that does
    # not depend on state ids (which depend on what this process met before)
    for g in np.argsort(order[starts]).tolist():
        slot = int(uniq[g])
        sid, cls = divmod(slot, sampler.classes)
        group = their[order[bounds[g] : bounds[g + 1]]]
        for action, chosen in _split_by_action(sampler, sid, group, rng):
            found = sampler.mixed_keys.get((slot, action.id))
            if found is None:
                found = sampler.mixed_keys[slot, action.id] = sampler.key_of(sid, action, cls)
            lanes.append(chosen)
            kids.append(np.full(len(chosen), found, dtype=np.int64))
    return np.concatenate(lanes), np.concatenate(kids)


def _step(
    sampler: KernelSampler,
    lanes: npt.NDArray[Any],
    kids: npt.NDArray[np.int64],
    chunk: _Lanes,
    rng: np.random.Generator,
) -> int:
    """One step of every lane: drawn from its key's kernel, or (a key not worth one yet)
    played plainly on seeded dice; returns how many lanes were played plainly."""
    state_of, dealt, held = chunk.state_of, chunk.dealt, chunk.counts
    plain_count = 0
    built = sampler.using[kids]
    if not built.all():
        # keys in the order their first lanes come (not by key id, which depends on what this
        # process met before): keys sharing a situation count their lanes in the same order
        waiting, first, counts = np.unique(kids[~built], return_index=True, return_counts=True)
        for g in np.argsort(first).tolist():
            sampler.worth_a_kernel(int(waiting[g]), int(counts[g]))
        built = sampler.using[kids]
        plain = np.flatnonzero(~built)
        plain_count = int(plain.size)
        if plain.size:
            engine = sampler.engine
            for lane, kid in zip(lanes[plain].tolist(), kids[plain].tolist(), strict=True):
                key = sampler.keys[kid]
                before = sampler.whole(state_of[lane], held[lane])
                # dice of its own per step: a transcript of every lane's step would only grow
                after = engine.step(before, key.action, SeededDice(rng))
                state_of[lane], held[lane] = sampler.enter(after)
                dealt[lane, key.column] += harm_dealt(engine, before, after, key.action.striker)
            lanes, kids = lanes[built], kids[built]
    if lanes.size:
        t = sampler.follow(state_of[lanes], sampler.draw(kids, rng), held[lanes])
        state_of[lanes] = sampler.next_id[t]
        if sampler.counted:
            held[lanes] += sampler.step_delta[t]
        dealt[lanes, sampler.striker[t]] += sampler.dealt[t]
    return plain_count


def _play_out(
    sampler: KernelSampler,
    chunk: _Lanes,
    rng: np.random.Generator,
    on_fights: Callable[[int], None] | None,
) -> None:
    """Each active lane's fight to its end, one lane after another, as the reference loop
    plays it (the policy asked at every step): when nearly every lane's step is one no kernel
    pays for (a big fight, whose every state is new), the fast path's interning, keys and
    passes only cost, so the chunk plays the rest plainly and is never much slower than the
    loop. A lane's row holds its fight's harm and falls as they come, its state only once it
    is over; ``chunk.played`` counts the lanes over."""
    lanes = chunk.active
    engine = sampler.engine
    turns = engine.turns
    column = sampler.column
    state_of, dealt, fell = chunk.state_of, chunk.dealt, chunk.fell
    policies = {s.name: get_policy(s.policy) for s in engine.scenario.spec.sides}
    sides = {c.name: c.side for c in engine.scenario.spec.combatants}
    sampler.played_out += len(lanes)
    for lane in lanes.tolist():
        state = sampler.whole(state_of[lane], chunk.counts[lane])
        dice = SeededDice(rng)  # one per fight, as the reference loop's
        while state.ending is None:
            actor = state.decider()
            action = policies[sides[actor]](engine, state, engine.legal_actions(state), rng)
            after = engine.step(state, action, dice)
            dealt[lane, column[action.striker]] += harm_dealt(engine, state, after, action.striker)
            for old, new in zip(state.combatants, after.combatants, strict=True):
                col = column[new.name]
                if fell[lane, col] == _NEVER and turns.can_fight(old) and not turns.can_fight(new):
                    fell[lane, col] = after.round
            state = after
        state_of[lane], chunk.counts[lane] = sampler.enter(state)
        chunk.played += 1
        if on_fights is not None:
            on_fights(1)


def _mark_fallen(sampler: KernelSampler, chunk: _Lanes, lanes: npt.NDArray[Any]) -> None:
    """Record the round each lane's combatants first fell out of the fight."""
    ids = chunk.state_of[lanes]
    flags = sampler.out_flags[ids]
    # only lanes with someone out of the fight (in a duel, those whose fight just ended)
    some = np.flatnonzero(flags.any(axis=1))
    lanes, ids, flags = lanes[some], ids[some], flags[some]
    rounds = sampler.rounds[ids]
    now = chunk.fell[lanes]
    newly = flags & (now == _NEVER)
    chunk.fell[lanes] = np.where(newly, rounds[:, None], now)


def _split_by_action(
    sampler: KernelSampler, sid: int, lanes: npt.NDArray[Any], rng: np.random.Generator
) -> list[tuple[Action, npt.NDArray[Any]]]:
    mixed = sampler.choice(sid)
    if mixed is not None and len(mixed) == 1:
        return [(mixed[0][0], lanes)]
    if mixed is not None:
        probs = np.array([p for _, p in mixed])
        picks = rng.choice(len(mixed), size=len(lanes), p=probs / probs.sum())
        return [(mixed[i][0], lanes[picks == i]) for i in range(len(mixed)) if (picks == i).any()]
    # a stochastic policy without a declared mixture: ask it lane by lane
    state = sampler.states[sid]
    engine = sampler.engine
    policy = get_policy(sampler.policy_names[engine.side_of(state.decider())])
    actions = engine.legal_actions(state)
    chosen: dict[str, tuple[Action, list[int]]] = {}
    for lane in lanes.tolist():
        a = policy(engine, state, actions, rng)
        chosen.setdefault(a.id, (a, []))[1].append(lane)
    return [(a, np.array(group)) for a, group in chosen.values()]


def start_budget(n: int) -> int:
    """Most paths of the start worth enumerating for a run of ``n`` fights: listing it costs
    about a path what rolling one lane's start costs (a warfare2d20 fire team's 20,000 paths
    took 1.5 s, five times 100 fights' whole run). It depends on ``n`` alone, never on which
    process runs a chunk, so the same seed gives the same report on any number of workers."""
    return min(START_PATHS, max(START_FLOOR, n))


def chunk_sizes(n: int) -> list[int]:
    return [min(CHUNK, n - start) for start in range(0, n, CHUNK)]


def chunk_rng(seed_entropy: int, k: int) -> np.random.Generator:
    return np.random.default_rng([seed_entropy, k, 0xFA57])


def simulate_fast(
    engine: Engine,
    n: int,
    seed: int | None,
    workers: int = 1,
    on_fights: Callable[[int], None] | None = None,
) -> tuple[Tally, bool]:
    """``n`` fights on the fast path; returns the tally and whether it was interrupted.

    ``on_fights`` is told how many more fights are over: pass by pass in this process, chunk by
    chunk on several. Ctrl-C stops the run; the tally holds the fights over (whole: on one
    process those of the chunk in progress too, on several the chunks finished) and the
    workers are ended before this returns."""
    entropy = int(np.random.SeedSequence(seed).entropy)  # type: ignore[arg-type]
    sizes = chunk_sizes(n)
    tally = new_tally(engine)
    if workers > 1 and len(sizes) > 1:
        return _in_processes(engine, n, entropy, workers, tally, on_fights)
    # the chunks' tallies are kept whole and merged at the end, in order: Ctrl-C never
    # leaves one half merged
    parts: list[Tally] = []
    try:
        sampler = KernelSampler(engine, start_budget(n))
        for k, size in enumerate(sizes):
            parts.append(run_chunk(sampler, size, chunk_rng(entropy, k), on_fights))
            if parts[-1].interrupted:
                break
    except KeyboardInterrupt:  # while the start was listed, or between chunks
        tally.interrupted = True
    for part in parts:
        tally.merge(part)
    return tally, tally.interrupted


# ----------------------------------------------------------------------------------------------
# Several processes (both cores): each rebuilds the engine from the scenario data once
# ----------------------------------------------------------------------------------------------
_WORKER: dict[str, KernelSampler] = {}


def _init_worker(data: dict[str, Any], source: str, max_rounds: int, start_paths: int) -> None:
    from firefight.encounter.scenario import build_scenario

    # Ctrl-C is for the process that started the workers: it ends them (a terminal sends
    # SIGINT to the whole process group, and a worker's KeyboardInterrupt would only end its
    # chunk, or the worker with a traceback)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    scenario = build_scenario({**data, "max_rounds": max_rounds}, source)
    _WORKER["sampler"] = KernelSampler(Engine(scenario), start_paths)


def _worker_chunk(size: int, entropy: int, k: int) -> Tally:
    return run_chunk(_WORKER["sampler"], size, chunk_rng(entropy, k))


def _in_processes(
    engine: Engine,
    n: int,
    entropy: int,
    workers: int,
    tally: Tally,
    on_fights: Callable[[int], None] | None,
) -> tuple[Tally, bool]:
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

    sizes = chunk_sizes(n)
    scenario = engine.scenario
    args = (dict(scenario.data), scenario.spec.source, engine.max_rounds, start_budget(n))
    context = multiprocessing.get_context("spawn")
    # the workers are started (by the first submits) with SIGINT ignored, which they keep
    # from their first instruction: a Ctrl-C while one is still importing prints no traceback
    with _ctrl_c_ignored():
        pool = ProcessPoolExecutor(
            workers, mp_context=context, initializer=_init_worker, initargs=args
        )
        futures = [pool.submit(_worker_chunk, size, entropy, k) for k, size in enumerate(sizes)]
    parts: list[Tally] = []
    finished = False
    try:
        for future, size in zip(futures, sizes, strict=True):
            parts.append(future.result())
            if on_fights is not None:
                on_fights(size)
        finished = True
    except KeyboardInterrupt:
        tally.interrupted = True
    finally:
        if finished:
            pool.shutdown()
        else:  # Ctrl-C, or a chunk's error: nothing more is wanted from the workers
            with _ctrl_c_ignored():
                _end_workers(pool)
    if tally.interrupted:  # chunks finished out of order count too
        later: list[Future[Tally]] = futures[len(parts) :]
        parts += [f.result() for f in later if f.done() and not f.cancelled() and not f.exception()]
    for part in parts:
        tally.merge(part)
    return tally, tally.interrupted


def _end_workers(pool: Any) -> None:
    """Cancel the chunks not started and end the workers now, waiting for them to be gone.

    ``shutdown(cancel_futures=True)`` alone lets the workers finish their chunks, and once the
    pool was collected (this function returned) its manager thread, which the interpreter
    waits for at exit, went on feeding them every chunk not yet cancelled: Ctrl-C on 20
    million duels printed the report, then the command ran on for a minute and a half.
    ``ProcessPoolExecutor`` has no public way to end its workers before Python 3.14
    (``terminate_workers``), hence its ``_processes``."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.exitcode is None:
            process.terminate()
    for process in processes:
        process.join(timeout=_END_WAIT)


#: Longest wait for one ended worker to be gone (SIGTERM ends one at once).
_END_WAIT = 10.0


@contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """SIGINT ignored in the block, then handled as before: processes started in it begin with
    it ignored (an ignored signal stays ignored across ``exec``, and Python then leaves it so),
    and a second Ctrl-C cannot cut short ending the workers. Only Python's main thread may
    change a handler (and only it is sent KeyboardInterrupt): elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.getsignal(signal.SIGINT)
    if before is None:  # a handler not installed from Python: leave it be
        yield
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
