"""Encounters and fight analysis: seeded fights, undo, whole-process `encounter act`, the fast
path against the reference loop, exact chains, a million duels.

Each row checks its goal (the table's "goal" column): one seeded warfare2d20 duel <= 5 ms; undo
on a 200-step record <= 50 ms; `encounter act` as a whole process <= 2.5x ``import numpy``; the
fast path >= 100x the reference loop on a warfare2d20 and a dragonwarriors2 duel (>= 20x on a
graydawn fire team); ``--exact`` on a dragonwarriors2 duel < 1 s and a warfare2d20 duel < 2 s;
a million warfare2d20 duels < 10 s. Rows marked "report" have no goal.

Writes its section of docs/performance.md (``--no-write`` only prints; ``--only fast exact``
runs just those rows and never writes; ``--cpu`` times the in-process rows in CPU time, for a
loaded machine). Timings depend on the machine's load: run it on a quiet machine; ratios
measured in one run are steadier than times.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from firefight.analysis.exact import solve_exact
from firefight.analysis.fast import simulate_fast
from firefight.analysis.reference import simulate_reference
from firefight.dice import SeededDice
from firefight.encounter import Encounter, Engine, fight, load_record, read_scenario, save_record
from firefight.encounter.fight import play, policy_rng

sys.path.insert(0, str(Path(__file__).parent))
from perfdoc import ENV, process_ms, write_table

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
SECTION = "## Encounters and fight analysis"
#: Groups of rows ``--only`` can pick.
ROWS = ("fight", "records", "fast", "fast-graydawn", "exact", "million")
Row = Callable[[str, str, str, str], None]
Clock = Callable[[], float]


def median_ms(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


CLI = [sys.executable, "-m", "firefight.cli.app"]


def act_rows(runs: int) -> list[tuple[str, str, str, str]]:
    """One step on a saved warfare2d20 duel as a whole process (`encounter act` with the first
    legal action, and `encounter auto --steps 1`), CPU times beside `python -c 'import numpy'`."""
    duel = EX / "warfare2d20" / "encounters" / "duel.toml"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        start, file = Path(tmp) / "start.json", Path(tmp) / "act.json"
        cmd = [*CLI, "encounter", "start", str(duel), "--save", str(start), "--seed", "1"]
        subprocess.run(cmd, check=True, capture_output=True, env=ENV)
        listed = subprocess.run(
            [*CLI, "encounter", "actions", str(start), "--json"],
            check=True,
            capture_output=True,
            env=ENV,
        )
        action = json.loads(listed.stdout)[0]["id"]

        def restore() -> None:
            file.write_bytes(start.read_bytes())

        numpy_ms = process_ms([sys.executable, "-c", "import numpy"], runs)[0]
        for what, args in (
            ("act", ["act", str(file), action, "--seed", "2"]),
            ("auto", ["auto", str(file), "--steps", "1", "--seed", "2"]),
        ):
            ms = process_ms([*CLI, "encounter", *args], runs, restore)[0]
            shown = " ".join(["encounter", *args]).replace(str(file), "FILE")
            rows.append(
                (
                    f"`{shown}` on a started warfare2d20 duel as a whole process, CPU time "
                    "(user + sys) vs `python -c 'import numpy'`",
                    "<= 2.5x" if what == "act" else "report",
                    f"{ms:.0f} ms vs {numpy_ms:.0f} ms: {ms / numpy_ms:.2f}x",
                    f"firefight {shown}",
                )
            )
            print(f"{shown}: {rows[-1][2]}", flush=True)
    return rows


def engine(path: Path, **kw: object) -> Engine:
    return Engine(read_scenario(path, **kw))  # type: ignore[arg-type]


def long_record(path: Path, steps: int) -> Encounter:
    """A record of at least ``steps`` steps: random play on a big scenario, seeds tried in turn."""
    sides = {s.name: "random" for s in read_scenario(path).spec.sides}
    e = engine(path, policies=sides, max_rounds=400)
    for seed in range(200):
        dice = SeededDice(seed)
        enc = Encounter.begin(e, dice)
        play(enc, dice, policy_rng(seed))
        if len(enc.steps) >= steps:
            while len(enc.steps) > steps:
                enc.undo()
            enc.redo_stack.clear()
            return enc
    raise SystemExit(f"no seed gave {steps} steps on {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--quick", action="store_true", help="fewer runs (a smoke test)")
    parser.add_argument(
        "--only",
        nargs="+",
        choices=(*ROWS, "startup"),
        help="just these rows (never writes the doc); startup = the whole-process act rows",
    )
    parser.add_argument(
        "--cpu", action="store_true", help="CPU time for the in-process rows (a loaded machine)"
    )
    args = parser.parse_args()
    if args.only and "startup" in args.only:
        act_rows(3 if args.quick else 10)
        if args.only == ["startup"]:
            return
    q = args.quick
    clock = time.process_time if args.cpu else time.perf_counter

    def want(name: str) -> bool:
        return not args.only or name in args.only

    rows: list[tuple[str, str, str, str]] = []

    def row(what: str, goal: str, measured: str, command: str) -> None:
        rows.append((what, goal, measured, command))
        print(f"{what}: {measured} (goal {goal})", flush=True)

    duel = EX / "warfare2d20" / "encounters" / "duel.toml"
    if want("fight"):
        e = engine(duel)
        seeds = iter(range(10**6))
        fight_ms = median_ms(lambda: fight(e, next(seeds)), 20 if q else 200)
        row(
            "warfare2d20 duel, one seeded fight to the end (in-process)",
            "<= 5 ms",
            f"{fight_ms:.2f} ms median",
            "fight(Engine(read_scenario(duel)), seed)",
        )
    if want("records"):
        records(row, q)
    fast_rows(row, q, clock, want)
    if want("exact"):
        exact_rows(row, clock)
    if want("million"):
        n = 100_000 if q else 1_000_000
        t = time.perf_counter()
        simulate_fast(engine(duel), n, 1, workers=os.cpu_count() or 1)
        row(
            f"{n:,} warfare2d20 duels (`duel.toml`), fast path on {os.cpu_count()} processes",
            "< 10 s",
            f"{time.perf_counter() - t:.1f} s",
            f"firefight simulate examples/warfare2d20/encounters/duel.toml -n {n}",
        )

    if not args.no_write and not args.only:
        write_table(SECTION, "bench_encounter.py", f"numpy {np.__version__}", rows)


def records(row: Row, q: bool) -> None:
    """Undo, reopening a record, and the whole-process `encounter act` / `auto` rows."""
    big = EX / "quality_d100" / "encounters" / "caravan.toml"  # random play: 200+ steps
    enc = long_record(big, 200)
    undo_ms = median_ms(lambda: (enc.undo(), enc.redo()), 50)
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "rec.json"
        save_record(enc, file)

        def cli_undo() -> None:
            again = load_record(file)
            again.undo()
            save_record(again, file)
            again.redo()
            save_record(again, file)

        load_ms = median_ms(lambda: load_record(file), 3 if q else 10)
        row(
            "undo on a 200-step record, in memory (snapshots)",
            "<= 50 ms",
            f"{undo_ms:.3f} ms (undo + redo)",
            "Encounter.undo()",
        )
        row(
            "open a 200-step record from its file (replays every step)",
            "report",
            f"{load_ms:.0f} ms",
            "load_record(FILE)",
        )
    for act_row in act_rows(3 if q else 10):
        row(*act_row)


#: The fast path's rows: group for ``--only``, ruleset, scenario, reference and fast-path fights,
#: goal (times faster). The reference runs about a second (300 fights took 0.1 s, and their
#: rate swung 2,000-4,000 fights/s between runs of the same tree).
FAST = (
    ("fast", "warfare2d20", "duel.toml", 2_000, 200_000, 100),
    ("fast", "dragonwarriors2", "goblin_duel.toml", 3_000, 200_000, 100),
    ("fast-graydawn", "graydawn", "fire_team.toml", 30, 3_000, 20),
)


def fast_rows(row: Row, q: bool, clock: Clock, want: Callable[[str], bool]) -> None:
    """The fast path against the reference loop, one process, cold caches."""
    for group, rid, name, n_ref, n_fast, goal in FAST:
        if not want(group):
            continue
        path = EX / rid / "encounters" / name
        if not path.exists():
            row(f"{rid} {name}: fast path vs reference", f">= {goal}x", "scenario missing", "")
            continue
        if q:
            n_ref, n_fast = max(10, n_ref // 10), max(100, n_fast // 20)
        e = engine(path)
        t = clock()
        simulate_reference(e, n_ref, 1)
        ref_rate = n_ref / (clock() - t)
        e = engine(path)
        t = clock()
        simulate_fast(e, n_fast, 1, workers=1)
        fast_rate = n_fast / (clock() - t)
        row(
            f"{rid} `{name}`: fast path vs reference loop (fights/s, one process, cold caches)",
            f">= {goal}x",
            f"{fast_rate:,.0f} vs {ref_rate:,.0f}: {_ratio(fast_rate / ref_rate)}x",
            f"firefight simulate examples/{rid}/encounters/{name} -n {n_fast} --workers 1",
        )


def _ratio(x: float) -> str:
    """Whole numbers from 10 up; one decimal below (a fast path slower than the loop is 0.5x)."""
    return f"{x:.0f}" if x >= 10 else f"{x:.1f}"


def _exact_in_child(path: str, cpu: bool) -> tuple[float, str, float]:
    """Seconds to build the engine and solve the chain, in this (fresh) process."""
    clock = time.process_time if cpu else time.perf_counter
    t = clock()
    tally, arithmetic = solve_exact(engine(Path(path)))
    return clock() - t, arithmetic, float(tally.mass_left)


def exact_rows(row: Row, clock: Clock) -> None:
    """``--exact`` on the two duels with a time goal (engine built and chain solved), each in a
    fresh process as the command runs: in this one, what earlier rows left in memory (a graydawn
    fire team's states) would make the collector's passes part of the figure (0.4 s or 1.2 s)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    for rid, name, goal in (
        ("dragonwarriors2", "goblin_duel.toml", "< 1 s"),
        ("warfare2d20", "small_duel.toml", "< 2 s"),
    ):
        path = EX / rid / "encounters" / name
        if not path.exists():
            continue
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(1, mp_context=spawn) as pool:
            took, arithmetic, left = pool.submit(
                _exact_in_child, str(path), clock is time.process_time
            ).result()
        row(
            f"{rid} `{name}` --exact ({arithmetic}, mass left {left:.1g}; a fresh process)",
            goal,
            f"{took:.2f} s",
            f"firefight simulate examples/{rid}/encounters/{name} --exact",
        )


if __name__ == "__main__":
    main()
