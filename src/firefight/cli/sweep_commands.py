"""``firefight sweep``: a grid of changed scenario fields, one simulate per cell, on Dask."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from firefight.analysis.sweep import (
    CONNECT_TIMEOUT,
    CellResult,
    SweepResult,
    check_out,
    plan_sweep,
    run_sweep,
    write_table,
)
from firefight.cli.errors import USER_ERROR
from firefight.cli.output import count_bar, plain_console, plural, print_json, styled
from firefight.errors import InputError

#: Rows shown in the terminal table (the file has them all).
SHOWN = 60


def run(
    scenario: Path,
    vary: list[str],
    n: int | None,
    seed: int | None,
    exact: bool,
    sets: list[str],
    out: Path | None,
    plot: Path | None,
    scheduler: str | None,
    workers: int | None,
    no_cluster: bool,
    timeout: float | None,
    as_json: bool,
) -> None:
    if out is not None:
        check_out(out)
    if plot is not None:
        from firefight.cli.plots import check_png

        check_png(plot)
    if no_cluster and scheduler is not None:
        raise InputError("--no-cluster and --scheduler exclude each other", tip="choose one")
    if timeout is not None and not 0 < timeout <= 3600:
        raise InputError(f"--timeout {timeout:g} is out of range", tip="give 0.1 to 3600 seconds")
    plan = plan_sweep(scenario, vary, n=n, seed=seed, exact=exact, sets=sets)
    if plot is not None and len(plan.varies) > 2:
        raise InputError(
            f"--plot draws one or two varied fields; this sweep varies {len(plan.varies)}",
            tip="drop --plot, or plot from the --out table",
        )
    console = plain_console(stderr=True)
    # a local cluster when asked for (--workers), none with --no-cluster, else by the sweep's size
    cluster = False if no_cluster else (True if workers is not None else None)
    result = _with_progress(console, plan, cluster, scheduler, workers, timeout, as_json)
    if out is not None and result.rows:
        write_table(out, result)
    if plot is not None and result.rows:
        plot_sweep(plot, result)
    if as_json:
        print_json(result.to_json())
    else:
        render(result)
        for path, what in ((out, "table"), (plot, "plot")):
            if path is not None and result.rows:
                plain_console().print(f"{what} written to {path}")
    for failed in result.failed:
        print(f"error: cell {failed.label()}: {failed.error}", file=sys.stderr)
    if result.interrupted:
        done = len(result.results)
        print(
            f"interrupted (Ctrl-C): {done} of {len(plan.tasks)} cells done"
            + (", written" if out is not None and result.rows else ""),
            file=sys.stderr,
        )
        raise typer.Exit(130)
    if len(result.failed) > 1:
        kept = len(result.rows)
        print(
            f"{len(result.failed)} of {len(plan.tasks)} cells failed"
            + (f"; the {kept} others written to {out}" if out is not None and kept else ""),
            file=sys.stderr,
        )
    if result.failed:
        raise typer.Exit(USER_ERROR)


def _with_progress(
    console: Any,
    plan: Any,
    cluster: bool | None,
    scheduler: str | None,
    workers: int | None,
    timeout: float | None,
    quiet: bool,
) -> SweepResult:
    with count_bar(console, quiet) as bar:
        task = bar.add_task("cells", total=len(plan.tasks))
        failures = [0]

        def on_cell(done: CellResult) -> None:
            if done.error is not None:
                failures[0] += 1
                bar.update(task, description=f"cells ({failures[0]} failed)")
            bar.advance(task)

        return run_sweep(
            plan,
            cluster=cluster,
            scheduler=scheduler,
            workers=workers,
            timeout=CONNECT_TIMEOUT if timeout is None else timeout,
            on_cell=on_cell,
        )


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def render(result: SweepResult) -> None:
    console = plain_console()
    plan = result.plan
    how = "exact" if plan.n is None else f"{plural(plan.n, 'fight')} each, seed {plan.seed}"
    count = plural(len(plan.tasks), "cell")
    console.print(
        styled((plan.title, "bold"), f"  ({count}, {how}; {result.where}, {result.seconds:.1f} s)")
    )
    columns, rows = result.table()
    if not rows:
        return
    sides = [c[len("side.") : -len(".p_win")] for c in columns if c.endswith(".p_win")]
    table = Table()
    for v in plan.varies:
        table.add_column(v.column)
    for side in sides:
        table.add_column(f"won by {side}", justify="right")
    table.add_column("draw", justify="right")
    table.add_column("truncated", justify="right")
    table.add_column("rounds", justify="right")
    for row in rows[:SHOWN]:
        cells = [str(row[v.column]) for v in plan.varies]
        for side in sides:
            p = row[f"side.{side}.p_win"]
            if plan.exact:
                cells.append(_pct(p))
            else:
                lo, hi = row[f"side.{side}.ci95_low"], row[f"side.{side}.ci95_high"]
                cells.append(f"{_pct(p)} ({_pct(lo)}..{_pct(hi)})")
        cells += [_pct(row["p_draw"]), _pct(row["p_truncated"]), f"{row['mean_rounds']:.2f}"]
        table.add_row(*cells)
    console.print(table)
    if len(rows) > SHOWN:
        console.print(f"... {len(rows) - SHOWN} more rows (see --out or --json)")
    if len(plan.varies) == 2 and sides:
        render_grid(console, result, sides[0])


def render_grid(console: Any, result: SweepResult, side: str) -> None:
    """Two varied fields: the first side's win chance as a grid, the first field down and the
    second across (every cell, however many rows the table above shows)."""
    first, second = result.plan.varies
    table = Table(
        title=f"{side} wins (%): {first.column} down, {second.column} across",
        title_justify="left",
        box=None,
    )
    table.add_column("", justify="right", style="bold")
    for b in second.values:
        table.add_column(str(b), justify="right")
    for a, row in zip(first.values, result.pivot(side), strict=True):
        table.add_row(str(a), *("" if p is None else f"{100 * p:.1f}" for p in row))
    console.print(table)


def plot_sweep(path: Path, result: SweepResult) -> Path:
    """The sweep's :func:`sweep_figure` as a PNG."""
    from firefight.cli.plots import save_plot

    return save_plot(sweep_figure(result), path)


def sweep_figure(result: SweepResult) -> Any:
    """Lines with 95% bands for one varied field; heatmaps for two: with two sides, one of the
    first side's wins (the other's are the rest) and one of draws and stopped fights when there
    are enough of them, so that no panel only repeats another's complement."""
    import numpy as np

    from firefight.cli.plots import sweep_heatmaps_figure, sweep_lines_figure

    plan = result.plan
    columns = result.table()[0]
    sides = [c[len("side.") : -len(".p_win")] for c in columns if c.endswith(".p_win")]
    # keyed by the values as given (the table's columns may be converted to one type)
    by_values = {tuple(repr(r[v.column]) for v in plan.varies): r for r in result.rows}
    first = plan.varies[0]
    if len(plan.varies) == 1:
        cells = {
            side: [_cell(by_values.get((repr(x),)), side) for x in first.values] for side in sides
        }
        return sweep_lines_figure(plan.title, first.column, first.values, cells, plan.exact)
    second = plan.varies[1]

    def grid(read: Any) -> Any:
        out = np.full((len(first.values), len(second.values)), np.nan)
        for i, x in enumerate(first.values):
            for j, y in enumerate(second.values):
                row = by_values.get((repr(x), repr(y)))
                if row is not None:
                    out[i, j] = 100 * read(row)
        return out

    panels: dict[str, Any] = {}
    other = grid(lambda r: r["p_draw"] + r["p_truncated"])
    most = float(np.nanmax(other, initial=0.0))
    if len(sides) != 2:
        for side in sides:
            panels[f"won by {side} (%)"] = grid(lambda r, s=side: r[f"side.{s}.p_win"])
    else:
        rest = f"{sides[1]} wins the rest"
        if most >= OTHER_PANEL:
            rest += " but the draws"
        elif most >= 0.5:
            rest += f" less draws (at most {most:.0f}%)"
        panels[f"won by {sides[0]} (%); {rest}"] = grid(lambda r: r[f"side.{sides[0]}.p_win"])
        if most >= OTHER_PANEL:
            panels["draw or stopped at max_rounds (%)"] = other
    axes = ((first.column, first.values), (second.column, second.values))
    return sweep_heatmaps_figure(plan.title, axes, panels)


#: Draws and stopped fights get a heatmap of their own from this share (%) of a cell up.
OTHER_PANEL = 2.0


def _cell(row: dict[str, Any] | None, side: str) -> tuple[float, float, float] | None:
    """A side's (win chance, 95% low, 95% high) in a row, or None for a failed cell."""
    if row is None:
        return None
    return row[f"side.{side}.p_win"], row[f"side.{side}.ci95_low"], row[f"side.{side}.ci95_high"]
