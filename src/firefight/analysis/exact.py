"""Exact fight odds: the absorbing Markov chain over the states a fight can reach.

From the settled start (its own distribution: round 1's initiative), probability mass moves one
step at a time: each state's policy choice (one action, or the random policy's uniform mixture)
and that action's exact transition kernel (``Engine.kernel``) spread its mass over next states;
mass reaching an ended state (terminated or truncated at ``max_rounds``) is absorbed into the
tally. States carry the round, so mass always moves on; a chain that can loop inside a round
(riposte after riposte) loses geometrically less each pass, and whatever is still in play after
:data:`MAX_STEPS` passes is reported as ``mass_left``.

Arithmetic is exact (``Fraction``) while the kernels' denominators stay small; open-ended dice
(depth-truncated explosions) make them huge, and then the chain runs in floats.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from firefight.analysis.reference import harm_dealt, new_tally
from firefight.analysis.report import Tally
from firefight.core.turns import Action, FightState
from firefight.dice import Weighted, enumerate_outcomes
from firefight.dice.sources import TooManyPaths
from firefight.encounter.engine import Engine
from firefight.encounter.policies import mixture
from firefight.errors import InputError

#: Most distinct states the chain may visit before it refuses.
MAX_STATES = 50_000
#: Most enumeration paths of round 1's initiative.
MAX_START_PATHS = 200_000
#: Most enumeration paths of one step's kernel.
MAX_STEP_PATHS = 500_000
#: Most passes (steps of the fight) before the remaining mass is reported as left over.
MAX_STEPS = 5_000
#: Kernels with a denominator above this run the chain in floats.
EXACT_DENOMINATOR = 10**18
#: Masses whose denominators outgrow this many bits switch the chain to floats.
EXACT_BITS = 160


def solve_exact(
    engine: Engine,
    max_states: int = MAX_STATES,
    on_pass: Callable[[int, int], None] | None = None,
) -> tuple[Tally, str]:
    """The tally of the whole chain, and the arithmetic used ("fraction" or "float")."""
    try:
        return _solve(engine, max_states, exact=True, on_pass=on_pass), "fraction"
    except _TooBig:
        return _solve(engine, max_states, exact=False, on_pass=on_pass), "float"


class _TooBig(Exception):
    """A denominator outgrew exact arithmetic: start again in floats."""


def _solve(
    engine: Engine,
    max_states: int,
    exact: bool,
    on_pass: Callable[[int, int], None] | None,
) -> Tally:
    turns = engine.turns
    tally = new_tally(engine)
    initial = engine.initial()
    policy_names = {s.name: s.policy for s in engine.scenario.spec.sides}
    one: Any = Fraction(1) if exact else 1.0
    seen: set[FightState] = set()
    frontier: dict[FightState, Any] = {}
    try:
        start = enumerate_outcomes(engine.start, max_paths=MAX_START_PATHS)
    except TooManyPaths:
        raise InputError(
            f"round 1's initiative alone has over {MAX_START_PATHS:,} branches: too many for "
            "--exact",
            tip="drop --exact and simulate (-n), or make the fight smaller",
        ) from None
    for state, p in _probabilities(start, exact):
        frontier[state] = frontier.get(state, 0) + p * one
    passes = 0
    frontier = _run(
        engine,
        tally,
        frontier,
        passes_done=passes,
        max_states=max_states,
        exact=exact,
        on_pass=on_pass,
        seen=seen,
        policy_names=policy_names,
        initial=initial,
    )
    for state, mass in frontier.items():
        if state.ending is not None:
            tally.add(turns, state, mass, initial)
        else:
            tally.mass_left += mass
    return tally


def _run(
    engine: Engine,
    tally: Tally,
    frontier: dict[FightState, Any],
    *,
    passes_done: int,
    max_states: int,
    exact: bool,
    on_pass: Callable[[int, int], None] | None,
    seen: set[FightState],
    policy_names: dict[str, str],
    initial: FightState,
) -> dict[FightState, Any]:
    """Move the mass pass by pass; returns what is still in play (frontier). Mass reaching an
    ended state is gathered by state and tallied once at the end (the same ending is reached
    on many passes)."""
    turns = engine.turns
    passes = passes_done
    absorbed: dict[FightState, Any] = {}
    try:
        while frontier and passes < MAX_STEPS:
            passes += 1
            nxt: dict[FightState, Any] = {}
            # a pass is tallied apart and merged whole, so Ctrl-C never leaves half a pass counted
            step = new_tally(engine)
            ended: dict[FightState, Any] = {}
            for state, mass in frontier.items():
                if state.ending is not None:
                    ended[state] = mass
                    continue
                seen.add(state)
                if len(seen) > max_states:
                    raise InputError(
                        f"the fight reaches more than {max_states:,} states: too many for --exact",
                        tip="drop --exact and simulate (-n), or make the fight smaller",
                    )
                actor = state.decider()
                name = policy_names[engine.side_of(actor)]
                mixed = mixture(name, engine, state, engine.legal_actions(state))
                if mixed is None:
                    raise InputError(
                        f"policy {name!r} chooses at random without a known mixture",
                        tip="use first, aggressive, cautious or random with --exact",
                    )
                for action, q in mixed:
                    share = mass * (q if exact else float(q))
                    kernel = _kernel(engine, state, action)
                    for after, p in _probabilities(kernel, exact):
                        weight = share * p
                        nxt[after] = nxt.get(after, 0) + weight
                        dealt = harm_dealt(engine, state, after, action.striker)
                        if dealt:
                            step.add_dealt(action.striker, weight * dealt)
                        for old, new in zip(state.combatants, after.combatants, strict=True):
                            if turns.can_fight(old) and not turns.can_fight(new):
                                step.add_fell(new.name, after.round, weight)
            if exact and any(m.denominator.bit_length() > EXACT_BITS for m in nxt.values()):
                raise _TooBig
            tally.merge(step)
            for state, mass in ended.items():
                absorbed[state] = absorbed.get(state, 0) + mass
            frontier = nxt
            if on_pass is not None:
                on_pass(passes, len(seen))
    except KeyboardInterrupt:
        tally.interrupted = True
    for state, mass in absorbed.items():
        tally.add(turns, state, mass, initial)
    return frontier


def _kernel(engine: Engine, state: FightState, action: Action) -> Weighted[FightState]:
    try:
        return engine.kernel(state, action, max_paths=MAX_STEP_PATHS)
    except TooManyPaths:
        raise InputError(
            f"a step of this fight ({action.label}) has over {MAX_STEP_PATHS:,} branches: too "
            "many for --exact",
            tip="drop --exact and simulate (-n), or make the fight smaller",
        ) from None


def _probabilities(dist: Weighted[FightState], exact: bool) -> list[tuple[FightState, Any]]:
    if exact:
        if dist.total > EXACT_DENOMINATOR:
            raise _TooBig
        return [(s, Fraction(w, dist.total)) for s, w in dist.items()]
    return [(s, w / dist.total) for s, w in dist.items()]
