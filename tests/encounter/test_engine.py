"""The engine on the toy ruleset: rounds, ending, previews and kernels worked out by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from firefight.core.turns import state_from_json, state_to_json
from firefight.dice import ScriptedDice, SeededDice
from firefight.encounter import Encounter, Engine, fight, read_scenario
from firefight.encounter.policies import aggressive, cautious, expected_effect
from firefight.errors import InputError, ScriptError
from tests.encounter.toy import Fighter


def engine_for(path, **kw) -> Engine:  # type: ignore[no-untyped-def]
    return Engine(read_scenario(path, **kw))


def test_start_settles_to_first_decision(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    engine = engine_for(toy_scenario())
    state = engine.start(ScriptedDice([]))
    assert (state.round, state.acting, state.order) == (1, "Ann", ("Ann", "Bob"))
    assert state.ending is None


def test_scripted_duel_by_hand(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    # Ann (skill 4) and Bob (skill 5) have 2 hp each. Round 1: Ann rolls 3 (miss), Bob 5 (hit:
    # Ann 1 hp). Round 2: Ann 4 (hit: Bob 1 hp), Bob 2 (miss). Round 3: Ann 6 (hit: Bob 0 hp).
    engine = engine_for(toy_scenario(ann_hp=2, bob_hp=2, bob_skill=5))
    enc = Encounter.begin(engine, ScriptedDice([]))
    for action, face in [
        ("attack:Bob", 3),
        ("attack:Ann", 5),
        ("attack:Bob", 4),
        ("attack:Ann", 2),
        ("attack:Bob", 6),
    ]:
        enc.act(action, ScriptedDice([face]))
    state = enc.state
    assert state.ending == "terminated" and state.winner == "red" and state.round == 3
    assert state.combatant("Ann").hp == 1 and state.combatant("Bob").hp == 0
    assert [s.faces for s in enc.steps] == [(3,), (5,), (4,), (2,), (6,)]
    assert "Bob: hp 1 -> 0 (toy)" in enc.steps[-1].lines


def test_truncated_is_not_terminated(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    engine = engine_for(toy_scenario(max_rounds=2))
    enc = Encounter.begin(engine, ScriptedDice([]))
    for _ in range(4):
        enc.act("wait", ScriptedDice([]))
    assert enc.state.ending == "truncated" and enc.state.winner is None
    assert enc.state.round == 2
    with pytest.raises(InputError, match="fight is over"):
        enc.act("wait", ScriptedDice([]))


def test_nobody_deciding_is_one_error_line(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    # a state between rounds (as a hand-edited save could hold) reaches no rule, even under -O
    engine = engine_for(toy_scenario())
    between = engine.initial()
    assert between.acting is None and between.ending is None
    with pytest.raises(InputError, match=r"^nobody is acting in round 0 \(") as err:
        engine.legal_actions(between)
    assert "\n" not in str(err.value) and err.value.tip
    assert engine.start(ScriptedDice([])).decider() == "Ann"


def test_preview_is_exact(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    # Ann hits on 4+ (1/2); Bob dodging makes it 5+ (1/3).
    engine = engine_for(toy_scenario(ann_hp=2, bob_hp=2))
    state = engine.start(ScriptedDice([]))
    attack = engine.find_action(state, "attack:Bob")
    preview = engine.preview(state, attack)
    assert preview.harm == {"Bob": Fraction(1, 2)} and preview.p_out == {}
    dodging = state.with_combatant(Fighter("Bob", "blue", 2, dodging=True))
    assert engine.preview(dodging, attack).harm == {"Bob": Fraction(1, 3)}
    one_hp = state.with_combatant(Fighter("Bob", "blue", 1))
    assert engine.preview(one_hp, attack).p_out == {"Bob": Fraction(1, 2)}
    assert engine.preview(state, engine.find_action(state, "wait")).p_effect == 0


def test_a_refused_preview_is_estimated_on_request(toy_scenario, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Past the path budget a preview is empty (what policies score) unless an estimate is
    asked for: then the action is played on seeded dice and counted, the same every time, with
    Wilson intervals that hold the exact figures (Bob, at 1 hit point, is out 1/2 the time)."""
    from firefight.encounter import engine as engine_module

    engine = engine_for(toy_scenario(ann_hp=2, bob_hp=1))
    state = engine.start(ScriptedDice([]))
    attack = engine.find_action(state, "attack:Bob")
    exact = engine.preview(state, attack)
    assert exact.exact and exact.samples == 0 and exact.p_out == {"Bob": Fraction(1, 2)}
    assert "samples" not in exact.to_json() and "ci95" not in exact.to_json()

    monkeypatch.setattr(engine_module, "PREVIEW_PATHS", 1)
    engine = engine_for(toy_scenario(ann_hp=2, bob_hp=1))  # nothing cached
    refused = engine.preview(state, attack)
    assert not refused.exact and refused.samples == 0 and refused.p_out == {}
    assert "too many to enumerate" in refused.note

    estimate = engine.preview(state, attack, estimate=2000)
    assert not estimate.exact and estimate.samples == 2000
    assert estimate.note.startswith("estimated from 2,000 plays on seeded dice (Ann attacks Bob")
    assert estimate == engine.preview(state, attack, estimate=2000)  # the same every time
    shown = estimate.to_json()
    assert shown["samples"] == 2000
    lo, hi = shown["ci95"]["p_out"]["Bob"]
    assert lo < 0.5 < hi and hi - lo < 0.05
    assert shown["ci95"]["p_effect"] == shown["ci95"]["p_out"]["Bob"]  # a hit is Bob's fall
    assert estimate.p_out["Bob"] == estimate.harm["Bob"] == estimate.p_effect != Fraction(1, 2)
    # no harm to anyone the action cannot touch, and no mass left out of a count
    assert set(estimate.harm) == {"Bob"} and estimate.truncated_mass == 0


def test_kernel_of_a_step_sums_to_one(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    # With initiative rolled each round (d6 each), Ann's attack from round 1 leads to: Bob down
    # (1/2) or Bob's turn (1/2).
    engine = engine_for(toy_scenario(extra="initiative = true"))
    state = engine.start(ScriptedDice([4, 2]))
    assert state.order == ("Ann", "Bob")
    kernel = engine.kernel(state, engine.find_action(state, "attack:Bob"))
    probs = kernel.probabilities()
    assert sum(probs.values()) == 1
    ended = [s for s in probs if s.ending == "terminated"]
    assert len(ended) == 1 and probs[ended[0]] == Fraction(1, 2)


def test_aggressive_and_cautious(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    engine = engine_for(toy_scenario(ann_hp=2, bob_hp=2))
    state = engine.start(ScriptedDice([]))
    actions = engine.legal_actions(state)
    assert aggressive(engine, state, actions, None).id == "attack:Bob"
    assert expected_effect(engine, state, actions[0]) == Fraction(1, 2)
    # unhurt: cautious attacks too; hurt: it dodges
    assert cautious(engine, state, actions, None).id == "attack:Bob"
    hurt = state.with_combatant(Fighter("Ann", "red", 1))
    assert cautious(engine, hurt, engine.legal_actions(hurt), None).id == "dodge"


def test_state_json_round_trip(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    engine = engine_for(toy_scenario(ann_hp=3, bob_hp=3))
    enc = fight(engine, seed=5)
    for state in enc.states:
        assert state_from_json(state_to_json(state), engine.turns.state_types) == state


def test_seeded_fight_is_deterministic(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    path = toy_scenario(ann_hp=4, bob_hp=4, red="random", blue="aggressive")
    a, b = fight(engine_for(path), 11), fight(engine_for(path), 11)
    assert [s.to_json() for s in a.steps] == [s.to_json() for s in b.steps]
    assert a.state == b.state


def test_step_faces_replay_to_the_same_step(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    engine = engine_for(toy_scenario(ann_hp=3, bob_hp=3, extra="initiative = true"))
    dice = SeededDice(3)
    enc = Encounter.begin(engine, dice)
    while enc.state.ending is None:
        enc.act(engine.legal_actions(enc.state)[0].id, dice)
    again = Encounter.replay(engine, enc.start_faces, list(enc.steps), [], None, "test")
    assert again.states == enc.states


def test_scripted_faces_are_checked(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    engine = engine_for(toy_scenario())
    enc = Encounter.begin(engine, ScriptedDice([]))
    with pytest.raises(ScriptError, match="shows 7, which a d6"):
        enc.act("attack:Bob", ScriptedDice([7]))
    with pytest.raises(InputError, match="has no action 'attack:Zed'"):
        enc.act("attack:Zed", ScriptedDice([1]))
    assert enc.steps == [] and enc.state.round == 1


def test_a_states_kept_hash_stays_behind_when_copied() -> None:
    """FightState keeps its hash once worked out; pickle and deepcopy carry the fields only (a
    process that salts string hashes anew works its own out), and equal states hash alike."""
    import copy
    import pickle

    from firefight.core.turns import FightState

    state = FightState(2, "turns", ("a", "b"), "a", (Fighter("a", "x", 5), Fighter("b", "y", 4)))
    h = hash(state)
    assert state.__dict__["_hash"] == h
    for copied in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert "_hash" not in copied.__dict__
        assert copied == state and hash(copied) == h
    assert hash(FightState(2, "turns", ("a", "b"), "a", state.combatants)) == h
