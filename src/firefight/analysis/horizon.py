"""Where the fight goes from a state, by the sides' policies: exactly (a chain) or by plays.

Both answer one question: starting from the states an action leaves (with their chances), the
sides' policies play on until a stopping rule says what became of the fight (a side won; the
actor was hurt before his next turn). :class:`Moves` works the policies' choices and the exact
kernels out once per state, and :func:`absorb` moves probability mass through them pass by pass
until every bit of it has stopped; :func:`play_until` plays the same on seeded dice, one fight
at a time, for fights too big to follow exactly.

The chain runs in floats: its answers are shown as percentages, and the kernels of a big fight
have denominators too long for fractions to pay (``analysis.exact`` solves whole fights exactly
in fractions where they fit).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping

import numpy as np

from firefight.analysis.budget import current
from firefight.core.turns import FightState
from firefight.dice import SeededDice
from firefight.encounter.engine import Engine
from firefight.encounter.policies import Policy, get_policy, mixture

#: Most states a chain may follow before it gives up (the fight is too big to follow).
MAX_STATES = 20_000
#: Most enumeration paths of one kernel the chain asks for.
MAX_STEP_PATHS = 500_000
#: Passes after which the mass still in play is given up as unknown.
MAX_PASSES = 2_000
#: Most states whose moves one :class:`Moves` keeps (a tracker keeps one for a whole fight).
MOVES_KEPT = 50_000
#: Mass in play below which a chain stops (what a riposte chain's geometric tail leaves).
NEGLIGIBLE = 1e-12

#: A stopping rule: what became of the fight in this state (hashable), or None: it goes on;
#: the flag says whether anyone but the actor has decided since the start.
Stopping = Callable[[FightState, bool], Hashable | None]


class TooBig(Exception):
    """The chain met more states than :data:`MAX_STATES`, or a policy with no known mixture."""


class Moves:
    """Each state's next states by the sides' policies and the exact kernels, worked out once
    (floats: the policy's chance times the kernel's)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.policy_names = {s.name: s.policy for s in engine.scenario.spec.sides}
        self._moves: dict[FightState, list[tuple[FightState, float]]] = {}

    def of(self, state: FightState) -> list[tuple[FightState, float]]:
        found = self._moves.get(state)
        if found is None:
            if len(self._moves) >= MOVES_KEPT:  # a long fight's: start over
                self._moves.clear()
            found = self._moves[state] = self._work_out(state)
        return found

    def _work_out(self, state: FightState) -> list[tuple[FightState, float]]:
        engine = self.engine
        name = self.policy_names[engine.side_of(state.decider())]
        mixed = mixture(name, engine, state, engine.legal_actions(state))
        if mixed is None:
            raise TooBig(f"policy {name!r} has no known mixture")
        out: dict[FightState, float] = {}
        for action, q in mixed:
            kernel = engine.kernel(state, action, max_paths=MAX_STEP_PATHS)
            share = float(q) / kernel.total
            for after, w in kernel.items():
                out[after] = out.get(after, 0.0) + share * w
        return list(out.items())


def absorb(
    moves: Moves, start: Mapping[FightState, float], actor: str, stop: Stopping
) -> tuple[dict[Hashable, float], float]:
    """Mass from ``start`` (the states ``actor``'s action left) moved by the policies until
    ``stop`` names what became of it: the chance of each answer, and the mass still in play
    when the chain gave up (the pass limit; past :data:`MAX_STATES` states followed it raises
    :class:`TooBig`). Checks the limit in force (:mod:`.budget`) at every state."""
    limit = current()
    found: dict[Hashable, float] = {}
    frontier = {(state, False): mass for state, mass in start.items()}
    met: set[FightState] = set()
    passes = 0
    while frontier and passes < MAX_PASSES:
        passes += 1
        nxt: dict[tuple[FightState, bool], float] = {}
        for (state, others), mass in frontier.items():
            limit.check()
            answer = stop(state, others)
            if answer is not None:
                found[answer] = found.get(answer, 0.0) + mass
                continue
            met.add(state)
            if len(met) > MAX_STATES:
                raise TooBig(f"more than {MAX_STATES:,} states to follow")
            others = others or state.acting != actor
            for after, p in moves.of(state):
                key = (after, others)
                nxt[key] = nxt.get(key, 0.0) + mass * p
        frontier = {k: m for k, m in nxt.items() if m > NEGLIGIBLE}
    return found, sum(frontier.values())


def play_until(
    engine: Engine,
    state: FightState,
    actor: str,
    stop: Stopping,
    rng: np.random.Generator,
    policies: Mapping[str, Policy],
) -> Hashable:
    """One fight from ``state`` (a state ``actor``'s action left) on seeded dice, the sides'
    policies choosing, until ``stop`` answers (or the fight ends: then its answer there)."""
    dice = SeededDice(rng)
    others = False
    while True:
        answer = stop(state, others)
        if answer is not None or state.ending is not None:
            return answer
        decider = state.decider()
        others = others or decider != actor
        action = policies[engine.side_of(decider)](engine, state, engine.legal_actions(state), rng)
        state = engine.step(state, action, dice)


def policies_of(engine: Engine) -> dict[str, Policy]:
    """Each side's policy (by side name), as the scenario names it."""
    return {s.name: get_policy(s.policy) for s in engine.scenario.spec.sides}


def winner(state: FightState, others: bool = False) -> str | None:
    """The stopping rule of a whole fight: who won it ("" nobody; "unfinished" truncated)."""
    if state.ending is None:
        return None
    if state.ending == "truncated":
        return "unfinished"
    return state.winner or ""


def hurt_before_next_turn(engine: Engine, start: FightState, actor: str) -> Stopping:
    """The stopping rule of a turn's risk: "hurt" once ``actor`` has taken harm or is out of
    the fight (against ``start``, the state before his action), "safe" once he decides again
    after someone else has, outside another's action (his next turn), or the fight ended
    without hurting him."""
    turns = engine.turns
    before = start.combatant(actor)
    harm = turns.harm(before)
    fit = turns.can_fight(before)

    def stop(state: FightState, others: bool) -> str | None:
        try:
            now = state.combatant(actor)
        except KeyError:  # removed from the fight by the GM's hand: nothing more to say
            return "safe"
        if turns.harm(now) > harm or (fit and not turns.can_fight(now)):
            return "hurt"
        if state.ending is not None:
            return "safe"
        if others and state.acting == actor and not turns.in_progress(state):
            return "safe"  # his next turn (not a choice inside another's action: a parry)
        return None

    return stop
