"""Policies: who chooses for automated combatants, chosen per side, pluggable.

A policy is a function ``(engine, state, actions, rng) -> Action``. The built-in ones:

- ``first``: the first legal action (deterministic; rulesets list their best default first);
- ``random``: uniform over the legal actions, from the fight's own random generator;
- ``aggressive``: the best expected effect by the exact preview: harm done to the other side,
  with a combatant put out of the fight worth more than any harm, minus the same for its own side;
- ``cautious``: the text's defensive options (``Action.defensive``) while its combatant is hurt
  or pinned (``Turns.is_hurt``), aggressive otherwise.

:func:`register_policy` adds one under a new name.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from firefight.core.turns import Action, FightState
from firefight.errors import InputError

if TYPE_CHECKING:
    from firefight.encounter.engine import Engine, Preview

Policy = Callable[["Engine", FightState, tuple[Action, ...], np.random.Generator], Action]

#: The weight of putting a combatant out of the fight, against one point of harm.
OUT_WEIGHT = 1000


def first(engine: Engine, state: FightState, actions: tuple[Action, ...], rng: object) -> Action:
    return actions[0]


def random_choice(
    engine: Engine, state: FightState, actions: tuple[Action, ...], rng: np.random.Generator
) -> Action:
    return actions[int(rng.integers(len(actions)))]


def expected_effect(engine: Engine, state: FightState, action: Action) -> Fraction:
    """Expected harm and knock-outs dealt to the actor's enemies, less those to its friends."""
    preview = engine.preview(state, action)  # not exact (too big): scores 0, unknown
    return preview_effect(engine, preview, action.actor)


def preview_effect(engine: Engine, preview: Preview, actor: str) -> Fraction:
    """:func:`expected_effect` read off a preview already made (an estimate's too)."""
    mine = engine.side_of(actor)
    score = Fraction(0)
    for name, p in preview.p_out.items():
        sign = -1 if engine.side_of(name) == mine else 1
        score += sign * OUT_WEIGHT * p
    for name, h in preview.harm.items():
        sign = -1 if engine.side_of(name) == mine else 1
        score += sign * h
    return score


def aggressive(
    engine: Engine, state: FightState, actions: tuple[Action, ...], rng: object
) -> Action:
    best, best_score = actions[0], None
    for a in actions:
        score = expected_effect(engine, state, a)
        if best_score is None or score > best_score:
            best, best_score = a, score
    return best


def cautious(engine: Engine, state: FightState, actions: tuple[Action, ...], rng: object) -> Action:
    me = state.combatant(actions[0].actor)
    defensive = tuple(a for a in actions if a.defensive)
    if defensive and engine.turns.is_hurt(me):
        return aggressive(engine, state, defensive, rng)
    return aggressive(engine, state, actions, rng)


POLICIES: dict[str, Policy] = {
    "first": first,
    "random": random_choice,
    "aggressive": aggressive,
    "cautious": cautious,
}


#: Policies whose choice depends on their random generator (the rest are functions of the state).
STOCHASTIC: set[str] = {"random"}


def register_policy(name: str, policy: Policy, *, stochastic: bool = False) -> None:
    """Make ``policy`` selectable by ``name`` in scenarios and ``--policy SIDE=NAME``.

    A ``stochastic`` policy uses its generator; exact fight odds then need its mixture, which
    only ``random`` (uniform) declares, so exact analysis refuses other stochastic policies.
    """
    POLICIES[name] = policy
    if stochastic:
        STOCHASTIC.add(name)
    else:
        STOCHASTIC.discard(name)


def mixture(
    name: str, engine: Engine, state: FightState, actions: tuple[Action, ...]
) -> list[tuple[Action, Fraction]] | None:
    """The policy's choice as a distribution over actions (``None``: not known exactly)."""
    if name == "random":
        return [(a, Fraction(1, len(actions))) for a in actions]
    if name in STOCHASTIC:
        return None
    policy = POLICIES[name]
    # the built-in deterministic policies never draw: spare them a new generator per state
    rng = _UNUSED if policy in (first, aggressive, cautious) else np.random.default_rng(0)
    return [(policy(engine, state, actions, rng), Fraction(1))]


_UNUSED = np.random.default_rng(0)


def check_policy(name: str, where: str) -> None:
    if name not in POLICIES:
        raise InputError(
            f"{where}: unknown policy {name!r}", tip=f"choose one of: {', '.join(POLICIES)}"
        )


def get_policy(name: str) -> Policy:
    check_policy(name, "policy")
    return POLICIES[name]
