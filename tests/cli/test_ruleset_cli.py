"""The generic ruleset commands' rendering: what a game master reads at the table."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from firefight.cli.app import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ROLF_VS_LENNOX = "1,5,1,4,1,2,2,1,6,1,1,1,4,1,2,3,1,6,5,1,1,5,1,2,1,3,1,4,1,3,3,3,6,1,1,6,3,1"


def test_summary_renders_tables_and_flags_for_people() -> None:
    path = EXAMPLES / "dragonwarriors2" / "rolf_vs_lennox.toml"
    res = CliRunner().invoke(
        app, ["attack", "dragonwarriors2", str(path), "--dice", ROLF_VS_LENNOX]
    )
    assert res.exit_code == 0, res.output
    assert "wounds 16, stunned yes, knocked out no, dead no" in res.stdout
    assert "{'" not in res.stdout


def test_odds_table_shows_short_fractions_exactly_and_long_ones_as_floats() -> None:
    path = EXAMPLES / "dragonwarriors2" / "knight_vs_squire.toml"
    res = CliRunner().invoke(app, ["odds", "dragonwarriors2", str(path)])
    assert res.exit_code == 0, res.output
    assert "~0.805" in res.stdout
    fractions = [w for line in res.stdout.splitlines() for w in line.split() if "/" in w]
    assert all(len(w) <= 24 for w in fractions), "no 1,000-digit fraction floods the table"
    path = EXAMPLES / "warfare2d20" / "b_ak47_ambush.toml"
    res = CliRunner().invoke(app, ["odds", "warfare2d20", str(path)])
    assert "9971/16000" in res.stdout


def test_unused_scripted_faces_are_refused() -> None:
    """Extra faces mean the script does not match the table's rolls: exit 2, not a warning."""
    path = EXAMPLES / "warfare2d20" / "a_basic_hit.toml"
    res = CliRunner().invoke(
        app, ["attack", "warfare2d20", str(path), "--dice", "4,8,11,4,2,2,1,9,9,9"]
    )
    assert res.exit_code == 2, res.output
    assert "3 faces more than this resolution rolls: [9, 9, 9] (it rolls 7)" in res.stderr
    assert res.stdout == ""


def test_too_few_scripted_faces_say_how_many_in_all() -> None:
    """Not "at least 3", then "at least 5": how many in all, and what each missing die is for."""
    path = EXAMPLES / "warfare2d20" / "b_ak47_ambush.toml"
    faces = "10,17,20,16,10,8,3,8,8"
    res = CliRunner().invoke(app, ["attack", "warfare2d20", str(path), "--dice", faces])
    assert res.exit_code == 2
    assert res.stderr == (
        "error: --dice gave 9 faces; this resolution needs 10 to 12 in all, depending on what "
        "they show: next 10 1d10 for 'soak body armour 3d10 (W06)' (2 of its 3 dice given), then "
        "for example 11-12 2d10 for 'endurance check for point man: 2d10 vs 13 (W09)' (tip: give "
        "every face in transcript order, or use --ask to be asked roll by roll)\n"
    )


def test_seed_and_dice_together_are_refused() -> None:
    path = EXAMPLES / "warfare2d20" / "a_basic_hit.toml"
    res = CliRunner().invoke(
        app, ["attack", "warfare2d20", str(path), "--seed", "1", "--dice", "4"]
    )
    assert res.exit_code == 2
    assert res.stderr.startswith("error: --seed and --dice both given")


def test_suppress_refuses_an_attack_file_and_a_ruleset_without_suppression() -> None:
    runner = CliRunner()
    res = runner.invoke(
        app, ["suppress", "graydawn", str(EXAMPLES / "graydawn" / "burst_smg.toml")]
    )
    assert res.exit_code == 2
    assert "its kind is 'attack', not 'suppression'" in res.stderr
    bow = EXAMPLES / "dragonwarriors2" / "bow_shot.toml"
    res = runner.invoke(app, ["suppress", "dragonwarriors2", str(bow)])
    assert res.exit_code == 2
    assert res.stderr.startswith("error: ruleset dragonwarriors2 has no suppression rules")
