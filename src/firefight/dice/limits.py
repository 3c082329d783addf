"""Limits that keep an *exact* computation finite, checked on the tree before any work starts.

Parsing (``parse.py``) already bounds what may be rolled (the roll budget, sides, constants,
nesting). Rolling a big pool is cheap; computing its exact distribution may not be, so the
commands and fields that ask for exact odds call :func:`check_exact` first. Each refusal names the
limit and a way around it.
"""

from __future__ import annotations

from firefight.dice.nodes import Abs, Add, Const, Dice, Exploding, Mul, Neg, Node, PlusMinus, Sub
from firefight.errors import DiceError

#: Largest value (either sign) an expression may reach: keeps every distribution in machine
#: integers (``1000000*1000000*1000000`` is refused, not overflowed).
MAX_VALUE = 10**12
#: Most work units (count^2 x kept x sides^2) an exact keep-highest/lowest pool may cost. The
#: unit dates from an older algorithm (five seconds at the limit); the order-statistics sums of
#: ``keep.py`` take at most tens of milliseconds under it (``4d600kh3``, 17 million units: ~23 ms;
#: ``30d20kh15``, 5.4 million: ~2 ms). The limit is kept as the rule users see refused.
MAX_KEEP_WORK = 20_000_000
#: Assumed re-rolls per open-ended die when bounding values (the exact depth is about 12).
_OPEN_DEPTH = 16


def value_bound(node: Node) -> int:
    """An upper bound on ``|value|`` of ``node`` (open-ended dice counted to a deep re-roll)."""
    if isinstance(node, Const):
        return abs(node.value)
    if isinstance(node, Dice):
        return node.count * node.sides
    if isinstance(node, (Exploding, PlusMinus)):
        return node.count * node.sides * _OPEN_DEPTH
    if isinstance(node, Mul):
        return value_bound(node.operand) * abs(node.factor)
    if isinstance(node, (Add, Sub)):
        return value_bound(node.left) + value_bound(node.right)
    if isinstance(node, (Neg, Abs)):
        return value_bound(node.operand)
    return sum(value_bound(kid) for kid in node.children())


def check_values(node: Node, expr: str) -> None:
    """Refuse an expression whose values could leave machine integers."""
    bound = value_bound(node)
    if bound > MAX_VALUE:
        raise DiceError(
            f"{_short(expr)} can reach about {bound:.3g}, beyond the limit of {MAX_VALUE:.0e}",
            tip="use smaller constants or multipliers",
        )


def keep_work(node: Dice) -> int:
    """Work units of the exact keep-highest/lowest pool ``node``."""
    kept = node.kept_count
    return node.count**2 * kept * node.sides**2


def check_exact(node: Node, expr: str) -> None:
    """Refuse, before any work, an exact distribution that would run for minutes."""
    check_values(node, expr)
    stack = [node]
    while stack:
        n = stack.pop()
        stack.extend(n.children())
        if isinstance(n, Dice) and n.keep is not None and keep_work(n) > MAX_KEEP_WORK:
            raise DiceError(
                f"the exact odds of {n} would take minutes "
                f"(keep pools are limited to {MAX_KEEP_WORK:,} work units of "
                "dice^2 x kept x sides^2; this one is "
                f"{keep_work(n):,})",
                tip="use fewer dice or sides, or roll it with firefight roll",
            )


def _short(expr: str, limit: int = 40) -> str:
    return repr(expr) if len(expr) <= limit else repr(expr[: limit - 3] + "...")
