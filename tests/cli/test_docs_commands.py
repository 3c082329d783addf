"""Every ``firefight ...`` line in the README, the encounter and simulation guides and the rules
docs runs as written (exit 0), in order (the encounter guide's lines play one saved fight).

A newcomer copies these lines first; a renamed field or a missing example file must fail here,
not in their terminal. ``--plot`` files go to a temporary folder.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
DOCS = [
    ROOT / "README.md",
    ROOT / "docs" / "encounters.md",
    ROOT / "docs" / "simulate.md",
    *sorted((ROOT / "docs" / "rules").glob("*.md")),
]


def _commands() -> list[tuple[str, str]]:
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8").replace("\\\n", " ")
        for block in re.findall(r"```(?:bash|sh|console)?\n(.*?)```", text, flags=re.S):
            for line in block.splitlines():
                line = line.split("  #")[0].strip()
                if not line.startswith("firefight ") or "[" in line.split("#")[0].replace("'[", ""):
                    continue  # "[--json]"-style synopsis lines show options, not a command
                if "FILE" in line or "&&" in line:
                    continue
                if line.startswith("firefight serve"):
                    continue  # runs until stopped: tests/web/test_server.py starts it for real
                if line.startswith("firefight new-ruleset"):
                    continue  # writes a package: tests/cli/test_new_ruleset.py, in a tmp folder
                out.append((doc.name, line))
    return out


COMMANDS = _commands()


def test_the_docs_show_commands() -> None:
    assert len(COMMANDS) >= 20


@pytest.mark.parametrize(
    ("doc", "line"), COMMANDS, ids=[f"{d}:{i}" for i, (d, _) in enumerate(COMMANDS)]
)
def test_documented_command_runs(
    doc: str, line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    args = shlex.split(line)[1:]
    for i, word in enumerate(args[:-1]):
        if word == "--plot":
            args[i + 1] = str(tmp_path / Path(args[i + 1]).name)
    res = CliRunner().invoke(app, args)
    assert res.exception is None or isinstance(res.exception, SystemExit), line
    assert res.exit_code == 0, f"{doc}: {line}\n{res.stderr}"
