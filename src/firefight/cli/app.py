"""The ``firefight`` command line (Typer + Rich).

Commands import the library lazily so ``firefight --help`` starts fast. Every command runs inside
:func:`~firefight.cli.errors.user_errors`: a mistake the user can fix is one line and exit 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from firefight.cli.errors import FORMATS, OneLineGroup, user_errors

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
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        help="Override a field of the file, e.g. target.armour=none (repeatable).",
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
) -> None:
    """Resolve one attack with a transcript of every roll and modifier."""
    with user_errors():
        from firefight.cli import ruleset_commands

        ruleset_commands.resolve(ruleset, file, seed, dice, set_ or [], house, as_json, "attack")


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
) -> None:
    """Resolve suppressing fire (and the target's check) with a transcript."""
    with user_errors():
        from firefight.cli import ruleset_commands

        ruleset_commands.resolve(
            ruleset, file, seed, dice, set_ or [], house, as_json, "suppression"
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
    """List the rulesets firefight implements."""
    with user_errors():
        from firefight.cli import ruleset_commands

        ruleset_commands.list_rulesets(as_json)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
