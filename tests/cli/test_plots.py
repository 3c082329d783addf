"""The ``--plot`` figures: one title, panels of the ruleset's outcomes with their chances,
names instead of level numbers, labelled axes, lines told apart, no heatmap that only repeats
another's complement. Figures are built without drawing them to a file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firefight.analysis.sweep import plan_sweep, run_sweep
from firefight.cli.plots import odds_figure, simulate_figure
from firefight.cli.ruleset_commands import load
from firefight.cli.sweep_commands import sweep_figure
from firefight.rulesets import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"


def odds(ruleset: str, file: str) -> Any:
    r = get_ruleset(ruleset)
    return r.odds(load(r, EX / ruleset / file, [], None, None))


def texts(fig: Any) -> list[str]:
    return [t.get_text() for t in fig.findobj(lambda o: hasattr(o, "get_text"))]


@pytest.fixture(autouse=True)
def _close_figures() -> Any:
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def test_odds_shows_the_outcomes_with_their_chances_and_names_the_levels() -> None:
    fig = odds_figure(odds("quality_d100", "evading_parry.toml"))
    titles = [ax.get_title() for ax in fig.axes]
    assert titles[0] == "outcomes (exactly one bar happens)"
    outcomes = fig.axes[0]
    assert [t.get_text() for t in outcomes.get_yticklabels()][:3] == ["Poor", "Average", "Better"]
    assert "54%" in [t.get_text() for t in outcomes.texts]  # Poor: 54.4%
    quality = fig.axes[titles.index("result quality")]
    assert [t.get_text() for t in quality.get_xticklabels()][:2] == ["Poor", "Average"]
    for ax in fig.axes:
        assert ax.get_xlabel() and (ax.get_ylabel() or ax.get_yticklabels()), ax.get_title()
    every = texts(fig)
    assert every.count("Evading defender with a prepared spear  (P(hit) 46%)") == 1
    assert not [t for t in every if "_" in t], "snake_case words"


def test_a_zero_that_dwarfs_the_rest_is_cut_and_written() -> None:
    fig = odds_figure(odds("quality_d100", "evading_parry.toml"))
    en = next(ax for ax in fig.axes if ax.get_title() == "EN damage")
    assert en.get_ylim()[1] < 5  # the other bars are under 2%, the zero 91%
    assert any("0: 91% (its bar is cut)" in t.get_text() for t in en.texts)


def test_each_target_has_its_own_outcomes_and_events() -> None:
    fig = odds_figure(odds("warfare2d20", "d_m249.toml"))
    titles = [ax.get_title() for ax in fig.axes]
    assert titles[:2] == [
        "outcomes for enemy by the rocks 1 (exactly one bar happens)",
        "events for enemy by the rocks 1 (each on its own)",
    ]
    assert "events (each on its own)" in titles  # "any hit" names no target


def test_simulate_lines_differ_in_dash_and_marker() -> None:
    report = {
        "exact": False,
        "sides": {"a": {"win": {"p": 0.5, "ci95": [0.45, 0.55]}}},
        "draw": {"p": 0.5, "ci95": [0.45, 0.55]},
        "truncated": {"p": 0.0, "ci95": [0.0, 0.01]},
        "rounds": {"dist": [{"rounds": 1, "p": 1.0}]},
        "standing_by_round": {name: [0.5] for name in ("A", "B", "C", "D", "E")},
    }
    fig = simulate_figure(report, "five people")
    lines = fig.axes[2].get_lines()
    assert len(lines) == 5  # on top of one another: told apart by dash and marker
    assert len({(ln.get_linestyle(), ln.get_marker()) for ln in lines}) == 5
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["A", "B", "C", "D", "E"]


def test_a_two_sided_heatmap_is_not_drawn_twice() -> None:
    duel = EX / "warfare2d20" / "encounters" / "small_duel.toml"
    vary = ["combatants.Red.hit_points_left=1..2", "battlefield.range=close,medium"]
    result = run_sweep(plan_sweep(duel, vary, n=60, seed=1, exact=False), cluster=False)
    fig = sweep_figure(result)
    maps = [ax for ax in fig.axes if ax.get_images()]
    assert [ax.get_title() for ax in maps] == ["won by red (%); blue wins the rest"]
    cells = [t.get_text() for t in maps[0].texts]
    assert len(cells) == 4 and all(c.endswith("%") for c in cells)
    assert min(t.get_fontsize() for t in maps[0].texts) >= 10
