"""The fast path: many fights at once, sampling cached exact kernels, lanes grouped by state.

Every fight is a lane holding the id of its current state. Each pass groups the lanes still
fighting by state; for each group the policy's action is chosen once (or per lane, for the random
policy), and the next states of all its lanes are drawn in one numpy call from that state's exact
transition kernel (``Engine.kernel``: the step's every branch, by the rule code), built once and
cached as an alias table. Cost grows with the distinct states visited, not with the fights.

Work is cut into chunks of :data:`CHUNK` fights, chunk ``k`` drawing from a generator seeded by
``(seed, k)``, and the chunks' tallies are merged in order: the same seed gives the same report
whether the chunks run in this process or on several.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from firefight.analysis.reference import harm_dealt, new_tally
from firefight.analysis.report import Tally
from firefight.core.sampling import AliasTable
from firefight.core.turns import Action, FightState
from firefight.dice import SeededDice, enumerate_outcomes
from firefight.dice.sources import TooManyPaths
from firefight.encounter.engine import Engine
from firefight.encounter.policies import get_policy, mixture

#: Fights per chunk (one generator each).
CHUNK = 1 << 15
#: Most enumeration paths of the start before lanes roll their starts one by one instead.
START_PATHS = 20_000
#: Most enumeration paths of a kernel worth building.
KERNEL_PATHS = 20_000
#: Lanes that must reach a (state, action) before its exact kernel is built.
KERNEL_FROM = 48


@dataclass(frozen=True)
class _Kernel:
    table: AliasTable[FightState]
    next_ids: npt.NDArray[np.int64]
    dealt: npt.NDArray[np.float64]


class KernelSampler:
    """Interned states and their cached kernels, for one engine (one scenario)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.states: list[FightState] = []
        self.ids: dict[FightState, int] = {}
        #: Per state id (numpy arrays grown by doubling, so a pass reads them without copying
        #: every state seen so far): ended, who is out of the fight, the round.
        self.ended = np.zeros(1024, dtype=bool)
        self.out_flags = np.zeros((1024, len(engine.scenario.spec.combatants)), dtype=bool)
        self.rounds = np.zeros(1024, dtype=np.int64)
        self.kernels: dict[tuple[int, str], _Kernel] = {}
        #: Lanes that reached (situation, action) so far, stepped plainly until worth a kernel.
        self.visits: dict[tuple[int, str], int] = {}
        #: State id -> its situation's number; situation (round-1 twin) -> number.
        self.situations: dict[int, int] = {}
        self.twins: dict[FightState, int] = {}
        #: (state, action) whose kernel has too many branches: always stepped plainly.
        self.too_big: set[tuple[int, str]] = set()
        self.choices: dict[int, list[tuple[Action, float]] | None] = {}
        names = [c.name for c in engine.scenario.spec.combatants]
        self.column = {n: i for i, n in enumerate(names)}
        self.policy_names = {s.name: s.policy for s in engine.scenario.spec.sides}
        #: The settled start's distribution (round 1's initiative), when small enough to list.
        self.start: _Kernel | None = None
        try:
            start = enumerate_outcomes(engine.start, max_paths=START_PATHS)
            self.start = self._table(start, None)
        except TooManyPaths:
            pass  # many combatants' initiative: each lane rolls its own start

    def intern(self, state: FightState) -> int:
        found = self.ids.get(state)
        if found is None:
            found = self.ids[state] = len(self.states)
            self.states.append(state)
            if found >= len(self.ended):
                self._grow()
            self.ended[found] = state.ending is not None
            turns = self.engine.turns
            self.out_flags[found] = [not turns.can_fight(c) for c in state.combatants]
            self.rounds[found] = state.round
        return found

    def _table(self, dist: Any, before: FightState | None, actor: str | None = None) -> _Kernel:
        table: AliasTable[FightState] = AliasTable.build(dist)
        next_ids = np.array([self.intern(s) for s in table.outcomes], dtype=np.int64)
        if before is None or actor is None:
            dealt = np.zeros(len(next_ids))
        else:
            dealt = np.array(
                [harm_dealt(self.engine, before, s, actor) for s in table.outcomes], dtype=float
            )
        return _Kernel(table, next_ids, dealt)

    def kernel(self, sid: int, action: Action) -> _Kernel:
        key = (sid, action.id)
        found = self.kernels.get(key)
        if found is None:
            state = self.states[sid]
            dist = self.engine.kernel(state, action)
            found = self.kernels[key] = self._table(dist, state, action.striker)
        return found

    def _grow(self) -> None:
        size = 2 * len(self.ended)
        self.ended = np.resize(self.ended, size)
        self.rounds = np.resize(self.rounds, size)
        flags = np.zeros((size, self.out_flags.shape[1]), dtype=bool)
        flags[: len(self.out_flags)] = self.out_flags
        self.out_flags = flags

    def worth_a_kernel(self, sid: int, action: Action, lanes: int) -> bool:
        """Build (or use) the exact kernel, or step these few lanes one by one on seeded dice?

        A kernel costs one enumeration of the step's every branch, which in a big fight (a burst
        at three targets: 1,599 joint outcomes) is worth hundreds of plain steps; states that
        few lanes share are stepped plainly, so a big fight is never slower than the reference.
        """
        key = (sid, action.id)
        if key in self.kernels:
            return True
        if key in self.too_big:
            return False
        state = self.states[sid]
        known = self.engine.known_kernel(state, action, max_paths=KERNEL_PATHS)
        if known is not None:  # enumerated already, for this state in another round
            self.kernels[key] = self._table(known, state, action.striker)
            return True
        # lanes are counted by situation: the same one in any round shares a kernel
        situation = (self._situation(sid), action.id)
        self.visits[situation] = seen = self.visits.get(situation, 0) + lanes
        if seen < KERNEL_FROM:
            return False
        try:
            dist = self.engine.kernel(state, action, max_paths=KERNEL_PATHS)
        except TooManyPaths:
            self.too_big.add(key)
            return False
        self.kernels[key] = self._table(dist, state, action.striker)
        return True

    def _situation(self, sid: int) -> int:
        """A number for the state's situation: its round-1 twin (``Engine.round_one``), or the
        state itself where the ruleset does not share kernels across rounds."""
        found = self.situations.get(sid)
        if found is None:
            state = self.states[sid]
            twin = self.engine.round_one(state) or state
            found = self.situations[sid] = self.twins.setdefault(twin, len(self.twins))
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


def run_chunk(sampler: KernelSampler, n: int, rng: np.random.Generator) -> Tally:
    """``n`` fights to their ends, tallied."""
    engine = sampler.engine
    if sampler.start is not None:
        state_of = sampler.start.next_ids[sampler.start.table.sample(n, rng)]
    else:  # initiative of many combatants: roll each lane's start plainly
        dice = SeededDice(rng)
        state_of = np.array([sampler.intern(engine.start(dice)) for _ in range(n)], dtype=np.int64)
    dealt = np.zeros((n, len(sampler.column)))
    never = np.iinfo(np.int64).max
    fell = np.full((n, len(sampler.column)), never, dtype=np.int64)
    active = np.arange(n)
    active = active[~sampler.ended[state_of[active]]]
    while active.size:
        ids = state_of[active]
        order = np.argsort(ids, kind="stable")
        uniq, starts = np.unique(ids[order], return_index=True)
        bounds = [*starts.tolist(), len(order)]
        for g, sid in enumerate(uniq.tolist()):
            lanes = active[order[bounds[g] : bounds[g + 1]]]
            for action, group in _split_by_action(sampler, sid, lanes, rng):
                column = sampler.column[action.striker]
                if not sampler.worth_a_kernel(sid, action, len(group)):
                    dice = SeededDice(rng)
                    for lane in group.tolist():
                        after = sampler.intern(engine.step(sampler.states[sid], action, dice))
                        state_of[lane] = after
                        before = sampler.states[sid]
                        dealt[lane, column] += harm_dealt(
                            engine, before, sampler.states[after], action.striker
                        )
                    continue
                k = sampler.kernel(sid, action)
                picks = k.table.sample(len(group), rng)
                state_of[group] = k.next_ids[picks]
                dealt[group, column] += k.dealt[picks]
        _mark_fallen(sampler, state_of, active, fell, never)
        active = active[~sampler.ended[state_of[active]]]
    tally = new_tally(engine)
    initial = engine.initial()
    finals, counts = np.unique(state_of, return_counts=True)
    for sid, count in zip(finals.tolist(), counts.tolist(), strict=True):
        tally.add(engine.turns, sampler.states[sid], count, initial)
    for name, col in sampler.column.items():
        tally.add_dealt(name, float(dealt[:, col].sum()))
        rounds, counts = np.unique(fell[:, col][fell[:, col] != never], return_counts=True)
        for r, count in zip(rounds.tolist(), counts.tolist(), strict=True):
            tally.add_fell(name, r, count)
    return tally


def _mark_fallen(
    sampler: KernelSampler,
    state_of: npt.NDArray[np.int64],
    lanes: npt.NDArray[Any],
    fell: npt.NDArray[np.int64],
    never: int,
) -> None:
    """Record the round each lane's combatants first fell out of the fight."""
    flags = sampler.out_flags[state_of[lanes]]
    rounds = sampler.rounds[state_of[lanes]]
    now = fell[lanes]
    newly = flags & (now == never)
    fell[lanes] = np.where(newly, rounds[:, None], now)


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


def chunk_sizes(n: int) -> list[int]:
    return [min(CHUNK, n - start) for start in range(0, n, CHUNK)]


def chunk_rng(seed_entropy: int, k: int) -> np.random.Generator:
    return np.random.default_rng([seed_entropy, k, 0xFA57])


def simulate_fast(
    engine: Engine,
    n: int,
    seed: int | None,
    workers: int = 1,
    on_chunk: Callable[[int], None] | None = None,
) -> tuple[Tally, bool]:
    """``n`` fights on the fast path; returns the tally and whether it was interrupted."""
    entropy = int(np.random.SeedSequence(seed).entropy)  # type: ignore[arg-type]
    sizes = chunk_sizes(n)
    tally = new_tally(engine)
    if workers <= 1 or len(sizes) == 1:
        sampler = KernelSampler(engine)
        try:
            for k, size in enumerate(sizes):
                tally.merge(run_chunk(sampler, size, chunk_rng(entropy, k)))
                if on_chunk is not None:
                    on_chunk(size)
        except KeyboardInterrupt:
            return tally, True
        return tally, False
    return _in_processes(engine, sizes, entropy, workers, tally, on_chunk)


# ----------------------------------------------------------------------------------------------
# Several processes (both cores): each rebuilds the engine from the scenario data once
# ----------------------------------------------------------------------------------------------
_WORKER: dict[str, KernelSampler] = {}


def _init_worker(data: dict[str, Any], source: str, max_rounds: int) -> None:
    from firefight.encounter.scenario import build_scenario

    scenario = build_scenario({**data, "max_rounds": max_rounds}, source)
    _WORKER["sampler"] = KernelSampler(Engine(scenario))


def _worker_chunk(size: int, entropy: int, k: int) -> Tally:
    return run_chunk(_WORKER["sampler"], size, chunk_rng(entropy, k))


def _in_processes(
    engine: Engine,
    sizes: list[int],
    entropy: int,
    workers: int,
    tally: Tally,
    on_chunk: Callable[[int], None] | None,
) -> tuple[Tally, bool]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    scenario = engine.scenario
    args = (dict(scenario.data), scenario.spec.source, engine.max_rounds)
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker, initargs=args)
    futures = [pool.submit(_worker_chunk, size, entropy, k) for k, size in enumerate(sizes)]
    try:
        for future, size in zip(futures, sizes, strict=True):
            tally.merge(future.result())
            if on_chunk is not None:
                on_chunk(size)
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        return tally, True
    pool.shutdown()
    return tally, False
