"""Imports point one way: dice <- core <- rulesets <- encounter <- analysis <- web <- cli
(architecture.md §6, docs/design.md). Every top-level folder of the package must be a named layer,
so a new one cannot escape the check."""

from __future__ import annotations

import ast
from pathlib import Path

import firefight

ROOT = Path(firefight.__file__).parent
ORDER = ["dice", "core", "rulesets", "encounter", "analysis", "web", "cli"]
#: Top-level modules every layer may use.
SHARED = {"errors"}


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
        allowed = set(ORDER[: ORDER.index(layer) + 1]) | SHARED
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


def test_every_top_level_folder_is_a_named_layer() -> None:
    folders = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith("_")}
    assert folders - set(ORDER) == set()
    modules = {p.stem for p in ROOT.glob("*.py") if p.stem != "__init__"}
    assert modules <= SHARED | {"__main__"}
