"""The generic CLI on tactical_d20 files: scripted dice, odds JSON, illegal and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app

from .helpers import EXAMPLES

RUN = CliRunner()


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return RUN.invoke(app, [str(a) for a in args])


def test_worked_example_with_table_dice() -> None:
    res = invoke(
        "attack",
        "tactical_d20",
        EXAMPLES / "coach_gun_buckshot.toml",
        "--dice",
        "20,3,5,5",
        "--json",
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)["summary"]
    assert summary["attack roll"] == 24
    assert summary["result"] == "critical hit"
    assert summary["hp lost"] == 13


def test_house_file_reproduces_the_printed_smg_damage() -> None:
    res = invoke(
        "attack", "tactical_d20", EXAMPLES / "smg_burst_head.toml",
        "--dice", "11,4,1", "--house", EXAMPLES / "house" / "printed_smg.toml", "--json",
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["summary"]["attack roll"] == 13
    assert data["summary"]["hp lost"] == 5
    assert data["transcript"][0]["event"] == "house_rule"


def test_odds_json() -> None:
    res = invoke("odds", "tactical_d20", EXAMPLES / "smg_burst_head.toml", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["p_hit"] == "11/20"  # 4 + 3 - 5 = +2 vs 12: d20 >= 10
    assert {"value", "p", "p_float"} <= set(data["damage"][0])
    assert data["p_critical"] == "1/20"


def test_suppress_command_and_set_override() -> None:
    res = invoke(
        "suppress", "tactical_d20", EXAMPLES / "suppress_crossing.toml", "--dice", "20", "--json"
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["summary"]["result"] == "pass"
    res = invoke(
        "odds",
        "tactical_d20",
        EXAMPLES / "suppress_crossing.toml",
        "--set",
        "distance=60",
        "--json",
    )
    assert json.loads(res.stdout)["outcomes"] == {"outside": "1/1"}


def one_line_error(res, text: str) -> None:  # type: ignore[no-untyped-def]
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("error: ")
    assert text in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert "Traceback" not in res.output


@pytest.mark.parametrize(
    ("sets", "text"),
    [
        (["distance=60"], "first range threshold"),
        (['weapon="pistol"', 'mode="double_burst"', "distance=10"], "double burst"),
        (["loaded=2"], "has 2 loaded"),
        (['region="nose"'], "field region"),
        (['weapon="smgg"'], "did you mean 'smg'"),
        (["distance=-5"], "field distance"),
        (['kind="duel"'], "unknown situation kind 'duel'"),
        (['attacker={use="operator",skills={firearms="four"}}'], "skills.firearms"),
        (['attacker={use="operator",agilty=3}'], "agilty"),
        (['targets=["raider"]'], "not both"),
    ],
)
def test_illegal_or_bad_input_is_one_line_exit_2(sets: list[str], text: str) -> None:
    args = [a for s in sets for a in ("--set", s)]
    res = invoke("attack", "tactical_d20", EXAMPLES / "smg_burst_head.toml", *args)
    one_line_error(res, text)


def test_a_fifth_action_via_the_cli(tmp_path: Path) -> None:
    plan = tmp_path / "turn.toml"
    plan.write_text(
        'kind = "turn"\nactor = "operator"\n'
        + '[[steps]]\ndo = "move"\n' * 3
        + '[[steps]]\ndo = "attack"\ntarget = "raider"\nweapon = "pistol"\ndistance = 10\n'
    )
    one_line_error(invoke("attack", "tactical_d20", plan), "4 are spent")


def test_suppressing_fire_with_10_rounds_via_the_cli() -> None:
    res = invoke(
        "suppress", "tactical_d20", EXAMPLES / "suppress_crossing.toml", "--set", "loaded=10"
    )
    one_line_error(res, "uses 15 rounds but smg has 10 loaded")


def test_bad_files(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("attacker = \n")
    one_line_error(invoke("attack", "tactical_d20", broken), "malformed TOML")
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    one_line_error(invoke("attack", "tactical_d20", empty), "attacker")
    weapon = tmp_path / "weapon.toml"
    weapon.write_text(
        'attacker = "operator"\ntarget = "raider"\n[weapon]\nname = "blaster"\ndamage = "lots"\n'
    )
    one_line_error(invoke("attack", "tactical_d20", weapon), "damage")
    one_line_error(invoke("odds", "tactical_d20", tmp_path / "missing.toml"), "no such file")


def test_scripted_dice_that_run_out() -> None:
    res = invoke("attack", "tactical_d20", EXAMPLES / "rifle_single_torso.toml", "--dice", "18")
    one_line_error(res, "--dice gave 1 face; this resolution needs")


def test_user_catalog_adds_a_weapon(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(
        '[weapons.lmg]\ndamage = "2d6"\nfire = "auto"\nranges = [80, 200]\nmagazine = 100\n'
    )
    sit = tmp_path / "s.toml"
    sit.write_text(
        'catalogs = ["mine.toml"]\nattacker = "operator"\ntarget = "raider"\n'
        'weapon = "lmg"\nmode = "double_burst"\ndistance = 40\n'
    )
    res = invoke("attack", "tactical_d20", sit, "--dice", "10,3,3,6", "--json")
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)["summary"]
    assert summary["attack roll"] == 20
    assert summary["damage rolled"] == 12
    assert summary["rounds left"] == 95
