"""dragonwarriors2 encounters: fights worked out by hand from the text, played through the engine.

Faces are plus-minus faces: the plus die and its re-rolls on six, then the minus die and its
re-rolls (docs/rules/dragonwarriors2.md). Each step's rolls come in transcript order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from firefight.core.turns import FightState, state_from_json, state_to_json
from firefight.dice import ScriptedDice
from firefight.encounter import Encounter, Engine, read_scenario
from firefight.rulesets.dragonwarriors2.encounter import Board, Warrior

from .conftest import EXAMPLES

ENCOUNTERS = EXAMPLES / "encounters"


def begin(path: Path, faces: list[int]) -> tuple[Encounter, ScriptedDice]:
    dice = ScriptedDice(faces)
    return Encounter.begin(Engine(read_scenario(path)), dice), dice


def play(enc: Encounter, dice: ScriptedDice, ids: list[str]) -> FightState:
    for action_id in ids:
        enc.act(action_id, dice)
    dice.check_all_used()
    return enc.state


# D11 with the corrected faces (+11 for Lennox's printed "21", +1 for Rolf's printed "15").
D11_FACES = [
    # turn 1 initiative: Rolf 10 + (1 - 5) = 6, Lennox 11 + (1 - 4) = 8: Lennox acts first
    1, 5, 1, 4,
    # Lennox attacks; Rolf (not yet acted) fights on normally; Lennox 11 + (1 - 2) = 10 against
    # Rolf 14 + (2 - 1) = 15: Rolf wins by 5 and may riposte with Attack 5
    1, 2, 2, 1,
    # Rolf ripostes: 5 + (6 + 1 - 1) = 11 against Lennox 10 + (1 - 4) = 7: 4 wounds (total 4);
    # stun check 10 + (1 - 2) = 9 against 4 + 5 = 9: a draw holds
    6, 1, 1, 1, 4, 1, 2,
    # Rolf's own action (Lennox has acted: no stance question): 14 + (3 - 1) = 16 against
    # Lennox 10 + (6 + 6 + 1 - 2) = 21: Lennox wins by 5 and may riposte with Attack 5
    3, 1, 6, 6, 1, 2,
    # Lennox ripostes: 5 + (1 - 5) = 1 against Rolf 14 + (1 - 2) = 13: Rolf wins by 12
    1, 5, 1, 2,
    # Rolf counter-ripostes: 12 + (1 - 3) = 10 against Lennox 10 + (1 - 4) = 7: 3 wounds (7);
    # stun check 10 + (1 - 3) = 8 against 12: failed by 4 (not more than 5): stunned until
    # turn 2, action 2 (the stun came in action 2 of turn 1)
    1, 3, 1, 4, 1, 3,
    # turn 2 (the example shows no roll; the text rolls every turn): Rolf 10 + (3 - 3) = 10,
    # Lennox 11 + (1 - 4) = 8: Rolf first
    3, 3, 1, 4,
    # Rolf attacks the stunned Lennox (no stance question: stunned): 14 + (2 - 1) = 15 against
    # Defence 0 + (6 + 1 - 1) = 6: 9 wounds (16); no death check (7 did not exceed 10);
    # stun check 10 + (6 + 3 - 1) = 18 against 21: stunned again, now until turn 3, action 1
    2, 1, 6, 1, 1, 6, 3, 1,
]  # fmt: skip
D11_STEPS = [
    "attack:Rolf",
    "stance:normal",
    "riposte:Lennox",
    "attack:Lennox",
    "riposte:Rolf",
    "riposte:Lennox",
    "attack:Lennox",
]


def test_d11_worked_example_through_the_engine() -> None:
    enc, dice = begin(ENCOUNTERS / "rolf_vs_lennox.toml", D11_FACES)
    assert enc.state.order == ("Lennox", "Rolf")
    state = play(enc, dice, D11_STEPS)
    rolf, lennox = state.combatant("Rolf"), state.combatant("Lennox")
    assert rolf == Warrior("Rolf", "Rolf", wounds=0, choices_used=2)
    assert lennox == Warrior("Lennox", "Lennox", wounds=16, stunned_until=(3, 1), choices_used=1)
    assert (state.round, state.acting, state.order) == (2, "Lennox", ("Rolf", "Lennox"))
    assert state.board == Board(done=("Rolf",), actions=1)
    assert state.ending is None
    view = enc.engine.turns.view(lennox)
    assert view["status"] == "stunned"
    assert view["stunned until"] == "turn 3, action 1"
    assert view["death check"] == "due on the next wound (D07)"
    lines = "\n".join(line for step in enc.steps for line in step.lines)
    for printed in (
        "Lennox attack vs Rolf: 10 vs 15",
        "Rolf riposte vs Lennox: 11 vs 7",
        "Lennox stun check (Toughness vs Wounds + 5): 9 vs 9",
        "Rolf attack vs Lennox: 16 vs 21",
        "Lennox riposte vs Rolf: 1 vs 13",
        "Rolf counter-riposte vs Lennox: 10 vs 7",
        "Lennox stun check (Toughness vs Wounds + 5): 8 vs 12",
        "Rolf attack vs Lennox: 15 vs 6",
        "Lennox stun check (Toughness vs Wounds + 5): 18 vs 21",
        "Lennox is stunned again",
    ):
        assert printed in lines, printed
    assert "death check" not in lines


def test_d11_stun_lasts_into_turn_two_then_wears_off_at_action_two() -> None:
    """Without the second stun, Lennox's first stun (turn 1, action 2) ends as action 2 of
    turn 2 begins: still stunned when Rolf attacks first, not when his own turn comes."""
    faces = [
        *D11_FACES[:-8],
        # Rolf attacks: 14 + (1 - 1) = 14 against Defence 0 + (3 - 4) = -1: 15 wounds (22);
        # no death check (7); stun check 10 + (6 + 6 + 6 + 6 + 1 - 1) = 34 against 27: holds
        1, 1, 3, 4, 6, 6, 6, 6, 1, 1,
    ]  # fmt: skip
    enc, dice = begin(ENCOUNTERS / "rolf_vs_lennox.toml", faces)
    state = play(enc, dice, D11_STEPS)
    lennox = state.combatant("Lennox")
    assert lennox.wounds == 22
    assert lennox.stunned_until is None
    assert state.acting == "Lennox"
    assert "Lennox: stunned True -> False (D06)" in enc.steps[-1].lines


def test_states_round_trip_through_json() -> None:
    enc, dice = begin(ENCOUNTERS / "rolf_vs_lennox.toml", D11_FACES)
    play(enc, dice, D11_STEPS)
    types = enc.engine.turns.state_types
    for state in enc.states:
        assert state_from_json(state_to_json(state), types) == state
    # a state in the middle of an exchange (the riposte decision) too
    mid = enc.states[2]
    assert mid.board.exchange is not None
    assert state_from_json(state_to_json(mid), types) == mid


@pytest.mark.parametrize("path", sorted(ENCOUNTERS.glob("*.toml")), ids=lambda p: p.stem)
def test_every_example_reads(path: Path) -> None:
    engine = Engine(read_scenario(path))
    assert engine.turns.initial().round == 0
