"""The fast path's shared kernels (``Turns.unread``, ``Engine.masked``, ``Turns.stand_in``): a
kernel built for a state with the unread fields set aside (or for its stand-in), each outcome
given the fields back (or carried back), is the state's own kernel, exactly; and fights drawn
from shared kernels agree with the reference loop.

Tolerance of the statistical test: win rates within 4 standard errors of each other (a false
alarm about once in 15,000 seeds); the seeds are fixed, so the test is repeatable.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from firefight.analysis.fast import KernelSampler, carried, run_chunk, simulate_fast
from firefight.analysis.reference import simulate_reference
from firefight.core.turns import Action, FightState, evolve
from firefight.dice import SeededDice, Weighted
from firefight.dice.sources import TooManyPaths
from firefight.encounter import Engine, read_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: Every ruleset whose turns answer ``unread``, and its example encounters.
SHARING = {"warfare2d20": sorted((EXAMPLES / "warfare2d20" / "encounters").glob("*.toml"))}
CASES = [(rid, p) for rid, paths in SHARING.items() for p in paths]


def _odds(dist: Weighted[FightState]) -> dict[FightState, Fraction]:
    return {s: Fraction(w, dist.total) for s, w in dist.items()}


def _visited(engine: Engine, fights: int, seed: int) -> list[tuple[FightState, Action]]:
    """(state, action) pairs met in fights of random play, each action legal there."""
    rng = np.random.default_rng(seed)
    pairs = []
    for _ in range(fights):
        dice = SeededDice(rng)
        state = engine.start(dice)
        while state.ending is None:
            actions = engine.legal_actions(state)
            for a in actions:
                pairs.append((state, a))
            state = engine.step(state, actions[int(rng.integers(len(actions)))], dice)
    return pairs


def _mismatches(engine: Engine, pairs: list[tuple[FightState, Action]], most: int) -> list[Any]:
    """Pairs (at most ``most`` checked) whose shared kernel, unmasked, is not their own."""
    wrong: list[Any] = []
    checked = 0
    for state, action in pairs:
        masked = engine.masked(state, action)
        if masked is None:
            continue
        shared, unread = masked
        try:
            own = _odds(engine.kernel(state, action, max_paths=5_000))
            lifted = engine.kernel(shared, action, max_paths=5_000)
        except TooManyPaths:
            continue
        back = {engine.unmask(state, shared, unread, s): p for s, p in _odds(lifted).items()}
        if back != own:
            wrong.append((state, action.id))
        checked += 1
        if checked >= most:
            break
    assert checked, "no pair had fields to set aside"
    return wrong


@pytest.mark.parametrize(("ruleset", "path"), CASES, ids=[p.stem for _, p in CASES])
def test_unread_fields_leave_the_kernel_as_it_was(ruleset: str, path: Path) -> None:
    sides = {s.name: "random" for s in read_scenario(path).spec.sides}
    engine = Engine(read_scenario(path, policies=sides))
    pairs = _visited(engine, 6, seed=5)
    # every other pair, spread over the fights (early, wounded, late, truncated near the end)
    assert _mismatches(engine, pairs[::2], most=60) == []


def _carried_mismatches(
    engine: Engine, pairs: list[tuple[FightState, Action]], most: int
) -> tuple[list[Any], int]:
    """Pairs (at most ``most`` checked) whose stand-in's kernel, carried back, is not their own
    kernel; and how many of those checked were killing shots (carried by another path)."""
    wrong: list[Any] = []
    checked = kills = 0
    for state, action in pairs:
        masked = engine.masked(state, action)
        shared, unread = masked if masked is not None else (state, None)
        stand_in = engine.turns.stand_in(shared, action)
        if stand_in is None:
            continue
        try:
            own = _odds(engine.kernel(state, action, max_paths=5_000))
            lifted = engine.kernel(stand_in, action, max_paths=5_000)
        except TooManyPaths:
            continue
        back: dict[FightState, Fraction] = {}
        for s, p in _odds(lifted).items():
            moved = carried(engine, state, action, stand_in, unread, s)
            back[moved] = back.get(moved, Fraction(0)) + p
        if back != own:
            wrong.append((state, action.id))
        kills += any(engine.turns.is_dead(s.combatant(str(action.target))) for s in own)
        checked += 1
        if checked >= most:
            break
    return wrong, kills


@pytest.mark.parametrize(("ruleset", "path"), CASES, ids=[p.stem for _, p in CASES])
def test_stand_ins_carry_back_to_the_kernel_as_it_was(ruleset: str, path: Path) -> None:
    """A shot's kernel keyed by its stand-in (the target's hit points out of reach, stamina
    cut to his pain threshold), each outcome carried back, is the shot's own kernel: the
    losses on his own hit points and stamina, and where they kill him, the fight or the round
    ended as the step ends them."""
    sides = {s.name: "random" for s in read_scenario(path).spec.sides}
    engine = Engine(read_scenario(path, policies=sides))
    pairs = [(s, a) for s, a in _visited(engine, 6, seed=5) if a.kind == "attack"]
    wrong, kills = _carried_mismatches(engine, pairs[::2], most=40)
    assert wrong == []
    assert kills  # shots that can kill were among those checked


def test_a_wrong_carry_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Carrying a killing shot back as a mere loss (no death) changes kernels: caught."""
    path = EXAMPLES / "warfare2d20" / "encounters" / "duel.toml"
    engine = Engine(read_scenario(path))
    turns = engine.turns
    honest = turns.carry

    def careless(state: FightState, action: Action, stand_in: FightState, after: Any) -> Any:
        i = next(k for k, c in enumerate(state.combatants) if c.name == action.target)
        lost = stand_in.combatants[i].hit_points - after.combatants[i].hit_points
        if state.combatants[i].hit_points - lost > 0:
            return honest(state, action, stand_in, after)
        people = list(after.combatants)
        people[i] = state.combatants[i]
        return evolve(after, combatants=tuple(people))

    monkeypatch.setattr(turns, "carry", careless)
    pairs = [(s, a) for s, a in _visited(engine, 6, seed=3) if a.kind == "attack"]
    wrong, kills = _carried_mismatches(engine, pairs, most=60)
    assert kills and wrong


@pytest.mark.parametrize(("ruleset", "path"), CASES, ids=[p.stem for _, p in CASES])
def test_idle_fields_change_nothing_to_come(ruleset: str, path: Path) -> None:
    """A state lumped (``Turns.idle`` fields at their initial values) has the same legal
    actions and, lumped alike, the same kernel; and the report reads nothing idle."""
    sides = {s.name: "random" for s in read_scenario(path).spec.sides}
    engine = Engine(read_scenario(path, policies=sides))
    turns = engine.turns
    lumped_any = False
    for k, (state, action) in enumerate(_visited(engine, 4, seed=8)[::3][:50]):
        same = engine.lumped(state)
        lumped_any = lumped_any or same != state
        assert engine.legal_actions(same) == engine.legal_actions(state)
        for a, b in zip(same.combatants, state.combatants, strict=True):
            assert (turns.can_fight(a), turns.is_dead(a), turns.harm(a)) == (
                turns.can_fight(b),
                turns.is_dead(b),
                turns.harm(b),
            )
        if k % 3 == 0:
            try:
                mine = engine.kernel(state, action, max_paths=5_000)
                theirs = engine.kernel(same, action, max_paths=5_000)
            except TooManyPaths:
                continue

            def lump(d: Weighted[FightState]) -> dict[FightState, Fraction]:
                out: dict[FightState, Fraction] = {}
                for s, p in _odds(d).items():
                    out[engine.lumped(s)] = out.get(engine.lumped(s), Fraction(0)) + p
                return out

            assert lump(mine) == lump(theirs)
    alone = any(
        [c.side for c in engine.initial().combatants].count(c.side) == 1
        for c in engine.initial().combatants
    )
    assert lumped_any == alone  # a duellist's W10 result is idle; a team member's is not


def test_a_wrong_promise_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Claiming the target's hit points unread changes kernels: the check above would fail."""
    path = EXAMPLES / "warfare2d20" / "encounters" / "duel.toml"
    engine = Engine(read_scenario(path))
    turns = engine.turns
    honest = turns.unread

    def greedy(state: FightState, action: Action) -> Any:
        found = honest(state, action)
        return None if found is None else tuple((i, (*f, "hit_points")) for i, f in found)

    monkeypatch.setattr(turns, "unread", greedy)
    pairs = [(s, a) for s, a in _visited(engine, 4, seed=3) if a.kind == "attack"]
    assert _mismatches(engine, pairs, most=40)


@pytest.mark.parametrize("policy", ["first", "random"])
def test_shared_kernels_agree_with_the_reference_loop(policy: str) -> None:
    """The warfare2d20 duel (hit points spread wide): most lanes draw from kernels shared by
    states that differ in unread fields (one action per state, or the random policy's
    mixture), and the win rates, rounds and harm dealt agree."""
    path = EXAMPLES / "warfare2d20" / "encounters" / "duel.toml"
    policies = {"marines": policy, "insurgents": policy}
    engine = Engine(read_scenario(path, policies=policies))
    sampler = KernelSampler(engine)
    run_chunk(sampler, 4_000, np.random.default_rng(1))
    shared = [k for k in sampler.keys if k.unread is not None and k.offset >= 0]
    assert shared and sampler.transitions  # the shared path ran
    assert bool(sampler.mixed_keys) == (policy == "random")
    n_fast, n_ref = 20_000, 1_000
    fast, _ = simulate_fast(Engine(read_scenario(path, policies=policies)), n_fast, 21)
    ref = simulate_reference(Engine(read_scenario(path, policies=policies)), n_ref, 21)
    for side in ("marines", "insurgents"):
        pf, pr = fast.wins.get(side, 0) / n_fast, ref.wins.get(side, 0) / n_ref
        p = (pf * n_fast + pr * n_ref) / (n_fast + n_ref)
        se = (p * (1 - p) * (1 / n_fast + 1 / n_ref)) ** 0.5
        assert abs(pf - pr) < 4 * se, (side, pf, pr)

    def mean_rounds(t: Any) -> float:
        return sum(r * w for (_, r), w in t.ended_at.items()) / sum(t.ended_at.values())

    assert abs(mean_rounds(fast) - mean_rounds(ref)) < 0.15
    for name in ("Rivera", "Insurgent"):
        df, dr = fast.dealt[name] / n_fast, ref.dealt[name] / n_ref
        assert abs(df - dr) < 0.1 * dr + 0.5, (name, df, dr)


def test_counters_ride_beside_the_states() -> None:
    """Under policies blind to hit points and stamina, a duel's lanes carry them in arrays
    (``Turns.counters``): every state met holds them at their initial values, a kill is a
    transition of its own (hit points brought to 0 or below), and far fewer states are met
    than fights; under a policy that reads them (aggressive) they stay in the states."""
    path = EXAMPLES / "warfare2d20" / "encounters" / "duel.toml"
    engine = Engine(read_scenario(path))
    sampler = KernelSampler(engine)
    run_chunk(sampler, 4_000, np.random.default_rng(2))
    assert sampler.counted == ("hit_points", "stamina")
    first = [(c.hit_points, c.stamina) for c in engine.initial().combatants]
    assert all([(c.hit_points, c.stamina) for c in s.combatants] == first for s in sampler.states)
    assert any(code & 1 for code in sampler.transitions) and len(sampler.states) < 400
    reading = {"marines": "aggressive", "insurgents": "first"}
    assert KernelSampler(Engine(read_scenario(path, policies=reading))).counted == ()


def test_a_step_reading_counters_is_stepped_on_the_lanes_own_state() -> None:
    """A burst at two targets keeps its hit points (no stand-in, nothing unread): its key is
    whole, never a kernel, and its lanes step on their own states (the counters put back)."""
    path = EXAMPLES / "warfare2d20" / "encounters" / "fire_team.toml"
    sides = {s.name: "random" for s in read_scenario(path).spec.sides}
    sampler = KernelSampler(Engine(read_scenario(path, policies=sides)), start_paths=500)
    run_chunk(sampler, 200, np.random.default_rng(4))
    bursts = [k for k in sampler.keys if k.action.param("targets")]
    assert bursts and all(k.whole and k.offset < 0 for k in bursts)
    assert not any(k.whole for k in sampler.keys if k.stand_in)


def _class_mismatches(engine: Engine, most: int) -> tuple[list[Any], int]:
    """Shots (at most ``most`` checked, from random play) whose key in a sampler, found by the
    lane's state id and class as the fast path finds it, carried back, is not their own kernel;
    and how many of those checked had the target's stamina below his cap."""
    sampler = KernelSampler(engine)
    cap = engine.turns.counter_cap
    shots = [(s, a) for s, a in _visited(engine, 6, seed=4) if a.kind == "attack"][::2]

    def below(pair: tuple[FightState, Action]) -> bool:
        t = pair[0].combatant(str(pair[1].target))
        return bool(t.stamina < cap(t, "stamina"))  # type: ignore[operator]

    def tired(pair: tuple[FightState, Action], k: int) -> tuple[FightState, Action]:
        state, action = pair
        t = state.combatant(str(action.target))
        worn = min(t.stamina, cap(t, "stamina") - k)  # type: ignore[operator]
        return state.with_combatant(evolve(t, stamina=max(worn, 0))), action

    # as met, and (a duel's stamina rarely runs that low) the target's worn below his cap
    pairs = [q for p in shots for q in (p, tired(p, 1), tired(p, 3))]
    wrong: list[Any] = []
    checked = low = 0
    for state, action in pairs:
        sid, counts = sampler.enter(state)
        cls = int(sampler.class_of(np.array([counts], dtype=np.int64))[0])
        key = sampler.keys[sampler.key_of(sid, action, cls)]
        assert key.stand_in and not key.whole
        try:
            own = _odds(engine.kernel(state, action, max_paths=5_000))
            lifted = engine.kernel(key.state, action, max_paths=5_000)
        except TooManyPaths:
            continue
        back: dict[FightState, Fraction] = {}
        for s, p in _odds(lifted).items():
            moved = carried(engine, state, action, key.state, key.unread, s)
            back[moved] = back.get(moved, Fraction(0)) + p
        if back != own:
            wrong.append((state, action.id))
        low += below((state, action))
        checked += 1
        if checked >= most:
            break
    assert checked
    return wrong, low


def test_stamina_is_keyed_by_its_class() -> None:
    """Stamina is read by a shot only up to the target's pain threshold (``Turns.counter_cap``,
    W08): lanes carry it beside their states and a lane's key takes it so capped (its class).
    Each shot's key, found from the lane's state id and class, carried back, is the shot's own
    kernel (targets with stamina below the cap among them); stamina run out is no kill (the
    kill bit follows hit points alone)."""
    path = EXAMPLES / "warfare2d20" / "encounters" / "duel.toml"
    engine = Engine(read_scenario(path))
    people = engine.initial().combatants
    caps = [engine.turns.counter_cap(c, "stamina") for c in people]
    sampler = KernelSampler(engine)
    assert sampler.capped == [(1, caps[0]), (3, caps[1])]
    assert sampler.kills.tolist() == [True, False, True, False]
    wrong, low = _class_mismatches(engine, most=30)
    assert wrong == [] and low


def test_a_wrong_cap_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cap below the pain threshold keys shots by targets with less stamina than their own
    class holds: the check above finds it."""
    path = EXAMPLES / "warfare2d20" / "encounters" / "duel.toml"
    engine = Engine(read_scenario(path))
    honest = engine.turns.counter_cap

    def short(combatant: Any, field: str) -> int | None:
        cap = honest(combatant, field)
        return None if cap is None else cap - 1

    monkeypatch.setattr(engine.turns, "counter_cap", short)
    wrong, _ = _class_mismatches(engine, most=30)
    assert wrong
