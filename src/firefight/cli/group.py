"""The ``firefight`` group of the Typer app: click's usage errors as one line, exit 2.

Kept apart from :mod:`firefight.cli.errors` because it subclasses Typer's group: importing it
imports Typer, which the entry point's quick path does without.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

from firefight.cli.errors import USER_ERROR, negative_expression_args, report, usage_line


def _click_exceptions() -> tuple[Any, Any, Any]:
    """Typer's click exceptions: vendored in new Typer versions, the ``click`` package before."""
    click_exc: Any
    try:
        from typer._click import exceptions as click_exc
    except ImportError:  # pragma: no cover - Typer with click as a dependency
        click_exc = importlib.import_module("click.exceptions")
    no_args = getattr(click_exc, "NoArgsIsHelpError", click_exc.UsageError)
    return typer.Abort, click_exc.ClickException, no_args


class ArgumentNames(TyperGroup):
    """A group whose commands show their arguments by name alone in help."""

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


class OneLineGroup(ArgumentNames):
    """The ``firefight`` group: usage errors become one ``error:`` line and exit 2.

    A dice expression that starts with a minus (``-(d4+d6)``, ``-d6+3``) would read as an
    option, so ``roll`` and ``dist`` take it as the expression when it is not one of their
    options.
    """

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
            report(*usage_line(err))
            sys.exit(USER_ERROR)
        except Abort:
            if not standalone_mode:
                raise
            report("aborted", "run the command again")
            sys.exit(1)
        if standalone_mode:
            sys.exit(rv if isinstance(rv, int) else 0)
        return rv
