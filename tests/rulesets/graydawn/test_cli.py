"""The CLI on graydawn attack situations: transcripts, scripted dice, JSON odds, bad input."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "graydawn"
RUNNER = CliRunner()


def run(*args: str):  # type: ignore[no-untyped-def]
    return RUNNER.invoke(app, list(args))


def attack_examples() -> list[Path]:
    return sorted(p for p in EXAMPLES.glob("*.toml") if not p.name.startswith("suppress"))


@pytest.mark.parametrize("path", attack_examples(), ids=lambda p: p.stem)
def test_every_attack_example_resolves_and_has_odds(path: Path) -> None:
    result = run("attack", "graydawn", str(path), "--seed", "11")
    assert result.exit_code == 0, result.output
    odds = run("odds", "graydawn", str(path), "--json")
    assert odds.exit_code == 0, odds.output
    data = json.loads(odds.stdout)
    assert data["ruleset"] == "graydawn"


def test_attack_transcript_names_rolls_and_rules() -> None:
    result = run("attack", "graydawn", str(EXAMPLES / "rifle_vs_cover.toml"), "--seed", "3")
    assert result.exit_code == 0
    assert "attack roll (G02/G04)" in result.stdout
    assert "(G39)" in result.stdout


def test_scripted_dice_and_json() -> None:
    # 15 + 10,4 = 29 vs 9 + 6 = 15; location 1 (head, exposed in active cover); 4d6+1 = 5;
    # 5 - 2 = 3 doubled to 6 marks; stun save 2
    path = str(EXAMPLES / "rifle_vs_cover.toml")
    result = run("attack", "graydawn", path, "--dice", "10,4,6,1,1,1,1,1,2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["summary"]["location"] == "head"
    assert data["summary"]["damage (marks added)"] == 6
    assert data["dice"] == "scripted"


def test_odds_json_shape_for_full_auto() -> None:
    result = run("odds", "graydawn", str(EXAMPLES / "full_auto_30.toml"), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"p_hit", "hits", "damage", "location", "p_graze", "p_stunned"} <= set(data)
    assert max(row["value"] for row in data["hits"]) == 30


def test_set_override() -> None:
    path = str(EXAMPLES / "rifle_vs_cover.toml")
    result = run("odds", "graydawn", path, "--set", "attack.range_m=250", "--json")
    assert result.exit_code == 0
    far = json.loads(result.stdout)["p_hit_float"]
    near = json.loads(run("odds", "graydawn", path, "--json").stdout)["p_hit_float"]
    assert far < near


BAD = [
    ({"attacker.weapon": '"laser rifle"'}, "unknown weapons 'laser rifle'"),
    ({"attacker.weapon": '"smgg"'}, "did you mean"),
    ({"attack.mode": '"burst"', "attacker.weapon": '"hunting rifle"'}, "no burst mode"),
    ({"attack.range_m": "5000"}, "beyond"),
    ({"attack.mode": '"aimed"'}, "aim_location"),
    ({"attack.mode": '"aimed"', "attack.aim_location": '"head"'}, "bracing"),
    ({"attack.mode": '"full_auto"', "attack.rounds": "60"}, "ROF"),
    ({"attacker.weapon.damage": '"2d7"'}, "damage"),
    ({"attack.colour": '"red"'}, "attack.colour"),
    ({"target.cover": '{ name = "brik wall" }'}, "did you mean"),
    ({"attacker.stats.REF": "-3"}, "attacker.stats.REF"),
    ({"kind": '"duel"'}, "kind"),
    ({"luck.attacker.reroll": '["everything"]'}, "luck.attacker.reroll"),
    ({"house.graze_tn": "10"}, "--house"),
    ({"attacker.weapon": '"club"'}, "needs a firearm"),
    ({"attacker.weapon": '"pump shotgun"', "attack.range_m": "60"}, "no extreme range"),
]


@pytest.mark.parametrize(("sets", "message"), BAD)
def test_bad_input_is_one_clear_line_and_exit_2(sets: dict[str, str], message: str) -> None:
    args = ["odds", "graydawn", str(EXAMPLES / "rifle_vs_cover.toml")]
    for key, value in sets.items():
        args += ["--set", f"{key}={value}"]
    result = run(*args)
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert err.startswith("error:") and "\n" not in err
    assert message in err
    assert "Traceback" not in result.output


def test_missing_file_and_bad_dice() -> None:
    result = run("attack", "graydawn", str(EXAMPLES / "nope.toml"))
    assert result.exit_code == 2 and "no such file" in result.stderr
    path = str(EXAMPLES / "rifle_vs_cover.toml")
    short = run("attack", "graydawn", path, "--dice", "5")
    assert short.exit_code == 2 and "--dice gave 1 face; this resolution needs" in short.stderr


def test_house_rules_file_changes_numbers_and_says_so() -> None:
    path = str(EXAMPLES / "rifle_vs_cover.toml")
    house = str(EXAMPLES / "house" / "tough_cover.toml")
    result = run("attack", "graydawn", path, "--seed", "3", "--house", house)
    assert result.exit_code == 0, result.output
    assert "house rule: cover_sp_per_level = 5 (the text says 4)" in result.stdout
    assert "house rule: suppression.check_tn_max = 25 (the text says 30)" in result.stdout
    plain = json.loads(run("odds", "graydawn", path, "--json").stdout)
    tough = json.loads(run("odds", "graydawn", path, "--json", "--house", house).stdout)
    stopped = "hit, stopped by cover/armour"
    assert Fraction(tough["outcomes"][stopped]) > Fraction(plain["outcomes"][stopped])
    bad = run("odds", "graydawn", path, "--house", path)
    assert bad.exit_code == 2 and "house rules" in bad.stderr
