"""simulate: exact answers worked out by hand, the fast path against the reference, seeds."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from firefight.analysis.exact import MAX_STATES, solve_exact
from firefight.analysis.fast import simulate_fast
from firefight.analysis.reference import simulate_reference
from firefight.analysis.report import report_json
from firefight.analysis.simulate import simulate
from firefight.cli.app import app
from firefight.core.stats import wilson
from firefight.encounter import Engine, read_scenario
from firefight.errors import InputError


def engine(path, **kw) -> Engine:  # type: ignore[no-untyped-def]
    return Engine(read_scenario(path, **kw))


def test_exact_one_hit_duel_by_hand(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    # Ann acts first each round and hits on 4+ (1/2); so does Bob. Ann wins in round r with
    # (1/4)^(r-1) * 1/2; over 5 rounds: 1/2 * (1 - (1/4)^5) / (3/4) = 341/512. Bob: half that.
    # Nobody has hit after 5 rounds: (1/4)^5 = 1/1024, the truncated mass.
    tally, arithmetic = solve_exact(engine(toy_scenario(max_rounds=5)))
    assert arithmetic == "fraction"
    assert tally.wins == {"red": Fraction(341, 512), "blue": Fraction(341, 1024)}
    assert tally.truncated == Fraction(1, 1024) and tally.draws == 0
    assert tally.ended_at[("red", 2)] == Fraction(1, 8)  # miss, miss, hit
    assert tally.fell_at[("Bob", 1)] == Fraction(1, 2)
    out = report_json(tally, scenario="toy", n=None, seed=None, exact=True)
    assert out["sides"]["red"]["win"]["fraction"] == "341/512"
    assert out["sides"]["red"]["win"]["ci95"] == [out["sides"]["red"]["win"]["p"]] * 2
    assert out["rounds"]["dist"][0] == {"rounds": 1, "p": 0.75}


def test_exact_two_hits_and_dodging_by_hand(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    # Ann (2 hp, skill 4) against Bob (1 hp, skill 2: hits on 2+, 5/6), one round:
    # Ann hits (1/2) and wins; else Bob hits (5/6): Ann at 1 hp; round over (max_rounds 1).
    tally, _ = solve_exact(engine(toy_scenario(max_rounds=1, ann_hp=2, bob_skill=2)))
    assert tally.wins == {"red": Fraction(1, 2)}
    assert tally.truncated == Fraction(1, 2)
    assert tally.taken["Ann"] == Fraction(1, 2) * Fraction(5, 6)
    assert tally.dealt["Bob"] == Fraction(5, 12)


def test_random_policy_is_a_uniform_mixture(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    # Ann random over (attack, dodge, wait): hits with 1/3 * 1/2 = 1/6 per turn; Bob never acts
    # usefully (policy first = attack, but skill 7 never hits).
    path = toy_scenario(max_rounds=1, red="random", bob_skill=7)
    tally, _ = solve_exact(engine(path))
    assert tally.wins == {"red": Fraction(1, 6)}


def test_too_many_states_is_refused(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match="more than 3 states"):
        solve_exact(engine(toy_scenario(ann_hp=9, bob_hp=9)), max_states=3)


def test_too_many_states_is_refused_before_they_are_expanded(  # type: ignore[no-untyped-def]
    toy_scenario, monkeypatch
) -> None:
    # the states met and still in play all get their kernels enumerated before the chain ends,
    # so the fight is refused once they pass the limit, not after enumerating that many
    from firefight.analysis import exact as exact_mod

    expanded: list[int] = []
    inner = exact_mod._Chain._choose

    def counted(self, state):  # type: ignore[no-untyped-def]
        expanded.append(1)
        return inner(self, state)

    monkeypatch.setattr(exact_mod._Chain, "_choose", counted)
    with pytest.raises(InputError, match="more than 20 states"):
        solve_exact(engine(toy_scenario(ann_hp=9, bob_hp=9)), max_states=20)
    assert 0 < len(expanded) < 20


def test_exact_progress_counts_states_toward_the_limit(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    # the bar of `simulate --exact` fills toward MAX_STATES: it is fed the states met, pass by
    # pass, and they end where solve_exact's own count (seen by on_pass) ends
    seen: list[tuple[int, int]] = []
    solve_exact(engine(toy_scenario(ann_hp=3, bob_hp=3)), on_pass=lambda p, s: seen.append((p, s)))
    fed: list[int] = []
    simulate(engine(toy_scenario(ann_hp=3, bob_hp=3)), None, None, exact=True, progress=fed.append)
    assert fed == [s for _, s in seen] and len(fed) > 2
    assert fed == sorted(fed) and fed[-1] > fed[0] and fed[-1] <= MAX_STATES


def test_fast_path_matches_exact_and_reference(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    path = toy_scenario(ann_hp=3, bob_hp=2, bob_skill=3, extra="initiative = true")
    exact_tally, _ = solve_exact(engine(path))
    p = float(exact_tally.wins["red"])
    fast, interrupted = simulate_fast(engine(path), 40_000, 9)
    assert not interrupted and fast.total == 40_000
    # tolerance: a Wilson interval at z = 4 (a false alarm about once in 15,000 seeds)
    lo, hi = wilson(int(fast.wins["red"]), 40_000, z=4)
    assert lo <= p <= hi
    ref = simulate_reference(engine(path), 3_000, 9)
    lo, hi = wilson(int(ref.wins["red"]), 3_000, z=4)
    assert lo <= p <= hi
    # the two simulations agree with each other too (difference within 4 standard errors)
    pf, pr = fast.wins["red"] / 40_000, ref.wins["red"] / 3_000
    se = (p * (1 - p) * (1 / 40_000 + 1 / 3_000)) ** 0.5
    assert abs(pf - pr) < 4 * se


def test_same_seed_same_report_any_chunking(toy_scenario, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import firefight.analysis.fast as fast

    path = toy_scenario(ann_hp=3, bob_hp=3, red="random")
    one = report_json(
        simulate_fast(engine(path), 5_000, 3)[0], scenario="s", n=1, seed=3, exact=False
    )
    again = report_json(
        simulate_fast(engine(path), 5_000, 3)[0], scenario="s", n=1, seed=3, exact=False
    )
    assert one == again
    other = report_json(
        simulate_fast(engine(path), 5_000, 4)[0], scenario="s", n=1, seed=4, exact=False
    )
    assert other["sides"] != one["sides"]
    monkeypatch.setattr(fast, "CHUNK", 1_000)
    chunked = simulate_fast(engine(path), 5_000, 3)[0]
    assert chunked.total == 5_000


def test_simulate_cli_json_shape(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    path = toy_scenario(ann_hp=2, bob_hp=2)
    res = CliRunner().invoke(app, ["simulate", str(path), "-n", "2000", "--seed", "5", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert list(out)[:9] == [
        "scenario",
        "n",
        "seed",
        "exact",
        "sides",
        "truncated",
        "draw",
        "rounds",
        "combatants",
    ]
    assert out["n"] == 2000 and out["seed"] == 5 and out["exact"] is False
    assert set(out["sides"]) == {"red", "blue"}
    lo, hi = out["sides"]["red"]["win"]["ci95"]
    assert lo <= out["sides"]["red"]["win"]["p"] <= hi
    assert {"p_out", "p_dead"} <= set(out["combatants"]["Ann"])
    total = sum(s["win"]["p"] for s in out["sides"].values())
    assert total + out["truncated"]["p"] + out["draw"]["p"] == pytest.approx(1)
    res = CliRunner().invoke(app, ["simulate", str(path), "--exact", "--json"])
    out = json.loads(res.stdout)
    assert out["exact"] is True and out["n"] is None
    assert out["sides"]["red"]["win"]["ci95"][0] == out["sides"]["red"]["win"]["p"]


def test_a_run_without_a_seed_names_the_seed_it_drew(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    """A run given no seed reports the one it drew (it said null: a report no one could make
    again), and that seed given back makes the same report."""
    path = toy_scenario(ann_hp=3, bob_hp=3)
    runs = [CliRunner().invoke(app, ["simulate", str(path), "-n", "500", "--json"]) for _ in "ab"]
    drawn = [json.loads(r.stdout) for r in runs]
    seeds = [out["seed"] for out in drawn]
    assert all(isinstance(s, int) and 0 <= s < 10**9 for s in seeds) and seeds[0] != seeds[1]
    again = CliRunner().invoke(app, ["simulate", str(path), "-n", "500", "--seed", str(seeds[0])])
    assert f"seed {seeds[0]}" in again.stdout
    replay = CliRunner().invoke(
        app, ["simulate", str(path), "-n", "500", "--seed", str(seeds[0]), "--json"]
    )
    assert json.loads(replay.stdout) == drawn[0]


def test_the_text_report_tells_who_has_won_by_each_round(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    """The text report shows P(side has won by the end of round r), the JSON's ``by_round``
    (issue 15), the first rounds and the last."""
    path = toy_scenario(ann_hp=2, bob_hp=2, max_rounds=12)
    args = ["simulate", str(path), "--exact"]
    by_round = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)["by_round"]
    text = CliRunner().invoke(app, args).stdout
    assert "won by the end of round" in text and "... 12" in text
    table = text.split("won by the end of round")[1].splitlines()
    for side, shares in by_round.items():
        row = next(line for line in table if line.startswith(f"│ {side} "))
        cells = [c.strip() for c in row.strip("│").split("│")[1:]]
        picked = [*shares[:7], shares[11]]
        assert cells == [f"{100 * p:.1f}%" for p in picked]


def test_simulate_cli_refusals_and_plot(toy_scenario, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = toy_scenario()
    for args, message in [
        (["-n", "0"], "-n 0 is out of range"),
        (["--exact", "-n", "5"], "--exact takes no -n"),
        (["--plot", str(tmp_path / "x.jpg")], "PNG"),
        (["--workers", "0"], "--workers 0"),
    ]:
        res = CliRunner().invoke(app, ["simulate", str(path), *args])
        assert res.exit_code == 2 and message in res.output, res.output
    plot = tmp_path / "fight.png"
    res = CliRunner().invoke(app, ["simulate", str(path), "-n", "500", "--plot", str(plot)])
    assert res.exit_code == 0, res.output
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_fight_estimated_too_big_is_refused_early_with_the_estimate(  # type: ignore[no-untyped-def]
    toy_scenario, monkeypatch
) -> None:
    # estimating at once (no CPU time to wait for), a fight whose estimate passes the limit is
    # refused with the estimate in the line and the tip to simulate, before it meets the limit
    from firefight.analysis import exact as exact_mod

    monkeypatch.setattr(exact_mod, "ESTIMATE_AT", (0.0,))
    met: list[int] = []
    inner = exact_mod._Chain.estimate

    def estimate(self):  # type: ignore[no-untyped-def]
        met.append(self.live)
        return inner(self)

    monkeypatch.setattr(exact_mod._Chain, "estimate", estimate)
    with pytest.raises(InputError, match=r"about [\d,]+ states \(an estimate") as refused:
        solve_exact(engine(toy_scenario(ann_hp=9, bob_hp=9)), max_states=20)
    assert "-n" in (refused.value.tip or "")
    assert met and met[-1] <= 20  # refused by the estimate, not by the count


def test_the_estimate_of_a_finished_chain_is_its_count(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    from firefight.analysis import exact as exact_mod

    chain = exact_mod._Chain(engine(toy_scenario(ann_hp=3, bob_hp=3)))
    exact_mod._solve(chain, exact_mod.MAX_STATES, True, None)
    estimate, finished = chain.estimate()
    assert estimate == chain.live and finished == max(chain.by_round)
