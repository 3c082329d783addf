"""Encounters and fight analysis (issues 11 and 15): seeded fights, undo, whole-process `encounter
act`, the fast path against the reference loop, exact chains, a million duels.

Writes its section of docs/performance.md (``--no-write`` only prints). Timings depend on the
machine's load: run it on a quiet machine; ratios measured in one run are steadier than times.
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
SECTION = "## Encounters and fight analysis (issues 11, 15)"


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
        choices=["startup"],
        help="run one part and print it (never writes): startup = the whole-process act rows",
    )
    args = parser.parse_args()
    if args.only == "startup":
        act_rows(3 if args.quick else 10)
        return
    q = args.quick
    rows: list[tuple[str, str, str, str]] = []

    def row(what: str, goal: str, measured: str, command: str) -> None:
        rows.append((what, goal, measured, command))
        print(f"{what}: {measured} (goal {goal})", flush=True)

    duel = EX / "warfare2d20" / "encounters" / "duel.toml"
    e = engine(duel)
    seeds = iter(range(10**6))
    fight_ms = median_ms(lambda: fight(e, next(seeds)), 20 if q else 200)
    row(
        "warfare2d20 duel, one seeded fight to the end (in-process)",
        "<= 5 ms",
        f"{fight_ms:.2f} ms median",
        "fight(Engine(read_scenario(duel)), seed)",
    )

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
    rows += act_rows(3 if q else 10)

    for rid, name, n_ref, n_fast, goal in (
        ("warfare2d20", "duel.toml", 300, 200_000, 100),
        ("dragonwarriors2", "goblin_duel.toml", 300, 200_000, 100),
        ("graydawn", "fire_team.toml", 30, 3_000, 20),
    ):
        path = EX / rid / "encounters" / name
        if not path.exists():
            row(f"{rid} {name}: fast path vs reference", f">= {goal}x", "scenario missing", "")
            continue
        if q:
            n_ref, n_fast = max(10, n_ref // 10), max(100, n_fast // 20)
        e = engine(path)
        t = time.perf_counter()
        simulate_reference(e, n_ref, 1)
        ref_rate = n_ref / (time.perf_counter() - t)
        e = engine(path)
        t = time.perf_counter()
        simulate_fast(e, n_fast, 1, workers=1)
        fast_rate = n_fast / (time.perf_counter() - t)
        row(
            f"{rid} `{name}`: fast path vs reference loop (fights/s, one process, cold caches)",
            f">= {goal}x",
            f"{fast_rate:,.0f} vs {ref_rate:,.0f}: {fast_rate / ref_rate:.0f}x",
            f"firefight simulate examples/{rid}/encounters/{name} -n {n_fast} --workers 1",
        )

    for rid, name, goal in (
        ("dragonwarriors2", "goblin_duel.toml", "< 1 s"),
        ("warfare2d20", "small_duel.toml", "< 2 s"),
    ):
        path = EX / rid / "encounters" / name
        if not path.exists():
            continue
        t = time.perf_counter()
        tally, arithmetic = solve_exact(engine(path))
        took = time.perf_counter() - t
        row(
            f"{rid} `{name}` --exact ({arithmetic}, mass left {float(tally.mass_left):.1g})",
            goal,
            f"{took:.2f} s",
            f"firefight simulate examples/{rid}/encounters/{name} --exact",
        )

    n = 100_000 if q else 1_000_000
    t = time.perf_counter()
    simulate_fast(engine(duel), n, 1, workers=os.cpu_count() or 1)
    row(
        f"{n:,} warfare2d20 duels (`duel.toml`), fast path on {os.cpu_count()} processes",
        "< 10 s",
        f"{time.perf_counter() - t:.1f} s",
        f"firefight simulate examples/warfare2d20/encounters/duel.toml -n {n}",
    )

    if not args.no_write:
        write_table(SECTION, "bench_encounter.py", f"numpy {np.__version__}", rows)


if __name__ == "__main__":
    main()
