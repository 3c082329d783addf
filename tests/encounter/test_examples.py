"""Every shipped scenario (``examples/<ruleset>/encounters/*.toml``), on every ruleset that runs
encounters: conformance and invariants under random play. Determinism across processes (the
same fight JSON for a seed in another process) is the conformance kit's, run on every built-in
ruleset's examples by tests/core/test_conformance.py."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firefight.core.turns import state_from_json, state_to_json
from firefight.dice import ScriptedDice, SeededDice
from firefight.encounter import Encounter, Engine, read_scenario
from firefight.encounter.engine import PREVIEW_PATHS
from firefight.encounter.fight import fight_json, play, policy_rng
from firefight.rulesets import BUILT_IN, get_ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCENARIOS = sorted(EXAMPLES.glob("*/encounters/*.toml"))
IDS = [f"{p.parent.parent.name}/{p.stem}" for p in SCENARIOS]
WITH_ENCOUNTERS = [r for r in BUILT_IN if get_ruleset(r).runs_encounters]
#: The previews the conformance check asks: a fifth of the tracker's path limit, so a fire
#: team's large previews are refused five times sooner (the limit's line is checked either way).
CHECK_PATHS = PREVIEW_PATHS // 5


def test_every_ruleset_with_encounters_ships_four_scenarios() -> None:
    for rid in WITH_ENCOUNTERS:
        shipped = list((EXAMPLES / rid / "encounters").glob("*.toml"))
        assert len(shipped) >= 4, f"{rid} ships {len(shipped)} scenarios"


@pytest.mark.parametrize("path", SCENARIOS, ids=IDS)
def test_conformance(path: Path) -> None:
    """What the engine relies on, for one scenario: legal actions with unique ids and labels,
    settled states, exact previews that sum to one, states that round-trip through JSON."""
    engine = Engine(read_scenario(path))
    turns = engine.turns
    assert path.parent.parent.name == engine.scenario.ruleset.id
    dice = SeededDice(0)
    enc = Encounter.begin(engine, dice)
    start = engine.initial()
    assert start.round == 0 and start.acting is None
    for _ in range(15):
        state = enc.state
        assert state_from_json(state_to_json(state), turns.state_types) == state
        hash(state)
        if state.ending is not None:
            break
        assert state.acting in state.names()
        assert turns.can_fight(state.combatant(state.acting)), "nobody out of the fight acts"
        actions = engine.legal_actions(state)
        assert actions, "someone is acting, so there is something to do"
        assert len({a.id for a in actions}) == len(actions)
        assert all(a.label and a.actor == state.acting for a in actions)
        preview = engine.preview(state, actions[0], max_paths=CHECK_PATHS)
        if preview.exact:
            dist = engine.act_distribution(state, actions[0])
            assert sum(dist.probabilities().values()) + dist.truncated_mass == 1
        else:
            assert f"{CHECK_PATHS:,}" in preview.note
        assert 0 <= preview.p_effect <= 1
        for c in state.combatants:
            view = turns.view(c)
            json.dumps(view)
            assert "status" in view
        enc.act(actions[0].id, dice)


@pytest.mark.parametrize("path", SCENARIOS, ids=IDS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), policy=st.sampled_from(["first", "random"]))
def test_invariants_under_random_play(path: Path, seed: int, policy: str) -> None:
    """No invariant breaks whatever the policies and dice: harm never negative (hit points never
    above their maximum), nobody out of the fight acts, the fight ends within max_rounds, and
    every step's faces replay to the same events. (The preview-driven policies, whose cost grows
    with every legal action's exact enumeration, are covered step by step below.)"""
    scenario = read_scenario(path)
    sides = {s.name: policy for s in scenario.spec.sides}
    engine = Engine(read_scenario(path, policies=sides))
    dice = SeededDice(seed)
    enc = Encounter.begin(engine, dice)
    turns = engine.turns
    limit = 400 * engine.max_rounds
    play(enc, dice, policy_rng(seed), max_steps=limit)
    assert enc.state.ending is not None, "the fight ends"
    assert enc.state.round <= engine.max_rounds
    for before, step, after in zip(enc.states[:-1], enc.steps, enc.states[1:], strict=True):
        assert before.acting == step.actor
        assert turns.can_fight(before.combatant(step.actor)), "nobody out of the fight acts"
        for c in after.combatants:
            assert turns.harm(c) >= 0
            if not turns.can_fight(c):
                assert c.name != after.acting
        replay = ScriptedDice(step.faces)
        again = engine.step(before, step.action, replay)
        replay.check_all_used()
        assert again == after
    if enc.state.ending == "terminated":
        standing = {c.side for c in enc.state.combatants if turns.can_fight(c)}
        assert len(standing) <= 1
    json.dumps(fight_json(enc, seed))


#: The preview policies enumerate every legal action exactly at every decision: seconds a step in
#: a graydawn or warfare2d20 team fight, so they are checked on each ruleset's duels here.
DUELS = [p for p in SCENARIOS if "duel" in p.stem and p.parent.parent.name != "graydawn"]


@pytest.mark.parametrize("path", DUELS, ids=[f"{p.parent.parent.name}/{p.stem}" for p in DUELS])
@pytest.mark.parametrize("policy", ["aggressive", "cautious"])
def test_preview_policies_choose_legal_actions(path: Path, policy: str) -> None:
    """The first steps of a fight with every side aggressive (or cautious): each choice is legal
    and replays. (graydawn's previews take about 0.3 s a pistol shot: its duels are left to
    the fast policies, see docs/rules/graydawn.md.)"""
    scenario = read_scenario(path)
    engine = Engine(read_scenario(path, policies={s.name: policy for s in scenario.spec.sides}))
    dice = SeededDice(1)
    enc = Encounter.begin(engine, dice)
    play(enc, dice, policy_rng(1), max_steps=4)
    for before, step in zip(enc.states, enc.steps, strict=False):
        assert step.action in {a.id for a in engine.legal_actions(before)}


#: One first action in each ruleset whose exact preview puts its target out with a chance well
#: inside (0, 1).
ESTIMATED = [
    ("dragonwarriors2/encounters/goblin_duel.toml", "attack:Snag"),
    ("graydawn/encounters/knife_duel_exact.toml", "strike:Enforcer"),
    ("quality_d100/encounters/small_duel.toml", "attack:Birk"),
    ("tactical_d20/encounters/knife_duel.toml", "attack:Rook:knife:single:torso"),
    ("warfare2d20/encounters/duel.toml", "fire:Insurgent:single"),
]


@pytest.mark.parametrize(("scenario", "action_id"), ESTIMATED, ids=[a for _, a in ESTIMATED])
def test_an_estimated_preview_holds_the_exact_one(
    scenario: str, action_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The estimate that stands in for a refused preview plays the action by the same rule code
    as the exact preview enumerates: every exact chance of a fall, and the chance of any effect,
    lies inside the counts' 99.9% Wilson interval (1,000 plays at the fixed seed; the JSON's 95%
    one is checked to be Wilson's of the same counts), and the mean harm is near: within 10%,
    or within 3.29 standard errors where a rare harm (a fumble's wound to the attacker) cannot
    be counted that closely in 1,000 plays (a harm between 0 and its most, M, with mean h has a
    variance of at most h x M)."""
    from firefight.core.stats import wilson
    from firefight.encounter import ESTIMATE_PLAYS
    from firefight.encounter import engine as engine_module

    engine = Engine(read_scenario(EXAMPLES / scenario))
    state = engine.start(SeededDice(1))
    action = engine.find_action(state, action_id)
    exact = engine.preview(state, action)
    assert exact.exact and 0.05 < max(exact.p_out.values()) < 0.95
    outcomes = list(engine.act_distribution(state, action).items())
    monkeypatch.setattr(engine_module, "PREVIEW_PATHS", 1)
    engine = Engine(read_scenario(EXAMPLES / scenario))
    estimate = engine.preview(state, action, estimate=ESTIMATE_PLAYS)
    shown = estimate.to_json()
    assert shown["exact"] is False and shown["samples"] == estimate.samples == ESTIMATE_PLAYS
    assert set(estimate.p_out) == set(exact.p_out)
    pairs = [(estimate.p_out[k], p, shown["ci95"]["p_out"][k]) for k, p in exact.p_out.items()]
    pairs.append((estimate.p_effect, exact.p_effect, shown["ci95"]["p_effect"]))
    for counted, p, ci95 in pairs:
        k = int(counted * ESTIMATE_PLAYS)
        assert ci95 == list(wilson(k, ESTIMATE_PLAYS))
        lo, hi = wilson(k, ESTIMATE_PLAYS, z=3.29)
        assert lo <= p <= hi, (float(p), lo, hi)
    assert set(estimate.harm) == set(exact.harm)
    turns = engine.turns
    for name, h in exact.harm.items():
        before = turns.harm(state.combatant(name))
        most = max(turns.harm(s.combatant(name)) - before for s, _ in outcomes)
        spread = 3.29 * math.sqrt(float(h) * most / ESTIMATE_PLAYS)
        assert abs(estimate.harm[name] - h) <= max(0.1 * h, spread), name
