"""Damage application (G07, G21-G25, G18-G20): cover SP, armour SP, grazing, BTM, head doubling,
crippling and severing, the wound track, then the stun and death saves.

Each stage is a sub-rule behind ``dice.derive`` with a hashable key, returning a small outcome, so
exact odds branch on what the wound *did* (marks, flags), never on every face of the damage dice.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from firefight.core.transcript import Check, Modifier, Note, StateChange
from firefight.dice import DiceSource, Weighted, exact
from firefight.dice.sources import derived_distribution
from firefight.rulesets.graydawn.checks import (
    LuckUse,
    mix,
    over_weights,
    roll_over,
    roll_under,
    with_points,
)
from firefight.rulesets.graydawn.house import GraydawnHouse
from firefight.rulesets.graydawn.models import (
    DamageType,
    Location,
    content_key,
    hash_once,
    state_without_hash,
    wound_state,
)


def damage_expr(dice: int, die: int, bonus: int) -> str:
    """Damage dice as notation: ``4d6+1``, ``7d6``."""
    return f"{dice}d{die}" + (f"{bonus:+d}" if bonus else "")


@dataclass(frozen=True)
class WoundSpec:
    """Everything one wound depends on (the derive key)."""

    who: str
    location: Location
    covered: bool
    dice: int
    die: int
    bonus: int
    maximum: bool
    cover_sp: int
    armour_sp: int
    btm: int
    can_graze: bool
    graze_modifier: int
    luck_stat: int
    body: int
    damage_type: DamageType
    limb_already_crippled: bool
    track_stun: int
    graze_luck: LuckUse
    sever_luck: LuckUse
    house: GraydawnHouse = field(compare=False, hash=False)
    #: The house rules by content (:func:`.models.content_key`): the key holds the house.
    house_key: str = field(init=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "house_key", content_key(self.house))

    @property
    def expr(self) -> str:
        return damage_expr(self.dice, self.die, self.bonus)

    @property
    def graze_damage(self) -> int:
        h = self.house
        per = h.graze_per_d6 if self.die == 6 else h.graze_per_d10
        return per * self.dice + self.bonus


#: What a wound is on the track (G21/G22): nothing got through, one mark, 2+ marks, stun marks
#: only, a crippling wound, or a hit on a limb already crippled (adds nothing).
WoundKind = Literal["none", "minor", "wounding", "stun", "crippling", "crippled limb"]


@dataclass(frozen=True)
class Wound:
    """What one wound did to the target (hashable: exact odds branch on it)."""

    penetrated: bool = False
    grazed: bool = False
    marks: int = 0
    stun_marks: int = 0
    kind: WoundKind = "none"
    crippled: bool = False
    severed: bool = False
    killed_outright: bool = False
    luck_left: int = 0

    __hash__ = hash_once
    __getstate__ = state_without_hash


def marks_for(damage: int, spec: WoundSpec, grazed: bool) -> tuple[int, int, WoundKind, bool]:
    """(real marks, stun marks, kind, crippled) for post-BTM ``damage`` at the location."""
    h = spec.house
    if damage <= 0:
        return 0, 0, "none", False
    if spec.damage_type == "stun":
        real, stun = 0, damage
    elif spec.damage_type == "blunt":
        stun = (damage + 1) // 2  # G21: half real, half stun, rounded in favour of stun
        real = damage - stun
    else:
        real, stun = damage, 0
    kind: WoundKind = "stun" if real == 0 else ("minor" if damage == 1 else "wounding")
    crippled = False
    if spec.location == "head":
        crippled = real >= h.cripple_at
        if not grazed:  # G25: a grazing head shot is not doubled
            real *= h.head_multiplier
            stun *= h.head_multiplier
    elif spec.location != "torso":
        if spec.limb_already_crippled:
            return 0, 0, "crippled limb", real >= h.cripple_at
        if real >= h.cripple_at:
            crippled = True
            real = min(real, h.limb_cap)
    if crippled:
        kind = "crippling"
    return real, stun, kind, crippled


#: A damage value, or an array of them (numpy): the exact table applies the very steps the
#: rolling form applies to one value to every value of the damage dice at once.
Damage = Any


def _larger(a: Damage, b: Damage) -> Damage:
    """``max`` of two damage values, elementwise if either is an array."""
    if isinstance(a, int) and isinstance(b, int):
        return max(a, b)
    import numpy as np

    return np.maximum(a, b)


def _smaller(a: Damage, b: Damage) -> Damage:
    """``min`` of two damage values, elementwise if either is an array."""
    if isinstance(a, int) and isinstance(b, int):
        return min(a, b)
    import numpy as np

    return np.minimum(a, b)


def penetration(raw: Damage, spec: WoundSpec) -> tuple[Damage, Damage]:
    """G07/G24: (damage past the cover, damage past the armour too)."""
    left = _larger(0, raw - spec.cover_sp) if spec.covered else raw
    return left, _larger(0, left - spec.armour_sp)


def needs_graze_roll(penetrating: Damage, spec: WoundSpec) -> Damage:
    """G25: a graze roll only for a penetrating hit above graze damage, never for mooks."""
    return spec.can_graze and penetrating > spec.graze_damage


def after_btm(penetrating: Damage, grazed: bool, spec: WoundSpec) -> Damage:
    """G25/G24: graze damage if grazed, then BTM (never below the house minimum)."""
    damage = spec.graze_damage if grazed else penetrating
    return _larger(_smaller(damage, spec.house.btm_minimum_damage), damage + spec.btm)


def final_wound(after: int, grazed: bool, severed: bool, luck_left: int, spec: WoundSpec) -> Wound:
    real, stun, kind, crippled = marks_for(after, spec, grazed)
    # Wound(...) without the frozen __init__ (a guarded setattr per field; the wound tables
    # build ~1,000 of these): every field, in field order, as __init__ leaves them
    wound = object.__new__(Wound)
    wound.__dict__.update(
        penetrated=True,
        grazed=grazed,
        marks=real,
        stun_marks=stun,
        kind=kind,
        crippled=crippled,
        severed=severed and crippled,
        killed_outright=crippled and spec.location == "head",
        luck_left=luck_left,
    )
    return wound


def _graze_args(spec: WoundSpec) -> dict[str, Any]:
    """The graze roll's arguments to :func:`.checks.roll_over` (G25)."""
    return {
        "name": "graze roll",
        "base": spec.luck_stat + spec.graze_modifier,
        "target": spec.house.graze_tn,
        "rule": "G25",
        "luck": spec.graze_luck,
    }


def _graze_check(d: DiceSource, spec: WoundSpec) -> tuple[bool, int]:
    return roll_over(d, **_graze_args(spec))


def _sever_args(spec: WoundSpec, after: int, luck_points: int) -> dict[str, Any]:
    """The crippling check's arguments to :func:`.checks.roll_over` (G22)."""
    luck = with_points(spec.sever_luck, luck_points)
    return {
        "name": "crippling check (BODY + LUCK)",
        "base": spec.body + spec.luck_stat,
        "target": after,
        "rule": "G22",
        "luck": luck,
    }


def _sever_check(d: DiceSource, spec: WoundSpec, after: int, luck_points: int) -> tuple[bool, int]:
    return roll_over(d, **_sever_args(spec, after, luck_points))


def resolve_wound(dice: DiceSource, spec: WoundSpec) -> Wound:
    """One wound from damage dice to marks (G07, G22, G24, G25), as a memoised sub-rule."""
    expr = spec.expr

    def run(d: DiceSource) -> Wound:
        log = not d.is_exact  # transcript events only where a transcript is kept
        if spec.maximum:
            raw = spec.dice * spec.die + spec.bonus
            if log:
                d.record(Note(f"point-blank: maximum damage {expr} = {raw}", "G36"))
        else:
            raw = d.roll(expr, why=f"damage {expr} (G24)").total
        left, penetrating = penetration(raw, spec)
        if log and spec.covered:
            d.record(Check("cover SP", raw, spec.cover_sp, left == 0, "G07", f"{left} gets past"))
        if log and left:
            d.record(
                Check(
                    f"armour SP ({spec.location})",
                    left,
                    spec.armour_sp,
                    penetrating == 0,
                    "G24",
                    f"{penetrating} penetrates",
                )
            )
        if penetrating == 0:
            return Wound(luck_left=spec.graze_luck.points)
        grazed, luck_points = False, spec.graze_luck.points
        if needs_graze_roll(penetrating, spec):
            grazed, luck_points = _graze_check(d, spec)
            if grazed and log:
                d.record(Note(f"grazed: {spec.graze_damage} damage ({expr})", "G25"))
        after = after_btm(penetrating, grazed, spec)
        wound = final_wound(after, grazed, False, luck_points, spec)
        if log:
            d.record(Modifier("BTM", spec.btm, "damage", spec.who, "G01/G24"))
            d.record(
                Note(f"{after} damage after BTM to the {spec.location}: {wound.kind}", "G21/G22")
            )
        if wound.crippled:
            passed, luck_points = _sever_check(d, spec, after, luck_points)
            if log:
                what = "severed/destroyed" if not passed else "crippled"
                d.record(Note(f"{spec.location} {what}", "G22"))
            wound = final_wound(after, grazed, not passed, luck_points, spec)
        return wound

    key = wound_key(spec)
    return dice.derive(
        f"wound to the {spec.location}", run, key, exact=lambda: _wound_weighted(spec), keep=True
    )


def wound_key(spec: WoundSpec) -> WoundSpec:
    """Right and left limbs behave alike once their SP, cover and graze data are in the spec."""
    same = _SAME_AS.get(spec.location)
    return spec if same is None else _respec(spec, location=same)


#: WoundSpec's fields that ``__init__`` takes (``house_key`` is derived from ``house``).
_SPEC_FIELDS = frozenset(f.name for f in fields(WoundSpec) if f.init)


def _respec(spec: WoundSpec, **changes: Any) -> WoundSpec:
    """``replace(spec, **changes)`` without ``__init__`` (21 fields; a spray's wound tables
    replace hundreds): ``__post_init__`` only derives ``house_key`` from ``house``, which
    stays as it was unless changed (then the usual way)."""
    if "house" in changes or not _SPEC_FIELDS.issuperset(changes):
        return replace(spec, **changes)
    new = object.__new__(WoundSpec)
    values = new.__dict__
    values.update(spec.__dict__)
    values.update(changes)
    return new


def wound_distribution(spec: WoundSpec) -> Weighted[Wound]:
    """The exact distribution of :func:`resolve_wound` (computed by its vectorised route), the
    very one its derive keeps."""
    return derived_distribution(
        lambda d: resolve_wound(d, spec), wound_key(spec), exact=lambda: _wound_weighted(spec)
    )


def _wound_weighted(spec: WoundSpec) -> Weighted[Wound]:
    """The steps of :func:`resolve_wound` over the damage distribution (integer weights, no
    path replay)."""
    expr = spec.expr
    if spec.maximum:
        values, weights = [spec.dice * spec.die + spec.bonus], [1]
        total = 1
    else:
        dist = exact(expr)
        pairs = list(dist.items())
        values, weights, total = [v for v, _ in pairs], [w for _, w in pairs], dist.total
    # Many damage values reach the same post-BTM damage: gather their weights first, by
    # (post-BTM damage, grazed, luck left) and denominator, then expand each into wounds once.
    # (Dicts keep first-seen order, so the wounds come out in the order a value-by-value
    # expansion would give.)
    gathered: dict[tuple[tuple[int, bool, int] | None, int], int] = {}
    no_graze = ([((False, spec.graze_luck.points), 1)], total)
    core = _core(spec)
    post = _AFTER.get(core)
    if post is None:
        if len(_AFTER) >= _AFTER_LIMIT:
            _AFTER.clear()
        post = _AFTER[core] = _Post()
    graze: tuple[list[tuple[tuple[bool, int], int]], int] | None = None
    # the steps before the graze roll, on every damage value at once (one array each)
    import numpy as np

    _, pen_all = penetration(np.array(values, dtype=np.int64), spec)
    rolls_all = needs_graze_roll(pen_all, spec)
    rolls = rolls_all.tolist() if isinstance(rolls_all, np.ndarray) else [False] * len(values)
    plain = after_btm(pen_all, False, spec).tolist()
    grazed_after = after_btm(pen_all, True, spec)
    assert isinstance(grazed_after, int)  # graze damage: the same for every damage value
    # A graze lands at one post-BTM damage whatever was rolled: the grazed branches take their
    # places at the first value that rolls and their weight, summed, after the loop.
    rolled_weight = 0
    grazed_keys: list[tuple[tuple[tuple[int, bool, int], int], int]] = []
    for penetrating, rolled, not_grazed, weight in zip(
        pen_all.tolist(), rolls, plain, weights, strict=True
    ):
        if penetrating == 0:
            unhurt_key: tuple[None, int] = (None, total)
            gathered[unhurt_key] = gathered.get(unhurt_key, 0) + weight
            continue
        if rolled:
            if graze is None:
                branches, g_total = _check_weights(_graze_args(spec))
                for (grazed, luck_points), g_weight in branches:
                    if grazed:
                        key = ((grazed_after, True, luck_points), total * g_total)
                        gathered.setdefault(key, 0)
                        grazed_keys.append((key, g_weight))
                    else:
                        gathered.setdefault(((not_grazed, False, luck_points), total * g_total), 0)
                graze = [b for b in branches if not b[0][0]], total * g_total
            branches, den = graze
            rolled_weight += weight
        else:
            branches, den = no_graze
        for (_, luck_points), g_weight in branches:
            post_key = ((not_grazed, False, luck_points), den)
            gathered[post_key] = gathered.get(post_key, 0) + weight * g_weight
    for key, g_weight in grazed_keys:
        gathered[key] += rolled_weight * g_weight
    # each gathered weight spread over its wounds (the crippling check's branches, if any);
    # post-BTM damages that give the same wounds (one list object) add up first, in the place
    # of the first (its wounds are already in the table there: same integers, same order)
    merged: dict[tuple[int, int], list[Any]] = {}
    unhurt = ([(Wound(luck_left=spec.graze_luck.points), 1)], 1)
    for (after_key, den), num in gathered.items():
        found = unhurt if after_key is None else post.wounds(core, after_key)
        slot = merged.get((id(found), den))
        if slot is None:
            merged[(id(found), den)] = [found, num, den]
        else:
            slot[1] += num
    return mix([(wounds, num, den * s_total) for (wounds, s_total), num, den in merged.values()])


AfterGraze = tuple[list[tuple[Wound, int]], int]


class _Post:
    """What :func:`_after_graze` gave for one core spec, by (after, grazed, luck left), with each
    distinct wound and each distinct list of them as one object: the tables built from them
    meet equal wounds by identity (no field-by-field ``__eq__``), and damages that give the
    same wounds are added up before they are spread over them."""

    __slots__ = ("by_after", "same")

    def __init__(self) -> None:
        self.by_after: dict[tuple[int, bool, int], AfterGraze] = {}
        self.same: dict[Any, Any] = {}

    def wounds(self, core: WoundSpec, after_key: tuple[int, bool, int]) -> AfterGraze:
        found = self.by_after.get(after_key)
        if found is None:
            items, total = _after_graze(core, *after_key)
            same = self.same
            items = [(same.setdefault(wound, wound), weight) for wound, weight in items]
            key = (tuple(items), total)
            found = self.by_after[after_key] = same.setdefault(key, (items, total))
        return found


#: The wounds :func:`_after_graze` gives, by the spec without its damage dice (the same for
#: every hit count of a burst or spray at one location). Kept for the process; at most this
#: many specs before it starts over.
_AFTER: dict[WoundSpec, _Post] = {}
_AFTER_LIMIT = 10_000


def _core(spec: WoundSpec) -> WoundSpec:
    """The spec as :func:`_after_graze` reads it: the damage dice and the graze roll's
    modifier (it grows with a spray's hits) play no part after BTM."""
    return _respec(
        spec,
        location=_SAME_AS.get(spec.location, spec.location),
        dice=0,
        die=0,
        bonus=0,
        maximum=False,
        graze_modifier=0,
    )


def _after_graze(
    spec: WoundSpec, after: int, grazed: bool, luck_points: int
) -> tuple[list[tuple[Wound, int]], int]:
    """The wound for post-BTM damage ``after``, with the crippling check's branches if any
    (weights over the total that comes with them)."""
    wound = final_wound(after, grazed, False, luck_points, spec)
    if not wound.crippled:
        return [(wound, 1)], 1
    sever, s_total = _check_weights(_sever_args(spec, after, luck_points))
    return [
        (final_wound(after, grazed, not passed, left, spec), s_weight)
        for (passed, left), s_weight in sever
    ], s_total


def _check_weights(check: dict[str, Any]) -> tuple[list[tuple[tuple[bool, int], int]], int]:
    """A check's branches, from the table its own derive keeps (:func:`.checks.over_weights`)."""
    w = over_weights(**check)
    return list(w.items()), w.total


_SAME_AS: dict[str, Location] = {"right_arm": "left_arm", "right_leg": "left_leg"}


def track_increase(real: int, stun: int, stun_on_track: int) -> int:
    """G21: real marks first overwrite stun marks already on the track; stun adds fresh boxes."""
    overwritten = min(real, stun_on_track)
    return real - overwritten + stun


@dataclass(frozen=True)
class SaveSpec:
    who: str
    body: int
    marks_after: int
    needs_death_save: bool
    death_save_fails: bool
    stun_luck: LuckUse
    death_luck: LuckUse
    house: GraydawnHouse = field(compare=False, hash=False)
    #: The house rules by content (:func:`.models.content_key`): the key holds the house.
    house_key: str = field(init=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "house_key", content_key(self.house))


@dataclass(frozen=True)
class Saves:
    stunned: bool = False
    death_save_needed: bool = False
    death_save_failed: bool = False
    luck_left: int = 0

    __hash__ = hash_once
    __getstate__ = state_without_hash


def save_penalty(marks: int, house: GraydawnHouse) -> int:
    """Reading of G18: CP2020's stun-save penalty by wound state (0/-1/-2/-3, -1 per 4 more)."""
    state = wound_state(marks)
    if state in ("uninjured", "light"):
        return house.stun_penalty_light
    if state == "serious":
        return house.stun_penalty_serious
    if state == "critical":
        return house.stun_penalty_critical
    extra = (marks - house.mortal_above - 1) // 4
    return house.stun_penalty_mortal + extra * house.stun_penalty_per_mortal_level


def death_penalty(marks: int, house: GraydawnHouse) -> int:
    """Reading of G19: CP2020 death saves: -0 at mortal 0, -1 per 4 marks beyond (so -0 for a
    crippled limb below mortal, as G22 says)."""
    if marks <= house.mortal_above:
        return 0
    extra = (marks - house.mortal_above - 1) // 4
    return extra * house.stun_penalty_per_mortal_level


def resolve_saves(dice: DiceSource, spec: SaveSpec) -> Saves:
    """The stun save on any damage (G18) and the death save when mortal or crippled (G19/G22)."""

    def run(d: DiceSource) -> Saves:
        h = spec.house
        penalty = save_penalty(spec.marks_after, h)
        passed, left = roll_under(
            d,
            name="stun save",
            stat=spec.body,
            modifier=penalty,
            rule="G18",
            luck=spec.stun_luck,
        )
        stunned = not passed
        if stunned and not d.is_exact:
            d.record(StateChange(spec.who, "stunned", False, True, "G18"))
        if not spec.needs_death_save:
            return Saves(stunned, luck_left=left)
        if spec.death_save_fails:
            d.record(Note("crippled head: the death save fails automatically", "G22"))
            return Saves(stunned, True, True, left)
        passed, left = roll_under(
            d,
            name="death save",
            stat=spec.body,
            modifier=death_penalty(spec.marks_after, h),
            rule="G19",
            luck=with_points(spec.death_luck, left),
        )
        if not passed:
            d.record(StateChange(spec.who, "dying", False, True, "G19"))
        return Saves(stunned, True, not passed, left)

    return dice.derive("stun and death saves", run, saves_key(spec), keep=True)


def saves_key(spec: SaveSpec) -> Hashable:
    """What :func:`resolve_saves` reads on exact dice: the penalties the marks give (by wound
    state, G18/G19), not the marks, so the saves of every wound in one state share a table."""
    h = spec.house
    rolls_death = spec.needs_death_save and not spec.death_save_fails
    return (
        "saves",
        spec.body,
        save_penalty(spec.marks_after, h),
        death_penalty(spec.marks_after, h) if rolls_death else None,
        spec.needs_death_save,
        spec.death_save_fails,
        spec.stun_luck,
        spec.death_luck,
    )


#: G23: the face of the location table that stands for each extremity when asking about cover.
EXTREMITY_FACES: dict[Location, int] = {
    "head": 1,
    "left_arm": 5,
    "right_arm": 6,
    "left_leg": 7,
    "right_leg": 9,
}


@dataclass(frozen=True)
class BlastSpec:
    """Everything an explosion's damage to one target depends on (G23)."""

    who: str
    dice: int
    die: int
    bonus: int
    torso_sp: int
    cover_sp: int
    unprotected: tuple[Location, ...]
    btm: int
    body: int
    luck_stat: int
    sever_luck: LuckUse
    house: GraydawnHouse = field(compare=False, hash=False)
    #: The house rules by content (:func:`.models.content_key`): the key holds the house.
    house_key: str = field(init=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "house_key", content_key(self.house))

    @property
    def expr(self) -> str:
        return damage_expr(self.dice, self.die, self.bonus)


def _after_btm(damage: int, btm: int, house: GraydawnHouse) -> int:
    if damage <= 0:
        return 0
    return max(min(damage, house.btm_minimum_damage), damage + btm)


def resolve_blast(dice: DiceSource, spec: BlastSpec) -> Wound:
    """G23: the blast against torso armour (+ cover), plus a wound for unprotected extremities."""

    def run(d: DiceSource) -> Wound:
        h = spec.house
        raw = d.roll(spec.expr, why=f"explosion damage {spec.expr} (G23)").total
        stopped = spec.torso_sp + spec.cover_sp
        primary = max(0, raw - stopped)
        d.record(
            Check(
                "torso armour + cover SP vs the blast",
                raw,
                stopped,
                primary == 0,
                "G23",
                f"{primary} gets through",
            )
        )
        secondary = sum(
            h.explosion_head_marks if loc == "head" else h.explosion_limb_marks
            for loc in spec.unprotected
        )
        if spec.unprotected:
            d.record(
                Note(
                    f"unprotected {', '.join(spec.unprotected)}: a {secondary}-point wound",
                    "G23",
                )
            )
        p_after = _after_btm(primary, spec.btm, h)
        s_after = _after_btm(secondary, spec.btm, h)
        if p_after or s_after:
            d.record(Modifier("BTM (each wound)", spec.btm, "damage", spec.who, "G23"))
            d.record(Note(f"blast wound {p_after}, extremities wound {s_after}", "G23"))
        marks = p_after + s_after
        if marks == 0:
            return Wound(luck_left=spec.sever_luck.points)
        kind: WoundKind = "minor" if marks == 1 and (p_after == 0 or s_after == 0) else "wounding"
        severed = killed = False
        lost: Location | None = None
        left = spec.sever_luck.points
        if max(p_after, s_after) >= h.cripple_at and spec.unprotected:
            passed, left = roll_over(
                d,
                name="blast check (BODY + LUCK)",
                base=spec.body + spec.luck_stat,
                target=h.explosion_sever_tn,
                rule="G23",
                luck=spec.sever_luck,
            )
            if not passed:
                k = len(spec.unprotected)
                pick = (
                    d.roll(f"d{k}", why="which unprotected extremity (G23)").total if k > 1 else 1
                )
                lost = spec.unprotected[pick - 1]
                severed = True
                killed = lost == "head"
                d.record(Note(f"the blast takes the {lost}", "G23"))
        return Wound(
            penetrated=True,
            marks=marks,
            kind="crippling" if severed else kind,
            crippled=severed,
            severed=severed,
            killed_outright=killed,
            luck_left=left,
        )

    return dice.derive("explosion wound", run, spec, keep=True)


@dataclass(frozen=True)
class TurnInMortal:
    """G19: one turn (10 rounds) in mortal condition without a doctor."""

    marks_added: int
    death_save_failed: bool


def mortal_turn(
    dice: DiceSource, who: str, body: int, marks: int, house: GraydawnHouse
) -> TurnInMortal:
    """G19 bookkeeping for a round loop: a turn in mortal condition bleeds one more mark and
    needs another death save (at the penalty of the marks after bleeding)."""
    if marks <= house.mortal_above:
        return TurnInMortal(0, False)
    after = marks + 1
    dice.record(StateChange(who, "wound track", marks, after, "G19 (bleeding out)"))
    passed, _ = roll_under(
        dice, name="death save", stat=body, modifier=death_penalty(after, house), rule="G19"
    )
    return TurnInMortal(1, not passed)
