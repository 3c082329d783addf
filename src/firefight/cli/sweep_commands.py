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
from firefight.cli.output import count_bar, plain_console, print_json, styled, write_atomically
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
    if plot is not None and not str(plot).lower().endswith(".png"):
        raise InputError(f"--plot {plot}: plots are written as PNG", tip="name the file *.png")
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
    # one cell has nothing to share out: starting a local cluster for it costs more than the cell
    here = no_cluster or (scheduler is None and len(plan.tasks) == 1)
    result = _with_progress(console, plan, here, scheduler, workers, timeout, as_json)
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
    no_cluster: bool,
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
            cluster=not no_cluster,
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
    how = "exact" if plan.exact else f"{plan.n:,} fights each, seed {plan.seed}"
    count = f"{len(plan.tasks)} cell{'s' if len(plan.tasks) > 1 else ''}"
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
        table.add_column(f"{side} wins", justify="right")
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
    """Lines with 95% bands for one varied field, a heatmap per side for two."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    plan = result.plan
    columns = result.table()[0]
    sides = [c[len("side.") : -len(".p_win")] for c in columns if c.endswith(".p_win")]
    # keyed by the values as given (the table's columns may be converted to one type)
    by_values = {tuple(repr(r[v.column]) for v in plan.varies): r for r in result.rows}
    first = plan.varies[0]
    xs = [repr(x) for x in first.values]
    labels = [str(x) for x in first.values]
    numeric = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in first.values)
    if len(plan.varies) == 1:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        at = [float(x) for x in first.values] if numeric else list(range(len(xs)))
        for side in sides:
            got = [by_values.get((x,)) for x in xs]
            p = [np.nan if r is None else 100 * r[f"side.{side}.p_win"] for r in got]
            lo = [np.nan if r is None else 100 * r[f"side.{side}.ci95_low"] for r in got]
            hi = [np.nan if r is None else 100 * r[f"side.{side}.ci95_high"] for r in got]
            (line,) = ax.plot(at, p, marker="o", label=f"{side} wins")
            ax.fill_between(at, lo, hi, alpha=0.25, color=line.get_color())
        if not numeric:
            ax.set_xticks(at, labels)
        elif all(isinstance(x, int) for x in first.values):
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(first.column)
        ax.set_ylabel("% (95% band)" if not plan.exact else "% (exact)")
        ax.set_ylim(0, 100)
        ax.legend(fontsize="small")
    else:
        second = plan.varies[1]
        ys = [repr(y) for y in second.values]
        fig, axes = plt.subplots(1, len(sides), figsize=(5.5 * len(sides), 4.5), squeeze=False)
        for ax, side in zip(axes[0], sides, strict=True):
            grid = np.full((len(xs), len(ys)), np.nan)
            for i, x in enumerate(xs):
                for j, y in enumerate(ys):
                    r = by_values.get((x, y))
                    if r is not None:
                        grid[i, j] = 100 * r[f"side.{side}.p_win"]
            image = ax.imshow(grid, vmin=0, vmax=100, cmap="viridis", aspect="auto", origin="lower")
            ax.set_yticks(range(len(xs)), labels)
            ax.set_xticks(range(len(ys)), [str(y) for y in second.values], rotation=45)
            ax.set_ylabel(first.column)
            ax.set_xlabel(second.column)
            ax.set_title(f"{side} wins (%)")
            if len(xs) * len(ys) <= 150:
                for i in range(len(xs)):
                    for j in range(len(ys)):
                        if not np.isnan(grid[i, j]):
                            shade = "white" if grid[i, j] < 50 else "black"
                            ax.text(
                                j,
                                i,
                                f"{grid[i, j]:.0f}",
                                ha="center",
                                va="center",
                                fontsize=7,
                                color=shade,
                            )
            fig.colorbar(image, ax=ax)
    fig.suptitle(plan.title)
    fig.tight_layout()

    def save(tmp: Path) -> None:
        fig.savefig(tmp, format="png")

    try:
        return write_atomically(path, save)
    finally:
        plt.close(fig)
