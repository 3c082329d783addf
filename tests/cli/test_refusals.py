"""Issue 13: each class of bad input found by hand is refused in one line with a tip, exit 2.

The fuzz test (``tests/test_fuzz_inputs.py``) holds the general properties; these pin the
examples of each class the issue names, so a regression says which class came back.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
AMBUSH = str(EX / "warfare2d20" / "b_ak47_ambush.toml")
ANDRE = str(EX / "graydawn" / "suppress_andre.toml")
KNIGHT = str(EX / "dragonwarriors2" / "knight_vs_squire.toml")


def refused(*args: str) -> str:
    """Run the CLI; assert exit 2 and one ``error: ... (tip: ...)`` line; return that line."""
    res = CliRunner().invoke(app, list(args))
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code == 2, (res.exit_code, res.output)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("error: ") and "(tip: " in lines[0], lines[0]
    assert "instance of" not in lines[0] and len(lines[0]) <= 400
    return lines[0]


def house(tmp_path: Path, text: str) -> str:
    f = tmp_path / "house.toml"
    f.write_text(text, encoding="utf-8")
    return str(f)


# ------------------------------------------------------------------ usage errors (click)


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["roll"], "missing argument 'EXPR'"),
        (["roll", "d6", "--sed", "3"], "did you mean --seed?"),
        (["roll", "d20", "--seed", "-1"], "--seed"),
        (["odds"], "missing argument 'RULESET'"),
        (["fly"], "firefight"),
    ],
)
def test_usage_errors_are_one_line_exit_2(args: list[str], text: str) -> None:
    assert text in refused(*args)


def test_version_and_help_for_a_newcomer() -> None:
    res = CliRunner().invoke(app, ["--version"])
    assert res.exit_code == 0 and res.stdout.startswith("firefight ")
    for command in ("roll", "dist", "attack", "suppress", "odds", "table"):
        text = CliRunner().invoke(app, [command, "--help"]).stdout
        assert "<str>" not in text and "<int>" not in text and "<path>" not in text, command
        assert "{" not in text.splitlines()[0], command
    assert "docs/rules/" in CliRunner().invoke(app, ["odds", "--help"]).stdout


def test_an_expression_that_starts_with_a_minus_works() -> None:
    plain = CliRunner().invoke(app, ["dist", "-(d4+d6)", "--json"])
    dashed = CliRunner().invoke(app, ["dist", "--json", "--", "-(d4+d6)"])
    assert plain.exit_code == 0 and plain.stdout == dashed.stdout


# ------------------------------------------------------------------ dice limits and input


@pytest.mark.parametrize(
    ("expr", "text"),
    [
        ("1" * 5000, "5000 digits"),
        ("1000000*1000000*1000000*1000000", "beyond the limit"),
        ("100d100kh50", "would take about 7 s to compute (an estimate; exact keep pools are"),
        ("1000d20", "1000d20 has 19,001 or more values, too many for a table"),
        ("d10000x", "too many for a table"),
    ],
)
def test_dist_limits_are_stated_before_the_work(expr: str, text: str) -> None:
    line = refused("dist", expr)
    assert text in line
    assert len(line) < 300, "long input is shown as its start"


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["--dice", "١٠,17"], "not a face of a die"),
        (["--dice", "10,17,20,16,10,8,3,8,8,4"], "needs 12 in all: 11-12 2d10 for 'endurance"),
        (["--dice", "10,17,20,16,10,8,3,8,8,4,7,7,1,1"], "more than this resolution rolls"),
    ],
)
def test_scripted_dice(args: list[str], text: str) -> None:
    assert text in refused("attack", "warfare2d20", AMBUSH, *args)


def test_rows_take_ascii_digits_only() -> None:
    assert "not a row range" in refused("table", "quality_d100", "--rows", "١-5")


# ------------------------------------------------------------------ files


def test_a_device_a_pipe_a_bom_and_deep_nesting(tmp_path: Path) -> None:
    assert "not a regular file" in refused("attack", "warfare2d20", "/dev/zero")
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    assert "not a regular file" in refused("attack", "warfare2d20", str(fifo))
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + Path(AMBUSH).read_bytes())
    assert CliRunner().invoke(app, ["odds", "warfare2d20", str(bom), "--json"]).exit_code == 0
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 3000 + "]" * 3000 + "\n")
    assert "malformed TOML" in refused("attack", "warfare2d20", str(deep))


def test_plot_into_a_folder_that_cannot_be_written() -> None:
    assert "cannot write" in refused("dist", "d6", "--plot", "/proc/x.png")


# ------------------------------------------------------------------ fields


@pytest.mark.parametrize(
    ("sets", "text"),
    [
        ("attacker.attack=true", "must be a whole number, not true/false"),
        ("attacker.stunned=1", "must be true or false"),
        ('attacker.stunned="yes"', "must be true or false"),
        ("attacker.atack=3", "did you mean 'attack'?"),
        ("attacker=[1]", "must be a table, not a list"),
        ("attacker.defence=9223372036854775807", "too large"),
        ("attacker.defence=1000", "at most 100"),
        ('attacker.name=""', "is empty"),
        ("kind=[]", "unknown situation kind"),
    ],
)
def test_dragonwarriors2_fields(sets: str, text: str) -> None:
    assert text in refused("odds", "dragonwarriors2", KNIGHT, "--set", sets)


def test_a_misspelt_skill_is_refused_not_read_as_0(tmp_path: Path) -> None:
    """The Andre example with ``handgnu = 7`` quietly dropped from 6 suppression levels to 4."""
    andre = tmp_path / "andre.toml"
    andre.write_text(Path(ANDRE).read_text().replace("handgun = 7", "handgnu = 7"))
    line = refused("suppress", "graydawn", str(andre), "--seed", "1")
    assert "unknown skill 'handgnu'" in line and "did you mean 'handgun'?" in line


def test_attack_refuses_a_suppression_file() -> None:
    assert "firefight suppress graydawn" in refused("attack", "graydawn", ANDRE)


def test_dragonwarriors2_catalog_entries_are_checked(tmp_path: Path) -> None:
    cat = tmp_path / "gear.toml"
    cat.write_text("[shield.buckler]\ndefense = 1\n")
    sit = tmp_path / "s.toml"
    sit.write_text(
        Path(KNIGHT)
        .read_text()
        .replace('kind = "exchange"', 'kind = "exchange"\ncatalogs = ["gear.toml"]')
        .replace('shield = "shield"', 'shield = "buckler"')
    )
    assert "did you mean 'defence'?" in refused("odds", "dragonwarriors2", str(sit))


@pytest.mark.parametrize(
    ("rid", "text", "expect"),
    [
        ("warfare2d20", 'blast_damage = "2d10+2"\n', "not a dice pool"),
        ("warfare2d20", 'opposed_dice = "3d20kh2"\n', "not a dice pool"),
        ("warfare2d20", "base_delta_t = true\n", "must be a whole number"),
        ("quality_d100", "natural_best_min_quality = 7\n", "at most 6"),
        ("quality_d100", 'trip_damage = "d"\n', "trip_damage"),
        ("dragonwarriors2", "stun_target_bonus = 5.5\n", "whole number"),
    ],
)
def test_house_fields_are_checked_when_the_file_loads(
    tmp_path: Path, rid: str, text: str, expect: str
) -> None:
    example = sorted((EX / rid).glob("*.toml"))[0]
    assert expect in refused("odds", rid, str(example), "--house", house(tmp_path, text))


def test_a_misspelt_tactical_d20_proficiency_is_refused() -> None:
    smg = str(EX / "tactical_d20" / "smg_burst_head.toml")
    line = refused(
        "odds", "tactical_d20", smg, "--set", 'attacker={use="operator",skills={firearm=5}}'
    )
    assert "unknown skill 'firearm'" in line and "did you mean 'firearms'?" in line


@pytest.mark.parametrize(
    ("rid", "file", "sets", "text"),
    [
        (
            "graydawn",
            "full_auto_30.toml",
            'attacker.weapon={name="machine gun", rof=1000}',
            "at most 50",
        ),
        (
            "dragonwarriors2",
            "knight_vs_squire.toml",
            "options.odds_tolerance=1e-300",
            "at least 1e-15",
        ),
    ],
)
def test_knobs_that_size_the_odds_are_bounded(rid: str, file: str, sets: str, text: str) -> None:
    """A full-auto ROF of 1000 or a tolerance of 1e-300 ran for minutes; both are refused."""
    assert text in refused("odds", rid, str(EX / rid / file), "--set", sets)


def test_a_whole_file_check_names_its_field() -> None:
    line = refused(
        "odds",
        "graydawn",
        str(EX / "graydawn" / "full_auto_30.toml"),
        "--set",
        "attack.rounds=100000",
    )
    assert "field attack.rounds: more than the ROF" in line
