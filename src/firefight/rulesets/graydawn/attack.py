"""Resolving one graydawn attack end to end (G02-G07, G17-G28, G36-G39).

``resolve_outcome(situation, dice)`` is the one rule: the plan of modifiers (:mod:`.plan`), the
attack and defence rolls or the range TN and critical failures (:mod:`.contest`), the number of
hits, the hit location, the wound and the saves (:mod:`.damage`). It runs on seeded, scripted
and exact dice; :func:`.odds.attack_odds` only enumerates it (up to the hit stage, then that
stage's table spread over the paths: :func:`outcome_weights`). Every stage that rolls an
open-ended d10 or a pile of damage dice is a sub-rule (``dice.derive`` with a content key, kept
for the process) returning a small outcome, the heavy ones with their vectorised table
(``exact=``), so exact odds branch on hit counts, locations and wound outcomes, not on every die.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import MISSING, dataclass, field, fields, replace
from functools import partial
from typing import Any, TypeVar

from firefight.core.house import house_events
from firefight.core.resolution import Resolution
from firefight.core.transcript import (
    Check,
    Note,
    StateChange,
    Transcript,
)
from firefight.dice import DiceSource, Weighted
from firefight.dice.sources import (
    derived_distribution,
    enumerate_outcomes,
    mixed_weights,
    reduced,
    spread_last,
)
from firefight.errors import InputError
from firefight.rulesets.graydawn.checks import D10X, mix
from firefight.rulesets.graydawn.contest import OwnHit, contest, critical_failure, luck_use, own_hit
from firefight.rulesets.graydawn.damage import (
    EXTREMITY_FACES,
    BlastSpec,
    Saves,
    SaveSpec,
    Wound,
    WoundSpec,
    resolve_blast,
    resolve_saves,
    resolve_wound,
    saves_key,
    track_increase,
    wound_distribution,
)
from firefight.rulesets.graydawn.models import (
    HIT_TABLE,
    LIMBS,
    Combatant,
    Cover,
    Location,
    content_key,
    hash_once,
    state_without_hash,
    wound_state,
)
from firefight.rulesets.graydawn.plan import Plan, plan_attack
from firefight.rulesets.graydawn.situation import AttackSituation, AttackSpec, Luck, load_attack

__all__ = ["AttackOutcome", "load_attack", "resolve_attack", "resolve_outcome"]

K = TypeVar("K")

#: What a hit's last stage gives (:func:`_hit_stage`): location, wound, marks added, saves.
HitResult = tuple[Location, Wound, int, Saves]


@dataclass(frozen=True)
class AttackOutcome:
    """What one attack did (hashable: exact odds enumerate these)."""

    hit: bool = False
    hits: int = 0
    location: Location | None = None
    wound: Wound = field(default_factory=Wound)
    #: Marks added to the target's wound track (net of stun marks overwritten, G21).
    damage: int = 0
    saves: Saves = field(default_factory=Saves)
    critical: str | None = None
    #: The reliability roll failed (G06): a firearm jams, a melee weapon breaks.
    jammed: bool = False
    #: A critical failure's wound to the attacker himself (G06, :func:`fumbled`): location,
    #: wound, marks added to his track and his saves.
    own: HitResult | None = None
    ally_hit: str | None = None
    #: How far a miss fell short (defence - attack), only when the caller asked (miss_floor).
    missed_by: int = 0
    #: Luck points left to each side afterwards (G17; an encounter keeps the pool).
    attacker_luck: int | None = None
    target_luck: int | None = None

    __hash__ = hash_once
    __getstate__ = state_without_hash


#: AttackOutcome's fields and their defaults, in field order (for :func:`_outcome`).
_DEFAULTS: dict[str, Any] = {
    f.name: f.default if f.default_factory is MISSING else f.default_factory()
    for f in fields(AttackOutcome)
}
_NAMES = frozenset(_DEFAULTS)


def _outcome(**values: Any) -> AttackOutcome:
    """``AttackOutcome(**values)`` without the frozen ``__init__`` (a guarded setattr per field,
    ~1.5 us of each of a long burst's 13,000 replays in exact odds): the defaults, then
    ``values``, in field order, as ``__init__`` would leave them."""
    if not _NAMES.issuperset(values):
        raise TypeError(f"AttackOutcome has no field {sorted(set(values) - _NAMES)}")
    out = object.__new__(AttackOutcome)
    state = out.__dict__
    state.update(_DEFAULTS)
    state.update(values)
    return out


def _hit_outcome(
    hits: int,
    location: Location,
    wound: Wound,
    damage: int,
    saves: Saves,
    ally_hit: str | None,
    attacker_luck: int,
    target_luck: int,
) -> AttackOutcome:
    """``_outcome(hit=True, hits=hits, ...)`` without the keyword dict and the name check (both
    cost more than the object itself on each replay of a hit in exact odds, ~13,000 in a long
    burst): the defaults, then these fields."""
    out = object.__new__(AttackOutcome)
    state = out.__dict__
    state.update(_DEFAULTS)
    state["hit"] = True
    state["hits"] = hits
    state["location"] = location
    state["wound"] = wound
    state["damage"] = damage
    state["saves"] = saves
    state["ally_hit"] = ally_hit
    state["attacker_luck"] = attacker_luck
    state["target_luck"] = target_luck
    return out


# ----------------------------------------------------------------------------------------------
# Hits, location, damage
# ----------------------------------------------------------------------------------------------
def _hits(dice: DiceSource, sit: AttackSituation, plan: Plan, margin: int) -> int:
    mode = sit.attack.mode
    if mode == "burst":
        table = sit.house.burst_table

        def run(d: DiceSource) -> int:
            face = d.roll("d6", why="burst hits (G27)").total
            return table[face - 1]

        n = dice.derive("burst hits", run, ("burst", table), keep=True)
        if not dice.is_exact:  # no note to build on each of exact odds' many replays
            dice.record(Note(f"burst: {n} of {sit.house.burst_rounds} rounds hit", "G27"))
        return n
    if mode == "full_auto":
        n = min(1 + margin, plan.rounds_at_target)
        if not dice.is_exact:
            note = f"full auto: 1 + {margin} = {n} hits (of {plan.rounds_at_target})"
            dice.record(Note(note, "G28"))
        return n
    return 1


def _locate(
    dice: DiceSource, sit: AttackSituation, hits: int, luck_points: int
) -> tuple[Location, bool, int]:
    """G24 hit location (+ G07 cover on the face hit). Returns (location, covered, luck left)."""
    spec, t, h = sit.attack, sit.target, sit.house
    cover = t.cover
    moving = t.stance.moves > 0
    if moving and cover.effective:
        dice.record(Note("a moving target gets no cover (G34)"))

    def covers(face: int) -> bool:
        return cover.covers(face) and not moving

    if spec.mode == "aimed":
        loc = spec.aim_location
        if loc is None:
            raise InputError(
                "attack.aim_location is missing for an aimed shot (G24)",
                tip='add aim_location = "head" (or torso, left_arm, ...)',
            )
        faces = [f for f, name in HIT_TABLE.items() if name == loc]
        covered = all(covers(f) for f in faces)
        dice.record(Note(f"aimed at the {loc}" + (" (behind cover)" if covered else ""), "G24"))
        return loc, covered, luck_points
    auto = spec.mode in ("burst", "full_auto", "explosion")
    model = spec.hit_locations
    if model == "cinematic" or (model == "single_only" and auto):
        covered = any(covers(f) for f in (2, 3, 4))
        dice.record(Note(f"hit-location option {model}: the torso", "G24"))
        return "torso", covered, luck_points
    if spec.mode == "centre_of_mass":
        expr = "d6"
    elif model == "d8" and not any(covers(f) for f in range(1, 11)):
        expr = "d8"
    else:
        expr = "d10"
    luck = luck_use(t, sit.luck.target, "hit_location_head", h, luck_points)

    def run(d: DiceSource) -> tuple[Location, bool, int]:
        left = luck.points
        face = d.roll(expr, why=f"hit location {expr} (G24)").total
        if HIT_TABLE[face] == "head" and luck.reroll and left >= luck.reroll_cost and t.uses_luck:
            d.record(
                StateChange(
                    t.name,
                    "luck points",
                    left,
                    left - luck.reroll_cost,
                    "G17 (re-roll hit location)",
                )
            )
            left -= luck.reroll_cost
            face = d.roll(expr, why="hit location re-rolled with luck (G17)").total
        loc = HIT_TABLE[face]
        covered = covers(face)
        if not d.is_exact:
            d.record(
                Note(
                    f"hit location {face}: {loc}" + (" (behind cover)" if covered else ""),
                    "G24/G07",
                )
            )
        return loc, covered, left

    faces_covered = tuple(f for f in range(1, 11) if covers(f))
    return dice.derive("hit location", run, ("locate", expr, luck, faces_covered), keep=True)


def _damage_dice(sit: AttackSituation, plan: Plan, hits: int) -> tuple[int, int, int]:
    w = sit.attacker.armed()
    n = w.damage_dice
    if w.kind == "shotgun" and plan.band is not None and not plan.band.point_blank:
        n = max(1, n - plan.band.effective * sit.house.shotgun_dice_lost_per_band)
    return n + (hits - 1), w.damage_die, w.damage_bonus  # G27/G28: one die per extra hit


def _wound_spec(
    sit: AttackSituation,
    plan: Plan | None,
    target: Combatant,
    hits: int,
    location: Location,
    covered: bool,
    margin: int,
    luck_points: int,
) -> WoundSpec:
    h = sit.house
    w = sit.attacker.armed()
    if plan is None:
        n, die, bonus = w.damage_dice + (hits - 1), w.damage_die, w.damage_bonus
    else:
        n, die, bonus = _damage_dice(sit, plan, hits)
    per_level = h.shotgun_cover_sp_per_level if w.kind == "shotgun" else h.cover_sp_per_level
    armour = target.armour.sp(location)
    if w.ammo.armour_piercing:
        armour //= 2
    graze = w.ammo.graze_modifier + target.cover.graze_bonus
    if location == "head":
        graze += h.graze_head
    elif location in LIMBS:
        graze += h.graze_limb
    if margin in (0, 1):
        graze += h.graze_barely
    graze += (hits - 1) * h.graze_per_extra_shot
    maximum = sit.attack.point_blank and not sit.attack.armour_stops_point_blank
    lt = sit.luck.target
    return WoundSpec(
        who=target.name,
        location=location,
        covered=covered,
        dice=n,
        die=die,
        bonus=bonus,
        maximum=maximum,
        cover_sp=target.cover.level * per_level if covered else 0,
        armour_sp=armour,
        btm=target.stats.btm,
        can_graze=not target.mook,
        graze_modifier=graze,
        luck_stat=target.stats.LUCK,
        body=target.stats.BODY,
        damage_type=w.damage_type,
        limb_already_crippled=location in target.wounds.crippled,
        track_stun=target.wounds.stun,
        graze_luck=luck_use(target, lt, "graze", h, luck_points),
        sever_luck=luck_use(target, lt, "sever", h, luck_points),
        house=h,
    )


SaveReads = tuple[bool, int, int, bool, bool, int]


def _save_reads(wound: Wound) -> SaveReads:
    """What the saves read of a wound (:func:`_save_spec`): not how it came about (grazed,
    kind, severed), so wounds that differ only there share their saves."""
    return (
        wound.penetrated,
        wound.marks,
        wound.stun_marks,
        wound.crippled,
        wound.killed_outright,
        wound.luck_left,
    )


def _save_spec(
    sit: AttackSituation, target: Combatant, wound: Wound
) -> tuple[int, SaveSpec | None]:
    """Marks added to the track (G21) and what the saves depend on (None: no damage)."""
    return _save_spec_of(sit, target, _save_reads(wound))


def _save_spec_of(
    sit: AttackSituation, target: Combatant, reads: SaveReads
) -> tuple[int, SaveSpec | None]:
    penetrated, marks, stun_marks, crippled, killed_outright, luck_left = reads
    if not penetrated or (marks == 0 and stun_marks == 0 and not crippled):
        return 0, None
    h = sit.house
    added = track_increase(marks, stun_marks, target.wounds.stun)
    after = target.wounds.marks + added
    lt = sit.luck.target
    return added, SaveSpec(
        who=target.name,
        body=target.stats.BODY,
        marks_after=after,
        needs_death_save=after > h.mortal_above or crippled,
        death_save_fails=killed_outright,
        stun_luck=luck_use(target, lt, "stun_save", h, luck_left),
        death_luck=luck_use(target, lt, "death_save", h, luck_left),
        house=h,
    )


def _after_wound(
    dice: DiceSource, sit: AttackSituation, target: Combatant, wound: Wound
) -> tuple[int, Saves]:
    """Marks on the track (G21) and the saves (G18/G19/G22)."""
    added, spec = _save_spec(sit, target, wound)
    if spec is None:
        return 0, Saves(luck_left=wound.luck_left)
    if not dice.is_exact:
        before = target.wounds.marks
        after = before + added
        dice.record(StateChange(target.name, "wound track", before, after, "G21"))
        if wound_state(after) != wound_state(before):
            dice.record(
                StateChange(
                    target.name, "wound state", wound_state(before), wound_state(after), "G20"
                )
            )
        if wound.crippled and not wound.killed_outright and after <= sit.house.mortal_above:
            dice.record(Note("crippled limb: a one-time death save at -0", "G22"))
    return added, resolve_saves(dice, spec)


def _saves_weights(
    sit: AttackSituation, reads: SaveReads
) -> tuple[int, list[tuple[Saves, int]], int]:
    """Marks added and the exact distribution of the saves after a wound (what they read of
    it: :func:`_save_reads`)."""
    added, spec = _save_spec_of(sit, sit.target, reads)
    if spec is None:
        return 0, [(Saves(luck_left=reads[-1]), 1)], 1
    saves = derived_distribution(lambda d: resolve_saves(d, spec), saves_key(spec))
    return added, list(saves.items()), saves.total


def _hit_stage(
    dice: DiceSource,
    sit: AttackSituation,
    plan: Plan,
    hits: int,
    margin: int,
    luck: int,
    cache: dict[Any, Any],
) -> HitResult:
    """Location, wound and saves of a hit (G24, G07, G21-G25, G18-G20) as one sub-rule.

    On exact dice its distribution is mixed from the location, wound and save distributions
    (each computed once), so enumeration branches on hit counts, not on every die behind them.
    """
    key, run, weighted = _cached_hit_parts(sit, plan, hits, margin, luck, cache)
    result: HitResult = dice.derive("hit location and wound", run, key, exact=weighted, keep=True)
    return result


def _hit_table(
    sit: AttackSituation, plan: Plan, hits: int, margin: int, luck: int, cache: dict[Any, Any]
) -> Weighted[HitResult]:
    """The distribution :func:`_hit_stage`'s derive branches over (the same kept sub-rule)."""
    key, run, weighted = _cached_hit_parts(sit, plan, hits, margin, luck, cache)
    return derived_distribution(run, key, exact=weighted)


def _cached_hit_parts(
    sit: AttackSituation, plan: Plan, hits: int, margin: int, luck: int, cache: dict[Any, Any]
) -> tuple[Any, Callable[[DiceSource], HitResult], Callable[[], Weighted[HitResult]]]:
    barely = margin in (0, 1)
    parts_key = ("hit parts", hits, barely, luck)
    parts = cache.get(parts_key)
    if parts is None:
        parts = cache[parts_key] = _hit_parts(sit, plan, hits, margin, luck, cache)
    return parts


def _hit_parts(
    sit: AttackSituation,
    plan: Plan,
    hits: int,
    margin: int,
    luck: int,
    cache: dict[Any, Any],
) -> tuple[Any, Callable[[DiceSource], HitResult], Callable[[], Weighted[HitResult]]]:
    barely = margin in (0, 1)

    def run(d: DiceSource) -> HitResult:
        location, covered, left = _locate(d, sit, hits, luck)
        spec = _spec_for(sit, plan, hits, margin, (location, covered, left), cache)
        wound = resolve_wound(d, spec)
        added, saves = _after_wound(d, sit, sit.target, wound)
        return location, wound, added, saves

    def weighted() -> Weighted[HitResult]:
        return mix(_hit_groups(sit, plan, hits, margin, luck, cache, _as_is))

    # plain values (the situation by content): hashed in C on every replay of exact odds
    return ("hit", content_key(sit), hits, barely, luck), run, weighted


def _as_is(result: HitResult) -> HitResult:
    return result


def _spec_for(
    sit: AttackSituation,
    plan: Plan,
    hits: int,
    margin: int,
    located: tuple[Location, bool, int],
    cache: dict[Any, Any],
) -> WoundSpec:
    """The wound's spec at a location (kept in the attack's cache: it reads no dice)."""
    location, covered, left = located
    key = ("spec", hits, location, covered, margin in (0, 1), left)
    spec = cache.get(key)
    if spec is None:
        spec = cache[key] = _wound_spec(
            sit, plan, sit.target, hits, location, covered, margin, left
        )
    assert isinstance(spec, WoundSpec)
    return spec


def _hit_groups(
    sit: AttackSituation,
    plan: Plan,
    hits: int,
    margin: int,
    luck: int,
    cache: dict[Any, Any],
    read: Callable[[HitResult], K],
    read_key: Hashable = None,
) -> list[tuple[list[tuple[K, int]], int, int]]:
    """The hit stage's exact table as groups for :func:`.checks.mix`, mixed from the location,
    wound and save distributions (each computed once), each result as ``read`` reads it:
    (results, location x wound weight, their denominator x the saves'). ``read_key`` (naming
    ``read`` for this situation): each wound's results kept in ``cache``, read once for every
    hit count (the wounds a location's damage gives are the same objects for every count:
    :func:`.damage.wound_distribution`)."""
    # the location does not read the hit count: one table for every count of a burst
    locs = derived_distribution(
        lambda d: _locate(d, sit, hits, luck), ("locate", content_key(sit), luck)
    )
    groups: list[tuple[list[tuple[K, int]], int, int]] = []
    for located, wl in locs.items():
        location = located[0]
        wounds = wound_distribution(_spec_for(sit, plan, hits, margin, located, cache))
        den_lw = locs.total * wounds.total
        for wound, ww in wounds.items():
            reads = _save_reads(wound)
            found = cache.get(("save", reads))
            if found is None:
                found = cache[("save", reads)] = _saves_weights(sit, reads)
            added, save_items, save_total = found
            kept = None if read_key is None else ("read", read_key, location, wound)
            results = cache.get(kept) if kept is not None else None
            if results is None:
                results = [(read((location, wound, added, sv)), ws) for sv, ws in save_items]
                if kept is not None:
                    cache[kept] = results
            groups.append((results, wl * ww, den_lw * save_total))
    return groups


def _blast(dice: DiceSource, sit: AttackSituation) -> AttackOutcome:
    h = sit.house
    t = sit.target
    w = sit.attacker.armed()
    cover_sp = t.cover.level * h.cover_sp_per_level if t.cover.effective else 0
    unprotected = tuple(
        loc
        for loc in EXTREMITY_FACES
        if t.armour.sp(loc) < h.explosion_limb_sp
        and not (t.cover.level >= h.explosion_cover_level and t.cover.covers(EXTREMITY_FACES[loc]))
    )
    spec = BlastSpec(
        who=t.name,
        dice=w.damage_dice,
        die=w.damage_die,
        bonus=w.damage_bonus,
        torso_sp=t.armour.torso,
        cover_sp=cover_sp,
        unprotected=unprotected,
        btm=t.stats.btm,
        body=t.stats.BODY,
        luck_stat=t.stats.LUCK,
        sever_luck=luck_use(t, sit.luck.target, "sever", h),
        house=h,
    )
    wound = resolve_blast(dice, spec)
    added, saves = _after_wound(dice, sit, t, wound)
    return AttackOutcome(hit=True, hits=1, location="torso", wound=wound, damage=added, saves=saves)


def _allies_dodge(dice: DiceSource, sit: AttackSituation, attack_total: int) -> str | None:
    """G37: on a miss, everyone else in the melee dodges the shot at +3; the lowest failure is
    hit."""
    h = sit.house
    results: list[tuple[int, str]] = []
    for ally in sit.attack.allies_in_melee:
        base = ally.stats.rd_base + ally.dodge_cover + h.ally_dodge_bonus

        def run(d: DiceSource, base: int = base, name: str = ally.name) -> int | None:
            total = base + d.roll(D10X, why=f"{name} dodges the stray shot (G37)").total
            failed = total < attack_total
            d.record(Check(f"{name}'s dodge", total, attack_total, not failed, "G37"))
            return total if failed else None

        key = ("ally", base, attack_total)
        failed_total = dice.derive("ally dodge", run, key, keep=True)
        if failed_total is not None:
            results.append((failed_total, ally.name))
    if not results:
        return None
    lowest = min(results)[1]
    dice.record(Note(f"the stray shot hits {lowest}", "G37"))
    return lowest


def fumbled(
    dice: DiceSource,
    sit: AttackSituation,
    severity: int,
    attacker_luck: int,
    target_luck: int | None,
    missed_by: int,
    cache: dict[Any, Any],
) -> AttackOutcome:
    """A critical failure (G06): the reliability roll, the consequence ``severity`` steps down
    the weapon's list and, where it hurts the attacker himself (:func:`.contest.own_hit`), that
    wound resolved on him as any hit is: location, cover and armour SP, BTM, his track and his
    saves, with his luck choices."""
    consequence, failed = critical_failure(dice, sit, severity)
    hurt = own_hit(sit, consequence)
    own = None
    if hurt is not None:
        own = _own_stage(dice, sit, hurt, attacker_luck, cache)
        attacker_luck = own[3].luck_left
    return _outcome(
        critical=consequence,
        jammed=failed,
        own=own,
        missed_by=missed_by,
        attacker_luck=attacker_luck,
        target_luck=target_luck,
    )


def _own_situation(sit: AttackSituation, cache: dict[Any, Any]) -> AttackSituation:
    """The attacker as the target of his own fumble: as he stands, out of cover, with his own
    luck choices (G17), hit at arm's length (the d10 location table, G24)."""
    own = cache.get("own situation")
    if own is None:
        a = sit.attacker
        still = a.stance.model_copy(update={"moves": 0})
        me = a.model_copy(update={"cover": Cover(), "stance": still})
        own = cache["own situation"] = sit.model_copy(
            update={
                "target": me,
                "attack": AttackSpec.model_construct(mode="single", range_m=1.0),
                "luck": Luck.model_construct(attacker=sit.luck.attacker, target=sit.luck.attacker),
            }
        )
    assert isinstance(own, AttackSituation)
    return own


def _own_stage(
    dice: DiceSource, sit: AttackSituation, hurt: OwnHit, luck: int, cache: dict[Any, Any]
) -> HitResult:
    """The fumble's wound to the attacker (:func:`fumbled`) as one kept sub-rule: location
    (fixed, or rolled with his luck), wound, marks on his track and his saves."""
    own = _own_situation(sit, cache)
    me = own.target

    def run(d: DiceSource) -> HitResult:
        if hurt.location is None:
            location, _, left = _locate(d, own, 1, luck)
        else:
            location, left = hurt.location, luck
            if not d.is_exact:
                d.record(Note(f"{me.name}'s {location.replace('_', ' ')} is hurt", "G06"))
        spec = _wound_spec(own, None, me, 1, location, False, 2, left)
        spec = replace(
            spec,
            dice=hurt.dice,
            die=hurt.die,
            bonus=hurt.bonus,
            damage_type=hurt.damage_type,
            armour_sp=spec.armour_sp if hurt.armour else 0,
            can_graze=hurt.graze and spec.can_graze,
            btm=-spec.btm if hurt.btm_added else spec.btm,
        )
        wound = resolve_wound(d, spec)
        added, saves = _after_wound(d, own, me, wound)
        return location, wound, added, saves

    key = ("own hit", content_key(own), hurt, luck)
    result: HitResult = dice.derive("the fumble's wound to the attacker", run, key, keep=True)
    return result


def resolve_outcome(
    sit: AttackSituation,
    dice: DiceSource,
    cache: dict[Any, Any] | None = None,
    miss_floor: int = -1,
) -> AttackOutcome:
    """The whole attack on any dice: the one rule that odds enumerate.

    ``cache`` (exact enumeration only) keeps what does not depend on the dice (the plan, the
    wound specs) between the many replays of this function; it never changes a result.
    ``miss_floor`` < -1 asks how far a miss fell short (down to -miss_floor; G11 for an
    encounter); the default keeps every miss as one outcome.
    """
    if cache is None:
        cache = {}
    first = _until_hit(sit, dice, cache, miss_floor)
    if not isinstance(first, tuple):
        return first
    hits, margin, luck, _, _ = first
    return _landed(first, _hit_stage(dice, sit, cache["plan"], hits, margin, luck, cache))


#: A hit up to its last stage: (hits, margin, target's luck, ally hit, attacker's luck).
Landing = tuple[int, int, int, str | None, int]


def _landed(landing: Landing, result: HitResult) -> AttackOutcome:
    """The outcome of a landing once its hit stage (:func:`_hit_stage`) gave ``result``."""
    hits, _, _, ally, attacker_luck = landing
    location, wound, added, saves = result
    return _hit_outcome(hits, location, wound, added, saves, ally, attacker_luck, saves.luck_left)


def _until_hit(
    sit: AttackSituation, dice: DiceSource, cache: dict[Any, Any], miss_floor: int
) -> AttackOutcome | Landing:
    """:func:`resolve_outcome` up to the hit stage: the outcome of an attack that ends before it
    (a critical failure, a miss, a blast), else the landing that stage starts from."""
    if sit.attack.mode == "reload":
        raise InputError("attack.mode: reload is resolved by resolve_reload")
    if sit.attack.mode == "explosion":
        return _blast(dice, sit)
    plan = cache.get("plan")
    if plan is None:
        plan = cache["plan"] = plan_attack(sit)
    if not dice.is_exact:
        for note in plan.notes:
            dice.record(note)
        for m in plan.attack_mods + plan.defence_mods:
            dice.record(m)
    mode = sit.attack.mode
    cap = max(plan.rounds_at_target - 1, 2) if mode == "full_auto" else 2
    keep_total = bool(sit.attack.allies_in_melee) and sit.attack.into_close_combat
    # only full auto reads more of a hit's margin than "barely" (its hit count, G28)
    c = contest(dice, sit, plan, cap, keep_total, cache, miss_floor, mode != "full_auto")
    short = -c.margin if (miss_floor < -1 and c.margin < 0) else 0
    if c.critical is not None:
        return fumbled(dice, sit, c.critical, c.attacker_luck, c.target_luck, short, cache)
    if c.margin < 0:
        if not dice.is_exact:
            dice.record(Note("miss", "G04"))
        ally = None
        if keep_total and c.attack_total is not None:
            ally = _allies_dodge(dice, sit, c.attack_total)
        return _outcome(
            ally_hit=ally,
            missed_by=short,
            attacker_luck=c.attacker_luck,
            target_luck=c.target_luck,
        )
    hits = _hits(dice, sit, plan, c.margin)
    ally = None
    if (
        keep_total
        and c.attack_total is not None
        and (
            sit.attacker.armed().kind == "shotgun"
            or (mode == "burst" and hits < sit.house.burst_rounds)
        )
    ):
        ally = _allies_dodge(dice, sit, c.attack_total)
    return hits, c.margin, c.target_luck, ally, c.attacker_luck


def outcome_weights(
    sit: AttackSituation, cache: dict[Any, Any] | None = None, miss_floor: int = -1
) -> Weighted[AttackOutcome]:
    """:func:`resolve_outcome`'s exact distribution (the default depth; ``cache`` and
    ``miss_floor`` as it takes them), identical to its enumeration: the attack up to the hit
    stage enumerated (:func:`_until_hit`), then each landing spread over the hit stage's kept
    table (the distribution its derive branches over), instead of replaying the whole attack
    once per wound (~13,000 replays in a long burst)."""
    if cache is None:
        cache = {}
    plan = cache.get("plan")
    if plan is None:
        plan = cache["plan"] = plan_attack(sit)  # input errors before enumerating
    first = enumerate_outcomes(lambda d: _until_hit(sit, d, cache, miss_floor))

    def rest(
        x: AttackOutcome | Landing,
    ) -> tuple[Weighted[HitResult], Callable[[HitResult], AttackOutcome]] | None:
        if not isinstance(x, tuple):
            return None
        hits, margin, luck, _, _ = x
        return _hit_table(sit, plan, hits, margin, luck, cache), partial(_landed, x)

    return spread_last(first, rest)


def outcome_read(
    sit: AttackSituation,
    cache: dict[Any, Any],
    miss_floor: int,
    read: Callable[[AttackOutcome], K],
) -> Weighted[K]:
    """:func:`resolve_outcome`'s exact distribution (the default depth) as ``read`` reads each
    outcome, outcomes read alike merged: :func:`outcome_weights`'s route, each landing's hit
    stage mixed straight into the whole (its groups scaled by the landing's chance) and read
    as it is made, so a caller that reads a few things of a long burst's thousands of outcomes
    keeps no outcome and hashes only what it reads."""
    plan = cache.get("plan")
    if plan is None:
        plan = cache["plan"] = plan_attack(sit)
    first = enumerate_outcomes(lambda d: _until_hit(sit, d, cache, miss_floor))
    total = first.total
    groups: list[tuple[list[tuple[K, int]], int, int]] = []
    for x, w in first.items():
        if not isinstance(x, tuple):
            groups.append(([(read(x), 1)], w, total))
            continue
        hits, margin, luck, _, _ = x
        landed = partial(_read_landed, read, x)
        for results, gw, den in _hit_groups(sit, plan, hits, margin, luck, cache, landed):
            groups.append((results, w * gw, total * den))
    weights, common = mixed_weights(groups)
    return reduced(list(weights), list(weights.values()), common)


def _read_landed(read: Callable[[AttackOutcome], K], landing: Landing, result: HitResult) -> K:
    return read(_landed(landing, result))


def resolve_hits(
    sit: AttackSituation, dice: DiceSource, hits: int, cache: dict[Any, Any] | None = None
) -> AttackOutcome:
    """Hits that land without an attack roll (G11 braving the fire, G29/G30 covering fire, a
    fumbled shot into oneself): the same location, wound and saves stages as an attack, with
    the hits as one wound and one more die per extra hit (G27/G28). No "barely hit" graze
    bonus: no attack roll was made."""
    if cache is None:
        cache = {}
    plan = cache.get("plan")
    if plan is None:
        plan = cache["plan"] = plan_attack(sit)
    luck = sit.target.luck_available
    return _hits_landed(hits, _hit_stage(dice, sit, plan, hits, 2, luck, cache))


def _hits_landed(hits: int, result: HitResult) -> AttackOutcome:
    """:func:`resolve_hits`'s outcome once its hit stage gave ``result``."""
    location, wound, added, saves = result
    return AttackOutcome(
        hit=True,
        hits=hits,
        location=location,
        wound=wound,
        damage=added,
        saves=saves,
        target_luck=saves.luck_left,
    )


def hits_read(
    sit: AttackSituation,
    hits: int,
    cache: dict[Any, Any],
    read: Callable[[HitResult], K],
    read_key: Hashable = None,
) -> Weighted[K]:
    """:func:`resolve_hits`'s exact distribution (the default depth) as ``read`` reads its one
    sub-rule's result (location, wound, marks added, saves), results read alike merged as the
    table is mixed: for a caller that reads a few things of hundreds of outcomes (a hunkering
    fighter's status and marks), no outcome made or hashed for each. ``read_key`` names
    ``read`` for this situation (its ``cache``): each wound is read once for every hit
    count."""
    plan = cache.get("plan")
    if plan is None:
        plan = cache["plan"] = plan_attack(sit)
    luck = sit.target.luck_available
    return mix(_hit_groups(sit, plan, hits, 2, luck, cache, read, read_key))


# ----------------------------------------------------------------------------------------------
# The ruleset surface
# ----------------------------------------------------------------------------------------------
def _summary(sit: AttackSituation, o: AttackOutcome) -> dict[str, Any]:
    t = sit.target
    after = t.wounds.marks + o.damage
    out: dict[str, Any] = {
        "hit": o.hit,
        "hits": o.hits,
        "location": o.location,
        "grazed": o.wound.grazed,
        "damage (marks added)": o.damage,
        "wound track": f"{t.wounds.marks} -> {after} ({wound_state(after)})",
        "crippled": o.wound.crippled,
        "severed": o.wound.severed,
        "killed outright": o.wound.killed_outright,
        "stunned": o.saves.stunned,
        "death save needed": o.saves.death_save_needed,
        "death save failed": o.saves.death_save_failed,
    }
    if o.critical:
        out["critical failure"] = o.critical
        w = sit.attacker.armed()
        if w.kind != "unarmed":  # G06: no reliability roll for bare hands
            out["jammed" if w.is_firearm else "broken"] = o.jammed
    if o.own is not None:
        location, wound, added, saves = o.own
        a = sit.attacker
        mine = a.wounds.marks + added
        out["attacker hurt"] = f"{location.replace('_', ' ')}: {wound.kind}"
        out["attacker's wound track"] = f"{a.wounds.marks} -> {mine} ({wound_state(mine)})"
        out["attacker stunned"] = saves.stunned
        if saves.death_save_needed:
            out["attacker's death save failed"] = saves.death_save_failed
    if o.ally_hit:
        out["ally hit"] = o.ally_hit
    return out


def resolve_attack(sit: AttackSituation, dice: DiceSource) -> Resolution:
    if sit.attack.mode == "reload":
        from firefight.rulesets.graydawn.reload import resolve_reload

        return resolve_reload(sit, dice)
    mark = len(dice.events)
    for event in house_events(sit.house):
        dice.record(event)
    outcome = resolve_outcome(sit, dice)
    return Resolution(
        "graydawn", outcome, Transcript.since(dice.events, mark), _summary(sit, outcome)
    )
