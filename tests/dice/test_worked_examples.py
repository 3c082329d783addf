"""The texts' own dice examples, fed through scripted dice (face by face, in rolled order)."""

from __future__ import annotations

import pytest

from firefight.dice import DOUBLE_SIX, NATURAL_ONE, ScriptedDice, render_line, rolled_json
from firefight.errors import FirefightError, ScriptError


def test_cp2020_ten_then_four_is_25() -> None:
    """graydawn G02: stat 7 + skill 4 = base 11; a 10 explodes, then 4: 7+4+10+4 = 25."""
    dice = ScriptedDice([10, 4])
    roll = dice.roll("d10x + 11", why="skill roll (G02)")
    assert roll.total == 25
    assert NATURAL_ONE not in roll.tags
    assert roll.faces == (10, 4)
    assert dice.unused == []


def test_cp2020_fumble_one_ten_four_is_minus_3() -> None:
    """graydawn G02: a 1 does not count; roll again and subtract, a 10 keeps going: 11-10-4."""
    dice = ScriptedDice([1, 10, 4])
    roll = dice.roll("d10x + 11", why="skill roll (G02)")
    assert roll.total == -3
    assert roll.tags == frozenset({NATURAL_ONE})
    assert roll.faces == (1, 10, 4)
    assert dice.unused == []
    assert roll.rolled is not None
    assert render_line(roll.rolled) == "1d10x[(1), -10!, -4] + 11 = -3  (natural 1)"


def test_cp2020_plain_faces_count_as_they_are() -> None:
    for face in range(2, 10):
        assert ScriptedDice([face]).roll("d10x").total == face


def test_cp2020_long_chains_both_ways() -> None:
    assert ScriptedDice([10, 10, 10, 3]).roll("d10x").total == 33
    assert ScriptedDice([1, 10, 10, 1]).roll("d10x").total == -21  # the 1 after 10s counts
    assert ScriptedDice([1, 1]).roll("d10x").total == -1  # a re-rolled 1 is just 1


def test_dragon_warriors_reflexes_example() -> None:
    """D01 / DW combat: Reflexes 10, the dice show +3 and -1: the score is 12."""
    roll = ScriptedDice([3, 1]).roll("10 + pm6", why="initiative")
    assert roll.total == 12
    assert DOUBLE_SIX not in roll.tags


def test_dragon_warriors_plus_chain_rolls_first_then_minus_chain() -> None:
    """The plus die's whole chain is rolled first (6, 6, 3 = +15), then the minus die (2)."""
    dice = ScriptedDice([6, 6, 3, 2])
    roll = dice.roll("pm6")
    assert roll.total == 15 - 2
    assert roll.tags == frozenset()  # only the plus die showed a six first: no double six
    assert roll.rolled is not None
    assert rolled_json(roll.rolled)["dice"] == [
        {"sides": 6, "face": 6, "kept": True, "sign": 1, "note": "explodes"},
        {"sides": 6, "face": 6, "kept": True, "sign": 1, "note": "explodes"},
        {"sides": 6, "face": 3, "kept": True, "sign": 1, "note": ""},
        {"sides": 6, "face": 2, "kept": True, "sign": -1, "note": ""},
    ]


def test_dragon_warriors_double_six() -> None:
    """Both dice show 6 on the first throw: the double six is visible; both chains go on."""
    roll = ScriptedDice([6, 2, 6, 6, 1]).roll("pm6")  # plus 6+2 = 8, minus 6+6+1 = 13
    assert roll.total == 8 - 13
    assert roll.tags == frozenset({DOUBLE_SIX})
    assert roll.rolled is not None
    assert render_line(roll.rolled) == "pm6[6!, 2, -6!, -6!, -1] = -5  (double six)"


def test_later_sixes_are_not_a_double_six() -> None:
    roll = ScriptedDice([1, 6, 6, 2]).roll("pm6")  # plus 1; minus 6+6+2
    assert roll.total == 1 - 14
    assert DOUBLE_SIX not in roll.tags


def test_keep_and_drop_show_which_dice_count() -> None:
    roll = ScriptedDice([3, 6, 1, 5]).roll("4d6kh3")
    assert roll.total == 14
    assert roll.rolled is not None
    assert render_line(roll.rolled) == "4d6kh3[3, 6, ~1~, 5] = 14"
    assert ScriptedDice([3, 6, 1, 5]).roll("4d6dh1").total == 9


def test_sorted_dice_give_a_descending_tuple() -> None:
    roll = ScriptedDice([4, 12, 7]).roll("sort(3d12)")
    assert roll.value == (12, 7, 4)
    with pytest.raises(FirefightError):
        _ = roll.total


def test_script_running_out_names_the_die_and_the_reason() -> None:
    dice = ScriptedDice([10])
    with pytest.raises(ScriptError, match=r"table's dice ran out: die 2 \(a d10 for 'G02 skill'\)"):
        dice.roll("d10x + 11", why="G02 skill")


def test_impossible_face_is_refused() -> None:
    with pytest.raises(ScriptError, match=r"the table's die 2 shows 7, which a d6 .*cannot show"):
        ScriptedDice([2, 7]).roll("2d6")


def test_left_over_faces_are_reported() -> None:
    dice = ScriptedDice([3, 4, 5])
    dice.roll("2d6")
    with pytest.raises(ScriptError, match=r"1 of the table's faces left unused: \[5\]"):
        dice.check_all_used()


def test_rolls_are_recorded_with_why() -> None:
    dice = ScriptedDice([4, 8])
    dice.roll("d20", why="attacker (W01)")
    dice.roll("d10", why="damage")
    assert [(r.expr, r.why, r.value) for r in dice.events] == [
        ("1d20", "attacker (W01)", 4),
        ("1d10", "damage", 8),
    ]
