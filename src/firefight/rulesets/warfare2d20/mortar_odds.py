"""Exact outcomes of mortar fire on one target, round by round instead of path by path.

Replaying :func:`~firefight.rulesets.warfare2d20.mortar.resolve_mortar` over every path costs
(rounds x blasts x damage values x checks) replays, although a round only depends on the target's
body at its start. Here each round is enumerated once per distinct body (by the same rule steps
:func:`resolve_mortar` takes, for one target), and the states (struck yet, damage so far, body)
are carried from round to round with exact weights, equal states merged. A test holds this to
identical fractions against the path-by-path enumeration of ``resolve_mortar``.
"""

from __future__ import annotations

import math
from functools import partial, reduce

from firefight.dice import DiceSource, Weighted, enumerate_outcomes
from firefight.dice.sources import derived_distribution
from firefight.errors import present
from firefight.rulesets.warfare2d20.attack import TargetOutcome
from firefight.rulesets.warfare2d20.models import Mortar, Target
from firefight.rulesets.warfare2d20.mortar import (
    _fire_plan,
    _group_reach,
    _target_roll,
    blast_amount,
    zone_of,
)
from firefight.rulesets.warfare2d20.wounds import Body, take_damage

State = tuple[bool, int, Body]  # struck so far, damage so far, body


def strike(dice: DiceSource, m: Mortar, t: Target) -> tuple[bool, int]:
    """One round of :func:`resolve_mortar` on its only target ``t`` (alive, in the blast
    radius) up to the damage: whether the blast strikes it, and the blast's damage."""
    h = m.house
    _, zs, _, delta_mod, delta_t = _fire_plan(m)
    zone = present(
        zone_of(zs, t.distance_m or 0.0),
        f"{t.name} is outside the blast radius (W12)",
        tip="give only targets within the lethal radius",
    )
    if m.spot_roll == "group":
        far = _group_reach(dice, h.opposed_dice, None, delta_mod, delta_t, zs, [(t, zone)])
        struck = zone <= far
    else:
        struck = _target_roll(dice, h.opposed_dice, None, t, zs[zone].penalty + delta_mod, delta_t)
    return (True, blast_amount(dice, m, t)) if struck else (False, 0)


def _wound(m: Mortar, t: Target, body: Body, amount: int, dice: DiceSource) -> Body:
    return take_damage(dice, t.name, t.combatant, body, amount, m.house)


def target_outcomes(m: Mortar) -> Weighted[TargetOutcome]:
    """Exact outcomes of the fire plan ``m`` on its one target (integer weights over one
    denominator). A round is the strike (its own rolls, the same every round) then the wound
    (:func:`take_damage`, whose rolls depend only on the body and the damage)."""
    (t,) = m.targets
    states: dict[State, int] = {(False, 0, Body(t.hit_points_left, t.stamina_left)): 1}
    den = 1
    _, zs, _, _, _ = _fire_plan(m)
    if zone_of(zs, t.distance_m or 0.0) is not None:  # outside the radius: no rolls at all
        hits = enumerate_outcomes(lambda d: strike(d, m, t))
        wounds: dict[tuple[Body, int], Weighted[Body]] = {}
        for _ in range(m.rounds):
            needed = {
                (body, amount)
                for _, _, body in states
                if body.status != "dead"
                for (hit, amount), _ in hits.items()
                if hit
            }
            c, h = t.combatant, m.house
            for body, amount in needed - wounds.keys():
                # kept by content: targets in other blast bands (or other files) share it
                kept = (
                    "warfare2d20 take damage",
                    (c.pain_threshold, c.hit_points, c.endurance),
                    body,
                    amount,
                    h.endurance_threshold_percent,
                    h.endurance_check_dice,
                )
                fn = partial(_wound, m, t, body, amount)
                wounds[(body, amount)] = derived_distribution(fn, kept)
            common = reduce(math.lcm, (wounds[k].total for k in needed), 1)
            scale = hits.total * common
            nxt: dict[State, int] = {}
            for (struck, damage, body), p in states.items():
                if body.status == "dead":
                    nxt[(struck, damage, body)] = nxt.get((struck, damage, body), 0) + p * scale
                    continue
                for (hit, amount), q in hits.items():
                    if not hit:
                        key = (struck, damage, body)
                        nxt[key] = nxt.get(key, 0) + p * q * common
                        continue
                    w = wounds[(body, amount)]
                    for after, r in w.items():
                        key = (True, damage + amount, after)
                        nxt[key] = nxt.get(key, 0) + p * q * r * (common // w.total)
            states, den = nxt, den * scale
    out: dict[TargetOutcome, int] = {}
    for (struck, damage, b), p in states.items():
        o = TargetOutcome(
            t.name,
            "hit" if struck else "miss",
            False,
            False,
            damage,
            t.stamina_left - b.stamina_left,
            t.hit_points_left - b.hit_points_left,
            b.status,
        )
        out[o] = out.get(o, 0) + p
    return Weighted(out, den)
