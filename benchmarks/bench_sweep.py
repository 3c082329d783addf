"""Sweeps on Dask: a CPU-bound 16-cell sweep on two local workers against one, and Dask's
overhead on a one-cell sweep (a scheduler already running, and a new LocalCluster). Goals: two
workers at least 1.7x one; the overhead under 1 s.

Writes its section of docs/performance.md (``--no-write`` only prints). Timings depend on the
machine's load: run it on a quiet machine with at least two cores.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import dask
import numpy as np

from firefight.analysis.sweep import SweepPlan, plan_sweep, run_sweep

sys.path.insert(0, str(Path(__file__).parent))
from perfdoc import write_table

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
SECTION = "## Sweeps on Dask"
#: CPU-bound: graydawn's knife duel steps most fights plainly (about 1 ms a fight).
KNIFE = EX / "graydawn" / "encounters" / "knife_duel_exact.toml"
GRID = ["combatants.Smuggler.skills.melee=2..5", "combatants.Enforcer.skills.melee=2..5"]


def timed(plan: SweepPlan, **kw: object) -> float:
    t = time.perf_counter()
    result = run_sweep(plan, **kw)  # type: ignore[arg-type]
    took = time.perf_counter() - t
    assert not result.failed and not result.interrupted, result.failed
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("-n", type=int, default=1500, help="fights per cell of the 16-cell sweep")
    parser.add_argument("--runs", type=int, default=3, help="repetitions of the one-cell sweep")
    args = parser.parse_args()
    rows: list[tuple[str, str, str, str]] = []

    def row(what: str, goal: str, measured: str, command: str) -> None:
        rows.append((what, goal, measured, command))
        print(f"{what}: {measured} (goal {goal})", flush=True)

    rel = KNIFE.relative_to(ROOT)
    vary = " ".join(f"--vary {v}" for v in GRID)
    plan = plan_sweep(KNIFE, GRID, n=args.n, seed=1, exact=False)
    one = timed(plan, workers=1)
    two = timed(plan, workers=2)
    row(
        f"16-cell CPU-bound sweep (graydawn knife duel, {args.n:,} fights a cell): 2 local "
        "workers vs 1, cluster start included",
        ">= 1.7x",
        f"{two:.1f} s vs {one:.1f} s: {one / two:.2f}x",
        f"firefight sweep {rel} {vary} -n {args.n} --workers 2",
    )

    small = EX / "warfare2d20" / "encounters" / "small_duel.toml"
    single = plan_sweep(small, ["max_rounds=20"], n=2000, seed=1, exact=False)
    here = statistics.median(timed(single, cluster=False) for _ in range(args.runs))
    local = statistics.median(timed(single, workers=1) for _ in range(args.runs))
    row(
        "one-cell sweep (warfare2d20 small duel, 2,000 fights) on a new 1-worker LocalCluster "
        "(start included), minus the same cell in this process (the command runs a one-cell "
        "local sweep in this process for that reason)",
        "< 1 s",
        f"{local - here:.2f} s ({local:.2f} s vs {here:.2f} s)",
        "run_sweep(plan_sweep(small_duel, ['max_rounds=20'], ...), workers=1)",
    )
    from dask.distributed import LocalCluster

    with LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=50,
    ) as cluster:
        address = cluster.scheduler_address
        timed(single, scheduler=address)  # the worker imports firefight once
        running = statistics.median(timed(single, scheduler=address) for _ in range(args.runs))
    row(
        "the same one-cell sweep on a scheduler already running (connect, submit, gather), "
        "minus this process",
        "< 1 s",
        f"{running - here:.2f} s ({running:.2f} s vs {here:.2f} s)",
        "firefight sweep ... --scheduler tcp://127.0.0.1:8786",
    )

    if not args.no_write:
        write_table(
            SECTION, "bench_sweep.py", f"numpy {np.__version__} / dask {dask.__version__}", rows
        )


if __name__ == "__main__":
    main()
