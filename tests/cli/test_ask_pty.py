"""``--ask`` at a real terminal: ``firefight`` run on a pseudo-terminal, answers typed as a GM
types them (faces, Enter for the program's dice, ``back``, a face the die cannot show), and
Ctrl-C leaving the saved encounter byte for byte as it was. Off a terminal, ``--ask`` is refused
with the way to give the faces instead."""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from firefight.cli.commands import app
from firefight.dice import SeededDice
from firefight.encounter import load_record

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
AMBUSH = EXAMPLES / "warfare2d20" / "b_ak47_ambush.toml"
TIMEOUT = 60.0

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="a pseudo-terminal needs POSIX")


class Terminal:
    """``python -m firefight ARGS`` on a pseudo-terminal: read what it prints, type lines."""

    def __init__(self, *args: str | Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "200", "TERM": "dumb"}
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # pragma: no cover - the child becomes firefight
            os.chdir(ROOT)
            os.execve(sys.executable, [sys.executable, "-m", "firefight", *map(str, args)], env)
        self.seen = ""

    def expect(self, pattern: str) -> re.Match[str]:
        """Read until ``pattern`` shows in what was printed since the last match."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            found = re.search(pattern, self.seen)
            if found:
                self.seen = self.seen[found.end() :]
                return found
            left = deadline - time.monotonic()
            assert left > 0, f"never printed {pattern!r}; printed {self.seen!r}"
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.5))
            if ready:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    chunk = b""
                assert chunk, f"ended before {pattern!r}; printed {self.seen!r}"
                self.seen += chunk.decode(errors="replace").replace("\r\n", "\n")

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def interrupt(self) -> None:
        os.write(self.fd, b"\x03")  # Ctrl-C, as the terminal sends it

    def rest(self) -> str:
        """Everything printed until the process ends."""
        out = self.seen
        while True:
            ready, _, _ = select.select([self.fd], [], [], TIMEOUT)
            assert ready, "the process did not end"
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk.decode(errors="replace").replace("\r\n", "\n")
        return out

    def exit_code(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


@pytest.fixture
def terminals() -> list[Terminal]:
    started: list[Terminal] = []
    yield started
    for terminal in started:
        terminal.kill()


def firefight(*args: str | Path) -> Result:
    """The same command in this process, off a terminal (its input is not one)."""
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})


def _transcript(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if re.match(r"\s*\d+\. ", line)]


def test_an_attack_asked_roll_by_roll_is_the_attack_on_those_faces(
    terminals: list[Terminal],
) -> None:
    run = Terminal("attack", "warfare2d20", AMBUSH, "--ask")
    terminals.append(run)
    run.expect(r"Enter alone: the program rolls this group")
    run.expect(r"attacker insurgent 2d20 \(W01\): roll 2d20 > ")
    run.type("10 17")
    run.expect(r"defender point man 2d20 \(W01\): roll 2d20 > ")
    run.type("back")
    run.expect(r"took back 10, 17 \(attacker insurgent 2d20 \(W01\)\)")
    run.expect(r"attacker insurgent 2d20 \(W01\): roll 2d20 > ")
    run.type("10,17")
    run.expect(r"defender point man 2d20 \(W01\): roll 2d20 > ")
    run.type("25 3")
    run.expect(r"a d20 shows 1 to 20, not 25; type 2 faces of a d20")
    run.expect(r"defender point man 2d20 \(W01\): roll 2d20 > ")
    run.type("20")
    run.expect(r"type 2 faces of a d20: 1 given")
    run.expect(r"defender point man 2d20 \(W01\): roll 2d20 > ")
    run.type("20 16")
    run.expect(r"insurgent: damage AK-47 3d12 \(W06\): roll 3d12 > ")
    run.type("")  # Enter alone: the program rolls the damage
    run.expect(r"the program rolled \d+, \d+, \d+")
    run.type("all")
    printed = run.rest()
    assert run.exit_code() == 0
    faces = re.search(r"the table's dice: ([\d,]+)", printed)
    assert faces, printed
    assert faces.group(1).startswith("10,17,20,16,")
    scripted = firefight("attack", "warfare2d20", AMBUSH, "--dice", faces.group(1))
    assert scripted.exit_code == 0, scripted.stderr
    assert _transcript(printed) == _transcript(scripted.stdout)
    assert len(_transcript(printed)) > 6


def test_an_encounter_step_and_start_asked_at_the_terminal_save_what_dice_give(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    scenario = EXAMPLES / "dragonwarriors2" / "encounters" / "goblin_duel.toml"
    asked, given = tmp_path / "asked.json", tmp_path / "given.json"
    start = Terminal("encounter", "start", scenario, "--save", asked, "--ask")
    terminals.append(start)
    faces: list[int] = []
    for _ in range(40):
        prompt = start.expect(r"(?m)^(.*): roll 1d6, the (\w+ die|\d+ explodes)[^>]*> |saved to ")
        if prompt.group(0).startswith("saved to"):
            break
        assert "initiative" in prompt.group(1)
        face = 6 if not faces else 2  # the first die explodes: one more plus die is asked
        start.type(str(face))
        faces.append(face)
    assert start.exit_code() == 0
    assert faces[:2] == [6, 2]
    assert load_record(asked).start_faces == tuple(faces)

    enc = load_record(asked)
    action = enc.engine.legal_actions(enc.state)[0].id
    if not enc.trial(action, SeededDice(3)).faces:  # an attack declared; its defence rolls
        assert firefight("encounter", "act", asked, action, "--seed", "1").exit_code == 0
        enc = load_record(asked)
        action = enc.engine.legal_actions(enc.state)[0].id
    step = enc.trial(action, SeededDice(3))
    assert step.faces
    shutil.copy(asked, given)
    act = Terminal("encounter", "act", asked, action, "--ask")
    terminals.append(act)
    typed = 0
    while typed < len(step.faces):
        act.expect(r"roll 1d6[^>]*> ")
        act.type(str(step.faces[typed]))
        typed += 1
    act.rest()
    assert act.exit_code() == 0
    dice = ",".join(map(str, step.faces))
    by_dice = firefight("encounter", "act", given, action, "--dice", dice)
    assert by_dice.exit_code == 0, by_dice.stderr
    assert asked.read_bytes() == given.read_bytes()


def test_ctrl_c_at_a_prompt_leaves_the_save_byte_for_byte(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    save = tmp_path / "duel.json"
    scenario = EXAMPLES / "warfare2d20" / "encounters" / "duel.toml"
    assert firefight("encounter", "start", scenario, "--save", save, "--seed", "2").exit_code == 0
    before = save.read_bytes()
    action = load_record(save).engine.legal_actions(load_record(save).state)[0].id
    run = Terminal("encounter", "act", save, action, "--ask")
    terminals.append(run)
    run.expect(r"roll 2d20 > ")
    run.type("4 9")
    run.expect(r"roll 2d20 > ")
    run.interrupt()
    printed = run.rest()
    assert run.exit_code() == 130
    assert "stopped: nothing saved" in printed
    assert save.read_bytes() == before


def test_a_save_another_command_changed_while_the_table_rolled_is_not_saved_over(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    """The save is guarded as every write command's: read when the command starts, refused
    when it was changed by the time the last die is in."""
    save = tmp_path / "duel.json"
    scenario = EXAMPLES / "warfare2d20" / "encounters" / "duel.toml"
    assert firefight("encounter", "start", scenario, "--save", save, "--seed", "2").exit_code == 0
    action = load_record(save).engine.legal_actions(load_record(save).state)[0].id
    run = Terminal("encounter", "act", save, action, "--ask")
    terminals.append(run)
    run.expect(r"roll 2d20 > ")
    elsewhere = firefight("encounter", "act", save, action, "--seed", "1")
    assert elsewhere.exit_code == 0, elsewhere.stderr
    changed = save.read_bytes()
    run.type("all")
    printed = run.rest()
    assert run.exit_code() == 2
    assert "changed by another process since it was read; nothing saved" in printed
    assert save.read_bytes() == changed


def test_ask_off_a_terminal_is_refused_with_the_way_to_give_faces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    refused = firefight("attack", "warfare2d20", AMBUSH.relative_to(ROOT), "--ask")
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr.strip() == (
        "error: --ask asks for each roll at a terminal, and the input here is not one (tip: give "
        "the table's faces with firefight attack warfare2d20 "
        "examples/warfare2d20/b_ak47_ambush.toml --dice 4,8,...)"
    )
    both = firefight("attack", "warfare2d20", AMBUSH, "--ask", "--dice", "4")
    assert both.exit_code == 2 and "--dice and --ask both given" in both.stderr
    seed_zero = firefight("attack", "warfare2d20", AMBUSH, "--seed", "0", "--ask")
    assert seed_zero.exit_code == 2 and "--seed and --ask both given" in seed_zero.stderr
