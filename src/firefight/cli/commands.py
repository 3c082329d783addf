"""The ``firefight`` command line as a Typer app: every command, its options and its help.

The entry point (:func:`firefight.cli.app.main`) builds this app only for what its quick path
does not run. Commands import the library lazily, the command they run only. Every command runs
inside :func:`~firefight.cli.errors.user_errors`: a mistake the user can fix is one line and
exit 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from firefight.cli.errors import FORMATS, user_errors
from firefight.cli.group import ArgumentNames, OneLineGroup

app = typer.Typer(
    name="firefight",
    cls=OneLineGroup,
    help=(
        "Tactical tabletop-RPG combat: resolve attacks with transcripts, exact odds, dice. "
        f"Situation, catalog and house-rule files are TOML; {FORMATS}."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        min=0,
        metavar="N",
        help="Seed for the program's dice, 0 or more (same seed, same rolls).",
    ),
]
DiceOpt = Annotated[
    str | None,
    typer.Option(
        "--dice",
        metavar="FACES",
        help="Faces the table rolled, in transcript order, e.g. 4,8,11,4 (instead of --seed).",
    ),
]
AskOpt = Annotated[
    bool,
    typer.Option(
        "--ask",
        help="Ask at the terminal for each roll the table makes, group by group (Enter: the "
        "program rolls it; back: take back the last; Ctrl-C: stop).",
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="PATH=VALUE",
        help="Change a field of the file: attack.range_m=250, combatants.Rivera.weapon=M9 "
        "(combatants and sides by name); PATH= removes it (target.armour=). Repeatable.",
    ),
]
HouseOpt = Annotated[
    Path | None,
    typer.Option(
        "--house",
        metavar="FILE",
        help="TOML file of house rules (numbers the text fixes); see examples/<ruleset>/house/.",
    ),
]
PlotOpt = Annotated[
    Path | None, typer.Option("--plot", metavar="FILE.png", help="Also save a bar chart as PNG.")
]
RulesetArg = Annotated[
    str, typer.Argument(metavar="RULESET", help="Ruleset id (see `firefight rulesets`).")
]
FileArg = Annotated[Path, typer.Argument(metavar="FILE", help=f"Situation file (TOML); {FORMATS}.")]
CeilingOpt = Annotated[
    float | None,
    typer.Option(
        "--ceiling",
        metavar="SECONDS",
        help="CPU seconds of an action's longest exact attempt, and of its risk's and win "
        "chance's refinement (default 10).",
    ),
]


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            print(f"firefight {version('firefight')}")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            print("firefight (not installed)")
        raise typer.Exit()


@app.callback()
def _main(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_version, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Tactical tabletop-RPG combat: resolve attacks with transcripts, exact odds, dice."""


@app.command()
def roll(
    expr: Annotated[
        str,
        typer.Argument(
            metavar="EXPR",
            help="Dice expression, e.g. 2d20, d10x+11, pm6, 4d6kh3 (docs/dice.md).",
        ),
    ],
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Roll a dice expression and show every die (kept, dropped, exploded)."""
    with user_errors():
        from firefight.cli import dice_commands

        dice_commands.roll(expr, seed, as_json)


@app.command()
def dist(
    expr: Annotated[
        str,
        typer.Argument(metavar="EXPR", help="Dice expression, e.g. abs(2d20-2d20) (docs/dice.md)."),
    ],
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
) -> None:
    """Exact distribution of a dice expression: value, probability, percent, "X or more"."""
    with user_errors():
        from firefight.cli import dice_commands

        dice_commands.dist(expr, as_json, plot)


@app.command()
def attack(
    ruleset: RulesetArg,
    file: FileArg,
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    set_: SetOpt = None,
    house: HouseOpt = None,
    as_json: JsonOpt = False,
    ask: AskOpt = False,
) -> None:
    """Resolve one attack with a transcript of every roll and modifier."""
    with user_errors():
        from firefight.cli import ruleset_commands

        ruleset_commands.resolve(
            ruleset, file, seed, dice, set_ or [], house, as_json, "attack", ask
        )


@app.command()
def suppress(
    ruleset: Annotated[
        str, typer.Argument(metavar="RULESET", help="Ruleset id with suppression rules.")
    ],
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help=f"Suppression situation file (TOML); {FORMATS}.")
    ],
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    set_: SetOpt = None,
    house: HouseOpt = None,
    as_json: JsonOpt = False,
    ask: AskOpt = False,
) -> None:
    """Resolve suppressing fire (and the target's check) with a transcript."""
    with user_errors():
        from firefight.cli import ruleset_commands

        ruleset_commands.resolve(
            ruleset, file, seed, dice, set_ or [], house, as_json, "suppress", ask
        )


@app.command()
def odds(
    ruleset: RulesetArg,
    file: FileArg,
    set_: SetOpt = None,
    house: HouseOpt = None,
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
) -> None:
    """Exact odds of a situation, from the same rule code that resolves it."""
    with user_errors():
        from firefight.cli import ruleset_commands

        ruleset_commands.odds(ruleset, file, set_ or [], house, as_json, plot)


@app.command()
def table(
    ruleset: Annotated[
        str, typer.Argument(metavar="RULESET", help="Ruleset id with a rule table (quality_d100).")
    ],
    rows: Annotated[
        str | None,
        typer.Option("--rows", metavar="FROM-TO", help="Rows to show, e.g. 1-100 or 40-60."),
    ] = None,
    printed: Annotated[
        bool, typer.Option("--printed", help="Show the text's printed reading where it differs.")
    ] = False,
    house: HouseOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Render a ruleset's rule table from the rules (e.g. the success quality table)."""
    with user_errors():
        from firefight.cli import ruleset_commands

        ruleset_commands.show_table(ruleset, rows, printed, house, as_json)


@app.command()
def rulesets(as_json: JsonOpt = False) -> None:
    """List the rulesets: built in and installed plugins, with version and origin."""
    with user_errors():
        from firefight.cli import ruleset_commands

        ruleset_commands.list_rulesets(as_json)


@app.command("new-ruleset")
def new_ruleset(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The ruleset's id, e.g. my_rules.")],
    folder: Annotated[
        Path,
        typer.Option("--dir", metavar="PATH", help="Where to write the package (default: here)."),
    ] = Path("."),
) -> None:
    """Write a ruleset package to start from: pip install -e it, and it runs everywhere."""
    with user_errors():
        from firefight.cli import new_ruleset as scaffold

        scaffold.run(name, folder)


ScenarioArg = Annotated[
    Path, typer.Argument(help="Scenario file (TOML; see docs/encounters.md).", metavar="SCENARIO")
]
RecordArg = Annotated[
    Path, typer.Argument(help="Saved encounter (from `encounter start`).", metavar="FILE")
]
PolicyOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--policy",
        metavar="SIDE=NAME",
        help="Who chooses for a side: first, random, aggressive, cautious or optimal. Repeatable.",
    ),
]
MaxRoundsOpt = Annotated[
    int | None,
    typer.Option("--max-rounds", metavar="N", help="Stop the fight after this many rounds."),
]


@app.command()
def fight(
    scenario: ScenarioArg,
    seed: SeedOpt = None,
    policy: PolicyOpt = None,
    max_rounds: MaxRoundsOpt = None,
    set_: SetOpt = None,
    as_json: JsonOpt = False,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain",
            help="At each step, the acting side's chance of winning after the action chosen "
            "and after the best one.",
        ),
    ] = False,
    budget: Annotated[
        float | None,
        typer.Option(
            "--budget", metavar="SECONDS", help="CPU seconds per step for --explain (default 1)."
        ),
    ] = None,
) -> None:
    """One whole fight to the end, narrated round by round with every action's transcript."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.fight(
            scenario, seed, policy or [], max_rounds, set_ or [], as_json, explain, budget
        )


@app.command()
def simulate(
    scenario: ScenarioArg,
    n: Annotated[
        int | None,
        typer.Option("-n", "--fights", metavar="N", help="How many fights (default 10,000)."),
    ] = None,
    seed: SeedOpt = None,
    policy: PolicyOpt = None,
    max_rounds: MaxRoundsOpt = None,
    set_: SetOpt = None,
    exact: Annotated[
        bool,
        typer.Option("--exact", help="Solve the fight exactly (small fights, fixed policies)."),
    ] = False,
    reference: Annotated[
        bool, typer.Option("--reference", help="Play fight by fight (slow; for checking).")
    ] = False,
    workers: Annotated[
        int | None,
        typer.Option("--workers", metavar="N", help="Processes (default: all cores for big runs)."),
    ] = None,
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
) -> None:
    """Who wins, how often, in how many rounds, and who falls: many fights, or exactly."""
    with user_errors():
        from firefight.cli import simulate_commands

        simulate_commands.run(
            scenario,
            n,
            seed,
            policy or [],
            max_rounds,
            set_ or [],
            exact,
            reference,
            workers,
            as_json,
            plot,
        )


@app.command()
def solve(
    scenario: ScenarioArg,
    side: Annotated[
        str | None,
        typer.Option("--side", metavar="NAME", help="Solve for this side only (default: each)."),
    ] = None,
    against: Annotated[
        str,
        typer.Option(
            "--against",
            metavar="policies|optimal",
            help="The other sides keep their scenario policies, or also decide best.",
        ),
    ] = "policies",
    decide: Annotated[
        list[str] | None,
        typer.Option(
            "--decide",
            metavar="KIND",
            help="Only decisions offering this kind of action (e.g. riposte) are made best; "
            "the rest by policy. Repeatable.",
        ),
    ] = None,
    policy: PolicyOpt = None,
    max_rounds: MaxRoundsOpt = None,
    set_: SetOpt = None,
    max_states: Annotated[
        int | None,
        typer.Option("--max-states", metavar="N", help="Refuse past N states (default 50,000)."),
    ] = None,
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
) -> None:
    """The best decision at every point of a fight, and each side's chance with it."""
    with user_errors():
        from firefight.cli import solve_commands

        solve_commands.run(
            scenario,
            side,
            against,
            decide,
            policy or [],
            max_rounds,
            set_ or [],
            max_states,
            as_json,
            plot,
        )


@app.command()
def sweep(
    scenario: ScenarioArg,
    vary: Annotated[
        list[str],
        typer.Option(
            "--vary",
            metavar="PATH=VALUES",
            help="A field and its values: a range (10..16, 0..30:5) or a list "
            "(leather,chain,plate); PATH like combatants.Rolf.attack. Repeatable.",
        ),
    ],
    n: Annotated[
        int | None,
        typer.Option("-n", "--fights", metavar="N", help="Fights per cell (default 10,000)."),
    ] = None,
    seed: SeedOpt = None,
    exact: Annotated[
        bool, typer.Option("--exact", help="Solve each cell exactly (small fights).")
    ] = False,
    set_: SetOpt = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="FILE", help="Write the table: FILE.parquet or FILE.csv."),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="FILE.png",
            help="Lines with 95% bands (one field), heatmaps (two).",
        ),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="A Dask scheduler's address (default: this process, or a local cluster when "
            "the sweep is big enough to gain from one).",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", metavar="N", help="Run on a local cluster of N processes (always)."
        ),
    ] = None,
    no_cluster: Annotated[
        bool, typer.Option("--no-cluster", help="Run every cell in this process (always).")
    ] = False,
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout", metavar="SECONDS", help="Wait this long for the scheduler (default 10)."
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Win rates over a grid of changed scenario fields, one simulate per cell, on Dask."""
    with user_errors():
        from firefight.cli import sweep_commands

        sweep_commands.run(
            scenario,
            vary,
            n,
            seed,
            exact,
            set_ or [],
            out,
            plot,
            scheduler,
            workers,
            no_cluster,
            timeout,
            as_json,
        )


@app.command()
def serve(
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="PATH_OR_URL",
            help="SQLite file or SQLAlchemy URL (default: tracker.sqlite3 in the user's data "
            "folder, $XDG_DATA_HOME/firefight).",
        ),
    ] = None,
    host: Annotated[
        str, typer.Option("--host", metavar="ADDRESS", help="Address to listen on.")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", metavar="PORT", min=0, max=65535, help="Port (0 to 65535).")
    ] = 8000,
    examples: Annotated[
        Path | None,
        typer.Option(
            "--examples",
            metavar="FOLDER",
            help="Folder of example scenarios, <ruleset>/encounters/*.toml (default: the "
            "bundled ones); the rulesets' own examples are offered too.",
        ),
    ] = None,
    budget: Annotated[
        float | None,
        typer.Option(
            "--budget",
            metavar="SECONDS",
            help="CPU seconds for the first answers of a list of actions' odds, the step "
            "included (default 1).",
        ),
    ] = None,
    ceiling: CeilingOpt = None,
) -> None:
    """The GM's web tracker: encounters in a database, a GM page and a players' page."""
    with user_errors():
        from firefight.cli import serve_commands

        serve_commands.serve(db, host, port, examples, budget, ceiling)


encounter_app = typer.Typer(
    cls=ArgumentNames,
    help="Run a fight one step at a time, saved between calls (for a GM at a terminal).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(encounter_app, name="encounter")


@encounter_app.command("start")
def encounter_start(
    scenario: ScenarioArg,
    save: Annotated[
        Path, typer.Option("--save", metavar="FILE", help="File to save the encounter in (JSON).")
    ],
    seed: SeedOpt = None,
    policy: PolicyOpt = None,
    max_rounds: MaxRoundsOpt = None,
    set_: SetOpt = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing --save file.")
    ] = False,
    ask: AskOpt = False,
) -> None:
    """Start an encounter: roll round 1's initiative (or ask the table's, --ask) and save it."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.start(
            scenario, save, seed, policy or [], max_rounds, set_ or [], force, ask
        )


@encounter_app.command("actions")
def encounter_actions(
    file: RecordArg,
    as_json: JsonOpt = False,
    budget: Annotated[
        float | None,
        typer.Option(
            "--budget",
            metavar="SECONDS",
            help="CPU seconds for every action's first answer (default 1); exact where it "
            "finishes, else estimated, then refined.",
        ),
    ] = None,
    ceiling: CeilingOpt = None,
    win: Annotated[
        bool,
        typer.Option("--win", help="Each side's chance of winning the fight after each action."),
    ] = False,
) -> None:
    """The legal actions of whoever acts now, with ids, odds (exact where they finish in time),
    the actor's risk before his next turn and, with --win, the fight's win chances."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.actions(file, as_json, budget, ceiling, win)


@encounter_app.command("act")
def encounter_act(
    file: RecordArg,
    action_id: Annotated[
        str, typer.Argument(metavar="ACTION", help="An id from `encounter actions`.")
    ],
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    ask: AskOpt = False,
) -> None:
    """Resolve one action on the program's dice (--seed) or the table's (--dice, or asked for
    roll by roll with --ask), and save."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.act(file, action_id, seed, dice, ask)


@encounter_app.command("dice")
def encounter_dice(
    file: RecordArg,
    action_id: Annotated[str, typer.Argument(help="An id from `encounter actions`.")],
    faces: Annotated[
        str | None,
        typer.Option(
            "--faces", metavar="FACES", help="The faces rolled so far, e.g. 4,8 (default: none)."
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """The next group of dice the action needs from the table (for scripts); saves nothing."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.dice(file, action_id, faces, as_json)


@encounter_app.command("auto")
def encounter_auto(
    file: RecordArg,
    steps: Annotated[
        int | None,
        typer.Option("--steps", metavar="N", help="Stop after this many steps (default: the end)."),
    ] = None,
    seed: SeedOpt = None,
) -> None:
    """Let the sides' policies choose, on the program's dice, and save."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.auto(file, steps, seed)


@encounter_app.command("undo")
def encounter_undo(file: RecordArg) -> None:
    """Take back the last step (it can be redone)."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.undo(file)


@encounter_app.command("redo")
def encounter_redo(file: RecordArg) -> None:
    """Play an undone step again, on the same faces."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.redo(file)


@encounter_app.command("show")
def encounter_show(file: RecordArg, as_json: JsonOpt = False) -> None:
    """Round, whose turn, every combatant's state, the last steps."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.show(file, as_json)


# -- the GM's hand ---------------------------------------------------------------------------------
@encounter_app.command("edit")
def encounter_edit(
    file: RecordArg,
    assignment: Annotated[
        str,
        typer.Argument(
            help="NAME.FIELD=VALUE, the value as TOML: 'Jax.hit_points=14', "
            "'Jax.stance=\"prone\"' (a wrong field lists the ones there are).",
            metavar="NAME.FIELD=VALUE",
        ),
    ],
    seed: SeedOpt = None,
    dice: DiceOpt = None,
) -> None:
    """Set a field of a combatant's state (a step of the record: undo takes it back)."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.edit(file, assignment, seed, dice)


@encounter_app.command("add")
def encounter_add(
    file: RecordArg,
    side: Annotated[str, typer.Option("--side", help="The side it fights for.")],
    combatant: Annotated[
        str,
        typer.Option(
            "--combatant",
            metavar="FILE_OR_TOML",
            help="Its table as in a scenario's [[combatants]]: a TOML file, or TOML text "
            "('name = \"Rook\"\\nweapon = ...').",
        ),
    ],
    at: Annotated[
        int | None,
        typer.Option(
            "--at",
            help="Its place in this round's order (1: first); default: as "
            "the ruleset enters a newcomer.",
        ),
    ] = None,
    range_: Annotated[
        str | None,
        typer.Option(
            "--range",
            help='Its range to everyone (TOML: 30, "medium"); default: '
            "the scenario's battlefield range.",
        ),
    ] = None,
    cover: Annotated[str | None, typer.Option("--cover", help="The cover it holds.")] = None,
    seed: SeedOpt = None,
    dice: DiceOpt = None,
) -> None:
    """Add a combatant who arrives mid-fight (a step of the record)."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.add(file, side, combatant, at, range_, cover, seed, dice)


@encounter_app.command("remove")
def encounter_remove(
    file: RecordArg,
    name: Annotated[str, typer.Argument(help="The combatant who leaves the fight.")],
    seed: SeedOpt = None,
    dice: DiceOpt = None,
) -> None:
    """Remove a combatant (fled, out of the scene; a step of the record)."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.remove(file, name, seed, dice)


@encounter_app.command("order")
def encounter_order(
    file: RecordArg,
    names: Annotated[
        str, typer.Argument(help="This round's order, names separated by commas.", metavar="A,B,C")
    ],
    seed: SeedOpt = None,
    dice: DiceOpt = None,
) -> None:
    """Reorder this round's initiative (a step of the record)."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.order(file, names, seed, dice)


@encounter_app.command("skip")
def encounter_skip(file: RecordArg, seed: SeedOpt = None, dice: DiceOpt = None) -> None:
    """Skip the acting combatant's turn (a step of the record; --dice/--seed for any roll the
    turns that follow make)."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.skip(file, seed, dice)


@encounter_app.command("end-round")
def encounter_end_round(file: RecordArg, seed: SeedOpt = None, dice: DiceOpt = None) -> None:
    """End the round now; the next one begins, its initiative on --dice or --seed."""
    with user_errors():
        from firefight.cli import encounter_commands

        encounter_commands.end_round(file, seed, dice)
