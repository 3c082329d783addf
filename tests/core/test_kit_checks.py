"""The conformance kit's checks fail on rule code that breaks their promise (the built-ins and
the plugin pass them in test_conformance.py and the plugin's tests)."""

from __future__ import annotations

import itertools

import pytest

from firefight.dice import DiceSource, SeededDice, Weighted
from firefight.testing import check_asked, chi_square_check


def _attack(dice: DiceSource) -> int:
    """Roll 1d20; a 20 deals 2d6 more."""
    hit = dice.roll("1d20", "attack").value
    return hit + (dice.roll("2d6", "damage").value if hit == 20 else 0)


def test_the_table_asked_roll_by_roll_ends_where_the_dice_given_end() -> None:
    asked = check_asked(_attack, [20, 3, 4], "crit")
    assert asked.result == 27
    assert [g.dice for g, _ in asked.answered] == ["1d20", "2d6"]
    assert check_asked(_attack, [7], "plain").result == 7


def test_rule_code_that_remembers_between_runs_fails_the_asking_check() -> None:
    """Asking runs the rule once per answer, as the tracker does: a rule keeping state between
    runs (a counter here) asks for other dice than one run on all faces."""
    calls = itertools.count()

    def remembers(dice: DiceSource) -> int:
        return dice.roll(f"{1 + next(calls) % 2}d6", "hidden state").value

    with pytest.raises(
        AssertionError,
        match="stateful: asked for group by group: 1 of the table's faces left unused",
    ):
        check_asked(remembers, [3, 4], "stateful")


def test_faces_too_few_for_the_rule_fail_the_asking_check() -> None:
    with pytest.raises(AssertionError, match="still asking"):
        check_asked(_attack, [20, 3], "short")


def test_biased_samples_fail_the_statistical_check() -> None:
    die = Weighted({face: 1 for face in range(1, 7)})
    dice = SeededDice(5)
    fair = [dice.roll("1d6").value for _ in range(600)]
    assert chi_square_check(die, fair, "a fair die")[0] >= 0
    with pytest.raises(AssertionError, match="do not fit the exact odds"):
        chi_square_check(die, [6] * 300 + [1] * 300, "a loaded die")
    with pytest.raises(AssertionError, match="impossible"):
        chi_square_check(die, [7] * 10, "a seventh face")
