"""Every choice of a turn evaluated under a budget: first answers in time, refinement to the
exact answer, estimates and rollouts held to exact answers, stops that stop at once."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from firefight.analysis import budget, choices, horizon
from firefight.analysis.budget import Stop, limited
from firefight.analysis.choices import Evaluation, RiskWork, Shared, WinWork, progress_text
from firefight.core.stats import wilson
from firefight.core.turns import FightState, evolve
from firefight.dice import SeededDice, enumerate_outcomes
from firefight.encounter import Encounter, Engine, read_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: The normal quantile of a 99.9% interval: an estimate is held to the exact answer by it (a
#: 95% interval leaves one figure in twenty outside by chance).
Z999 = 3.2905


def started(example: str, steps: int = 0, seed: int = 1) -> tuple[Engine, FightState]:
    """An example's engine and its state after ``steps`` first legal actions."""
    ruleset, name = example.split("/")
    engine = Engine(read_scenario(EXAMPLES / ruleset / "encounters" / f"{name}.toml"))
    enc = Encounter.begin(engine, SeededDice(seed))
    for n in range(steps):
        enc.act(engine.legal_actions(enc.state)[0].id, SeededDice(n))
    return engine, enc.state


def test_a_slow_preview_is_estimated_within_the_budget_then_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """graydawn's suppressing fire previews exactly in tens of milliseconds: under a budget of
    2 ms for the list every action still gets a first answer, an estimate with its interval,
    and the list stays near its budget; refined, each turns exact, equal to the engine's."""
    monkeypatch.setattr(choices, "PLAYS", 50)  # quick to the exact attempt
    engine, state = started("graydawn/duel")
    evaluation = Evaluation(engine, state, budget=0.002, risk=False)
    evaluation.first_answers()
    assert evaluation.first_cpu < 0.002 + 0.1  # one play or one check past it at most
    rows = {r["id"]: r["odds"] for r in evaluation.rows()}
    fire = rows["suppress:Kid_Rourke:10"]
    assert fire["exact"] is False and fire["samples"] >= 1 and "refining" in fire["note"]
    assert progress_text(evaluation.progress()).endswith("the rest estimated, refining")
    while evaluation.refine() is not None:
        pass
    progress = evaluation.progress()
    assert progress["exact"] == progress["actions"] == len(rows)
    assert progress_text(progress) == f"exact for all {len(rows)}"
    for action in engine.legal_actions(state):
        row = evaluation.row_of(action.id)["odds"]
        assert {k: v for k, v in row.items() if k not in ("same_as", "effect")} == engine.preview(
            state, action, max_paths=choices.UNLIMITED
        ).to_json()


@pytest.mark.parametrize(
    ("example", "steps", "action"),
    [
        ("warfare2d20/duel", 0, "fire:Insurgent:automatic"),
        ("quality_d100/stun_and_knockdown", 0, "attack:Brute:trip"),
        ("tactical_d20/knife_duel", 0, "disarm:Rook"),
        ("dragonwarriors2/goblin_duel", 0, "attack:Snag"),
    ],
)
def test_estimates_hold_the_exact_answers_in_their_intervals(
    example: str, steps: int, action: str
) -> None:
    """400 plays of the same rule code on seeded dice: every exact figure (the chance to land,
    each combatant out, each condition) inside its estimate's interval (the 95% one the
    preview gives, for the figures it gives; 99.9% for all)."""
    engine, state = started(example, steps)
    chosen = engine.find_action(state, action)
    exact = engine.preview(state, chosen)
    assert exact.exact and exact.p_success > 0
    rng = np.random.default_rng(7)
    counts: Counter[Hashable] = Counter()
    for _ in range(400):
        counts[engine.play(state, chosen, SeededDice(rng))] += 1
    estimate = engine.estimated(state, chosen, counts, "estimated")
    shown = estimate.to_json()
    assert shown["samples"] == 400 and shown["exact"] is False
    figures = [("p_success", exact.p_success, estimate.p_success)]
    for name, p in exact.p_out.items():
        figures.append((f"{name} out", p, estimate.p_out.get(name, Fraction(0))))
    for name, said in exact.conditions.items():
        for what, p in said.items():
            found = estimate.conditions.get(name, {}).get(what, Fraction(0))
            figures.append((f"{name} {what}", p, found))
    assert len(figures) >= 2
    for what, p, found in figures:
        lo, hi = wilson(int(found * 400), 400, Z999)
        assert lo <= p <= hi, (what, float(p), lo, hi)


@pytest.mark.parametrize(
    ("example", "steps"), [("warfare2d20/small_duel", 0), ("dragonwarriors2/goblin_duel", 1)]
)
def test_rollout_win_chances_hold_the_chain(example: str, steps: int) -> None:
    """On small duels the chain gives each action's win chance exactly; fights played to the
    end by the fast path (and, past its class limit, one by one) hold it in their interval."""
    engine, state = started(example, steps)
    shared = Shared(engine)
    for action in engine.legal_actions(state)[:3]:
        chained = WinWork(shared, state, action, 60.0)
        with limited(None):
            chained._chain(60.0)
        assert chained.exact, action.id
        exact = chained.to_json()
        assert exact is not None and 0.99 < sum(exact["p"].values()) <= 1 + 1e-9
        rolled = WinWork(shared, state, action, 60.0)
        rolled.chain_refused = True
        with limited(None):
            rolled._count(600)
        found = rolled.to_json()
        assert found is not None and found["fights"] == 600 and not found["exact"]
        for side, p in exact["p"].items():
            lo, hi = wilson(rolled.counts[side], 600, Z999)
            assert lo <= p <= hi, (action.id, side, p, lo, hi)


def test_a_risk_by_plays_holds_the_chain() -> None:
    """The actor's chance of being hurt before his next turn: plays hold the chain's answer,
    and taking cover lowers it against aiming or ending the round (its defensive value)."""
    engine, state = started("warfare2d20/small_duel")
    shared = Shared(engine)
    seen = {}
    for action in engine.legal_actions(state):
        chained = RiskWork(shared, state, action, 60.0)
        with limited(None):
            chained._chain(60.0)
        assert chained.exact
        played = RiskWork(shared, state, action, 60.0)
        with limited(None):
            played._count(400)
        p = chained.p()
        assert p is not None and played.runs == 400
        lo, hi = wilson(played.counts["hurt"], 400, Z999)
        assert lo <= p[0] <= hi, (action.id, p, lo, hi)
        seen[action.id] = p[0]
    assert seen["take_cover"] < min(seen["aim"], seen["done"])


def test_the_m4s_rates_of_fire_differ_by_what_the_text_gives() -> None:
    """W03/W05 and the catalog's M4: burst and automatic fire add as much delta t as their
    recoil takes back (the same chance to hit), but their delta s can shock the target: the
    difference shows as the chance to suppress. Against a target already suppressed there is
    none, and the odds say why in one phrase."""
    engine, state = started("warfare2d20/duel")
    rows = {r["id"]: r["odds"] for r in _answered(engine, state)}
    single, burst, auto = (rows[f"fire:Insurgent:{m}"] for m in ("single", "burst", "automatic"))
    assert single["p_out"] == burst["p_out"] == auto["p_out"]
    assert "suppressed" not in single["conditions"]["Insurgent"]
    assert burst["conditions"]["Insurgent"]["suppressed"] > 0
    assert (
        burst["conditions"]["Insurgent"]["suppressed"]
        < auto["conditions"]["Insurgent"]["suppressed"]
    )
    assert "same_as" not in burst and "same_as" not in auto
    pinned = evolve(
        state,
        combatants=tuple(
            evolve(c, suppressed_until=1) if c.name == "Insurgent" else c for c in state.combatants
        ),
    )
    rows = {r["id"]: r["odds"] for r in _answered(engine, pinned)}
    assert rows["fire:Insurgent:burst"]["same_as"] == "fire:Insurgent:single"
    assert rows["fire:Insurgent:burst"]["same_why"] == (
        "its +1 delta t is taken back by its +1 recoil, and its delta s 2 cannot shock anyone here"
    )


def _answered(engine: Engine, state: FightState) -> list[dict[str, object]]:
    evaluation = Evaluation(engine, state, risk=False)
    evaluation.first_answers()
    return evaluation.rows()


def test_preview_conditions_are_the_rule_codes() -> None:
    """A preview's chance of each new condition is read off the states the rule code leaves:
    the same as from the action's exact distribution (``act``, path by path). graydawn's
    staged previews (stand-ins, fields set aside) are held whole, conditions included, to
    their path-by-path twins by ``tests/rulesets/graydawn/test_staged_preview.py``."""
    for example, action in [
        ("quality_d100/stun_and_knockdown", "attack:Brute:trip"),
        ("tactical_d20/knife_duel", "disarm:Rook"),
        ("warfare2d20/duel", "fire:Insurgent:burst"),
        ("dragonwarriors2/rolf_vs_lennox", "attack:Rolf"),
        ("graydawn/knife_duel_exact", "strike:Enforcer"),
    ]:
        engine, state = started(example)
        chosen = engine.find_action(state, action)
        preview = engine.preview(state, chosen)
        dist = engine.act_distribution(state, chosen)
        had = {c.name: engine.conditions(c) for c in state.combatants}
        expected: dict[str, dict[str, Fraction]] = {}
        for after, w in dist.items():
            for c in after.combatants:
                for what in engine.conditions(c) - had[c.name]:
                    slot = expected.setdefault(c.name, {})
                    slot[what] = slot.get(what, Fraction(0)) + Fraction(w, dist.total)
        assert preview.conditions == expected and expected, action


def test_a_cancel_stops_the_work_at_once() -> None:
    """Refinement stopped from another thread raises Stop at its next check: the CPU it
    spends after the flag is set stays small (graydawn plays and enumerations both check)."""
    engine, state = started("graydawn/suppression_panic", 4)
    evaluation = Evaluation(engine, state, budget=0.05, risk=False, win=True)
    evaluation.first_answers()
    flagged: list[float] = []
    ident = threading.get_ident()
    clock = time.pthread_getcpuclockid(ident)

    def cancel() -> None:
        time.sleep(0.3)
        flagged.append(time.clock_gettime(clock))
        evaluation.cancel.set()

    threading.Thread(target=cancel).start()
    with pytest.raises(Stop) as stopped:
        while evaluation.refine() is not None:
            pass
    after = time.thread_time() - flagged[0]
    assert stopped.value.cancelled and after < 0.05


def test_checks_reach_enumerations_and_seeded_dice() -> None:
    """Within ``limited``, exact enumerations check once per path and seeded dice once per
    roll: a deadline of nothing stops both (a seeded fight would otherwise play on)."""
    monkey = budget.LOOK_EVERY
    try:
        budget.LOOK_EVERY = 1
        with pytest.raises(Stop), limited(0.0):
            enumerate_outcomes(lambda d: (d.roll("2d20").total, d.roll("d6").total))
        engine, state = started("warfare2d20/duel")
        stop = horizon.winner
        with pytest.raises(Stop), limited(0.0):
            horizon.play_until(
                engine, state, "Rivera", stop, np.random.default_rng(1), horizon.policies_of(engine)
            )
    finally:
        budget.LOOK_EVERY = monkey


def test_wilson_gives_the_win_intervals() -> None:
    """A win chance's interval is the Wilson interval of its fights."""
    engine, state = started("warfare2d20/small_duel")
    work = WinWork(Shared(engine), state, engine.legal_actions(state)[0], 10.0)
    work.counts.update({"blue": 30, "red": 70})
    found = work.to_json()
    assert found is not None
    assert found["ci95"]["red"] == list(wilson(70, 100)) and found["fights"] == 100
