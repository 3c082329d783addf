"""One round of suppression against one target, in the text's order (G16): the suppressing-fire
phase puts levels on the target (G09 attacks vs the range TN, G29 covering fire, G30 lanes), fire
may hit it, an area weapon may make it dive (G14), it makes its suppression check (G10, G08,
G35, G15), then takes its actions under the penalty (:mod:`.suppression_actions`).

:func:`resolve_suppression` is the one rule; :func:`.odds.suppression_odds` enumerates the same
:func:`_run` on exact dice. The encounter's round loop calls the stages here one by one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from firefight.core.house import house_events
from firefight.core.resolution import Resolution
from firefight.core.transcript import Check, Modifier, Note, StateChange, Transcript
from firefight.dice import NATURAL_ONE, DiceSource, Weighted, exact, exact_tagged
from firefight.errors import present
from firefight.rulesets.graydawn import tactics
from firefight.rulesets.graydawn.house import SuppressionHouse
from firefight.rulesets.graydawn.models import content_key
from firefight.rulesets.graydawn.plan import stat_penalty, wounded_base
from firefight.rulesets.graydawn.suppression import (
    CheckResult,
    DiveResult,
    action_penalty,
    armour_aid,
    base_levels,
    burst_table_hits,
    check_result,
    check_tn,
    covering_levels,
    lane_levels,
    levels_from_attack,
    neighbour_spaces,
    panic_behaviour,
    range_tn,
)
from firefight.rulesets.graydawn.suppression_actions import (
    _actions,
    _actions_table,
    _defence_base,
    _mods,
    _panicked,
    _plan,
    _roll_total,
    _Round,
)
from firefight.rulesets.graydawn.suppression_situation import (
    Shooter,
    SuppressionSituation,
    lane_width_missing,
    shooter_band,
    shooter_rounds,
)

RULESET_ID = "graydawn"


# ------------------------------------------------------------------------------------------------
# Resolution
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SuppressionOutcome:
    """What odds enumerate: small and hashable."""

    levels: int
    check: CheckResult
    hits: int  # hits on the target this round, at most the rounds fired at it
    fire_hits: int  # of those, from covering fire and firing lanes (G29, G30)
    panicked: bool
    lost_action: bool  # a fumble took initiative below 0 (G10), or it dived (G14)
    dive: DiveResult = ""


def fire_levels(s: Shooter, rules: SuppressionHouse) -> int:
    """G29/G30: levels of covering fire (per firing action), burst covering fire (per burst)
    or a firing lane (shots / width); no roll involved."""
    w = s.armed()
    rounds = shooter_rounds(s, rules)
    if s.fire == "covering":
        return covering_levels(rounds // w.rof, rules)
    if s.fire == "burst":
        return covering_levels(rounds // rules.burst_rounds, rules)
    if s.lane_width_m is None:
        raise lane_width_missing(s.name)
    return lane_levels(rounds, s.lane_width_m)


@dataclass(frozen=True)
class _AttackTerms:
    """The numbers of one shooter's G09 attack, before its roll."""

    base: int  # levels from the rounds and the weapon, before the attack roll
    band: str
    tn: int
    before: int  # (REF+CL)/2 before and after wound penalties
    after: int
    skill: int
    mods: int
    wa: int
    luck: int

    @property
    def bonus(self) -> int:
        """What the attack adds to its d10x."""
        return self.after + self.skill + self.mods + self.wa + self.luck


def _attack_terms(sit: SuppressionSituation, s: Shooter) -> _AttackTerms:
    """G09: the attack's numbers, read by the rule (:func:`_shooter_levels`) and its table."""
    rules, w = sit.rules, s.armed()
    base = base_levels(w, shooter_rounds(s, rules), rules)
    band = shooter_band(s, sit.house)
    before, after = wounded_base(s, "CL", False)
    return _AttackTerms(
        base,
        band,
        range_tn(band, rules),
        before,
        after,
        s.skill(w.skill),
        sum(s.modifiers.values()),
        w.wa if rules.suppressing_fire_wa and w.wa else 0,
        s.luck_spent * sit.house.luck_point_bonus,
    )


def _shooter_levels(sit: SuppressionSituation, s: Shooter, dice: DiceSource) -> int:
    """G09 / G29 / G30: the levels one shooter puts on the target."""
    rules, w = sit.rules, s.armed()
    rounds = shooter_rounds(s, rules)
    if s.fire != "suppressing":
        levels = fire_levels(s, rules)
        how = {"covering": "covering fire", "burst": "burst covering fire", "lane": "firing lane"}
        rule = "G30" if s.fire == "lane" else "G29"
        dice.record(Note(f"{s.name}: {how[s.fire]}, {rounds} rounds -> {levels} level(s)", rule))
        return levels
    base = base_levels(w, rounds, rules)
    dice.record(Note(f"{s.name}: {rounds} rounds from a {w.kind} -> {base} base level(s)", "G09"))
    a = _attack_terms(sit, s)
    if a.after != a.before:
        dice.record(
            Modifier("wound state", a.after - a.before, "suppressing-fire attack", s.name, "G20")
        )
    _mods(dice, s.modifiers, "suppressing-fire attack", s.name, "G09")
    if a.wa:
        dice.record(
            Modifier("weapon accuracy (WA)", a.wa, "suppressing-fire attack", w.name, "G09")
        )
    if a.luck:
        dice.record(Modifier("luck points", a.luck, "suppressing-fire attack", s.name, "G17"))
    dice.record(
        Note(
            f"{s.name} attack base: (REF+CL)/2 {a.after} + {w.skill} {a.skill} "
            f"+ modifiers {a.mods + a.wa + a.luck:+d} = {a.bonus}; TN {a.tn} at {a.band} range",
            "G09",
        )
    )
    total, _ = _roll_total(dice, f"{s.name} suppressing-fire attack (G09)", a.bonus)
    more = levels_from_attack(total, a.tn, rules)
    dice.record(
        Check(
            f"{s.name} suppressing-fire attack at {a.band} range",
            total,
            a.tn,
            total >= a.tn,
            "G09",
            f"+{more} level(s), {base + more} in all",
        )
    )
    return base + more


def _levels_table(sit: SuppressionSituation, index: int) -> Weighted[int]:
    """:func:`_shooter_levels` on exact dice: the levels from the attack d10x's distribution,
    not from replaying the attack once per value of an open-ended roll."""
    s, rules = sit.shooters[index], sit.rules
    if s.fire != "suppressing":
        return Weighted({fire_levels(s, rules): 1}, 1)
    a, out = _attack_terms(sit, s), dict[int, int]()
    roll = exact("d10x")
    for v, w in roll.items():
        levels = a.base + levels_from_attack(a.bonus + v, a.tn, rules)
        out[levels] = out.get(levels, 0) + w
    return Weighted(out, roll.total)


def shooter_levels(sit: SuppressionSituation, index: int, dice: DiceSource) -> int:
    """G09 / G29 / G30: one shooter's levels as a sub-rule kept by content, so exact odds
    branch on the levels (a few values), not on the attack roll (hundreds)."""
    s = sit.shooters[index]
    return dice.derive(
        f"{s.name} levels",
        partial(_shooter_levels, sit, s),
        ("levels", content_key(sit), index),
        exact=partial(_levels_table, sit, index),
        keep=True,
    )


def _all_levels(sit: SuppressionSituation, dice: DiceSource) -> int:
    return sum(shooter_levels(sit, i, dice) for i in range(len(sit.shooters)))


def _defence_hit(dice: DiceSource, *, sit: SuppressionSituation, why: str) -> bool:
    """G29/G30: the target's defence roll; a total of 0 or less is hit."""
    t, rules = sit.target, sit.rules
    stat, skill = _defence_base(t)
    mods = sum(t.defence_modifiers.values())
    total, _ = _roll_total(dice, f"{t.name} {why} (G29)", stat + skill + mods)
    hit = total <= rules.covering_hit_at_or_below
    dice.record(
        Check(
            f"{t.name} {why}",
            total,
            rules.covering_hit_at_or_below,
            not hit,
            "G29",
            "hit" if hit else "missed",
        )
    )
    return hit


def _fire_hits(sit: SuppressionSituation, dice: DiceSource) -> int:
    """G29: one defence roll per covering shooter (one round at most hits), one per burst;
    G30: one roll inside a lane, a 0 or less -> burst-table hits."""
    rules, hits = sit.rules, 0
    for i, s in enumerate(sit.shooters):
        rounds = shooter_rounds(s, rules)
        if s.fire == "covering":
            hit = dice.derive(
                "covering fire",
                partial(_defence_hit, sit=sit, why=f"defence vs {s.name}'s covering fire"),
                key=("cov", id(sit), i),
            )
            hits += rules.covering_max_hits if hit else 0
        elif s.fire == "burst":
            for b in range(rounds // rules.burst_rounds):
                hit = dice.derive(
                    "burst",
                    partial(_defence_hit, sit=sit, why=f"defence vs {s.name}'s burst {b + 1}"),
                    key=("burst", id(sit)),
                )
                hits += 1 if hit else 0
        elif s.fire == "lane" and sit.target.in_lane == "inside":
            hits += dice.derive("lane", partial(_lane_hits, sit=sit, s=s), key=("lane", id(sit), i))
    return hits


def _lane_hits(dice: DiceSource, *, sit: SuppressionSituation, s: Shooter) -> int:
    if not _defence_hit(dice, sit=sit, why=f"defence inside {s.name}'s firing lane"):
        return 0
    face = dice.roll("d6", why=f"{sit.target.name} hits in the lane, burst table (G30)").total
    return burst_table_hits(face, sit.house)


def _dive(sit: SuppressionSituation, dice: DiceSource) -> tuple[DiveResult, bool]:
    """G14: diving for cover from an area weapon -> ("half"/"full" damage, next action lost)."""
    a = present(sit.area, "diving for cover (G14) needs an area attack")
    t, rules = sit.target, sit.rules
    direct = a.distance_m <= rules.direct_hit_m
    if not a.dive:
        dice.record(Note(f"{t.name} does not dive: full blast", "G14"))
        return "full", False
    if a.delivery == "timed":
        if a.notice_tn is not None:
            total, _ = _roll_total(
                dice, f"{t.name} notices the incoming weapon (G14)", a.notice_base
            )
            heard = total >= a.notice_tn
            dice.record(Check(f"{t.name} awareness/notice", total, a.notice_tn, heard, "G14"))
            if not heard:
                return "full", False
        if direct:
            dice.record(
                Note(f"{t.name} dives, but a direct hit (<= {rules.direct_hit_m} m): full", "G14")
            )
            return "full", True
        dice.record(Note(f"{t.name} dives for cover: misses its next action, half damage", "G14"))
        return "half", True
    stat, skill = _defence_base(t)
    total, _ = _roll_total(dice, f"{t.name} dives for cover (G14)", stat + skill)
    ok = total >= rules.dive_tn and not direct
    dice.record(
        Check(
            f"{t.name} dodge/cover dive",
            total,
            rules.dive_tn,
            total >= rules.dive_tn,
            "G14",
            "half damage" if ok else "full damage",
        )
    )
    return ("half" if ok else "full"), True


def _check_base(sit: SuppressionSituation) -> int:
    """What :func:`_check` adds to its d10x (see there)."""
    t = sit.target
    aid = armour_aid(t.armour.torso, sit.rules)
    cl_pen = stat_penalty(t.stats.CL, t.wounds.marks)
    return t.stats.CL + cl_pen + t.dodge_cover + aid + sum(t.check_modifiers.values())


def _check_table(sit: SuppressionSituation, tn: int) -> Weighted[CheckResult]:
    """:func:`_check` on exact dice: its result from the d10x's distribution (split by the
    natural-1 tag), not from replaying the check once per value."""
    return _check_weights(_check_base(sit), tn, sit.rules)


@lru_cache(maxsize=4096)
def _check_weights(base: int, tn: int, rules: SuppressionHouse) -> Weighted[CheckResult]:
    """:func:`_check_table` by the numbers it reads: every level count with the same TN (the
    TN stops growing at 30) shares one table."""
    out = dict[CheckResult, int]()
    groups = exact_tagged("d10x")
    for tags, d in groups:
        for v, w in d.items():
            result = check_result(base + v, NATURAL_ONE in tags, tn, rules)
            out[result] = out.get(result, 0) + w
    return Weighted(out, groups[0][1].total)


def _check(sit: SuppressionSituation, levels: int, tn: int, dice: DiceSource) -> CheckResult:
    """G10 (with G08): CL + Dodge/Cover + armour aid + modifiers + 1d10 vs the levels' TN."""
    t, rules = sit.target, sit.rules
    aid = armour_aid(t.armour.torso, rules)
    if aid:
        dice.record(
            Modifier("armour aid", aid, "suppression check", f"torso SP {t.armour.torso}", "G08")
        )
    mods = _mods(dice, t.check_modifiers, "suppression check", t.name, "G10")
    cl_pen = stat_penalty(t.stats.CL, t.wounds.marks)
    if cl_pen:
        dice.record(Modifier("wound state (CL)", cl_pen, "suppression check", t.name, "G20"))
    base = t.stats.CL + cl_pen + t.dodge_cover + aid + mods
    dice.record(
        Note(
            f"{t.name} check base: CL {t.stats.CL} + Dodge/Cover {t.dodge_cover} "
            f"+ modifiers {cl_pen + aid + mods:+d} = {base}; TN {tn} for {levels} level(s)",
            "G10",
        )
    )
    total, natural_one = _roll_total(dice, f"{t.name} suppression check (G10)", base)
    result = check_result(total, natural_one, tn, rules)
    dice.record(
        Check(
            f"{t.name} suppression check ({levels} levels)",
            total,
            tn,
            result == "pass",
            "G10",
            result,
        )
    )
    return result


def check(sit: SuppressionSituation, levels: int, tn: int, dice: DiceSource) -> CheckResult:
    """:func:`_check` as a sub-rule kept by content: exact odds branch on its five results."""
    return dice.derive(
        "check",
        partial(_check, sit, levels, tn),
        ("check", content_key(sit), levels, tn),
        exact=partial(_check_table, sit, tn),
        keep=True,
    )


def _run(sit: SuppressionSituation, dice: DiceSource) -> tuple[SuppressionOutcome, dict[str, Any]]:
    """One round against one target, in the order of operations (G16). On exact dice nothing
    is recorded, what is only told (the summary's figures, the neighbours, the panic table's
    behaviour) is skipped: odds read the outcome alone, replayed once per path (Andre's
    suppression ~1,700 times)."""
    rules, t = sit.rules, sit.target
    log = not dice.is_exact
    summary: dict[str, Any] = {}
    # suppressing-fire phase: levels, ammunition (G09, G29, G30)
    levels = dice.derive("suppression levels", lambda d: _all_levels(sit, d), key=("all", id(sit)))
    rounds_total, shotgun_shots = 0, 0
    for s in sit.shooters:
        w = s.armed()
        n = shooter_rounds(s, rules)
        rounds_total += n
        shotgun_shots += n if (w.kind == "shotgun" and s.fire == "covering") else 0
        if log:
            dice.record(
                StateChange(s.name, "rounds in magazine", w.magazine, w.magazine - n, "G09")
            )
    if log:
        summary["rounds fired at target"] = rounds_total
        if sit.shooters:
            dice.record(StateChange(t.name, "suppression levels", 0, levels, "G09/G10"))
        summary["suppression levels"] = levels
    fire_hits = 0
    if any(s.fire != "suppressing" for s in sit.shooters):
        fire_hits = dice.derive("fire hits", lambda d: _fire_hits(sit, d), key=("fire", id(sit)))
        summary["hits from covering fire / lane"] = fire_hits
    spaces = neighbour_spaces(sit.shooters, rules) if log else -1  # told, never rolled
    if spaces >= 0:
        cover_levels = sum(fire_levels(s, rules) for s in sit.shooters if s.fire != "suppressing")
        near = [nb for nb in t.neighbours if nb.spaces <= spaces]
        for nb in near:
            dice.record(StateChange(nb.name, "suppression levels", 0, cover_levels, "G29"))
        summary["neighbours suppressed"] = [nb.name for nb in near]
    dive: DiveResult = ""
    lost_action = False
    if sit.area is not None:
        dive, lost_action = dice.derive("dive", lambda d: _dive(sit, d), key=("dive", id(sit)))
        summary["blast damage"] = dive
    # the suppression check (G10), flushing (G35), fumble and panic (G10, G15, G33)
    result: CheckResult = "none"
    panicked, auto_hunker = False, False
    if levels > 0:
        tn = check_tn(levels, rules, shotgun_shots)
        summary["check TN"] = tn
        result = check(sit, levels, tn, dice)
        summary["check"] = result
        if result == "panic":
            panicked = True
        elif result in ("fail", "fumble") and t.stance.flanked:
            if tactics.flushed_result(t.cover_within_one_move) == "panic":
                dice.record(
                    Note(f"{t.name} is flanked, fails and has no cover in reach: panics", "G35")
                )
                panicked = True
            elif log:
                dice.record(
                    Note(f"{t.name} is flushed out: shifts to cover within one move", "G35")
                )
        if result == "fumble":
            if t.initiative is not None:
                new, lost = tactics.initiative_after_fumble(t.initiative, levels)
                dice.record(StateChange(t.name, "initiative", t.initiative, new, "G10"))
                if lost:
                    dice.record(
                        Note(f"{t.name} misses its action; re-rolls initiative next round", "G10")
                    )
                    auto_hunker = True
            elif log:
                dice.record(Note(f"{t.name}: initiative -{levels}", "G10"))
        # the panic table's behaviour is told, never read: exact odds need not branch on it
        if panicked and log:
            dice.record(StateChange(t.name, "stance", "-", "panic", "G15"))
            if sit.panic_table:
                dice.derive("panic", lambda d: panic_behaviour(d, t.name), key=("panic", id(sit)))
        if log:
            for where, open_ in (("behind cover", False), ("in the open", True)):
                summary[f"penalty {where}"] = -action_penalty(
                    levels, result, in_open=open_, rules=rules, bracing=t.stance.bracing
                )
    # the target's actions (G11, G12, G30)
    action_hits = 0
    if panicked:
        if log:
            dice.record(Note(f"{t.name} is panicked: flees instead of its declared actions", "G15"))
        action_hits = dice.derive(
            "panic", partial(_panicked, sit, levels, result), key=("panicked", id(sit), levels)
        )
    elif lost_action:
        if log:
            dice.record(Note(f"{t.name} dived and misses its next action", "G14"))
    elif t.actions or auto_hunker or t.in_lane == "crossing":
        steps = _plan(sit, _Round(levels, result, auto_hunker))
        action_hits = dice.derive(
            "actions",
            partial(_actions, sit, steps),
            ("steps", content_key(sit), steps),
            exact=partial(_actions_table, sit, steps),
            keep=True,
        )
    hits = fire_hits + action_hits
    if hits > rounds_total:
        if log:
            dice.record(Note(f"hits capped at the {rounds_total} rounds fired", "G11"))
        hits = rounds_total
    if sit.shooters and log:
        dice.record(StateChange(t.name, "hits from the fire", 0, hits, "G11"))
        summary["hits"] = hits
        if levels and not panicked:
            dice.record(StateChange(t.name, "suppression levels", levels, 0, "G13"))
    outcome = SuppressionOutcome(
        levels, result, hits, min(fire_hits, hits), panicked, auto_hunker or lost_action, dive
    )
    return outcome, summary


def resolve_suppression(situation: SuppressionSituation, dice: DiceSource) -> Resolution:
    """Resolve one round of suppression against the target, with a full transcript."""
    mark = len(dice.events)
    for e in house_events(situation.rules, "suppression."):
        dice.record(e)
    outcome, summary = _run(situation, dice)
    return Resolution(RULESET_ID, outcome, Transcript.since(dice.events, mark), summary)
