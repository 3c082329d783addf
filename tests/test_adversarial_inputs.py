"""Inputs an adversarial run found crashing, replacing what it should not, or slipping through:
each is refused in one line (exit 2) and changes nothing, through the command line and the
tracker's API. (The records' own refusals: tests/encounter/test_edits.py; the API's seeds and
long ids: tests/web/test_api.py and test_versions.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app
from tests.web.conftest import Table

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
DUEL = EXAMPLES / "warfare2d20" / "encounters" / "duel.toml"
GRAYDAWN = EXAMPLES / "graydawn" / "encounters" / "duel.toml"
KNIFE = EXAMPLES / "tactical_d20" / "encounters" / "knife_duel.toml"


def run(*args: object):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, [str(a) for a in args])


def refused(res: object, says: str) -> None:
    """Exit 2, one ``error:`` line saying ``says``, no traceback."""
    out = res.output  # type: ignore[attr-defined]
    assert res.exit_code == 2, out  # type: ignore[attr-defined]
    lines = out.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out
    assert says in lines[0], out


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    file = tmp_path / "duel.json"
    assert run("encounter", "start", DUEL, "--save", file, "--seed", "1").exit_code == 0
    assert run("encounter", "act", file, "done", "--seed", "2").exit_code == 0
    return file


@pytest.mark.parametrize("number", ["Infinity", "1e400"])
@pytest.mark.parametrize("where", ["faces", "round"])
def test_a_record_with_a_number_that_is_no_number(saved: Path, number: str, where: str) -> None:
    data = json.loads(saved.read_text())
    data["steps"][0][where] = "@@"
    saved.write_text(
        json.dumps(data).replace('"@@"', f"[{number}]" if where == "faces" else number)
    )
    before = saved.read_bytes()
    for command in (["show"], ["act", "done"], ["undo"], ["redo"], ["auto", "--steps", "1"]):
        refused(run("encounter", command[0], saved, *command[1:]), "damaged record")
    assert saved.read_bytes() == before


def test_a_record_version_of_5000_digits(saved: Path) -> None:
    saved.write_text(saved.read_text().replace('"version": 2', '"version": 1' + "0" * 5000))
    refused(run("encounter", "show", saved), "a number in it has too many digits")


def test_a_scenario_number_of_5000_digits(tmp_path: Path) -> None:
    file = tmp_path / "big.toml"
    file.write_text(DUEL.read_text() + "\nmax_rounds = 1" + "0" * 5000 + "\n")
    for command in (["fight"], ["simulate", "-n", "10"], ["encounter", "start"]):
        extra = ["--save", tmp_path / "x.json"] if command[-1] == "start" else []
        refused(run(*command, file, *extra), "a number has too many digits")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    from tests.web.conftest import make_table

    yield from make_table(tmp_path, rate=10_000, burst=10_000)


def test_the_api_refuses_what_crashed_it(table: Table, saved: Path) -> None:
    for scenario, says in [
        (DUEL.read_text() + "\nmax_rounds = 1" + "0" * 5000, "a number has too many digits"),
        ("a = " + "[" * 3000 + "]" * 3000, "nest too deeply"),
    ]:
        response = table.client.post("/api/encounters", json={"scenario": scenario})
        assert response.status_code == 422 and says in response.json()["detail"]
    text = saved.read_text().replace('"faces": [', '"faces": [Infinity, ', 1)
    response = table.client.post(
        "/api/encounters",
        content='{"record": ' + text + "}",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422 and "damaged record" in response.json()["detail"]


def test_a_long_combatant_name_is_no_path(tmp_path: Path) -> None:
    """quality_d100 looks for catalogs beside the scenario: a 10,000-character name in a
    message string it was given as a source once went to the file system as a path."""
    source = (EXAMPLES / "quality_d100" / "encounters" / "small_duel.toml").read_text()
    file = tmp_path / "long.toml"
    file.write_text(source.replace('name = "Ash"\nside', f'name = "{"A" * 10_000}"\nside', 1))
    res = run("fight", file, "--seed", "1", "--json")
    assert res.exit_code == 0, res.output[-300:]


def test_a_save_name_too_long_for_the_file_system(tmp_path: Path) -> None:
    long = tmp_path / ("x" * 300 + ".json")
    refused(run("encounter", "start", DUEL, "--save", long), "cannot be written (File name")
    for command in (["show"], ["act", "done"], ["undo"]):
        refused(run("encounter", command[0], long, *command[1:]), "cannot be read (File name")


def test_a_save_never_replaces_a_pipe_or_a_device(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for target in (fifo, Path("/dev/null"), tmp_path):
        res = run("encounter", "start", DUEL, "--save", target, "--force")
        refused(res, "not a regular file: firefight replaces only files")
    assert fifo.is_fifo() and Path("/dev/null").is_char_device()
    out = tmp_path / "cells.csv"
    os.mkfifo(out)
    res = run("sweep", KNIFE, "--vary", "combatants.Rook.creature.hp=3,4", "-n", "5",
              "--no-cluster", "--out", out)  # fmt: skip
    refused(res, "is a pipe (FIFO), not a regular file")
    assert out.is_fifo()


SCHEDULER_LINE = (
    "error: --scheduler {!r} is not a scheduler's address (tip: give PROTOCOL://HOST:PORT, "
    "e.g. tcp://10.0.0.5:8786 (see docs/sweeps.md))"
)
SWEEP = [KNIFE, "--vary", "combatants.Rook.creature.hp=3,4", "-n", "5"]


def test_a_scheduler_address_that_is_none_leaves_no_traceback() -> None:
    """Refused before a Dask client is built: no half-built client's clean-up prints a
    traceback when the process ends (it did, seconds after the line)."""
    res = subprocess.run(
        [sys.executable, "-m", "firefight", "sweep", *map(str, SWEEP), "--scheduler", "x y"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [SCHEDULER_LINE.format("x y")]


@pytest.mark.parametrize("address", ["not an address", "", "tcp://", "http://", "tcp://h:0"])
def test_scheduler_addresses_are_checked(address: str) -> None:
    res = run("sweep", *SWEEP, "--scheduler", address)
    assert res.exit_code == 2 and res.output.strip() == SCHEDULER_LINE.format(address)


@pytest.mark.parametrize("ruleset", ["WARFARE2D20", " warfare2d20", "Warfare2d20 "])
def test_ruleset_ids_are_matched_exactly(ruleset: str, tmp_path: Path) -> None:
    refused(run("odds", ruleset, EXAMPLES / "warfare2d20" / "b_ak47_ambush.toml"),
            "did you mean 'warfare2d20'?")  # fmt: skip
    file = tmp_path / "s.toml"
    file.write_text(DUEL.read_text().replace('ruleset = "warfare2d20"', f'ruleset = "{ruleset}"'))
    refused(run("fight", file), "did you mean 'warfare2d20'?")


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("BODY = 6", "BODY = true", "stats.BODY: must be a whole number, not true/false"),
        ("handgun = 5", "handgun = true", "skills.handgun: must be a whole number"),
        ("spare_magazines = 1", "spare_magazines = true", "spare_magazines: must be a whole"),
    ],
)
def test_graydawn_reads_no_true_as_a_number(old: str, new: str, says: str, tmp_path: Path) -> None:
    file = tmp_path / "g.toml"
    text = GRAYDAWN.read_text()
    assert old in text
    file.write_text(text.replace(old, new, 1))
    refused(run("fight", file, "--seed", "1"), says)


def test_a_battlefield_pair_given_twice(tmp_path: Path) -> None:
    file = tmp_path / "s.toml"
    pair = '\n[[battlefield.pairs]]\nbetween = ["Rivera", "Insurgent"]\nrange = "{}"\n'
    file.write_text(DUEL.read_text() + pair.format("close") + pair.format("long"))
    refused(run("fight", file), "battlefield.pairs[1] gives Rivera and Insurgent a range again")


def test_names_that_differ_only_by_spaces_at_their_ends(tmp_path: Path) -> None:
    file = tmp_path / "s.toml"
    file.write_text(DUEL.read_text().replace('name = "Insurgent"', 'name = "Rivera "'))
    refused(run("fight", file), "combatant name 'Rivera ' has spaces at its start or end")


def test_unquoted_words_in_set(tmp_path: Path) -> None:
    attack = EXAMPLES / "warfare2d20" / "b_ak47_ambush.toml"
    refused(run("attack", "warfare2d20", attack, "--set", "title=unquoted words"),
            "text with spaces must be quoted")  # fmt: skip
    ok = run("attack", "warfare2d20", attack, "--set", 'title="quoted words"', "--seed", "1")
    assert ok.exit_code == 0, ok.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--vary", "combatants.Rook.creature.hp=３..４"], "'３' is not one of the digits 0-9"),
        (
            [
                "--vary",
                "combatants.Rook.creature.hp=3..4",
                "--set",
                "combatants.Rook.creature.hp=2",
            ],
            "the field is varied too",
        ),
        (["--vary", "max_rounds=3,4", "--set", "title=two words"], "must be quoted"),
    ],
)
def test_sweep_refuses_what_it_took(args: list[str], says: str) -> None:
    refused(run("sweep", KNIFE, *args, "-n", "5", "--no-cluster"), says)
