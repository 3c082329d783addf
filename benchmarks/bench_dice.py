"""Dice-core benchmark: firefight against icepool on three exact queries, side by side in one
process. Goal: each query at least 20x faster than icepool, every answer the identical Fraction;
``firefight --help`` starts in under 300 ms.

Three exact queries, each answered by both tools as exact Fractions (checked identical before
timing), then timed as the median of repeated runs:

- (A) the 121-cell table P(|2d20 - 2d20| + m <= T), m in -4..6, T in 4..14;
- (B) P(14 + X >= 12 + Y), X and Y CP2020 exploding d10 (``d10x``);
- (C) P(14 + R1 > 12 + R2), R the Dragon Warriors open-ended plus-minus roll (``pm6``).

Open-ended dice are cut at firefight's default depth (the depth that keeps the left-out mass
below 1e-12) and compared in icepool's ``explode(depth=...)`` convention (``stop=True``: the last
allowed die counts its face and does not roll again), so both tools answer the same question.

firefight is timed three ways: *warm* (memo caches filled, as in a long session), *cold* (every
distribution cache cleared before each run; the parsed expression kept) and *cold + parse* (the
text is parsed again too). icepool builds its dice from scratch on every run.

Also measured: ``firefight --help`` start-up time (median of repeated subprocess runs).

Run: ``python benchmarks/bench_dice.py`` (writes the "Dice core against icepool" section of
docs/performance.md; ``--no-write`` only prints).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import icepool
import numpy as np

from firefight.dice import Depth, exact, parse
from firefight.dice.exact import clear_caches

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "performance.md"
SECTION = "## Dice core against icepool"

M_RANGE = range(-4, 7)
T_RANGE = range(4, 15)
#: firefight's default depths: re-rolls per chain for one d10x, and for the two chains of a pm6.
DEPTH_X = Depth().for_die(10, 1)
DEPTH_PM = Depth().for_die(6, 2)

Table = dict[tuple[int, int], Fraction]


# -- the queries, firefight ------------------------------------------------------------------
#: Query A's structure, shared by both tools: the cells, the distinct thresholds k = T - m, and
#: which k each cell reads (cells with the same T - m have the same probability).
CELLS = [(m, t) for m in M_RANGE for t in T_RANGE]
KEYS = sorted({t - m for m, t in CELLS})
CELL_KEY = [KEYS.index(t - m) for m, t in CELLS]


def fill_table(values: list[Fraction]) -> Table:
    """The 121 cells from P(D <= k) for each distinct k (the same step for both tools)."""
    return dict(zip(CELLS, [values[i] for i in CELL_KEY], strict=True))


def ff_a() -> Table:
    d = exact("abs(2d20-2d20)")
    total = d.total
    return fill_table([Fraction(n, total) for n in d.cdf_array(KEYS).tolist()])


_A_NUMERATORS = list(range(21))


def fill_only() -> Table:
    """Query A's shared last step alone: 21 Fractions and the 121-cell table."""
    return fill_table([Fraction(n, 160_000) for n in _A_NUMERATORS])


def ff_b() -> Fraction:
    x = exact("d10x", depth=DEPTH_X, stop=True)
    return (x + 14).p_compare(">=", x + 12)


def ff_c() -> Fraction:
    r = exact("pm6", depth=DEPTH_PM, stop=True)
    return (r + 14).p_compare(">", r + 12)


# -- the queries, icepool --------------------------------------------------------------------
def ip_a() -> Table:
    d = abs(2 @ icepool.d20 - 2 @ icepool.d20)
    return fill_table([d.probability("<=", k) for k in KEYS])


def ip_cp2020(depth: int) -> icepool.Die:
    """d10x in icepool: faces 2..9; 10 + an exploding d10; minus an exploding d10 for a 1."""
    inner = icepool.d10.explode(depth=depth - 1)
    return icepool.Die([*range(2, 10), 10 + inner, -inner])


def ip_b() -> Fraction:
    x, y = ip_cp2020(DEPTH_X), ip_cp2020(DEPTH_X)
    return (14 + x >= 12 + y).probability(True)


def ip_c() -> Fraction:
    def pm() -> icepool.Die:
        return icepool.d6.explode(depth=DEPTH_PM) - icepool.d6.explode(depth=DEPTH_PM)

    return (14 + pm() > 12 + pm()).probability(True)


# -- timing ----------------------------------------------------------------------------------
def median_us(fn: Callable[[], Any], runs: int, before: Callable[[], None] | None = None) -> float:
    """Median wall time of ``fn`` in microseconds; ``before`` runs untimed before each run."""
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def interleaved(
    ours: Callable[[], Any], theirs: Callable[[], Any], runs: int, ip_runs: int
) -> tuple[float, float, float, float]:
    """Medians (µs) of firefight warm / cold / cold + parse and of icepool, measured in
    interleaved rounds so that a burst of load on the machine hits both tools alike."""
    per_round = max(1, runs // ip_runs)
    samples: dict[str, list[float]] = {"warm": [], "cold": [], "parse": [], "ice": []}
    ours()  # fill the caches once before the first warm run
    for _ in range(ip_runs):
        for _ in range(per_round):
            samples["warm"].append(median_us(ours, 1))
            samples["cold"].append(median_us(ours, 1, before=clear_caches))
            samples["parse"].append(median_us(ours, 1, before=clear_all))
            ours()  # leave the caches warm for the next warm run
        samples["ice"].append(median_us(theirs, 1))
    w, c, p, i = (statistics.median(samples[k]) for k in ("warm", "cold", "parse", "ice"))
    return w, c, p, i


def clear_all() -> None:
    clear_caches()
    parse.cache_clear()


def startup_ms(runs: int) -> tuple[float, float]:
    """Median ``firefight --help`` time and a bare ``python -c pass`` for reference (ms)."""
    exe = shutil.which("firefight")
    cmd = [exe, "--help"] if exe else [sys.executable, "-m", "firefight.cli.app", "--help"]

    def run(args: list[str]) -> float:
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(args, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1e3

    return run(cmd), run([sys.executable, "-c", "pass"])


QUERIES: list[tuple[str, str, Callable[[], Any], Callable[[], Any]]] = [
    ("A", "121-cell table P(abs(2d20-2d20) + m <= T)", ff_a, ip_a),
    ("B", f"P(14 + X >= 12 + Y), X, Y = d10x (depth {DEPTH_X})", ff_b, ip_b),
    ("C", f"P(14 + R1 > 12 + R2), R = pm6 (depth {DEPTH_PM})", ff_c, ip_c),
]


def run(runs: int, ip_runs: int, startup_runs: int) -> str:
    rows = []
    for name, title, ours, theirs in QUERIES:
        mine, ref = ours(), theirs()
        if mine != ref:
            raise SystemExit(f"query {name}: firefight and icepool disagree")
        warm, cold, cold_parse, ice = interleaved(ours, theirs, runs, ip_runs)
        rows.append((name, title, warm, cold, cold_parse, ice))
        print(
            f"{name}: firefight warm {warm:.0f} us, cold {cold:.0f} us, cold+parse "
            f"{cold_parse:.0f} us; icepool {ice:.0f} us; ratio warm {ice / warm:.0f}x, "
            f"cold {ice / cold:.0f}x",
            flush=True,
        )
    fill = median_us(fill_only, runs)
    print(f"A: the table fill alone (shared by both tools) {fill:.0f} us")
    help_ms, python_ms = startup_ms(startup_runs)
    print(f"firefight --help: {help_ms:.0f} ms (python -c pass: {python_ms:.0f} ms)")
    return render(rows, fill, help_ms, python_ms, runs, ip_runs, startup_runs)


def render(
    rows: list[tuple[str, str, float, float, float, float]],
    fill: float,
    help_ms: float,
    python_ms: float,
    runs: int,
    ip_runs: int,
    startup_runs: int,
) -> str:
    lines = [
        SECTION,
        "",
        "Written by `python benchmarks/bench_dice.py`; numbers from one run on "
        f"{platform.machine()} / Python {platform.python_version()} / numpy {np.__version__} / "
        f"icepool {icepool.__version__}, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f} at the end of the run (timings drift with load; the ratios "
        f"are steadier). Medians of {runs} firefight runs and {ip_runs} icepool "
        "runs in one process, interleaved round by round. Every answer is checked to be "
        "the identical Fraction before timing. Open-ended dice use firefight's default depth "
        "(left-out mass < 1e-12) in icepool's `explode(depth=...)` convention (`stop=True`).",
        "",
        "- *warm*: memo caches filled (a program asking again);",
        "- *cold*: every distribution cache cleared before each run (the parsed expression kept);",
        "- *cold + parse*: the text is parsed again too (the hand reader; Lark only for unusual "
        "forms);",
        "- icepool builds its dice afresh on every run; ratio = icepool time / firefight time.",
        "",
        "| query | firefight warm | firefight cold | cold + parse | icepool | ratio warm | "
        "ratio cold | ratio cold + parse |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, title, warm, cold, cold_parse, ice in rows:
        lines.append(
            f"| ({name}) {title} | {warm:.0f} µs | {cold:.0f} µs | {cold_parse:.0f} µs | "
            f"{ice:.0f} µs | {ice / warm:.0f}x | {ice / cold:.0f}x | {ice / cold_parse:.0f}x |"
        )
    lines += [
        "",
        f"In (A), {fill:.0f} µs of each tool's time is the same step: turning the 21 distinct "
        "probabilities into Fractions and filling the 121 cells (`fill_table`, measured alone). "
        "The distribution work itself is the rest.",
        "",
        f"`firefight --help` start-up: **{help_ms:.0f} ms** median of {startup_runs} subprocess "
        f"runs (a bare `python -c pass` takes {python_ms:.0f} ms on the same machine). "
        "Budget: 300 ms.",
        "",
    ]
    return "\n".join(lines)


def write_section(text: str, section: str = SECTION) -> None:
    """Replace the section headed ``section`` of docs/performance.md (this benchmark's unless
    another is named), keeping every other section."""
    if DOC.exists():
        doc = DOC.read_text()
    else:
        doc = "# Performance\n\nMeasured figures; each section is written by its own benchmark.\n"
    pattern = re.compile(rf"^{re.escape(section)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(doc):
        doc = pattern.sub(lambda _: text + "\n", doc)
    else:
        doc = doc.rstrip("\n") + "\n\n" + text + "\n"
    DOC.write_text(doc.rstrip("\n") + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300, help="firefight runs per figure")
    parser.add_argument("--icepool-runs", type=int, default=30, help="icepool runs per figure")
    parser.add_argument("--startup-runs", type=int, default=15, help="firefight --help runs")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    text = run(args.runs, args.icepool_runs, args.startup_runs)
    if not args.no_write:
        write_section(text)
        print(f"wrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
