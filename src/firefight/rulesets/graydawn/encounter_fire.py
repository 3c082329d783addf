"""The rule code an encounter calls, fed from the fight's states: attacks (:mod:`.attack`), hits
without an attack roll (:func:`.attack.resolve_hits`), suppressing and covering fire and the
suppression check (:mod:`.suppression_round`, :mod:`.suppression_actions`), and what a wound
does to a combatant over time (G18/G19).

Nothing here is a second copy of a rule: each function builds the situation the rule modules
already take (an :class:`AttackSituation`, a :class:`SuppressionSituation`) from the states and
calls them. Situations are kept per input in a :class:`Situations` cache, so exact enumeration
replays meet the same objects (and the rule modules' sub-rule keys stay the same).
"""

from __future__ import annotations

from typing import Any, NamedTuple, Union, cast

from firefight.core.transcript import Check, Note, StateChange
from firefight.core.turns import evolve
from firefight.dice import DiceSource
from firefight.rulesets.graydawn import suppression_actions as actions
from firefight.rulesets.graydawn import suppression_round as round_
from firefight.rulesets.graydawn.attack import AttackOutcome, resolve_hits, resolve_outcome
from firefight.rulesets.graydawn.contest import (
    DROPS,
    FALLS,
    FIREARM_FUMBLES,
    LODGED,
    OVEREXTENDS,
    STUCK,
)
from firefight.rulesets.graydawn.damage import Saves, Wound, mortal_turn, track_increase
from firefight.rulesets.graydawn.encounter_setup import Entry
from firefight.rulesets.graydawn.encounter_state import Declared, Fighter
from firefight.rulesets.graydawn.house import GraydawnHouse
from firefight.rulesets.graydawn.models import Combatant, Cover, Location, Stance, Weapon
from firefight.rulesets.graydawn.situation import (
    AttackSituation,
    AttackSpec,
    FireMode,
    Luck,
    NamedModifier,
)
from firefight.rulesets.graydawn.suppression import (
    AUTOMATIC_KINDS,
    CheckResult,
    FireKind,
    action_penalty,
    check_tn,
)
from firefight.rulesets.graydawn.suppression_situation import (
    Shooter,
    SuppressedTarget,
    SuppressionSituation,
    TargetAction,
)

#: Status severity: a new wound never lowers it (G18/G19).
RANK = {"ready": 0, "stunned": 1, "unconscious": 2, "stable": 2, "dying": 3, "dead": 4}
LIMIT = 20_000
#: G36/G38: a grapple is a close-combat attack with the hands (CQB + brawling); a punch
#: into the scenery (G06) does the catalog's punch damage.
GRAPPLE = Weapon(
    name="grapple",
    kind="unarmed",
    skill="brawling",
    damage="1d6",
    damage_type="blunt",
    rof=1,
    magazine=0,
    reliability="very_reliable",
)
#: A fighter whose melee weapon is out of its hands (G06: dropped, broken, lodged) fights with
#: its fists (the catalog's punch), attacking and defending with brawling (G04).
FISTS = GRAPPLE.model_copy(update={"name": "fists"})


def in_hand(entry: Entry, f: Fighter) -> Weapon | None:
    """The weapon ``f`` fights with now: its own, or its fists when a melee weapon is out of its
    hands (G06); None for a firearm (its state is the gun's: ammunition, jams, slung)."""
    w = entry.combatant.armed()
    if w.is_firearm:
        return None
    if w.kind == "melee" and (f.broken or not f.ready or f.lodged):
        return FISTS
    return w


def combatant_now(
    entry: Entry, f: Fighter, *, exposed: bool = False, attacker: str | None = None
) -> Combatant:
    """The situation files' combatant for ``f`` as it stands: wounds, luck, cover (none when
    exposed or moving in the open; not intersecting a flanker's line, G35), stance (bracing,
    moves, flanked, ambushed, suppressed, G32-G35)."""
    cover = Cover()
    if entry.cover is not None and f.in_cover and not exposed:
        cover = entry.cover.model_copy(
            update={
                "position": "full" if f.stance == "full_cover" else entry.cover.position,
                "intersects": entry.cover.intersects and attacker not in f.flanked_by,
            }
        )
    stance = Stance.model_construct(
        bracing=f.stance == "bracing",
        moves=f.moves,
        prone=f.prone,
        incapacitated=f.status != "ready",
        flanked=attacker is not None and attacker in f.flanked_by,
        ambushed=f.ambushed,
        suppressed=f.levels > 0,
    )
    update = {"wounds": f.track, "luck_points": f.luck, "cover": cover, "stance": stance}
    hand = in_hand(entry, f)
    if hand is not None and hand is not entry.combatant.weapon:
        update["weapon"] = hand
    return entry.combatant.model_copy(update=update)


class Situations:
    """Situations built from states, kept per input (bounded), with the attack code's cache."""

    def __init__(self, entries: dict[str, Entry], house: GraydawnHouse) -> None:
        self.entries = entries
        self.house = house
        self._attacks: dict[Any, tuple[AttackSituation, dict[str, Any]]] = {}
        self._suppression: dict[Any, SuppressionSituation] = {}

    def attack(
        self,
        a: Fighter,
        t: Fighter,
        *,
        mode: str,
        metres: float,
        rounds: int | None = None,
        extra_actions: int = 0,
        penalty: int = 0,
        exposed: bool = False,
        point_blank: bool = False,
        close_quarters: bool = False,
        aim: str | None = None,
        grapple: bool = False,
        attack_roll: bool = True,
    ) -> tuple[AttackSituation, dict[str, Any]]:
        """The attack file's situation for ``a`` attacking ``t`` now; ``grapple``: the close
        combat roll of a grapple, bare-handed with brawling (G36/G38); not an ``attack_roll``
        (breaking a hold): an overextension waits for the next attack (G06)."""
        key = (
            a,
            t,
            mode,
            metres,
            rounds,
            extra_actions,
            penalty,
            exposed,
            point_blank,
            aim,
            grapple,
            attack_roll,
        )
        found = self._attacks.get(key)
        if found is not None:
            return found
        ea, et = self.entries[a.name], self.entries[t.name]
        mods: tuple[NamedModifier, ...] = ()
        if penalty:
            mods = (NamedModifier(name="suppression penalty (G10/G11)", value=-penalty),)
        if a.overextended and attack_roll:  # G06: the next attack roll after overextending
            value = self.house.overextension_penalty
            mods = (*mods, NamedModifier(name="overextended (G06)", value=value))
        spec = AttackSpec.model_construct(
            mode=cast(FireMode, mode),
            range_m=metres,
            rounds=rounds,
            extra_actions=extra_actions,
            modifiers=mods,
            point_blank=point_blank,
            close_quarters=close_quarters,
            aim_location=cast(Location | None, aim),
            system="opposed",
        )
        attacker = combatant_now(ea, a)
        if grapple:
            attacker = attacker.model_copy(update={"weapon": GRAPPLE})
        sit = AttackSituation.model_construct(
            attacker=attacker,
            target=combatant_now(et, t, exposed=exposed, attacker=a.name),
            attack=spec,
            luck=Luck.model_construct(attacker=ea.extra.luck, target=et.extra.luck),
            house=self.house,
        )
        found = (sit, {})
        if len(self._attacks) > LIMIT:
            self._attacks.clear()
        self._attacks[key] = found
        return found

    def suppression(
        self, target: Fighter, fire: tuple[tuple[Fighter, Declared, float], ...]
    ) -> SuppressionSituation:
        """The suppression half's situation: these shooters' fire at ``target`` (G09/G29)."""
        key = (target, fire)
        found = self._suppression.get(key)
        if found is not None:
            return found
        shooters = []
        for f, d, metres in fire:
            c = combatant_now(self.entries[f.name], f)
            shooters.append(
                Shooter.model_construct(
                    **dict(c),
                    fire=cast(FireKind, d.fire),
                    rounds=d.rounds,
                    full_magazine=False,
                    actions=None,
                    distance_m=metres,
                    range_band=None,
                    lane_width_m=None,
                    modifiers={},
                    luck_spent=0,
                    panicked=False,
                )
            )
        e = self.entries[target.name]
        t = combatant_now(e, target)
        flee = (
            e.cover is not None
            and target.cover_m >= 0
            and target.cover_m <= e.combatant.stats.MA
            and not target.in_cover
        )
        sup_target = SuppressedTarget.model_construct(
            **dict(t),
            full_cover_within_reach=False,
            cover_within_one_move=flee,
            initiative=target.initiative,
            in_lane="no",
            check_modifiers={},
            defence_modifiers={},
            actions=[],
            neighbours=[],
        )
        sit = SuppressionSituation.model_construct(
            kind="suppression",
            name=f"fire at {target.name}",
            shooters=shooters,
            target=sup_target,
            area=None,
            panic_table=False,
            catalogs=[],
            house=self.house,
        )
        if len(self._suppression) > LIMIT:
            self._suppression.clear()
        self._suppression[key] = sit
        return sit


# ------------------------------------------------------------------------------------------------
# Wounds on the track, and what they do over time (G18, G19, G21, G22)
# ------------------------------------------------------------------------------------------------
def take_outcome(f: Fighter, o: AttackOutcome, house: GraydawnHouse) -> Fighter:
    """An attack's outcome applied to its target (:func:`take_hit`)."""
    return take_hit(f, outcome_hit(o), house)


#: What the target reads of an attack's outcome (:func:`outcome_hit`): the hit
#: (:func:`taken`), or on a miss the luck left (None: as it was).
Hit = Union["Taken", int, None]


def outcome_hit(o: AttackOutcome) -> Hit:
    """What :func:`take_hit` reads of an attack's outcome."""
    return taken(o.location, o.wound, o.saves, o.target_luck) if o.hit else o.target_luck


def take_hit(f: Fighter, hit: Hit, house: GraydawnHouse) -> Fighter:
    """An attack's outcome (:func:`outcome_hit`) applied to its target: a hit's wound
    (:func:`take_wound`); a miss leaves only the luck it spent (G17)."""
    if isinstance(hit, tuple):
        return take_wound(f, hit, house)
    return evolve(f, luck=f.luck if hit is None else hit)


class Taken(NamedTuple):
    """What :func:`take_wound` reads of a hit (:func:`taken`). Plain values (a tuple):
    outcomes alike here are applied once."""

    #: Where it struck, only for a wound that cripples or severs.
    location: Location | None
    penetrated: bool
    kind: str
    marks: int
    stun_marks: int
    crippled: bool
    severed: bool
    killed_outright: bool
    #: The saves' results.
    stunned: bool
    death_save_failed: bool
    #: The target's luck left (None: as it was).
    luck: int | None


#: A hit that does not penetrate, bar the luck left.
_GLANCE = Taken(None, False, "none", 0, 0, False, False, False, False, False, None)


def taken(location: Location | None, w: Wound, saves: Saves, luck: int | None) -> Taken:
    """What :func:`take_wound` reads of a hit at ``location`` with wound ``w`` and ``saves``
    (``luck``: the target's luck left, None as it was)."""
    if not w.penetrated:
        return _GLANCE._replace(luck=luck)
    where = (location or "torso") if (w.crippled or w.severed) else None
    return Taken(
        where,
        True,
        w.kind,
        w.marks,
        w.stun_marks,
        w.crippled,
        w.severed,
        w.killed_outright,
        saves.stunned,
        saves.death_save_failed,
        luck,
    )


def take_wound(f: Fighter, hit: Taken, house: GraydawnHouse) -> Fighter:
    """A hit (:func:`taken`) applied to its target: marks by kind (real marks overwrite stun
    marks first, G21), crippled/severed locations (G22), luck left (G17), and the status the
    saves leave (:func:`status_after`)."""
    luck = f.luck if hit.luck is None else hit.luck
    if not hit.penetrated:
        return evolve(f, luck=luck)
    real = hit.marks
    overwritten = min(real, f.stun_marks)
    minor, wounding, crippling = f.minor, f.wounding, f.crippling
    if hit.kind == "minor":
        minor += real
    elif hit.kind == "crippling":
        crippling += real
    else:
        wounding += real
    crippled, severed = f.crippled, f.severed
    where = str(hit.location)
    if hit.crippled and where not in crippled:
        crippled = (*crippled, where)
    if hit.severed and where not in severed:
        severed = (*severed, where)
    new = evolve(
        f,
        minor=minor,
        wounding=wounding,
        crippling=crippling,
        stun_marks=f.stun_marks - overwritten + hit.stun_marks,
        crippled=crippled,
        severed=severed,
        luck=luck,
    )
    status = status_after(
        f.status,
        hit.killed_outright and hit.severed,
        hit.death_save_failed,
        hit.stunned,
        new.marks,
        house,
    )
    if status != f.status:
        new = evolve(new, status=status)
    return new


def status_after(
    before: str, dead: bool, dying: bool, stunned: bool, marks: int, house: GraydawnHouse
) -> str:
    """The status a penetrating wound leaves a fighter with ``marks`` after it
    (:func:`take_wound`): dead (a destroyed head, ``dead``); dying (a failed death save);
    stunned, or unconscious in mortal condition (a failed stun save); never lower than
    ``before`` (G18/G19)."""
    status = "ready"
    if dead:
        status = "dead"
    elif dying:
        status = "dying"
    elif stunned:
        status = "unconscious" if marks > house.mortal_above else "stunned"
    if RANK[status] > RANK[before] or (before == "stable" and status == "dying"):
        return status
    return before


def status_marks(f: Fighter, hit: Taken, house: GraydawnHouse) -> tuple[str, int]:
    """The status and the marks :func:`take_wound` leaves ``f`` with after ``hit``, without
    the fighter: real marks overwrite its stun marks first (G21,
    :func:`.damage.track_increase`), the status as :func:`status_after` says."""
    if not hit.penetrated:
        return f.status, f.marks
    marks = f.marks + track_increase(hit.marks, hit.stun_marks, f.stun_marks)
    dead = hit.killed_outright and hit.severed
    return status_after(f.status, dead, hit.death_save_failed, hit.stunned, marks, house), marks


#: What a shot applies of an attack's outcome (:func:`shot_read`): the attacker's luck left,
#: its critical failure, whether the weapon failed its reliability roll and the fumble's
#: wound to the attacker (:func:`attacker_left`), how far a miss fell short (G11) and the
#: target's hit (:func:`outcome_hit`). Plain values: outcomes alike here apply alike.
ShotRead = tuple[int | None, str | None, bool, "Taken | None", int, Hit]


def shot_read(o: AttackOutcome) -> ShotRead:
    """What a shot applies of the attack's outcome ``o``."""
    own = None
    if o.own is not None:
        location, wound, _, saves = o.own
        own = taken(location, wound, saves, saves.luck_left)
    return o.attacker_luck, o.critical, o.jammed, own, o.missed_by, outcome_hit(o)


def attacker_left(
    a: Fighter,
    luck: int | None,
    critical: str | None,
    failed: bool,
    own: Taken | None,
    house: GraydawnHouse,
) -> Fighter:
    """The attacker after its attack: the luck it spent (G17) and what a critical failure
    left it with (G06), as far as the fight's state holds it: a failed reliability roll jams a
    gun and breaks a melee weapon (gone for the fight: it fights with its fists); a dumped
    magazine; a critical weapon failure; a dropped weapon (a pick-up action); a weapon or fist
    lodged in the scenery (an action frees it); an overextension (the next attack at -3); a
    fall (prone); and the fumble's wound to the attacker himself (:func:`take_wound`). The shot
    at an ally, a wild swing into one and the cook-off stay notes: which ally and which fire
    are the Ref's."""
    out = a if luck is None else evolve(a, luck=luck)
    if critical is None:
        return out
    changes: dict[str, Any] = {}
    if failed:
        changes["jammed" if critical in FIREARM_FUMBLES else "broken"] = True
    change = _FUMBLED.get(critical)
    if change is not None:
        changes.update(change)
    if changes:
        out = evolve(out, **changes)
    return out if own is None else take_wound(out, own, house)


#: The fighter's fields a critical failure's consequence sets (G06).
_FUMBLED: dict[str, dict[str, Any]] = {
    "dumps the magazine": {"ammo": 0},
    "critical weapon failure (repairs after the fight)": {"broken": True},
    DROPS: {"ready": False},
    LODGED: {"lodged": True},
    STUCK: {"lodged": True},
    OVEREXTENDS: {"overextended": True},
    FALLS: {"prone": True},
}


def record_status(dice: DiceSource, before: Fighter, after: Fighter) -> None:
    if before.status != after.status:
        dice.record(StateChange(after.name, "status", before.status, after.status, "G18/G19"))


def end_of_round(dice: DiceSource, f: Fighter, entry: Entry, house: GraydawnHouse) -> Fighter:
    """G19 over time: a turn (10 rounds) in mortal condition bleeds a mark and needs a death
    save (:func:`.damage.mortal_turn`); a dying combatant dies when a turn is up unless a
    doctor stabilised it (first aid buys 1d6 minutes)."""
    per = house.suppression.rounds_per_turn
    if f.status in ("dead", "stable"):
        return f
    new = f
    if f.marks > house.mortal_above:
        counted = f.mortal_rounds + 1
        if counted >= per:
            turn = mortal_turn(dice, f.name, entry.combatant.stats.BODY, f.marks, house)
            new = evolve(new, wounding=new.wounding + turn.marks_added, mortal_rounds=0)
            if turn.death_save_failed and new.status != "dying":
                new = evolve(new, status="dying", dying_rounds=0)
        else:
            new = evolve(new, mortal_rounds=counted)
    if new.status == "dying":
        left = new.dying_rounds + 1
        if left >= per:
            dice.record(Note(f"{f.name} dies: a turn passed without a doctor", "G19"))
            new = evolve(new, status="dead", dying_rounds=left)
        else:
            new = evolve(new, dying_rounds=left)
    record_status(dice, f, new)
    return new


def medical_check(dice: DiceSource, who: str, base: int, tn: int, what: str) -> tuple[bool, bool]:
    """TECH + skill + d10x vs ``tn`` (reading: CP2020 medical skills are TECH skills; G22's
    stabilisation TN 15). Returns (passed, critical success: a natural 10, G02)."""
    total = base + dice.roll("d10x", why=f"{who} {what} (G19)").total
    passed = total >= tn
    critical = total - base >= 10
    dice.record(Check(f"{who} {what}", total, tn, passed, "G19/G22"))
    return passed, critical


# ------------------------------------------------------------------------------------------------
# Suppression (G09-G13, G29): the rule module's functions on situations built from the states
# ------------------------------------------------------------------------------------------------
def is_automatic(entry: Entry) -> bool:
    """G15: "an automatic weapon's suppressing fire" (G09's automatic weapons: SMGs, assault
    rifles, machine guns)."""
    w = entry.combatant.weapon
    return w is not None and w.kind in AUTOMATIC_KINDS


def shooter_levels(dice: DiceSource, sit: SuppressionSituation, index: int) -> int:
    """G09/G29: the levels one declared shooter puts on the target (attack vs range TN)."""
    return round_.shooter_levels(sit, index, dice)


def covering_hits(dice: DiceSource, sit: SuppressionSituation) -> int:
    """G29: the target's defence rolls against covering fire (a total <= 0 is hit)."""
    return round_._fire_hits(sit, dice)


def check(
    dice: DiceSource, sit: SuppressionSituation, levels: int, shotgun_shots: int
) -> CheckResult:
    """G10: the suppression check against the levels' TN."""
    tn = check_tn(levels, sit.rules, shotgun_shots)
    return round_.check(sit, levels, tn, dice)


def hunker(dice: DiceSource, sit: SuppressionSituation, in_open: bool, pen: int) -> int:
    """G12: hunkering down (LUCK + dodge/cover behind cover; LUCK only, with the penalty, in the
    open); hits per full 5 missed, capped by the rounds fired (G11)."""
    return actions.hunker_hits(dice, sit, in_open, pen)


def move_out(dice: DiceSource, sit: SuppressionSituation, moves: int, pen: int) -> int:
    """G11: leaving cover (or moving in the open) under fire: dodge/cover vs 15/20/25."""
    action = TargetAction(kind="move", name="moves", moves=min(max(moves, 1), 3))
    return actions.move_out_hits(dice, sit, action, pen)


def penalty(f: Fighter, in_open: bool, house: GraydawnHouse) -> int:
    """G10/G11/G32: the suppression penalty on each of its actions this round (positive)."""
    if f.levels <= 0:
        return 0
    return action_penalty(
        f.levels,
        f.check,
        in_open=in_open,
        rules=house.suppression,
        bracing=f.stance == "bracing",
    )


def hits_room(f: Fighter, hits: int) -> int:
    """G11: never more hits in the round than rounds fired at it."""
    return max(0, min(hits, f.fired_at - f.hits_taken))


def fire_hits_outcome(
    dice: DiceSource,
    sits: Situations,
    target: Fighter,
    shooter: Fighter,
    metres: float,
    hits: int,
    exposed: bool,
) -> AttackOutcome:
    """Hits from suppressing fire landing on ``target`` (G11/G12/G29), from ``shooter``'s
    weapon, as one wound with a die more per extra hit (G27/G28)."""
    sit, cache = fire_situation(sits, target, shooter, metres, exposed)
    dice.record(Note(f"{hits} hit(s) from {shooter.name}'s fire", "G11"))
    return hits_outcome(sit, cache, hits, dice)


def fire_situation(
    sits: Situations, target: Fighter, shooter: Fighter, metres: float, exposed: bool
) -> tuple[AttackSituation, dict[str, Any]]:
    """The situation of :func:`fire_hits_outcome`: ``shooter``'s weapon, one shot's wound."""
    return sits.attack(shooter, target, mode="single", metres=metres, exposed=exposed)


def hits_outcome(
    sit: AttackSituation, cache: dict[str, Any], hits: int, dice: DiceSource
) -> AttackOutcome:
    """:func:`fire_hits_outcome` on its situation (built once for every path of a table)."""
    return resolve_hits(sit, dice, hits, cache)


def attack(
    dice: DiceSource,
    sit: AttackSituation,
    cache: dict[str, Any],
    miss_floor: int = -1,
) -> AttackOutcome:
    """The attack rule (:func:`.attack.resolve_outcome`)."""
    return resolve_outcome(sit, dice, cache, miss_floor)
