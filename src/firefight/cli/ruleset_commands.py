"""``firefight attack|suppress|odds|rulesets``: generic over every registered ruleset."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from firefight.cli.output import plot_bars, print_json
from firefight.core.house import load_house
from firefight.core.loading import apply_overrides, read_toml
from firefight.core.odds import OddsReport, fraction_text
from firefight.core.resolution import Resolution
from firefight.core.ruleset import Ruleset
from firefight.errors import InputError, ScriptError
from firefight.rulesets import REGISTRY, available, get_ruleset


def parse_faces(text: str) -> list[int]:
    """``"4,8, 11 4"`` -> [4, 8, 11, 4]; one clear line if a face is not a whole number."""
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise InputError("--dice is empty", tip="give the faces rolled, e.g. --dice 4,8,11,4")
    faces = []
    for i, part in enumerate(parts, start=1):
        try:
            faces.append(int(part))
        except ValueError:
            raise InputError(
                f"--dice face {i} is {part!r}, not a whole number", tip="e.g. --dice 4,8,11,4"
            ) from None
    return faces


def load(
    ruleset: Ruleset, file: Path, overrides: list[str], house: Path | None, kind: str | None
) -> Any:
    """Read the file, apply ``--set``, load house rules, and validate the situation."""
    data = apply_overrides(read_toml(file), overrides)
    rules = load_house(ruleset.house_model, house)
    situation = ruleset.load_situation(data, source=str(file), house=rules)
    if kind is not None and kind != "attack":
        actual = ruleset.situation_kind(situation)
        if actual != kind:
            raise InputError(
                f"{file}: its kind is {actual!r}, not {kind!r}",
                tip=f'set kind = "{kind}" in the file or use the matching command',
            )
        if kind not in ruleset.situation_kinds:
            raise InputError(f"ruleset {ruleset.id} has no {kind} rules")
    return situation


def resolve(
    ruleset_id: str,
    file: Path,
    seed: int | None,
    dice_text: str | None,
    overrides: list[str],
    house: Path | None,
    as_json: bool,
    kind: str,
) -> None:
    from firefight.dice import ScriptedDice, SeededDice

    ruleset = get_ruleset(ruleset_id)
    if kind not in ruleset.situation_kinds:
        raise InputError(
            f"ruleset {ruleset.id} has no {kind} rules",
            tip=f"it resolves: {', '.join(ruleset.situation_kinds)}",
        )
    if seed is not None and dice_text is not None:
        raise InputError("--seed and --dice both given", tip="use one: program dice or table dice")
    situation = load(ruleset, file, overrides, house, kind)
    scripted = ScriptedDice(parse_faces(dice_text)) if dice_text is not None else None
    if scripted is None and seed is None:
        import numpy as np

        seed = int(np.random.SeedSequence().generate_state(1)[0])
    dice = scripted if scripted is not None else SeededDice(seed)
    result = ruleset.resolve(situation, dice)
    leftover = scripted.unused if scripted is not None else []
    if as_json:
        out = result.to_json()
        out["dice"] = "scripted" if scripted is not None else {"seed": seed}
        if leftover:
            out["unused_faces"] = leftover
        print_json(out)
    else:
        render_resolution(result, f"seed {seed}" if scripted is None else "scripted dice")
    if leftover:
        err = ScriptError(
            f"{len(leftover)} scripted face(s) were not needed: {leftover}",
            tip="check the order of --dice against the transcript",
        )
        print(f"warning: {err.one_line()}", file=sys.stderr)


def render_resolution(result: Resolution, dice_note: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"[bold]{result.ruleset}[/bold]  ({dice_note})", highlight=False)
    for i, line in enumerate(result.transcript.lines(), start=1):
        console.print(f"{i:3d}. {line}", markup=False, highlight=False)
    if result.summary:
        table = Table(show_header=False, box=None)
        for key, value in result.summary.items():
            table.add_row(str(key), _summary_text(value))
        console.print(table)


def _summary_text(value: object) -> str:
    """A summary value for people: tables as ``key value`` pairs, lists comma-separated."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {_summary_text(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_summary_text(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def odds(
    ruleset_id: str,
    file: Path,
    overrides: list[str],
    house: Path | None,
    as_json: bool,
    plot: Path | None,
) -> None:
    ruleset = get_ruleset(ruleset_id)
    situation = load(ruleset, file, overrides, house, None)
    report = ruleset.odds(situation)
    if plot is not None:
        series = {
            name: [(v, float(p)) for v, p in d.probabilities()]
            for name, d in report.distributions.items()
        }
        if not series:
            series = {"outcomes": [(i, float(p)) for i, p in enumerate(report.outcomes.values())]}
        plot_bars(plot, series, report.title)
    if as_json:
        print_json(report.to_json())
        return
    render_odds(report)
    if plot is not None:
        from rich.console import Console

        Console().print(f"plot written to {plot}", markup=False)


def _pct(p: Fraction) -> str:
    return f"{100 * float(p):.2f}%"


def _frac(p: Fraction, limit: int = 24) -> str:
    """Exact "n/d" when it is short enough to read; deep chains have 1,000-digit denominators,
    so those show as a float in the table (``--json`` always keeps the exact fraction)."""
    if p.denominator == 1:
        return str(p.numerator)
    text = fraction_text(p)
    return text if len(text) <= limit else f"~{float(p):.6g}"


def render_odds(report: OddsReport) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"[bold]{report.title}[/bold]", highlight=False)
    if report.p_hit is not None:
        console.print(f"P(hit) = {_pct(report.p_hit)}  ({_frac(report.p_hit)})", markup=False)
    main = Table(title="outcomes", title_justify="left")
    main.add_column("outcome")
    main.add_column("probability", justify="right")
    main.add_column("%", justify="right")
    for label, p in report.outcomes.items():
        main.add_row(label, _frac(p), _pct(p))
    for label, p in report.probabilities.items():
        main.add_row(label, _frac(p), _pct(p))
    console.print(main)
    for name, table_data in report.tables.items():
        t = Table(title=name, title_justify="left")
        t.add_column("result")
        t.add_column("%", justify="right")
        for label, p in table_data.items():
            t.add_row(label, _pct(p))
        console.print(t)
    for name, d in report.distributions.items():
        t = Table(title=name, title_justify="left")
        t.add_column("value", justify="right")
        t.add_column("%", justify="right")
        t.add_column("or more %", justify="right")
        for v, p in d.probabilities():
            t.add_row(str(v), _pct(p), _pct(d.at_least(v)))
        console.print(t)
    for note in report.notes:
        console.print(note, style="dim", markup=False)
    if report.truncated_mass:
        console.print(f"mass left out by depth limits: {float(report.truncated_mass):.3g}")


def parse_rows(text: str | None) -> tuple[int, int] | None:
    """``"1-100"`` -> (1, 100); ``"7"`` -> (7, 7)."""
    if text is None:
        return None
    parts = text.replace(" ", "").split("-")
    try:
        lo, hi = (int(parts[0]), int(parts[-1])) if len(parts) <= 2 else (0, -1)
    except ValueError:
        lo, hi = 0, -1
    if lo < 1 or hi < lo:
        raise InputError(f"--rows {text!r} is not a row range", tip="write e.g. --rows 1-100")
    return lo, hi


def show_table(
    ruleset_id: str, rows: str | None, printed: bool, house: Path | None, as_json: bool
) -> None:
    from rich.console import Console
    from rich.table import Table

    ruleset = get_ruleset(ruleset_id)
    rules = load_house(ruleset.house_model, house)
    headers, body = ruleset.table(parse_rows(rows), printed, rules)
    if as_json:
        print_json({"ruleset": ruleset.id, "headers": headers, "rows": body})
        return
    table = Table(*headers)
    for row in body:
        table.add_row(*row)
    Console().print(table)


def list_rulesets(as_json: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    present = available()
    rows = []
    for rid in REGISTRY:
        title = get_ruleset(rid).title if rid in present else "(not installed)"
        rows.append({"id": rid, "title": title})
    if as_json:
        print_json(rows)
        return
    table = Table("id", "title")
    for row in rows:
        table.add_row(row["id"], row["title"])
    Console().print(table)
