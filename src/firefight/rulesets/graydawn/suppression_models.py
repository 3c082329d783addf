"""The numbers the suppression half of graydawn fixes (S04), as one house-rule model.

The attack half's house model embeds :class:`SuppressionHouseRules` as its ``suppression`` field,
so ``--house FILE`` overrides them under ``[suppression]``. Defaults are the text's values; the
rule IDs (G08-G16, G26, G29-G35) say where each comes from.
"""

from __future__ import annotations

from pydantic import Field

from firefight.core.house import HouseRules


class SuppressionHouseRules(HouseRules):
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
