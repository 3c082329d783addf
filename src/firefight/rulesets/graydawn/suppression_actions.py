"""What the suppressed target does under the fire (G11 braving the fire, G12 hunkering down, G30
crossing a lane, G15 a panicked target's flight), after its check.

:func:`_plan` works out each action's penalty and exposure without dice; each step is then one
sub-rule returning its hits (G11: one per full 5 points missed, capped at the rounds fired), with
the step's exact table computed from its roll's distribution (:func:`_miss_table`), so exact odds
branch on hit counts only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from firefight.core.transcript import Check, Modifier, Note
from firefight.dice import NATURAL_ONE, DiceSource, Weighted, enumerate_outcomes, exact
from firefight.rulesets.graydawn import tactics
from firefight.rulesets.graydawn.models import Combatant, content_key
from firefight.rulesets.graydawn.plan import wounded_base
from firefight.rulesets.graydawn.suppression import (
    AUTOMATIC_KINDS,
    CheckResult,
    action_penalty,
    burst_table_hits,
    hits_for_miss,
    lane_levels,
    leave_cover_tn,
)
from firefight.rulesets.graydawn.suppression_situation import (
    SuppressionSituation,
    TargetAction,
    acted_against,
    lane_width_missing,
    shooter_rounds,
)


def _defence_base(t: Combatant) -> tuple[int, int]:
    """RD stat part and the dodge/cover skill the defender may add (G35)."""
    skill_ok = tactics.defence_skill_applies(
        flanked=t.stance.flanked,
        ambushed=t.stance.ambushed,
        bracing=t.stance.bracing,
        prone=t.stance.prone,
        aimed_attack=False,
    )
    _, rd = wounded_base(t, "MA", t.stance.bracing)  # G20: REF penalty by wound state
    return rd, t.dodge_cover if skill_ok else 0


def rounds_at_target(sit: SuppressionSituation) -> int:
    """G11: the most hits the target can take this round."""
    return sum(shooter_rounds(s, sit.rules) for s in sit.shooters)


def _capped(dice: DiceSource, sit: SuppressionSituation, hits: int) -> int:
    """No action takes more hits than the rounds fired (G11); keeps exact odds small too."""
    cap = rounds_at_target(sit)
    if hits > cap:
        dice.record(Note(f"{hits} hits capped at the {cap} rounds fired", "G11"))
    return min(hits, cap)


def _roll_total(dice: DiceSource, why: str, base: int) -> tuple[int, bool]:
    r = dice.roll("d10x", why=why)
    return base + r.total, NATURAL_ONE in r.tags


def _mods(dice: DiceSource, mods: Mapping[str, int], target: str, source: str, rule: str) -> int:
    for name, value in mods.items():
        dice.record(Modifier(name, value, target, source, rule))
    return sum(mods.values())


@dataclass(frozen=True)
class _Round:
    levels: int
    result: CheckResult
    auto_hunker: bool


def _cross_lane(dice: DiceSource, *, sit: SuppressionSituation) -> int:
    """G30: having passed its check, the target crosses: dodge/athletics vs shots / width; a
    failure -> burst-table hits before it acts."""
    t, rules = sit.target, sit.rules
    lane = next(s for s in sit.shooters if s.fire == "lane")
    if lane.lane_width_m is None:
        raise lane_width_missing(lane.name)
    lane_tn = lane_levels(shooter_rounds(lane, rules), lane.lane_width_m)
    stat, skill = _defence_base(t)
    total, _ = _roll_total(dice, f"{t.name} crosses the lane, dodge/athletics (G30)", stat + skill)
    ok = total >= lane_tn
    dice.record(Check(f"{t.name} crossing the firing lane", total, lane_tn, ok, "G30"))
    if ok:
        return 0
    face = dice.roll("d6", why=f"{t.name} hits crossing the lane, burst table (G30)").total
    return burst_table_hits(face, sit.house)


def _hunker(
    dice: DiceSource, *, sit: SuppressionSituation, in_open: bool, pen: int, under_fire: bool
) -> int:
    """G12: LUCK + dodge/cover vs TN 10 behind cover, no penalty; in the open LUCK only, with
    the penalty. A failure takes 1 hit per full 5 missed (G11)."""
    t, rules = sit.target, sit.rules
    if in_open:
        base, how = t.stats.LUCK - pen, f"in the open: LUCK only, penalty -{pen}"
    else:
        base, how = t.stats.LUCK + t.dodge_cover, "behind cover: no penalty"
    total, _ = _roll_total(dice, f"{t.name} hunkers down (G12)", base)
    got = hits_for_miss(total, rules.hunker_tn, rules) if under_fire else 0
    dice.record(
        Check(
            f"{t.name} hunker down, {how}",
            total,
            rules.hunker_tn,
            total >= rules.hunker_tn,
            "G12",
            f"{got} hit(s)",
        )
    )
    return _capped(dice, sit, got)


def _move_out(dice: DiceSource, *, sit: SuppressionSituation, a: TargetAction, pen: int) -> int:
    """G11: moving out of cover under fire: dodge/cover check vs TN 15/20/25 for 1/2/3 moves,
    +half MA / +MA for 2 / 3 moves, at the suppression penalty; 1 hit per full 5 missed."""
    t, rules = sit.target, sit.rules
    label = a.name or "moves"
    stat, skill = _defence_base(t)
    bonus = tactics.movement_dodge_bonus(a.moves, t.stats.MA)
    dice.record(Modifier("suppression penalty", -pen, "dodge/cover check", "fire", "G10/G11"))
    if bonus:
        dice.record(
            Modifier(f"{a.moves} moves", bonus, "dodge/cover check", f"MA {t.stats.MA}", "G11")
        )
    extra = _mods(dice, a.modifiers, "dodge/cover check", label, "G11")
    tn = leave_cover_tn(a.moves, rules)
    raw, _ = _roll_total(dice, f"{t.name} {label}: dodge/cover check (G11)", stat + skill + extra)
    total = raw - pen + bonus
    got = hits_for_miss(total, tn, rules)
    dice.record(
        Check(
            f"{t.name} {label}, {a.moves} move(s) out of cover",
            total,
            tn,
            total >= tn,
            "G11",
            f"roll {raw} {-pen:+d} {bonus:+d} = {total}; {got} hit(s)",
        )
    )
    return _capped(dice, sit, got)


def _act(
    dice: DiceSource,
    *,
    sit: SuppressionSituation,
    a: TargetAction,
    pen: int,
    multi: int,
    counts: bool,
) -> int:
    """G11: an action at the suppression (and extra-action) penalty; if it exposes the target
    and fails, 1 hit per full 5 points it missed by. Opposed: the opponent rolls 1d10 too (one
    request for both dice, attacker first, so exact odds see only their difference)."""
    t, rules = sit.target, sit.rules
    label = a.name or "action"
    if pen:
        dice.record(Modifier("suppression penalty", -pen, label, "fire", "G10/G11"))
    if multi:
        dice.record(Modifier("extra actions", -multi, label, "actions this round", "G31/G34"))
    base = a.stat + a.skill + _mods(dice, a.modifiers, label, t.name, "G11")
    if a.tn is not None:
        raw, _ = _roll_total(dice, f"{t.name} {label}", base)
        total, tn = raw - pen - multi, a.tn
        shown = f"roll {raw} {-pen - multi:+d} = {total}"
    else:
        opposed = acted_against(a)
        r = dice.roll("d10x - d10x", why=f"{t.name} {label}, then the opponent's roll")
        if r.rolled is not None:
            mine, theirs = (c.total for c in r.rolled.children)
            total, tn = base + mine - pen - multi, opposed + theirs
            shown = f"roll {base + mine} {-pen - multi:+d} = {total} vs the opponent's {tn}"
        else:  # exact dice know only the difference, which is all the rule needs
            total, tn = base - pen - multi + r.total, opposed
            shown = "opposed"
    got = hits_for_miss(total, tn, rules) if counts else 0
    detail = f"{shown}; " + (f"{got} hit(s)" if counts else "not exposed to the fire")
    dice.record(Check(f"{t.name} {label}", total, tn, total >= tn, "G11", detail))
    return _capped(dice, sit, got)


Step = tuple[Any, ...]
#: A check's roll, the offset added to it, its TN (``total = offset + roll`` against ``tn``).
_Terms = tuple[str, int, int]


def _plan(sit: SuppressionSituation, r: _Round) -> tuple[Step, ...]:
    """G11/G12/G30/G31: the target's actions as steps with their penalties worked out (no dice):
    where it stands for each, the suppression and extra-action penalties, whether it exposes."""
    t, rules = sit.target, sit.rules
    in_open = not t.cover.effective
    under_fire = r.levels > 0
    steps: list[Step] = []
    if t.in_lane == "crossing":
        if r.result != "pass":
            steps.append(("note", f"{t.name} does not dare cross the firing lane", "G30"))
        else:
            steps.append(("cross",))
            in_open = True
    plan = list(t.actions)
    if r.auto_hunker:
        if plan:
            msg = f"{t.name} loses its declared actions and hunkers down"
            steps.append(("note", msg, "G10/G12"))
        plan = [TargetAction(kind="hunker", name="hunker down (lost action)")]
    moves = sum(a.moves for a in plan if a.kind == "move")
    acts = sum(1 for a in plan if a.kind == "act")
    multi = tactics.multi_action_penalty(moves, acts, rules)

    def penalty(open_: bool, exposes: bool = True) -> int:
        return action_penalty(
            r.levels,
            r.result,
            in_open=open_,
            rules=rules,
            bracing=t.stance.bracing,
            full_cover_within_reach=t.full_cover_within_reach,
            exposes=exposes,
        )

    for i, a in enumerate(plan):
        if a.kind == "hunker":
            steps.append(("hunker", in_open, penalty(True) if in_open else 0, under_fire))
            break
        if a.kind == "move":
            if in_open and a.to_cover:
                msg = f"{t.name} moves {a.moves}x MA into cover: no dodge roll"
                steps.append(("note", msg, "G11"))
            elif under_fire:
                steps.append(("move", i, penalty(True)))
            in_open = not a.to_cover
            continue
        exposed = in_open or a.exposes
        steps.append(("act", i, penalty(in_open, exposed), multi, exposed and under_fire))
    return tuple(steps)


def _miss_table(sit: SuppressionSituation, terms: _Terms, counts: bool) -> Weighted[int]:
    """A check's hits (G11) from the roll's distribution: ``total = offset + roll`` against
    ``tn``, hits for the miss (:func:`hits_for_miss` on a whole array), the G11 cap: the steps
    the check's sub-rule takes, without replaying it once per value of an open-ended roll."""
    expr, offset, tn = terms
    roll, cap = exact(expr), rounds_at_target(sit)
    totals = roll.support + offset
    missed = np.maximum(tn - totals, 0) // sit.rules.points_missed_per_hit
    hits = np.minimum(missed, cap) if counts else np.zeros_like(totals)
    # summed in Python, not with np.unique: its first call imports numpy.ma (tens of ms cold)
    summed: dict[int, int] = {}
    for h, w in zip(hits.tolist(), roll.weights.tolist(), strict=True):
        summed[h] = summed.get(h, 0) + int(w)
    return Weighted({h: summed[h] for h in sorted(summed)}, roll.total)


def _act_check(sit: SuppressionSituation, a: TargetAction, pen: int, multi: int) -> _Terms:
    """What :func:`_act` rolls and needs (see there)."""
    base = a.stat + a.skill + sum(a.modifiers.values())
    if a.tn is not None:
        return "d10x", base - pen - multi, a.tn
    return "d10x - d10x", base - pen - multi, acted_against(a)


def _move_check(sit: SuppressionSituation, a: TargetAction, pen: int) -> _Terms:
    """What :func:`_move_out` rolls and needs (see there)."""
    t = sit.target
    stat, skill = _defence_base(t)
    bonus = tactics.movement_dodge_bonus(a.moves, t.stats.MA)
    offset = stat + skill + sum(a.modifiers.values()) - pen + bonus
    return "d10x", offset, leave_cover_tn(a.moves, sit.rules)


def _hunker_check(sit: SuppressionSituation, in_open: bool, pen: int) -> _Terms:
    """What :func:`_hunker` rolls and needs (see there)."""
    t = sit.target
    base = t.stats.LUCK - pen if in_open else t.stats.LUCK + t.dodge_cover
    return "d10x", base, sit.rules.hunker_tn


StepRule = tuple[str, Callable[[DiceSource], int], Callable[[], Weighted[int]] | None]


def _step_rule(sit: SuppressionSituation, step: Step) -> StepRule:
    """A dice step of the plan as a sub-rule returning its hits, with its exact table if the
    hits follow from one roll's distribution (None: enumerate the sub-rule)."""
    kind = step[0]
    if kind == "cross":
        return "cross", partial(_cross_lane, sit=sit), None
    if kind == "hunker":
        _, in_open, pen, under_fire = step
        terms = _hunker_check(sit, in_open, pen)
        fn = partial(_hunker, sit=sit, in_open=in_open, pen=pen, under_fire=under_fire)
        return "hunker", fn, partial(_miss_table, sit, terms, under_fire)
    plan = sit.target.actions
    if kind == "move":
        a = plan[step[1]]
        fn_m = partial(_move_out, sit=sit, a=a, pen=step[2])
        return "move", fn_m, partial(_miss_table, sit, _move_check(sit, a, step[2]), True)
    _, i, pen, multi, counts = step
    a = plan[i] if i < len(plan) else TargetAction(kind="hunker")
    fn_a = partial(_act, sit=sit, a=a, pen=pen, multi=multi, counts=counts)
    return "act", fn_a, partial(_miss_table, sit, _act_check(sit, a, pen, multi), counts)


def _actions(sit: SuppressionSituation, steps: tuple[Step, ...], dice: DiceSource) -> int:
    """The planned steps on the dice; each is one derived sub-rule returning its hits, so
    exact odds branch only on hit counts."""
    hits = 0
    for step in steps:
        if step[0] == "note":
            dice.record(Note(step[1], step[2]))
            continue
        why, fn, table = _step_rule(sit, step)
        if table is None:
            hits += dice.derive(why, fn, key=(why, id(sit)))
        else:
            hits += dice.derive(why, fn, (content_key(sit), *step), exact=table, keep=True)
    return _capped(dice, sit, hits)


def hunker_hits(dice: DiceSource, sit: SuppressionSituation, in_open: bool, pen: int) -> int:
    """:func:`_hunker` under fire as a sub-rule kept by content (the key of a planned hunker
    step): exact odds branch on its hits, not on the roll."""
    step: Step = ("hunker", in_open, pen, True)
    why, fn, table = _step_rule(sit, step)
    return dice.derive(why, fn, (content_key(sit), *step), exact=table, keep=True)


def move_out_hits(dice: DiceSource, sit: SuppressionSituation, a: TargetAction, pen: int) -> int:
    """:func:`_move_out` as a sub-rule kept by content: exact odds branch on its hits."""
    return dice.derive(
        "move",
        partial(_move_out, sit=sit, a=a, pen=pen),
        ("move out", content_key(sit), content_key(a), pen),
        exact=partial(_miss_table, sit, _move_check(sit, a, pen), True),
        keep=True,
    )


def _panicked(sit: SuppressionSituation, levels: int, result: CheckResult, dice: DiceSource) -> int:
    """G15 with G12: a panicked target still takes fire. In the open it is hunkering down
    "from panic": LUCK only, with the suppression penalty. Behind cover it flees at full speed
    (three moves); running through an automatic weapon's suppressing fire (G09's automatic
    weapons, or a lane) it makes the 3-move dodge/cover check of G11; other fire does not
    catch a runner."""
    t, rules = sit.target, sit.rules
    if levels <= 0:
        return 0
    in_open = not t.cover.effective
    pen = action_penalty(levels, result, in_open=True, rules=rules, bracing=t.stance.bracing)
    if in_open:
        dice.record(Note(f"{t.name} is in the open: hunkers down from panic", "G12/G15"))
        return hunker_hits(dice, sit, True, pen)
    automatic = [
        s
        for s in sit.shooters
        if s.fire == "lane" or (s.weapon is not None and s.weapon.kind in AUTOMATIC_KINDS)
    ]
    if not automatic:
        dice.record(Note(f"{t.name} flees; only automatic fire catches a runner", "G15"))
        return 0
    dice.record(Note(f"{t.name} flees through {automatic[0].name}'s automatic fire", "G15"))
    return move_out_hits(dice, sit, TargetAction(kind="move", name="flees", moves=3), pen)


def _actions_table(sit: SuppressionSituation, steps: tuple[Step, ...]) -> Weighted[int]:
    """:func:`_actions` on exact dice: the steps roll their own dice, so the total's
    distribution is the sum of theirs (a convolution), then the G11 cap."""
    acc, total = {0: 1}, 1
    for step in steps:
        if step[0] == "note":
            continue
        _, fn, table = _step_rule(sit, step)
        w = table() if table is not None else enumerate_outcomes(fn)
        nxt: dict[int, int] = {}
        for a, x in acc.items():
            for b, y in w.items():
                nxt[a + b] = nxt.get(a + b, 0) + x * y
        acc, total = nxt, total * w.total
    cap, out = rounds_at_target(sit), dict[int, int]()
    for hits, weight in acc.items():
        out[min(hits, cap)] = out.get(min(hits, cap), 0) + weight
    return Weighted(out, total)
