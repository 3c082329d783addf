"""``firefight new-ruleset``: the package it writes installs with ``pip install -e`` into a fresh
virtual environment and passes its own tests as written (its rules and the conformance kit), and
every ``firefight`` line of the guide (docs/authoring.md) runs there as written.

The fresh environment is made without pip and sees this one's packages through a ``.pth`` file
(``site.addsitedir``), and the package is installed with ``--no-deps --no-build-isolation
--no-index``: nothing is downloaded, and the whole check takes seconds.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "authoring.md"

#: Runs the guide's lines (given as JSON) in one process of the fresh environment, from the
#: package's folder; prints each line's exit code and its error output.
WALK = """
import json, sys
from typer.testing import CliRunner
from firefight.cli.commands import app
out = []
for line in json.loads(sys.argv[1]):
    res = CliRunner().invoke(app, line)
    out.append([line, res.exit_code, res.stderr[-500:]])
print(json.dumps(out))
"""


def guide_lines() -> list[list[str]]:
    """The guide's ``firefight`` lines after the package is made and installed."""
    text = GUIDE.read_text(encoding="utf-8")
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            words = shlex.split(line.split("  #")[0])
            if words[:1] == ["firefight"] and words[1:2] != ["new-ruleset"]:
                lines.append(words[1:])
    return lines


def cli(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(app, list(args))
    return res.exit_code, res.stdout, res.stderr


def fresh_venv(where: Path) -> Path:
    """A virtual environment without pip that sees this one's packages; its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]
    Path(site, "_firefight_parent.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    return python


def test_the_package_installs_in_a_fresh_venv_and_passes_its_tests(tmp_path: Path) -> None:
    code, out, err = cli("new-ruleset", "my_rules", "--dir", str(tmp_path))
    assert code == 0, err
    package = tmp_path / "firefight-my-rules"
    assert f"wrote {package}" in out
    python = fresh_venv(tmp_path / "venv")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    install = [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation"]
    res = subprocess.run(
        [*install, "--no-index", "-e", str(package)],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    tests = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=package,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-2000:]
    assert "9 passed" in tests.stdout
    listed = subprocess.run(
        [str(python), "-m", "firefight", "rulesets", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert '"id": "my_rules"' in listed.stdout
    assert '"origin": "firefight-my-rules 0.1.0"' in listed.stdout
    walk = subprocess.run(
        [str(python), "-c", WALK, json.dumps(guide_lines())],
        cwd=package,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert walk.returncode == 0, walk.stderr[-2000:]
    ran = json.loads(walk.stdout)
    assert len(ran) >= 10
    assert [r for r in ran if r[1] != 0] == []


def test_the_ruleset_module_imports_only_the_plugin_api(tmp_path: Path) -> None:
    import ast

    assert cli("new-ruleset", "tiny", "--dir", str(tmp_path))[0] == 0
    source = tmp_path / "firefight-tiny" / "src" / "firefight_tiny" / "__init__.py"
    imported = {
        node.module
        for node in ast.walk(ast.parse(source.read_text()))
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert {m for m in imported if m.startswith("firefight")} == {"firefight.api"}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["Bad-Name"], "'Bad-Name' is not a ruleset id"),
        (["graydawn"], "a ruleset called 'graydawn' is already registered"),
        (["fresh", "--dir", "nowhere/at/all"], "--dir nowhere/at/all: no such folder"),
    ],
)
def test_refusals_are_one_line_and_write_nothing(
    args: list[str], words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = cli("new-ruleset", *args)
    assert code == 2
    assert err.startswith(f"error: {words}") and len(err.splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "firefight-mine").mkdir()
    (tmp_path / "firefight-mine" / "keep.txt").write_text("mine")
    code, _, err = cli("new-ruleset", "mine", "--dir", str(tmp_path))
    assert code == 2 and "already exists" in err
    assert [p.name for p in tmp_path.iterdir()] == ["firefight-mine"]
    assert (tmp_path / "firefight-mine" / "keep.txt").read_text() == "mine"
