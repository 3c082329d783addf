"""Imports point one way: dice <- core <- rulesets <- cli (architecture.md §6)."""

from __future__ import annotations

import ast
from pathlib import Path

import firefight

ROOT = Path(firefight.__file__).parent
ORDER = ["dice", "core", "rulesets", "engine", "sim", "analysis", "cli"]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith("firefight.")
        ):
            out.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[1] for a in node.names if a.name.startswith("firefight."))
    return out


def test_layers_import_only_downwards() -> None:
    bad = []
    for layer in ORDER:
        folder = ROOT / layer
        if not folder.is_dir():
            continue
        allowed = set(ORDER[: ORDER.index(layer) + 1]) | {"errors"}
        for path in folder.rglob("*.py"):
            for target in _imports(path) - allowed:
                if target in ORDER:
                    bad.append(f"{path.relative_to(ROOT)} imports firefight.{target}")
    assert bad == []


def test_rulesets_do_not_import_each_other() -> None:
    bad = []
    base = ROOT / "rulesets"
    for pkg in (p for p in base.iterdir() if p.is_dir() and not p.name.startswith("_")):
        for path in pkg.rglob("*.py"):
            text = path.read_text()
            for other in (p.name for p in base.iterdir() if p.is_dir()):
                if other != pkg.name and f"firefight.rulesets.{other}" in text:
                    bad.append(f"{path.relative_to(ROOT)} uses {other}")
    assert bad == []
