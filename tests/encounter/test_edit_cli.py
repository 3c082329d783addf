"""`firefight encounter edit|add|remove|order|skip|end-round`, and saves that two commands
write at once."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app
from firefight.encounter import load_record

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = EXAMPLES / "warfare2d20" / "encounters" / "duel.toml"


def run(*args: object):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def save(tmp_path: Path) -> Path:
    file = tmp_path / "duel.json"
    res = run("encounter", "start", DUEL, "--save", file, "--seed", "1")
    assert res.exit_code == 0, res.output
    return file


def test_each_edit_is_a_step_of_the_saved_record(save: Path, tmp_path: Path) -> None:
    res = run("encounter", "edit", save, "Rivera.hit_points=14")
    assert res.exit_code == 0, res.output
    assert "GM: Rivera.hit_points = 14 (was 20)" in res.stdout
    newcomer = tmp_path / "second.toml"
    newcomer.write_text(
        '[[combatants]]\nname = "Second"\ncombatant = "insurgent"\nweapon = "AK-47"\n'
    )
    steps = [
        ("add", "--side", "insurgents", "--combatant", newcomer, "--at", "1"),
        ("order", "Insurgent, Rivera, Second"),
        ("skip", "--seed", "2"),
        ("end-round", "--seed", "3"),
        ("remove", "Second"),
    ]
    for args in steps:
        res = run("encounter", args[0], save, *args[1:])
        assert res.exit_code == 0, (args, res.output)
    enc = load_record(save)
    assert [s.to_json().get("edit", {}).get("kind") for s in enc.steps] == [
        "set",
        "add",
        "order",
        "skip",
        "end round",
        "remove",
    ]
    assert enc.state.round == 2 and "Second" not in enc.state.names()
    assert enc.state.combatant("Rivera").hit_points == 14
    shown = run("encounter", "show", save).stdout
    assert "GM: Second leaves the fight" in shown
    # undone and redone like an action
    assert run("encounter", "undo", save).exit_code == 0
    assert "Second" in load_record(save).state.names()
    assert run("encounter", "redo", save).exit_code == 0
    assert load_record(save).state == enc.state


def test_an_edit_given_as_toml_text(save: Path) -> None:
    table = 'name = "Third"\ncombatant = "insurgent"\nweapon = "AK-47"'
    res = run("encounter", "add", save, "--side", "insurgents", "--combatant", table)
    assert res.exit_code == 0, res.output
    assert load_record(save).state.order[-1] == "Third"  # as the ruleset enters one


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("edit", "Rivera.hit_points=99"), "Rivera: field hit_points: 99 is out of range"),
        (("edit", "Rivera.hitpoints=9"), "did you mean 'hit_points'?"),
        (("edit", "Rivera.stance=prone"), "is not a TOML value"),
        (("edit", 'Rivera.stance="prone"'), "is not one of"),
        (("remove", "Nobody"), "no combatant 'Nobody' in the fight"),
        (("order", "Rivera"), "order leaves out Insurgent"),
        (("add", "--side", "pirates", "--combatant", 'name = "X"'), "side 'pirates'"),
        (("add", "--side", "insurgents", "--combatant", 'name = "X"'), "the new combatant"),
        (("add", "--side", "insurgents", "--combatant", "nope.toml"), "no such file"),
        (("skip", "--dice", "1,2,3"), "left unused"),
    ],
)
def test_a_refused_edit_leaves_the_save_byte_identical(
    save: Path, args: tuple[str, ...], says: str
) -> None:
    before = save.read_bytes()
    res = run("encounter", args[0], save, *args[1:])
    assert res.exit_code == 2, res.output
    assert says in res.output and len(res.output.strip().splitlines()) == 1
    assert save.read_bytes() == before


@pytest.mark.parametrize("command", [("act", "take cover"), ("undo",), ("redo",)])
def test_a_save_another_process_changed_since_it_was_read_is_refused(
    save: Path, command: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another command writes the save while this one works on what it read: this one's
    step is refused in one line and the other's file stands, byte for byte."""
    from firefight.cli import encounter_commands

    assert run("encounter", "act", save, "done", "--seed", "1").exit_code == 0
    if command[0] == "redo":
        assert run("encounter", "undo", save).exit_code == 0
    real = encounter_commands.open_record

    def read_then_written_elsewhere(path: Path) -> object:
        opened = real(path)
        path.write_text(path.read_text() + "\n")  # the other process's save
        return opened

    monkeypatch.setattr(encounter_commands, "open_record", read_then_written_elsewhere)
    theirs = save.read_text() + "\n"
    res = run("encounter", *command[:1], save, *command[1:])
    assert res.exit_code == 2, res.output
    assert "changed by another process since it was read; nothing saved" in res.output
    assert save.read_text() == theirs


def test_commands_run_at_once_on_one_save_never_lose_a_step(save: Path) -> None:
    """Four `encounter act` processes at once on one save: each either commits its step or is
    refused in one line, and the save holds exactly the steps that committed."""
    first = load_record(save)
    action = first.engine.legal_actions(first.state)[-1].id  # "done": always legal
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "firefight", "encounter", "act", str(save), action],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    results = [(p.wait(timeout=120), p.stderr.read() if p.stderr else "") for p in procs]
    committed = sum(code == 0 for code, _ in results)
    for code, err in results:
        assert code in (0, 2), err
        if code == 2:
            assert "changed by another process" in err or "has no action" in err, err
    assert committed >= 1
    assert len(json.loads(save.read_text())["steps"]) == committed
