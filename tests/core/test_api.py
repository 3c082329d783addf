"""``firefight.api``, the surface plugins import: every name there, documented, light to import,
and the only part of firefight the shipped plugin and the scaffold's module use."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import firefight.api as api

ROOT = Path(__file__).resolve().parents[2]


def test_every_public_name_is_there_and_documented() -> None:
    for name in api.__all__:
        obj = getattr(api, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert inspect.getdoc(obj), f"firefight.api.{name} has no docstring"
    public = {n for n in vars(api) if not n.startswith("_") and n != "annotations"}
    assert public == set(api.__all__)


def test_importing_it_loads_no_ruleset_and_no_engine() -> None:
    code = (
        "import sys, firefight.api\n"
        "print(sorted(m for m in sys.modules if m.startswith(('firefight.rulesets',"
        " 'firefight.encounter', 'firefight.analysis', 'firefight.web', 'firefight.cli'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_the_risk_plugin_imports_only_the_api() -> None:
    found = set()
    for path in (ROOT / "plugins" / "firefight-risk" / "src").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
    assert {m for m in found if m.split(".")[0] == "firefight"} == {"firefight.api"}
