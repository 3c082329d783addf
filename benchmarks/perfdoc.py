"""Shared by the benchmarks: time whole processes; write one section of docs/performance.md,
keep the others."""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "performance.md"

#: The environment of timed child processes: this tree's sources, with their bytecode cached as
#: an installed package has it (under PYTHONDONTWRITEBYTECODE every process would compile every
#: firefight module again, while numpy's and the other packages' bytecode is cached).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPATH"] = str(ROOT / "src")


def process_ms(
    args: list[str], runs: int, before: Callable[[], None] | None = None
) -> tuple[float, float]:
    """Median CPU time (user + sys of the child) and median wall time, in ms, of a whole
    process run ``runs`` times after one untimed run (bytecode and file caches filled).

    CPU time is what to compare on a shared machine: other jobs stretch the wall time.
    ``before`` runs ahead of every run (e.g. to restore a file the command changes).
    """
    cpus, walls = [], []
    for i in range(runs + 1):
        if before is not None:
            before()
        start_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(args, capture_output=True, env=ENV, check=True, cwd=ROOT)
        wall = time.perf_counter() - start
        end_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        if i:
            walls.append(wall)
            cpus.append(
                end_cpu.ru_utime - start_cpu.ru_utime + end_cpu.ru_stime - start_cpu.ru_stime
            )
    return statistics.median(cpus) * 1e3, statistics.median(walls) * 1e3


def write_section(heading: str, text: str) -> None:
    """Replace the section that starts with ``heading`` (a ``## `` line), or append it."""
    if DOC.exists():
        doc = DOC.read_text()
    else:
        doc = "# Performance\n\nMeasured figures; each section is written by its own benchmark.\n"
    pattern = re.compile(rf"^{re.escape(heading)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(doc):
        doc = pattern.sub(lambda _: text.rstrip("\n") + "\n\n", doc)
    else:
        doc = doc.rstrip("\n") + "\n\n" + text + "\n"
    DOC.write_text(doc.rstrip("\n") + "\n")


def write_table(
    heading: str, script: str, versions: str, rows: list[tuple[str, str, str, str]]
) -> None:
    """The benchmarks' common section: who wrote it on what machine, then one row per figure
    (what, goal, measured, command)."""
    import os
    import platform

    head = (
        f"{heading}\n\nWritten by `python benchmarks/{script}` on {platform.machine()} / "
        f"Python {platform.python_version()} / {versions}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f} at the end of the run.\n\n"
        "| what | goal | measured | command |\n|---|---|---:|---|\n"
    )
    body = "".join(f"| {a} | {b} | {c} | `{d}` |\n" for a, b, c, d in rows)
    write_section(heading, head + body)
