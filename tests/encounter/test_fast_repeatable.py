"""The fast path gives the same report for the same seed however its chunks are shared out.

A chunk's draws must not depend on what its process met before: which kernels earlier chunks
built, or which ids its states were given. Otherwise ``--workers 2`` (whose chunks go to
whichever process is free) and a machine with another number of cores would answer the same
seed differently.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import firefight.analysis.fast as fast
from firefight.analysis.fast import KernelSampler, chunk_rng, run_chunk, simulate_fast
from firefight.analysis.report import report_json
from firefight.encounter import Engine, read_scenario

DUEL = Path(__file__).resolve().parents[2] / "examples" / "warfare2d20" / "encounters" / "duel.toml"


def _report(tally: Any) -> dict[str, Any]:
    return report_json(tally, scenario="s", n=None, seed=None, exact=False)


def _chunk_alone_and_after_others(path: Path, **kw: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    alone = run_chunk(KernelSampler(Engine(read_scenario(path, **kw))), 4_000, chunk_rng(7, 3))
    busy = KernelSampler(Engine(read_scenario(path, **kw)))
    for k in range(2):  # other chunks first: kernels built, states and keys given ids
        run_chunk(busy, 4_000, chunk_rng(11, k))
    after = run_chunk(busy, 4_000, chunk_rng(7, 3))
    return _report(alone), _report(after)


def test_a_chunk_ignores_what_its_process_ran_before() -> None:
    alone, after = _chunk_alone_and_after_others(DUEL)
    assert alone == after


def test_a_mixture_chunk_ignores_what_its_process_ran_before(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    # a random policy: lanes of one state are split by the generator, group by group
    alone, after = _chunk_alone_and_after_others(toy_scenario(ann_hp=4, bob_hp=4, red="random"))
    assert alone == after


def test_same_seed_same_report_on_one_or_two_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast, "CHUNK", 3_000)  # 4 chunks, shared out by the pool
    one = simulate_fast(Engine(read_scenario(DUEL)), 12_000, 5, workers=1)
    two = simulate_fast(Engine(read_scenario(DUEL)), 12_000, 5, workers=2)
    assert not one[1] and not two[1]
    assert _report(one[0]) == _report(two[0])
    other = simulate_fast(Engine(read_scenario(DUEL)), 12_000, 6, workers=1)
    assert _report(other[0]) != _report(one[0])
