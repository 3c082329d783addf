"""Text -> syntax tree. Lark does the grammar (``grammar.lark``); its errors never leak.

Every failure is a :class:`~firefight.errors.DiceSyntaxError` naming the column and a tip. Semantic
checks (at least one die, at least two sides, keep no more than rolled, multiply by a constant,
the roll budget) happen here too, so a tree that parses is a tree that can be rolled.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from firefight.dice.limits import check_values
from firefight.dice.nodes import (
    KEEP_ALIASES,
    Abs,
    Add,
    Const,
    Dice,
    Exploding,
    KeepMode,
    Mul,
    Neg,
    Node,
    PlusMinus,
    Sorted,
    Sub,
    dice_count,
)
from firefight.dice.quickparse import quick_parse
from firefight.errors import DiceSyntaxError

if TYPE_CHECKING:
    from pathlib import Path

    import lark

#: Most dice one expression may throw (before explosions): stops runaway pools.
ROLL_BUDGET = 1000
#: Largest number of sides a die may have.
MAX_SIDES = 10_000
#: Largest integer constant (or multiplier) an expression may hold.
MAX_CONSTANT = 1_000_000
#: Deepest nesting of parentheses / operators an expression may have.
MAX_NESTING = 100
EXAMPLES = "e.g. 2d20, 4d6kh3, d10x+11, pm6, abs(2d20-2d20), sort(3d12)"


@lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    """The LALR parser. Building its tables takes ~37 ms of every short command, so the
    built parser is cached in the user's cache folder (Lark checks the grammar's hash and Lark's
    version before using it, and rebuilds on any mismatch or unreadable file)."""
    from importlib import resources  # with pathlib: ~8 ms no hand-read notation needs

    import lark

    text = resources.files("firefight.dice").joinpath("grammar.lark").read_text()
    options: dict[str, Any] = {
        "parser": "lalr",
        "propagate_positions": True,
        "maybe_placeholders": False,
    }
    cache = _cache_file()
    if cache is not None:
        try:
            return lark.Lark(text, cache=str(cache), **options)
        except Exception:  # a cache problem must never stop a parse: build afresh
            pass
    return lark.Lark(text, **options)


def _cache_file() -> Path | None:
    """``$XDG_CACHE_HOME/firefight/`` (or ``~/.cache/firefight/``), if it can be created.

    ``FIREFIGHT_NO_CACHE=1`` turns the cache off.
    """
    from pathlib import Path

    if os.environ.get("FIREFIGHT_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    folder = Path(base) / "firefight"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder / f"dice-grammar-py{sys.version_info[0]}{sys.version_info[1]}.lark-cache"


def _const(token: Any, expr: str, column: int) -> Const:
    digits = str(token).lstrip("0") or "0"
    if len(digits) > len(str(MAX_CONSTANT)) or int(digits) > MAX_CONSTANT:
        shown = digits if len(digits) <= 12 else f"{digits[:8]}... ({len(digits)} digits)"
        raise DiceSyntaxError(
            f"the number {shown} is too large",
            expr=expr,
            column=getattr(token, "column", None) or column,
            tip=f"numbers go up to {MAX_CONSTANT}",
        )
    return Const(int(digits))


def _build(tree: Any, expr: str, level: int = 0) -> Node:
    """Turn Lark's tree into firefight nodes, checking each die as it goes."""
    import lark

    if isinstance(tree, lark.Token):  # a bare INT reached through an inlined rule
        return _const(tree, expr, 1)
    kind = str(tree.data)
    kids = tree.children
    column = getattr(tree.meta, "column", 1) if not tree.meta.empty else 1
    if level > MAX_NESTING:
        raise DiceSyntaxError(
            "expression nests too deeply",
            expr=expr,
            column=column,
            tip=f"at most {MAX_NESTING} levels of parentheses and operators",
        )

    def count_of(node: Any) -> int:
        return int(node.children[0]) if node.children else 1

    def sides_of(node: Any) -> int:
        tok = node.children[0]
        return 100 if str(tok) == "%" else int(tok)

    def check(count: int, sides: int, kind: str = "d") -> None:
        if count < 1:
            raise DiceSyntaxError(
                f"{count}{kind}{sides} throws no dice",
                expr=expr,
                column=column,
                tip="use 1 or more dice",
            )
        if sides < 2:
            raise DiceSyntaxError(
                f"a d{sides} is not a die"
                if kind == "d"
                else f"pm{sides} rolls a d{sides}, which is not a die",
                expr=expr,
                column=column,
                tip="dice need 2 or more sides",
            )
        if sides > MAX_SIDES:
            raise DiceSyntaxError(
                f"a d{sides} has too many sides",
                expr=expr,
                column=column,
                tip=f"at most {MAX_SIDES} sides",
            )

    if kind == "const":
        return _const(kids[0], expr, column)
    if kind == "plain_dice":
        count, sides = count_of(kids[0]), sides_of(kids[1])
        check(count, sides)
        return Dice(count, sides)
    if kind == "exploding":
        count, sides = count_of(kids[0]), sides_of(kids[1])
        check(count, sides)
        if sides < 3:
            raise DiceSyntaxError(
                "an exploding die needs 3 or more sides",
                expr=expr,
                column=column,
                tip="a d2 would explode on every face it has",
            )
        return Exploding(count, sides)
    if kind == "keep":
        count, sides = count_of(kids[0]), sides_of(kids[1])
        check(count, sides)
        mode = cast(KeepMode, KEEP_ALIASES.get(str(kids[2]), str(kids[2])))
        n = int(kids[3])
        limit = count if mode in ("kh", "kl") else count - 1
        if not (1 if mode in ("kh", "kl") else 0) <= n <= limit:
            raise DiceSyntaxError(
                f"{count}d{sides}{mode}{n} keeps an impossible number of dice",
                expr=expr,
                column=column,
                tip=f"keep 1..{count} or drop 0..{count - 1} of {count} dice",
            )
        return Dice(count, sides, mode, n)
    if kind == "plusminus":
        count, sides = count_of(kids[0]), int(kids[1])
        check(count, sides, "pm")
        return PlusMinus(count, sides)
    if kind == "sort":
        inner = _build(kids[0], expr, level + 1)
        if not isinstance(inner, Dice) or inner.keep is not None:  # the grammar lets only NdX in
            raise DiceSyntaxError(
                "sort() takes plain dice",
                expr=expr,
                column=column,
                tip="write sort(NdX), e.g. sort(3d6)",
            )
        return Sorted(inner.count, inner.sides)
    if kind in ("add", "sub"):
        left, right = _build(kids[0], expr, level + 1), _build(kids[1], expr, level + 1)
        for side in (left, right):
            if side.is_sorted:
                raise DiceSyntaxError(
                    "sorted dice cannot be added or subtracted",
                    expr=expr,
                    column=column,
                    tip="use sort(NdX) on its own; compare the tuples in rule code",
                )
        return Add(left, right) if kind == "add" else Sub(left, right)
    if kind == "mul":
        left, right = _build(kids[0], expr, level + 1), _build(kids[1], expr, level + 1)
        if isinstance(right, Const) and not left.is_sorted:
            return Mul(left, right.value)
        if isinstance(left, Const) and not right.is_sorted:
            return Mul(right, left.value)
        raise DiceSyntaxError(
            "multiplication needs a constant on one side",
            expr=expr,
            column=column,
            tip="write 2*(d6+1), not d6*d6",
        )
    if kind == "neg":
        inner = _build(kids[0], expr, level + 1)
        if inner.is_sorted:
            raise DiceSyntaxError("sorted dice cannot be negated", expr=expr, column=column)
        return Const(-inner.value) if isinstance(inner, Const) else Neg(inner)
    if kind == "abs_":
        inner = _build(kids[0], expr, level + 1)
        if inner.is_sorted:
            raise DiceSyntaxError("abs() needs a number, not sorted dice", expr=expr, column=column)
        return Abs(inner)
    if kind in ("unary", "start", "expr", "atom", "dice"):
        return _build(kids[0], expr, level + 1)
    raise DiceSyntaxError(f"unsupported form {kind!r}", expr=expr, column=column)


@lru_cache(maxsize=4096)
def parse(expr: str) -> Node:
    """Parse dice notation into a syntax tree, or raise :class:`DiceSyntaxError`.

    Well-formed notation is read by hand (:mod:`~firefight.dice.quickparse`, no Lark import);
    anything else goes to Lark, which names the column and a tip.
    """
    if not isinstance(expr, str):
        raise DiceSyntaxError("a dice expression must be text", expr=repr(expr), column=1)
    text = expr.replace("\u2212", "-").replace("\u00d7", "*")  # the texts' minus and times signs
    if not text.strip():
        raise DiceSyntaxError("empty dice expression", expr=expr, column=1, tip=EXAMPLES)
    quick = quick_parse(text.lower(), MAX_SIDES, MAX_CONSTANT, ROLL_BUDGET)
    if quick is not None:
        return quick
    return _parse_lark(expr, text)


def _parse_lark(expr: str, text: str) -> Node:
    import lark

    try:
        tree = _parser().parse(text.lower())
    except lark.UnexpectedCharacters as err:
        bad = text[err.pos_in_stream or 0]
        raise DiceSyntaxError(
            f"unexpected {bad!r}", expr=expr, column=err.column, tip=EXAMPLES
        ) from None
    except lark.UnexpectedEOF:
        raise DiceSyntaxError(
            "expression ends too soon", expr=expr, column=len(text) + 1, tip=EXAMPLES
        ) from None
    except lark.UnexpectedToken as err:
        if err.token.type == "$END":
            raise DiceSyntaxError(
                "expression ends too soon",
                expr=expr,
                column=len(text) + 1,
                tip="a die needs its sides (2d6) and an operator needs a right side",
            ) from None
        raise DiceSyntaxError(
            f"unexpected {str(err.token)!r}", expr=expr, column=err.column, tip=EXAMPLES
        ) from None
    except lark.LarkError as err:  # any other grammar failure
        raise DiceSyntaxError(f"cannot parse ({type(err).__name__})", expr=expr, column=1) from None
    node = _build(tree, expr)
    count = dice_count(node)
    if count > ROLL_BUDGET:
        raise DiceSyntaxError(
            f"{count} dice is over the roll budget of {ROLL_BUDGET}",
            expr=expr,
            column=1,
            tip="split the pool or use fewer dice",
        )
    check_values(node, expr)
    return node


def as_node(expr: str | Node) -> Node:
    """Accept notation or an already parsed tree."""
    return expr if isinstance(expr, Node) else parse(expr)
