"""Exact-cost limits read off the tree before any work: keep pools are refused by a model of
``keep.py``'s time, the same way by ``check_exact`` (the CLI, dice fields) and by ``exact()``;
``fewest_values`` bounds the rows of a table before the distribution is computed."""

from __future__ import annotations

import importlib

import pytest

from firefight.dice import exact, parse
from firefight.dice.limits import MAX_KEEP_SECONDS, check_exact, fewest_values, keep_seconds
from firefight.errors import DiceError

exact_module = importlib.import_module("firefight.dice.exact")

#: Estimated (and measured, x86_64 / Python 3.11) past MAX_KEEP_SECONDS: 100d100kh50 7.6 s;
#: 1000d20kh500 about 15 minutes; 1000d10000kh1 about 45 s (the result's shifts alone).
REFUSED = [
    "100d100kh50",
    "1000d20kh500",
    "1000d20dl500",
    "1000d20kl500",
    "1000d10000kh1",
    "3 + abs(2d6 - 900d20kl500) * 2",
]
#: 60d20kh20 ~10 ms and 100d20kh50 ~0.2 s, both refused by the old limit ("would take
#: minutes"); keeping every die is the plain sum.
ACCEPTED = ["60d20kh20", "100d20kh50", "4d600kh3", "30d20kh15", "1000d20kh1000", "1000d20dh0"]


@pytest.mark.parametrize("expr", REFUSED)
def test_exact_refuses_what_check_exact_refuses_before_any_work(
    monkeypatch: pytest.MonkeyPatch, expr: str
) -> None:
    def no_work(*args: object) -> None:
        raise AssertionError("keep_sum ran")

    monkeypatch.setattr(exact_module, "keep_sum", no_work)
    with pytest.raises(DiceError) as checked:
        check_exact(parse(expr), expr)
    exact_module.clear_caches()
    with pytest.raises(DiceError) as computed:
        exact(expr)
    assert computed.value.message == checked.value.message
    assert computed.value.tip == checked.value.tip
    assert "would take about" in checked.value.message
    assert f"limited to {MAX_KEEP_SECONDS:g} s" in checked.value.message


@pytest.mark.parametrize("expr", ACCEPTED)
def test_keep_pools_of_a_few_seconds_or_less_are_answered(expr: str) -> None:
    node = parse(expr)
    check_exact(node, expr)
    d = exact(expr)
    assert len(d) == fewest_values(node)  # every kept sum occurs


def test_the_estimate_grows_about_with_the_square_of_kept_dice_sides_and_dice() -> None:
    """What the refusal's tip says: twice the kept dice, sides or dice, about four times the
    time (sides a little more: the slot widens too; dice a little less)."""
    base = keep_seconds(200, 40, 50)
    for bigger in (
        keep_seconds(200, 40, 100),
        keep_seconds(200, 80, 50),
        keep_seconds(400, 40, 50),
    ):
        assert 3 < bigger / base < 6
    assert keep_seconds(10, 6, 10) == 0  # every die kept: no order statistics


@pytest.mark.parametrize(
    ("expr", "floor"),
    [
        ("1000d20", 19_001),
        ("4d6kh3", 16),
        ("4d6dl1 - 2d6", 26),
        ("abs(2d20 - 2d20)", 39),
        ("d6 * 1000", 6),
        ("d6 * 0", 1),
        ("d10x", 8),
        ("2pm6", 17),
        ("-(3d4) + 7", 10),
    ],
)
def test_fewest_values(expr: str, floor: int) -> None:
    assert fewest_values(parse(expr)) == floor
    assert len(exact(expr)) >= floor
