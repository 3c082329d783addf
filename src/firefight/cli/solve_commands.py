"""``firefight solve``: the best decision at every point of a fight, as tables and JSON."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
from rich.table import Table as RichTable

from firefight.analysis.decisions import Table, show
from firefight.analysis.exact import MAX_STATES
from firefight.analysis.solve_report import AGAINST, SolveReport, solve_scenario
from firefight.cli.encounter_commands import _engine
from firefight.cli.output import (
    count_bar,
    percent,
    plain_console,
    print_json,
    styled,
    write_atomically,
)
from firefight.errors import InputError

#: Most rows a decision table shows (the JSON has them all).
TABLE_ROWS = 40


def run(
    scenario: Path,
    side: str | None,
    against: str,
    decide: list[str] | None,
    policies: list[str],
    max_rounds: int | None,
    overrides: list[str],
    max_states: int | None,
    as_json: bool,
    plot: Path | None,
) -> None:
    if against not in AGAINST:
        raise InputError(f"--against {against!r} is not one of: {', '.join(AGAINST)}")
    if plot is not None and not str(plot).lower().endswith(".png"):
        raise InputError(f"--plot {plot}: plots are written as PNG", tip="name the file *.png")
    engine = _engine(scenario, policies, max_rounds, overrides)
    limit = MAX_STATES if max_states is None else max_states
    console = plain_console(stderr=True)
    try:
        with count_bar(console, as_json) as bar:
            task = bar.add_task(f"solve: states (limit {limit:,})", total=limit)
            report = solve_scenario(
                engine,
                side=side,
                against=against,
                kinds=decide,
                on_state=lambda n: bar.update(task, completed=n),
                scenario=str(scenario),
                max_states=limit,
            )
    except KeyboardInterrupt:
        print("interrupted (Ctrl-C): nothing solved", file=sys.stderr)
        raise typer.Exit(130) from None
    if plot is not None:
        plot_report(plot, report)
    if as_json:
        print_json(report.to_json())
        return
    render(report)
    if plot is not None:
        plain_console().print(f"plot written to {plot}")


def render(report: SolveReport) -> None:
    console = plain_console()
    how = (
        "each side deciding best against the others' scenario policies"
        if report.against == "policies"
        else "every side deciding best against the others deciding best"
    )
    if report.kinds is not None:
        how += f"; only decisions offering {', '.join(sorted(report.kinds))} made best"
    console.print(styled((report.title, "bold"), f"  ({how})"))
    wins = RichTable(title="chance to win (exact)")
    change = "left on the table" if report.against == "policies" else "change"
    for col in ("side", "scenario policies", "best decisions", change):
        wins.add_column(col, justify="left" if col == "side" else "right")
    for i, name in enumerate(report.sides):
        if name not in report.best:
            continue
        policy = report.game.policy_names[name]
        wins.add_row(
            f"{name} ({policy})",
            percent(report.policies[i]),
            percent(report.best[name]),
            f"{100 * report.left_on_table(name):+.2f} points",
        )
    console.print(wins)
    for part in report.parts:
        for table in part.tables:
            if table.rows:
                console.print(_decision_table(table))
            else:
                idle = f"{table.idle:,} decisions, nothing rides on any of them"
                console.print(f"{table.title}: {idle}")
    game = report.game
    console.print(
        f"{len(game.states):,} states, {game.kernels:,} kernels, {report.cpu_seconds:.1f} s CPU"
    )


def _decision_table(table: Table) -> RichTable:
    out = RichTable(title=f"{table.title} (met {table.per_fight:.3g} times a fight)")
    for name in table.features:
        out.add_column(name)
    out.add_column("best")
    out.add_column("states", justify="right")
    out.add_column("per fight", justify="right")
    out.add_column("gain (points)", justify="right")
    for row in table.rows[:TABLE_ROWS]:
        out.add_row(
            *(show(v) for v in row.values),
            row.choice,
            f"{row.states:,}",
            f"{row.per_fight:.3g}",
            f"{100 * row.edge:.2f}",
        )
    notes = []
    if len(table.rows) > TABLE_ROWS:
        notes.append(f"{len(table.rows) - TABLE_ROWS} more rows in --json")
    if table.idle:
        notes.append(f"{table.idle:,} decisions on which nothing rides left out")
    out.caption = "; ".join(notes) or None
    return out


def plot_report(path: Path, report: SolveReport) -> None:
    """Each side's chance with its scenario policy and deciding best; the most met decision
    table's choices over its features."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (wins, choices) = plt.subplots(2, 1, figsize=(8, 8))
    names = [n for n in report.sides if n in report.best]
    xs = range(len(names))
    base = [100 * report.policies[report.sides.index(n)] for n in names]
    best = [100 * report.best[n] for n in names]
    wins.bar([x - 0.2 for x in xs], base, width=0.4, label="scenario policies", color="#8a8a8a")
    wins.bar([x + 0.2 for x in xs], best, width=0.4, label="best decisions", color="#4a78b5")
    wins.set_xticks(list(xs), names)
    wins.set_ylabel("chance to win (%)")
    wins.legend(fontsize="small")
    tables = [t for p in report.parts for t in p.tables]
    if tables:
        _plot_table(choices, max(tables, key=lambda t: sum(r.per_fight for r in t.rows)))
    else:
        choices.set_axis_off()
    fig.suptitle(report.title)
    fig.tight_layout()

    def save(tmp: Path) -> None:
        fig.savefig(tmp, format="png")

    try:
        write_atomically(path, save)
    finally:
        plt.close(fig)


def _plot_table(ax: Any, table: Table) -> None:
    """The table's rows as bars of decisions a fight, coloured by the best choice."""
    labels = [
        ", ".join(f"{n} {show(v)}" for n, v in zip(table.features, r.values, strict=True))
        or "always"
        for r in table.rows[:TABLE_ROWS]
    ]
    picks = [r.choice for r in table.rows[:TABLE_ROWS]]
    colours = {c: f"C{i}" for i, c in enumerate(dict.fromkeys(picks))}
    ax.barh(
        range(len(labels)),
        [r.per_fight for r in table.rows[:TABLE_ROWS]],
        color=[colours[c] for c in picks],
    )
    ax.set_yticks(range(len(labels)), labels, fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel("decisions a fight")
    ax.set_title(f"{table.title}: the best choice")
    handles = [_patch(colour, choice) for choice, colour in colours.items()]
    ax.legend(handles=handles, fontsize="small")


def _patch(colour: str, label: str) -> Any:
    from matplotlib.patches import Patch

    return Patch(color=colour, label=label)
