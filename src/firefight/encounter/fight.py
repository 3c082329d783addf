"""A whole fight played by the sides' policies on seeded dice, and its JSON and narration."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from firefight.core.turns import FightState
from firefight.dice import SeededDice
from firefight.encounter.engine import Engine
from firefight.encounter.policies import get_policy
from firefight.encounter.record import Encounter, Step


def policy_rng(seed: int | None) -> np.random.Generator:
    """The policies' own generator: apart from the dice, so a policy never shifts a roll."""
    return np.random.default_rng(None if seed is None else [seed, 0x9011C7])


def play(
    enc: Encounter,
    dice: SeededDice,
    rng: np.random.Generator,
    max_steps: int | None = None,
    on_step: Callable[[Step], None] | None = None,
) -> int:
    """Let the policies choose until the fight ends (or ``max_steps``); returns steps taken."""
    engine = enc.engine
    policies = {s.name: get_policy(s.policy) for s in engine.scenario.spec.sides}
    taken = 0
    while enc.state.ending is None and (max_steps is None or taken < max_steps):
        state = enc.state
        actions = engine.legal_actions(state)
        policy = policies[engine.side_of(state.decider())]
        step = enc.act(policy(engine, state, actions, rng).id, dice)
        taken += 1
        if on_step is not None:
            on_step(step)
    return taken


def fight(engine: Engine, seed: int | None) -> Encounter:
    """One fight to the end (or to ``max_rounds``) on seeded dice."""
    dice = SeededDice(seed)
    enc = Encounter.begin(engine, dice)
    play(enc, dice, policy_rng(seed))
    return enc


def combatant_entry(engine: Engine, c: Any) -> dict[str, Any]:
    """One combatant as JSON: side, out, dead, harm, then the ruleset's own view."""
    turns = engine.turns
    return {
        "side": c.side,
        "out": not turns.can_fight(c),
        "dead": turns.is_dead(c),
        "harm": turns.harm(c),
        **turns.view(c),
    }


def combatants_json(engine: Engine, state: FightState) -> dict[str, Any]:
    return {c.name: combatant_entry(engine, c) for c in state.combatants}


def fight_json(enc: Encounter, seed: int | None) -> dict[str, Any]:
    """``fight --json``: the documented shape (more keys may follow)."""
    state = enc.state
    return {
        "ruleset": enc.engine.scenario.ruleset.id,
        "seed": seed,
        "ending": state.ending,
        "winner": state.winner,
        "rounds": state.round,
        "combatants": combatants_json(enc.engine, state),
        "steps": [s.to_json() for s in enc.steps],
        "title": enc.engine.scenario.spec.title,
        "start": {"faces": list(enc.start_faces), "lines": list(enc.start_lines)},
        "after": enc.engine.turns.after_fight(state) if state.ending else [],
    }


def show_json(enc: Encounter) -> dict[str, Any]:
    """``encounter show --json``: round, turn, ending, combatants, steps (a count)."""
    state = enc.state
    return {
        "round": state.round,
        "turn": state.acting,
        "ending": state.ending,
        "winner": state.winner,
        "combatants": combatants_json(enc.engine, state),
        "steps": len(enc.steps),
        "redo": len(enc.redo_stack),
        "phase": state.phase,
        "order": list(state.order),
        "title": enc.engine.scenario.spec.title,
        "ruleset": enc.engine.scenario.ruleset.id,
    }
