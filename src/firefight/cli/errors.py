"""One place where errors become exit codes: a user's mistake is one line and exit 2.

Two kinds of mistake reach the user, and both print the same way, ``error: WHAT (tip: FIX)``:

- a :class:`~firefight.errors.FirefightError` raised by the library (bad file, field, dice);
  :func:`user_errors` wraps every command body;
- a usage error found while the command line is parsed (unknown option, missing argument, a
  value that is not a number); :class:`OneLineGroup` replaces click's three-line box.

New commands (e.g. in their own module) get both by running inside ``with user_errors():`` on
the ``app`` of :mod:`firefight.cli.app`.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import typer
from typer.core import TyperGroup

from firefight.errors import FirefightError

#: Exit code for anything the user can fix (bad expression, file, option).
USER_ERROR = 2
#: Longest error line printed; longer messages keep their start and "...".
MAX_LINE = 400
#: Where a newcomer finds the file formats (shown in help and in tips without a better fix).
FORMATS = "file formats: docs/rules/<ruleset>.md and examples/<ruleset>/"


def error_line(message: str, tip: str | None) -> str:
    """``error: MESSAGE (tip: TIP)`` on one line, capped at :data:`MAX_LINE` characters."""
    text = " ".join(message.split())
    tip = " ".join(tip.split()) if tip else ""
    if len(tip) > MAX_LINE // 2:
        tip = tip[: MAX_LINE // 2 - 3] + "..."
    tip_text = f" (tip: {tip})" if tip else ""
    room = MAX_LINE - len(tip_text) - len("error: ")
    if len(text) > room:
        text = text[: max(room - 3, 40)] + "..."
    return f"error: {text}{tip_text}"


def report(message: str, tip: str | None) -> None:
    print(error_line(message, tip), file=sys.stderr)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn a :class:`FirefightError` into ``error: ...`` on stderr and exit code 2."""
    try:
        yield
    except FirefightError as err:
        report(err.message, err.tip or f"see --help; {FORMATS}")
        raise typer.Exit(USER_ERROR) from None
    except RecursionError:
        report("the input nests too deeply", "use fewer parentheses or nested tables")
        raise typer.Exit(USER_ERROR) from None


# --------------------------------------------------------------------------- usage errors


def _usage_line(err: Any) -> tuple[str, str]:
    """(message, tip) for a click usage error, in firefight's words."""
    ctx = getattr(err, "ctx", None)
    command = ctx.command_path if ctx is not None else "firefight"
    message = err.format_message() if hasattr(err, "format_message") else str(err)
    message = message.replace("Error: ", "").replace("Input should be", "must be").strip()
    message = message.rstrip(".")
    name = type(err).__name__
    if name == "NoSuchOption":
        option = str(getattr(err, "option_name", ""))
        if re.match(r"^-[^-]", option):
            return (
                f"{command}: {option!r} is not an option",
                "a dice expression that starts with '-' goes after '--', "
                f"e.g. {command} -- '-(d4+d6)'",
            )
        close = sorted(getattr(err, "possibilities", None) or [])
        tip = f"did you mean {' or '.join(close)}?" if close else f"see {command} --help"
        return f"{command}: no option {option}", tip
    if name == "MissingParameter":
        return f"{command}: {message[0].lower()}{message[1:]}", f"see {command} --help"
    return f"{command}: {message}", f"see {command} --help"


def _click_exceptions() -> tuple[Any, Any, Any]:
    """Typer's click exceptions: vendored in new Typer versions, the ``click`` package before."""
    click_exc: Any
    try:
        from typer._click import exceptions as click_exc
    except ImportError:  # pragma: no cover - Typer with click as a dependency
        click_exc = importlib.import_module("click.exceptions")
    no_args = getattr(click_exc, "NoArgsIsHelpError", click_exc.UsageError)
    return typer.Abort, click_exc.ClickException, no_args


class OneLineGroup(TyperGroup):
    """The ``firefight`` group: usage errors become one ``error:`` line and exit 2.

    A dice expression that starts with a minus (``-(d4+d6)``, ``-d6+3``) would read as an
    option, so ``roll`` and ``dist`` take it as the expression when it is not one of their
    options.
    """

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command, with its arguments shown by name alone in help (``FILE``, not
        ``{FILE}`` and ``FILE <path>``)."""
        command = super().get_command(ctx, cmd_name)
        for param in getattr(command, "params", []):
            if getattr(param, "param_type_name", "") == "argument":
                name = str(param.metavar or param.name).upper()
                param.display_type_rich = lambda ctx: None
                param._usage_display_name = lambda name=name: name
        return command

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        Abort, ClickException, NoArgsIsHelpError = _click_exceptions()
        argv = list(sys.argv[1:] if args is None else args)
        argv = negative_expression_args(argv)
        try:
            rv = super().main(
                argv,
                prog_name,
                complete_var,
                standalone_mode=False,
                windows_expand_args=windows_expand_args,
                **extra,
            )
        except NoArgsIsHelpError as err:
            if not standalone_mode:
                raise
            err.show()
            sys.exit(USER_ERROR)
        except ClickException as err:
            if not standalone_mode:
                raise
            report(*_usage_line(err))
            sys.exit(USER_ERROR)
        except Abort:
            if not standalone_mode:
                raise
            report("aborted", "run the command again")
            sys.exit(1)
        if standalone_mode:
            sys.exit(rv if isinstance(rv, int) else 0)
        return rv


#: Options of ``roll`` and ``dist`` that take a value (the next word is not an expression).
_VALUE_OPTIONS = {"--seed", "--plot"}


def negative_expression_args(argv: list[str]) -> list[str]:
    """``dist -(d4+d6) --json`` -> ``dist --json -- -(d4+d6)``: a word of ``roll``/``dist`` that
    starts with a single '-' and is not an option is their dice expression."""
    if not argv or argv[0] not in ("roll", "dist") or "--" in argv:
        return argv
    found = []
    skip = False
    for i, word in enumerate(argv[1:], start=1):
        if skip:
            skip = False
            continue
        if word in _VALUE_OPTIONS:
            skip = True
            continue
        if re.match(r"^-[^-]", word) and word not in ("-h",):
            found.append(i)
    if len(found) != 1:
        return argv
    i = found[0]
    return [*argv[:i], *argv[i + 1 :], "--", argv[i]]
