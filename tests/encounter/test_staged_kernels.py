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


#: graydawn fights whose rounds end in the ways a round's start reads differently: traditional
#: initiative with the scores kept as ranks (knives only) or as scores (guns), streamlined
#: initiative (rolled once, again after a total <= 0 or a lost action), an ambush; with the
#: round ends compared (the gun duel's each take a second: 15,876 outcomes).
ROUND_ENDS = {
    "knife duel, traditional": ("knife_duel_exact.toml", [], 6),
    "knife duel, streamlined": ("knife_duel_exact.toml", ["house.initiative=streamlined"], 6),
    "gun duel, traditional": ("duel.toml", ["house.initiative=traditional"], 1),
    "gun duel, streamlined": ("duel.toml", [], 6),
    "ambush": ("suppression_panic.toml", [], 6),
}


def _round_ends(engine: Engine, plays: int, seed: int, most: int) -> list[FightState]:
    """States an action left with its round over (the first ``most``), from seeded fights."""
    rng = SeededDice(seed).rng
    found: dict[FightState, None] = {}
    for _ in range(plays):
        state = engine.start(SeededDice(rng))
        while state.ending is None and len(found) < most:
            action = engine.legal_actions(state)[0]
            after = engine.judge(engine.turns.act(state, action, SeededDice(rng)))
            if after.ending is None and after.acting is None:
                found.setdefault(after)
            state = engine.settle(after, SeededDice(rng))
    return list(found)


@pytest.mark.parametrize("fight", sorted(ROUND_ENDS))
def test_settling_by_the_round_start_stand_in_is_the_state_own(fight: str) -> None:
    """A state an action left with its round over settles (the next initiative, the turns
    nobody decides) to the same outcomes, in the same order, with the same weights, by its
    round-start stand-in (``Turns.round_start_stand_in``) as on its own."""
    name, overrides, most = ROUND_ENDS[fight]
    scenario = read_scenario(EXAMPLES / "graydawn" / "encounters" / name, overrides)
    merged, alone = Engine(scenario), Engine(scenario, merge_settling=False)
    ends = _round_ends(alone, plays=80, seed=3, most=most)
    assert len(ends) == most
    for after in ends:
        assert merged.turns.round_start_stand_in(after) != after  # a stand-in, not the state
        mine, _ = merged.settled(after)
        own, _ = alone.settled(after)
        assert mine.total == own.total
        assert list(mine.items()) == list(own.items())


def test_merged_settling_gives_the_same_exact_answer() -> None:
    """The knife duel cut to 2 rounds: the exact chain's answer is the same to the last bit with
    the states an action leaves settled by their stand-ins or each on its own, and the merging
    happened (fewer settlings enumerated)."""
    from firefight.analysis.exact import solve_exact

    path = EXAMPLES / "graydawn" / "encounters" / "knife_duel_exact.toml"
    merged = Engine(read_scenario(path, max_rounds=2))
    alone = Engine(read_scenario(path, max_rounds=2), merge_settling=False)
    assert solve_exact(merged) == solve_exact(alone)
    assert len(merged._settled) < len(alone._settled)
