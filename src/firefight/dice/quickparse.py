"""A small recursive-descent reader of well-formed dice notation, tried before Lark.

Importing Lark and loading its parser costs ~20 ms of a short command, which is most of the time of
``firefight roll 2d20`` or of a ruleset's first odds; valid notation is simple enough to read by
hand. This reader builds the very nodes :func:`~firefight.dice.parse.parse` builds from
``grammar.lark``, and gives up (returns None) on anything it does not fully accept: a syntax
error, a die or count the rules refuse, deep nesting. Every such text goes to Lark, whose errors
carry the column and tip, so the messages never change. A property test holds the two readers to
identical trees.
"""

from __future__ import annotations

import re
from typing import cast

from firefight.dice.nodes import (
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
)

#: One token after optional blanks: a number, a word or sign, or (third group) any other character,
#: which makes the reader give up. ``findall`` reads the whole text in one call.
_TOKEN = re.compile(
    r"[ \t\f\r\n]*(?:([0-9]+)|(abs|sort|pm|kh|kl|dh|dl|d|x|%|[()+\-*])|([^ \t\f\r\n]))"
)
#: A lone dice term with no blanks inside (``4d6kh3``, ``2d20``, ``d10x``, ``d%``), the commonest
#: notation: one match reads it, where the token reader takes a dozen calls. Numbers past 18 digits
#: do not match (the token reader leaves them to Lark, as for any other text this cannot read).
_TERM = re.compile(
    r"[ \t\f\r\n]*([0-9]{0,18})d([0-9]{1,18}|%)(?:(kh|kl|dh|dl)([0-9]{1,18})|(x))?[ \t\f\r\n]*"
)
#: Deepest tree this reader builds; deeper ones go to Lark, which enforces the real limit.
_MAX_DEPTH = 40

Built = tuple[Node, int]  # a node and the depth of its tree


class _GiveUp(Exception):
    """The text is not plain, valid notation: let Lark read it (and explain any error)."""


def _tokens(text: str) -> list[str | None]:
    """The tokens of ``text`` and a closing None (so looking ahead needs no bounds check)."""
    out: list[str | None] = []
    for number, word, other in _TOKEN.findall(text):
        if other:
            raise _GiveUp
        out.append(number or word)
    out.append(None)
    return out


def _join(node: Node, *depths: int) -> Built:
    depth = 1 + max(depths)
    if depth > _MAX_DEPTH:
        raise _GiveUp
    return node, depth


class _Reader:
    def __init__(self, tokens: list[str | None], max_sides: int, max_constant: int) -> None:
        #: Read in place as ``self.toks[self.i]`` (the next token; no method call per look, ~30
        #: looks a short expression): the closing None stops every reader before the end.
        self.toks = tokens
        self.i = 0
        self.max_sides = max_sides
        self.max_constant = max_constant
        self.nesting = 0
        #: Dice thrown before any explosion (``nodes.dice_count`` of the tree, kept as it grows).
        self.count = 0

    def take(self, want: str | None = None) -> str:
        tok = self.toks[self.i]
        if tok is None or (want is not None and tok != want):
            raise _GiveUp
        self.i += 1
        return tok

    def number(self) -> int:
        return _small(self.take())

    def expr(self) -> Built:
        node, depth = self.term()
        while self.toks[self.i] in ("+", "-"):
            op = self.take()
            right, rdepth = self.term()
            if node.is_sorted or right.is_sorted:
                raise _GiveUp
            node, depth = _join(Add(node, right) if op == "+" else Sub(node, right), depth, rdepth)
        return node, depth

    def term(self) -> Built:
        node, depth = self.unary()
        while self.toks[self.i] == "*":
            self.take()
            right, rdepth = self.unary()
            if isinstance(right, Const) and not node.is_sorted:
                node, depth = _join(Mul(node, right.value), depth, rdepth)
            elif isinstance(node, Const) and not right.is_sorted:
                node, depth = _join(Mul(right, node.value), depth, rdepth)
            else:
                raise _GiveUp
        return node, depth

    def unary(self) -> Built:
        self.nesting += 1  # every nested form passes here: bounds the recursion
        if self.nesting > 2 * _MAX_DEPTH:
            raise _GiveUp
        try:
            return self._unary()
        finally:
            self.nesting -= 1

    def _unary(self) -> Built:
        tok = self.toks[self.i]
        if tok == "-":
            self.take()
            inner, depth = self.unary()
            if inner.is_sorted:
                raise _GiveUp
            return _join(Const(-inner.value) if isinstance(inner, Const) else Neg(inner), depth)
        if tok == "+":
            self.take()
            inner, depth = self.unary()
            return _join(inner, depth)
        return self.atom()

    def atom(self) -> Built:
        tok = self.toks[self.i]
        if tok == "(":
            self.take()
            inner, depth = self.expr()
            self.take(")")
            return _join(inner, depth)
        if tok == "abs":
            self.take()
            self.take("(")
            inner, depth = self.expr()
            self.take(")")
            if inner.is_sorted:
                raise _GiveUp
            return _join(Abs(inner), depth)
        if tok == "sort":
            self.take()
            self.take("(")
            count = self.number() if (self.toks[self.i] or "").isdigit() else 1
            self.take("d")
            sides = self.sides()
            self.take(")")
            self.check(count, sides)
            self.count += count
            return Sorted(count, sides), 1
        return self.dice(), 1

    def sides(self) -> int:
        if self.toks[self.i] == "%":
            self.take()
            return 100
        return self.number()

    def dice(self) -> Node:
        tok = self.toks[self.i]
        count = 1
        if tok is not None and tok.isdigit():
            self.take()
            value = _small(tok)
            if self.toks[self.i] not in ("d", "pm"):
                if value > self.max_constant:
                    raise _GiveUp
                return Const(value)
            count = value
        if self.toks[self.i] == "pm":
            self.take()
            sides = self.number()
            self.check(count, sides)
            self.count += 2 * count
            return PlusMinus(count, sides)
        self.take("d")
        sides = self.sides()
        self.check(count, sides)
        self.count += count
        nxt = self.toks[self.i]
        if nxt == "x":
            self.take()
            if sides < 3:
                raise _GiveUp
            return Exploding(count, sides)
        if nxt in ("kh", "kl", "dh", "dl"):
            mode = cast(KeepMode, self.take())
            n = self.number()
            if not _keeps_dice(mode, n, count):
                raise _GiveUp
            return Dice(count, sides, mode, n)
        return Dice(count, sides)

    def check(self, count: int, sides: int) -> None:
        if count < 1 or sides < 2 or sides > self.max_sides:
            raise _GiveUp


def quick_parse(
    text: str, max_sides: int, max_constant: int, max_dice: int | None = None
) -> Node | None:
    """The tree of lower-case notation ``text``, or None to let Lark read it (and refuse it
    with its message: over ``max_dice`` dice, for one)."""
    term = _TERM.fullmatch(text)
    if term is not None:
        return _term(term, max_sides, max_dice)
    try:
        reader = _Reader(_tokens(text), max_sides, max_constant)
        node, _ = reader.expr()
    except _GiveUp:
        return None
    if max_dice is not None and reader.count > max_dice:
        return None
    return node if reader.toks[reader.i] is None else None


def _term(term: re.Match[str], max_sides: int, max_dice: int | None) -> Node | None:
    """The node of a lone dice term (``_TERM``), or None where the token reader gives up too."""
    count_text, sides_text, mode, kept, explodes = term.groups()
    count = int(count_text) if count_text else 1
    sides = 100 if sides_text == "%" else int(sides_text)
    if count < 1 or sides < 2 or sides > max_sides or (max_dice is not None and count > max_dice):
        return None
    if explodes:
        return Exploding(count, sides) if sides >= 3 else None
    if mode is None:
        return Dice(count, sides)
    n = int(kept)
    return Dice(count, sides, cast(KeepMode, mode), n) if _keeps_dice(mode, n, count) else None


def _keeps_dice(mode: str, n: int, count: int) -> bool:
    """Whether keeping (``kh``/``kl``) 1..count or dropping (``dh``/``dl``) 0..count-1 of
    ``count`` dice: the others are refused by the rules (Lark says why)."""
    keeping = mode in ("kh", "kl")
    return (1 if keeping else 0) <= n <= (count if keeping else count - 1)


def _small(tok: str) -> int:
    """A whole number of at most 18 digits; anything longer (or not a number) goes to the full
    parser, whose limits refuse it with a message (``int()`` of 5,000 digits raises ValueError)."""
    if not tok.isdigit() or len(tok) > 18:
        raise _GiveUp
    return int(tok)
