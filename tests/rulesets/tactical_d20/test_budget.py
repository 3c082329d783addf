"""T02, T04, T06-T08: the 4-Action budget and the fire-mode limits refuse illegal combinations."""

from __future__ import annotations

import pytest

from firefight.rulesets.tactical_d20 import RuleError
from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.turn import TurnBudget

from .helpers import attack, load, scripted

BURST = {"do": "attack", "target": "raider", "weapon": "smg", "mode": "burst", "distance": 30}


def turn(*steps: dict[str, object], actor: object = "operator") -> dict[str, object]:
    return {"kind": "turn", "actor": actor, "steps": list(steps)}


def test_burst_beyond_the_first_range_threshold_is_refused() -> None:
    with pytest.raises(RuleError, match="first range threshold: 60 ft is beyond smg's 50 ft"):
        load(attack(weapon="smg", mode="burst", distance=60))
    load(attack(weapon="smg", mode="burst", distance=50))  # at the threshold: allowed


def test_double_burst_from_a_semi_automatic_is_refused() -> None:
    with pytest.raises(RuleError, match="only automatic weapons fire a double burst"):
        load(attack(weapon="pistol", mode="double_burst", distance=10))
    load(attack(weapon="pistol", mode="burst", distance=10))  # a semi-auto may burst


def test_burst_from_a_single_shot_weapon_is_refused() -> None:
    with pytest.raises(RuleError, match="burst needs a semi-automatic or automatic"):
        load(attack(weapon="coach_gun", mode="burst", distance=10))


def test_suppressing_fire_with_10_rounds_left_is_refused() -> None:
    data = {
        "kind": "suppression",
        "shooter": "operator",
        "weapon": "smg",
        "creature": "raider",
        "distance": 20,
        "loaded": 10,
    }
    with pytest.raises(RuleError, match="uses 15 rounds but smg has 10 loaded"):
        load(data)
    with pytest.raises(RuleError, match="uses 15 rounds but smg has 10 loaded"):
        load(turn({"do": "suppress", "weapon": "smg", "loaded": 10}))
    load({**data, "loaded": 15})


def test_suppressing_fire_needs_an_automatic_weapon() -> None:
    with pytest.raises(RuleError, match="not an automatic weapon"):
        load(turn({"do": "suppress", "weapon": "pistol"}))


def test_a_fifth_action_is_refused() -> None:
    moves = [{"do": "move"}] * 3
    with pytest.raises(
        RuleError, match=r"step 4 \(attack\) needs 2 Action\(s\) but 3 of the turn's 4"
    ):
        load(turn(*moves, BURST))
    with pytest.raises(RuleError, match=r"step 5 \(move\) needs 1 Action"):
        load(turn(*([{"do": "move"}] * 5)))
    load(turn(*([{"do": "move"}] * 4)))  # four moves fit


def test_suppressing_fire_takes_the_whole_turn_and_the_reaction() -> None:
    with pytest.raises(RuleError, match=r"step 2 \(move\) needs 1 Action"):
        load(turn({"do": "suppress", "weapon": "smg"}, {"do": "move"}))
    # TurnBudget is frozen since issue 12: use_reaction returns the budget after paying.
    budget = TurnBudget(TacticalD20House())
    used = budget.use_reaction("suppressing fire")
    assert budget.reaction and not used.reaction
    with pytest.raises(RuleError, match="Reaction, already used"):
        used.use_reaction("a second reaction")


def test_ammunition_carries_from_step_to_step() -> None:
    # 5 rounds: the first burst leaves 2, so the second burst (3 rounds) is refused.
    second = {**BURST}
    with pytest.raises(RuleError, match=r"uses 3 round\(s\) but smg has 2 loaded"):
        load(turn({**BURST, "loaded": 5}, second))
    plan = load(turn({**BURST, "loaded": 6}, second))
    result = scripted(plan, [1, 1])  # two misses (natural 1 + 7 < 12)
    loaded = [e for e in result.transcript.events if getattr(e, "field", "") == "rounds loaded"]
    assert [(e.before, e.after) for e in loaded] == [(6, 3), (3, 0)]


def test_a_free_melee_attack_follows_a_move_and_costs_nothing() -> None:
    knife = {"do": "attack", "target": "raider", "weapon": "knife", "free": True}
    plan = load(turn({"do": "move"}, knife, BURST, {"do": "move"}))
    assert [s.cost for s in plan.prepared] == [1, 0, 2, 1]
    with pytest.raises(RuleError, match="only after moving into reach"):
        load(turn(knife))
    with pytest.raises(RuleError, match="only after moving into reach"):
        load(turn({"do": "move"}, knife, knife))


def test_movement_in_a_grapple_and_with_a_leg_wound() -> None:
    grappled = {"use": "operator", "conditions": ["grappled"]}
    result = scripted(load(turn({"do": "move"}, actor=grappled)), [])
    assert any("moves up to 5 ft" in line for line in result.transcript.lines())
    wounded = {"use": "operator", "conditions": ["leg_wound"]}
    result = scripted(load(turn({"do": "move"}, {"do": "move"}, actor=wounded)), [])
    assert sum("moves up to 15 ft" in line for line in result.transcript.lines()) == 2


def test_stunned_and_restrained_creatures_cannot_act() -> None:
    with pytest.raises(RuleError, match="stunned and cannot attack"):
        load(attack(attacker={"use": "operator", "conditions": ["stunned"]}))
    restrained = {"use": "operator", "conditions": ["restrained"]}
    with pytest.raises(RuleError, match="restrained and cannot move"):
        load(turn({"do": "move"}, actor=restrained))
    load(turn({"do": "escape", "target": "raider"}, actor=restrained))


def test_house_rule_changes_the_budget() -> None:
    five = {"actions_per_turn": 5}
    plan = load(turn(BURST, BURST, {"do": "move"}), **five)
    assert sum(s.cost for s in plan.prepared) == 5
