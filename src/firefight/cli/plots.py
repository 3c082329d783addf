"""The ``--plot`` pictures: a dice distribution, a situation's odds, a simulation, a sweep.

Each is one PNG written whole or not at all, with one title (the situation's), a title per
panel, labelled axes, the words the tables use (``HP damage``, ``Poor``..``Fantastic``) and
the percentages written on the bars, so a reader needs no legend to read a figure. Lines that
may lie on top of one another differ in colour, dash and marker. matplotlib is imported only
when a plot is asked for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firefight.cli.output import adds_up, outcome_groups, value_words, words, write_atomically
from firefight.errors import InputError

if TYPE_CHECKING:
    from firefight.core.odds import OddsReport

#: The value axis of an odds plot (an attack, a check, a suppression: all are rolls).
CHANCE = "chance (%)"
#: Bar colours: what happens (outcomes, events), and how much (distributions).
OUTCOME_COLOUR = "#b5584a"
AMOUNT_COLOUR = "#4a78b5"
#: A zero bar this many times taller than every other bar is cut (its height written on it),
#: so that the others stay readable.
TALL_ZERO = 5.0
#: Line styles for lines that may overlap: each line differs in dash and marker too.
DASHES = ("-", "--", "-.", ":")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def check_png(path: Path | str, option: str = "--plot") -> None:
    """Refuse a plot file name that is not ``*.png`` before any work."""
    if not str(path).lower().endswith(".png"):
        raise InputError(f"{option} {path}: plots are written as PNG", tip="name the file *.png")


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path | str) -> Path:
    plt = _pyplot()

    def save(tmp: Path) -> None:
        fig.savefig(tmp, format="png", dpi=100)

    try:
        return write_atomically(path, save)
    finally:
        plt.close(fig)


def _pct(p: float) -> str:
    """A share on a bar: two significant digits below 1%, one decimal below 10%, else none."""
    value = 100 * p
    if value == 0:
        return "0%"
    if value < 1:
        return f"{value:.2g}%"
    return f"{value:.1f}%" if value < 10 else f"{value:.0f}%"


# ---------------------------------------------------------------------------------- panels


def _hbars(
    ax: Any,
    rows: Sequence[tuple[str, float]],
    title: str,
    xlabel: str,
    intervals: Sequence[tuple[float, float]] | None = None,
) -> None:
    """Named chances as horizontal bars, top to bottom, each with its percentage (after its
    95% interval, drawn as a black line, where one is given)."""
    labels = [label for label, _ in rows]
    values = [100 * p for _, p in rows]
    at = list(range(len(rows)))[::-1]
    ax.barh(at, values, color=OUTCOME_COLOUR, height=0.7)
    ax.set_yticks(at, labels)
    ax.set_xlim(0, 118)  # room for the percentage after a bar of 100%
    ends = [p for _, p in rows]
    if intervals is not None:
        for y, (lo, hi) in zip(at, intervals, strict=True):
            ax.plot([100 * lo, 100 * hi], [y, y], color="black", lw=1.5)
        ends = [hi for _, hi in intervals]
    for y, end, (_, p) in zip(at, ends, rows, strict=True):
        ax.text(100 * end + 1.5, y, _pct(p), va="center", fontsize=9)
    ax.set_xlabel(xlabel)
    span, middle = max(len(rows), 3) + 0.2, (len(rows) - 1) / 2
    ax.set_ylim(middle - span / 2, middle + span / 2)  # one bar stays a bar, not a block
    ax.set_title(title, fontsize=11)
    ax.spines[["top", "right"]].set_visible(False)


def _vbars(
    ax: Any,
    points: Sequence[tuple[int, float]],
    title: str,
    xlabel: str,
    names: Mapping[int, str] | None = None,
) -> None:
    """A distribution as bars; named values (quality levels) as their names; a zero bar that
    dwarfs the others is cut with its height written on it."""
    from matplotlib.ticker import MaxNLocator

    points, tail = _without_tail(points)
    notes = [f"beyond {points[-1][0]}: {_pct(tail)}, not shown"] if tail else []
    xs = [v for v, _ in points]
    ys = [100 * p for _, p in points]
    ax.bar(xs, ys, color=AMOUNT_COLOUR, width=0.8)
    others = [y for x, y in zip(xs, ys, strict=True) if x != 0]
    zero = next((y for x, y in zip(xs, ys, strict=True) if x == 0), 0.0)
    if others and zero > TALL_ZERO * max(others):
        top = 1.3 * max(others)
        ax.set_ylim(0, top)
        notes.insert(0, f"0: {_pct(zero / 100)} (its bar is cut)")
    ax.set_xlim(min(xs) - 0.8, max(xs) + 0.8)  # a lone value stays one bar wide
    if names:
        ax.set_xticks(xs, [names.get(x, str(x)) for x in xs])
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if len(xs) <= 12:
        for x, y in zip(xs, ys, strict=True):
            if y and (x != 0 or zero <= TALL_ZERO * max(others, default=0)):
                ax.text(x, y, _pct(y / 100), ha="center", va="bottom", fontsize=8)
    if notes:
        ax.text(
            0.98, 0.97, "\n".join(notes), transform=ax.transAxes, ha="right", va="top", fontsize=8
        )
    ax.set_xlabel(xlabel)
    ax.set_ylabel(CHANCE)
    ax.set_title(title, fontsize=11)
    ax.spines[["top", "right"]].set_visible(False)


#: A distribution's plot ends where the rest is at most this share and spans over a third of
#: its values (open-ended dice reach far past anything likely).
TAIL = 0.001


def _without_tail(
    points: Sequence[tuple[int, float]],
) -> tuple[Sequence[tuple[int, float]], float]:
    """The points up to where a long, thin tail starts, and that tail's share (0: none cut)."""
    if len(points) < 12:
        return points, 0.0
    left = sum(p for _, p in points)
    for i, (_, p) in enumerate(points):
        left -= p
        if left <= TAIL:
            cut = points[: i + 1]
            span = points[-1][0] - points[0][0]
            if points[-1][0] - cut[-1][0] > span / 3 and left > 0:
                return cut, left
            return points, 0.0
    return points, 0.0


def _grid(plt: Any, heights: Sequence[float], title: str, width: float = 11.0) -> tuple[Any, Any]:
    """A figure of panels in two columns, each row as tall as its tallest panel wants; the
    figure's one title above them all."""
    rows = [max(heights[i : i + 2]) for i in range(0, len(heights), 2)]
    fig = plt.figure(figsize=(width, sum(rows) + 0.8), layout="constrained")
    fig.suptitle(title, fontsize=13)
    grid = fig.add_gridspec(len(rows), 2, height_ratios=rows)
    return fig, grid


def _panel_height(rows: int) -> float:
    return max(2.8, 0.32 * rows + 1.0)


# ---------------------------------------------------------------------------------- dist


def dist_plot(path: Path | str, name: str, points: Sequence[tuple[int, float]]) -> Path:
    """``firefight dist EXPR --plot``: the distribution as bars, titled by the expression."""
    check_png(path)
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4), layout="constrained")
    _vbars(ax, points, "", "value", None)
    ax.set_ylabel("%")
    fig.suptitle(name, fontsize=13)
    return _save(fig, path)


# ---------------------------------------------------------------------------------- odds


def odds_plot(path: Path | str, report: OddsReport) -> Path:
    """``firefight odds --plot``: :func:`odds_figure` as a PNG."""
    check_png(path)
    return _save(odds_figure(report), path)


def odds_figure(report: OddsReport) -> Any:
    """What happens (the ruleset's outcomes, a panel per target), the events (each a chance on
    its own), the rule tables, then every distribution."""
    plt = _pyplot()
    panels: list[tuple[float, Any]] = []
    groups = outcome_groups(report.outcomes)
    events = _by_whom(report.probabilities, {who for who, _ in groups})
    for who, rows in groups:
        how = adds_up(rows, report.truncated_mass).split(":")[0].split(";")[0]
        title = f"outcomes{f' for {who}' if who else ''} ({how.replace('row', 'bar')})"
        panels.append(_hbars_panel(rows, title))
        if who in events:
            whose = f" for {who}" if who else ""
            panels.append(_hbars_panel(events.pop(who), f"events{whose} (each on its own)"))
    for who, rows in events.items():
        panels.append(_hbars_panel(rows, f"events{f' for {who}' if who else ''} (each on its own)"))
    for name, table in report.tables.items():
        panels.append(_hbars_panel(table, words(name)))
    for name, d in report.distributions.items():
        points = [(int(v), float(p)) for v, p in d.probabilities()]
        names = report.value_names.get(name)
        panels.append((2.8, _dist_panel(points, words(name), names)))
    title = report.title
    if report.p_hit is not None:
        title += f"  (P(hit) {_pct(float(report.p_hit))})"
    fig, grid = _grid(plt, [h for h, _ in panels] or [2.8], title)
    for i, (_, draw) in enumerate(panels):
        draw(fig.add_subplot(grid[i // 2, i % 2]))
    return fig


def _hbars_panel(rows: Mapping[str, Any], title: str) -> tuple[float, Any]:
    """A panel of named chances (its height, and how to draw it)."""
    shown = [(value_words(label), float(p)) for label, p in rows.items()]
    return _panel_height(len(shown)), lambda ax: _hbars(ax, shown, title, CHANCE)


def _dist_panel(points: list[tuple[int, float]], name: str, names: Any) -> Any:
    axis = name.split(" (")[0]  # "HP damage (enemy 1)": the axis is HP damage
    return lambda ax: _vbars(ax, points, name, axis, names)


_WHOSE = re.compile(r"^(.*) \(([^()]+)\)$")


def _by_whom(events: Mapping[str, Any], whos: set[str]) -> dict[str, dict[str, Any]]:
    """Events by the target (one of ``whos``) they name, ``p_hit (enemy 1)``, in the people's
    words; the others under ""."""
    out: dict[str, dict[str, Any]] = {}
    for key, p in events.items():
        label = words(key)
        found = _WHOSE.match(label)
        if found and found.group(2) in whos:
            out.setdefault(found.group(2), {})[found.group(1)] = p
        else:
            out.setdefault("", {})[label] = p
    return out


# ---------------------------------------------------------------------------------- simulate


def _line_style(i: int) -> dict[str, Any]:
    """The i-th of several lines: colour, dash and marker all differ from its neighbours'."""
    return {
        "color": f"C{i % 10}",
        "linestyle": DASHES[i % len(DASHES)],
        "marker": MARKERS[i % len(MARKERS)],
        "markersize": 5,
    }


def simulate_plot(path: Path | str, report: Mapping[str, Any], title: str) -> Path:
    """``firefight simulate --plot``: :func:`simulate_figure` as a PNG."""
    check_png(path)
    return _save(simulate_figure(report, title), path)


def simulate_figure(report: Mapping[str, Any], title: str) -> Any:
    """Who wins (with the 95% interval), rounds to finish, and each combatant's chance of still
    standing after each round."""
    plt = _pyplot()
    fig = plt.figure(figsize=(10, 9), layout="constrained")
    fig.suptitle(title, fontsize=13)
    grid = fig.add_gridspec(2, 2, height_ratios=[1, 1.3])
    wins, rounds, standing = (
        fig.add_subplot(grid[0, 0]),
        fig.add_subplot(grid[0, 1]),
        fig.add_subplot(grid[1, :]),
    )
    exact = report["exact"]
    rows = [(f"won by {side}", e["win"]) for side, e in report["sides"].items()]
    rows += [("draw", report["draw"]), ("stopped at max_rounds", report["truncated"])]
    _hbars(
        wins,
        [(label, s["p"]) for label, s in rows],
        "who wins" + (" (exact)" if exact else " (black: 95% interval)"),
        "% of fights",
        None if exact else [tuple(s["ci95"]) for _, s in rows],
    )
    dist = report["rounds"]["dist"]
    from matplotlib.ticker import MaxNLocator

    rounds.bar([d["rounds"] for d in dist], [100 * d["p"] for d in dist], color=AMOUNT_COLOUR)
    rounds.set_title("rounds to finish", fontsize=11)
    rounds.set_xlabel("round the fight ends in")
    rounds.set_ylabel("% of fights")
    rounds.xaxis.set_major_locator(MaxNLocator(integer=True))
    rounds.spines[["top", "right"]].set_visible(False)
    end = max((d["rounds"] for d in dist), default=1)
    for i, (name, series) in enumerate(report["standing_by_round"].items()):
        shown = [1.0, *series[:end]]
        standing.plot(range(len(shown)), [100 * p for p in shown], label=name, **_line_style(i))
    standing.set_title("still standing after each round", fontsize=11)
    standing.set_xlabel("round")
    standing.set_ylabel("% of fights")
    standing.set_ylim(-3, 103)
    standing.xaxis.set_major_locator(MaxNLocator(integer=True))
    standing.spines[["top", "right"]].set_visible(False)
    fig.legend(*standing.get_legend_handles_labels(), loc="outside right lower", frameon=False)
    return fig


# ---------------------------------------------------------------------------------- sweep


def sweep_lines_figure(
    title: str,
    column: str,
    values: Sequence[Any],
    sides: Mapping[str, Sequence[tuple[float, float, float] | None]],
    exact: bool,
) -> Any:
    """One varied field: each side's win chance by value, with its 95% band."""
    import math

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.8), layout="constrained")
    fig.suptitle(title, fontsize=13)
    numeric = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in values)
    at = [float(x) for x in values] if numeric else list(range(len(values)))
    for i, (side, cells) in enumerate(sides.items()):
        p = [math.nan if c is None else 100 * c[0] for c in cells]
        lo = [math.nan if c is None else 100 * c[1] for c in cells]
        hi = [math.nan if c is None else 100 * c[2] for c in cells]
        style = _line_style(i)
        ax.plot(at, p, label=f"won by {side}", **style)
        if not exact:
            ax.fill_between(at, lo, hi, alpha=0.2, color=style["color"])
    if not numeric:
        ax.set_xticks(at, [str(x) for x in values])
    elif all(isinstance(x, int) for x in values):
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(column)
    ax.set_ylabel("% of fights" + ("" if exact else " (band: 95% interval)"))
    ax.set_ylim(0, 100)
    ax.spines[["top", "right"]].set_visible(False)
    fig.legend(*ax.get_legend_handles_labels(), loc="outside right upper", frameon=False)
    return fig


def sweep_heatmaps_figure(
    title: str,
    axes: tuple[tuple[str, Sequence[Any]], tuple[str, Sequence[Any]]],
    panels: Mapping[str, Any],
) -> Any:
    """Two varied fields: a heatmap per panel (``panels``: name -> grid of percentages, rows
    the first field's values, columns the second's; NaN where a cell failed), each cell
    labelled in a colour that reads on its shade. A first panel whose name says the other side
    "wins the rest" is drawn red to blue around 50%."""
    import numpy as np

    plt = _pyplot()
    (first, xs), (second, ys) = axes
    n = len(panels)
    fig, grid = plt.subplots(
        1,
        n,
        figsize=(max(5.5, 0.7 * len(ys) + 3.5) * n, max(4.5, 0.45 * len(xs) + 2.5)),
        squeeze=False,
        layout="constrained",
    )
    fig.suptitle(title, fontsize=13)
    for k, (ax, (name, values)) in enumerate(zip(grid[0], panels.items(), strict=True)):
        # one side's wins against one other: red below 50%, blue above; else one scale
        cmap = plt.get_cmap("RdBu" if k == 0 and "wins the rest" in name else "viridis")
        image = ax.imshow(values, vmin=0, vmax=100, cmap=cmap, aspect="auto", origin="lower")
        ax.set_yticks(range(len(xs)), [str(x) for x in xs])
        long = max((len(str(y)) for y in ys), default=0) > 6
        ax.set_xticks(range(len(ys)), [str(y) for y in ys], rotation=30 if long else 0)
        ax.set_ylabel(first)
        ax.set_xlabel(second)
        ax.set_title(name, fontsize=11)
        if len(xs) * len(ys) <= 300:
            size = 10 if len(xs) * len(ys) <= 64 else 8
            for i in range(len(xs)):
                for j in range(len(ys)):
                    v = values[i, j]
                    if np.isnan(v):
                        continue
                    r, g, b, _ = cmap(v / 100)
                    shade = "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"
                    ax.text(j, i, f"{v:.0f}%", ha="center", va="center", fontsize=size, color=shade)
        fig.colorbar(image, ax=ax, label="% of fights")
    return fig


def save_plot(fig: Any, path: Path | str) -> Path:
    """Write a figure as a PNG, whole or not at all."""
    check_png(path)
    return _save(fig, path)
