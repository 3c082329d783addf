"""``firefight simulate``: many fights (or the exact chain), a report, and plots."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from firefight.analysis.simulate import Simulation, simulate
from firefight.cli.encounter_commands import _engine, solve_first
from firefight.cli.output import (
    count_bar,
    percent,
    plain_console,
    plural,
    print_json,
    styled,
)
from firefight.cli.plots import check_png, simulate_plot
from firefight.display import FRACTION_WIDTH


def run(
    scenario: Path,
    n: int | None,
    seed: int | None,
    policies: list[str],
    max_rounds: int | None,
    overrides: list[str],
    exact: bool,
    reference: bool,
    workers: int | None,
    as_json: bool,
    plot: Path | None,
) -> None:
    if plot is not None:
        check_png(plot)
    engine = _engine(scenario, policies, max_rounds, overrides)
    solve_first(engine, quiet=as_json)
    if not exact and n is None:
        n = 10_000
    console = plain_console(stderr=True)
    result = _with_progress(console, engine, n, seed, exact, reference, workers, quiet=as_json)
    report = result.to_json(str(scenario))
    if plot is not None:
        simulate_plot(plot, report, engine.scenario.spec.title)
    if as_json:
        print_json(report)
    else:
        render(report, result)
        if plot is not None:
            plain_console().print(f"plot written to {plot}")
    if result.interrupted:
        print(f"interrupted (Ctrl-C): {_done(report)}", file=sys.stderr)
        raise typer.Exit(130)


def _done(report: dict[str, Any]) -> str:
    """What an interrupted run did, in a few words."""
    if report["exact"]:
        left = report["mass_left"]
        return f"the chain stopped with {percent(left)} of the probability still in play"
    return f"{report['fights_done']:,} of {report['fights_asked']:,} fights done"


def _with_progress(
    console: Any,
    engine: Any,
    n: int | None,
    seed: int | None,
    exact: bool,
    reference: bool,
    workers: int | None,
    quiet: bool,
) -> Simulation:
    with count_bar(console, quiet) as bar:
        if exact:  # the bar fills toward the state count at which --exact is refused
            from firefight.analysis.exact import MAX_STATES

            task = bar.add_task(f"exact chain: states (limit {MAX_STATES:,})", total=MAX_STATES)
        else:
            task = bar.add_task("fights", total=n)

        def advance(done: int) -> None:
            bar.update(task, completed=done)

        return simulate(
            engine,
            n,
            seed,
            exact=exact,
            reference=reference,
            workers=workers,
            progress=advance,
        )


def _ci(share: dict[str, Any], exact: bool) -> str:
    if exact:
        fraction = str(share.get("fraction", ""))
        return fraction if len(fraction) <= FRACTION_WIDTH else "in --json"
    lo, hi = share["ci95"]
    return f"{percent(lo)} .. {percent(hi)}"


def render(report: dict[str, Any], result: Simulation) -> None:
    console = plain_console()
    exact = report["exact"]
    how = result.method if exact else f"{plural(report['n'], 'fight')}, seed {report['seed']}"
    console.print(styled((report["scenario"], "bold"), f"  ({how})"))
    if result.interrupted:
        console.print("interrupted (Ctrl-C): the report covers what was done", style="bold")
    outcomes = Table(title="who wins (95% interval)" if not exact else "who wins (exact)")
    outcomes.add_column("outcome")
    outcomes.add_column("probability", justify="right")
    outcomes.add_column("95% interval" if not exact else "exact fraction", justify="right")
    rows = [(f"won by {side}", entry["win"]) for side, entry in report["sides"].items()]
    rows += [("draw (nobody left)", report["draw"])]
    rows += [("stopped at max_rounds", report["truncated"])]
    for label, share in rows:
        outcomes.add_row(label, percent(share["p"]), _ci(share, exact))
    if exact and any(_ci(share, exact) == "in --json" for _, share in rows):
        outcomes.caption = "fractions too long to show here are in --json"
    console.print(outcomes)
    rounds = report["rounds"]
    spread = ", ".join(f"{d['rounds']}: {percent(d['p'])}" for d in rounds["dist"][:12])
    more = " ..." if len(rounds["dist"]) > 12 else ""
    console.print(f"rounds to finish: mean {rounds['mean']:.2f}; {spread}{more}")
    console.print(_won_by_round(report["by_round"]))
    people = Table(title="combatants")
    for col in ("name", "out of the fight", "dead", "mean harm dealt", "mean harm taken"):
        people.add_column(col, justify="left" if col == "name" else "right")
    for name, c in report["combatants"].items():
        people.add_row(
            name,
            percent(c["p_out"]),
            percent(c["p_dead"]),
            f"{c['mean_dealt']:.2f}",
            f"{c['mean_taken']:.2f}",
        )
    console.print(people)
    for what, share in report.get("reported", {}).items():
        line = f"reported: {what}: {percent(share['p'])} of fights ({_ci(share, exact)})"
        console.print(line)
    if exact and report.get("mass_left"):
        when = "when interrupted" if result.interrupted else "at the step limit"
        console.print(f"mass still in play {when}: {report['mass_left']:.3g}")
    if exact and report.get("truncated_mass"):
        left = report["truncated_mass"]
        console.print(f"mass left out by the dice's depth limits: {left:.3g}")


#: Most rounds the "won by round" table shows as columns (the last one is the last round).
ROUND_COLUMNS = 8


def _won_by_round(by_round: dict[str, list[float]]) -> Table:
    """P(the side has won by the end of round r), a row a side (every side's list runs to
    ``max_rounds``): the first rounds and, past :data:`ROUND_COLUMNS`, the last."""
    last = max((len(p) for p in by_round.values()), default=0)
    shown = list(range(1, min(last, ROUND_COLUMNS) + 1))
    labels = [str(r) for r in shown]
    if last > ROUND_COLUMNS:
        shown[-1], labels[-1] = last, f"... {last}"
    table = Table(title="won by the end of round")
    table.add_column("side")
    for label in labels:
        table.add_column(label, justify="right")
    for side, shares in by_round.items():
        table.add_row(side, *(f"{100 * shares[r - 1]:.1f}%" for r in shown))
    return table
