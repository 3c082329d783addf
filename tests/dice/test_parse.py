"""Parsing: every form of the notation, and one clear error (with its column) for bad input."""

from __future__ import annotations

import pytest

from firefight.dice import parse
from firefight.dice.nodes import (
    Abs,
    Add,
    Const,
    Dice,
    Exploding,
    Mul,
    Neg,
    PlusMinus,
    Sorted,
    Sub,
    dice_count,
)
from firefight.errors import DiceError, DiceSyntaxError, FirefightError


@pytest.mark.parametrize(
    ("text", "node"),
    [
        ("2d20", Dice(2, 20)),
        ("d%", Dice(1, 100)),
        ("D6", Dice(1, 6)),
        (" 4 d 6 kh 3 ", Dice(4, 6, "kh", 3)),
        ("4d6dl1", Dice(4, 6, "dl", 1)),
        ("d10x", Exploding(1, 10)),
        ("pm6", PlusMinus(1, 6)),
        ("3pm4", PlusMinus(3, 4)),
        ("sort(3d12)", Sorted(3, 12)),
        ("abs(2d20-2d20)", Abs(Sub(Dice(2, 20), Dice(2, 20)))),
        ("d10x + 11", Add(Exploding(1, 10), Const(11))),
        ("3*(d6+1)", Mul(Add(Dice(1, 6), Const(1)), 3)),
        ("-d8", Neg(Dice(1, 8))),
        ("-3", Const(-3)),
        ("2d6 \u2212 1", Sub(Dice(2, 6), Const(1))),  # the texts' minus sign
        ("2 \u00d7 d6", Mul(Dice(1, 6), 2)),  # and times sign
        ("1 - 2 - 3", Sub(Sub(Const(1), Const(2)), Const(3))),  # left to right
        ("1 + 2 * 3", Add(Const(1), Mul(Const(2), 3))),  # * binds tighter
    ],
)
def test_forms(text: str, node: object) -> None:
    assert parse(text) == node


def test_roll_budget_counts_every_die() -> None:
    assert dice_count(parse("2d20 + 3pm6 - d10x")) == 2 + 6 + 1
    assert dice_count(parse("sort(4d6)")) == 4
    parse("500d6 + 500d6")  # exactly the budget
    with pytest.raises(DiceSyntaxError, match="1001 dice is over the roll budget of 1000"):
        parse("500d6 + 501d6")


def test_the_hand_reader_counts_dice_as_dice_count_does() -> None:
    """It hands a pool over the budget to Lark (which refuses it with the message above)."""
    from firefight.dice.quickparse import quick_parse

    for text in ("2d20 + 3pm6 - d10x", "sort(4d6)", "abs(4d6kh3 - 2d10x) * 2 + pm6"):
        n = dice_count(parse(text))
        assert quick_parse(text, 10_000, 10**6, n) == parse(text)
        assert quick_parse(text, 10_000, 10**6, n - 1) is None


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("", "empty dice expression", 1),
        ("   ", "empty dice expression", 1),
        ("2d", "expression ends too soon", 3),
        ("2d6 +", "expression ends too soon", 6),
        ("2d6 ? 3", "unexpected '?'", 5),
        ("2d6 6", "unexpected '6'", 5),
        ("0d6", "0d6 throws no dice", 1),
        ("0pm6", "0pm6 throws no dice", 1),
        ("d1", "a d1 is not a die", 1),
        ("pm1", "pm1 rolls a d1, which is not a die", 1),
        ("d20001", "a d20001 has too many sides", 1),
        ("d2x", "an exploding die needs 3 or more sides", 1),
        ("4d6kh5", "4d6kh5 keeps an impossible number of dice", 1),
        ("4d6kh0", "keeps an impossible number of dice", 1),
        ("4d6dl4", "keeps an impossible number of dice", 1),
        ("10000d6", "10000 dice is over the roll budget", 1),
        ("d6*d6", "multiplication needs a constant on one side", 1),
        ("2d6 + 10000000", "the number 10000000 is too large", 7),
        ("sort(3d6) + 1", "sorted dice cannot be added or subtracted", 1),
        ("-sort(3d6)", "sorted dice cannot be negated", 1),
        ("abs(sort(3d6))", "abs() needs a number", 1),
        ("sort(3d6) * 2", "multiplication needs a constant", 1),
        ("sort(d10x)", "unexpected 'x'", 9),
        ("-" * 120 + "d6", "expression nests too deeply", 102),
    ],
)
def test_errors_name_the_problem_and_the_column(text: str, message: str, column: int) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    err = info.value
    assert message in err.message
    assert err.column == column
    shown = repr(text) if len(text) <= 60 else "'" + text[:20]  # long input: its start and ...
    assert f"at column {column} of {shown}" in str(err)
    assert isinstance(err, DiceError) and isinstance(err, FirefightError)
    assert isinstance(err, ValueError)  # library users may catch it the ordinary way


def test_non_text_is_refused() -> None:
    with pytest.raises(DiceSyntaxError, match="must be text"):
        parse(6)  # type: ignore[arg-type]


def test_sort_refuses_anything_but_plain_dice_even_past_the_grammar() -> None:
    # the grammar lets only NdX into sort(); the tree builder holds the line itself (a check,
    # not an assert, so it stands under python -O), here fed a tree the grammar never makes
    import lark

    from firefight.dice.parse import _build, _parser

    keep = _parser().parse("3d6kh2")
    with pytest.raises(DiceSyntaxError, match=r"sort\(\) takes plain dice at column 1"):
        _build(lark.Tree("sort", [keep]), "sort(3d6kh2)")
    assert _build(_parser().parse("sort(3d6)"), "sort(3d6)") == Sorted(3, 6)
