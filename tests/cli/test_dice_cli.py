"""``firefight roll`` and ``firefight dist`` in-process: output, JSON shape, plots, bad input."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app
from firefight.dice import SeededDice, exact, render_line

RUNNER = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = RUNNER.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_roll_shows_every_die_and_the_seed() -> None:
    code, out, _ = run("roll", "d10x + 11", "--seed", "3")
    assert code == 0
    rolled = SeededDice(3).roll("d10x + 11").rolled
    assert rolled is not None
    assert out.splitlines() == [render_line(rolled), "seed 3"]
    assert re.fullmatch(r"1d10x\[.+\] \+ 11 = -?\d+", out.splitlines()[0])
    assert run("roll", "d10x + 11", "--seed", "3")[1] == out  # same seed, same roll


def test_roll_marks_dropped_dice() -> None:
    code, out, _ = run("roll", "4d6kh3", "--seed", "1")
    assert code == 0
    assert out.startswith("4d6kh3[~3~, 4, 5, 6] = 15")


def test_roll_json() -> None:
    code, out, _ = run("roll", "pm6", "--seed", "8", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"seed", "expr", "value", "tags", "dice"}
    assert data["seed"] == 8 and data["expr"] == "pm6"
    counted = sum(d["face"] * d["sign"] for d in data["dice"] if d["kept"])
    assert data["value"] == counted == SeededDice(8).roll("pm6").total
    assert {d["sign"] for d in data["dice"]} == {1, -1}


def test_roll_without_seed_prints_the_seed_it_used() -> None:
    code, out, _ = run("roll", "3d6")
    assert code == 0
    line, seed_line = out.splitlines()
    seed = int(seed_line.removeprefix("seed "))
    rolled = SeededDice(seed).roll("3d6").rolled
    assert rolled is not None and line == render_line(rolled)


def test_dist_table() -> None:
    code, out, _ = run("dist", "2d6")
    assert code == 0
    rows = [r for r in out.splitlines() if re.match(r"│\s+\d+ │", r)]
    assert len(rows) == 11
    # one number format with `firefight odds`: percentages with two decimals
    assert re.search(r"│\s+7 │\s+1/6 │\s+16\.67% │\s+58\.33% │", out)
    assert re.search(r"│\s+12 │\s+1/36 │\s+2\.78% │\s+2\.78% │", out)
    assert "mean 7.0000" in out


def test_dist_table_reports_the_mass_left_out() -> None:
    code, out, _ = run("dist", "d10x + 11")
    assert code == 0
    assert "mass left out 2e-13" in out


def test_dist_json_shape() -> None:
    code, out, _ = run("dist", "2d20", "--json")
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["expr", "outcomes", "mean", "truncated_mass"]
    assert data["expr"] == "2d20"
    assert data["outcomes"][0] == {"value": 2, "p": "1/400", "p_float": 0.0025}
    assert data["mean"] == 21.0
    assert data["truncated_mass"] == 0.0


@pytest.mark.parametrize("expr", ["abs(2d20-2d20)", "d10x", "pm6", "4d6kh3"])
def test_dist_json_matches_the_exact_distribution(expr: str) -> None:
    code, out, _ = run("dist", expr, "--json")
    assert code == 0
    data = json.loads(out)
    d = exact(expr)
    values = [o["value"] for o in data["outcomes"]]
    assert values == sorted(values)
    assert [(o["value"], Fraction(o["p"])) for o in data["outcomes"]] == d.probabilities()
    for o in data["outcomes"]:
        assert set(o) == {"value", "p", "p_float"}
        assert re.fullmatch(r"\d+/\d+", o["p"])
        assert o["p_float"] == float(Fraction(o["p"]))
    assert data["mean"] == float(d.mean)
    assert data["truncated_mass"] == float(d.truncated_mass)


def test_dist_plot_writes_a_png(tmp_path: Path) -> None:
    target = tmp_path / "dist.png"
    code, out, _ = run("dist", "abs(2d20-2d20)", "--plot", str(target))
    assert code == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"plot written to {target}" in out.replace("\n", "")
    target2 = tmp_path / "json.png"
    code, out, _ = run("dist", "pm6", "--json", "--plot", str(target2))
    assert code == 0 and json.loads(out)["expr"] == "pm6"
    assert target2.stat().st_size > 1000


def test_dist_plot_refuses_a_non_png_name(tmp_path: Path) -> None:
    code, _, err = run("dist", "2d6", "--plot", str(tmp_path / "out.jpg"))
    assert code == 2
    assert err.startswith("error:") and "PNG" in err


BAD = [
    ("2d6 ? 3", "unexpected '?'", 5),
    ("2q6", "unexpected 'q'", 2),
    ("0d6", "0d6 throws no dice", 1),
    ("d1", "a d1 is not a die", 1),
    ("2d", "expression ends too soon", 3),
    ("10000d6", "10000 dice is over the roll budget of 1000", 1),
    ("", "empty dice expression", 1),
    ("3 + 3d6kh2 + 0d4", "0d4 throws no dice", 14),
    ("d6*d6", "multiplication needs a constant", 1),
    ("d6 * 9999999", "the number 9999999 is too large", 6),
]


@pytest.mark.parametrize("command", ["roll", "dist"])
@pytest.mark.parametrize(("expr", "problem", "column"), BAD, ids=[b[0] or "empty" for b in BAD])
def test_bad_expressions_are_one_line_exit_2(
    command: str, expr: str, problem: str, column: int
) -> None:
    code, out, err = run(command, expr)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert problem in err
    assert f"at column {column} of {expr!r}" in err
    assert "Traceback" not in err


def test_too_large_for_exact_is_one_line_exit_2() -> None:
    code, _, err = run("dist", "1000d1000", "--json")
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1
    assert "too long to compute" in err
    code, _, err = run("dist", "1000d1000")  # as a table, its 999,001 rows are refused first
    assert code == 2 and "too many for a table" in err
    assert run("roll", "1000d1000", "--seed", "1")[0] == 0  # rolling it is fine


def test_dist_answers_keep_pools_of_milliseconds() -> None:
    """60d20kh20 takes ~10 ms; an old limit, set for enumerating combinations, refused it as
    "would take minutes"."""
    code, out, _ = run("dist", "60d20kh20", "--json")
    assert code == 0
    data = json.loads(out)
    assert [(o["value"], Fraction(o["p"])) for o in data["outcomes"]] == exact(
        "60d20kh20"
    ).probabilities()
    code, _, err = run("dist", "1000d20kh500", "--json")  # ~15 minutes: refused, and why
    assert code == 2
    assert "1000d20kh500 would take about" in err and "keep fewer dice" in err


def test_dist_refuses_a_table_of_too_many_rows_before_computing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """1000d20 has 19,001 values, known from the notation: no 0.9 s of work to refuse it."""
    import firefight.dice

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the distribution was computed")

    monkeypatch.setattr(firefight.dice, "exact", no_work)
    code, _, err = run("dist", "1000d20")
    assert code == 2
    assert "1000d20 has 19,001 or more values, too many for a table" in err


def test_dist_refuses_sorted_dice() -> None:
    code, _, err = run("dist", "sort(3d12)")
    assert code == 2
    assert "tuple of faces" in err
    assert run("roll", "sort(3d12)", "--seed", "2")[1].startswith("sort(3d12)[")
