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


# ------------------------------------------------------------- 6: 4-8 for 4..8


def test_a_dashed_range_points_to_two_dots() -> None:
    goblins = f"{EX}/dragonwarriors2/encounters/goblin_duel.toml"
    assert refusal(f"sweep {goblins} --vary combatants.Snag.attack=4-8 -n 10 --no-cluster") == (
        "error: --vary combatants.Snag.attack=4-8: 4-8 is not a range (tip: write 4..8 for 4 to "
        "8 (both included); for the text, quote it: '\"4-8\"')"
    )


# ------------------------------------------------------------- 7: ids, a finished fight, dice


def test_action_ids_have_no_spaces_and_old_records_still_load(tmp_path: Path) -> None:
    old = tmp_path / "old.json"  # saved when ids had spaces: "take cover", "fire:Team leader:..."
    old.write_text((ROOT / "tests/encounter/data/ambush_spaced_ids.json").read_text("utf-8"))
    steps = [s["action"] for s in json.loads(old.read_text("utf-8"))["steps"]]
    assert steps == ["fire:Team leader:single", "take cover"]
    code, out, err = run(f"encounter actions {old} --json")
    assert code == 0, err
    ids = [a["id"] for a in json.loads(out)]
    assert "take_cover" in ids and "fire:Team_leader:automatic" in ids
    assert not [i for i in ids if " " in i]
    code, _, err = run(f"encounter act {old} take_cover --seed 1")
    assert code == 0, err
    assert json.loads(old.read_text("utf-8"))["steps"][-1]["action"] == "take_cover"
    line = refusal(f"encounter act {old} take cover")
    assert line.endswith(
        "(tip: action ids have no spaces: take_cover, as `firefight encounter "
        "actions FILE` lists them)"
    ), line


def test_actions_of_a_finished_fight_say_it_is_over(tmp_path: Path) -> None:
    save = tmp_path / "goblins.json"
    goblins = f"{EX}/dragonwarriors2/encounters/goblin_duel.toml"
    assert run(f"encounter start {goblins} --save {save} --seed 1")[0] == 0
    assert run(f"encounter auto {save} --seed 1")[0] == 0
    code, out, err = run(f"encounter actions {save}")
    assert code == 0 and not err
    assert " ".join(out.split()) == (
        "fight over after round 1: won by Grub; no actions left (`firefight encounter undo "
        "FILE` takes back the last step)"
    )
    assert run(f"encounter actions {save} --json")[:2] == (0, "[]\n")


def test_an_unquoted_expression_with_spaces_suggests_quotes() -> None:
    assert refusal("roll 2d6 + 3") == (
        "error: firefight roll: unexpected words after the expression (+ 3) "
        "(tip: quote an expression with spaces: firefight roll '2d6 + 3')"
    )


def test_k_keeps_the_highest() -> None:
    code, out, _ = run("dist 4d6k3 --json")
    kh = json.loads(run("dist 4d6kh3 --json")[1])
    assert code == 0 and json.loads(out)["outcomes"] == kh["outcomes"]
    code, out, _ = run("roll 4d6k3 --seed 1")
    assert code == 0 and out.startswith("4d6kh3[")


# ------------------------------------------------------------- 8: words for people


def test_a_side_wins_in_plain_words() -> None:
    code, out, _ = run(f"simulate {DUEL} -n 50 --seed 1")
    assert code == 0 and "won by marines" in out and "wins" not in out.split("who wins")[1]


def test_one_step_is_singular(tmp_path: Path) -> None:
    save = tmp_path / "goblins.json"
    goblins = f"{EX}/dragonwarriors2/encounters/goblin_duel.toml"
    run(f"encounter start {goblins} --save {save} --seed 1")
    run(f"encounter auto {save} --steps 1 --seed 1")
    code, out, _ = run(f"encounter show {save}")
    assert code == 0 and out.splitlines()[0].endswith("(dragonwarriors2, 1 step)")


def test_keys_read_as_words_in_every_ruleset() -> None:
    code, out, _ = run(f"odds graydawn {EX}/graydawn/sniper_head.toml")
    assert code == 0
    for words in ("killed outright (head)", "death save needed", "left arm", "wound kind"):
        assert words in out, words
    code, out, _ = run(f"odds warfare2d20 {AMBUSH}")
    assert "HP damage" in out and "p_dead" not in out and "hp_damage" not in out
    code, out, _ = run(f"attack quality_d100 {EX}/quality_d100/evading_parry.toml --seed 1")
    assert "FT damage" in out and "attack quality" in out and "possible grievous" in out
    assert "ft_damage" not in out and "attack_quality" not in out


def test_long_exact_fractions_are_left_to_json() -> None:
    code, out, _ = run(f"simulate {EX}/tactical_d20/encounters/knife_duel.toml --exact")
    assert code == 0
    table = out.split("rounds to finish")[0]
    assert "in --json" in table and max(len(line) for line in table.splitlines()) <= 80


def test_help_shows_no_type_placeholders() -> None:
    import re

    commands = ["roll", "dist", "attack", "suppress", "odds", "table", "rulesets", "fight"]
    commands += ["simulate", "sweep", "serve", "encounter"]
    commands += [f"encounter {c}" for c in ("start", "actions", "act", "auto", "undo", "show")]
    for command in commands:
        text = run(f"{command} --help")[1]
        assert not re.search(r"<(?!ruleset>)[a-z][^>]*>", text), (command, text)
        assert "{" not in text.splitlines()[0], command


# ------------------------------------------------------------- 9: files as the umask says


def test_files_are_written_as_the_umask_says(tmp_path: Path) -> None:
    import os
    import stat

    def mode(path: Path) -> int:
        return stat.S_IMODE(path.stat().st_mode)

    old = os.umask(0o022)
    try:
        png, save = tmp_path / "d.png", tmp_path / "goblins.json"
        assert run(f"dist 2d6 --plot {png}")[0] == 0
        goblins = f"{EX}/dragonwarriors2/encounters/goblin_duel.toml"
        assert run(f"encounter start {goblins} --save {save} --seed 1")[0] == 0
        table = tmp_path / "t.csv"
        assert (
            run(f"sweep {goblins} --vary max_rounds=1,2 -n 20 --no-cluster --out {table}")[0] == 0
        )
        assert [mode(p) for p in (png, save, table)] == [0o644] * 3
        save.chmod(0o600)  # a file's own mode is kept when it is written again
        assert run(f"encounter auto {save} --steps 1 --seed 1")[0] == 0
        assert mode(save) == 0o600
        os.umask(0o077)
        private = tmp_path / "p.png"
        assert run(f"dist 2d6 --plot {private}")[0] == 0
        assert mode(private) == 0o600
    finally:
        os.umask(old)
