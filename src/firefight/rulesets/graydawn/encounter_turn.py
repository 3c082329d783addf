"""Resolving what happens in a graydawn round: the suppressing-fire phase (G09, G10, G16, G29,
G32, G33, G35), a combatant's turn plan (G06, G11, G12, G31-G40), the turns nobody chooses
(a lost action G10/G12, panic G15, a beeline for cover G32) and the end of a turn (G13).

Every roll goes through the rule modules (attack, suppression, reload, checks); this module
only feeds them from the states and writes their outcomes back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, TypeVar

from firefight.core.transcript import Note, StateChange
from firefight.core.turns import FightState, evolve
from firefight.dice import DiceSource, Weighted
from firefight.dice.sources import derived_distribution, kept_value, reduced
from firefight.rulesets.graydawn import encounter_fire as fire
from firefight.rulesets.graydawn import encounter_scores as scores
from firefight.rulesets.graydawn import tactics
from firefight.rulesets.graydawn.attack import HitResult, hits_read
from firefight.rulesets.graydawn.damage import death_penalty, save_penalty
from firefight.rulesets.graydawn.encounter_state import Declared, Fighter, put
from firefight.rulesets.graydawn.models import content_key, wound_state
from firefight.rulesets.graydawn.suppression import CheckResult
from firefight.rulesets.graydawn.suppression_situation import SuppressionSituation

if TYPE_CHECKING:
    from firefight.rulesets.graydawn.encounter import GraydawnTurns
    from firefight.rulesets.graydawn.house import GraydawnHouse

K = TypeVar("K")

MODE = {"auto": "full_auto", "burst": "burst", "single": "single"}


def fire_at(
    t: GraydawnTurns, state: FightState, name: str
) -> tuple[tuple[Fighter, Declared, float], ...]:
    board = state.board
    return tuple(
        (state.combatant(d.shooter), d, board.distance(d.shooter, name))
        for d in board.fire_at(name)
    )


def sup_sit(t: GraydawnTurns, state: FightState, f: Fighter) -> SuppressionSituation:
    return t.sits.suppression(f, fire_at(t, state, f.name))


# ------------------------------------------------------------------------------------------------
# G16 the suppressing-fire phase
# ------------------------------------------------------------------------------------------------
def suppressing_fire(
    t: GraydawnTurns, state: FightState, dice: DiceSource, brief: bool = False
) -> FightState:
    """G16 step 3: every declared shooter's attack vs the range TN (G09; covering fire rolls
    none, G29), levels applied and covering fire's defence rolls; the checks follow
    (:func:`suppression_check`, phase "checks"). No fire declared: the turns begin. ``brief``
    (a preview): a covering-fire wound nothing later fires into told as the rest of the
    round reads it (:func:`_no_fire_to_come`)."""
    declared = state.board.declared
    if not declared:
        return evolve(state, phase="turns", acting=None)
    start = state
    shots = [_shot(t, start, d) for d in declared]
    key = ("suppressing-fire levels", tuple((content_key(sit), i) for _, sit, i in shots))
    levels = dict(dice.derive("suppressing-fire levels", partial(_levels, shots), key, keep=True))
    rounds: dict[str, int] = {}
    for d in declared:
        rounds[d.target] = rounds.get(d.target, 0) + d.rounds
    for name in _targets(state):
        f = state.combatant(name)
        f = evolve(f, levels=levels[name], fired_at=rounds[name])
        dice.record(StateChange(name, "suppression levels", 0, levels[name], "G09/G10"))
        state = put(state, f)
        group = fire_at(t, start, name)
        if any(d.fire == "covering" for _, d, _ in group):
            hits = fire.covering_hits(dice, t.sits.suppression(start.combatant(name), group))
            before = state.combatant(name)
            state = take_fire(t, state, name, hits, False, dice)
            hurt = state.combatant(name)
            if brief and hurt is not before and _no_fire_to_come(t, state, hurt):
                told = brief_shot(t.house, before, hurt, to_come=True, check=True)
                state = put(state, _carrying(*told))
    return evolve(state, phase="checks", acting=None)


def _no_fire_to_come(t: GraydawnTurns, state: FightState, f: Fighter) -> bool:
    """Whether a preview may tell ``f``'s wound from covering fire briefly (``brief_shot``,
    its check and turn to come): nothing later in the round fires at it, so nothing reads
    its whole track. No fumble of its check can cost it its action (G10: its score minus its
    levels stays at 0 or more: no hunkering, G12), a panic would not take fire (G15: behind
    cover, no automatic weapon firing at it; a failed check keeps it behind cover, G32), and
    it laid no fire of its own; its own chosen turn is the preview's next decision."""
    if f.suppressing or tactics.initiative_after_fumble(f.initiative, f.levels)[1]:
        return False
    if not f.in_cover:
        return False
    return not any(fire.is_automatic(t.entries[s.name]) for s, _, _ in fire_at(t, state, f.name))


def suppression_check(
    t: GraydawnTurns, state: FightState, dice: DiceSource, brief: bool = False
) -> FightState:
    """G16 step 4, one check a part: the next target's suppression check (G10) in initiative
    order (a ready target with levels, not yet checked), or, none left, the new initiative
    scores take effect at once (G33) and the turns begin. A check a part, so that an exact
    preview merges the states each check leaves before the next one multiplies them (and
    refuses a volley at the check that passes its budget). ``brief`` (a preview): a panic's
    re-roll waits for the checks' end, where the waiting ones are rolled together, told as the
    order reads them (:mod:`.encounter_scores`)."""
    for name in _targets(state):
        f = state.combatant(name)
        if f.levels <= 0 or f.status != "ready" or f.check != "none":
            continue
        shotgun = 0
        for d in state.board.fire_at(name):
            w = t.entries[d.shooter].combatant.weapon
            if w is not None and w.kind == "shotgun" and d.fire == "covering":
                shotgun += d.rounds
        result = fire.check(dice, sup_sit(t, state, f), f.levels, shotgun)
        state = put(state, _after_check(t, f, result, dice, brief))
        if brief and result == "panic":
            return scores.defer(state, name, *t.initiative_base(f))
        return state
    state = scores.settle(t, state, dice)
    return evolve(state, order=t.order(state), phase="turns")


def _targets(state: FightState) -> list[str]:
    """The targets of the declared fire: in initiative order, then any not in it (G16)."""
    targets = dict.fromkeys(d.target for d in state.board.declared)
    return [n for n in state.order if n in targets] + [n for n in targets if n not in state.order]


def _shot(
    t: GraydawnTurns, start: FightState, d: Declared
) -> tuple[str, SuppressionSituation, int]:
    """A declaration as (target, the suppression situation of all fire at it, its shooter)."""
    group = fire_at(t, start, d.target)
    sit = t.sits.suppression(start.combatant(d.target), group)
    return d.target, sit, [g[1] for g in group].index(d)


def _levels(
    shots: list[tuple[str, SuppressionSituation, int]], dice: DiceSource
) -> tuple[tuple[str, int], ...]:
    """G09/G29: every declared shooter's levels, in declaration order, summed per target. One
    sub-rule: exact dice branch on the targets' totals, not on each shooter's levels, and a
    volley of fire with too many combinations is refused by its own cheap enumeration."""
    levels: dict[str, int] = {}
    for target, sit, index in shots:
        levels[target] = levels.get(target, 0) + fire.shooter_levels(dice, sit, index)
    return tuple(levels.items())


def _after_check(
    t: GraydawnTurns,
    f: Fighter,
    result: CheckResult,
    dice: DiceSource,
    brief: bool = False,
) -> Fighter:
    """G10/G15/G32/G33/G35: what the check leaves: full cover, a beeline, panic, initiative
    (``brief``: a preview's panic re-roll is left to wait, :func:`.encounter_scores.defer`)."""
    e = t.entries[f.name]
    f = evolve(f, check=result)
    panic = result == "panic"
    if result == "pass" and f.panicked:
        dice.record(Note(f"{f.name} passes a suppression check: the panic ends", "G15"))
        f = evolve(f, panicked=False)
    if result in ("fail", "fumble"):
        if f.flanked_by and f.in_cover:
            dice.record(
                Note(f"{f.name} fails while flanked: flushed out, no cover in reach", "G35")
            )
            panic = True
        elif f.in_cover:
            dice.record(Note(f"{f.name} is relegated to full cover", "G32"))
            f = evolve(f, stance="full_cover")
        elif (
            tactics.stance_after_failed_check(False, 0 < f.cover_m <= e.combatant.stats.MA)
            == "panic"
        ):
            dice.record(Note(f"{f.name} fails in the open with no cover in one move", "G32"))
            panic = True
        else:
            dice.record(Note(f"{f.name} fails in the open: a beeline for cover", "G32"))
    if result == "fumble":
        new, lost = tactics.initiative_after_fumble(f.initiative, f.levels)
        dice.record(StateChange(f.name, "initiative", f.initiative, new, "G10"))
        f = evolve(f, initiative=new, lost_action=lost, reroll=lost)
    if panic and not f.panicked:
        dice.record(StateChange(f.name, "stance", f.stance, "panic", "G15"))
        f = evolve(f, panicked=True)
    if result == "panic":
        if brief:
            return f  # the re-roll waits for the checks' end (:func:`.encounter_scores.defer`)
        ref, mods = t.initiative_base(f)  # as the round's roll (a house's pistol bonus too)
        new = tactics.reroll_keep_lower(dice, f.initiative, ref, mods)
        dice.record(StateChange(f.name, "initiative", f.initiative, new, "G33"))
        f = evolve(f, initiative=new)
    return f


def take_fire(
    t: GraydawnTurns, state: FightState, name: str, hits: int, exposed: bool, dice: DiceSource
) -> FightState:
    """Hits from the suppressing fire on ``name`` (never more than the rounds fired, G11),
    from the first declared shooter's weapon."""
    f = state.combatant(name)
    hits = fire.hits_room(f, hits)
    if hits <= 0:
        return state
    args = _hits_args(t, state, f, hits, exposed)
    key = ("take fire", t.token, *args[1:])
    run = partial(_hits_taken, *args)
    hurt = dice.derive("hits taken", run, key, exact=partial(_hits_table, args, key), keep=True)
    kept = _kept_of(f)
    kept["hits_taken"] += hits
    return put(state, evolve(hurt, **kept))


def _hits_args(
    t: GraydawnTurns, state: FightState, f: Fighter, hits: int, exposed: bool
) -> _HitsArgs:
    """What :func:`_hits_taken` reads, the target and the shooter without :data:`_NOT_HIT`
    and their levels only as whether they are suppressed (G10: ``combatant_now`` reads no
    more): a shooter's rounds spent never split its fire's wound tables between rounds."""
    shooter, _, metres = fire_at(t, state, f.name)[0]
    core = evolve(f, **_NOT_HIT, levels=min(f.levels, 1))
    fired_by = evolve(shooter, **_NOT_HIT, levels=min(shooter.levels, 1))
    return t, core, fired_by, metres, hits, exposed


def _kept_of(f: Fighter) -> dict[str, Any]:
    """The fields :func:`_hits_args` left out of the wound, to put back after it."""
    kept = {k: getattr(f, k) for k in _NOT_HIT}
    kept["levels"] = f.levels
    return kept


#: Fields of the target that neither the wound (:func:`.encounter_fire.combatant_now` reads
#: the track, luck, status, stance, cover, movement and whether it has levels) nor
#: :func:`.encounter_fire.take_outcome` reads or writes: the wound's sub-rule is keyed without
#: them (a fighter's initiative or ammunition never splits it) and they are put back after.
_NOT_HIT: dict[str, Any] = {
    "mortal_rounds": 0,
    "dying_rounds": 0,
    "first_aid": False,
    "ammo": 0,
    "spares": 0,
    "jammed": False,
    "broken": False,
    "ready": True,
    "lodged": False,
    "overextended": False,
    "prone": False,
    "initiative": 0,
    "reroll": False,
    "grappled_by": None,
    "acted": False,
    "suppressing": False,
    "check": "none",
    "fired_at": 0,
    "hits_taken": 0,
    "lost_action": False,
    "panicked": False,
    "pending": (),
}


def _hits_taken(
    t: GraydawnTurns,
    f: Fighter,
    shooter: Fighter,
    metres: float,
    hits: int,
    exposed: bool,
    dice: DiceSource,
) -> Fighter:
    """The wound ``hits`` make and what it leaves of ``f``, as one sub-rule: exact dice branch
    on the combatant's new state, so wounds alike on the track (another limb, the same marks,
    the same saves) merge before the rest of the turn multiplies them."""
    o = fire.fire_hits_outcome(dice, t.sits, f, shooter, metres, hits, exposed)
    new = fire.take_outcome(f, o, t.house)
    fire.record_status(dice, f, new)
    return new


#: What :func:`_hits_taken` reads: the turns, the target (without :data:`_NOT_HIT`), the first
#: declared shooter, the metres between them, the hits and whether the target is exposed.
_HitsArgs = tuple["GraydawnTurns", Fighter, Fighter, float, int, bool]


def _hits_table(args: _HitsArgs, key: tuple[Any, ...]) -> Weighted[Fighter]:
    """:func:`_hits_taken`'s distribution from the hits' table as the wound reads it
    (:func:`.attack.hits_read` by :func:`.encounter_fire.taken`: outcomes that differ only in
    what the track never keeps, a location not crippled, a graze, luck spent on the way, are
    one), each applied once by :func:`.encounter_fire.take_wound` (no path replay, no paths
    counted against a preview's budget, no outcome or fighter made per outcome)."""
    t, f, shooter, metres, hits, exposed = args
    sit, cache = fire.fire_situation(t.sits, f, shooter, metres, exposed)
    hits_taken = hits_read(sit, hits, cache, _taken, _taken)
    acc: dict[Fighter, int] = {}
    for hit, w in hits_taken.items():
        new = fire.take_wound(f, hit, t.house)
        acc[new] = acc.get(new, 0) + w
    return reduced(list(acc), list(acc.values()), hits_taken.total)


def _taken(result: HitResult) -> fire.Taken:
    """What the wound reads of the hit stage's ``result`` as :func:`.attack.resolve_hits`
    makes it an outcome (the target's luck left: the saves')."""
    location, wound, _, saves = result
    return fire.taken(location, wound, saves, saves.luck_left)


def over_common(acc: dict[K, dict[int, list[int]]]) -> tuple[int, list[tuple[K, list[int]]]]:
    """Each key's sums kept per path denominator (the weight, then weight x marks, ...) over
    the denominators' least common multiple, and that multiple: integer sums, as an
    enumeration adds its paths (the brief tables' exact means are their quotients)."""
    common = math.lcm(*{den for slot in acc.values() for den in slot})
    rows = []
    for key, slot in acc.items():
        totals: list[int] = []
        for den, sums in slot.items():
            scale = common // den
            scaled = [x * scale for x in sums]
            totals = [x + y for x, y in zip(totals, scaled, strict=True)] if totals else scaled
        rows.append((key, totals))
    return common, rows


@dataclass(frozen=True)
class BriefFighter(Fighter):
    """A fighter as a preview carries it after the wound of its own automatic turn
    (:func:`brief_wound`): its marks stand for the outcomes merged into it only as far as the
    rest of the round reads them, and ``carried`` adds the rest of their exact mean (the
    preview's expected harm: ``GraydawnTurns.harm``, taken apart by
    ``GraydawnTurns.preview_carry``). Only inside previews; never saved."""

    carried: Fraction = Fraction(0)


def _marks_read(marks: int, house: GraydawnHouse) -> tuple[bool, int]:
    """What the end of the round reads of a fighter's marks (G19, ``end_of_round``): whether it
    is in mortal condition, and the death save's penalty after one more mark."""
    return marks > house.mortal_above, death_penalty(marks + 1, house)


def _least_alike(marks: int, house: GraydawnHouse) -> int:
    """The fewest marks read as ``marks`` are (:func:`_marks_read`): a class's stand-in."""
    read = _marks_read(marks, house)
    while marks > 0 and _marks_read(marks - 1, house) == read:
        marks -= 1
    return marks


def brief_wound(house: GraydawnHouse, before: Fighter, new: Fighter) -> tuple[Fighter, int]:
    """``new`` (``before`` wounded in its own automatic turn, :func:`.encounter_fire.take_outcome`)
    as the rest of an odds preview reads it (:func:`told_wound`), and its marks."""
    return told_wound(house, before, new.status, new.marks), new.marks


def told_wound(house: GraydawnHouse, before: Fighter, status: str, marks: int) -> Fighter:
    """``before`` wounded in its own automatic turn to ``status`` and ``marks``, as the rest
    of an odds preview reads it. Its turn is its last chance to take fire this round (a
    declared shooter has no automatic turn; nobody's plan is played after the preview's next
    decision), the end of the round reads only the status and what :func:`_marks_read` says of
    the marks (G19), and the preview reads the status (``can_fight``), the marks (``harm``,
    carried apart as a mean) and whether it changed, which its turn (``acted``) settles
    whatever the wound. So the track's boxes, its limbs and the luck spent are left as
    ``before`` had them and the marks stand at their class's least (:func:`_least_alike`): a
    preview branches on a hunkering fighter's status and mortal class, not on every way the
    hits fell on the track (hundreds of outcomes of a 10-round volley)."""
    return evolve(
        before,
        minor=_least_alike(marks, house),
        wounding=0,
        crippling=0,
        stun_marks=0,
        crippled=(),
        severed=(),
        status=status,
    )


def may_tell_briefly(state: FightState, target: Fighter) -> bool:
    """Whether the rest of an odds preview after a chosen shot at ``target`` reads its wound
    only as :func:`brief_shot` keeps it. Not for a declared shooter (a hunkering fighter's hits
    and checks read its wounds through its fire, G11/G12), nor one whose automatic turn is
    still to take fire (a lost action or a panic, G12/G15: the wound tables read the track)."""
    if target.lost_action or target.panicked:
        return False
    return all(d.shooter != target.name for d in state.board.declared)


def brief_shot(
    house: GraydawnHouse, before: Fighter, new: Fighter, to_come: bool, check: bool = False
) -> tuple[Fighter, int]:
    """``new`` (``before`` after a shot in a chosen turn, where nothing later in the plan or
    the round reads more of it: :func:`may_tell_briefly`) as the rest of an odds preview reads
    it, and its marks. The rest reads its status, the marks as the end of the round does
    (:func:`_marks_read`), if its turn is still ``to_come``, as its stun save does (the
    penalty, G18) and its luck for that save, and if its suppression ``check`` is to come, as
    that check does (its wound state's CL penalty, G20); the preview reads the status, the
    marks (the rest carried apart as a mean) and whether it changed (a stand-in carried is
    never the plain fighter). So, as :func:`brief_wound`, the track stands at the fewest marks
    read alike."""

    marks = new.marks
    short = evolve(
        new,
        minor=_least_read(marks, house, to_come, check),
        wounding=0,
        crippling=0,
        stun_marks=0,
        crippled=(),
        severed=(),
        luck=new.luck if to_come and new.status == "stunned" else before.luck,
    )
    return short, marks


@lru_cache(maxsize=4096)
def _least_read(marks: int, house: GraydawnHouse, stun_save: bool, check: bool = False) -> int:
    """The fewest marks read as ``marks`` are by the end of the round (:func:`_marks_read`),
    with ``stun_save`` by a stun save (its penalty, G18) and with ``check`` by a suppression
    check (the wound state, G20): :func:`brief_shot`'s stand-in."""

    def read(m: int) -> Any:
        return (
            _marks_read(m, house),
            stun_save and save_penalty(m, house),
            check and wound_state(m),
        )

    least = marks
    while least > 0 and read(least - 1) == read(marks):
        least -= 1
    return least


def _carrying(short: Fighter, marks: Fraction | int) -> BriefFighter:
    """``short`` carrying the marks its stand-in lacks (:class:`BriefFighter`)."""
    brief = object.__new__(BriefFighter)
    brief.__dict__.update(short.__dict__)
    brief.__dict__.pop("_hash", None)
    brief.__dict__["carried"] = Fraction(marks - short.marks)
    return brief


def fire_briefly(
    t: GraydawnTurns,
    state: FightState,
    name: str,
    hits: partial[int],
    exposed: bool,
    dice: DiceSource,
) -> FightState:
    """``hits`` (a hits rule on dice: hunkering, G12, or the dodge check, G11) then
    :func:`take_fire`, as one sub-rule told briefly (:func:`brief_wound`): for an odds preview
    of a fighter's own automatic turn, which ends right after (its ``hits_taken``, which only
    a later hit in the same turn would read, is left as it was). Exact dice branch on what
    the rest of the preview reads of the outcome, over every hit count at once."""
    f = state.combatant(name)
    room = fire.hits_room(f, 10**6)
    args = _hits_args(t, state, f, 0, exposed)
    how = tuple((k, content_key(v) if k == "sit" else v) for k, v in hits.keywords.items())
    key = ("fire briefly", t.token, hits.func.__name__, how, room, *args[1:])
    run = partial(_fire_brief_path, args, hits, room)
    table = partial(_fire_brief_table, args, hits, room, key)
    hurt = dice.derive("hits taken", run, key, exact=table, keep=True)
    return put(state, evolve(hurt, **_kept_of(f)))


def _fire_brief_path(
    args: _HitsArgs, hits: partial[int], room: int, dice: DiceSource
) -> BriefFighter:
    """:func:`fire_briefly`'s sub-rule path by path: the hits, the wound, told briefly."""
    t, core = args[0], args[1]
    n = max(0, min(hits(dice), room))
    new = _hits_taken(*args[:4], n, args[5], dice) if n else core
    return _carrying(*brief_wound(t.house, core, new))


def _fire_brief_table(
    args: _HitsArgs, hits: partial[int], room: int, key: tuple[Any, ...]
) -> Weighted[Fighter]:
    """:func:`fire_briefly`'s distribution from the kept distributions of the hits and of each
    hit count's wound (:func:`_brief_wounds`), the outcomes read alike merged, each carrying
    their marks' exact mean (integer sums over common denominators, as enumeration adds)."""
    counts = derived_distribution(hits, ("brief hits", key))
    #: outcome read alike -> denominator -> [weight, weight x marks]
    acc: dict[Fighter, dict[int, list[int]]] = {}
    for n, p in counts.items():
        n = max(0, min(n, room))
        total, wounds = _brief_wounds((*args[:4], n, args[5]))
        den = counts.total * total
        for short, w, m in wounds:
            sums = acc.setdefault(short, {}).setdefault(den, [0, 0])
            sums[0] += p * w
            sums[1] += p * m
    common, rows = over_common(acc)
    out = {_carrying(short, Fraction(m, w)): w for short, (w, m) in rows}
    return reduced(list(out), list(out.values()), common)


def _brief_wounds(args: _HitsArgs) -> tuple[int, list[tuple[Fighter, int, int]]]:
    """One hit count's wound (:func:`_hits_taken`, none for 0 hits) told briefly: its total
    and per outcome read alike, the weight and the weight x marks summed; kept for every
    hunkering state that meets it. Built from the hits' table as the wound's status and
    marks read it (:func:`.attack.hits_read` by :func:`.encounter_fire.status_marks`), not
    from a fighter made for each of its hundreds of outcomes (the track's boxes, limbs and
    luck, which :func:`told_wound` sets aside)."""
    t, core, shooter, metres, hits, exposed = args
    key = ("brief", "take fire", t.token, *args[1:])

    def build() -> tuple[int, list[tuple[Fighter, int, int]]]:
        if not hits:
            read = Weighted({(core.status, core.marks): 1}, 1)
        else:
            sit, cache = fire.fire_situation(t.sits, core, shooter, metres, exposed)
            # read by the fighter the situation is built from: named by the rule alone
            read = hits_read(sit, hits, cache, partial(_status_marks, core, t.house), _status_marks)
        #: (status, the marks' class, :func:`_least_alike`) -> [weight, weight x marks]
        sums: dict[tuple[str, int], list[int]] = {}
        least: dict[int, int] = {}  # each marks' class, once
        for (status, marks), w in read.items():
            cls = least.get(marks)
            if cls is None:
                cls = least[marks] = _least_alike(marks, t.house)
            slot = sums.setdefault((status, cls), [0, 0])
            slot[0] += w
            slot[1] += w * marks
        told = [(told_wound(t.house, core, *k), w, m) for k, (w, m) in sums.items()]
        return read.total, told

    return kept_value(key, build)


def _status_marks(f: Fighter, house: GraydawnHouse, result: HitResult) -> tuple[str, int]:
    """What :func:`told_wound` reads of the wound ``result`` puts on ``f``: the status and the
    marks :func:`.encounter_fire.take_wound` leaves (:func:`.encounter_fire.status_marks`)."""
    return fire.status_marks(f, _taken(result), house)


# ------------------------------------------------------------------------------------------------
# Turns nobody chooses
# ------------------------------------------------------------------------------------------------
def lost_action(
    t: GraydawnTurns, state: FightState, f: Fighter, dice: DiceSource, brief: bool = False
) -> FightState:
    """G10/G12: a fumble took its initiative below zero: it hunkers down automatically."""
    dice.record(Note(f"{f.name} lost its action: hunkers down", "G10/G12"))
    return _hunker(t, state, f, dice, brief)


def _hunker(
    t: GraydawnTurns, state: FightState, f: Fighter, dice: DiceSource, brief: bool = False
) -> FightState:
    if f.levels <= 0:
        return state
    in_open = not f.in_cover
    pen = fire.penalty(f, True, t.house) if in_open else 0
    sit = sup_sit(t, state, f)
    if brief:
        rule = partial(fire.hunker, sit=sit, in_open=in_open, pen=pen)
        return fire_briefly(t, state, f.name, rule, in_open, dice)
    hits = fire.hunker(dice, sit, in_open, pen)
    return take_fire(t, state, f.name, hits, in_open, dice)


def automatic_turn(
    t: GraydawnTurns, state: FightState, f: Fighter, dice: DiceSource, brief: bool = False
) -> tuple[FightState, bool]:
    """The turns the text decides: returns the state and whether the turn is over (``brief``:
    in a preview, the wound it takes told briefly, :func:`brief_wound`)."""
    if f.lost_action:
        return lost_action(t, state, f, dice, brief), True
    if f.panicked:
        return panic_turn(t, state, f, dice, brief)
    ma = t.entries[f.name].combatant.stats.MA
    if f.check in ("fail", "fumble") and not f.in_cover and 0 < f.cover_m <= ma:
        dice.record(Note(f"{f.name} makes a beeline into cover: no dodge roll", "G11/G32"))
        return _move(t, state, f.name, -f.cover_m, stance="full_cover", cover_m=0, moves=0), True
    return state, False


def panic_turn(
    t: GraydawnTurns, state: FightState, f: Fighter, dice: DiceSource, brief: bool = False
) -> tuple[FightState, bool]:
    """G15: panicked until it makes a suppression check (not under fire: at the 1-level TN,
    at its initiative; a pass ends the panic and it acts). Otherwise it flees at full speed:
    in the open under fire it hunkers down with LUCK only and the penalty (G12); running from
    cover through an automatic weapon's suppressing fire it makes the 3-move dodge check (G11);
    other fire does not catch a runner."""
    if f.levels <= 0:
        result = fire.check(dice, sup_sit(t, state, f), 1, 0)
        if result == "pass":
            dice.record(Note(f"{f.name} steadies: the panic ends", "G15"))
            return put(state, evolve(f, panicked=False)), False
    ma = t.entries[f.name].combatant.stats.MA
    if f.levels > 0 and not f.in_cover:
        dice.record(Note(f"{f.name} is panicked in the open: hunkers down", "G12/G15"))
        return _hunker(t, state, f, dice, brief), True
    if f.levels > 0 and any(
        fire.is_automatic(t.entries[s.name]) for s, _, _ in fire_at(t, state, f.name)
    ):
        dice.record(Note(f"{f.name} flees through automatic suppressing fire", "G15"))
        pen = fire.penalty(f, True, t.house)
        sit = sup_sit(t, state, f)
        if brief:
            rule = partial(fire.move_out, sit=sit, moves=3, pen=pen)
            state = fire_briefly(t, state, f.name, rule, True, dice)
        else:
            state = take_fire(t, state, f.name, fire.move_out(dice, sit, 3, pen), True, dice)
    else:
        dice.record(Note(f"{f.name} panics and flees {3 * ma} m", "G15"))
    f = state.combatant(f.name)
    cover_m = f.cover_m + 3 * ma if f.cover_m >= 0 else -1
    return _move(t, state, f.name, 3 * ma, stance="open", cover_m=cover_m, moves=3), True


def _move(
    t: GraydawnTurns,
    state: FightState,
    name: str,
    away: float,
    *,
    stance: str,
    cover_m: int,
    moves: int,
    towards: str | None = None,
) -> FightState:
    """G34 on a line between the sides: moving ``away`` metres from the enemy (negative:
    towards it) changes the distance to every enemy alike, never below 1 m; ``towards`` one
    enemy closes on it to 1 m (a charge or a grapple)."""
    f = state.combatant(name)
    board = state.board
    for c in state.combatants:
        if c.side == f.side:
            continue
        d = board.distance(name, c.name)
        new = 1.0 if c.name == towards else max(1.0, d + away)
        board = board.with_distance(name, c.name, new)
    new_f = evolve(f, stance=stance, cover_m=cover_m, moves=moves)
    if new_f.grappled_by is not None and board.distance(name, new_f.grappled_by) > 1:
        new_f = evolve(new_f, grappled_by=None)
    return evolve(put(state, new_f), board=board)


def end_turn(t: GraydawnTurns, state: FightState, name: str, dice: DiceSource) -> FightState:
    """G13: its actions done, the suppression on it lifts (panic does not)."""
    f = state.combatant(name)
    if f.levels:
        dice.record(StateChange(name, "suppression levels", f.levels, 0, "G13"))
    return put(
        state,
        evolve(
            f,
            acted=True,
            levels=0,
            check="none",
            fired_at=0,
            hits_taken=0,
            ambushed=False,
            pending=(),
        ),
    )
