"""A step's kernel by its stages (the action, then each distinct state it leaves settled once) is
the step enumerated path by path: the same outcomes, in the same order, with the same weights
over the same total, so the exact chain's answers (floats included) do not move."""

from __future__ import annotations

from pathlib import Path

import pytest

from firefight.core.turns import FightState
from firefight.dice import SeededDice
from firefight.encounter import Engine, read_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUELS = {
    "warfare2d20": "small_duel.toml",
    "dragonwarriors2": "goblin_duel.toml",
    "graydawn": "knife_duel_exact.toml",
    "tactical_d20": "knife_duel.toml",
    "quality_d100": "small_duel.toml",
}


def _states(engine: Engine, plays: int, seed: int) -> list[FightState]:
    """States met by a few seeded fights (rounds ending, riposte and stance decisions...)."""
    rng = SeededDice(seed).rng
    seen: dict[FightState, None] = {}
    for _ in range(plays):
        state = engine.start(SeededDice(rng))
        while state.ending is None:
            seen.setdefault(state)
            state = engine.step(state, engine.legal_actions(state)[0], SeededDice(rng))
    return list(seen)


@pytest.mark.parametrize("ruleset", sorted(DUELS))
def test_staged_kernel_is_the_step_enumerated_path_by_path(ruleset: str) -> None:
    engine = Engine(read_scenario(EXAMPLES / ruleset / "encounters" / DUELS[ruleset]))
    states = _states(engine, plays=3, seed=5)
    assert len(states) >= 3
    settled_before = 0
    for state in states[:12]:
        for action in engine.legal_actions(state)[:2]:
            staged = engine.kernel(state, action, staged=True)
            plain = engine.kernel(state, action, staged=False)
            assert staged.total == plain.total
            assert list(staged.items()) == list(plain.items())
        settled_before = max(settled_before, len(engine._settled))
    # the staged route was the one taken: settlings were kept
    assert settled_before > 0


def test_staged_kernel_counts_its_paths_against_the_budget() -> None:
    """A budget too small for the action alone refuses the staged kernel too."""
    from firefight.dice.sources import TooManyPaths

    engine = Engine(read_scenario(EXAMPLES / "dragonwarriors2" / "encounters" / "goblin_duel.toml"))
    state = engine.start(SeededDice(1))
    action = engine.legal_actions(state)[0]
    for _ in range(10):  # to a step with a few outcomes (a contest)
        if len(engine.kernel(state, action, staged=False).outcomes()) > 5:
            break
        state = engine.step(state, action, SeededDice(2))
        action = engine.legal_actions(state)[0]
    with pytest.raises(TooManyPaths):
        Engine(engine.scenario).kernel(state, action, max_paths=2, staged=True)
