"""graydawn's staged previews (``Turns.preview_stages``) held to the path-by-path enumeration of
the whole action: the same distribution of combatants, the same previews in exact fractions,
and the same refusals."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firefight.core.turns import Action, FightState
from firefight.dice import SeededDice, Weighted, enumerate_outcomes
from firefight.dice.sources import TooManyPaths
from firefight.encounter import Engine, read_scenario
from firefight.encounter import engine as engine_module

EXAMPLES = Path(__file__).parents[3] / "examples" / "graydawn" / "encounters"


def path_by_path(eng: Engine) -> Engine:
    """An engine of the same scenario whose previews enumerate ``act`` path by path."""
    plain = Engine(eng.scenario)
    plain.turns = copy.copy(eng.turns)  # the scenario's own turns stay staged
    plain.turns.preview_stages = lambda state, action: None  # type: ignore[method-assign]
    return plain


def states(name: str, steps: int) -> Iterator[tuple[Engine, FightState]]:
    """The first states of an example played on seeded dice by the first legal action."""
    eng = Engine(read_scenario(EXAMPLES / f"{name}.toml"))
    state = eng.start(SeededDice(1))
    for n in range(steps):
        if state.ending is not None:
            return
        yield eng, state
        state = eng.step(state, eng.legal_actions(state)[0], SeededDice(n))


def cheap(eng: Engine, state: FightState, limit: int = 800) -> list[Action]:
    """The legal actions whose path-by-path enumeration stays under ``limit`` paths."""
    out = []
    for action in eng.legal_actions(state):
        try:
            enumerate_outcomes(lambda d, a=action: eng.turns.act(state, a, d), max_paths=limit)
        except TooManyPaths:
            continue
        out.append(action)
    return out


def staged_apart(eng: Engine, state: FightState, action: Action) -> Weighted[Any]:
    """The staged distribution of ``act``'s own parts (a turn's plan too, which previews path by
    path) with nothing set aside between them."""
    turns: Any = eng.turns
    stages = turns._stages(state, action)
    turns.preview_idle = lambda s: None
    try:
        return eng._staged(state, action, stages)
    finally:
        del turns.preview_idle


CASES = [("duel", 5), ("cover_and_movement", 2), ("knife_duel_exact", 2), ("fire_team", 2)]


@pytest.mark.parametrize(("name", "steps"), CASES)
def test_staged_previews_are_path_by_path(name: str, steps: int) -> None:
    """Without setting anything aside, the staged distribution of the combatants is the
    path-by-path one of ``act``, state for state and weight for weight; with the initiative
    scores set aside after the checks, every preview is still the path-by-path one, in exact
    fractions (the scores only tell the action's changes apart)."""
    checked = 0
    for eng, state in states(name, steps):
        plain = path_by_path(eng)
        for action in cheap(eng, state):
            whole = enumerate_outcomes(
                lambda d, e=eng, s=state, a=action: e.judge(e.turns.act(s, a, d)).combatants
            )
            staged = staged_apart(eng, state, action)
            assert all(not flagged and not apart for (_, flagged, apart), _ in staged.items())
            assert staged.total == whole.total
            assert {people: w for (people, _, _), w in staged.items()} == dict(whole.items())
            assert eng.preview(state, action) == plain.preview(state, action)
            checked += 1
    assert checked >= 3


def test_set_aside_merges_states() -> None:
    """A covering-fire preview (the levels, the checks, the turns after them) carries fewer
    states once the scores are set aside, flags the combatants whose scores changed and
    previews exactly what the path-by-path enumeration does."""
    eng, state = next(states("duel", 1))
    action = eng.find_action(state, "cover_fire:Kid Rourke")
    stages = eng.turns.preview_stages(state, action)
    assert stages is not None
    merged = eng._staged(state, action, stages)
    apart = staged_apart(eng, state, action)
    assert len(merged) < len(apart)
    assert any(flagged for (_, flagged, _), _ in merged.items())
    assert eng.preview(state, action) == path_by_path(eng).preview(state, action)


def test_refused_as_path_by_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A staged preview is refused exactly when the whole action (as a preview plays it,
    ``preview_act``) has more paths than the budget: it counts the paths through each stage,
    not the states it carries."""
    eng, state = next(states("duel", 1))
    action = eng.find_action(state, "cover_fire:Kid Rourke")
    counted = []

    def act(d: Any) -> Any:
        counted.append(1)
        return eng.turns.preview_act(state, action, d)

    enumerate_outcomes(act)
    paths = len(counted)
    assert paths > 300
    for budget, exact in ((paths - 1, False), (paths, True)):
        monkeypatch.setattr(engine_module, "PREVIEW_PATHS", budget)
        assert Engine(eng.scenario).preview(state, action).exact is exact


def test_a_repeated_stage_skips_its_fixed_points() -> None:
    """A stage that left a state as it was without dice is not run on it again when the next
    stage is the same one (a volley's turns once someone decides): fewer runs, the very same
    distribution and paths as running every stage on every state."""
    eng, state = next(states("duel", 1))
    action = eng.find_action(state, "cover_fire:Kid Rourke")
    stages = eng.turns.preview_stages(state, action)
    assert stages is not None and len(set(map(id, stages))) < len(stages)
    calls: list[int] = []

    def counted(stage: Any) -> Any:
        def run(s: FightState, d: Any) -> FightState:
            calls.append(1)
            return stage(s, d)

        return run

    shared = {id(s): counted(s) for s in stages}
    skipping = eng._staged(state, action, tuple(shared[id(s)] for s in stages))
    skipped = len(calls)
    calls.clear()
    every = Engine(eng.scenario)._staged(state, action, tuple(counted(s) for s in stages))
    assert skipping == every
    assert skipped < len(calls)
