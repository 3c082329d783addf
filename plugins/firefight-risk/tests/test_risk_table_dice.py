"""The table's dice on RISK, as on the built-in rulesets: ``encounter dice`` names the group the
table throws next, and ``--ask`` at a real terminal (a pseudo-terminal here) asks for the
attacker's dice and then the defender's, ending in what ``--dice`` gives on the same faces."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import sys
import time
from pathlib import Path

import pytest
from firefight.cli.app import app
from typer.testing import CliRunner

PLUGIN = Path(__file__).resolve().parents[1]
EXAMPLES = PLUGIN / "src" / "firefight_risk" / "examples"
ROLL = EXAMPLES / "roll.toml"
BATTLE = EXAMPLES / "battle.toml"
TIMEOUT = 60.0


def cli(*args: str | Path) -> tuple[int, str, str]:
    res = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})
    return res.exit_code, res.stdout, res.stderr


def test_encounter_dice_names_each_group_then_the_result(tmp_path: Path) -> None:
    saved = tmp_path / "battle.json"
    assert cli("encounter", "start", BATTLE, "--save", saved, "--seed", "1")[0] == 0
    before = saved.read_bytes()
    code, out, _ = cli("encounter", "dice", saved, "attack", "--json")
    assert code == 0
    asked = json.loads(out)
    assert (asked["complete"], asked["next"]["who"], asked["next"]["dice"]) == (
        False,
        "Attacker",
        "3d6",
    )
    code, out, _ = cli("encounter", "dice", saved, "attack", "--faces", "6,6,6", "--json")
    assert json.loads(out)["next"]["who"] == "Defender"
    assert json.loads(out)["next"]["rule"] == "R03"
    code, out, _ = cli("encounter", "dice", saved, "attack", "--faces", "6,6,6,1,1", "--json")
    done = json.loads(out)
    assert done["complete"] and "Defender: armies 3 -> 1 (R04)" in done["transcript"]
    code, out, _ = cli("encounter", "dice", saved, "attack:1", "--faces", "6,1,1", "--json")
    assert [g["dice"] for g in json.loads(out)["answered"]] == ["1d6", "2d6"]  # one die attacks
    code, _, err = cli("encounter", "dice", saved, "attack:1", "--faces", "6,1,1,2")
    assert code == 2 and "left unused" in err
    assert saved.read_bytes() == before  # asking saves nothing


class Terminal:
    """``python -m firefight ARGS`` on a pseudo-terminal (this environment's, the plugin found
    as the session finds it): read what it prints, type lines."""

    def __init__(self, *args: str | Path) -> None:
        import pty

        env = {**os.environ, "COLUMNS": "200", "TERM": "dumb"}
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # pragma: no cover - the child becomes firefight
            os.execve(sys.executable, [sys.executable, "-m", "firefight", *map(str, args)], env)
        self.seen = ""

    def _read(self, deadline: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], max(0.0, min(deadline, 0.5)))
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 4096)
        except OSError:
            return False
        self.seen += chunk.decode(errors="replace").replace("\r\n", "\n")
        return bool(chunk)

    def expect(self, pattern: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not re.search(pattern, self.seen):
            left = deadline - time.monotonic()
            assert left > 0, f"never printed {pattern!r}; printed {self.seen!r}"
            assert self._read(left), f"ended before {pattern!r}; printed {self.seen!r}"
        self.seen = self.seen[re.search(pattern, self.seen).end() :]  # type: ignore[union-attr]

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def finish(self) -> tuple[int, str]:
        """The exit code and everything printed since the last match."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and self._read(deadline - time.monotonic()):
            pass
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status), self.seen


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a pseudo-terminal needs POSIX")
def test_ask_at_a_terminal_is_dice_given_on_the_same_faces(tmp_path: Path) -> None:
    attack = Terminal("attack", "risk", ROLL, "--ask")
    attack.expect(r"attacker's dice \(R02\): roll 3d6 > ")
    attack.type("6 5 1")
    attack.expect(r"defender's dice \(R03\): roll 2d6 > ")
    attack.type("6 4")
    code, printed = attack.finish()
    assert code == 0, printed
    assert "the table's dice: 6,5,1,6,4" in printed
    code, scripted, _ = cli("attack", "risk", ROLL, "--dice", "6,5,1,6,4")
    lines = [line.strip() for line in scripted.splitlines() if re.match(r"\s*\d+\. ", line)]
    assert len(lines) == 4 and all(line in printed for line in lines)

    asked, given = tmp_path / "asked.json", tmp_path / "given.json"
    assert cli("encounter", "start", BATTLE, "--save", asked, "--seed", "1")[0] == 0
    shutil.copy(asked, given)
    act = Terminal("encounter", "act", asked, "attack:2", "--ask")
    act.expect(r"roll 2d6 > ")
    act.type("3 3")
    act.expect(r"roll 2d6 > ")
    act.type("4 2")
    code, printed = act.finish()
    assert code == 0, printed
    assert cli("encounter", "act", given, "attack:2", "--dice", "3,3,4,2")[0] == 0
    assert asked.read_bytes() == given.read_bytes()
