"""``firefight fight`` and ``firefight encounter ...``: thin layers over :mod:`firefight.encounter`.

A saved encounter is only ever written after the step it records has resolved, and atomically,
so a refused action (bad id, impossible faces, a finished fight) leaves the file as it was.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import typer

from firefight.analysis.optimal import plays_optimal, prepare
from firefight.cli.output import TextConsole, count_bar, print_json
from firefight.dice import DiceSource, ScriptedDice, SeededDice
from firefight.encounter import (
    ESTIMATE_PLAYS,
    Encounter,
    Engine,
    Step,
    fight_json,
    load_record,
    play,
    policy_rng,
    read_scenario,
    save_record,
    show_json,
)
from firefight.encounter.fight import combatants_json
from firefight.errors import InputError


def parse_policies(texts: list[str]) -> dict[str, str]:
    """``["marines=aggressive"]`` -> {"marines": "aggressive"}."""
    out: dict[str, str] = {}
    for text in texts:
        side, sep, name = text.partition("=")
        if not sep or not side.strip() or not name.strip():
            raise InputError(
                f"--policy {text!r} is not SIDE=NAME", tip="e.g. --policy marines=aggressive"
            )
        out[side.strip()] = name.strip()
    return out


def fresh_seed() -> int:
    import numpy as np

    return int(np.random.SeedSequence().generate_state(1)[0])


def _engine(
    scenario: Path, policies: list[str], max_rounds: int | None, overrides: list[str]
) -> Engine:
    if max_rounds is not None and max_rounds < 1:
        raise InputError(f"--max-rounds {max_rounds} is below 1", tip="give 1 or more rounds")
    return Engine(read_scenario(scenario, overrides, parse_policies(policies), max_rounds))


def solve_first(engine: Engine, quiet: bool = False) -> None:
    """An ``optimal`` side's solution worked out before the fight starts (or refused in one
    line), with a progress bar of the states met on a terminal."""
    if not plays_optimal(engine):
        return
    from rich.console import Console

    from firefight.analysis.exact import MAX_STATES

    with count_bar(Console(stderr=True), quiet) as bar:
        task = bar.add_task(f"optimal policy: states (limit {MAX_STATES:,})", total=MAX_STATES)
        prepare(engine, lambda n: bar.update(task, completed=n))


# ----------------------------------------------------------------------------------------------
# fight
# ----------------------------------------------------------------------------------------------
def fight(
    scenario: Path,
    seed: int | None,
    policies: list[str],
    max_rounds: int | None,
    overrides: list[str],
    as_json: bool,
) -> None:
    engine = _engine(scenario, policies, max_rounds, overrides)
    solve_first(engine, quiet=as_json)
    seed = fresh_seed() if seed is None else seed
    console = TextConsole()
    dice = SeededDice(seed)
    enc = Encounter.begin(engine, dice)
    if not as_json:
        spec = engine.scenario.spec
        console.print(f"[bold]{spec.title}[/bold]  ({spec.ruleset}, seed {seed})")
        _print_lines(console, enc.start_lines)
    play(enc, dice, policy_rng(seed), on_step=None if as_json else _narrator(console))
    if as_json:
        print_json(fight_json(enc, seed))
        return
    _print_end(console, enc)


def _narrator(console: TextConsole) -> Callable[[Step], None]:
    def narrate(step: Step) -> None:
        console.print(f"[bold]{step.label}[/bold]  [dim]({step.action})[/dim]")
        _print_lines(console, step.lines)

    return narrate


def _print_lines(console: TextConsole, lines: tuple[str, ...]) -> None:
    for line in lines:
        if line.startswith("round "):
            console.rule(line, style="dim")
        else:
            console.print(f"    {line}", markup=False)


def _print_end(console: TextConsole, enc: Encounter) -> None:
    state = enc.state
    if state.ending == "terminated":
        verdict = f"won by {state.winner}" if state.winner else "nobody left standing"
        console.print(f"[bold]fight over after round {state.round}: {verdict}[/bold]")
    elif state.ending == "truncated":
        console.print(
            f"[bold]stopped at max_rounds ({enc.engine.max_rounds}): no winner yet[/bold]"
        )
    _print_combatants(console, enc)
    if state.ending:
        for line in enc.engine.turns.after_fight(state):
            console.print(f"after the fight: {line}", markup=False)


def _print_combatants(console: TextConsole, enc: Encounter) -> None:
    from rich.table import Table

    entries = combatants_json(enc.engine, enc.state)
    table = Table(title="combatants", title_justify="left")
    table.add_column("name")
    table.add_column("side")
    table.add_column("state")
    for name, entry in entries.items():
        rest = {k: v for k, v in entry.items() if k not in ("side", "out", "dead", "harm")}
        flag = "dead" if entry["dead"] else ("out" if entry["out"] else "fighting")
        detail = ", ".join(f"{k} {v}" for k, v in rest.items())
        table.add_row(name, str(entry["side"]), f"{flag}; {detail}" if detail else flag)
    console.print(table)


# ----------------------------------------------------------------------------------------------
# encounter start|actions|act|auto|undo|redo|show
# ----------------------------------------------------------------------------------------------
def start(
    scenario: Path,
    save: Path,
    seed: int | None,
    policies: list[str],
    max_rounds: int | None,
    overrides: list[str],
    force: bool,
) -> None:
    if save.exists() and not force:
        raise InputError(
            f"{save} exists already", tip="choose another --save file or add --force to replace it"
        )
    engine = _engine(scenario, policies, max_rounds, overrides)
    dice = SeededDice(fresh_seed() if seed is None else seed)
    enc = Encounter.begin(engine, dice)
    save_record(enc, save)
    console = TextConsole()
    _print_lines(console, enc.start_lines)
    console.print(f"saved to {save}", markup=False)
    _print_turn(console, enc)


def actions(file: Path, as_json: bool) -> None:
    enc = load_record(file)
    engine, state = enc.engine, enc.state
    listed = engine.legal_actions(state)
    odds, interrupted = _previews(engine, state, listed, quiet=as_json)
    rows: list[dict[str, Any]] = [
        {"id": a.id, "label": a.label, "kind": a.kind, "target": a.target, "odds": o}
        for a, o in zip(listed, odds, strict=True)
    ]
    if as_json:
        print_json(rows)
    else:
        from rich.table import Table

        console = TextConsole()
        table = Table(title=f"round {state.round}: {state.acting} acts", title_justify="left")
        table.add_column("id", no_wrap=True, overflow="fold")
        table.add_column("action")
        table.add_column("odds (exact unless marked estimate)")
        for row in rows:
            table.add_row(row["id"], row["label"], _odds_text(row["odds"]))
        console.print(table)
    if interrupted:
        done = sum(1 for o in odds if o.get("note") != _NOT_COMPUTED)
        print(f"interrupted (Ctrl-C): {done} of {len(listed)} previews computed", file=sys.stderr)
        raise typer.Exit(130)


#: The note of a preview that Ctrl-C left uncomputed.
_NOT_COMPUTED = "not computed: interrupted (Ctrl-C)"


def _previews(
    engine: Engine, state: Any, listed: tuple[Any, ...], quiet: bool
) -> tuple[list[dict[str, Any]], bool]:
    """Each action's exact odds preview (an estimate from plays on seeded dice where exact odds
    are refused), with a progress bar on a terminal (a graydawn volley's previews take seconds
    each); Ctrl-C stops at once, the rest marked not computed."""
    from rich.console import Console

    from firefight.encounter import Preview

    out: list[dict[str, Any]] = []
    with count_bar(Console(stderr=True), quiet) as bar:
        task = bar.add_task("exact odds", total=len(listed))
        try:
            for action in listed:
                out.append(engine.preview(state, action, estimate=ESTIMATE_PLAYS).to_json())
                bar.advance(task)
        except KeyboardInterrupt:
            for action in listed[len(out) :]:
                empty = Preview(action, {}, {}, Fraction(0), Fraction(0), False, _NOT_COMPUTED)
                out.append(empty.to_json())
            return out, True
    return out, False


def _odds_text(odds: dict[str, Any]) -> str:
    """A preview in one cell: exact figures, an estimate's with their 95% intervals and how
    many plays they came from, or why there are none."""
    samples = odds.get("samples", 0)
    if not odds.get("exact", True) and not samples:
        return str(odds.get("note") or "too many branches for exact odds")
    intervals = odds.get("ci95", {}).get("p_out", {})
    parts = []
    for name, p in odds.get("p_out", {}).items():
        if samples:
            lo, hi = intervals[name]
            parts.append(f"P({name} out) ~{100 * p:.0f}% ({100 * lo:.0f}-{100 * hi:.0f}%)")
        else:
            parts.append(f"P({name} out) {100 * p:.1f}%")
    parts += [f"{name} +{h:.2f} harm" for name, h in odds.get("expected_harm", {}).items()]
    text = "; ".join(parts) or "no effect on anyone"
    if samples:
        text += f"; estimated from {samples:,} plays (too many branches for exact odds)"
    return text


def act(file: Path, action_id: str, seed: int | None, dice_text: str | None) -> None:
    enc = load_record(file)
    dice = _dice(seed, dice_text)
    step = enc.act(action_id, dice, faces_of_this_step=True)
    save_record(enc, file)
    console = TextConsole()
    console.print(f"[bold]{step.label}[/bold]")
    _print_lines(console, step.lines)
    _print_turn(console, enc)


def _dice(seed: int | None, dice_text: str | None) -> DiceSource:
    if seed is not None and dice_text is not None:
        raise InputError("--seed and --dice both given", tip="use one: program dice or table dice")
    if dice_text is not None:
        from firefight.dice.faces import parse_faces

        return ScriptedDice(parse_faces(dice_text))
    return SeededDice(fresh_seed() if seed is None else seed)


def auto(file: Path, steps: int | None, seed: int | None) -> None:
    if steps is not None and steps < 1:
        raise InputError(f"--steps {steps} is below 1", tip="give 1 or more steps")
    enc = load_record(file)
    if enc.state.ending is not None:
        raise InputError(f"{file}: the fight is over ({enc.state.ending})", tip="undo a step")
    solve_first(enc.engine)
    seed = fresh_seed() if seed is None else seed
    console = TextConsole()
    play(enc, SeededDice(seed), policy_rng(seed), steps, _narrator(console))
    save_record(enc, file)
    _print_turn(console, enc)


def undo(file: Path) -> None:
    enc = load_record(file)
    step = enc.undo()
    save_record(enc, file)
    console = TextConsole()
    console.print(f"undone: {step.label}", markup=False)
    _print_turn(console, enc)


def redo(file: Path) -> None:
    enc = load_record(file)
    step = enc.redo()
    save_record(enc, file)
    console = TextConsole()
    console.print(f"redone: {step.label}", markup=False)
    _print_lines(console, step.lines)
    _print_turn(console, enc)


def show(file: Path, as_json: bool) -> None:
    enc = load_record(file)
    if as_json:
        print_json(show_json(enc))
        return
    console = TextConsole()
    spec = enc.engine.scenario.spec
    console.print(f"[bold]{spec.title}[/bold]  ({spec.ruleset}, {len(enc.steps)} steps)")
    for step in enc.steps[-5:]:
        console.print(f"  round {step.round}: {step.label}", markup=False)
    if enc.state.ending is None:
        _print_combatants(console, enc)
    _print_turn(console, enc)


def _print_turn(console: TextConsole, enc: Encounter) -> None:
    state = enc.state
    if state.ending is not None:
        _print_end(console, enc)
        return
    order = ", ".join(state.order)
    console.print(
        f"round {state.round} ({state.phase}); order: {order}; "
        f"[bold]{state.acting}[/bold] to act (`firefight encounter actions FILE`)"
    )
