"""``firefight simulate``: many fights (or the exact chain), a report, and plots."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from firefight.analysis.simulate import Simulation, simulate
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
    if plot is not None and not str(plot).lower().endswith(".png"):
        raise InputError(f"--plot {plot}: plots are written as PNG", tip="name the file *.png")
    engine = _engine(scenario, policies, max_rounds, overrides)
    if not exact and n is None:
        n = 10_000
    console = plain_console(stderr=True)
    result = _with_progress(console, engine, n, seed, exact, reference, workers, quiet=as_json)
    report = result.to_json(str(scenario))
    if plot is not None:
        plot_report(plot, report, engine.scenario.spec.title)
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
        return str(share.get("fraction", "~"))
    lo, hi = share["ci95"]
    return f"{percent(lo)} .. {percent(hi)}"


def render(report: dict[str, Any], result: Simulation) -> None:
    console = plain_console()
    exact = report["exact"]
    how = result.method if exact else f"{report['n']:,} fights, seed {report['seed']}"
    console.print(styled((report["scenario"], "bold"), f"  ({how})"))
    if result.interrupted:
        console.print("interrupted (Ctrl-C): the report covers what was done", style="bold")
    outcomes = Table(title="who wins (95% interval)" if not exact else "who wins (exact)")
    outcomes.add_column("outcome")
    outcomes.add_column("probability", justify="right")
    outcomes.add_column("95% interval" if not exact else "fraction", justify="right")
    for side, entry in report["sides"].items():
        outcomes.add_row(f"{side} wins", percent(entry["win"]["p"]), _ci(entry["win"], exact))
    outcomes.add_row("draw (nobody left)", percent(report["draw"]["p"]), _ci(report["draw"], exact))
    outcomes.add_row(
        "truncated (max_rounds)", percent(report["truncated"]["p"]), _ci(report["truncated"], exact)
    )
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


def plot_report(path: Path, report: dict[str, Any], title: str) -> None:
    """Win chances with their intervals, rounds to finish, and who is still standing by round."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, (wins, rounds, standing) = plt.subplots(3, 1, figsize=(8, 9))
    labels = [*report["sides"], "draw", "truncated"]
    shares = [e["win"] for e in report["sides"].values()] + [report["draw"], report["truncated"]]
    ps = [100 * s["p"] for s in shares]
    lows = [max(0.0, 100 * (s["p"] - s["ci95"][0])) for s in shares]
    highs = [max(0.0, 100 * (s["ci95"][1] - s["p"])) for s in shares]
    wins.bar(labels, ps, yerr=[lows, highs], capsize=6, color="#4a78b5")
    wins.set_ylabel("%")
    wins.set_title("outcome (95% interval)" if not report["exact"] else "outcome (exact)")
    dist = report["rounds"]["dist"]
    rounds.bar([d["rounds"] for d in dist], [100 * d["p"] for d in dist], color="#b5784a")
    rounds.set_title("rounds to finish")
    rounds.set_ylabel("%")
    rounds.xaxis.set_major_locator(MaxNLocator(integer=True))
    end = max((d["rounds"] for d in dist), default=1)
    for name, series in report["standing_by_round"].items():
        shown = [1.0, *series[:end]]
        standing.step(range(len(shown)), [100 * p for p in shown], where="post", label=name)
    standing.set_title("still standing after round")
    standing.set_ylabel("%")
    standing.set_ylim(0, 105)
    standing.xaxis.set_major_locator(MaxNLocator(integer=True))
    standing.legend(fontsize="small", ncol=2)
    fig.suptitle(title)
    fig.tight_layout()

    def save(tmp: Path) -> None:
        fig.savefig(tmp, format="png")

    try:
        write_atomically(path, save)
    finally:
        plt.close(fig)
