"""solve: toy games solved by hand, the backward-induction equations state by state, the best
decisions never worse than a policy, the tables read back against the policy, the optimal
policy wherever policies are, and the command's output and refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.analysis import optimal as optimal_mod
from firefight.analysis.decisions import Decision, decisions, features, show, tables
from firefight.analysis.exact import solve_exact
from firefight.analysis.simulate import simulate
from firefight.analysis.solve import TIE, Game, Solution, best_of
from firefight.analysis.solve_report import solve_scenario
from firefight.cli.app import app
from firefight.core.turns import FightState
from firefight.dice import enumerate_outcomes
from firefight.encounter import Engine, fight, read_scenario
from firefight.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GOBLINS = EXAMPLES / "dragonwarriors2/encounters/goblin_duel.toml"
ROLF_LENNOX = EXAMPLES / "dragonwarriors2/encounters/rolf_vs_lennox_first_blood.toml"


def engine(path, **kw) -> Engine:  # type: ignore[no-untyped-def]
    return Engine(read_scenario(path, **kw))


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def close(a: float, b: float | Fraction) -> bool:
    return abs(a - float(b)) < 1e-12


# ------------------------------------------------------------------------------ toys by hand
def test_toy_against_a_policy_by_hand(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    # Ann (skill 4: hits on 4+, 1/2) plays random over attack, dodge and wait; Bob never hits
    # (skill 7). One round: Ann's policy wins 1/3 * 1/2 = 1/6; attacking, the best, 1/2. She
    # leaves 1/3 on the table; Bob can do nothing (his chances are 0 either way).
    path = toy_scenario(max_rounds=1, red="random", bob_skill=7)
    report = solve_scenario(engine(path))
    assert close(report.policies[0], Fraction(1, 6))
    assert close(report.best["red"], Fraction(1, 2))
    assert close(report.left_on_table("red"), Fraction(1, 3))
    assert report.best["blue"] == 0 and report.left_on_table("blue") == 0
    (red_table,) = report.parts[0].tables
    assert [r.choice for r in red_table.rows] == ["attack"]


def test_toy_ties_go_to_the_least_for_the_others_by_hand(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    # Ann never hits (skill 7): every action gives her 0, so the tie goes to the action that
    # leaves Bob least: dodging (Bob then hits on 5+, 1/3, not 4+). Two rounds of that: Bob
    # wins 1/3 + 2/3 * 1/3 = 5/9; the rest, 4/9, is truncated.
    path = toy_scenario(max_rounds=2, ann_skill=7)
    report = solve_scenario(engine(path), side="red")
    part = report.parts[0]
    assert close(part.chances[0], 0) and close(part.chances[1], Fraction(5, 9))
    (table,) = part.tables
    assert [r.choice for r in table.rows] == ["defend"]


def test_toy_both_sides_best_by_hand(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    # Both hit on 4+ and both attack: Ann (first each round) wins 1/2 + 1/4 * 1/2 = 5/8 in two
    # rounds, Bob 1/4 + 1/16 = 5/16; neither can do better by dodging or waiting.
    report = solve_scenario(engine(toy_scenario(max_rounds=2)), against="optimal")
    (part,) = report.parts
    assert close(part.chances[0], Fraction(5, 8)) and close(part.chances[1], Fraction(5, 16))
    assert {r.choice for t in part.tables for r in t.rows} == {"attack"}


def test_ties_then_the_first_action() -> None:
    # equal for the decider and for the others: the first; equal for the decider, less for the
    # others: that one; better for the decider by more than TIE: that one
    assert best_of([(0.5, 0.2), (0.5, 0.2)], 0) == 0
    assert best_of([(0.5, 0.2), (0.5 + TIE / 2, 0.1)], 0) == 1
    assert best_of([(0.5, 0.2), (0.5 - TIE / 2, 0.1), (0.5 + 3 * TIE, 0.4)], 0) == 2


# ---------------------------------------------------------------- the equations, state by state
def _assert_backward_induction(solution: Solution) -> None:
    game = solution.game
    sides = len(game.sides)
    for sid, value in solution.value.items():
        if game.final[sid] is not None:
            assert value == game.final[sid]
            continue

        def q(i: int, sid: int = sid) -> list[float]:
            return [
                sum(p * solution.value[t][k] for t, p in game.outcomes(sid, i))
                for k in range(sides)
            ]

        if solution.optimizes(sid):
            side = game.decider[sid]
            qs = [q(i) for i in range(len(game.actions(sid)))]
            best = solution.choice[sid]
            assert all(abs(a - b) < 1e-12 for a, b in zip(value, qs[best], strict=True))
            assert all(qs[best][side] >= x[side] - TIE for x in qs)
        else:
            mixed = [0.0] * sides
            for i, p in game.policy(sid):
                for k, x in enumerate(q(i)):
                    mixed[k] += p * x
            assert all(abs(a - b) < 1e-12 for a, b in zip(value, mixed, strict=True))


def test_against_optimal_satisfies_backward_induction_state_by_state(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    path = toy_scenario(max_rounds=3, ann_hp=2, bob_skill=3, extra="initiative = true")
    game = Game(engine(path))
    solution = Solution(game, game.sides)
    solution.solve()
    assert len(solution.value) > 20
    _assert_backward_induction(solution)


def test_a_real_duel_satisfies_backward_induction() -> None:
    duel = engine(EXAMPLES / "warfare2d20/encounters/small_duel.toml", max_rounds=1)
    game = Game(duel)
    solution = Solution(game, game.sides)
    solution.solve()
    _assert_backward_induction(solution)


# ------------------------------------------------------------- never worse than any policy
@pytest.mark.parametrize(
    ("scenario", "rounds"),
    [
        ("warfare2d20/encounters/small_duel.toml", 1),
        ("quality_d100/encounters/small_duel.toml", 1),
        ("graydawn/encounters/knife_duel_exact.toml", 1),
    ],
)
def test_best_decisions_never_worse_than_a_shipped_policy(scenario: str, rounds: int) -> None:
    path = EXAMPLES / scenario
    base = engine(path, max_rounds=rounds)
    game = Game(base)
    sides = game.sides
    best = {s: Solution(game, [s]).solve()[i] for i, s in enumerate(sides)}
    for side in sides:
        for name in ("first", "random", "aggressive", "cautious"):
            tally, _ = solve_exact(engine(path, max_rounds=rounds, policies={side: name}))
            assert best[side] >= float(tally.wins.get(side, 0)) - 1e-12, (side, name)
    # the baseline solved here is the chain's own answer
    tally, _ = solve_exact(base)
    chances = Solution(game, []).solve()
    for i, side in enumerate(sides):
        assert close(chances[i], tally.wins.get(side, 0))


# --------------------------------------------------------------------- the tables read back
def test_the_decision_table_reads_back_the_policy(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    path = toy_scenario(max_rounds=3, ann_hp=2, ann_skill=7, extra="initiative = true")
    game = Game(engine(path))
    solution = Solution(game, game.sides)
    solution.solve()
    found = decisions(solution, solution.reach())
    assert found
    read = 0
    for table in tables(found):
        mine = [d for d in found if d.decider == table.decider]
        for d in (d for d in mine if d.matters):
            row = table.row_for(d.features)
            assert row is not None and d.choice in row.choices
            if len(row.choices) == 1:  # an unmixed row gives every decision's choice
                assert row.choice == d.choice
                read += 1
        assert sum(r.states for r in table.rows) + table.idle == len(mine)
    assert read > 10


def _riposte_decision(duel: Engine) -> FightState:
    """A state of the duel where someone decides whether to riposte (breadth first)."""
    frontier = list(enumerate_outcomes(duel.start).items())
    for _ in range(4):
        following = []
        for state, _ in frontier:
            if state.ending is not None:
                continue
            actions = duel.legal_actions(state)
            if any(a.kind == "riposte" for a in actions):
                return state
            following += list(duel.kernel(state, actions[0]).items())
        frontier = following
    raise AssertionError("no riposte decision within four steps")


def test_a_riposte_decision_shows_its_margin() -> None:
    duel = engine(EXAMPLES / "dragonwarriors2/encounters/goblin_duel.toml")
    state = _riposte_decision(duel)
    found = features(duel, state)
    ex = state.board.exchange
    assert found["margin"] == ex.won_by and found["contest"] == ex.level == 1
    assert found["acted this turn"] is (state.decider() in state.board.done)
    assert found["wounds"] == 0 and found["round"] == state.round
    other = "Grub" if state.decider() == "Snag" else "Snag"
    assert found[f"{other} status"] == "unhurt"


def test_a_chain_cut_splits_no_state_of_the_solve() -> None:
    # a chain cut at max_chain is kept to the fight's end for simulate's report; who wins from
    # there is the same as without it, so the solve keeps one state for both (else every state
    # after a cut is met twice, and the Rolf and Lennox solve of solve.md is refused)
    duel = engine(GOBLINS, overrides=["options.max_chain=2"])
    state = _riposte_decision(duel)
    riposte = next(a for a in duel.legal_actions(state) if a.kind == "riposte")
    after = [s for s, _ in duel.kernel(state, riposte).items()]
    cut = [s for s in after if s.board.chain_cut]  # the counter-riposte is cut
    assert cut and duel.turns.reported(cut[0])  # simulate's report still sees it
    game = Game(duel)
    sid = game.intern(state)
    i = [a.id for a in game.actions(sid)].index(riposte.id)
    met = {child for child, _ in game.outcomes(sid, i)}
    assert not any(game.states[child].board.chain_cut for child in met)
    assert len(met) == len({duel.turns.unreported(s) for s in after})


def test_a_riposte_from_a_narrow_margin_lowers_the_riposters_chance() -> None:
    # D05: "a defender with a narrow margin of victory will be ill-advised to launch a riposte".
    # The rules doc's table is the four-turn Rolf and Lennox solve (minutes of CPU); here its
    # first turn, chains cut after three contests, Lennox on his habit: Rolf, attacked before his
    # own action, holds from a margin of 2 or 5 and ripostes from 15 or 30
    duel = engine(ROLF_LENNOX, overrides=["options.max_chain=3"], max_rounds=1)
    asked: dict[int, FightState] = {}
    frontier = [s for s, _ in enumerate_outcomes(duel.start).items()]
    while frontier and len(asked) < 4:
        state = frontier.pop(0)
        actions = duel.legal_actions(state) if state.ending is None else ()
        if any(a.kind == "riposte" for a in actions):
            f = features(duel, state)
            mine = state.decider() == "Rolf" and not f["acted this turn"] and f["contest"] == 1
            if mine and f["margin"] in (2, 5, 15, 30):
                asked[f["margin"]] = state
        elif actions:
            frontier += [s for s, _ in duel.kernel(state, actions[0]).items()]
    game = Game(duel)
    best = Solution(game, ["Rolf"], kinds=["riposte"])
    chosen = {}
    for margin, state in asked.items():
        sid = game.intern(state)
        best.evaluate(sid)
        chosen[margin] = game.actions(sid)[best.choice[sid]].kind
    assert chosen == {2: "hold", 5: "hold", 15: "riposte", 30: "riposte"}


def _decision(i: int, margin: int, contest: int, acted: bool, choice: str) -> Decision:
    facts = {"margin": margin, "contest": contest, "acted this turn": acted, "round": 1 + i % 2}
    return Decision(i, "Rolf", frozenset({"riposte", "hold"}), facts, choice, choice, 0.01, 0.1)


def test_features_that_settle_the_choice_are_found_and_runs_merged() -> None:
    # hold only from a narrow margin (up to 8) in the first contest before his own action: no
    # feature settles it alone, the three together do; the round never matters
    found = [
        _decision(i, m, c, acted, "hold" if (m <= 8 and c == 1 and not acted) else "riposte")
        for i, (m, c, acted) in enumerate(
            (m, c, acted) for m in range(1, 21) for c in (1, 2) for acted in (False, True)
        )
    ]
    (table,) = tables(found)
    assert table.features == ["acted this turn", "contest", "margin"]
    rows = [([show(v) for v in r.values], r.choice, r.states) for r in table.rows]
    assert rows == [
        (["no", "1", "1 to 8"], "hold", 8),
        (["no", "1", "9 to 20"], "riposte", 12),
        (["no", "2", "1 to 20"], "riposte", 20),
        (["yes", "1", "1 to 20"], "riposte", 20),
        (["yes", "2", "1 to 20"], "riposte", 20),
    ]
    for d in found:
        assert table.row_for(d.features).choice == d.choice  # type: ignore[union-attr]


# ------------------------------------------------------------------------- the optimal policy
def test_optimal_policy_plays_fights_and_simulations(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    # Ann never hits: optimal, she dodges every turn (see the tie above); the chain over the
    # optimal policy gives the solution's own chances
    path = toy_scenario(max_rounds=2, ann_skill=7, red="optimal")
    played = fight(engine(path), seed=1)
    assert all(s.action == "dodge" for s in played.steps if s.actor == "Ann")
    tally, _ = solve_exact(engine(path))
    assert tally.wins == {"blue": Fraction(5, 9)}
    sim = simulate(engine(path), 400, 3)
    assert sim.tally.total == 400


def test_optimal_policy_is_solved_once_per_scenario(toy_scenario, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    path = toy_scenario(max_rounds=2, red="optimal")
    solved: list[int] = []
    inner = Solution.solve

    def counted(self):  # type: ignore[no-untyped-def]
        solved.append(1)
        return inner(self)

    monkeypatch.setattr(Solution, "solve", counted)
    monkeypatch.setattr(optimal_mod, "_SOLVED", type(optimal_mod._SOLVED)())
    for seed in range(3):
        fight(engine(path), seed=seed)  # a new engine each time, the same scenario
    assert len(solved) == 1


def test_optimal_policy_is_refused_in_one_line_for_a_fight_too_big(  # type: ignore[no-untyped-def]
    toy_scenario, monkeypatch
) -> None:
    from firefight.analysis import solve as solve_mod

    monkeypatch.setattr(solve_mod, "MAX_STATES", 5)
    path = toy_scenario(max_rounds=5, ann_hp=3, red="optimal")
    code, out, err = cli("fight", path, "--seed", "1")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "error: the fight reaches more than 5 states with every decision open: too many to "
        "solve (tip: make the fight smaller (--max-rounds, or --set a smaller fight))"
    ]


# ---------------------------------------------------------------------------- the command
def test_solve_command_text_and_json(toy_scenario, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = toy_scenario(max_rounds=1, red="random", bob_skill=7)
    code, out, _ = cli("solve", path)
    assert code == 0
    assert "left on the table" in out and "+33.33 points" in out
    assert "Ann: attack, defend or wait" in out
    code, out, _ = cli("solve", path, "--json", "--side", "red")
    data = json.loads(out)
    assert data["sides"]["red"]["left_on_table"] == pytest.approx(1 / 3)
    assert "left_on_table" not in data["sides"]["blue"]
    (part,) = data["solutions"]
    assert part["deciding_best"] == ["red"]
    (decision,) = part["policy"]
    assert decision["best"] == "attack:Bob"
    assert decision["win_by_action"]["attack:Bob"] == pytest.approx(0.5)
    png = tmp_path / "solve.png"
    code, out, _ = cli("solve", path, "--plot", png)
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--against", "everyone"], "--against 'everyone' is not one of: policies, optimal"),
        (["--side", "green"], "--side 'green' is not a side (tip: sides: red, blue)"),
        (["--max-states", "0"], "--max-states 0 is below 1 (tip: give 1 or more)"),
        (["--plot", "x.svg"], "--plot x.svg: plots are written as PNG"),
        (
            ["--decide", "riposte"],
            "--decide riposte: no decision of this fight offers it (tip: kinds of action "
            "offered: attack, defend, wait)",
        ),
    ],
)
def test_solve_refusals_are_one_line(toy_scenario, args, message) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("solve", toy_scenario(max_rounds=1), *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_solve_refuses_a_fight_too_big(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("solve", toy_scenario(max_rounds=9, ann_hp=4), "--max-states", "30")
    assert code == 2
    assert "more than 30 states with every decision open" in err


def test_unknown_mixture_is_refused(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    from firefight.encounter.policies import POLICIES, STOCHASTIC

    POLICIES["dice"] = POLICIES["random"]
    STOCHASTIC.add("dice")
    try:
        with pytest.raises(InputError, match="chooses at random without a known mixture"):
            solve_scenario(engine(toy_scenario(max_rounds=1, blue="dice")), side="red")
    finally:
        POLICIES.pop("dice")
        STOCHASTIC.discard("dice")


@pytest.mark.parametrize("module", ["firefight.web.tracker", "firefight.cli.encounter_commands"])
def test_where_fights_are_played_the_optimal_policy_is_known(module: str) -> None:
    # a fresh process: the encounter layer alone does not know it (it never imports analysis);
    # the tracker and the commands that play fights register it by importing analysis
    code = (
        "from firefight.encounter.policies import POLICIES\n"
        "before = 'optimal' in POLICIES\n"
        f"import {module}\n"
        "print(before, 'optimal' in POLICIES)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.split() == ["False", "True"]
