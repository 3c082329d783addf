"""A graydawn turn plan carried out (G31: declared whole, then done in order, movement first):
shots and bursts (G27/G28), bracing and the one scoped shot (G32/G39), movement and flanking
(G34/G35), charges and grapples with the point-blank follow-up (G36-G38), reloads and jams
(G06/G40), shouldering a slung gun (G39), hunkering and taking cover (G11/G12/G32), first aid and
stabilisation (G19). Under suppression each action takes the penalty and an exposed action that
fails takes 1 hit per full 5 points it missed by (G10/G11). Recovery after the fight is G42.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

from firefight.core.transcript import Note, StateChange
from firefight.core.turns import Action, FightState, evolve
from firefight.dice import DiceSource, Weighted
from firefight.dice.sources import derived_distribution, reduced
from firefight.errors import present
from firefight.rulesets.graydawn import encounter_fire as fire
from firefight.rulesets.graydawn import tactics
from firefight.rulesets.graydawn.attack import AttackOutcome, fumbled, outcome_read
from firefight.rulesets.graydawn.checks import roll_over
from firefight.rulesets.graydawn.contest import contest
from firefight.rulesets.graydawn.encounter_actions import can_shoot, modes
from firefight.rulesets.graydawn.encounter_state import Fighter, put
from firefight.rulesets.graydawn.encounter_turn import (
    _carrying,
    _hunker,
    _move,
    brief_shot,
    may_tell_briefly,
    over_common,
    sup_sit,
    take_fire,
)
from firefight.rulesets.graydawn.models import content_key
from firefight.rulesets.graydawn.plan import plan_attack, stat_penalty
from firefight.rulesets.graydawn.reload import reload_outcome
from firefight.rulesets.graydawn.situation import AttackSituation, AttackSpec, ReloadSpec

if TYPE_CHECKING:
    from firefight.rulesets.graydawn.encounter import GraydawnTurns
    from firefight.rulesets.graydawn.house import GraydawnHouse

MODE = {"auto": "full_auto", "burst": "burst", "single": "single"}


def resolve_turn(
    t: GraydawnTurns, state: FightState, action: Action, dice: DiceSource, brief: bool = False
) -> FightState:
    """Carry out ``action``'s plan for ``action.actor`` (see the module docstring); ``brief``
    (an odds preview): the shot's target told as the rest of the round reads it
    (:func:`.encounter_turn.brief_shot`)."""
    name = action.actor
    f = state.combatant(name)
    head, *rest = action.id.split(":")
    target = action.target
    ma = t.entries[name].combatant.stats.MA
    if head == "wait":
        dice.record(Note(f"{name} waits", "G33"))
        return state
    if head == "hunker":
        return _hunker(t, state, f, dice)
    if head == "full_cover":
        dice.record(StateChange(name, "stance", f.stance, "full_cover", "G32"))
        return put(state, evolve(f, stance="full_cover"))
    if head == "take_cover":
        moves = math.ceil(f.cover_m / ma)
        dice.record(Note(f"{name} moves {moves} x MA into cover: no dodge roll", "G11/G34"))
        return _move(t, state, name, f.cover_m, stance="active_cover", cover_m=0, moves=0)
    if head == "reload":
        return _reload(t, state, f, 1, dice)[0]
    if head == "clear_jam":
        return _clear_jam(t, state, f, dice)
    if head == "shoulder":
        dice.record(StateChange(name, "weapon", "slung", "shouldered", "G39"))
        return put(state, evolve(f, ready=True))
    if head == "pick_up":  # G06: a dropped weapon back in hand, the turn's action
        dice.record(StateChange(name, "weapon", "dropped", "in hand", "G06"))
        return put(state, evolve(f, ready=True))
    if head == "free_weapon":  # G06: out of the scenery, the turn's action, no roll (reading)
        dice.record(StateChange(name, "weapon", "lodged", "free", "G06"))
        return put(state, evolve(f, lodged=False))
    if head == "stand_up":  # G06 (house stand_up = "action"): getting up is the turn
        dice.record(StateChange(name, "prone", True, False, "G06"))
        return put(state, evolve(f, prone=False))
    if head in ("stabilise", "first_aid"):
        patient = present(target, f"action {head} names no one to treat")
        return _medic(t, state, f, state.combatant(patient), head, dice)
    if head == "break_grapple":
        return _break(t, state, f, dice)
    target = present(target, f"action {head} names no target")
    if head == "then":  # the committed rest of the turn (G31)
        state = put(state, evolve(f, pending=f.pending[1:]))
        if not can_shoot(t, state.combatant(name)):
            dice.record(Note(f"{name} cannot fire again", "G31"))
            return state
        return shoot(t, state, name, target, rest[1], dice, actions=int(rest[2]), brief=brief)
    if head == "shoulder_fire":
        dice.record(StateChange(name, "weapon", "slung", "shouldered", "G39"))
        return put(state, evolve(f, ready=True, pending=(f"then:{target}:single:2",)))
    if head == "fire":
        return shoot(t, state, name, target, rest[1], dice, brief=brief)
    if head == "fire2":
        state = shoot(t, state, name, target, rest[1], dice, actions=2, brief=brief)
        after = state.combatant(name)
        return put(state, evolve(after, pending=(f"then:{target}:{rest[1]}:2",)))
    if head == "brace":
        dice.record(StateChange(name, "stance", f.stance, "bracing", "G32"))
        state = put(state, evolve(f, stance="bracing"))
        aim = rest[1] if len(rest) > 1 else None
        return shoot(t, state, name, target, "single", dice, aim=aim, brief=brief)
    if head == "reload_fire":
        state, loaded = _reload(t, state, f, 2, dice)
        if loaded:
            after = state.combatant(name)
            state = put(state, evolve(after, pending=(f"then:{target}:single:2",)))
        return state
    if head == "advance":
        state = _leave(t, state, f, 1, dice)
        if state.combatant(name).out:
            return state
        cover_m = f.cover_m + ma if f.cover_m >= 0 else -1
        state = _move(t, state, name, -ma, stance="open", cover_m=cover_m, moves=1)
        return shoot(t, state, name, target, rest[1], dice, brief=brief)
    if head == "flank":
        return _flank(t, state, f, target, dice, brief)
    if head in ("strike", "grapple"):
        return _close_in(t, state, f, target, head, dice, brief)
    raise AssertionError(action.id)  # pragma: no cover - legal_actions lists only these


def _leave(
    t: GraydawnTurns, state: FightState, f: Fighter, moves: int, dice: DiceSource
) -> FightState:
    """G11: leaving cover (or moving in the open) under suppressing fire: the dodge/cover
    check for the moves made, hits per full 5 missed; moving from the open into cover needs
    none (handled by take_cover)."""
    if f.levels <= 0:
        return state
    pen = fire.penalty(f, True, t.house)
    hits = fire.move_out(dice, sup_sit(t, state, f), moves, pen)
    return take_fire(t, state, f.name, hits, True, dice)


def shoot(
    t: GraydawnTurns,
    state: FightState,
    name: str,
    target: str,
    mode: str,
    dice: DiceSource,
    *,
    actions: int = 1,
    moves: int = 0,
    aim: str | None = None,
    point_blank: bool = False,
    brief: bool = False,
) -> FightState:
    """One firing action (G04, G27, G28) at the G31 penalty for the turn's actions, the G10/G11
    suppression penalty, and the hits an exposed failure takes (G11). ``brief`` (an odds
    preview): the target's wound told as the rest of the round reads it, where it reads no
    more (:func:`.encounter_turn.brief_shot`): exact dice branch on a few outcomes, not on
    every way the wound fell on the track."""
    a, tgt = state.combatant(name), state.combatant(target)
    w = t.entries[name].combatant.armed()
    if a.stance == "full_cover":  # G32: to shoot it must peek out (active cover)
        dice.record(StateChange(name, "stance", "full_cover", "active_cover", "G32"))
        a = evolve(a, stance="active_cover")
        state = put(state, a)
    if tgt.out and not dice.is_exact:
        dice.record(Note(f"{name} fires at {target}, already down (committed, G31)", "G31"))
    in_open = not a.in_cover
    pen = fire.penalty(a, in_open, t.house)
    extra = tactics.actions_counted(moves, actions) - 1
    mode_name = "aimed" if aim else MODE.get(mode, mode)
    rounds = min(w.rof, a.ammo) if mode == "auto" else None
    metres = 1.0 if point_blank else state.board.distance(name, target)
    close = metres <= 1 and not point_blank
    sit, cache = t.sits.attack(
        a,
        tgt,
        mode=mode_name,
        metres=metres,
        rounds=rounds,
        extra_actions=max(0, extra),
        penalty=pen,
        point_blank=point_blank,
        close_quarters=close,
        aim=aim,
    )
    room = fire.hits_room(a, a.fired_at) if a.levels > 0 else 0
    per = t.house.suppression.points_missed_per_hit
    floor = -per * room - (per - 1) if room else -1
    used = {"full_auto": rounds or 0, "burst": t.house.burst_rounds}.get(mode_name, 1)

    spent = evolve(a, ammo=max(0, a.ammo - used), overextended=False)

    def applied(read: fire.ShotRead) -> _Shot:
        """The attack's outcome (as the shot reads it, :func:`.encounter_fire.shot_read`) on
        both fighters: a fumble's consequences and wound on the attacker, the hit on the
        target."""
        luck, critical, failed, own, missed_by, hit = read
        new_a = fire.attacker_left(spent, luck, critical, failed, own, t.house)
        new_t = fire.take_hit(tgt, hit, t.house)
        return new_a, new_t, (missed_by // per if a.levels > 0 else 0)

    def once(d: DiceSource) -> _Shot:
        o = fire.attack(d, sit, cache, floor)
        new_a, new_t, hits = applied(fire.shot_read(o))
        if w.is_firearm:
            d.record(StateChange(name, "rounds in magazine", a.ammo, new_a.ammo, "G27/G28"))
        fire.record_status(d, tgt, new_t)
        fire.record_status(d, a, new_a)
        return new_a, new_t, hits

    # one sub-rule per shot, keyed by what it depends on: exact dice branch on the states it
    # leaves, not on every location and wound behind them
    key = ("shot", t.token, a, tgt, mode_name, metres, rounds, extra, pen, point_blank, aim, floor)
    why = f"{name} fires at {target}"
    if brief:
        too = may_tell_briefly(state, tgt)
        new_a, new_t, hits = dice.derive(
            why,
            partial(_shot_path, once, t.house, a, tgt, too),
            (*key, "briefly", too),
            exact=partial(
                _shot_table,
                t,
                (a, tgt, too),
                applied,
                partial(_attack_read, partial(fire.attack, sit=sit, cache=cache, miss_floor=floor)),
                partial(outcome_read, sit, cache, floor, fire.shot_read),
                ("attack read", content_key(sit), floor),
            ),
            keep=True,
        )
    else:
        new_a, new_t, hits = dice.derive(why, once, key, keep=True)
    state = put(put(state, new_a), new_t)
    if hits:
        dice.record(Note(f"{name} missed under fire: {hits} hit(s)", "G11"))
        state = take_fire(t, state, name, hits, True, dice)
    if state.combatant(target).out:
        state = _release(state, target)
    return state


_Shot = tuple[Fighter, Fighter, int]


def _told(
    house: GraydawnHouse, a: Fighter, tgt: Fighter, shot: _Shot, target_too: bool
) -> tuple[tuple[Fighter, Fighter, int], tuple[int, int] | None, tuple[int, int] | None]:
    """A shot's outcome told briefly (:func:`.encounter_turn.brief_shot`): the attacker when
    no hits under fire follow (its turn ends, or the rest of it is a decision of its own: the
    rest reads its wounds as the round's end does), the target where ``target_too``
    (:func:`.encounter_turn.may_tell_briefly`); each fighter the shot left alone is itself.
    Returns the outcome told and, per fighter told briefly, (its marks, its stand-in's)."""
    new_a, new_t, hits = shot
    marks_a = marks_t = None
    if hits == 0 and new_a != a:
        new_a, m = brief_shot(house, a, new_a, to_come=False)
        marks_a = m, new_a.marks
    if target_too and new_t != tgt:
        new_t, m = brief_shot(house, tgt, new_t, to_come=not tgt.acted)
        marks_t = m, new_t.marks
    return (new_a, new_t, hits), marks_a, marks_t


def _shot_path(
    once: Callable[[DiceSource], _Shot],
    house: GraydawnHouse,
    a: Fighter,
    tgt: Fighter,
    target_too: bool,
    dice: DiceSource,
) -> _Shot:
    """A shot told briefly (:func:`_told`), path by path: each fighter told briefly carries
    the rest of its own marks."""
    (new_a, new_t, hits), marks_a, marks_t = _told(house, a, tgt, once(dice), target_too)
    if marks_a is not None:
        new_a = _carrying(new_a, marks_a[0])
    if marks_t is not None:
        new_t = _carrying(new_t, marks_t[0])
    return new_a, new_t, hits


def _attack_read(attack: Callable[[DiceSource], AttackOutcome], dice: DiceSource) -> fire.ShotRead:
    """The attack's outcome as the shot reads it (:func:`.encounter_fire.shot_read`)."""
    return fire.shot_read(attack(dice))


def _shot_table(
    t: GraydawnTurns,
    fighters: tuple[Fighter, Fighter, bool],
    applied: Callable[[fire.ShotRead], _Shot],
    attack: Callable[[DiceSource], fire.ShotRead],
    attack_table: Callable[[], Weighted[fire.ShotRead]],
    attack_key: Hashable,
) -> Weighted[_Shot]:
    """A shot told briefly (:func:`_told`) from the kept distributions of the attack's outcome
    as the shot reads it (:func:`.encounter_fire.shot_read`, by the situation's content: every
    state that meets it shares it; :func:`.attack.outcome_read`: outcomes alike there, a
    location not crippled, a graze, are one; a fumble's wound to the attacker among them),
    each applied as the shot applies it: a few hundred, not a replay per path, told alike
    merged, each fighter told briefly carrying its marks' exact mean there (integer sums over
    one denominator)."""
    a, tgt, too = fighters
    outcomes = derived_distribution(attack, attack_key, exact=attack_table)
    #: (outcome told, attacker told briefly, target told briefly) -> denominator -> sums of
    #: the weights, the attacker's marks and the target's marks times the weights
    acc: dict[Any, dict[int, list[int]]] = {}
    den = outcomes.total
    for o, x in outcomes.items():
        told, marks_a, marks_t = _told(t.house, a, tgt, applied(o), too)
        slot = acc.setdefault((told, marks_a is not None, marks_t is not None), {})
        sums = slot.setdefault(den, [0, 0, 0])
        sums[0] += x
        sums[1] += x * (marks_a[0] if marks_a else 0)
        sums[2] += x * (marks_t[0] if marks_t else 0)
    common, rows = over_common(acc)
    out: dict[_Shot, int] = {}
    for ((new_a, new_t, hits), brief_a, brief_t), (w, m_a, m_t) in rows:
        if brief_a:
            new_a = _carrying(new_a, Fraction(m_a, w))
        if brief_t:
            new_t = _carrying(new_t, Fraction(m_t, w))
        out[new_a, new_t, hits] = w
    return reduced(list(out), list(out.values()), common)


def _release(state: FightState, fallen: str) -> FightState:
    """A grapple ends when either side is out of the fight."""
    for c in state.combatants:
        if c.grappled_by == fallen or (c.name == fallen and c.grappled_by is not None):
            state = put(state, evolve(c, grappled_by=None))
    return state


def _flank(
    t: GraydawnTurns,
    state: FightState,
    f: Fighter,
    target: str,
    dice: DiceSource,
    brief: bool = False,
) -> FightState:
    """G35: two moves to where the target's cover does not protect it: its cover stops
    nothing from this flanker and it adds no dodge/cover skill, until its next turn."""
    name = f.name
    ma = t.entries[name].combatant.stats.MA
    state = _leave(t, state, f, 2, dice)
    f = state.combatant(name)
    if f.out:
        return state
    cover_m = f.cover_m + 2 * ma if f.cover_m >= 0 else -1
    state = _move(t, state, name, 0, stance="open", cover_m=cover_m, moves=2)
    tgt = state.combatant(target)
    state = put(state, evolve(tgt, flanked_by=(*tgt.flanked_by, name)))
    dice.record(Note(f"{name} flanks {target}", "G35"))
    f = state.combatant(name)
    if can_shoot(t, f) and f.ready:
        metres = state.board.distance(name, target)
        from firefight.rulesets.graydawn.encounter_actions import reach

        if reach(t, f, metres):
            return shoot(t, state, name, target, modes(t, f)[0], dice, moves=2, brief=brief)
    return state


def _close_in(
    t: GraydawnTurns,
    state: FightState,
    f: Fighter,
    target: str,
    how: str,
    dice: DiceSource,
    brief: bool = False,
) -> FightState:
    """Closing to arm's length (G34 moves, the first free), then a melee attack (G04 CQB) or a
    grapple (G36): a successful grapple holds the target - its gun cannot fire until it breaks
    free (G38) - and a gun in the grappler's hand fires a point-blank follow-up at no penalty
    for maximum damage (G36)."""
    name = f.name
    ma = t.entries[name].combatant.stats.MA
    metres = state.board.distance(name, target)
    moves = math.ceil((metres - 1) / ma) if metres > 1 else 0
    if moves:
        state = _leave(t, state, f, moves, dice)
        if state.combatant(name).out:
            return state
        cover_m = f.cover_m + int(metres - 1) if f.cover_m >= 0 else -1
        state = _move(
            t,
            state,
            name,
            -(metres - 1),
            stance="open",
            cover_m=cover_m,
            moves=moves,
            towards=target,
        )
    if how == "strike":
        return shoot(t, state, name, target, "melee", dice, moves=moves, brief=brief)
    a, tgt = state.combatant(name), state.combatant(target)
    extra = max(0, tactics.actions_counted(moves, 1) - 1)
    sit, cache = t.sits.attack(
        a,
        tgt,
        mode="melee",
        metres=1.0,
        extra_actions=extra,
        grapple=True,
        penalty=fire.penalty(a, not a.in_cover, t.house),
    )
    c = contest(dice, sit, plan_attack(sit), 2, False, cache)
    a = evolve(a, luck=c.attacker_luck, overextended=False)
    state = put(state, a)
    if c.critical is not None:  # G06: the unarmed list, the same rule as a strike's
        o = fumbled(dice, sit, c.critical, c.attacker_luck, None, 0, cache)
        new_a = fire.attacker_left(a, *fire.shot_read(o)[:4], t.house)
        fire.record_status(dice, a, new_a)
        return put(state, new_a)
    if c.margin < 0:
        dice.record(Note(f"{name} fails to grapple {target}", "G36"))
        return state
    dice.record(StateChange(target, "grappled by", tgt.grappled_by, name, "G36/G38"))
    state = put(state, evolve(tgt, grappled_by=name, luck=c.target_luck))
    a = state.combatant(name)
    if can_shoot(t, a) and a.ready:
        dice.record(Note(f"{name} fires point-blank: maximum damage on a hit", "G36"))
        return shoot(t, state, name, target, modes(t, a)[0], dice, point_blank=True, brief=brief)
    return state


def _break(t: GraydawnTurns, state: FightState, f: Fighter, dice: DiceSource) -> FightState:
    """G38: breaking a grapple: a close-combat roll with brawling (no martial arts while
    holding a gun) against the grappler's."""
    holder = present(f.grappled_by, f"{f.name} is not grappled")
    h = state.combatant(holder)
    sit, cache = t.sits.attack(f, h, mode="melee", metres=1.0, grapple=True, attack_roll=False)
    c = contest(dice, sit, plan_attack(sit), 2, False, cache)
    if c.critical is None and c.margin >= 0:
        dice.record(StateChange(f.name, "grappled by", holder, None, "G38"))
        return put(state, evolve(f, grappled_by=None, luck=c.attacker_luck))
    dice.record(Note(f"{f.name} cannot break free", "G38"))
    return put(state, evolve(f, luck=c.attacker_luck))


def _reload(
    t: GraydawnTurns, state: FightState, f: Fighter, actions: int, dice: DiceSource
) -> tuple[FightState, bool]:
    """G40 with :func:`.reload.reload_outcome`: the only action succeeds; as an extra action a
    REF + skill check vs 15 at -3 per extra action; a tube-fed gun loads shell by shell."""
    e = t.entries[f.name]
    w = e.combatant.armed()
    if w.tube_fed:
        method = "shells" if actions == 1 else "single_shell"
    else:
        method = "only_action" if actions == 1 else "extra_action"
    spec = AttackSpec.model_construct(
        mode="reload", reload=ReloadSpec(method=method, actions=actions)
    )
    sit = AttackSituation.model_construct(
        attacker=fire.combatant_now(e, f), attack=spec, house=t.house
    )
    o = reload_outcome(sit, dice)
    if not o.loaded:
        if o.fumble and w.is_firearm:
            return put(state, evolve(f, jammed=True)), False
        return state, False
    if w.tube_fed:
        ammo, spares = min(w.magazine, f.ammo + o.shells), f.spares
    else:
        ammo, spares = w.magazine, f.spares - 1
    dice.record(StateChange(f.name, "rounds in magazine", f.ammo, ammo, "G40"))
    return put(state, evolve(f, ammo=ammo, spares=spares)), True


def _clear_jam(t: GraydawnTurns, state: FightState, f: Fighter, dice: DiceSource) -> FightState:
    """G06: an action and an easy (10) weaponsmith check or a standard (15) weapon-skill check
    (the better chance is taken); clearing loses 1d3 rounds as the action is cycled. The
    weaponsmith check is TECH's (a CP2020 TECH skill), the weapon skill REF's, less the wound
    state's REF penalty (G20: TECH takes none), as the reload check (G40)."""
    c = t.entries[f.name].combatant
    w = c.armed()
    h = t.house
    smith = c.stats.TECH + c.skill("weaponsmith")
    skill = c.stats.REF + stat_penalty(c.stats.REF, f.marks) + c.skill(w.skill)
    if (
        c.skill("weaponsmith") > 0
        and h.jam_clear_weaponsmith_tn - smith <= h.jam_clear_skill_tn - skill
    ):
        base, tn, what = smith, h.jam_clear_weaponsmith_tn, "weaponsmith"
    else:
        base, tn, what = skill, h.jam_clear_skill_tn, w.skill
    ok, _ = roll_over(
        dice, name=f"{f.name} clears the jam ({what})", base=base, target=tn, rule="G06"
    )
    if not ok:
        return state
    lost = dice.roll("d3", why="rounds lost clearing the jam (G06)").total
    ammo = max(0, f.ammo - lost)
    dice.record(StateChange(f.name, "rounds in magazine", f.ammo, ammo, "G06"))
    return put(state, evolve(f, jammed=False, ammo=ammo))


def _medic(
    t: GraydawnTurns, state: FightState, f: Fighter, patient: Fighter, how: str, dice: DiceSource
) -> FightState:
    """G19: a doctor stabilises (TECH + doctor vs 15, reading); first aid (TECH + first aid vs
    15) buys 1d6 minutes (20 rounds each), or stabilises on a critical success."""
    c = t.entries[f.name].combatant
    skill = "doctor" if how == "stabilise" else "first_aid"
    passed, critical = fire.medical_check(
        dice,
        f.name,
        c.stats.TECH + c.skill(skill),
        15,
        f"{skill.replace('_', ' ')} on {patient.name}",
    )
    if not passed:
        return state
    if how == "stabilise" or critical:
        new = evolve(patient, status="stable", mortal_rounds=0, dying_rounds=0)
        fire.record_status(dice, patient, new)
        return put(state, new)
    minutes = dice.roll("d6", why="minutes first aid buys (G19)").total
    new = evolve(patient, first_aid=True, dying_rounds=patient.dying_rounds - 20 * minutes)
    dice.record(Note(f"first aid gives {patient.name} {minutes} more minute(s)", "G19"))
    return put(state, new)


def after_fight_lines(t: GraydawnTurns, state: FightState) -> list[str]:
    """G42 (and G19/G22 left over): what each combatant's wounds need after the fight."""
    h = t.house
    out = []
    for f in state.combatants:
        if f.status == "dead":
            out.append(f"{f.name} is dead.")
            continue
        lines = []
        if f.status == "dying":
            left = h.suppression.rounds_per_turn - f.dying_rounds
            lines.append(f"dying: dies in {left} round(s) unless a doctor stabilises them (G19)")
        elif f.marks > h.mortal_above and f.status != "stable":
            lines.append(
                "mortal: bleeds a mark and makes a death save every turn until a doctor "
                "stabilises them (G19)"
            )
        real = f.wounding + f.crippling
        if real:
            lines.append(
                f"{real} wounding mark(s): heal 1/2 a point a day ({2 * real} days), "
                f"1 a day with rest and a TN 15 first aid or doctor check ({real} days)"
            )
        if f.minor:
            healed = min(4, f.minor)
            lines.append(
                f"{f.minor} minor wound(s): {healed} heal within a day of rest"
                + (" (not while mortal)" if f.marks > h.mortal_above else "")
            )
        if f.stun_marks:
            lines.append(f"{f.stun_marks} stun mark(s): heal 1 an hour ({f.stun_marks} h)")
        for loc in f.crippled:
            if loc in f.severed:
                lines.append(
                    f"{loc.replace('_', ' ')} severed: stabilisation TN 15, death saves "
                    "every turn until then (G22)"
                )
            else:
                lines.append(
                    f"{loc.replace('_', ' ')} crippled: stabilisation TN 15 (first aid "
                    "will do), bones to set (G22)"
                )
        e = t.entries[f.name]
        spent = e.combatant.luck_available - f.luck
        if spent > 0:
            lines.append(f"{spent} luck point(s) spent: they return at the next session (G17)")
        if not lines:
            lines.append("unhurt")
        out.append(f"{f.name}: " + "; ".join(lines) + ".")
    return out
