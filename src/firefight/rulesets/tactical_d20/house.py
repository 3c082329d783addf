"""The numbers tactical_d20 fixes (S04), with the text's values as defaults.

Readings the text leaves open are switches here too, so a table can pick the other reading.
"""

from __future__ import annotations

import itertools
from typing import Literal

from pydantic import Field, field_validator

from firefight.core.house import HouseRules


class TacticalD20House(HouseRules):
    """Every fixed number of tactical_d20; a ``--house`` file overrides any of them."""

    # T02/T04 action economy
    actions_per_turn: int = Field(4, ge=0, description="Actions a creature has on its turn")
    attack_actions: int = Field(2, ge=0, description="cost of an attack (T03)")
    move_actions: int = Field(1, ge=0, description="cost of one move up to speed (T04)")
    melee_action_actions: int = Field(2, ge=0, description="disarm, restrain, trip (T10)")
    suppress_actions: int = Field(4, ge=0, description="suppressing fire, plus the Reaction (T08)")
    exit_grapple_actions: int = Field(1, ge=0, description="leaving a Grapple or Melee (T09)")
    manacles_actions: int = Field(1, ge=0, description="applying restraints (T10)")
    body_check_actions: int = Field(1, ge=0, description="DC 15 Body check to shake a wound (T05)")
    escape_actions: int = Field(
        2, ge=0, description="reading: freeing oneself costs what restraining did (T10)"
    )

    # T03/T05 attacks and regions
    critical_natural: int = Field(20, ge=1, le=20, description="reading: a natural 20 is critical")
    natural_critical_always_hits: bool = Field(
        True, description="reading: a critical hit is a hit whatever the total"
    )
    head_penalty: int = -5
    arms_penalty: int = -3
    legs_penalty: int = -3
    head_doubles_damage_dice: bool = Field(
        True, description="T05 head rule; False reproduces the SMG example's printed 1d6 + 1d4"
    )
    wounded_arm_attack_penalty: int = Field(-5, description="arms hit: penalty to attack rolls")
    body_check_dc: int = 15
    effects_need_damage: bool = Field(
        False, description="reading: region effects come with any hit that is not stopped by cover"
    )

    # T06/T07 ranged attacks and fire modes
    range_band_penalty: int = Field(-3, description="per range threshold passed (coach gun: -3)")
    single_rounds: int = 1
    burst_rounds: int = 3
    double_burst_rounds: int = 5
    suppress_rounds: int = 15
    burst_bonus: int = 3
    double_burst_bonus: int = 6
    buckshot_bonus: int = 3
    die_steps: tuple[int, ...] = Field(
        (2, 4, 6, 8, 10, 12, 20), description="die sizes, smallest first ('one size lower')"
    )
    extra_die_rule: Literal["printed_dice", "rolled_dice", "base_dice_critical_upgrade"] = Field(
        "printed_dice",
        description=(
            "printed_dice (T07 reading): the extra die is sized on the weapon's printed damage "
            "(one size lower for a 1-die weapon, the same for more), before a head hit or a "
            "critical doubles its dice; a torso critical, which doubles the dice, moves it one "
            "size up (the coach gun's 'critical hit die upgrade'); rolled_dice: sized on the dice "
            "the attack rolls after doubling; base_dice_critical_upgrade: printed, then one size "
            "up on any critical"
        ),
    )

    # T08 suppressing fire
    suppress_dc_base: int = 12
    suppress_partial_margin: int = Field(3, description="passing by this much or less is partial")

    # T09/T10 melee
    melee_reach: int = 5
    point_blank_penalty: int = Field(-6, description="firearm without Compact/Concealable at 5 ft")
    group_dodge: int = Field(12, description="Dodge of a Grapple or Melee against ranged attacks")
    grapple_speed: int = 5
    move_melee_dc: int = 13
    restrained_attack_bonus: int = 5
    restrained_disarm_penalty: int = -5
    contest_ties: Literal["defender", "attacker"] = Field(
        "defender", description="reading: a tied contest leaves things as they were"
    )
    unarmed_damage: str = "1d4"
    unarmed_damage_type: str = "crushing"

    # T11 cover
    light_cover_threshold: int = Field(3, description="extra DT against ballistic damage")

    # Encounters: readings about time the text leaves open (docs "Encounters")
    reaction_returns: Literal["own_turn", "round"] = Field(
        "own_turn",
        description=(
            "reading: a spent Reaction comes back at the start of the creature's own turn; "
            "round: at the start of each round"
        ),
    )
    own_turn_effects_last: Literal["next_turn", "this_turn"] = Field(
        "next_turn",
        description=(
            "reading: an effect 'until the end of their next turn' taken during one's own turn "
            "(a Reaction attack on leaving a Grapple) lasts through the following turn; "
            "this_turn: it ends with the current one"
        ),
    )

    # T01 initiative
    initiative_die: int = 20
    round_seconds: int = Field(10, description="a round: every creature's turn, in order")

    @field_validator("die_steps")
    @classmethod
    def _ladder(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        if not v or any(b <= a for a, b in itertools.pairwise(v)) or v[0] < 2:
            raise ValueError("die_steps must list die sizes from smallest to largest, e.g. [4, 6]")
        return v

    @field_validator("unarmed_damage")
    @classmethod
    def _dice(cls, v: str) -> str:
        from firefight.rulesets.tactical_d20.models import parse_damage

        parse_damage(v)
        return v
