"""Limits that keep an *exact* computation finite, checked on the tree before any work starts.

Parsing (``parse.py``) already bounds what may be rolled (the roll budget, sides, constants,
nesting). Rolling a big pool is cheap; computing its exact distribution may not be, so the
commands and fields that ask for exact odds call :func:`check_exact` first, and ``exact()`` asks
:func:`check_keep` of each keep pool itself (the Python API refuses the same pools, in the same
words). Each refusal names the limit and a way around it. :func:`fewest_values` lets a command
refuse a table too long to print before computing it.
"""

from __future__ import annotations

from firefight.dice.nodes import Abs, Add, Const, Dice, Exploding, Mul, Neg, Node, PlusMinus, Sub
from firefight.dice.poly import slot_bits
from firefight.errors import DiceError

#: Largest value (either sign) an expression may reach: keeps every distribution in machine
#: integers (``1000000*1000000*1000000`` is refused, not overflowed).
MAX_VALUE = 10**12
#: Longest an exact keep-highest/lowest pool may take to compute, in estimated CPU seconds
#: (:func:`keep_seconds`): ``200d20kh150`` (4.2 s measured) is allowed, ``100d100kh50`` (7.6 s)
#: refused.
MAX_KEEP_SECONDS = 5.0
#: :func:`keep_seconds`' costs in nanoseconds: per 30-bit digit that a Horner step's
#: shift-and-divide passes over, per digit x digit of its division by ``2**slot - 1`` (slots past
#: one digit), per digit of the result a face adds to, per Horner step. Fitted (least squares on
#: relative error) to the 403 of 791 timed pools that took over 1 ms (3-1000 dice, 2-10000 sides,
#: 1 to count-1 kept; CPU time of ``keep_sum``, x86_64, Python 3.11.7): the 78 that took over 1 s
#: took 0.70-1.44x their estimate, 15 other pools of 0.3-5 s 0.90-1.47x.
_NS_PER_DIGIT = 8.56
_NS_PER_DIVIDE = 1.78
_NS_PER_RESULT_DIGIT = 2.01
_NS_PER_STEP = 423.0
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


def fewest_values(node: Node) -> int:
    """A lower bound on how many values of ``node`` have weight, read off the tree before any
    work (exact for sums of plain or keep dice): a sum of independent parts takes at least
    ``|A| + |B| - 1`` values, a plain or keep pool every kept sum, an open-ended die at least
    the faces that do not roll again."""
    if isinstance(node, Dice):
        return node.kept_count * (node.sides - 1) + 1
    if isinstance(node, Exploding):  # faces 2 .. sides-1 count as shown
        return node.count * max(node.sides - 3, 0) + 1
    if isinstance(node, PlusMinus):  # a plus and a minus die of at least 1 .. sides-1
        return node.count * (2 * node.sides - 4) + 1
    if isinstance(node, (Add, Sub)):
        return fewest_values(node.left) + fewest_values(node.right) - 1
    if isinstance(node, Mul):
        return fewest_values(node.operand) if node.factor else 1
    if isinstance(node, Neg):
        return fewest_values(node.operand)
    if isinstance(node, Abs):  # v and -v fold together
        return (fewest_values(node.operand) + 1) // 2
    return 1


def check_values(node: Node, expr: str) -> None:
    """Refuse an expression whose values could leave machine integers."""
    bound = value_bound(node)
    if bound > MAX_VALUE:
        raise DiceError(
            f"{_short(expr)} can reach about {bound:.3g}, beyond the limit of {MAX_VALUE:.0e}",
            tip="use smaller constants or multipliers",
        )


def keep_seconds(count: int, sides: int, kept: int) -> float:
    """Estimated CPU seconds of the exact sum of ``kept`` of ``count`` dice of ``sides`` faces,
    a model of :func:`firefight.dice.keep.keep_sum`.

    Per face (``sides`` of them), a Horner pass of ``kept`` steps multiplies a packed polynomial
    by ``V_t`` (``m = sides - t`` terms) as a shift, a subtraction and an exact division by
    ``2**slot - 1``; after step ``i`` it holds about ``i m`` coefficients of ``slot`` bits (the bits
    of ``sides**count``). Summed, the steps pass over ``kept (kept-1) / 2 x sides (sides-1) / 2``
    coefficients (plus one per step) of ``d = ceil(slot / 30)`` digits each, and the division
    costs ``d`` more per digit once the slot is wider than one digit: the work grows with the
    square of the kept dice, of the sides and (through the slot) of the dice. Each face also adds
    its polynomial into the result, ``kept x sides`` coefficients long.
    """
    if kept >= count:  # every die kept: the plain sum, no order statistics
        return 0.0
    digits = -(-slot_bits(sides**count) // 30)  # CPython's digits are 30 bits
    coeffs = kept * (kept - 1) // 2 * (sides * (sides - 1) // 2) + (kept - 1) * sides
    per_digit = _NS_PER_DIGIT + (_NS_PER_DIVIDE * digits if digits > 1 else 0.0)
    result = digits * ((2 * kept - 1) * (sides * (sides - 1) // 2) + sides)
    ns = coeffs * digits * per_digit + result * _NS_PER_RESULT_DIGIT + sides * kept * _NS_PER_STEP
    return ns / 1e9


def check_keep(node: Dice) -> None:
    """Refuse, before any work, a keep-highest/lowest pool whose exact sum would take more than
    :data:`MAX_KEEP_SECONDS` (``exact`` and :func:`check_exact` both ask this)."""
    if node.keep is None:
        return
    seconds = keep_seconds(node.count, node.sides, node.kept_count)
    if seconds > MAX_KEEP_SECONDS:
        raise DiceError(
            f"the exact odds of {node} would take about {_duration(seconds)} to compute "
            f"(an estimate; exact keep pools are limited to {MAX_KEEP_SECONDS:g} s)",
            tip="keep fewer dice, or use fewer sides or dice: the time grows with the square of "
            "each; rolling or sampling it is quick",
        )


def _duration(seconds: float) -> str:
    """``40 s``, ``25 minutes``, ``3 hours``, ``12 days``, ``2e+09 years``."""
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            count = seconds / size
            return f"{count:.0f} {unit}" if count < 1000 else f"{count:.0e} {unit}"
    return f"{seconds:.0f} s"


def check_exact(node: Node, expr: str) -> None:
    """Refuse, before any work, an exact distribution whose values leave machine integers or
    whose keep pools would take more than a few seconds."""
    check_values(node, expr)
    stack = [node]
    while stack:
        n = stack.pop()
        stack.extend(n.children())
        if isinstance(n, Dice):
            check_keep(n)


def _short(expr: str, limit: int = 40) -> str:
    return repr(expr) if len(expr) <= limit else repr(expr[: limit - 3] + "...")
