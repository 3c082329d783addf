"""The in-repository plugin (``plugins/firefight-risk``) is found whether or not it is installed.

CI installs it (``pip install -e plugins/firefight-risk``); the README's test command does not.
Uninstalled, the test session stages what pip would write, without installing anything: the
package's source folder on the path and a ``.dist-info`` folder holding its entry point (read
from its ``pyproject.toml``), in a temporary folder removed at the end. Discovery then finds it
through the entry-point group as it finds an installed plugin, in this process and in the
processes tests start (``PYTHONPATH``), so the plugin's own tests and the kit run either way.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import tomllib
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parent / "plugins" / "firefight-risk"
_STAGED: list[Path] = []


def _installed(name: str) -> bool:
    try:
        distribution(name)
    except PackageNotFoundError:
        return False
    return True


def pytest_configure(config: pytest.Config) -> None:
    project = tomllib.loads((PLUGIN / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    if _installed(project["name"]):
        return
    stage = Path(tempfile.mkdtemp(prefix="firefight-plugin-"))
    _STAGED.append(stage)
    info = stage / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n",
        encoding="utf-8",
    )
    lines = []
    for group, entries in project["entry-points"].items():
        lines.append(f"[{group}]")
        lines.extend(f"{name} = {target}" for name, target in entries.items())
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    paths = [str(PLUGIN / "src"), str(stage)]
    sys.path[:0] = paths
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([*paths, old] if old else paths)
    from firefight.rulesets import forget

    forget()


def pytest_unconfigure(config: pytest.Config) -> None:
    for stage in _STAGED:
        shutil.rmtree(stage, ignore_errors=True)
