"""One place where errors become exit codes: a user's mistake is one line and exit 2."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import typer

from firefight.errors import FirefightError

#: Exit code for anything the user can fix (bad expression, file, option).
USER_ERROR = 2


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn a :class:`FirefightError` into ``error: ...`` on stderr and exit code 2."""
    try:
        yield
    except FirefightError as err:
        print(f"error: {err.one_line()}", file=sys.stderr)
        raise typer.Exit(USER_ERROR) from None
    except RecursionError:
        print("error: expression nests too deeply (tip: use fewer parentheses)", file=sys.stderr)
        raise typer.Exit(USER_ERROR) from None
