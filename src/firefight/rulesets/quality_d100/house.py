"""Every number the quality_d100 text fixes (S04), with the text's values as defaults.

The situation modifiers of 57.1 / 57.2 live in :mod:`.modifiers` as a table; their values are
fields here too (same key), so a house-rule file can change any of them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from firefight.core.house import HouseRules
from firefight.core.validation import DiceText


class QualityD100House(HouseRules):
    """The fixed numbers of the opposed D100 quality rules."""

    # Q01: qualities of success (percentages of the chance, rounded up)
    better_percent: int = Field(40, ge=0, le=100)
    crucial_percent: int = Field(20, ge=0, le=100)
    decisive_percent: int = Field(10, ge=0, le=100)
    excellent_offset: int = Field(100, ge=0)
    fantastic_offset: int = Field(200, ge=0)
    #: Quality levels run 0 (Poor) to 6 (Fantastic).
    natural_best_min_quality: int = Field(4, ge=0, le=6)
    #: Printed-table mode (Q02): a roll of 1 reads the printed row 1 instead of the formula.
    printed_row_1: bool = False
    #: Chances the printed table reaches: cells that start above it print as "-".
    printed_chance_cap: int = Field(300, ge=1)
    # Q03: result table
    fantastic_extra_damage: int = 10
    # Q05 / Q08: the 57.3 front defence lists PC; the core mechanics do not (see the docs).
    front_defence_adds_pc: bool = False
    # Q06
    aim_die_modifier: int = -5
    assassin_surprise_per_rank: int = -2
    assassin_behind_per_rank: int = -1
    assassin_front_ranks_per_point: int = 3
    # Q07: evading parries
    parry_margin: int = 2
    parry_max_parry: int = 3
    parry_max_disarm: int = 7
    parry_en_damage: int = 1
    parry_en_damage_to: Literal["attacker", "evader"] = "attacker"
    # Q08: combat equations
    knockout_min_result: int = 3
    avoid_agility_multiple: int = 3
    disarm_strike_penalty: int = -20
    trip_base_chance: int = 40
    trip_damage: DiceText = "d10"
    trample_base_chance: int = 40
    trample_damage_die: DiceText = "d10"
    strike_rank_multiple: int = 4
    military_scientist_multiple: int = 2
    fumble_initiative_penalty: int = 10
    withdraw_target: int = 10
    restrain_multiple: int = 3
    stay_conscious_max_en: int = 3
    stun_recovery_wp_multiple: int = 2
    #: "Roll under X" on D100 read as at or under X (False: strictly under).
    roll_under_inclusive: bool = True
    missile_free_hexes: int = 5
    missile_band_hexes: int = 5
    # Encounters (docs/rules/quality_d100.md, "Encounters"): readings where the text is silent
    #: Initiative ties: "order" keeps the scenario's order, "d10" rolls a D10 off among the tied.
    initiative_ties: Literal["order", "d10"] = "order"
    #: Fatigue damage past 0 FT runs into EN (the current rules the text defers to).
    fatigue_overflow_to_en: bool = True
    #: firefight's reading of what stuns: a hit on the EN rows (result 3+) that does EN damage.
    stun_on_endurance_hit: bool = True
    #: A stun recovery roll takes the turn; True: a figure that recovers acts in the same turn.
    stun_recovery_then_act: bool = False
    #: Stay conscious is rolled when EN damage leaves EN at 3 or less; True: also at the start
    #: of each of the figure's turns while EN is 3 or less.
    stay_conscious_each_turn: bool = False
    #: Evading spends the evader's next action (the current rules' evade is an action).
    evade_costs_next_action: bool = True
    #: EN at or below this is death.
    dead_at_endurance: int = 0
    # Q04: strike chance modifiers (57.1)
    close_per_attacker_ps: int = 1
    close_attacker_no_fatigue: int = -20
    melee_attacker_no_fatigue: int = -10
    melee_offensive_withdrawal: int = -20
    melee_charge_pole_or_shield: int = 20
    melee_charge_other: int = -15
    melee_flank_hex: int = 10
    melee_rear_hex: int = 30
    melee_defender_kneeling_or_prone: int = 20
    ranged_flank_hex: int = 10
    ranged_rear_hex: int = 20
    ranged_attacker_kneeling: int = 10
    ranged_aim: int = 20
    ranged_snapshot: int = -15
    ranged_thrown_per_hex: int = -3
    ranged_missile_per_band: int = -3
    visibility_starry_night: int = -10
    visibility_cloudy_night: int = -20
    visibility_cave: int = -30
    visibility_pitch_black: int = -40
    visibility_cannot_see: int = -50
    secondary_hand: int = -20
    multiple_strike: int = -10
    multi_hex_b_class: int = -20
    attacker_airborne: int = -10
    # Q05: defence modifiers (57.2)
    close_per_defender_ps: int = 1
    close_defender_no_fatigue: int = -20
    close_defender_stunned: int = -20
    melee_defender_no_fatigue: int = -10
    melee_defender_stunned: int = -15
    melee_defensive_withdrawal: int = 20
    melee_evading: int = 10
    melee_evading_per_rank: int = 4
    ranged_defender_stunned: int = -10
    ranged_defender_moving: int = 5
    ranged_defender_kneeling_or_prone: int = 10
    ranged_evading: int = 20
    ranged_sheltered_hex: int = 20
    defender_airborne: int = 20
