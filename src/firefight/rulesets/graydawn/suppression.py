"""The rules of graydawn's suppression half as pure functions of plain values: suppressing fire
(G09), armour aid (G08), the suppression check (G10), braving the fire (G11), hunkering down
(G12), panic (G15), covering fire (G29) and firing lanes (G30).

Nothing here reads a situation file: the round (:mod:`.suppression_round`), the target's actions
(:mod:`.suppression_actions`) and the encounter's round loop all call these with ints, so a rule
reads the same wherever it is used. The file's models and loading are in
:mod:`.suppression_situation`; the odds in :mod:`.odds`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from firefight.core.transcript import Note
from firefight.dice import DiceSource
from firefight.rulesets.graydawn import tactics
from firefight.rulesets.graydawn.house import GraydawnHouse, SuppressionHouse
from firefight.rulesets.graydawn.models import Weapon
from firefight.rulesets.graydawn.ranges import range_band

if TYPE_CHECKING:
    from firefight.rulesets.graydawn.suppression_situation import Shooter

FireKind = Literal["suppressing", "covering", "burst", "lane"]
RangeBand = Literal["point_blank", "close", "medium", "long", "extreme"]
RANGE_BANDS: tuple[RangeBand, ...] = ("point_blank", "close", "medium", "long", "extreme")
CheckResult = Literal["none", "pass", "fail", "fumble", "panic"]
CHECK_RESULTS: tuple[CheckResult, ...] = ("none", "pass", "fail", "fumble", "panic")
#: G14: what a dive for cover leaves of an area weapon's blast ("": no blast).
DiveResult = Literal["", "half", "full"]


# ------------------------------------------------------------------------------------------------
# G09 suppressing fire: suitable weapons, base levels, the attack vs the range TN
# ------------------------------------------------------------------------------------------------
AUTOMATIC_KINDS = ("smg", "assault_rifle", "machine_gun")


def unsuitable_reason(weapon: Weapon, rules: SuppressionHouse) -> str | None:
    """G09: why a weapon cannot lay suppressing fire, or None if it can."""
    if weapon.kind in AUTOMATIC_KINDS or weapon.kind == "shotgun":
        return None
    if weapon.kind == "pistol":
        if weapon.magazine >= rules.pistol_shots_per_level:
            return None
        return (
            f"a pistol holding {weapon.magazine} rounds is not high-capacity "
            f"(at least {rules.pistol_shots_per_level}) and cannot suppress"
        )
    if weapon.kind == "grenade":
        return "area weapons do not lay suppressing fire; describe the blast under [area] (G14)"
    return f"a {weapon.kind.replace('_', ' ')} has too low a rate of fire or magazine to suppress"


def base_levels(weapon: Weapon, rounds: int, rules: SuppressionHouse) -> int:
    """G09: levels by weapon kind and rounds spent, before the attack roll.

    Pistols: 1 per 10 shots, 2 for a full magazine; automatic weapons: 1 per 10 shots;
    shotguns: 1 per ROF worth of shots.
    """
    if weapon.kind == "pistol":
        if rounds >= weapon.magazine:
            return max(rules.pistol_full_magazine_levels, rounds // rules.pistol_shots_per_level)
        return rounds // rules.pistol_shots_per_level
    if weapon.kind == "shotgun":
        return rules.shotgun_levels_per_rof * (rounds // weapon.rof)
    return rounds // rules.automatic_shots_per_level


def levels_from_attack(total: int, tn: int, rules: SuppressionHouse) -> int:
    """G09: meeting the range TN adds 1 level, each full 5 above it 1 more (22 vs 15 -> 2)."""
    if total < tn:
        return 0
    return rules.levels_for_meeting_tn + (total - tn) // rules.points_per_extra_level


def range_band_for(
    distance_m: float, weapon: Weapon, house: GraydawnHouse, source: str = "distance_m"
) -> str:
    """G39 via the attack half's :func:`.ranges.range_band` (unbraced, no scope): the band
    name whose TN the suppressing-fire attack must meet; one clear line when out of reach."""
    band = range_band(
        weapon,
        distance_m,
        bracing=False,
        use_scope=False,
        point_blank=False,
        house=house,
        source=source,
    )
    return RANGE_BANDS[band.tn_index]


def range_tn(band: str, rules: SuppressionHouse) -> int:
    """G05/G09: TN 10/15/20/25/30 for point-blank, close, medium, long, extreme."""
    return rules.range_tns[RANGE_BANDS.index(band)]


# ------------------------------------------------------------------------------------------------
# G08 / G10 the suppression check
# ------------------------------------------------------------------------------------------------
def check_tn(levels: int, rules: SuppressionHouse, shotgun_shots: int = 0) -> int:
    """G10: TN 10 for 1 level, +5 per further level, at most 30.

    G26: shotgun shots fired as covering fire add +2 each (reading: the sentence replaces the
    covering-fire system's "+1 per attack", so it applies to shotgun covering fire, on top of
    its G29 levels; G09's own shotgun row covers aimed suppressing fire). The cap still applies.
    """
    tn = rules.check_tn_first_level + rules.check_tn_per_level * (max(levels, 1) - 1)
    tn += rules.shotgun_tn_per_shot * shotgun_shots
    return min(tn, rules.check_tn_max)


def armour_aid(torso_sp: int, rules: SuppressionHouse) -> int:
    """G08: +1 to the suppression check per full 5 SP of torso armour."""
    return torso_sp // rules.armour_sp_per_check_bonus


def check_result(total: int, natural_one: bool, tn: int, rules: SuppressionHouse) -> CheckResult:
    """G10: total <= 0 -> panic; a natural 1 -> fumble (a failure whatever the total); else pass
    when the total meets the TN, fail when it does not."""
    if total <= rules.panic_at_or_below:
        return "panic"
    if natural_one:
        return "fumble"
    return "pass" if total >= tn else "fail"


def penalty_levels(levels: int, in_open: bool, rules: SuppressionHouse) -> int:
    """G11: acting in the open (not seeking cover, or having left it) counts 2 more levels."""
    if levels <= 0:
        return 0
    return levels + (rules.open_ground_extra_levels if in_open else 0)


def action_penalty(
    levels: int,
    result: CheckResult,
    *,
    in_open: bool,
    rules: SuppressionHouse,
    bracing: bool = False,
    full_cover_within_reach: bool = False,
    exposes: bool = True,
) -> int:
    """G10/G11/G32: the penalty on each action this round, as a positive number.

    Pass -> 1 x levels; fail or fumble -> 2 x levels, unless the target can get behind full cover
    and the action does not expose it (then as a pass); in the open +2 levels; bracing doubles.
    Worked: 4 levels, failed: -8 behind cover, -12 in the open.
    """
    eff = penalty_levels(levels, in_open, rules)
    as_pass = result == "pass" or (
        result in ("fail", "fumble") and full_cover_within_reach and not exposes and not in_open
    )
    per = rules.pass_penalty_per_level if as_pass else rules.fail_penalty_per_level
    return eff * per * tactics.penalty_multiplier("bracing" if bracing else "active_cover", rules)


# ------------------------------------------------------------------------------------------------
# G11 braving the fire, G12 hunkering down
# ------------------------------------------------------------------------------------------------
def hits_for_miss(total: int, tn: int, rules: SuppressionHouse) -> int:
    """G11: an exposed action that fails takes 1 hit per full 5 points it missed by."""
    if total >= tn:
        return 0
    return (tn - total) // rules.points_missed_per_hit


def leave_cover_tn(moves: int, rules: SuppressionHouse) -> int:
    """G11: leaving cover under fire: dodge/cover check TN 15 / 20 / 25 for 1 / 2 / 3 moves."""
    return rules.leave_cover_tns[min(max(moves, 1), 3) - 1]


# ------------------------------------------------------------------------------------------------
# G29 covering fire, G30 firing lanes
# ------------------------------------------------------------------------------------------------
def covering_levels(firing_actions: int, rules: SuppressionHouse) -> int:
    """G29: +1 level per firing action (a full ROF) of covering fire, or per burst."""
    return rules.covering_levels_per_action * firing_actions


def lane_max_width(rof: int, rules: SuppressionHouse) -> int:
    """G30: a lane is 2 m wide at least and 1 m per 5 ROF at most (ROF 30 -> 6 m)."""
    return rof // rules.lane_rof_per_metre


def lane_levels(rounds: int, width_m: int) -> int:
    """G30: suppression = shots fired / lane width (rounded down); also the crossing TN."""
    return rounds // width_m


def burst_table_hits(face: int, house: GraydawnHouse) -> int:
    """G27/G30: the burst table, d6 1-2 -> 1 hit, 3-5 -> 2, 6 -> 3."""
    return house.burst_table[face - 1]


def neighbour_spaces(shooters: list[Shooter], rules: SuppressionHouse) -> int:
    """G29: covering fire suppresses neighbours within 1 space, full-auto fire within 2."""
    spaces = -1
    for s in shooters:
        if s.fire == "lane":
            spaces = max(spaces, rules.full_auto_neighbour_spaces)
        elif s.fire in ("covering", "burst"):
            spaces = max(spaces, rules.neighbour_spaces)
    return spaces


# ------------------------------------------------------------------------------------------------
# G15 panic
# ------------------------------------------------------------------------------------------------
PANIC_TABLE: dict[int, str] = {
    1: "flee from combat",
    2: "flee from combat",
    3: "flee from combat",
    4: "drop prone / freeze behind cover",
    5: "drop prone / freeze behind cover",
    6: "drop equipped weapon and flee",
    7: "drop equipped weapon and flee",
    8: "run toward the enemy lines",
    9: "empty the magazine as covering fire at random targets",
    10: "take 1d6 actions firing at random nearby targets",
}


def panic_behaviour(dice: DiceSource, who: str) -> str:
    """G15 (optional table): d10 -> what a panicked combatant does; 10 -> 1d6 wild actions."""
    face = dice.roll("d10", why=f"{who} panic behaviour (G15)").total
    text = PANIC_TABLE[face]
    if face == 10:
        n = dice.roll("d6", why=f"{who} wild actions (G15)").total
        text = f"take {n} actions firing at random nearby targets"
    dice.record(Note(f"{who} panics: {text}", "G15"))
    return text


def rally_tn(levels: int, rules: SuppressionHouse) -> int:
    """G15: an ally's leadership roll ends a unit's panic at the unit's suppression TN."""
    return check_tn(levels, rules)
