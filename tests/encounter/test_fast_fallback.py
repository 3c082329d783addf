"""The fast path's fallback: a chunk whose lanes nearly all step plainly (no kernel pays for
them: a big fight, every state new) plays its remaining lanes to their ends as the reference
loop does. Those fights must follow the same law, and the same seed must give the same report.

Tolerance of the statistical tests: a Wilson interval at z = 4 (a false alarm about once in
15,000 seeds); the seeds are fixed, so the tests are repeatable.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

import firefight.analysis.fast as fast
from firefight.analysis.exact import solve_exact
from firefight.analysis.fast import KernelSampler, chunk_rng, run_chunk, simulate_fast
from firefight.analysis.report import report_json
from firefight.core.stats import wilson
from firefight.encounter import Engine, read_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _engine(path: Path) -> Engine:
    return Engine(read_scenario(path))


def test_played_out_lanes_follow_the_exact_law(toy_scenario, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # every chunk plays its lanes out plainly after its first pass
    monkeypatch.setattr(fast, "SOLO_FROM", 0.0)
    path = toy_scenario(ann_hp=3, bob_hp=2, bob_skill=3, red="random", extra="initiative = true")
    exact, _ = solve_exact(_engine(path))
    n = 5_000
    tally, _ = simulate_fast(_engine(path), n, 4)
    assert tally.total == n
    for side in ("red", "blue"):
        lo, hi = wilson(int(tally.wins.get(side, 0)), n, z=4)
        assert lo <= float(exact.wins[side]) <= hi, side
    for name in ("Ann", "Bob"):  # harm dealt: a mean within 4 standard errors (harm <= 3)
        assert abs(tally.dealt[name] / n - float(exact.dealt[name])) < 4 * 3 / n**0.5, name
    for (name, r), p in exact.fell_at.items():
        if r <= 2:
            lo, hi = wilson(int(tally.fell_at.get((name, r), 0)), n, z=4)
            assert lo <= float(p) <= hi, (name, r)


def test_played_out_chunks_ignore_what_their_process_ran_before(toy_scenario, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(fast, "SOLO_FROM", 0.0)
    path = toy_scenario(ann_hp=4, bob_hp=4, red="random")

    def report(tally: Any) -> dict[str, Any]:
        return report_json(tally, scenario="s", n=None, seed=None, exact=False)

    alone = run_chunk(KernelSampler(_engine(path)), 1_000, chunk_rng(7, 3))
    busy = KernelSampler(_engine(path))
    for k in range(2):
        run_chunk(busy, 1_000, chunk_rng(11, k))
    assert report(run_chunk(busy, 1_000, chunk_rng(7, 3))) == report(alone)


def test_a_fight_whose_every_state_is_new_is_played_out() -> None:
    """graydawn's fire team: every lane's start is its own, no kernel is built, and after the
    first pass the lanes are played to their ends without interning their states."""
    engine = _engine(EXAMPLES / "graydawn" / "encounters" / "fire_team.toml")
    sampler = KernelSampler(engine)
    lanes = 6
    tally = run_chunk(sampler, lanes, np.random.default_rng(3))
    assert tally.total == lanes
    assert not any(k.offset >= 0 for k in sampler.keys) and not sampler.transitions
    # starts, their first steps and the ends: nothing of the fights' middles
    assert len(sampler.states) <= 3 * lanes
    assert sampler.played_out == lanes


def test_duel_with_kernels_is_not_played_out() -> None:
    """The warfare2d20 duel's lanes share kernels: the fallback takes over at most the few long
    fights of a chunk's tail."""
    path = EXAMPLES / "warfare2d20" / "encounters" / "duel.toml"
    sampler = KernelSampler(_engine(path))
    tally = run_chunk(sampler, 4_000, chunk_rng(5, 0))
    assert tally.total == 4_000
    assert sampler.played_out <= 40


def test_a_start_is_listed_only_where_it_pays() -> None:
    """A run of 100 fights lists the warfare2d20 duel's start (380 paths) but rolls each lane's
    start of the fire team (over 20,000 paths: listing them took 1.5 s, five times the run)."""
    budget = fast.start_budget(100)
    assert budget == fast.START_FLOOR and fast.start_budget(10**6) == fast.START_PATHS
    duel = KernelSampler(_engine(EXAMPLES / "warfare2d20" / "encounters" / "duel.toml"), budget)
    assert duel.start is not None
    team = _engine(EXAMPLES / "warfare2d20" / "encounters" / "fire_team.toml")
    assert KernelSampler(team, budget).start is None
    tally, _ = simulate_fast(team, 20, 3)
    assert tally.total == 20
