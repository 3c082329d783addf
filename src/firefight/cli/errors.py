"""One place where errors become exit codes: a user's mistake is one line and exit 2.

Two kinds of mistake reach the user, and both print the same way, ``error: WHAT (tip: FIX)``:

- a :class:`~firefight.errors.FirefightError` raised by the library (bad file, field, dice);
  :func:`user_errors` wraps every command body;
- a usage error found while the command line is parsed (unknown option, missing argument, a
  value that is not a number); :class:`~firefight.cli.group.OneLineGroup` replaces click's
  three-line box with :func:`usage_line`'s words.

New commands (e.g. in their own module) get both by running inside ``with user_errors():`` on
the ``app`` of :mod:`firefight.cli.commands`. This module imports neither Typer nor click: the
entry point's quick path (:mod:`firefight.cli.app`) uses it without them.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

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
    """Turn a :class:`FirefightError` into ``error: ...`` on stderr and exit code 2.

    It raises ``SystemExit``, not ``typer.Exit``, so that it works without Typer too; under
    Typer the process ends the same way (:class:`~firefight.cli.group.OneLineGroup` runs click
    in non-standalone mode and calls ``sys.exit`` with a command's exit code itself)."""
    try:
        yield
    except FirefightError as err:
        report(err.message, err.tip or f"see --help; {FORMATS}")
        raise SystemExit(USER_ERROR) from None
    except RecursionError:
        report("the input nests too deeply", "use fewer parentheses or nested tables")
        raise SystemExit(USER_ERROR) from None


# --------------------------------------------------------------------------- usage errors


def usage_line(err: Any) -> tuple[str, str]:
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
    extra = re.match(r"Got unexpected extra argument(?:\(s\)|s)? \((.*)\)$", message)
    if extra and ctx is not None:
        return _split_words(command, ctx.command.name, dict(ctx.params), extra.group(1))
    return f"{command}: {message}", f"see {command} --help"


def _split_words(command: str, name: str, params: dict[str, Any], extra: str) -> tuple[str, str]:
    """Extra words after the last argument: a dice expression with spaces the shell split
    (``roll 2d6 + 3``), or an action id typed with a space."""
    if name in ("roll", "dist") and params.get("expr"):
        whole = f"{params['expr']} {extra}"
        return (
            f"{command}: unexpected words after the expression ({extra})",
            f"quote an expression with spaces: {command} '{whole}'",
        )
    if name == "act" and params.get("action_id"):
        return (
            f"{command}: unexpected words after the action id ({extra})",
            f"action ids have no spaces: {params['action_id']}_{extra.replace(' ', '_')}, "
            "as `firefight encounter actions FILE` lists them",
        )
    return f"{command}: unexpected words ({extra})", f"see {command} --help"


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
