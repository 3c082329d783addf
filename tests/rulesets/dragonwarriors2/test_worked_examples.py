"""D11: the text's example of combat, Sir Rolf against Squire Lennox, roll by roll.

Scripted faces are plus-minus dice: the plus die and its re-rolls on six, then the minus die and
its re-rolls. Each printed roll is given as faces that make exactly that value:

    (-4) 1,5   (-3) 1,4   (-2) 1,3   (-1) 1,2   (0) 3,3   (+1) 2,1   (+2) 3,1
    (+6) 6,1,1   (+8) 6,3,1   (+10) 6,5,1   (+11) 6,6,1,2

Two printed totals do not follow from the printed rolls (Lennox's Defence 10 with (+10) is
printed as 21; Rolf's Attack 14 with (0) as 15). The first test feeds the printed rolls and checks
what the rules make of them; the second feeds (+11) and (+1) there and checks every printed figure.
"""

from __future__ import annotations

from typing import Any

import pytest

from firefight.core.loading import read_toml
from firefight.core.transcript import Check, Note, StateChange
from firefight.dice import ScriptedDice
from firefight.rulesets import get_ruleset

from .conftest import EXAMPLES, load

FACES = {
    -4: [1, 5], -3: [1, 4], -2: [1, 3], -1: [1, 2], 0: [3, 3], 1: [2, 1], 2: [3, 1],
    6: [6, 1, 1], 8: [6, 3, 1], 10: [6, 5, 1], 11: [6, 6, 1, 2],
}  # fmt: skip


def script(rolls: list[int]) -> list[int]:
    return [f for r in rolls for f in FACES[r]]


PRINTED_ROLLS = [
    -4, -3,  # initiative: Rolf, Lennox
    -1, 1,  # Lennox attacks, Rolf defends
    6, -3,  # Rolf's riposte, Lennox defends
    -1,  # Lennox's stun check
    2, 10,  # Rolf attacks, Lennox defends (printed total 21)
    -4, -1,  # Lennox's riposte, Rolf defends
    -2, -3,  # Rolf's counter-riposte, Lennox defends
    -2,  # Lennox's stun check
    0, 6,  # turn 2: Rolf attacks (printed total 15), stunned Lennox defends
    8,  # Lennox's stun check
]  # fmt: skip

CORRECTED_ROLLS = [11 if i == 8 else 1 if i == 14 else r for i, r in enumerate(PRINTED_ROLLS)]


def fight(rolls: list[int]) -> Any:
    ruleset = get_ruleset("dragonwarriors2")
    situation = load(read_toml(EXAMPLES / "rolf_vs_lennox.toml"))
    dice = ScriptedDice(script(rolls))
    result = ruleset.resolve(situation, dice)
    dice.check_all_used()
    return result


def test_each_face_list_makes_its_printed_roll() -> None:
    for value, faces in FACES.items():
        res = ScriptedDice(faces).roll("pm6")
        assert res.total == value, faces


def contests(result: Any) -> list[tuple[str, int, int]]:
    return [(c.name, c.value, c.target) for c in result.transcript.of_type(Check)]


def notes(result: Any) -> list[str]:
    return [n.message for n in result.transcript.of_type(Note)]


def wounds(result: Any, who: str) -> list[tuple[Any, Any]]:
    return [
        (s.before, s.after)
        for s in result.transcript.of_type(StateChange)
        if s.who == who and s.field == "wounds"
    ]


@pytest.mark.parametrize("rolls", [PRINTED_ROLLS, CORRECTED_ROLLS], ids=["printed", "corrected"])
def test_rolls_are_read_in_transcript_order(rolls: list[int]) -> None:
    result = fight(rolls)
    assert [r.total for r in result.transcript.rolls()] == rolls
    whys = [r.why for r in result.transcript.rolls()]
    assert whys[:4] == ["Rolf: initiative", "Lennox: initiative", "Lennox: attack", "Rolf: defence"]
    assert whys[4:7] == ["Rolf: riposte", "Lennox: defence", "Lennox: stun check"]
    assert whys[9:13] == [
        "Lennox: riposte", "Rolf: defence", "Rolf: counter-riposte", "Lennox: defence"
    ]  # fmt: skip


def test_initiative_both_slow_off_the_mark_lennox_first() -> None:
    result = fight(PRINTED_ROLLS)
    assert "initiative order: Lennox 8, Rolf 6" in notes(result)


def test_printed_rolls_under_the_rules() -> None:
    """The printed rolls, read by the rules: 20, margin 4, riposte 4 -> 0, margin 13,
    counter-riposte 11 vs 7 -> 4 wounds -> 8, Toughness 8 vs 13 fails by 5 (stunned, not out),
    then 14 vs 6 -> 8 wounds -> 16."""
    result = fight(PRINTED_ROLLS)
    stun = "Lennox stun check (Toughness vs Wounds + 5)"
    assert contests(result) == [
        ("Lennox attack vs Rolf", 10, 15),
        ("Rolf riposte vs Lennox", 11, 7),
        (stun, 9, 9),
        ("Rolf attack vs Lennox", 16, 20),
        ("Lennox riposte vs Rolf", 0, 13),
        ("Rolf counter-riposte vs Lennox", 11, 7),
        (stun, 8, 13),
        ("Rolf attack vs Lennox", 14, 6),
        (stun, 18, 21),
    ]
    n = notes(result)
    assert "Rolf wins by 5 and ripostes with Attack 5 (table's choice 1)" in n
    assert "Lennox wins by 4 and ripostes with Attack 4 (table's choice 1)" in n
    assert "Rolf wins by 13 and counter-ripostes with Attack 13 (table's choice 2)" in n
    assert "Rolf wins by 4: 4 wounds to Lennox" in n
    assert "Rolf wins by 8: 8 wounds to Lennox" in n
    assert wounds(result, "Lennox") == [(0, 4), (4, 8), (8, 16)]
    assert wounds(result, "Rolf") == []
    checks = result.transcript.of_type(Check)
    assert checks[2].passed and "a draw holds" in checks[2].detail
    assert not checks[6].passed and checks[6].detail == "failed by 5: stunned"
    assert not checks[8].passed and checks[8].detail == "failed by 3: stunned"
    assert "Lennox is stunned: Attack and Defence count as 0" in n
    assert result.summary["Lennox"] == {
        "wounds": 16, "stunned": True, "knocked_out": False, "dead": False
    }  # fmt: skip
    assert result.summary["Rolf"]["wounds"] == 0


def test_corrected_rolls_reproduce_every_printed_figure() -> None:
    """(+11) for Lennox's defence and (+1) for Rolf's last attack give the text's 21, margin 5,
    riposte 5 -> 1, 12, 10 vs 7 -> 3 wounds -> 7, stunned (missed by 4), 15 vs 6 -> 9 -> 16."""
    result = fight(CORRECTED_ROLLS)
    stun = "Lennox stun check (Toughness vs Wounds + 5)"
    assert contests(result) == [
        ("Lennox attack vs Rolf", 10, 15),
        ("Rolf riposte vs Lennox", 11, 7),
        (stun, 9, 9),
        ("Rolf attack vs Lennox", 16, 21),
        ("Lennox riposte vs Rolf", 1, 13),
        ("Rolf counter-riposte vs Lennox", 10, 7),
        (stun, 8, 12),
        ("Rolf attack vs Lennox", 15, 6),
        (stun, 18, 21),
    ]
    n = notes(result)
    assert "Rolf wins by 5 and ripostes with Attack 5 (table's choice 1)" in n
    assert "Lennox wins by 5 and ripostes with Attack 5 (table's choice 1)" in n
    assert "Rolf wins by 12 and counter-ripostes with Attack 12 (table's choice 2)" in n
    assert "Rolf wins by 3: 3 wounds to Lennox" in n
    assert "Rolf wins by 9: 9 wounds to Lennox" in n
    assert wounds(result, "Lennox") == [(0, 4), (4, 7), (7, 16)]
    checks = result.transcript.of_type(Check)
    assert checks[6].detail == "failed by 4: stunned"
    assert checks[8].detail == "failed by 3: stunned"
    assert result.summary["Lennox"]["wounds"] == 16
    assert result.summary["Lennox"]["stunned"] is True
    assert result.summary["Lennox"]["knocked_out"] is False


def test_stun_lasts_into_the_next_turn_and_no_death_check_at_16() -> None:
    """Lennox is still stunned when Rolf swings in turn 2 (Defence 0), and going from 7 or 8
    wounds to 16 against Toughness 10 needs no death check (only FURTHER wounds do)."""
    result = fight(CORRECTED_ROLLS)
    assert not any("death" in c.name for c in result.transcript.of_type(Check))
    turn2 = result.transcript.lines().index("turn 2")
    after = result.transcript.lines()[turn2:]
    assert any("stunned: Attack and Defence count as 0" in line for line in after)
    assert not any("stunned yes -> no" in line for line in after)
