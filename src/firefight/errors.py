"""The one error family every layer raises.

The CLI maps :class:`FirefightError` to a single line on stderr and exit code 2; anything else is
a bug. Each error carries the problem and, where there is one, a ``tip`` saying how to fix it.
Subclasses also derive from the matching built-in (``ValueError``, ``LookupError``) so library
users can catch them the ordinary way.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


class FirefightError(Exception):
    """Base of every error a user can cause."""

    def __init__(self, message: str, *, tip: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.tip = tip

    def one_line(self, limit: int | None = None) -> str:
        """The message and its tip on one line, as the CLI prints it; within ``limit``
        characters, the tip kept (at most half of them) and the message cut to its start and
        "..." (a 100,000-character id someone sent is not echoed whole)."""
        text = self.message.replace("\n", " ")
        tip = self.tip or ""
        if limit is not None:
            text, tip = " ".join(text.split()), " ".join(tip.split())
            if len(tip) > limit // 2:
                tip = tip[: limit // 2 - 3] + "..."
            room = limit - (len(tip) + 8 if tip else 0)
            if len(text) > room:
                text = text[: max(room - 3, 40)] + "..."
        return f"{text} (tip: {tip})" if tip else text

    def __str__(self) -> str:
        return self.one_line()


class DiceError(FirefightError, ValueError):
    """A dice expression that cannot be parsed, rolled or computed."""


class DiceSyntaxError(DiceError):
    """A dice expression that does not parse; ``column`` is 1-based."""

    def __init__(self, message: str, *, expr: str, column: int, tip: str | None = None) -> None:
        super().__init__(f"{message} at column {column} of {_excerpt(expr)}", tip=tip)
        self.expr = expr
        self.column = column


def _excerpt(expr: str, limit: int = 60) -> str:
    """A long expression as its start and "..." (the column still points into the whole)."""
    return repr(expr) if len(expr) <= limit else repr(expr[: limit - 3] + "...")


class ScriptError(DiceError):
    """Scripted dice that ran out or hold a face the die cannot show."""


class InputError(FirefightError, ValueError):
    """A file, field or option the user gave that is missing, malformed or impossible."""


class UnknownNameError(FirefightError, LookupError):
    """A name (ruleset, weapon, armour, ...) that is not in the catalog."""


class RuleError(InputError):
    """A well-formed option the rules forbid (a fifth Action, a burst beyond its range, a sniper
    rifle asked to suppress); the message names the rule ID."""


def present(value: T | None, message: str, *, tip: str | None = None) -> T:
    """``value``, or an :class:`InputError` saying what is missing: the check an ``assert`` would
    make, kept under ``python -O``."""
    if value is None:
        raise InputError(message, tip=tip)
    return value
