"""The CLI on warfare2d20: examples run (attack with --dice/--seed/--json, odds), and bad input
is one clear line, exit 2, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app

from .helpers import EXAMPLES

runner = CliRunner()

SCRIPTS = {
    "a_basic_hit.toml": "4,8,11,4,2,2,1",
    "b_ak47_ambush.toml": "10,17,20,16,10,8,3,8,8,4,7,7",
    "c_moving_to_cover.toml": "4,4,16,16,15,14,19,19,8,8,11,11,7,6,6,9,7,5",
    "d_m249.toml": "12,12,15,14,10,5,11,10,9,9,12,11,10,10,9",
    "e_fire_team_c.toml": "13,13,9,9,6,5,2,3,4",
    "f_mortar.toml": "7,10,18,14,1,18,11,7,10,8,9,9,10,7,8,8,9,6,9,9,7,6,8,8",
    "g_smoke_grenade.toml": "8,8,5,5",
    "h_initiative.toml": "3,4,6,6,7,7,9,8",
}


def test_every_example_is_listed_here() -> None:
    assert {p.name for p in EXAMPLES.glob("*.toml")} == set(SCRIPTS)


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_example_runs_with_its_printed_dice(name: str) -> None:
    """The --dice line in each example's comment is the one tested here."""
    path = EXAMPLES / name
    assert f"--dice {SCRIPTS[name]}" in path.read_text().replace("\\\n#   ", "")
    r = runner.invoke(app, ["attack", "warfare2d20", str(path), "--dice", SCRIPTS[name]])
    assert r.exit_code == 0, r.output
    assert "warning" not in r.stderr


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_example_odds_json(name: str) -> None:
    r = runner.invoke(app, ["odds", "warfare2d20", str(EXAMPLES / name), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["ruleset"] == "warfare2d20" and out["outcomes"]


def test_attack_json_and_seed_are_reproducible() -> None:
    args = ["attack", "warfare2d20", str(EXAMPLES / "b_ak47_ambush.toml"), "--seed", "7", "--json"]
    one, two = runner.invoke(app, args), runner.invoke(app, args)
    assert one.exit_code == 0 and one.stdout == two.stdout
    out = json.loads(one.stdout)
    assert out["transcript"][0]["event"] in ("roll", "note", "modifier")
    assert "result" in out["summary"]


def test_set_overrides_a_field() -> None:
    path = str(EXAMPLES / "b_ak47_ambush.toml")
    r = runner.invoke(
        app,
        [
            "attack",
            "warfare2d20",
            path,
            "--dice",
            "10,17,20,16",
            "--set",
            'target.visibility="hardly visible"',
        ],
    )
    assert r.exit_code == 0, r.output
    assert "delta t = 10 -4 = 6" in r.stdout and "miss" in r.stdout


def test_house_file(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text("base_delta_t = 8\n")
    r = runner.invoke(
        app,
        [
            "attack",
            "warfare2d20",
            str(EXAMPLES / "b_ak47_ambush.toml"),
            "--dice",
            "10,17,20,16",
            "--house",
            str(house),
        ],
    )
    assert r.exit_code == 0, r.output
    assert "house rule: base_delta_t = 8 (the text says 10)" in r.stdout
    assert "9 vs 8 -> failed" in r.stdout


BAD = {
    "unknown weapon": ('weapon = "AK-74"\n[target]\ncombatant = "marine"\n', "AK-47"),
    "unknown armour": (
        'weapon = "AK-47"\n[target]\ncombatant = "marine"\narmour = "kevlar"\n',
        "armour",
    ),
    "missing stat": (
        'weapon = "AK-47"\n[target.combatant]\nname = "x"\nmettle = 1\nendurance = 1\n'
        "dexterity = 1\nhit_points = 10\nstamina = 5\n",
        "pain_threshold",
    ),
    "negative soak": (
        'weapon = "AK-47"\n[target]\ncombatant = "marine"\n'
        '[target.armour]\nname = "odd"\nsoak = "-3d10"\n',
        "soak",
    ),
    "unknown fire mode": (
        'weapon = "M249"\nfire_mode = "single"\n[target]\ncombatant = "marine"\n',
        "fire_mode",
    ),
    "malformed toml": ('weapon = "AK-47\n', "malformed TOML"),
    "unknown kind": ('kind = "artillery"\n', "kind"),
    "unknown shell": (
        'kind = "mortar"\nshell = "82mm"\n[[targets]]\ncombatant = "marine"\ndistance_m = 3\n',
        "shell",
    ),
    "cover without delta c": (
        'weapon = "AK-47"\n[target]\ncombatant = "marine"\ncover = { name = "x", soak = "1d6" }\n',
        "delta_c",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
@pytest.mark.parametrize("command", ["attack", "odds"])
def test_bad_input_is_one_line_exit_2(case: str, command: str, tmp_path: Path) -> None:
    text, needle = BAD[case]
    path = tmp_path / "bad.toml"
    path.write_text(text)
    r = runner.invoke(app, [command, "warfare2d20", str(path)])
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), r.stderr
    assert needle in lines[0]
    assert "Traceback" not in r.output


def test_script_too_short_is_one_line() -> None:
    r = runner.invoke(
        app, ["attack", "warfare2d20", str(EXAMPLES / "b_ak47_ambush.toml"), "--dice", "10,17"]
    )
    assert r.exit_code == 2
    assert r.stderr.startswith("error: --dice gave 2 faces; this resolution needs")


def test_suppress_command_takes_cover_fire_files() -> None:
    path = str(EXAMPLES / "d_m249.toml")
    dice = SCRIPTS["d_m249.toml"]
    r = runner.invoke(
        app,
        ["suppress", "warfare2d20", path, "--set", "kind=suppression", "--dice", dice, "--json"],
    )
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)["summary"]
    assert summary["enemy by the rocks 1: suppressed"] is True
    plain = runner.invoke(app, ["suppress", "warfare2d20", path])
    assert plain.exit_code == 2 and "suppression" in plain.stderr
