"""dragonwarriors2 encounters: fights worked out by hand from the text, played through the engine.

Faces are plus-minus faces: the plus die and its re-rolls on six, then the minus die and its
re-rolls (docs/rules/dragonwarriors2.md). Each step's rolls come in transcript order.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firefight.core.turns import FightState, state_from_json, state_to_json
from firefight.dice import ScriptedDice
from firefight.encounter import Encounter, Engine, fight, read_scenario
from firefight.rulesets.dragonwarriors2.encounter_state import Board, Warrior

from .conftest import EXAMPLES

ENCOUNTERS = EXAMPLES / "encounters"


def write_scenario(
    folder: Path,
    combatants: list[dict[str, Any]],
    battlefield: str = "",
    top: str = "",
    name: str = "s.toml",
) -> Path:
    """A scenario file: one side per distinct ``side``, policies "first"."""
    lines = ['ruleset = "dragonwarriors2"', 'title = "test"', top]
    for side in dict.fromkeys(c["side"] for c in combatants):
        lines += ["[[sides]]", f"name = {json.dumps(side)}"]
    for c in combatants:
        lines.append("[[combatants]]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in c.items()]
    lines.append(battlefield)
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def warrior(name: str, side: str, attack: int, defence: int, toughness: int, **kw: Any) -> dict:
    return {
        "name": name,
        "side": side,
        "attack": attack,
        "defence": defence,
        "toughness": toughness,
        **kw,
    }


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
    assert "Lennox: stunned yes -> no (D06)" in enc.steps[-1].lines


def archer_and_charger(tmp_path: Path) -> Path:
    return write_scenario(
        tmp_path,
        [
            warrior("Archer", "wall", 10, 7, 8, reflexes=12, missile="bow", ammunition=2),
            warrior("Charger", "field", 12, 8, 9, reflexes=8, weapon="sword", armour="leather"),
        ],
        "[battlefield]\nrange = 60",
    )


ARCHER_FACES = [
    # turn 1 initiative: Archer 12 + (3 - 1) = 14; Charger 8 + (2 - 2) - 1 (leather) = 7
    3, 1, 2, 2,
    # Archer shoots at 60 ft: difficulty 60 // 6 = 10 fathoms, rolled like a Defence (D09):
    # 10 + (4 - 1) = 13 against 10 + (2 - 3) = 9: margin 4, bow damage 0, leather -1: 3 wounds;
    # stun check 9 + (3 - 3) = 9 against 3 + 5 = 8: holds. Ammunition 2 -> 1.
    4, 1, 2, 3, 3, 3,
    # Charger closes (out of reach, no missile): 60 -> 30 ft. Turn 2 initiative:
    # Archer 12 + (2 - 1) = 13, Charger 8 + (5 - 1) - 1 = 11
    2, 1, 5, 1,
    # Archer shoots at 30 ft: difficulty 5: 10 + (1 - 1) = 10 against 5 + (6 + 2 - 1) = 12:
    # missed by 2, no riposte to a missile. Ammunition 1 -> 0.
    1, 1, 6, 2, 1,
    # Charger closes: 30 -> 0 ft. Turn 3 initiative: Archer 12 + (1 - 2) = 11,
    # Charger 8 + (4 - 1) - 1 = 10
    1, 2, 4, 1,
    # Archer (no arrows, the Charger within reach) delays until after the Charger (D03); the
    # Charger attacks; the Archer has not acted, so he chooses his stance: full parry (D08),
    # Defence 7 + Attack 10 = 17, and his own attack is given up. Charger 12 + 1 (sword)
    # + (5 - 1) = 17 against 17 + (2 - 2) = 17: a tie, no damage, no riposte (D02).
    5, 1, 2, 2,
    # turn 4 initiative: Archer 12 + (3 - 3) = 12, Charger 8 + (1 - 1) - 1 = 7; the stance
    # ended with turn 3
    3, 3, 1, 1,
    # Archer attacks bare-handed; the Charger fights on normally: 10 + (1 - 2) = 9 against
    # 8 + (6 + 6 + 2 - 1) = 21: the Charger wins by 12 and may riposte with 12 + 1 (sword) = 13
    1, 2, 6, 6, 2, 1,
    # he ripostes: 13 + (3 - 1) = 15 against the Archer's 7 + (1 - 3) = 5: 10 wounds (no
    # armour); no death check (0 did not exceed 8); stun check 8 + (1 - 4) = 5 against 15:
    # failed by 10, more than 5: knocked out. The wall side has nobody left: the field wins.
    3, 1, 1, 3, 1, 4,
]  # fmt: skip
ARCHER_STEPS = [
    "shoot:Charger",
    "close:Archer",
    "shoot:Charger",
    "close:Archer",
    "delay",
    "attack:Archer",
    "stance:full-parry",
    "attack:Charger",
    "stance:normal",
    "riposte:Archer",
]


def test_archer_and_charger_by_hand(tmp_path: Path) -> None:
    enc, dice = begin(archer_and_charger(tmp_path), ARCHER_FACES)
    for action_id in ARCHER_STEPS:
        assert enc.engine.legal_actions(enc.state)[0].id == action_id or action_id in (
            "delay",
            "stance:full-parry",
        ), action_id
        enc.act(action_id, dice)
    dice.check_all_used()
    state = enc.state
    assert state.combatant("Archer") == Warrior(
        "Archer", "wall", wounds=10, knocked_out=True, ammunition=0
    )
    assert state.combatant("Charger") == Warrior("Charger", "field", wounds=3)
    assert (state.round, state.ending, state.winner) == (4, "terminated", "field")
    assert state.board.distances == ()
    turns = enc.engine.turns
    assert [turns.harm(c) for c in state.combatants] == [10, 3]
    assert turns.view(state.combatant("Archer"))["status"] == "knocked out"
    lines = "\n".join(line for step in enc.steps for line in step.lines)
    for printed in (
        "Archer attack vs Charger: 13 vs 9",
        "Charger: wounds 0 -> 3 (D04)",
        "Charger: distance to Archer (feet) 60 -> 30 (D09)",
        "Archer attack vs Charger: 10 vs 12",
        "Archer delays the action until after Charger (D03)",
        "Archer's Defence +10  full parry: + Attack",
        "Charger attack vs Archer: 17 vs 17",
        "Charger wins by 12 and ripostes with Attack 13 (a choice)",
        "Charger riposte vs Archer: 15 vs 5",
        "Archer: knocked out no -> yes (D06)",
    ):
        assert printed in lines, printed


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


@pytest.mark.parametrize("path", sorted(ENCOUNTERS.glob("*.toml")), ids=lambda p: p.stem)
@pytest.mark.parametrize("policy", ["first", "random"])
def test_examples_end_within_max_rounds(path: Path, policy: str) -> None:
    for seed in range(3):
        engine = Engine(read_scenario(path, policies=_all(path, policy)))
        enc = fight(engine, seed)
        state = enc.state
        assert state.ending in ("terminated", "truncated")
        assert state.round <= engine.max_rounds
        if state.ending == "terminated":
            standing = {c.side for c in state.combatants if engine.turns.can_fight(c)}
            assert standing == ({state.winner} if state.winner else set())


@pytest.mark.parametrize("policy", ["aggressive", "cautious"])
def test_previewing_policies_finish_the_small_duel(policy: str) -> None:
    path = ENCOUNTERS / "goblin_duel.toml"
    engine = Engine(read_scenario(path, policies=_all(path, policy)))
    enc = fight(engine, 1)
    assert enc.state.ending is not None


def test_a_step_kernel_is_exact_and_runs_into_the_next_initiative() -> None:
    """Snag's attack at the end of turn 1: every settled state the step leads to, with its
    weight, turn 2's initiative included (its exact table); only the dice's own cut is left out."""
    engine = Engine(read_scenario(ENCOUNTERS / "goblin_duel.toml"))
    # initiative: Snag 5 + (3 - 3) = 5, Grub 6 + (3 - 3) = 6: Grub first
    state = engine.start(ScriptedDice([3, 3, 3, 3]))
    assert state.order == ("Grub", "Snag")
    # Grub attacks, Snag fights on normally: 5 + (1 - 1) = 5 against 4 + (2 - 1) = 5: a tie
    state = engine.step(state, "attack:Snag", ScriptedDice([]))
    state = engine.step(state, "stance:normal", ScriptedDice([1, 1, 2, 1]))
    assert (state.round, state.acting) == (1, "Snag")
    kernel = engine.kernel(state, engine.find_action(state, "attack:Grub"))
    total = sum(Fraction(w, kernel.total) for _, w in kernel.items())
    assert total + kernel.truncated_mass == 1
    assert kernel.truncated_mass < Fraction(1, 10**9)
    outcomes = kernel.outcomes()
    assert {s.round for s in outcomes} == {1, 2}
    # turn 1 goes on only while Grub decides a riposte; turn 2 has begun in either order
    going = [s for s in outcomes if s.round == 1 and s.ending is None]
    assert {(s.acting, s.board.exchange.asking) for s in going} == {("Grub", "riposte")}
    # or it ended in turn 1: Grub knocked out by Snag's blow
    assert any(s.ending == "terminated" and s.winner == "Snag" for s in outcomes)
    orders = {s.order for s in outcomes if s.round == 2 and s.ending is None}
    assert orders == {("Grub", "Snag"), ("Snag", "Grub")}


def _all(path: Path, policy: str) -> dict[str, str]:
    sides = Engine(read_scenario(path)).scenario.spec.sides
    return {s.name: policy for s in sides}
