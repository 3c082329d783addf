"""docs/library.md's session runs as written: every ``>>>`` line, its output compared (doctest)."""

from __future__ import annotations

import doctest
import io
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_library_guide_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testfile(
        str(ROOT / "docs" / "library.md"), module_relative=False, optionflags=flags, verbose=False
    )
    assert result.attempted >= 25
    assert result.failed == 0


def test_results_show_as_html_and_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    """A distribution, an odds report, a fight and a fight report: their tables in HTML (cells
    escaped) and in rich, from the same data."""
    from rich.console import Console

    import firefight as ff
    from firefight.display import Grid

    monkeypatch.chdir(ROOT)
    shot = ff.load_situation("tactical_d20", "examples/tactical_d20/heavy_cover.toml")
    duel = ff.load_scenario("examples/quality_d100/encounters/small_duel.toml")
    shown = [
        ff.dist("d4 + d4"),
        ff.odds(shot),
        ff.fight(duel, seed=2),
        ff.simulate(duel, 300, seed=1),
    ]
    for result in shown:
        html = result._repr_html_()
        display = result.display()
        assert html.startswith("<div>") and html.count("<table>") == len(display.grids)
        console = Console(width=100, record=True, color_system=None)
        console.print(result)
        text = console.export_text()
        for grid in display.grids:
            assert grid.columns[0] in text
    escaped = Grid("a<b", ("x&y",), (("<td>",),)).html()
    assert "a&lt;b" in escaped and "x&amp;y" in escaped and "&lt;td&gt;" in escaped


def test_an_odds_report_shows_what_firefight_odds_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    """One table type behind both: the report's rich form is the command's output, word for
    word (quality levels by name, keys in words, an events table and a named table)."""
    from rich.console import Console
    from typer.testing import CliRunner

    import firefight as ff
    from firefight.cli.app import app

    monkeypatch.chdir(ROOT)
    trip = "examples/quality_d100/trip.toml"
    printed = CliRunner().invoke(app, ["odds", "quality_d100", trip], env={"COLUMNS": "90"})
    assert printed.exit_code == 0
    assert "Poor (0)" in printed.stdout and "result quality" in printed.stdout
    console = Console(width=90, record=True, color_system=None, file=io.StringIO())
    console.print(ff.odds(ff.load_situation("quality_d100", trip)))
    assert console.export_text() == printed.stdout
