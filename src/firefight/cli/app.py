"""The ``firefight`` entry point: the commands people wait for run without building Typer's app.

Typer costs more than most commands' own work (Typer and its click, a pydantic ``TypeAdapter`` for
every parameter of the command it runs), so :func:`main` tries a quick path first: ``firefight
--help`` and the everyday commands (``roll``, ``dist``, ``attack``, ``suppress``, ``odds``,
``encounter act|actions|auto|show|undo|redo``) when every word is plain: known options given as
``--name value``, values that read one way only (whole numbers in ASCII digits, paths, text not
starting with ``-``), the right number of arguments. It calls the very functions the Typer
commands call, with the values Typer would give them. Anything else (another command, a
command's ``--help``, ``--name=value``, ``--``, a missing or extra word, a narrow terminal for the
help) goes to the Typer app in :mod:`firefight.cli.commands`, which also words every usage error.
``tests/cli/test_quick_path.py`` holds the two routes to identical output.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from firefight.core.ruleset import Command

#: Option kinds: a flag, or a value read as text, a whole number, a plain decimal or a path;
#: ``*`` repeatable.
Options = dict[str, str]
#: What a quick command receives: its arguments and its options (name -> value), converted.
Run = Callable[[list[Any], dict[str, Any]], None]

RESOLVE: Options = {
    "--seed": "int",
    "--dice": "text",
    "--ask": "flag",
    "--set": "text*",
    "--house": "path",
    "--json": "flag",
}


def _roll(args: list[Any], opts: dict[str, Any]) -> None:
    from firefight.cli import dice_commands

    dice_commands.roll(args[0], opts.get("--seed"), "--json" in opts)


def _dist(args: list[Any], opts: dict[str, Any]) -> None:
    from firefight.cli import dice_commands

    dice_commands.dist(args[0], "--json" in opts, opts.get("--plot"))


def _resolve(kind: Command) -> Run:
    def run(args: list[Any], opts: dict[str, Any]) -> None:
        from firefight.cli import ruleset_commands

        ruleset_commands.resolve(
            args[0],
            args[1],
            opts.get("--seed"),
            opts.get("--dice"),
            opts.get("--set") or [],
            opts.get("--house"),
            "--json" in opts,
            kind,
            "--ask" in opts,
        )

    return run


def _odds(args: list[Any], opts: dict[str, Any]) -> None:
    from firefight.cli import ruleset_commands

    ruleset_commands.odds(
        args[0],
        args[1],
        opts.get("--set") or [],
        opts.get("--house"),
        "--json" in opts,
        opts.get("--plot"),
    )


#: Options that are flags: a boolean, False when not given.
_FLAGS = ("--json", "--ask", "--win")


def _encounter(name: str, *options: str) -> Run:
    """``encounter NAME FILE ...``: the saved file, then the arguments and options in the
    order :mod:`firefight.cli.encounter_commands` takes them (flags as booleans)."""

    def run(args: list[Any], opts: dict[str, Any]) -> None:
        from firefight.cli import encounter_commands

        values = [opts.get(o, False) if o in _FLAGS else opts.get(o) for o in options]
        getattr(encounter_commands, name)(*args, *values)

    return run


#: The quick path's commands: their words, argument kinds, options, and what they call (the same
#: as the Typer command of :mod:`firefight.cli.commands`; a test compares the two).
QUICK: dict[tuple[str, ...], tuple[tuple[str, ...], Options, Run]] = {
    ("roll",): (("text",), {"--seed": "int", "--json": "flag"}, _roll),
    ("dist",): (("text",), {"--json": "flag", "--plot": "path"}, _dist),
    ("attack",): (("text", "path"), RESOLVE, _resolve("attack")),
    ("suppress",): (("text", "path"), RESOLVE, _resolve("suppress")),
    ("odds",): (
        ("text", "path"),
        {"--set": "text*", "--house": "path", "--json": "flag", "--plot": "path"},
        _odds,
    ),
    ("encounter", "act"): (
        ("path", "text"),
        {"--seed": "int", "--dice": "text", "--ask": "flag"},
        _encounter("act", "--seed", "--dice", "--ask"),
    ),
    ("encounter", "actions"): (
        ("path",),
        {"--json": "flag", "--budget": "float", "--ceiling": "float", "--win": "flag"},
        _encounter("actions", "--json", "--budget", "--ceiling", "--win"),
    ),
    ("encounter", "auto"): (
        ("path",),
        {"--steps": "int", "--seed": "int"},
        _encounter("auto", "--steps", "--seed"),
    ),
    ("encounter", "show"): (("path",), {"--json": "flag"}, _encounter("show", "--json")),
    ("encounter", "undo"): (("path",), {}, _encounter("undo")),
    ("encounter", "redo"): (("path",), {}, _encounter("redo")),
}

#: The longest whole number the quick path reads (every parser reads these the same way).
MAX_DIGITS = 18


def _value(word: str, kind: str) -> Any:
    """``word`` as Typer would pass it for ``kind``, or None when the quick path leaves it to
    Typer (its conversion or refusal)."""
    if not word or word.startswith("-"):
        return None
    kind = kind.rstrip("*")
    if kind == "int":
        if len(word) > MAX_DIGITS or not all("0" <= c <= "9" for c in word):
            return None
        return int(word)
    if kind == "float":
        whole, _, part = word.partition(".")
        digits = whole + part
        if not digits or len(digits) > MAX_DIGITS or not all("0" <= c <= "9" for c in digits):
            return None
        return float(word)
    if kind == "path":
        # Typer refuses an existing file it may not read with its own words.
        if os.path.exists(word) and not os.access(word, os.R_OK):
            return None
        return Path(word)
    return word


def quick_command(argv: Sequence[str]) -> Callable[[], None] | None:
    """The command line as a call to its command function, or None for Typer's app."""
    if os.name == "nt" or any(k.endswith("_COMPLETE") for k in os.environ):
        return None  # Windows expands wildcards in click; shell completion is click's
    for n in (2, 1):
        entry = QUICK.get(tuple(argv[:n]))
        if entry is not None:
            break
    else:
        return None
    kinds, options, run = entry
    args: list[Any] = []
    opts: dict[str, Any] = {}
    words = iter(argv[n:])
    for word in words:
        if not word.startswith("-"):
            if len(args) == len(kinds) or (value := _value(word, kinds[len(args)])) is None:
                return None
            args.append(value)
            continue
        kind = options.get(word)
        if kind is None:
            return None
        if kind == "flag":
            opts[word] = True
            continue
        value = _value(next(words, ""), kind)
        if value is None or (word in opts and not kind.endswith("*")):
            return None
        if kind.endswith("*"):
            opts.setdefault(word, []).append(value)
        else:
            opts[word] = value
    if len(args) != len(kinds):
        return None
    return lambda: run(args, opts)


# ---------------------------------------------------------------------------------- --help

#: ``firefight --help`` below its usage line, as Typer renders it 78 columns wide (in a terminal
#: of 80 columns or more, or when the output is not a terminal); a test renders it with Typer.
HELP = """
  Tactical tabletop-RPG combat: resolve attacks with transcripts, exact odds,
  dice. Situation, catalog and house-rule files are TOML; file formats:
  docs/rules/<ruleset>.md and examples/<ruleset>/.

Options:
  --version  Show the version and exit.
  --help     Show this message and exit.

Commands:
  roll         Roll a dice expression and show every die (kept, dropped,...
  dist         Exact distribution of a dice expression: value,...
  attack       Resolve one attack with a transcript of every roll and...
  suppress     Resolve suppressing fire (and the target's check) with a...
  odds         Exact odds of a situation, from the same rule code that...
  table        Render a ruleset's rule table from the rules (e.g.
  rulesets     List the rulesets: built in and installed plugins, with...
  new-ruleset  Write a ruleset package to start from: pip install -e it,...
  fight        One whole fight to the end, narrated round by round with...
  simulate     Who wins, how often, in how many rounds, and who falls:...
  solve        The best decision at every point of a fight, and each...
  sweep        Win rates over a grid of changed scenario fields, one...
  serve        The GM's web tracker: encounters in a database, a GM page...
  encounter    Run a fight one step at a time, saved between calls (for a...
"""

#: Click's help width: the terminal's columns less 2, at most 78.
HELP_WIDTH = 78


def program_name() -> str:
    """The name click shows in ``Usage:``: the script's file name, or ``python -m MODULE``."""
    main_module = sys.modules["__main__"]
    path = sys.argv[0]
    package = getattr(main_module, "__package__", None)
    if package in (None, ""):
        return os.path.basename(path)
    name = os.path.splitext(os.path.basename(path))[0]
    module = package if name == "__main__" else f"{package}.{name}"
    return f"python -m {module.lstrip('.')}"


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns`` without importing shutil."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def quick_help() -> str | None:
    """``firefight --help`` as Typer prints it, when its width is the usual one."""
    usage = f"Usage: {program_name()} [OPTIONS] COMMAND [ARGS]..."
    if terminal_columns() < HELP_WIDTH + 2 or len(usage) > HELP_WIDTH:
        return None
    return usage + "\n" + HELP


# ---------------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point: the quick path, else the Typer app."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--help"] and (text := quick_help()) is not None:
        sys.stdout.write(text)
        return
    command = quick_command(argv)
    if command is None:
        from firefight.cli.commands import app

        app(argv)
        return
    import gc

    # Almost every object a short command creates belongs to a module (numpy, pydantic, the
    # rules) and lives until exit; its rule code leaves little cyclic garbage (a few thousand
    # objects for the slowest example odds). Python's collector would walk them all again and
    # again while they are imported, and once more at exit: collect less often, and freeze
    # what exists at the end so that exit does not walk it (a fifth of a short command's time).
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    try:
        run_quick(command)
    finally:
        gc.freeze()


#: The garbage collector's first threshold while a quick command runs (Python's default: 700).
GC_THRESHOLD = 10_000


def run_quick(command: Callable[[], None]) -> None:
    """Run a quick command as click runs Typer's: one-line user errors (exit 2), Ctrl-C exit
    130, a closed pipe exit 1 without a traceback."""
    from firefight.cli.errors import user_errors

    try:
        with user_errors():
            command()
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.stdout = _QuietFlush(sys.stdout)
        sys.stderr = _QuietFlush(sys.stderr)
        sys.exit(1)


class _QuietFlush:
    """A stream whose flush ignores a closed pipe (as click's ``PacifyFlushWrapper``), so the
    interpreter's last flush at exit prints nothing."""

    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        with contextlib.suppress(BrokenPipeError):
            self.wrapped.flush()

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.wrapped, attr)


def __getattr__(name: str) -> Any:
    """``app`` (the Typer app) is built on first use, not when this module is imported."""
    if name == "app":
        from firefight.cli.commands import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":  # pragma: no cover
    main()
