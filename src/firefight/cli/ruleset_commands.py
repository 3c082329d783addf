"""``firefight attack|suppress|odds|rulesets``: generic over every registered ruleset."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from typing import Any

from firefight.cli.output import plain_console, plural, print_json, styled, value_words, words
from firefight.core.house import load_house
from firefight.core.loading import apply_overrides, read_toml
from firefight.core.odds import OddsReport
from firefight.core.paths import removal_tip
from firefight.core.resolution import Resolution
from firefight.core.ruleset import AnyRuleset, Command
from firefight.core.validation import clip, clip_path
from firefight.dice.faces import parse_faces
from firefight.errors import FirefightError, InputError, ScriptError
from firefight.rulesets import get_ruleset, is_scenario, rulesets_loading


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
    if is_scenario(data):
        raise InputError(
            f"{clip_path(file)}: is a scenario file (a whole fight), not a situation",
            tip=f"play it with firefight fight or simulate {clip_path(file)}; "
            f"a situation file is one attack ({ruleset.id}: docs/rules/{ruleset.id}.md)",
        )
    rules = load_house(ruleset.house_model, house)
    try:
        with removal_tip(overrides):
            situation = ruleset.load_situation(data, source=str(file), house=rules)
    except FirefightError:
        others = rulesets_loading(data, str(file), but=ruleset.id)
        if not others:
            raise
        rid, verb = others[0]
        raise InputError(
            f"{clip_path(file)}: is a {rid} file, not a {ruleset.id} one",
            tip=f"resolve it with firefight {verb} {rid} {clip_path(file)}",
        ) from None
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
    ask: bool = False,
) -> None:
    from firefight.cli.table_dice import TOO_FEW_TIP
    from firefight.dice import SeededDice
    from firefight.dice.asking import AskingDice, too_few_faces_explained

    ruleset = get_ruleset(ruleset_id)
    if not any(k.command == command for k in ruleset.kinds):
        raise InputError(
            f"ruleset {ruleset.id} has no {_RULES[command]} rules",
            tip=f"it resolves: {', '.join(ruleset.situation_kinds)}",
        )
    chosen = (("--seed", seed is not None), ("--dice", dice_text is not None), ("--ask", ask))
    given = [name for name, yes in chosen if yes]
    if len(given) > 1:
        together = "both given" if len(given) == 2 else "all given"
        raise InputError(
            f"{' and '.join(given)} {together}", tip="use one: program dice or table dice"
        )
    if ask:
        from firefight.cli.table_dice import require_terminal

        require_terminal(f"firefight {command} {ruleset.id} {clip_path(file)} --dice 4,8,...")
    situation = load(ruleset, file, overrides, house, command)
    faces = parse_faces(dice_text) if dice_text is not None else None
    if ask:
        faces = _asked_faces(ruleset, situation, file, overrides)
    scripted = AskingDice(faces) if faces is not None else None
    if scripted is None and seed is None:
        import numpy as np

        seed = int(np.random.SeedSequence().generate_state(1)[0])
    dice = scripted if scripted is not None else SeededDice(seed)
    run = partial(ruleset.resolve, situation)
    with too_few_faces_explained(run, faces or [], "--dice", TOO_FEW_TIP):
        result = run(dice)
    leftover = scripted.unused if scripted is not None else []
    if leftover:
        raise ScriptError(
            f"--dice has {plural(len(leftover), 'face')} more than this resolution rolls: "
            f"{clip(leftover)} (it rolls {scripted.used if scripted else 0})",
            tip="remove the extra faces, or check their order against the transcript",
        )
    if as_json:
        out = result.to_json()
        out["dice"] = "scripted" if scripted is not None else {"seed": seed}
        print_json(out)
    else:
        shown = ",".join(map(str, scripted.faces)) if scripted is not None else ""
        note = f"seed {seed}" if scripted is None else f"the table's dice: {shown or 'none'}"
        render_resolution(result, note)


def _asked_faces(
    ruleset: AnyRuleset, situation: Any, file: Path, overrides: list[str]
) -> list[int]:
    """The faces of the resolution, asked for group by group at the terminal (``--ask``)."""
    from firefight.cli.table_dice import ask_or_stop
    from firefight.core.table_dice import people_in_situation
    from firefight.dice.asking import ask

    people = people_in_situation(apply_overrides(read_toml(file), overrides))
    run = partial(ruleset.resolve, situation)
    asked = ask_or_stop(lambda faces, program: ask(run, faces, program=program), people)
    return list(asked.faces)


def render_resolution(result: Resolution, dice_note: str) -> None:
    from rich.table import Table

    console = plain_console()
    console.print(styled((result.ruleset, "bold"), f"  ({dice_note})"))
    for i, line in enumerate(result.transcript.lines(), start=1):
        console.print(f"{i:3d}. {line}")
    if result.summary:
        table = Table(show_header=False, box=None)
        for key, value in result.summary.items():
            table.add_row(words(key), value_words(value))
        console.print(table)


def odds(
    ruleset_id: str,
    file: Path,
    overrides: list[str],
    house: Path | None,
    as_json: bool,
    plot: Path | None,
) -> None:
    ruleset = get_ruleset(ruleset_id)
    if plot is not None:
        from firefight.cli.plots import check_png

        check_png(plot)
    situation = load(ruleset, file, overrides, house, None)
    report = ruleset.odds(situation)
    if plot is not None:
        from firefight.cli.plots import odds_plot

        odds_plot(plot, report)
    if as_json:
        print_json(report.to_json())
        return
    render_odds(report)
    if plot is not None:
        plain_console().print(f"plot written to {plot}")


def render_odds(report: OddsReport) -> None:
    """The report's tables (:meth:`OddsReport.display`, which a notebook shows too)."""
    console = plain_console()
    for part in report.display().parts():
        console.print(part)


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
