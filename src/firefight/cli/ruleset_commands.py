"""``firefight attack|suppress|odds|rulesets``: generic over every registered ruleset."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from firefight.cli.output import plain_console, plot_bars, print_json, styled
from firefight.core.house import load_house
from firefight.core.loading import apply_overrides, read_toml
from firefight.core.odds import OddsReport
from firefight.core.resolution import Resolution
from firefight.core.ruleset import AnyRuleset, Command
from firefight.core.transcript import words
from firefight.core.validation import clip, clip_path
from firefight.dice import ScriptedDice
from firefight.dice.faces import parse_faces
from firefight.errors import FirefightError, InputError, ScriptError
from firefight.rulesets import get_ruleset


class _CountingDice(ScriptedDice):
    """The given faces, then a middle face for every further die (it never explodes), counting
    how many dice the resolution rolls in all; other faces may lead to more or fewer rolls."""

    def _face(self, sides: int) -> int:
        if self.used >= len(self.faces):
            self.faces.append(sides // 2 + 1)
        return super()._face(sides)


def _faces_needed(ruleset: AnyRuleset, situation: Any, faces: list[int]) -> int | None:
    counting = _CountingDice(faces)
    try:
        ruleset.resolve(situation, counting)
    except FirefightError:
        return None
    return counting.used


def load(
    ruleset: AnyRuleset,
    file: Path,
    overrides: list[str],
    house: Path | None,
    command: Command | None,
) -> Any:
    """Read the file, apply ``--set``, load house rules, and validate the situation; with a
    ``command``, refuse a kind that another command resolves (the ruleset's table says which)."""
    data = apply_overrides(read_toml(file), overrides)
    rules = load_house(ruleset.house_model, house)
    situation = ruleset.load_situation(data, source=str(file), house=rules)
    kind = ruleset.kind(situation)
    if command is not None and kind.command != command:
        wanted = [repr(k.name) for k in ruleset.kinds if k.command == command]
        other = wanted[0] if len(wanted) == 1 else f"one of {', '.join(wanted)}"
        raise InputError(
            f"{clip_path(file)}: its kind is {kind.name!r}, not {other}",
            tip=f"resolve it with firefight {kind.command} {ruleset.id} {clip_path(file)}",
        )
    return situation


#: What each resolving command resolves, in the words of its error messages.
_RULES: dict[Command, str] = {"attack": "attack", "suppress": "suppression"}


def resolve(
    ruleset_id: str,
    file: Path,
    seed: int | None,
    dice_text: str | None,
    overrides: list[str],
    house: Path | None,
    as_json: bool,
    command: Command,
) -> None:
    from firefight.dice import SeededDice

    ruleset = get_ruleset(ruleset_id)
    if not any(k.command == command for k in ruleset.kinds):
        raise InputError(
            f"ruleset {ruleset.id} has no {_RULES[command]} rules",
            tip=f"it resolves: {', '.join(ruleset.situation_kinds)}",
        )
    if seed is not None and dice_text is not None:
        raise InputError("--seed and --dice both given", tip="use one: program dice or table dice")
    situation = load(ruleset, file, overrides, house, command)
    scripted = ScriptedDice(parse_faces(dice_text)) if dice_text is not None else None
    if scripted is None and seed is None:
        import numpy as np

        seed = int(np.random.SeedSequence().generate_state(1)[0])
    dice = scripted if scripted is not None else SeededDice(seed)
    try:
        result = ruleset.resolve(situation, dice)
    except ScriptError as err:
        if scripted is None or "ran out" not in err.message:
            raise
        given = len(scripted.faces)
        needed = _faces_needed(ruleset, situation, scripted.faces)
        if needed is None:
            raise
        raise ScriptError(
            f"{err.message}; with middle faces after yours it rolls {needed} dice in all "
            f"(you gave {given})",
            tip=f"give at least {needed} faces in transcript order (other rolls may need more)",
        ) from None
    leftover = scripted.unused if scripted is not None else []
    if leftover:
        raise ScriptError(
            f"--dice has {len(leftover)} face(s) more than this resolution rolls: "
            f"{clip(leftover)} (it rolls {scripted.used if scripted else 0})",
            tip="remove the extra faces, or check their order against the transcript",
        )
    if as_json:
        out = result.to_json()
        out["dice"] = "scripted" if scripted is not None else {"seed": seed}
        print_json(out)
    else:
        render_resolution(result, f"seed {seed}" if scripted is None else "scripted dice")


def render_resolution(result: Resolution, dice_note: str) -> None:
    from rich.table import Table

    console = plain_console()
    console.print(styled((result.ruleset, "bold"), f"  ({dice_note})"))
    for i, line in enumerate(result.transcript.lines(), start=1):
        console.print(f"{i:3d}. {line}")
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
    return words(value)


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
        plain_console().print(f"plot written to {plot}")


def render_odds(report: OddsReport) -> None:
    console = plain_console()
    shown = report.display()
    console.print(shown.heading, style="bold")
    for line in shown.lines:
        console.print(line)
    for grid in shown.grids:
        console.print(grid.rich())
    for note in shown.notes:
        console.print(note, style="dim")
    for line in shown.after:
        console.print(line)


def parse_rows(text: str | None) -> tuple[int, int] | None:
    """``"1-100"`` -> (1, 100); ``"7"`` -> (7, 7). ASCII digits only, up to 6 of them."""
    if text is None:
        return None
    m = re.fullmatch(r"\s*([0-9]{1,6})\s*(?:-\s*([0-9]{1,6})\s*)?", text)
    lo, hi = (int(m.group(1)), int(m.group(2) or m.group(1))) if m else (0, -1)
    if lo < 1 or hi < lo:
        raise InputError(
            f"--rows {clip(text)!r} is not a row range",
            tip="write FROM-TO with FROM at least 1, e.g. --rows 1-100",
        )
    return lo, hi


def show_table(
    ruleset_id: str, rows: str | None, printed: bool, house: Path | None, as_json: bool
) -> None:
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
    plain_console().print(table)


def list_rulesets(as_json: bool) -> None:
    """Every registered ruleset with its version and origin; one line per plugin that cannot be
    used, saying why (the others work on)."""
    from rich.table import Table

    from firefight.rulesets import listing

    rows = [item.to_json() for item in listing()]
    if as_json:
        print_json(rows)
        return
    table = Table("id", "version", "title", "from", "fights")
    for row in rows:
        if row["error"] is None:
            fights = "yes" if row["fights"] else "no"
            table.add_row(row["id"], row["version"], row["title"], row["origin"], fights)
    console = plain_console()
    console.print(table)
    for row in rows:
        if row["error"] is not None:
            console.print(f"not usable: {row['error']}", soft_wrap=True)
