"""graydawn's house-rule model: every number the text fixes, with the text's value as default (S04).

:class:`GraydawnHouse` holds the attack half's numbers (rule IDs in its field descriptions) and, as
its ``suppression`` field, :class:`SuppressionHouse`: the numbers of suppressing fire, the
suppression check and the tactics around them (G08-G16, G26, G29-G35), which ``--house FILE``
overrides under ``[suppression]``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from firefight.core.house import HouseRules
from firefight.rulesets.graydawn.models import Location


class SuppressionHouse(HouseRules):
    """Every fixed number of suppressing fire, the suppression check and the tactics around it."""

    # G09 base levels by weapon kind and rounds spent
    pistol_shots_per_level: int = Field(10, ge=1, description="G09: pistol, 10 shots = 1 level")
    pistol_full_magazine_levels: int = Field(2, ge=0, description="G09: full pistol magazine")
    automatic_shots_per_level: int = Field(10, ge=1, description="G09: automatic, 10 shots = 1")
    shotgun_levels_per_rof: int = Field(1, ge=0, description="G09: one ROF of a shotgun = 1")
    # G09 the suppressing-fire attack against the range TN
    range_tns: tuple[int, int, int, int, int] = Field(
        (10, 15, 20, 25, 30),
        description="G05/G09: TN by range band: point-blank, close, medium, long, extreme",
    )
    suppressing_fire_wa: bool = Field(
        False,
        description="G09 reading: the suppressing-fire attack is 'subject to normal attack "
        "penalties' (wounds, darkness, off hand) but gets no WA bonus; true: add WA too",
    )
    levels_for_meeting_tn: int = Field(1, ge=0, description="G09: meeting the TN adds 1 level")
    points_per_extra_level: int = Field(5, ge=1, description="G09: +1 level per full 5 over TN")
    # G10 the suppression check
    check_tn_first_level: int = Field(10, description="G10: TN with 1 level")
    check_tn_per_level: int = Field(5, ge=0, description="G10: +5 TN per level beyond the first")
    check_tn_max: int = Field(30, description="G10: TN never above 30 (5 levels)")
    panic_at_or_below: int = Field(0, description="G10/G15: check total <= 0 -> panic")
    pass_penalty_per_level: int = Field(1, ge=0, description="G10: pass -> -1 per level")
    fail_penalty_per_level: int = Field(2, ge=0, description="G10: fail -> -2 per level")
    fumble_initiative_per_level: int = Field(1, ge=0, description="G10: fumble -> init -levels")
    # G08 armour aid
    armour_sp_per_check_bonus: int = Field(5, ge=1, description="G08: +1 per full 5 torso SP")
    # G32 bracing
    bracing_penalty_multiplier: int = Field(2, ge=1, description="G32: bracing doubles penalty")
    # G11 braving the fire
    open_ground_extra_levels: int = Field(2, ge=0, description="G11: +2 levels in the open")
    points_missed_per_hit: int = Field(5, ge=1, description="G11: 1 hit per full 5 missed")
    leave_cover_tns: tuple[int, int, int] = Field(
        (15, 20, 25), description="G11: leaving cover, TN for 1 / 2 / 3 moves"
    )
    # G34 movement (used by G11's dodge bonus and the action penalty)
    extra_action_penalty: int = Field(3, ge=0, description="G31/G34: -3 per action past the 1st")
    max_moves: int = Field(3, ge=1, description="G34: up to 3 movement actions")
    # G12 hunker down
    hunker_tn: int = Field(10, description="G12: LUCK + dodge/cover vs TN 10")
    # G14 area weapons
    dive_tn: int = Field(15, description="G14: launched grenades/rockets: dive at TN 15")
    dive_damage_divisor: int = Field(2, ge=1, description="G14: a dive halves the blast")
    direct_hit_m: float = Field(1.0, ge=0, description="G14: within 1 m is a direct hit")
    # G26 shotguns
    shotgun_tn_per_shot: int = Field(2, ge=0, description="G26: +2 suppression TN per shot")
    # G29 covering fire
    covering_levels_per_action: int = Field(1, ge=0, description="G29: +1 level per action")
    covering_hit_at_or_below: int = Field(0, description="G29: defence <= 0 -> hit")
    covering_max_hits: int = Field(1, ge=0, description="G29: at most 1 round hits")
    burst_rounds: int = Field(3, ge=1, description="G27/G29: a burst is 3 rounds")
    neighbour_spaces: int = Field(1, ge=0, description="G29: neighbours within 1 space")
    full_auto_neighbour_spaces: int = Field(2, ge=0, description="G29: 2 spaces for full auto")
    # G30 firing lanes
    lane_min_width_m: int = Field(2, ge=1, description="G30: lanes at least 2 m wide")
    lane_rof_per_metre: int = Field(5, ge=1, description="G30: at most 1 m per 5 ROF")
    # G35 flanking and ambush, G33 initiative
    flanked_tn_reduction: int = Field(5, ge=0, description="G35: TN system: -5 vs flanked")
    ambush_initiative_bonus: int = Field(3, description="G33: ambushers +3 in round 1")
    pistol_initiative_bonus: int = Field(3, description="G33: pistols +3 initiative")
    tactics_tn: int = Field(10, description="G33: tactics check TN 10 lets allies re-roll")
    tactics_points_per_ally: int = Field(5, ge=1, description="G33: +1 ally per 5 over")
    rounds_per_turn: int = Field(10, ge=1, description="G31: 10 rounds = 1 turn")


class GraydawnHouse(HouseRules):
    """Every number the text fixes (S04). Defaults are the text's values; rule IDs in brackets."""

    # G02/G05 TNs by range band: point-blank, short, medium, long, extreme
    range_tns: tuple[int, int, int, int, int] = (10, 15, 20, 25, 30)
    dodge_per_band_beyond_short: int = Field(5, description="G05: +5 dodge per band past short")
    point_blank_dodge: int = Field(-5, description="G05: point-blank dodge -5")
    # G39 range
    range_penalties: tuple[int, int, int, int] = (0, -5, -10, -15)
    medium_range_divisor: int = Field(2, ge=1, description="G39: medium = listed / 2")
    close_range_divisor: int = Field(4, ge=1, description="G39: close = listed / 4")
    bracing_max_range_multiple: int = Field(4, ge=1, description="G32: braced up to 4x listed")
    unbraced_max_range_multiple: int = Field(
        2, ge=1, description="reading: extreme range ends at 2x listed (not stated in the text)"
    )
    pistol_range_m: int = Field(50, description="G39: scope blocking irons -> pistol ranges")
    tn_dodge_replaces_tn: bool = Field(
        True, description="G05 reading: a dodge total replaces the range TN (else the higher)"
    )
    stun_penalty_per_mortal_level: int = Field(-1, description="CP2020: -1 per 4 marks past 13")
    scoped_max_range_multiple: int = Field(8, ge=1, description="G39: scope: 4x extreme = 8x")
    # G06 reliability: the d10 roll at or above which the weapon fails
    reliability_fails_on: tuple[int, int, int] = Field(
        (9, 6, 4), description="G06: very reliable, standard, unreliable"
    )
    # G07 cover
    cover_sp_per_level: int = Field(4, ge=0, description="G07: 4 SP per cover level")
    # G24 aiming
    aimed_penalty: int = Field(-4, description="G24: aimed at a location")
    aimed_penalty_helpless: int = Field(-2, description="G24: aimed vs prone/incapacitated")
    centre_of_mass_penalty: int = Field(-2, description="G24: centre of mass, then d6")
    aim_bonus_per_round: int = Field(1, description="G39: +1 per full round of aiming")
    aim_rounds_max: int = Field(3, description="G39: up to 3 rounds (+ concentration)")
    # G25 grazing
    graze_tn: int = Field(15, description="G25: LUCK + 1d10 vs 15")
    graze_head: int = Field(-2, description="G25: head shots -2")
    graze_limb: int = Field(2, description="G25: limbs +2")
    graze_barely: int = Field(1, description="G25: attack = defence or +1 -> +1")
    graze_per_extra_shot: int = Field(-1, description="G25: -1 per additional shot in a burst")
    graze_per_d6: int = Field(1, description="G25: a graze deals 1 per d6")
    graze_per_d10: int = Field(2, description="G25: a graze deals 2 per d10")
    # G26 shotguns
    shotgun_bonus: tuple[int, int, int] = Field((2, 4, 6), description="G26: close/medium/long")
    shotgun_dice_lost_per_band: int = Field(1, description="G26: one die less per band")
    shotgun_cover_sp_per_level: int = Field(2, description="G26: cover gives 2 SP/level")
    # G27 burst
    burst_bonus: int = Field(3, description="G27: +3 instead of WA")
    burst_rounds: int = Field(3, ge=1)
    burst_table: tuple[int, int, int, int, int, int] = Field(
        (1, 1, 2, 2, 2, 3), description="G27: d6 face 1..6 -> hits"
    )
    # G28 full auto
    full_auto_rounds_per_step: int = Field(10, ge=1, description="G28: +/-1 per 10 rounds")
    full_auto_gap_rounds_per_m: int = Field(5, description="G28: 5 rounds lost per metre")
    # G22 wound track
    mortal_above: int = Field(12, description="G19: more than 12 marks = mortal")
    cripple_at: int = Field(8, description="G22: 8+ after BTM cripples a limb/head")
    limb_cap: int = Field(8, description="G22: a crippled limb adds at most 8 marks")
    head_multiplier: int = Field(2, description="G22: head damage doubled after BTM")
    # G18 stun save penalty by wound state (reading: CP2020's 0/-1/-2/-3 ...)
    stun_penalty_light: int = 0
    stun_penalty_serious: int = -1
    stun_penalty_critical: int = -2
    stun_penalty_mortal: int = -3
    # G23 explosions
    explosion_limb_sp: int = Field(8, description="G23: an extremity with 8+ SP is protected")
    explosion_cover_level: int = Field(2, description="G23: or cover of level 2+")
    explosion_limb_marks: int = Field(2, description="G23: 2 per unprotected limb")
    explosion_head_marks: int = Field(4, description="G23: 4 for an unprotected head")
    explosion_sever_tn: int = Field(15, description="G23: BODY + LUCK + 1d10 vs 15")
    # G37/G38 close combat
    into_close_combat_penalty: int = Field(-3, description="G37")
    ally_dodge_bonus: int = Field(3, description="G37: allies dodge at +3")
    close_quarters_dodge: tuple[int, int, int] = Field(
        (6, 4, 2), description="G38: vs rifle, carbine/SMG/shotgun, pistol"
    )
    # G17 luck
    luck_reroll_cost: int = Field(2, description="G17: 2 points re-roll a roll")
    luck_point_bonus: int = Field(2, description="G17: 1 point = +2")
    # G25/CP2020: a penetrating hit does at least this much after BTM (reading)
    btm_minimum_damage: int = Field(1, ge=0, description="CP2020: BTM never takes a hit below 1")
    # G34 movement, G31 actions
    extra_action_penalty: int = Field(-3, description="G31: -3 per action past the first")
    # G40 reloading
    reload_tn: int = Field(15, description="G40: extra-action reload, REF + skill vs 15")
    tube_reload_tn: int = Field(10, description="G40: shell by shell, REF + rifle vs 10")
    # G06 jam clearing
    jam_clear_weaponsmith_tn: int = 10
    jam_clear_skill_tn: int = 15
    # G06 what a fumble does to the attacker himself (readings: docs/rules/graydawn.md)
    own_blow_btm: Literal["added", "taken_off"] = Field(
        "added",
        description="G06 'hitting himself (full damage + BTM bonus)': his BTM is added to the "
        "damage (added) or taken off as from any wound (taken_off: the 'BTM bonus' read as "
        "CP2020's strength bonus, which the handout never gives)",
    )
    fumble_hand: Location = Field(
        "right_arm", description="G06: the hands a slipping weapon or a punch into scenery hurt"
    )
    overextension_penalty: int = Field(-3, description="G06: overextended, next attack -3")
    stand_up: Literal["free_move", "action"] = Field(
        "free_move",
        description="G06 a fighter who fell down: gets up with the free move of its next turn "
        "(G34), or standing up is that turn's whole action",
    )
    # G33 initiative in an encounter: rolled once for the fight (the handout's streamlined
    # system) or every round (the traditional CP2020 one)
    initiative: Literal["streamlined", "traditional"] = Field(
        "streamlined", description="G33: streamlined (once) or traditional (every round)"
    )
    # suppression half (issue 8)
    suppression: SuppressionHouse = SuppressionHouse()

    @model_validator(mode="after")
    def _sane(self) -> GraydawnHouse:
        if self.close_range_divisor < self.medium_range_divisor:
            raise ValueError("close_range_divisor must be at least medium_range_divisor")
        return self
