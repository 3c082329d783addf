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
SHARED = {"errors", "display"}
#: Top-level modules of the public surface and the layer each sits in: the plugin API with
#: ``core``, the conformance kit and the notebook library with ``analysis``.
MODULES = {"api": "core", "testing": "analysis", "library": "analysis"}


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


def _below(layer: str) -> set[str]:
    """What code of ``layer`` may import: its layer and those under it, their top-level
    modules, and the shared ones."""
    layers = set(ORDER[: ORDER.index(layer) + 1])
    return layers | {m for m, at in MODULES.items() if at in layers} | SHARED


def test_layers_import_only_downwards() -> None:
    bad = []
    for layer in ORDER:
        folder = ROOT / layer
        if not folder.is_dir():
            continue
        allowed = _below(layer)
        for path in folder.rglob("*.py"):
            for target in _imports(path) - allowed:
                if target in ORDER or target in MODULES:
                    bad.append(f"{path.relative_to(ROOT)} imports firefight.{target}")
    for module, layer in MODULES.items():
        path = ROOT / f"{module}.py"
        for target in _imports(path) - _below(layer) - {module}:
            bad.append(f"{module}.py imports firefight.{target}")
    for module in SHARED:
        for target in _imports(ROOT / f"{module}.py"):
            bad.append(f"{module}.py (shared by every layer) imports firefight.{target}")
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
    assert modules <= SHARED | set(MODULES) | {"__main__"}
