"""``firefight roll`` and ``firefight dist``."""

from __future__ import annotations

from pathlib import Path

from firefight.cli.output import (
    MAX_TABLE_ROWS,
    TextConsole,
    plain_console,
    plain_lines,
    print_json,
)
from firefight.dice import SeededDice, parse, render_line, rolled_json
from firefight.dice.limits import check_exact, fewest_values
from firefight.errors import InputError


def roll(expr: str, seed: int | None, as_json: bool) -> None:
    import numpy as np

    node = parse(expr)
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    rolled = SeededDice(seed).roll(node).rolled
    if rolled is None:  # pragma: no cover - seeded dice keep every die they roll
        raise RuntimeError(f"seeded dice rolled {node} without keeping its dice")
    if as_json:
        print_json({"seed": seed, **rolled_json(rolled)})
        return
    line = render_line(rolled)
    if plain_lines([line, f"seed {seed}"]):
        return
    console = plain_console()
    console.print(line)
    console.print(f"seed {seed}", style="dim")


def dist(expr: str, as_json: bool, plot: Path | None) -> None:
    from firefight.core.odds import fraction_text
    from firefight.dice import exact

    node = parse(expr)
    if node.is_sorted:
        from firefight.errors import DiceError

        raise DiceError(
            f"{node} is a tuple of faces, not a number",
            tip="dist shows numeric expressions; sorted dice are for rule code",
        )
    check_exact(node, expr)
    only_table = not as_json and plot is None
    if only_table and (rows := fewest_values(node)) > MAX_TABLE_ROWS:  # known before the work
        raise _too_many_rows(f"{node} has {rows:,} or more values")
    d = exact(node)
    probs = d.probabilities()
    if only_table and len(probs) > MAX_TABLE_ROWS:
        raise _too_many_rows(f"{node} has {len(probs):,} values")
    if plot is not None:
        from firefight.cli.plots import dist_plot

        dist_plot(plot, str(node), [(v, float(p)) for v, p in probs])
    if as_json:
        print_json(
            {
                "expr": expr,
                "outcomes": [
                    {"value": v, "p": fraction_text(p), "p_float": float(p)} for v, p in probs
                ],
                "mean": float(d.mean),
                "truncated_mass": float(d.truncated_mass),
            }
        )
        return
    console = TextConsole()
    if len(probs) > MAX_TABLE_ROWS:  # --plot only: the chart shows them, no table to print
        console.print(f"{node}: {len(probs):,} values (see the plot)")
    else:  # rich only to print the table (the JSON and refusals above never import it)
        console.print(d.grid(str(node)).rich())
    sd = float(d.variance) ** 0.5
    console.print(f"mean {float(d.mean):.4f}   sd {sd:.4f}")
    if d.truncated_mass:
        left = float(d.truncated_mass)
        console.print(f"open-ended dice cut at a depth: mass left out {left:.3g}")
    if plot is not None:
        console.print(f"plot written to {plot}")


def _too_many_rows(has_values: str) -> InputError:
    return InputError(
        f"{has_values}, too many for a table (at most {MAX_TABLE_ROWS:,})",
        tip="use --json for every value or --plot FILE.png for a chart",
    )
