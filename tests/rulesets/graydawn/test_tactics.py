"""The per-round bookkeeping of graydawn's tactical rules (G13, G16, G31-G35)."""

from __future__ import annotations

from functools import partial

from firefight.dice import ScriptedDice
from firefight.rulesets.graydawn import tactics
from firefight.rulesets.graydawn.house import SuppressionHouse

from .helpers import both_routes


def test_order_of_operations_g16() -> None:
    assert tactics.ROUND_PHASES[0] == "initiative"
    assert tactics.ROUND_PHASES.index("apply_levels") < tactics.ROUND_PHASES.index("actions")
    init = {"a": 15, "b": 9, "c": 21, "d": 0}
    assert tactics.suppression_declaration_order(init) == ["d", "b", "a", "c"]
    assert tactics.action_order(init) == ["c", "a", "b"]  # d (initiative 0) does not act


def test_suppression_state_adds_up_caps_hits_and_lifts_g13() -> None:
    s = tactics.SuppressionState()
    s.add_levels(2, 16)
    s.add_levels(3, 30)
    assert (s.levels, s.rounds_fired_at) == (5, 46)
    assert s.take_hits(40) == 40 and s.take_hits(10) == 6  # never more than rounds fired
    s.panicked = True
    s.finish_actions()
    assert (s.levels, s.penalty, s.hits_taken, s.check) == (0, 0, 0, "none")
    assert s.panicked  # panic outlasts the round (G15)
    states = {"x": s}
    tactics.start_round(states)
    assert not s.actions_done


def test_rounds_turns_and_several_actions_g31_g34() -> None:
    assert [tactics.turn_of_round(n) for n in (1, 10, 11, 20, 21)] == [1, 1, 2, 2, 3]
    assert tactics.multi_action_penalty(1, 1) == 0  # move 1 x MA and fire
    assert tactics.multi_action_penalty(2, 1) == 3  # run and fire
    assert tactics.multi_action_penalty(3, 1) == 6  # sprint and fire
    assert tactics.multi_action_penalty(0, 2) == 3  # two double-taps
    assert tactics.multi_action_penalty(0, 3) == 6  # fire, fire, reload
    houses = SuppressionHouse(extra_action_penalty=4)
    assert tactics.multi_action_penalty(2, 1, houses) == 4


def test_movement_g34() -> None:
    assert [tactics.movement_dodge_bonus(m, 7) for m in (1, 2, 3)] == [0, 4, 7]
    assert tactics.metres_moved(3, 6) == 18


def test_stances_and_flanking_g32_g35() -> None:
    assert tactics.penalty_multiplier("bracing") == 2
    assert tactics.penalty_multiplier("active_cover") == 1
    assert tactics.stance_after_failed_check(True, False) == "full_cover"
    assert tactics.stance_after_failed_check(False, True) == "moving"
    assert tactics.stance_after_failed_check(False, False) == "panic"
    assert "covering fire" in tactics.offensive_actions("full_cover")
    assert tactics.defence_skill_applies()
    assert not tactics.defence_skill_applies(flanked=True)
    assert not tactics.defence_skill_applies(ambushed=True)
    assert not tactics.defence_skill_applies(bracing=True)
    assert not tactics.defence_skill_applies(suppressed=True)  # against aimed fire
    assert tactics.defence_skill_applies(suppressed=True, aimed_attack=False)
    assert tactics.flanked_tn_reduction() == 5
    assert tactics.flushed_result(True) == "shift" and tactics.flushed_result(False) == "panic"


def test_initiative_g33() -> None:
    assert tactics.initiative_modifiers(pistol=True, ambusher_first_round=True) == 6
    assert tactics.roll_initiative(ScriptedDice([7]), 8) == 15
    assert tactics.roll_initiative(ScriptedDice([10, 3]), 8, 3) == 24
    assert tactics.initiative_after_fumble(3, 4) == (-1, True)
    assert tactics.initiative_after_fumble(9, 4) == (5, False)
    assert tactics.reroll_keep_lower(ScriptedDice([9]), 12, 6) == 12
    assert tactics.reroll_keep_lower(ScriptedDice([2]), 12, 6) == 8
    assert tactics.reroll_keep_higher(ScriptedDice([2]), 12, 6) == 12
    assert tactics.reroll_keep_higher(ScriptedDice([9]), 12, 6) == 15
    assert [tactics.tactics_allies(t) for t in (9, 10, 14, 15, 21)] == [0, 1, 1, 2, 3]


def test_keep_lower_reroll_on_exact_dice_g33() -> None:
    """Exact dice branch on the kept score: every roll above the current score is one branch,
    and the table equals replaying the re-roll path by path (and min(current, REF + d10x))."""
    from firefight.dice import enumerate_outcomes, exact

    rule = partial(tactics.reroll_keep_lower, current=12, ref=6, modifiers=3)
    fast, slow = both_routes(lambda: enumerate_outcomes(rule))
    assert fast.probabilities() == slow.probabilities()
    assert max(fast.probabilities()) == 12
    roll = exact("d10x")
    assert fast.probabilities()[12] == sum(roll.p(v) for v in roll.support if 9 + v >= 12)
    assert fast.probabilities()[11] == roll.p(2)
