"""The generic CLI on dragonwarriors2 situations: scripted dice, odds JSON, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app

from .conftest import EXAMPLES

RUNNER = CliRunner()
ROLF = str(EXAMPLES / "rolf_vs_lennox.toml")
PRINTED = "1,5,1,4,1,2,2,1,6,1,1,1,4,1,2,3,1,6,5,1,1,5,1,2,1,3,1,4,1,3,3,3,6,1,1,6,3,1"


def test_attack_with_the_printed_dice() -> None:
    res = RUNNER.invoke(app, ["attack", "dragonwarriors2", ROLF, "--dice", PRINTED, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["summary"]["Lennox"]["wounds"] == 16
    assert data["summary"]["Lennox"]["stunned"] is True
    assert "unused_faces" not in data


def test_attack_text_transcript_names_rules() -> None:
    res = RUNNER.invoke(app, ["attack", "dragonwarriors2", ROLF, "--dice", PRINTED])
    assert res.exit_code == 0
    assert "Lennox stun check (Toughness vs Wounds + 5): 9 vs 9 -> passed (D06)" in res.stdout


def test_set_override_and_seed() -> None:
    path = str(EXAMPLES / "knight_vs_squire.toml")
    args = ["attack", "dragonwarriors2", path, "--seed", "5", "--json"]
    res = RUNNER.invoke(app, [*args, "--set", "defender.armour=plate"])
    assert res.exit_code == 0, res.output
    again = RUNNER.invoke(app, [*args, "--set", "defender.armour=plate"])
    assert json.loads(res.stdout) == json.loads(again.stdout)


def test_odds_json() -> None:
    path = str(EXAMPLES / "knight_vs_squire.toml")
    res = RUNNER.invoke(app, ["odds", "dragonwarriors2", path, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert 0.7 < data["p_hit_float"] < 0.9
    assert data["damage"] and data["counter_damage"]
    assert data["truncated_mass"] < 1e-9


def test_house_rule_changes_the_stun_target(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text("stun_target_bonus = 3\n")
    res = RUNNER.invoke(
        app, ["attack", "dragonwarriors2", ROLF, "--dice", PRINTED, "--house", str(house)]
    )
    assert res.exit_code == 0, res.output
    assert "house rule: stun_target_bonus = 3 (the text says 5)" in res.stdout
    assert "(Toughness vs Wounds + 3): 9 vs 7" in res.stdout


BAD = {
    "missing toughness": ('kind = "exchange"\n[attacker]\nname="A"\nattack=1\ndefence=1\n'
                          '[defender]\nname="B"\nattack=1\ndefence=1\ntoughness=1\n',
                          "attacker.toughness"),
    "unknown weapon": ('[attacker]\nname="A"\nattack=1\ndefence=1\ntoughness=1\nweapon="lance"\n'
                       '[defender]\nname="B"\nattack=1\ndefence=1\ntoughness=1\n',
                       "unknown weapon 'lance'"),
    "bad riposte": ('[attacker]\nname="A"\nattack=1\ndefence=1\ntoughness=1\nriposte="often"\n'
                    '[defender]\nname="B"\nattack=1\ndefence=1\ntoughness=1\n',
                    "attacker.riposte"),
    "negative attack": ('[attacker]\nname="A"\nattack=-2\ndefence=1\ntoughness=1\n'
                        '[defender]\nname="B"\nattack=1\ndefence=1\ntoughness=1\n',
                        "attacker.attack"),
    "bad kind": ('kind = "duel"\n', "kind"),
    "same names": ('[attacker]\nname="A"\nattack=1\ndefence=1\ntoughness=1\n'
                   '[defender]\nname="A"\nattack=1\ndefence=1\ntoughness=1\n',
                   "defender.name"),
    "malformed": ("[attacker\n", "malformed TOML"),
    "dead attacker": ('[attacker]\nname="A"\nattack=1\ndefence=1\ntoughness=1\ndead=true\n'
                      '[defender]\nname="B"\nattack=1\ndefence=1\ntoughness=1\n',
                      "A is dead"),
    "unknown fighter": ('kind="fight"\n[[combatants]]\nname="A"\nattack=1\ndefence=1\n'
                        'toughness=1\n[[combatants]]\nname="B"\nattack=1\ndefence=1\n'
                        'toughness=1\n[[turns]]\nexchanges=[{attacker="A", defender="C"}]\n',
                        "no combatant 'C'"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD))
@pytest.mark.parametrize("command", ["attack", "odds"])
def test_bad_input_is_one_line_exit_2(tmp_path: Path, case: str, command: str) -> None:
    text, expected = BAD[case]
    path = tmp_path / "bad.toml"
    path.write_text(text)
    res = RUNNER.invoke(app, [command, "dragonwarriors2", str(path)])
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("error:")
    assert expected in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert "Traceback" not in res.output


def test_scripted_dice_running_out_is_one_line() -> None:
    res = RUNNER.invoke(app, ["attack", "dragonwarriors2", ROLF, "--dice", "1,5,1"])
    assert res.exit_code == 2
    assert res.stderr.startswith("error: --dice gave 3 faces; this resolution needs")
    assert "Lennox: initiative" in res.stderr
