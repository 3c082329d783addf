"""Q01 and Q06: the quality of one D100 roll against a chance, natural 01 / 00, die modifiers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from firefight.dice import ScriptedDice
from firefight.rulesets.quality_d100.house import QualityD100House
from firefight.rulesets.quality_d100.quality import (
    percent_up,
    quality,
    quality_distribution,
    roll_quality,
    thresholds,
)


def test_worked_rounding_example_21_percent() -> None:
    # The text: 10% of 21 = 2.1 rounds up to 3, so a roll of 3 or better is Decisive (4).
    assert percent_up(10, 21) == 3
    assert quality(3, 21) == 4
    assert quality(4, 21) == 3  # 4 <= 20% of 21 = 4.2 -> 5: Crucial
    assert quality(5, 21) == 3
    assert quality(6, 21) == 2


def test_natural_01_is_at_least_decisive_even_against_tiny_or_negative_chances() -> None:
    for chance in (-40, 0, 1, 2, 5, 50):
        assert quality(1, chance) == 4
    # ... and can be better where the chance allows it.
    assert quality(1, 150) == 5
    assert quality(1, 250) == 6


def test_natural_00_is_always_poor() -> None:
    for chance in (1, 100, 150, 400, 5000):
        assert quality(100, chance) == 0


def test_levels_of_table_1() -> None:
    # chance 62: Average <= 62, Better <= 25 (24.8 up), Crucial <= 13 (12.4), Decisive <= 7 (6.2)
    assert thresholds(62) == (62, 25, 13, 7, None, None)
    rolls = (63, 62, 26, 25, 14, 13, 8, 7, 2)
    assert [quality(r, 62) for r in rolls] == [0, 1, 1, 2, 2, 3, 3, 4, 4]
    # chance 250: Excellent <= 15, Fantastic <= 5
    assert thresholds(250) == (250, 100, 50, 25, 15, 5)
    assert [quality(r, 250) for r in (99, 50, 25, 16, 15, 6, 5)] == [2, 3, 4, 4, 5, 5, 6]


def test_excellent_needs_a_chance_above_100_even_with_a_die_modifier() -> None:
    # Modified roll -4 against chance 100: Decisive, not Excellent (no level beyond 100).
    assert quality(-4, 100, natural=1) == 4
    assert quality(-4, 101, natural=1) == 5
    assert quality(-4, 100, natural=6) == 4


def test_a_die_modifier_moves_the_roll_not_the_chance() -> None:
    dice = ScriptedDice([12])
    level = roll_quality(dice, 77, -5, who="archer")
    assert level == 4  # 12 - 5 = 7 <= 10% of 77 = 7.7 -> 8
    notes = [e for e in dice.events if hasattr(e, "message")]
    assert "12-5 = 7" in notes[0].message
    assert quality(12, 77) == 3  # without the modifier: 12 <= 16 (15.4 up) Crucial


def test_natural_00_stays_poor_with_a_die_modifier() -> None:
    assert roll_quality(ScriptedDice([100]), 400, -10) == 0


def test_quality_distribution_is_exact_and_sums_to_one() -> None:
    dist = quality_distribution(81)
    assert dist.probabilities() == {
        0: Fraction(19, 100),
        1: Fraction(48, 100),
        2: Fraction(16, 100),
        3: Fraction(8, 100),
        4: Fraction(9, 100),
    }
    aimed = quality_distribution(81, -5)
    assert aimed.p(4) == Fraction(14, 100)  # faces 1..14 reach 9 or less


@pytest.mark.parametrize("chance", [1, 7, 21, 55, 99, 100, 101, 150, 199, 200, 201, 333, 450])
def test_quality_never_drops_when_the_chance_rises(chance: int) -> None:
    for roll in range(1, 101):
        assert quality(roll, chance + 1) >= quality(roll, chance)


def test_house_rule_percentages_change_the_levels() -> None:
    old = QualityD100House(better_percent=50, crucial_percent=25, decisive_percent=5)
    assert thresholds(40, old) == (40, 20, 10, 2, None, None)
    assert quality(2, 40, house=old) == 4
    assert quality(3, 40, house=old) == 3
