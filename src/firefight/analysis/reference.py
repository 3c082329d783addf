"""The reference: fights played one by one by the engine on seeded dice, as ``fight`` plays them.

Slow and plain on purpose: the fast path (:mod:`firefight.analysis.fast`) is held to the same
distribution by a test.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from firefight.analysis.report import Tally
from firefight.core.turns import FightState
from firefight.dice import SeededDice
from firefight.encounter.engine import Engine
from firefight.encounter.policies import Policy, get_policy


def new_tally(engine: Engine) -> Tally:
    spec = engine.scenario.spec
    return Tally(
        sides=tuple(s.name for s in spec.sides),
        names=tuple(c.name for c in spec.combatants),
        max_rounds=engine.max_rounds,
    )


def simulate_reference(
    engine: Engine,
    n: int,
    seed: int | None,
    on_fight: Callable[[int], None] | None = None,
) -> Tally:
    """``n`` fights, fight ``i`` on dice seeded by ``(seed, i)``; ``on_fight`` sees the fights
    done. Ctrl-C stops the loop: the tally holds the fights finished (each added whole once it
    is over, never the one being played) and says ``interrupted``."""
    tally = new_tally(engine)
    policies = {s.name: get_policy(s.policy) for s in engine.scenario.spec.sides}
    sides = {c.name: c.side for c in engine.scenario.spec.combatants}
    entropy = int(np.random.SeedSequence(seed).entropy)  # type: ignore[arg-type]
    start = engine.initial()
    try:
        for i in range(n):
            _one_fight(engine, tally, policies, sides, entropy, i, start)
            if on_fight is not None:
                on_fight(i + 1)
    except KeyboardInterrupt:
        tally.interrupted = True
    return tally


def _one_fight(
    engine: Engine,
    tally: Tally,
    policies: dict[str, Policy],
    sides: dict[str, str],
    entropy: int,
    i: int,
    start: FightState,
) -> None:
    """One fight on dice seeded by ``(entropy, i)``, added to the tally once it is over (so
    Ctrl-C during the fight leaves the tally without any of it)."""
    turns = engine.turns
    dice = SeededDice(np.random.default_rng([entropy, i]))
    choices = np.random.default_rng([entropy, i, 1])
    state = engine.start(dice)
    dealt: list[tuple[str, int]] = []
    fell: list[tuple[str, int]] = []
    while state.ending is None:
        actor = state.decider()
        action = policies[sides[actor]](engine, state, engine.legal_actions(state), choices)
        after = engine.step(state, action, dice)
        dealt.append((action.striker, harm_dealt(engine, state, after, action.striker)))
        for old, new in zip(state.combatants, after.combatants, strict=True):
            if turns.can_fight(old) and not turns.can_fight(new):
                fell.append((new.name, after.round))
        state = after
    for name, amount in dealt:
        tally.add_dealt(name, amount)
    for name, round_ in fell:
        tally.add_fell(name, round_, 1)
    tally.add(turns, state, 1, start)


def harm_dealt(engine: Engine, before: FightState, after: FightState, actor: str) -> int:
    """Harm a step added to ``actor``'s enemies: the step's harm, credited to whoever struck
    (``Action.striker``: the actor, or the attacker whose blow a defender's choice let land)."""
    turns = engine.turns
    mine = engine.side_of(actor)
    total = 0
    for old, new in zip(before.combatants, after.combatants, strict=True):
        if new.side != mine:
            total += turns.harm(new) - turns.harm(old)
    return total
