"""Exact fight odds: ``firefight simulate --exact`` against plain direct solvers, and on every
shipped example encounter.

1. Duels, side by side in one run: each as whole processes, CPU time (user + sys of the child)
   and peak memory (its maximum resident set), firefight's ``simulate --exact --json`` and, where
   the benchmark has one, a plain direct solver written for it from the text
   (``plain_<ruleset>.py``: no firefight code, floats, identical states merged after every roll).
   Each plain answer is checked against firefight's first (win chances, truncation, rounds and
   harm taken to 1e-12 absolute).
2. Every shipped example encounter (``examples/*/encounters/*.toml``) with ``--exact``: solved
   (CPU time) or refused (CPU time to the refusal, and its line).

Goals (exact fight odds as fast as a hand-written solver): firefight's CPU at most the
plain solver's on each duel, peak memory at most twice; a fight too big refused within 5 s with
the estimate in the line; ``knife_duel_exact.toml`` solved in under 10 s.

Run: ``python benchmarks/bench_exact.py`` (writes the "Exact fight odds" section of
docs/performance.md; ``--no-write`` only prints; ``--only duels|examples``; ``--duel TEXT`` only
the duels whose label holds TEXT; ``--timeout S`` caps each process's CPU seconds, 600 by
default).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from perfdoc import ENV, ROOT, write_section

BENCH = ROOT / "benchmarks"
SCENARIOS = BENCH / "scenarios"
#: The team's shared benchmark scenarios, beside the project's folder.
SHARED = ROOT.parent.parent / "shared" / "bench"
#: The duels: (label, scenario, plain solver script or None).
DUELS = [
    (
        "dragonwarriors2 goblin_duel (shipped)",
        ROOT / "examples/dragonwarriors2/encounters/goblin_duel.toml",
        "plain_dragonwarriors2.py",
    ),
    (
        "dragonwarriors2 knights to first blood, 4 rounds, riposte at margin 2",
        SHARED / "knights_first_blood.toml",
        "plain_dragonwarriors2.py",
    ),
    (
        "dragonwarriors2 aggressive parry vs a wounded two-hander, 5 rounds",
        SCENARIOS / "dragonwarriors2_parry_vs_two_hander.toml",
        "plain_dragonwarriors2.py",
    ),
    (
        "warfare2d20 small_duel (shipped)",
        ROOT / "examples/warfare2d20/encounters/small_duel.toml",
        "plain_warfare2d20.py",
    ),
    (
        "warfare2d20 armoured duel (3 vs 2 actions, vest), 4 rounds",
        SCENARIOS / "warfare2d20_armoured_duel.toml",
        "plain_warfare2d20.py",
    ),
    (
        "tactical_d20 ranged duel in cover, 3 rounds",
        SCENARIOS / "tactical_d20_ranged_cover.toml",
        None,
    ),
    (
        "graydawn knife_duel_exact (shipped, 8 rounds)",
        ROOT / "examples/graydawn/encounters/knife_duel_exact.toml",
        None,
    ),
    (
        "quality_d100 small_duel (shipped)",
        ROOT / "examples/quality_d100/encounters/small_duel.toml",
        None,
    ),
]
#: Absolute agreement asked of a plain solver's figures.
AGREE = 1e-12


def measured(args: list[str], timeout: int) -> tuple[float, float, int, str, str]:
    """One whole process, at most ``timeout`` CPU seconds: its CPU seconds (user + sys), peak
    memory in MB (GNU time's maximum resident set: getrusage's is the largest child's so
    far), exit code, output and errors."""
    with tempfile.NamedTemporaryFile(suffix=".time") as timing:
        timed = ["/usr/bin/time", "-f", "%M", "-o", timing.name, *args]
        limited = f"ulimit -t {timeout}; exec " + " ".join(f"'{a}'" for a in timed)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            ["bash", "-c", limited], capture_output=True, text=True, env=ENV, cwd=ROOT
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            peak = int(Path(timing.name).read_text().split()[-1]) / 1024
        except (OSError, ValueError, IndexError):
            peak = float("nan")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, peak, done.returncode, done.stdout, done.stderr


def agree(firefight: dict, plain: dict) -> float:
    """The largest absolute difference between the two solvers' figures."""
    gaps = [abs(firefight["truncated"]["p"] - plain["truncated"])]
    for side, won in plain["wins"].items():
        gaps.append(abs(firefight["sides"][side]["win"]["p"] - won))
    dist = {r["rounds"]: r["p"] for r in firefight["rounds"]["dist"]}
    rounds = plain["rounds"][:]
    rounds[-1] += plain["truncated"]  # firefight counts a truncated fight at max_rounds
    for r, p in enumerate(rounds, start=1):
        gaps.append(abs(dist.get(r, 0.0) - p))
    for name, taken in plain["taken"].items():
        gaps.append(abs(firefight["combatants"][name]["mean_taken"] - taken))
    return max(gaps)


def duels(timeout: int, only: str | None = None) -> list[str]:
    rows = [
        "| duel | plain solver | firefight --exact | ratio | memory (firefight vs plain) "
        "| agreement |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, path, plain in DUELS:
        if only is not None and only not in label:
            continue
        if not path.exists():
            rows.append(f"| {label} | | missing: {path} | | | |")
            continue
        cpu, peak, code, out, err = measured(
            [sys.executable, "-m", "firefight", "simulate", str(path), "--exact", "--json"],
            timeout,
        )
        if code == 0:
            mine = f"{cpu:.2f} s"
        else:
            line = err.strip().splitlines()[-1] if err.strip() else f"stopped after {timeout} s"
            mine = f"{cpu:.1f} s, not solved ({line[:90]})"
        if plain is None:
            rows.append(f"| {label} | (none yet) | {mine} | | {peak:.0f} MB | |")
            print(rows[-1], flush=True)
            continue
        pcpu, ppeak, pcode, pout, _ = measured([sys.executable, str(BENCH / plain), str(path)], 60)
        gap = agree(json.loads(out), json.loads(pout)) if code == 0 and pcode == 0 else None
        ratio = f"{cpu / pcpu:.0f}x" if pcpu > 0 else "-"
        ok = "" if gap is None or gap <= AGREE else " (over 1e-12!)"
        rows.append(
            f"| {label} | {pcpu:.2f} s | {mine} | {ratio} | {peak:.0f} vs {ppeak:.0f} MB | "
            + (f"{gap:.0e}{ok}" if gap is not None else "-")
            + " |"
        )
        print(rows[-1], flush=True)
    return rows


def examples(timeout: int) -> list[str]:
    rows = ["| example | answer | CPU | peak memory |", "|---|---|---:|---:|"]
    for path in sorted((ROOT / "examples").glob("*/encounters/*.toml")):
        cpu, peak, code, _, err = measured(
            [sys.executable, "-m", "firefight", "simulate", str(path), "--exact", "--json"],
            timeout,
        )
        name = str(path.relative_to(ROOT / "examples"))
        if code == 0:
            answer = "solved"
        elif code == 2:
            line = err.strip().splitlines()[-1].removeprefix("error: ")
            answer = "refused: " + line.split(" (tip:")[0]
        else:
            answer = f"neither answered nor refused within {timeout} s of CPU"
        rows.append(f"| {name} | {answer} | {cpu:.1f} s | {peak:.0f} MB |")
        print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--only", choices=["duels", "examples"])
    parser.add_argument("--timeout", type=int, default=600)
    parser.add_argument("--duel", help="only the duels whose label holds this text")
    args = parser.parse_args()
    parts = []
    if args.only in (None, "duels"):
        parts += [
            "### Duels against plain solvers (whole processes)",
            "",
            *duels(args.timeout, args.duel),
        ]
    if args.only in (None, "examples"):
        parts += ["", "### Every shipped example encounter", "", *examples(args.timeout)]
    if args.no_write or args.only:
        return
    import platform

    head = (
        "## Exact fight odds\n\nWritten by `python benchmarks/bench_exact.py` on "
        f"{platform.machine()} / Python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f} at the end of the run. CPU time is user + sys "
        "of each whole process; memory its peak resident set. Rerun with `python "
        "benchmarks/bench_exact.py` (`--only duels` or `--only examples` prints one part).\n\n"
        "Goals: `--exact` at most the plain solver's CPU on each duel and at most twice its "
        "memory; a fight too big refused within 5 s with the estimate in the line; "
        "`knife_duel_exact.toml` (8 rounds) in under 10 s. The plain solvers are peers written "
        "for the benchmark from the texts (no firefight code); why firefight is slower is in "
        "[design.md](design.md), Exact fight odds.\n\n"
    )
    write_section("## Exact fight odds", head + "\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
