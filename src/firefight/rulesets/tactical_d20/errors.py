"""The error a legal-looking input gets when the rules forbid it (a fifth Action, a burst out of
range...). It is a :class:`~firefight.errors.InputError`, so the CLI prints one line, exit 2."""

from __future__ import annotations

from firefight.errors import InputError


class RuleError(InputError):
    """An action the rules of tactical_d20 do not allow, with the rule ID in the message."""
