"""Per-round bookkeeping for graydawn's tactical rules, ready for a round loop to drive.

G13 (suppression lifts when the target's actions are done), G16 (order of operations), G31
(rounds, turns, the multi-action penalty), G32 (stances), G33 (initiative), G34 (movement) and
G35 (flanking and ambush). Pure functions over plain values plus one small mutable record,
:class:`SuppressionState`, that an encounter engine keeps per combatant; nothing here rolls
except the initiative helpers, which take a dice source like every rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from firefight.dice import DiceSource, Weighted, exact
from firefight.rulesets.graydawn.house import SuppressionHouse

if TYPE_CHECKING:
    from firefight.rulesets.graydawn.suppression import CheckResult

StanceName = Literal["moving", "active_cover", "full_cover", "bracing", "panic"]

# ------------------------------------------------------------------------------------------------
# G16 order of operations
# ------------------------------------------------------------------------------------------------
#: The steps of a combat round in the text's order (G16); an engine walks them in a loop.
ROUND_PHASES: tuple[str, ...] = (
    "initiative",  # once at the start (streamlined) or every round (traditional), G33
    "declare_suppression",  # everyone says whether they lay suppressing fire
    "suppression_targets",  # targets and volume, in reverse initiative order
    "suppression_attacks",  # attack vs range TN (G09); covering fire rolls no attack (G29)
    "apply_levels",  # levels on targets; targets make suppression checks (G10)
    "actions",  # everyone else acts in initiative order
    "end_of_round",  # suppression lifts (G13); back to declare_suppression
)


def suppression_declaration_order(initiatives: dict[str, int]) -> list[str]:
    """G16: suppressing shooters name targets and volume in *reverse* initiative order."""
    return sorted(initiatives, key=lambda name: (initiatives[name], name))


def action_order(initiatives: dict[str, int]) -> list[str]:
    """G16/G33: actions go in initiative order, highest first; initiative <= 0 acts not at all."""
    acting = [n for n, i in initiatives.items() if i > 0]
    return sorted(acting, key=lambda name: (-initiatives[name], name))


# ------------------------------------------------------------------------------------------------
# G13 suppression state of one combatant in one round
# ------------------------------------------------------------------------------------------------
@dataclass
class SuppressionState:
    """What suppression has done to one combatant this round (G10, G11, G13, G15)."""

    levels: int = 0
    check: CheckResult = "none"  # G10
    penalty: int = 0  # the penalty on each of its actions this round (G10, G11, G32)
    hits_taken: int = 0  # hits from the fire so far this round (G11, G29, G30)
    rounds_fired_at: int = 0  # the cap on those hits (G11)
    panicked: bool = False  # G15: stays until a passed check or a rally
    lost_action: bool = False  # G10: a fumble took the initiative below zero
    actions_done: bool = False

    def add_levels(self, levels: int, rounds: int) -> None:
        """G09/G10: several shooters' levels (and rounds) add up on one target."""
        self.levels += levels
        self.rounds_fired_at += rounds

    def take_hits(self, hits: int) -> int:
        """G11: add hits, never more in total than rounds fired at it; returns those added."""
        room = max(0, self.rounds_fired_at - self.hits_taken)
        added = min(hits, room)
        self.hits_taken += added
        return added

    def finish_actions(self) -> None:
        """G13: once its actions for the round are done, suppression lifts (panic does not)."""
        self.actions_done = True
        self.levels = 0
        self.penalty = 0
        self.check = "none"
        self.rounds_fired_at = 0
        self.hits_taken = 0


def start_round(states: dict[str, SuppressionState]) -> None:
    """A new round: nobody has acted yet; levels come only from this round's fire (G13)."""
    for state in states.values():
        state.actions_done = False
        state.lost_action = False


# ------------------------------------------------------------------------------------------------
# G31 rounds, turns and several actions
# ------------------------------------------------------------------------------------------------
def turn_of_round(round_number: int, rules: SuppressionHouse | None = None) -> int:
    """G31: rounds 1-10 are turn 1, 11-20 turn 2 (death saves and bleeding count turns)."""
    per = (rules or SuppressionHouse()).rounds_per_turn
    return (round_number - 1) // per + 1


def actions_counted(moves: int, other_actions: int) -> int:
    """G31/G34: the first move is free; each further move is an action, plus the other actions."""
    return max(0, moves - 1) + other_actions


def multi_action_penalty(
    moves: int, other_actions: int, rules: SuppressionHouse | None = None
) -> int:
    """G31/G34: -3 per action beyond the first, on *every* action that round (as a positive
    penalty: 2 moves + a shot -> 3; 3 moves + a shot -> 6)."""
    per = (rules or SuppressionHouse()).extra_action_penalty
    return per * max(0, actions_counted(moves, other_actions) - 1)


# ------------------------------------------------------------------------------------------------
# G34 movement
# ------------------------------------------------------------------------------------------------
def movement_dodge_bonus(moves: int, ma: int) -> int:
    """G11/G34: running (2 moves) adds half MA rounded up to dodge/cover; sprinting (3) full MA."""
    if moves >= 3:
        return ma
    if moves == 2:
        return math.ceil(ma / 2)
    return 0


def metres_moved(moves: int, ma: int) -> int:
    """G34: each movement action covers MA metres; at most three."""
    return min(moves, 3) * ma


# ------------------------------------------------------------------------------------------------
# G32 stances and G35 flanking / ambush
# ------------------------------------------------------------------------------------------------
def penalty_multiplier(stance: StanceName, rules: SuppressionHouse | None = None) -> int:
    """G32: a bracing stance doubles suppression penalties."""
    r = rules or SuppressionHouse()
    return r.bracing_penalty_multiplier if stance == "bracing" else 1


def offensive_actions(stance: StanceName) -> str:
    """G32: what a stance allows (full cover: covering fire and grenades only; panic: none)."""
    return {
        "moving": "any, at the movement penalty (G34)",
        "active_cover": "any (after a passed suppression check if fired on)",
        "full_cover": "covering fire and actions that do not expose (grenades, reloading)",
        "bracing": "aimed fire; suppression penalties doubled",
        "panic": "none: flees or follows the panic table (G15)",
    }[stance]


def stance_after_failed_check(behind_cover: bool, can_reach_cover: bool) -> StanceName:
    """G32: a failed check behind cover forces full cover; in the open, a beeline for cover
    (moving, covering fire only) if cover is within one move, else panic."""
    if behind_cover:
        return "full_cover"
    return "moving" if can_reach_cover else "panic"


def defence_skill_applies(
    *,
    flanked: bool = False,
    ambushed: bool = False,
    bracing: bool = False,
    full_cover: bool = False,
    suppressed: bool = False,
    aimed_attack: bool = True,
    prone: bool = False,
) -> bool:
    """G35 (and G32, G06): the defender adds its dodge/cover skill unless flanked, ambushed,
    bracing or prone; a suppressed or fully-covered target loses it against aimed fire only."""
    if flanked or ambushed or bracing or prone:
        return False
    return not ((suppressed or full_cover) and aimed_attack)


def flanked_tn_reduction(rules: SuppressionHouse | None = None) -> int:
    """G35: under the TN system a flanked/suppressed target is one range category easier (-5)."""
    return (rules or SuppressionHouse()).flanked_tn_reduction


def flushed_result(can_reach_cover_in_one_move: bool) -> Literal["shift", "panic"]:
    """G35: flanked and failing its check, the target shifts to cover within one move, or
    panics."""
    return "shift" if can_reach_cover_in_one_move else "panic"


# ------------------------------------------------------------------------------------------------
# G33 initiative
# ------------------------------------------------------------------------------------------------
def initiative_modifiers(
    *,
    pistol: bool = False,
    ambusher_first_round: bool = False,
    rules: SuppressionHouse | None = None,
) -> int:
    """G33: pistols +3; members of an ambushing force +3 in the first round."""
    r = rules or SuppressionHouse()
    return (r.pistol_initiative_bonus if pistol else 0) + (
        r.ambush_initiative_bonus if ambusher_first_round else 0
    )


def roll_initiative(dice: DiceSource, ref: int, modifiers: int = 0, who: str = "") -> int:
    """G33: REF + 1d10 + modifiers (the exploding d10 of G02)."""
    return (
        ref + modifiers + dice.roll("d10x", why=f"initiative {who} (G33)".replace("  ", " ")).total
    )


def initiative_after_fumble(initiative: int, levels: int) -> tuple[int, bool]:
    """G10: a fumbled suppression check costs initiative equal to the levels; below zero the
    combatant loses its action this round (returns the new score and whether it is lost)."""
    new = initiative - levels
    return new, new < 0


def reroll_keep_lower(dice: DiceSource, current: int, ref: int, modifiers: int = 0) -> int:
    """G33: a critical failure (total <= 0) of a suppression check: re-roll initiative, keeping
    any result higher than the current score out (i.e. keep the lower). A sub-rule kept by
    content: exact odds branch on the kept score, one branch for every roll above it."""

    def table() -> Weighted[int]:
        roll, out = exact("d10x"), dict[int, int]()
        for v, w in roll.items():
            kept = min(current, ref + modifiers + v)
            out[kept] = out.get(kept, 0) + w
        return Weighted(out, roll.total)

    return dice.derive(
        "initiative re-roll",
        lambda d: min(current, roll_initiative(d, ref, modifiers, "re-roll")),
        ("initiative keep lower", current, ref, modifiers),
        exact=table,
        keep=True,
    )


def reroll_keep_higher(dice: DiceSource, current: int, ref: int, modifiers: int = 0) -> int:
    """G33: an ally's tactics check lets this combatant re-roll, ignoring lower results."""
    return max(current, roll_initiative(dice, ref, modifiers, "re-roll"))


def tactics_allies(check_total: int, rules: SuppressionHouse | None = None) -> int:
    """G33: a tactics check at TN 10 lets 1 ally re-roll initiative, +1 per full 5 over."""
    r = rules or SuppressionHouse()
    if check_total < r.tactics_tn:
        return 0
    return 1 + (check_total - r.tactics_tn) // r.tactics_points_per_ally
