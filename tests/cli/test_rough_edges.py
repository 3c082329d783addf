"""The command line's rough edges a newcomer met, each held by its exact command and the one line
it answers with (a refusal: ``error: ... (tip: ...)``, exit 2) or the output it now gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
EX = "examples"
AMBUSH = f"{EX}/warfare2d20/b_ak47_ambush.toml"
DUEL = f"{EX}/warfare2d20/encounters/duel.toml"


@pytest.fixture(autouse=True)
def _in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def run(line: str) -> tuple[int, str, str]:
    """``firefight ARGS`` (split like a shell without quotes): exit code, stdout, stderr."""
    import shlex

    res = CliRunner().invoke(app, shlex.split(line))
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res.exit_code, res.stdout, res.stderr


def refusal(line: str) -> str:
    """The one line a refused command prints (exit 2)."""
    code, _, err = run(line)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (code, err)
    return lines[0]


# ------------------------------------------------------------- 1, 2: --set paths, removal


@pytest.mark.parametrize(
    ("ruleset", "file", "path"),
    [
        ("warfare2d20", "b_ak47_ambush", "target.armour"),
        ("graydawn", "burst_smg", "target.armour"),
        ("dragonwarriors2", "knight_vs_squire", "defender.armour"),
        ("quality_d100", "evading_parry", "defender.armour"),
        ("tactical_d20", "coach_gun_buckshot", "ammo"),
    ],
)
def test_set_path_with_nothing_after_the_equals_removes_the_field(
    ruleset: str, file: str, path: str
) -> None:
    line = f"odds {ruleset} {EX}/{ruleset}/{file}.toml --json"
    code, before, _ = run(line)
    code_removed, after, err = run(f"{line} --set {path}=")
    assert code == 0 and code_removed == 0, err
    assert json.loads(before) != json.loads(after)


def test_set_none_where_a_name_belongs_tips_the_removal() -> None:
    line = refusal(f"attack warfare2d20 {AMBUSH} --set target.armour=none")
    assert line == (
        f"error: {AMBUSH}: field target.armour: unknown armour 'none' (tip: valid armour: body "
        "armour, helmet, light vest, plate carrier; --set target.armour= (nothing after '=') "
        "removes the field)"
    )


def test_a_list_where_an_armour_belongs_tips_an_armour() -> None:
    line = refusal(f"attack warfare2d20 {AMBUSH} --set target.armour=[]")
    assert line == (
        f"error: {AMBUSH}: field target.armour: must be text, not a list (tip: put it in quotes, "
        'e.g. armour = "body armour"; for none, leave it out (--set target.armour= removes it))'
    )


def test_removing_a_field_the_file_lacks_names_the_near_one() -> None:
    line = refusal(f"attack warfare2d20 {AMBUSH} --set target.armor=")
    assert line.endswith("there is no target.armor to remove (tip: did you mean 'armour'?)"), line


def test_combatants_are_addressed_by_name_in_simulate_as_in_sweep() -> None:
    line = refusal(f"simulate {DUEL} --set combatants.Rivera.armour=none")
    assert "combatants.Rivera.armour: unknown armour 'none'" in line
    assert "--set combatants.Rivera.armour= (nothing after '=') removes the field" in line
    code, out, err = run(f"simulate {DUEL} --set combatants.Rivera.armour= -n 50 --seed 1")
    assert code == 0 and "who wins" in out, err
    line = refusal(f"fight {DUEL} --set combatants.Rivvera.armour=")
    assert "has no combatant 'Rivvera' (tip: combatants: Rivera, Insurgent)" in line


# ------------------------------------------------------------- 3: the wrong kind of file


def test_a_situation_of_another_ruleset_is_named_as_such() -> None:
    assert refusal(f"attack graydawn {AMBUSH}") == (
        f"error: {AMBUSH}: is a warfare2d20 file, not a graydawn one "
        f"(tip: resolve it with firefight attack warfare2d20 {AMBUSH})"
    )


def test_simulate_on_a_situation_file_says_what_it_is() -> None:
    line = refusal(f"simulate {AMBUSH}")
    assert line.startswith(
        f"error: {AMBUSH}: is a warfare2d20 situation file (for attack or odds), not a scenario "
        f"(tip: resolve it with firefight attack warfare2d20 {AMBUSH}; a fight needs a scenario"
    ), line


def test_attack_on_a_scenario_file_says_what_it_is() -> None:
    line = refusal(f"attack warfare2d20 {DUEL}")
    assert line.startswith(f"error: {DUEL}: is a scenario file (a whole fight), not a situation")


# ------------------------------------------------------------- 4: misspelt keys, short lists


def test_a_misspelt_key_leads_with_did_you_mean(tmp_path: Path) -> None:
    text = (ROOT / AMBUSH).read_text(encoding="utf-8").replace("weapon =", "wepon =")
    f = tmp_path / "ambush.toml"
    f.write_text(text, encoding="utf-8")
    assert refusal(f"attack warfare2d20 {f}") == (
        f"error: {f}: field wepon: unknown key 'wepon' (tip: did you mean 'weapon'?)"
    )


def test_a_short_list_of_names_is_shown_whole() -> None:
    line = refusal(f"attack warfare2d20 {AMBUSH} --set target.armour=vest")
    assert line.endswith(
        "(tip: did you mean 'light vest'? valid armour: body armour, helmet, light vest, "
        "plate carrier)"
    ), line
