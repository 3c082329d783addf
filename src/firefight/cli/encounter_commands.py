"""``firefight fight`` and ``firefight encounter ...``: thin layers over :mod:`firefight.encounter`.

A saved encounter is only ever written after the step it records has resolved, and atomically,
so a refused action (bad id, impossible faces, a finished fight) leaves the file as it was; and
never over a file another process changed since this one read it (``save_over``), so two
commands on one save at once commit one step, and the other is refused.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import typer

from firefight.analysis.optimal import plays_optimal, prepare
from firefight.cli.output import (
    TextConsole,
    count_bar,
    plain_console,
    plural,
    print_json,
    value_words,
    words,
)
from firefight.dice import DiceSource, ScriptedDice, SeededDice
from firefight.encounter import (
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
from firefight.encounter.edits import Edit, make_edit, parse_assignment
from firefight.encounter.fight import combatants_json
from firefight.encounter.record import open_record, save_over
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
    from firefight.analysis.exact import MAX_STATES

    with count_bar(plain_console(stderr=True), quiet) as bar:
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
    explain: bool = False,
    budget: float | None = None,
) -> None:
    engine = _engine(scenario, policies, max_rounds, overrides)
    solve_first(engine, quiet=as_json)
    seed = fresh_seed() if seed is None else seed
    console = TextConsole()
    dice = SeededDice(seed)
    enc = Encounter.begin(engine, dice)
    if budget is not None and not explain:
        raise InputError("--budget is for --explain", tip="add --explain, or drop --budget")
    explained: list[dict[str, Any]] = []
    explainer = _explainer(enc, seconds(budget, "--budget", 1.0, 0.001), explained)
    if not as_json:
        spec = engine.scenario.spec
        console.print((spec.title, "bold"), f"  ({spec.ruleset}, seed {seed})")
        _print_lines(console, enc.start_lines)
    narrate = None if as_json else _narrator(console)

    def on_step(step: Step) -> None:
        if explain:
            explainer(step)
        if narrate is not None:
            narrate(step, explained[-1] if explain else None)

    play(enc, dice, policy_rng(seed), on_step=on_step)
    if as_json:
        out = fight_json(enc, seed)
        if explain:
            for row, why in zip(out["steps"], explained, strict=True):
                row["explain"] = why
        print_json(out)
        return
    _print_end(console, enc)


def _explainer(
    enc: Encounter, budget: float, explained: list[dict[str, Any]]
) -> Callable[[Step], None]:
    """What ``fight --explain`` adds to each step: the acting side's chance of winning after
    the action chosen and after the best one, each worked out within ``budget`` CPU seconds
    for the whole list (the fight's own dice untouched)."""
    from firefight.analysis.budget import cpu
    from firefight.analysis.choices import Evaluation, Shared

    shared = Shared(enc.engine)

    def explain(step: Step) -> None:
        engine, before = enc.engine, enc.states[-2]
        start = cpu()
        evaluation = Evaluation(
            engine,
            before,
            budget=budget / 2,
            ceiling=budget,
            odds=False,
            risk=False,
            win=True,
            shared=shared if shared.engine is engine else None,
        )
        evaluation.first_answers()
        while cpu() - start < budget and evaluation.refine() is not None:
            pass
        side = engine.side_of(step.actor)
        rows = [r for r in evaluation.rows() if r["win"] is not None]
        chosen = next((r for r in rows if r["id"] == step.action), None)
        best = max(rows, key=lambda r: r["win"]["p"].get(side, 0.0), default=None)
        explained.append(
            {
                "side": side,
                "chosen": None if chosen is None else chosen["win"],
                "best": None if best is None else {"id": best["id"], **best["win"]},
            }
        )

    return explain


def _narrator(console: TextConsole) -> Callable[[Step, dict[str, Any] | None], None]:
    def narrate(step: Step, explained: dict[str, Any] | None) -> None:
        console.print((step.label, "bold"), "  ", (f"({step.action})", "dim"))
        if explained is not None:
            console.print(("    " + _explanation(step, explained), "italic"))
        _print_lines(console, step.lines)

    return narrate


def _explanation(step: Step, explained: dict[str, Any]) -> str:
    """``win chance (marines): 54% +-2 after this; the best, take cover: 61% +-2``."""
    from firefight.cli.odds_text import win_text

    side, chosen, best = explained["side"], explained["chosen"], explained["best"]
    if chosen is None or best is None:
        return f"win chance ({side}): not worked out in time"
    mine = win_text({"win": chosen}, side)
    if best["id"] == step.action or best["p"].get(side, 0.0) <= chosen["p"].get(side, 0.0):
        return f"win chance ({side}): {mine} after this; no other choice better"
    return f"win chance ({side}): {mine} after this; the best, {best['id']}: " + win_text(
        {"win": best}, side
    )


def _print_lines(console: TextConsole, lines: tuple[str, ...]) -> None:
    for line in lines:
        if line.startswith("round "):
            console.rule(line, style="dim")
        else:
            console.print(f"    {line}")


def _verdict(enc: Encounter) -> str:
    """How a finished fight ended, in a few words."""
    state = enc.state
    if state.ending == "truncated":
        return f"stopped at max_rounds ({enc.engine.max_rounds}): no winner yet"
    verdict = f"won by {state.winner}" if state.winner else "nobody left standing"
    return f"fight over after round {state.round}: {verdict}"


def _print_end(console: TextConsole, enc: Encounter) -> None:
    if enc.state.ending is not None:
        console.print((_verdict(enc), "bold"))
    _print_combatants(console, enc)
    if enc.state.ending:
        for line in enc.engine.turns.after_fight(enc.state):
            console.print(f"after the fight: {line}")


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
        detail = ", ".join(f"{words(k)} {value_words(v)}" for k, v in rest.items())
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
    ask: bool = False,
) -> None:
    from firefight.core.files import check_replaceable

    check_replaceable(save)
    if save.exists() and not force:
        raise InputError(
            f"{save} exists already", tip="choose another --save file or add --force to replace it"
        )
    if ask and seed is not None:
        raise InputError("--seed and --ask both given", tip="use one: program dice or table dice")
    if ask:
        from firefight.cli.table_dice import require_terminal

        require_terminal("--seed, then `firefight encounter act` steps with --dice")
    engine = _engine(scenario, policies, max_rounds, overrides)
    if ask:
        from firefight.cli.table_dice import ask_or_stop
        from firefight.encounter.table_dice import ask_start, start_people

        asked = ask_or_stop(
            lambda faces, program: ask_start(engine, faces, program=program),
            start_people(engine),
        )
        if save.exists() and not force:  # made meanwhile, by another process
            raise InputError(
                f"{save} was made while the dice were asked for; nothing saved",
                tip="choose another --save file or add --force to replace it",
            )
        dice: DiceSource = ScriptedDice(asked.faces)
    else:
        dice = SeededDice(fresh_seed() if seed is None else seed)
    enc = Encounter.begin(engine, dice)
    save_record(enc, save)
    console = TextConsole()
    _print_lines(console, enc.start_lines)
    console.print(f"saved to {save}")
    _print_turn(console, enc)


def actions(
    file: Path,
    as_json: bool,
    budget: float | None = None,
    ceiling: float | None = None,
    win: bool = False,
) -> None:
    """The acting combatant's choices with their odds, risk and (``win``) win chances: first
    answers within ``budget`` CPU seconds, then refined, each answer up to ``ceiling`` seconds
    (exact where it finishes; Ctrl-C prints what is known)."""
    from firefight.analysis.choices import BUDGET, CEILING, Evaluation

    enc = load_record(file)
    engine, state = enc.engine, enc.state
    if state.ending is not None:  # an answer, not a mistake: nobody acts any more
        if as_json:
            print_json([])
        else:
            TextConsole().print(
                f"{_verdict(enc)}; no actions left "
                "(`firefight encounter undo FILE` takes back the last step)"
            )
        return
    evaluation = Evaluation(
        engine,
        state,
        budget=seconds(budget, "--budget", BUDGET, low=0.001),
        ceiling=seconds(ceiling, "--ceiling", CEILING, low=0.0),
        win=win,
    )
    interrupted = _evaluate(evaluation, quiet=as_json)
    rows = evaluation.rows()
    if as_json:
        print_json(rows)
    else:
        _print_choices(state, rows, engine, win)
    if interrupted:
        from firefight.analysis.choices import progress_text

        print(f"interrupted (Ctrl-C): {progress_text(evaluation.progress())}", file=sys.stderr)
        raise typer.Exit(130)


#: Most CPU seconds ``--budget`` and ``--ceiling`` take (an hour).
MAX_SECONDS = 3600.0


def seconds(value: float | None, option: str, default: float, low: float) -> float:
    if value is None:
        return default
    if not low <= value <= MAX_SECONDS:
        raise InputError(
            f"{option} {value:g} is outside {low:g}..{MAX_SECONDS:g} seconds",
            tip=f"e.g. {option} {default:g}",
        )
    return value


def _evaluate(evaluation: Any, quiet: bool) -> bool:
    """First answers, then refinement until every answer is final, with the progress in words
    on a terminal; Ctrl-C stops it (True: interrupted), what is known kept."""
    from firefight.analysis.choices import progress_text

    choices = evaluation.choices
    with count_bar(plain_console(stderr=True), quiet) as bar:
        task = bar.add_task("first answers", total=len(choices))
        try:
            evaluation.first_answers()
            while evaluation.refine() is not None:
                final = sum(all(w.final for w in c.works()) for c in choices)
                bar.update(task, completed=final, description=progress_text(evaluation.progress()))
        except KeyboardInterrupt:
            return True
    return False


def _print_choices(state: Any, rows: list[dict[str, Any]], engine: Engine, win: bool) -> None:
    from rich.table import Table

    from firefight.cli.odds_text import odds_text, win_text

    console = TextConsole()
    side = engine.side_of(str(state.acting))
    table = Table(title=f"round {state.round}: {state.acting} acts", title_justify="left")
    table.add_column("id", no_wrap=True, overflow="fold")
    table.add_column("action")
    table.add_column("odds (exact unless marked ~)")
    if win:
        table.add_column(f"{side} win")
    labels = {r["id"]: r["label"] for r in rows}
    for row in rows:
        cells = [row["id"], row["label"], odds_text(row, labels)]
        table.add_row(*cells, *([win_text(row, side)] if win else []))
    console.print(table)


def act(
    file: Path, action_id: str, seed: int | None, dice_text: str | None, ask: bool = False
) -> None:
    if ask and (seed is not None or dice_text is not None):
        given = "--seed" if seed is not None else "--dice"
        raise InputError(f"{given} and --ask both given", tip="use one: program dice or table dice")
    if ask:
        from firefight.cli.table_dice import require_terminal

        require_terminal(f"--dice (`firefight encounter dice {file} ID` says what comes next)")
    from firefight.cli.table_dice import TOO_FEW_TIP
    from firefight.dice.asking import AskingDice, too_few_faces_explained

    opened = open_record(file)
    enc = opened.enc
    if ask:
        from firefight.cli.table_dice import ask_or_stop
        from firefight.encounter.table_dice import ask_step, step_people

        people = step_people(enc, action_id)
        asked = ask_or_stop(
            lambda faces, program: ask_step(enc, action_id, faces, program=program), people
        )
        dice: DiceSource = ScriptedDice(asked.faces)
    else:
        dice = _dice(seed, dice_text, table=AskingDice)
    faces = dice.faces if isinstance(dice, ScriptedDice) else []
    with too_few_faces_explained(partial(enc.trial, action_id), faces, "--dice", TOO_FEW_TIP):
        step = enc.act(action_id, dice, faces_of_this_step=True)
    save_over(opened)
    console = TextConsole()
    console.print((step.label, "bold"))
    _print_lines(console, step.lines)
    _print_turn(console, enc)


def _dice(
    seed: int | None, dice_text: str | None, table: Callable[[list[int]], DiceSource] = ScriptedDice
) -> DiceSource:
    """The program's dice (``seed``, or fresh) or the table's faces (``--dice``) as ``table``
    dice (:class:`AskingDice` where too few faces are explained die by die)."""
    if seed is not None and dice_text is not None:
        raise InputError("--seed and --dice both given", tip="use one: program dice or table dice")
    if dice_text is not None:
        from firefight.dice.faces import parse_faces

        return table(parse_faces(dice_text))
    return SeededDice(fresh_seed() if seed is None else seed)


def dice(file: Path, action_id: str, faces_text: str | None, as_json: bool) -> None:
    """``encounter dice``: the next group the action needs, given the faces so far."""
    from firefight.cli.table_dice import print_asked
    from firefight.dice.faces import parse_faces
    from firefight.encounter.table_dice import ask_step, step_people

    enc = load_record(file)
    faces = parse_faces(faces_text, "--faces") if faces_text is not None else []
    asked = ask_step(enc, action_id, faces)
    lines = asked.result.lines if asked.result is not None else ()
    print_asked(asked, step_people(enc, action_id), lines, as_json)


def auto(file: Path, steps: int | None, seed: int | None) -> None:
    if steps is not None and steps < 1:
        raise InputError(f"--steps {steps} is below 1", tip="give 1 or more steps")
    opened = open_record(file)
    enc = opened.enc
    if enc.state.ending is not None:
        raise InputError(f"{file}: the fight is over ({enc.state.ending})", tip="undo a step")
    solve_first(enc.engine)
    seed = fresh_seed() if seed is None else seed
    console = TextConsole()
    narrate = _narrator(console)
    play(enc, SeededDice(seed), policy_rng(seed), steps, lambda step: narrate(step, None))
    save_over(opened)
    _print_turn(console, enc)


def undo(file: Path) -> None:
    opened = open_record(file)
    step = opened.enc.undo()
    save_over(opened)
    console = TextConsole()
    console.print(f"undone: {step.label}")
    _print_turn(console, opened.enc)


def redo(file: Path) -> None:
    opened = open_record(file)
    step = opened.enc.redo()
    save_over(opened)
    console = TextConsole()
    console.print(f"redone: {step.label}")
    _print_lines(console, step.lines)
    _print_turn(console, opened.enc)


# ----------------------------------------------------------------------------------------------
# the GM's hand: encounter edit|add|remove|order|skip|end-round
# ----------------------------------------------------------------------------------------------
def edit(file: Path, assignment: str, seed: int | None, dice_text: str | None) -> None:
    """``NAME.FIELD=VALUE`` (the value as TOML: 14, true, "taking cover")."""
    opened = open_record(file)
    _edited(opened, parse_assignment(assignment, opened.enc.state.names()), seed, dice_text)


def add(
    file: Path,
    side: str,
    combatant: str,
    position: int | None,
    range_: str | None,
    cover: str | None,
    seed: int | None,
    dice_text: str | None,
) -> None:
    """A combatant who arrives: its table from a TOML file or TOML text."""
    opened = open_record(file)
    table = combatant_table(combatant)
    distance = _toml_value(range_, "--range") if range_ is not None else None
    if position is not None and position < 1:
        raise InputError(f"--at {position} is below 1", tip="places count from 1, the first")
    at = None if position is None else position - 1
    change = make_edit("add", side=side, combatant=table, position=at, range=distance, cover=cover)
    _edited(opened, change, seed, dice_text)


def remove(file: Path, name: str, seed: int | None, dice_text: str | None) -> None:
    opened = open_record(file)
    _edited(opened, make_edit("remove", combatant=name), seed, dice_text)


def order(file: Path, names: str, seed: int | None, dice_text: str | None) -> None:
    opened = open_record(file)
    listed = tuple(n.strip() for n in names.split(",") if n.strip())
    if not listed:
        raise InputError("order names nobody", tip="e.g. encounter order FILE 'Ash,Jax,Rook'")
    _edited(opened, make_edit("order", order=listed), seed, dice_text)


def skip(file: Path, seed: int | None, dice_text: str | None) -> None:
    opened = open_record(file)
    _edited(opened, make_edit("skip"), seed, dice_text)


def end_round(file: Path, seed: int | None, dice_text: str | None) -> None:
    opened = open_record(file)
    _edited(opened, make_edit("end round"), seed, dice_text)


def _edited(opened: Any, change: Edit, seed: int | None, dice_text: str | None) -> None:
    enc = opened.enc
    step = enc.edit(change, _dice(seed, dice_text), faces_of_this_step=True)
    save_over(opened)
    console = TextConsole()
    console.print(step.label)
    _print_lines(console, step.lines[1:])
    _print_turn(console, enc)


def combatant_table(text: str) -> dict[str, Any]:
    """``--combatant``: a TOML file, TOML text or an inline table (``{name = "Rook", ...}``)
    holding one combatant's table (its keys at the top, or one ``[[combatants]]`` entry), as
    in a scenario file."""
    import tomllib

    from firefight.core.loading import read_toml

    path = Path(text)
    inline = text.strip().startswith("{")  # an inline table: {name = "Rook", ...}
    looks_like_file = "=" not in text and "\n" not in text
    try:
        if inline:
            data = tomllib.loads(f"v = {text.strip()}")["v"]
        else:
            data = read_toml(path) if looks_like_file else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError) as err:
        raise InputError(
            f"--combatant: not valid TOML ({err})", tip='e.g. {name = "Rook", weapon = "knife"}'
        ) from None
    rows = data.get("combatants")
    if rows is not None:
        if not isinstance(rows, list) or len(rows) != 1 or len(data) != 1:
            raise InputError(
                "--combatant: give one combatant (its keys, or one [[combatants]] table)",
                tip='e.g. name = "Rook" and the fields of a scenario combatant',
            )
        data = rows[0]
    if not isinstance(data, dict):
        raise InputError("--combatant: give a table of keys", tip='e.g. name = "Rook"')
    return data


def _toml_value(text: str, option: str) -> Any:
    import tomllib

    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        raise InputError(
            f"{option} {text!r} is not a TOML value", tip='e.g. 30, or "medium" in quotes'
        ) from None


def show(file: Path, as_json: bool) -> None:
    enc = load_record(file)
    if as_json:
        print_json(show_json(enc))
        return
    console = TextConsole()
    spec = enc.engine.scenario.spec
    console.print((spec.title, "bold"), f"  ({spec.ruleset}, {plural(len(enc.steps), 'step')})")
    for step in enc.steps[-5:]:
        console.print(f"  round {step.round}: {step.label}")
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
        f"round {state.round} ({state.phase}); order: {order}; ",
        (str(state.acting), "bold"),
        " to act (`firefight encounter actions FILE`)",
    )
