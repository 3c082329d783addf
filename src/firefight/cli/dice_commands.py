"""``firefight roll`` and ``firefight dist``."""

from __future__ import annotations

from pathlib import Path

from firefight.cli.output import plot_bars, print_json
from firefight.dice import SeededDice, parse, render_line, rolled_json


def roll(expr: str, seed: int | None, as_json: bool) -> None:
    import numpy as np

    node = parse(expr)
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    result = SeededDice(seed).roll(node)
    assert result.rolled is not None
    if as_json:
        print_json({"seed": seed, **rolled_json(result.rolled)})
        return
    from rich.console import Console

    console = Console()
    console.print(render_line(result.rolled), markup=False, highlight=False)
    console.print(f"seed {seed}", style="dim", markup=False)


def dist(expr: str, as_json: bool, plot: Path | None) -> None:
    from rich.console import Console
    from rich.table import Table

    from firefight.core.odds import fraction_text
    from firefight.dice import exact

    node = parse(expr)
    if node.is_sorted:
        from firefight.errors import DiceError

        raise DiceError(
            f"{node} is a tuple of faces, not a number",
            tip="dist shows numeric expressions; sorted dice are for rule code",
        )
    d = exact(node)
    probs = d.probabilities()
    if plot is not None:
        plot_bars(plot, {str(node): [(v, float(p)) for v, p in probs]}, f"firefight dist {expr}")
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
    table = Table(title=f"{node}", title_justify="left")
    for col in ("value", "probability", "%", "X or more %"):
        table.add_column(col, justify="right")
    or_more = d.kept
    for v, p in probs:
        w = p * d.total
        table.add_row(
            str(v), fraction_text(p), f"{100 * float(p):.4f}", f"{100 * or_more / d.total:.4f}"
        )
        or_more -= int(w)
    console = Console()
    console.print(table)
    sd = float(d.variance) ** 0.5
    console.print(f"mean {float(d.mean):.4f}   sd {sd:.4f}", markup=False)
    if d.truncated_mass:
        console.print(
            f"open-ended dice cut at a depth: mass left out {float(d.truncated_mass):.3g}",
            markup=False,
        )
    if plot is not None:
        console.print(f"plot written to {plot}", markup=False)
