"""The ``firefight`` command line (Typer + Rich).

Commands import the library lazily so ``firefight --help`` starts fast. Every command runs inside
:func:`~firefight.cli.errors.user_errors`: a mistake the user can fix is one line and exit 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from firefight.cli.errors import user_errors

app = typer.Typer(
    name="firefight",
    help="Tactical tabletop-RPG combat: resolve attacks with transcripts, exact odds, dice.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
SeedOpt = Annotated[
    int | None, typer.Option("--seed", help="Seed for the program's dice (same seed, same rolls).")
]
DiceOpt = Annotated[
    str | None,
    typer.Option(
        "--dice",
        help="Faces the table rolled, in transcript order, e.g. 4,8,11,4 (instead of --seed).",
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override a field of the file: key=value (repeatable)."),
]
HouseOpt = Annotated[
    Path | None, typer.Option("--house", help="TOML file of house rules (numbers the text fixes).")
]
PlotOpt = Annotated[Path | None, typer.Option("--plot", help="Also save a bar chart as PNG.")]


@app.command()
def roll(
    expr: Annotated[str, typer.Argument(help="Dice expression, e.g. 2d20, d10x+11, pm6, 4d6kh3.")],
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Roll a dice expression and show every die (kept, dropped, exploded)."""
    with user_errors():
        from firefight.cli import dice_commands

        dice_commands.roll(expr, seed, as_json)


@app.command()
def dist(
    expr: Annotated[str, typer.Argument(help="Dice expression, e.g. abs(2d20-2d20).")],
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
) -> None:
    """Exact distribution of a dice expression: value, probability, percent, "X or more"."""
    with user_errors():
        from firefight.cli import dice_commands

        dice_commands.dist(expr, as_json, plot)


@app.command()
def attack(
    ruleset: Annotated[str, typer.Argument(help="Ruleset id (see `firefight rulesets`).")],
    file: Annotated[Path, typer.Argument(help="Situation file (TOML).")],
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
    ruleset: Annotated[str, typer.Argument(help="Ruleset id with suppression rules.")],
    file: Annotated[Path, typer.Argument(help="Suppression situation file (TOML).")],
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
    ruleset: Annotated[str, typer.Argument(help="Ruleset id (see `firefight rulesets`).")],
    file: Annotated[Path, typer.Argument(help="Situation file (TOML).")],
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
    ruleset: Annotated[str, typer.Argument(help="Ruleset id with a rule table (quality_d100).")],
    rows: Annotated[
        str | None, typer.Option("--rows", help="Rows to show, e.g. 1-100 or 40-60.")
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
