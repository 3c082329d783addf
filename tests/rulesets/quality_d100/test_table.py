"""Q02: the Success Quality Table (57.4), every printed cell reproduced from the Q01 rules."""

from __future__ import annotations

import pytest

from firefight.rulesets.quality_d100 import RULESET
from firefight.rulesets.quality_d100.house import QualityD100House
from firefight.rulesets.quality_d100.quality import quality
from firefight.rulesets.quality_d100.table import headers, table_rows
from tests.rulesets.quality_d100.printed_table import PRINTED_LEFT, PRINTED_RIGHT

RULES = {int(row[0]): row[1:] for row in table_rows()}
PRINTED_MODE = {int(row[0]): row[1:] for row in table_rows(printed=True)}


def test_transcription_is_complete() -> None:
    assert sorted(PRINTED_LEFT) == list(range(1, 51))
    assert sorted(PRINTED_RIGHT) == list(range(51, 101))
    assert (
        sum(len(v) for v in PRINTED_LEFT.values()) + sum(len(v) for v in PRINTED_RIGHT.values())
        == 50 * 6 + 50 * 3
    )


@pytest.mark.parametrize("roll", range(2, 51))
def test_left_half_rows_2_to_50_every_column(roll: int) -> None:
    assert tuple(RULES[roll]) == PRINTED_LEFT[roll]


@pytest.mark.parametrize("roll", range(51, 101))
def test_right_half_rows_51_to_100_every_column(roll: int) -> None:
    assert tuple(RULES[roll][:3]) == PRINTED_RIGHT[roll]
    # The printed right half has no Decisive+ columns: no chance up to 300 reaches them.
    assert RULES[roll][3:] == ["-", "-", "-"]


def test_row_1_in_printed_table_mode_matches_the_print() -> None:
    assert tuple(PRINTED_MODE[1]) == PRINTED_LEFT[1]
    assert all(PRINTED_MODE[r] == RULES[r] for r in range(2, 101))


def test_row_1_by_the_rules_differs_from_the_print() -> None:
    # Rounding up makes every chance 1..100 Decisive on a roll of 1 (10% of 1 = 0.1 -> 1), and
    # natural 01 is at least Decisive anyway; the print shows Average at 1, Better at 2 ...
    assert PRINTED_LEFT[1] == ("1", "2", "3-4", "5-100", "101-200", "201+")
    assert RULES[1] == ["-", "-", "-", "1-100", "101-200", "201+"]
    assert [quality(1, c) for c in (1, 2, 3, 4, 5)] == [4, 4, 4, 4, 4]
    differing = [i for i in range(6) if RULES[1][i] != PRINTED_LEFT[1][i]]
    assert differing == [0, 1, 2, 3]


def test_cells_beyond_the_printed_chances_are_dashes_but_the_rule_goes_on() -> None:
    # Row 11 prints no Fantastic: it would start at chance 301, past the printed table.
    assert RULES[11][5] == "-"
    assert quality(11, 301) == 6 and quality(11, 300) == 5


def test_ruleset_table_hook_rows_and_headers() -> None:
    head, body = RULESET.table((40, 42), False, QualityD100House())
    assert head == headers() and head[0] == "Roll" and head[1] == "Average (1)"
    assert [row[0] for row in body] == ["40", "41", "42"]
    assert body[1][1:4] == ["41-100", "101-200", "201-400"]
