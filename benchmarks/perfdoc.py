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
