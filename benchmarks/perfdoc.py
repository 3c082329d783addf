"""Shared by the benchmarks: write one section of docs/performance.md, keep the others."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "performance.md"


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
