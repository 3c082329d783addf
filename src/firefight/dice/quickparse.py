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
from typing import TYPE_CHECKING, cast

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
)

_BLANKS = r"[ \t\f\r\n]*"
#: A dice term with no blanks inside (``4d6kh3``, ``2d20``, ``d10x``, ``d%``, ``pm6``), the
#: commonest notation, in six groups: count, ``d`` or ``pm``, sides, keep mode and number, ``x``.
#: Read as one token, where the token reader takes a dozen calls. Numbers past 18 digits do not
#: fit: their other digits make the reader give up, and Lark refuses them with its message.
_TERM_TEXT = r"([0-9]{0,18})(d|pm)([0-9]{1,18}|%)(?:(kh|kl|dh|dl|k)([0-9]{1,18})|(x))?"
#: One token after optional blanks: a dice term (six groups), a number, a word or sign, or (last
#: group) any other character, which makes the reader give up. ``findall`` reads the whole text in
#: one call.
_OTHER_TOKENS = r"([0-9]+)|(abs|sort|pm|kh|kl|dh|dl|k|d|x|%|[()+\-*])|([^ \t\f\r\n])"
_TOKEN = re.compile(f"{_BLANKS}(?:{_TERM_TEXT}|{_OTHER_TOKENS})")
#: The same tokens with every dice term in its parts, for the rare text whose term has blanks
#: inside (``2 d6``, ``2d20 x``): the reader then joins the parts itself. Compiled on first use.
_PLAIN_TOKEN = f"{_BLANKS}(?:{_OTHER_TOKENS})"
_SUFFIXES = frozenset(("x", "kh", "kl", "dh", "dl", "k"))
#: Deepest tree this reader builds; deeper ones go to Lark, which enforces the real limit.
_MAX_DEPTH = 40

Built = tuple[Node, int]  # a node and the depth of its tree
if TYPE_CHECKING:
    #: A word, sign or number, a dice term already built, or the closing None.
    Token = str | Dice | Exploding | PlusMinus | None
#: The nodes a dice term token may be.
_TERMS = (Dice, Exploding, PlusMinus)


class _GiveUp(Exception):
    """The text is not plain, valid notation: let Lark read it (and explain any error)."""


def _tokens(text: str, max_sides: int) -> list[Token]:
    """The tokens of ``text`` and a closing None (so looking ahead needs no bounds check); a dice
    term is its node."""
    out: list[Token] = []
    for count, kind, sides, mode, kept, explodes, number, word, other in _TOKEN.findall(text):
        if sides:
            if not count and out and isinstance(out[-1], str) and out[-1].isdigit():
                return _plain_tokens(text)  # a count apart from its die: "2 d6"
            term = _dice_term(count, kind, sides, mode, kept, explodes, max_sides)
            if term is None:
                raise _GiveUp
            out.append(term)
        elif other:
            raise _GiveUp
        elif word in _SUFFIXES and out and isinstance(out[-1], _TERMS):
            return _plain_tokens(text)  # a keep or x apart from its die: "2d6 kh1"
        else:
            out.append(number or word)
    out.append(None)
    return out


def _plain_tokens(text: str) -> list[Token]:
    """The tokens of ``text`` with dice terms in their parts (``_PLAIN_TOKEN``), closing None."""
    out: list[Token] = []
    for number, word, other in re.findall(_PLAIN_TOKEN, text):
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
    def __init__(self, tokens: list[Token], max_sides: int, max_constant: int) -> None:
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
        if not isinstance(tok, str) or (want is not None and tok != want):
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
            if isinstance(node, Sorted) or isinstance(right, Sorted):
                raise _GiveUp
            node, depth = _join(Add(node, right) if op == "+" else Sub(node, right), depth, rdepth)
        return node, depth

    def term(self) -> Built:
        node, depth = self.unary()
        while self.toks[self.i] == "*":
            self.take()
            right, rdepth = self.unary()
            if isinstance(right, Const) and not isinstance(node, Sorted):
                node, depth = _join(Mul(node, right.value), depth, rdepth)
            elif isinstance(node, Const) and not isinstance(right, Sorted):
                node, depth = _join(Mul(right, node.value), depth, rdepth)
            else:
                raise _GiveUp
        return node, depth

    def unary(self) -> Built:
        tok = self.toks[self.i]
        if isinstance(tok, _TERMS):  # a dice term, read whole by _tokens
            self.i += 1
            self.count += _thrown(tok)
            return tok, 1
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
            if isinstance(inner, Sorted):
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
            if isinstance(inner, Sorted):
                raise _GiveUp
            return _join(Abs(inner), depth)
        if tok == "sort":
            self.take()
            self.take("(")
            tok = self.toks[self.i]
            if isinstance(tok, _TERMS):  # sort() of plain dice only, as Lark has it
                if not isinstance(tok, Dice) or tok.keep is not None:
                    raise _GiveUp
                self.i += 1
                count, sides = tok.count, tok.sides
            else:
                count = self.number() if (tok or "").isdigit() else 1
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
        """A number, or a dice term read token by token (its blanks apart), built and checked by
        :func:`_dice_term` as a term read whole is."""
        tok = self.toks[self.i]
        count = ""
        if isinstance(tok, str) and tok.isdigit():
            self.take()
            value = _small(tok)
            if self.toks[self.i] not in ("d", "pm"):
                if value > self.max_constant:
                    raise _GiveUp
                return Const(value)
            count = str(value)
        kind = self.take("pm" if self.toks[self.i] == "pm" else "d")
        sides = self.take() if self.toks[self.i] == "%" else str(self.number())
        mode = kept = explodes = None
        nxt = self.toks[self.i]
        if kind == "d" and nxt == "x":
            explodes = self.take()
        elif kind == "d" and nxt in ("kh", "kl", "dh", "dl", "k"):
            mode = self.take()
            kept = str(self.number())
        term = _dice_term(count, kind, sides, mode, kept, explodes, self.max_sides)
        if term is None:
            raise _GiveUp
        self.count += _thrown(term)
        return term

    def check(self, count: int, sides: int) -> None:
        if count < 1 or sides < 2 or sides > self.max_sides:
            raise _GiveUp


def quick_parse(
    text: str, max_sides: int, max_constant: int, max_dice: int | None = None
) -> Node | None:
    """The tree of lower-case notation ``text``, or None to let Lark read it (and refuse it
    with its message: over ``max_dice`` dice, for one)."""
    whole = _TOKEN.fullmatch(text)  # the whole text one dice term: no token list, no reader
    if whole is not None and whole[3]:
        count, kind, sides, mode, kept, explodes = whole.groups()[:6]
        term = _dice_term(count, kind, sides, mode, kept, explodes, max_sides)
        too_many = term is not None and max_dice is not None and _thrown(term) > max_dice
        return None if too_many else term
    try:
        reader = _Reader(_tokens(text, max_sides), max_sides, max_constant)
        node, _ = reader.expr()
    except _GiveUp:
        return None
    if max_dice is not None and reader.count > max_dice:
        return None
    return node if reader.toks[reader.i] is None else None


def _dice_term(
    count_text: str | None,
    kind: str,
    sides_text: str,
    mode: str | None,
    kept: str | None,
    explodes: str | None,
    max_sides: int,
) -> Dice | Exploding | PlusMinus | None:
    """The node of a dice term's groups (``_TERM_TEXT``), or None where the rules refuse it (the
    reader gives up, as it would on the term's tokens)."""
    count = int(count_text) if count_text else 1
    sides = 100 if sides_text == "%" else int(sides_text)
    if count < 1 or sides < 2 or sides > max_sides:
        return None
    if kind == "pm":  # no d%, keep or x on a plus-minus die
        return PlusMinus(count, sides) if sides_text != "%" and not mode and not explodes else None
    if explodes:
        return Exploding(count, sides) if sides >= 3 else None
    if not mode or kept is None:
        return Dice(count, sides)
    n = int(kept)
    mode = KEEP_ALIASES.get(mode, mode)
    return Dice(count, sides, cast(KeepMode, mode), n) if _keeps_dice(mode, n, count) else None


def _thrown(term: Dice | Exploding | PlusMinus) -> int:
    """Dice a term throws before any explosion (a plus-minus roll throws two per count)."""
    return 2 * term.count if isinstance(term, PlusMinus) else term.count


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
