"""The generic CLI on quality_d100: attack, odds, table; bad input is one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "quality_d100"
SITUATIONS = sorted(p for p in EXAMPLES.glob("*.toml") if "house" not in p.name)
runner = CliRunner()


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("path", SITUATIONS, ids=lambda p: p.stem)
def test_every_example_resolves_and_has_odds(path: Path) -> None:
    res = invoke("attack", "quality_d100", path, "--seed", "5", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["summary"]
    res = invoke("odds", "quality_d100", path, "--json")
    assert res.exit_code == 0, res.output
    assert "outcomes" in json.loads(res.stdout)


def test_attack_with_table_dice_prints_the_transcript() -> None:
    res = invoke("attack", "quality_d100", EXAMPLES / "melee_broadsword.toml", "--dice", "5,50,7")
    assert res.exit_code == 0, res.output
    assert "result quality 4 - 0 = 4: Decisive (4)" in res.stdout
    assert "possible specific grievous injury" in res.stdout


def test_odds_json_fields() -> None:
    res = invoke("odds", "quality_d100", EXAMPLES / "high_chance_grievous.toml", "--json")
    out = json.loads(res.stdout)
    assert out["p_hit"] == "47/50"
    assert next(iter(out["outcomes"])) == "Poor" and "Fantastic" in out["outcomes"]
    for key in ("damage", "ft_damage", "en_damage", "p_possible_grievous", "p_grievous_injury"):
        assert key in out


def test_house_file_and_set_override() -> None:
    res = invoke(
        "attack",
        "quality_d100",
        EXAMPLES / "melee_broadsword.toml",
        "--dice",
        "1,50,4",
        "--set",
        "attacker.strike_chance=3",
        "--set",
        "attacker.weapon=dagger",
        "--set",
        "attacker.rank=0",
        "--set",
        "attacker.manual_dexterity=0",
        "--house",
        EXAMPLES / "house" / "house_rules_example.toml",
        "--json",
    )
    # strike chance given: 3; printed row 1 gives Crucial at chance 3 -> vs Poor: result 3
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["summary"]["attack_quality"] == "Crucial (3)"
    assert out["summary"]["en_damage"] == 2  # dagger d6 4 - EN 2 (chainmail)
    assert any(e["event"] == "house_rule" for e in out["transcript"])


def test_table_command_rules_and_printed() -> None:
    res = invoke("table", "quality_d100", "--rows", "1-2", "--json")
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)["rows"]
    assert rows[0] == ["1", "-", "-", "-", "1-100", "101-200", "201+"]
    res = invoke("table", "quality_d100", "--rows", "1", "--printed", "--json")
    assert json.loads(res.stdout)["rows"] == [["1", "1", "2", "3-4", "5-100", "101-200", "201+"]]
    res = invoke("table", "quality_d100")
    assert res.exit_code == 0 and "246-490" in res.stdout


def test_table_command_follows_a_house_rule_file() -> None:
    house = EXAMPLES / "house" / "house_rules_example.toml"
    res = invoke("table", "quality_d100", "--rows", "1", "--house", str(house), "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["rows"] == [["1", "1", "2", "3-4", "5-100", "101-200", "201+"]]
    res = invoke("table", "quality_d100", "--rows", "1", "--house", "nope.toml")
    assert res.exit_code == 2
    assert "nope.toml: no such file" in res.stderr


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ('[attacker]\nweapon = "brodsword"\n[defender]\n', "did you mean 'broadsword'"),
        (
            'mode = "melee"\n[attacker]\nstrike_chance = 50\ndamage = "d6"\naim = true\n',
            "attacker.aim",
        ),
        ('[attacker]\nstrike_chance = 50\ndamage = "d6+"\n', "attacker.damage"),
        ('[attacker]\nstrike_chance = 50\ndamage = "d10x"\n', "no maximum"),
        ('[attacker]\nstrike_chance = 50\ndamage = "d6"\nbogus = 1\n', "attacker.bogus"),
        ('[attacker]\nstrike_chance = "high"\n', "attacker.strike_chance"),
        ("[attacker]\n", "give strike_chance or a weapon"),
        ('kind = "suppression"\n', "kind"),
        (
            '[attacker]\nstrike_chance = 5\ndamage = "d6"\n[defender]\nhex = "side"\n',
            "defender.hex",
        ),
        (
            '[attacker]\nstrike_chance = 5\ndamage = "d6"\n[grievous]\nchance = 150\n',
            "grievous.chance",
        ),
    ],
)
def test_bad_situation_is_one_line_exit_2(tmp_path: Path, text: str, expect: str) -> None:
    res = invoke("attack", "quality_d100", write(tmp_path, text), "--seed", "1")
    assert res.exit_code == 2
    assert res.stderr.startswith("error:") and expect in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert "Traceback" not in res.output


def test_bad_table_rows_and_house_and_dice(tmp_path: Path) -> None:
    for args in (
        ("table", "quality_d100", "--rows", "150-200"),
        ("table", "quality_d100", "--rows", "x"),
        ("attack", "quality_d100", EXAMPLES / "melee_broadsword.toml", "--dice", "0,5"),
        (
            "attack",
            "quality_d100",
            EXAMPLES / "melee_broadsword.toml",
            "--house",
            write(tmp_path, "percent_of_nothing = 3\n"),
        ),
        ("odds", "quality_d100", tmp_path / "missing.toml"),
    ):
        res = invoke(*args)
        assert res.exit_code == 2, args
        assert res.stderr.startswith("error:")
        assert "Traceback" not in res.output
