"""Fight turns: stun duration (D06), knocked-out combatants, initiative and delaying (D03)."""

from __future__ import annotations

from typing import Any

from firefight.core.transcript import Note, StateChange
from firefight.dice import ScriptedDice
from firefight.rulesets import get_ruleset

from .conftest import fighter, load

RULESET = get_ruleset("dragonwarriors2")


def fight(turns: list[dict[str, Any]], faces: list[int], **b: Any) -> Any:
    data = {
        "kind": "fight",
        "combatants": [
            fighter("Ann", 12, 10, 10, reflexes=10, riposte="never"),
            fighter("Bob", 10, 10, 10, reflexes=10, riposte="never", **b),
        ],
        "turns": turns,
    }
    dice = ScriptedDice(faces)
    result = RULESET.resolve(load(data), dice)
    dice.check_all_used()
    return result


ANN_HITS_BOB = {"attacker": "Ann", "defender": "Bob"}


def test_a_stun_wears_off_at_the_same_point_of_the_next_turn() -> None:
    turns = [
        {"initiative": False, "exchanges": [ANN_HITS_BOB]},
        {"initiative": False, "exchanges": [ANN_HITS_BOB]},
    ]
    # turn 1: Ann 12 + 4 = 16 vs Bob 10: 6 wounds; stun 10 - 1 = 9 vs 11: stunned
    # turn 2, same slot: Bob is himself again (Defence 10): 12 vs 10 + 3 = 13: Bob wins
    result = fight(turns, [5, 1, 3, 3, 1, 2, 3, 3, 4, 1])
    changes = [(s.field, s.before, s.after) for s in result.transcript.of_type(StateChange)]
    assert ("stunned", False, True) in changes and ("stunned", True, False) in changes
    assert result.summary["Bob"]["stunned"] is False


def test_a_stun_from_a_later_slot_still_holds_early_next_turn() -> None:
    turns = [
        {"initiative": False, "exchanges": [{"attacker": "Bob", "defender": "Ann"}, ANN_HITS_BOB]},
        {"initiative": False, "exchanges": [ANN_HITS_BOB]},
    ]
    # slot 1: Bob 10 vs Ann 10: tie. slot 2: Ann hits for 6, Bob stunned.
    # turn 2 slot 1: Bob still stunned: Defence 0 -> 12 vs 0 + 0: 12 wounds, stun check
    faces = [3, 3, 3, 3, 5, 1, 3, 3, 1, 2, 3, 3, 3, 3, 6, 1, 1]
    result = fight(turns, faces)
    lines = result.transcript.lines()
    assert "Ann attack vs Bob: 12 vs 0 -> passed (D04): margin +12" in lines


def test_knocked_out_combatants_do_not_fight() -> None:
    turns = [{"initiative": False, "exchanges": [ANN_HITS_BOB, {"attacker": "Bob",
                                                                 "defender": "Ann"}]}]  # fmt: skip
    # 16 vs 10: 6 wounds; stun 10 + 1 - 7 = 4 vs 11: out. Bob's attack is skipped.
    result = fight(turns, [5, 1, 3, 3, 1, 6, 1])
    assert result.summary["Bob"]["knocked_out"] is True
    assert any("Bob is out of the fight" in n.message for n in result.transcript.of_type(Note))


def test_initiative_order_and_delay_note() -> None:
    turns = [{"initiative": True, "exchanges": [{"attacker": "Bob", "defender": "Ann"},
                                                 ANN_HITS_BOB]}]  # fmt: skip
    # Ann 10 + 4 = 14, Bob 10 - 4 = 6: Ann acts first but the file has Bob first: Ann delays
    faces = [5, 1, 1, 5, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]
    result = fight(turns, faces)
    messages = [n.message for n in result.transcript.of_type(Note)]
    assert "initiative order: Ann 14, Bob 6" in messages
    assert "Ann delays his action (initiative 14)" in messages
