"""Generated expressions: they roll, compute exactly or raise firefight's own errors; nothing else.

The strategy builds text from the notation's grammar (dice of every kind, constants, + - *,
negation, parentheses, abs, sort), including forms the grammar accepts but the rules refuse
(sorted dice in arithmetic, huge counts), so both paths are exercised.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firefight.dice import SeededDice, exact, parse, sample
from firefight.dice.limits import fewest_values
from firefight.dice.nodes import dice_count, walk
from firefight.errors import DiceSyntaxError, FirefightError

SIDES = st.sampled_from(["2", "3", "4", "6", "8", "10", "12", "20", "100", "%"])
COUNT = st.sampled_from(["", "1", "2", "3", "4"])


@st.composite
def dice_term(draw: st.DrawFn) -> str:
    count, sides = draw(COUNT), draw(SIDES)
    kind = draw(st.sampled_from(["plain", "keep", "explode", "pm", "sort"]))
    if kind == "keep":
        mode = draw(st.sampled_from(["kh", "kl", "dh", "dl"]))
        return f"{count}d{sides}{mode}{draw(st.integers(0, 4))}"
    if kind == "explode":
        return f"{count}d{sides}x"
    if kind == "pm":
        return f"{count}pm{draw(st.sampled_from(['4', '6']))}"
    if kind == "sort":
        return f"sort({count}d{sides})"
    return f"{count}d{sides}"


LEAF = st.one_of(dice_term(), st.integers(0, 30).map(str))


def combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(children, st.sampled_from([" + ", "-", " - "]), children).map("".join),
        st.tuples(children, st.integers(0, 5)).map(lambda t: f"({t[0]}) * {t[1]}"),
        st.tuples(st.integers(-3, 5), children).map(lambda t: f"{t[0]}*{t[1]}"),
        children.map(lambda c: f"-({c})"),
        children.map(lambda c: f"abs({c})"),
        children.map(lambda c: f"({c})"),
    )


EXPRESSIONS = st.recursive(LEAF, combine, max_leaves=6)


def small_enough(expr: str) -> bool:
    """Exact is quick here: few dice and modest sides (open-ended dice count double)."""
    node = parse(expr)
    return dice_count(node) <= 8 and not any(
        getattr(n, "sides", 0) > 20 and getattr(n, "count", 0) > 2 for n in walk(node)
    )


@given(EXPRESSIONS, st.integers(0, 2**32 - 1))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_expressions_roll_compute_or_raise_our_error(expr: str, seed: int) -> None:
    try:
        node = parse(expr)
    except DiceSyntaxError:
        return  # refused at the edge with a column and a tip: fine
    try:
        rolled = SeededDice(seed).roll(node)
    except FirefightError:
        return
    values = sample(node, 20, seed)
    if node.is_sorted:
        assert isinstance(rolled.value, tuple)
        assert values.shape == (20, len(rolled.value))
        return
    assert isinstance(rolled.value, int)
    if small_enough(expr):
        try:
            d = exact(node)
        except FirefightError:
            return
        assert sum(p for _, p in d.probabilities()) == 1 - d.truncated_mass
        if d.truncated_mass == 0:  # every rolled or sampled value is possible
            assert d.p(rolled.total) > 0
            assert all(d.p(int(v)) > 0 for v in values)


@given(EXPRESSIONS)
@settings(max_examples=100, deadline=None)
def test_notation_prints_back_to_an_equivalent_expression(expr: str) -> None:
    try:
        node = parse(expr)
    except DiceSyntaxError:
        return
    again = parse(str(node))
    assert str(again) == str(node)
    if not node.is_sorted and small_enough(expr):
        try:
            d = exact(node, depth=2, stop=True)
        except FirefightError:
            return
        assert exact(again, depth=2, stop=True) == d


@given(EXPRESSIONS)
@settings(max_examples=150, deadline=None)
def test_fewest_values_is_a_lower_bound(expr: str) -> None:
    """The table refusal reads fewest_values before any work: it must never exceed the values
    the distribution has (at the default depth, the shallowest, and icepool's convention)."""
    try:
        node = parse(expr)
    except DiceSyntaxError:
        return
    if node.is_sorted or not small_enough(expr):
        return
    for depth, stop in ((None, False), (1, False), (1, True)):
        try:
            d = exact(node, depth=depth, stop=stop)
        except FirefightError:
            return
        assert fewest_values(node) <= len(d), (depth, stop)


GRAMMAR_CHARS = "0123456789dD%+-*() absortkhldxpm\u2212\u00d7"


@given(st.one_of(st.text(max_size=40), st.text(alphabet=GRAMMAR_CHARS, max_size=40)))
@settings(max_examples=400, deadline=None)
def test_any_text_parses_or_raises_a_syntax_error(text: str) -> None:
    try:
        node = parse(text)
    except DiceSyntaxError as err:
        assert 1 <= err.column <= len(text) + 1
        assert "\n" not in err.one_line()
        return
    assert str(node)


def test_deep_nesting_is_a_syntax_error_not_a_crash() -> None:
    for text in ("-" * 500 + "d6", "abs(" * 300 + "d6" + ")" * 300):
        try:
            parse(text)
        except DiceSyntaxError as err:
            assert "nests too deeply" in str(err)
        else:  # pragma: no cover - the limit must trigger
            raise AssertionError(text)
    assert int(sample("(" * 500 + "d6" + ")" * 500, 1, 0)[0]) in range(1, 7)


def test_seeded_sample_of_large_pools_is_fine() -> None:
    values = sample("1000d6", 100, np.random.default_rng(0))
    assert values.min() >= 1000 and values.max() <= 6000


def _lark_or_error(text: str) -> object:
    """Lark's reading of ``text``: the tree, or the error it raises (message and column)."""
    from firefight.dice.parse import _parse_lark

    clean = text.replace("\u2212", "-").replace("\u00d7", "*")
    try:
        return _parse_lark(text, clean)
    except DiceSyntaxError as err:
        return err


@given(
    st.one_of(
        EXPRESSIONS,
        st.text(alphabet=GRAMMAR_CHARS, max_size=40),
        st.text(alphabet="0123456789dkhlxpm%()+-* \t", min_size=1, max_size=12),
    )
)
@settings(max_examples=600, deadline=None)
def test_quick_reader_builds_lark_trees_or_leaves_the_text_to_lark(text: str) -> None:
    """Whatever the hand reader accepts, Lark reads to the identical tree; what Lark refuses,
    the hand reader leaves alone (so every error still comes from Lark, with its column)."""
    from firefight.dice.nodes import dice_count
    from firefight.dice.parse import MAX_CONSTANT, MAX_SIDES, ROLL_BUDGET
    from firefight.dice.quickparse import quick_parse

    clean = text.replace("\u2212", "-").replace("\u00d7", "*").lower()
    quick = quick_parse(clean, MAX_SIDES, MAX_CONSTANT)
    if quick is None:
        return
    if dice_count(quick) > ROLL_BUDGET:  # parse() leaves a pool past the budget to Lark too
        assert "over the roll budget" in str(_lark_or_error(text))
        return
    assert _lark_or_error(text) == quick


def test_quick_reader_takes_the_common_forms_and_leaves_the_rest() -> None:
    from firefight.dice.parse import MAX_CONSTANT, MAX_SIDES
    from firefight.dice.quickparse import quick_parse

    for text in ("2d20", "abs(2d20-2d20) + 3", "d10x+11", "pm6", "4d6kh3", "sort(3d12)", "d%"):
        assert quick_parse(text, MAX_SIDES, MAX_CONSTANT) == _lark_or_error(text)
    for text in ("1+" * 60 + "1", "2d1", "4d6kh5", "sort((3d6))", "2 6", "d6 d6", "7d6\u00a0"):
        assert quick_parse(text, MAX_SIDES, MAX_CONSTANT) is None


def test_lone_dice_terms_read_in_one_match_as_lark_reads_them() -> None:
    """The one-match path for a lone dice term accepts exactly what the token reader does."""
    from firefight.dice.parse import MAX_CONSTANT, MAX_SIDES
    from firefight.dice.quickparse import quick_parse

    for text in (" 04d06kh01 ", "d10x", "3d6dl0", "10d6dh9", "d%kl1", "\t2d20\n", "5d10000"):
        assert quick_parse(text, MAX_SIDES, MAX_CONSTANT) == _lark_or_error(text)
    for text in ("0d6", "3d2x", "4d6dh4", "4d6kl0", "1" + "0" * 18 + "d6", "d6kh" + "1" * 19):
        assert quick_parse(text, MAX_SIDES, MAX_CONSTANT) is None
    assert quick_parse("2d10001", MAX_SIDES, MAX_CONSTANT) is None
    assert quick_parse("9d6", MAX_SIDES, MAX_CONSTANT, 8) is None  # over the dice budget


def test_dice_terms_read_as_one_token_inside_expressions_as_lark_reads_them() -> None:
    """Glued terms are single tokens; a term with blanks inside is read in its parts."""
    from firefight.dice.parse import MAX_CONSTANT, MAX_SIDES
    from firefight.dice.quickparse import quick_parse

    for text in (
        "abs(2d20-2d20)",
        "sort(3d6) ",
        "sort( 2 d6 )",
        "1 + 2 d6",
        "2d6 kh1 - d20 x",
        "d%kh1*3",
        "-(4d6dl1)+d10x",
        "pm6",
        "3pm6 + 2 pm6 - pm 6",
    ):
        assert quick_parse(text, MAX_SIDES, MAX_CONSTANT) == _lark_or_error(text), text
    for text in (
        "sort(3d6kh2)",
        "sort(3d6x)",
        "d6d6",
        "2d6 2d6",
        "1+0d6",
        "2d6kh1 x",
        "2dd6",
        "(2d6)kh",
        "pm%",
        "pm6x",
        "2pm6kh1",
        "sort(pm6)",
        "0pm6",
    ):
        assert quick_parse(text, MAX_SIDES, MAX_CONSTANT) is None, text
    assert quick_parse("abs(500d6 - 501d6)", MAX_SIDES, MAX_CONSTANT, 1000) is None
    assert quick_parse("501pm6", MAX_SIDES, MAX_CONSTANT, 1000) is None  # two dice a count
    assert quick_parse("500pm6", MAX_SIDES, MAX_CONSTANT, 1000) == _lark_or_error("500pm6")
    assert quick_parse("d6 + 500pm6", MAX_SIDES, MAX_CONSTANT, 1000) is None
