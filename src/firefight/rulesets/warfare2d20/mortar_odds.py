"""Exact outcomes of mortar fire on one target, blast by blast instead of path by path.

Replaying :func:`~firefight.rulesets.warfare2d20.mortar.resolve_mortar` over every path costs
(rounds x blasts x damage values x checks) replays, although a round only depends on the target's
body at its start. Here a round is split where the rule splits it: whether the blast strikes (the
same rolls every round) and what a striking blast does to the body (enumerated once per distinct
body, by the same rule steps :func:`resolve_mortar` takes for one target). The states (struck
yet, damage so far, body) after k blasts in a row are carried with exact weights, equal states
merged, and weighed by the binomial chance of k strikes in the rounds; the blast states are the
same for every blast band and kept by content. A test holds this to identical fractions against
the path-by-path enumeration of ``resolve_mortar``.
"""

from __future__ import annotations

import math
from functools import partial, reduce

from firefight.dice import DiceSource, Weighted, enumerate_outcomes
from firefight.dice.sources import kept_value
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


def struck(dice: DiceSource, m: Mortar, t: Target) -> bool:
    """Whether one round of :func:`resolve_mortar` strikes its only target ``t`` (alive, in the
    blast radius): the round's rolls before the damage, the same every round."""
    h = m.house
    _, zs, _, delta_mod, delta_t = _fire_plan(m)
    zone = present(
        zone_of(zs, t.distance_m or 0.0),
        f"{t.name} is outside the blast radius (W12)",
        tip="give only targets within the lethal radius",
    )
    if m.spot_roll == "group":
        far = _group_reach(dice, h.opposed_dice, None, delta_mod, delta_t, zs, [(t, zone)])
        return zone <= far
    return _target_roll(dice, h.opposed_dice, None, t, zs[zone].penalty + delta_mod, delta_t)


def blasted(m: Mortar, t: Target, body: Body, dice: DiceSource) -> tuple[int, Body]:
    """A blast that strikes ``t`` with ``body``: its damage and the body after it (the rest of
    :func:`resolve_mortar`'s round, whose rolls do not depend on the strike's)."""
    amount = blast_amount(dice, m, t)
    return amount, take_damage(dice, t.name, t.combatant, body, amount, m.house)


def _after_blasts(m: Mortar, t: Target) -> tuple[Weighted[State], ...]:
    """The states after 0, 1, ..., ``m.rounds`` blasts that strike ``t``: the same for every
    blast band (only the chance of a strike differs), so kept by content and shared by them."""
    c, h = t.combatant, m.house
    armour = None if h.blast_ignores_armour or t.armour is None else t.armour.soak
    start = Body(t.hit_points_left, t.stamina_left, t.status)
    key = (
        "warfare2d20 mortar blasts",
        h.blast_damage,
        armour,
        (c.pain_threshold, c.hit_points, c.endurance),  # all take_damage reads of the character
        start,
        m.rounds,
        h.endurance_threshold_percent,
        h.endurance_check_dice,
    )

    def build() -> tuple[Weighted[State], ...]:
        after: dict[Body, Weighted[tuple[int, Body]]] = {}  # one blast on each body met
        out = [Weighted({(False, 0, start): 1}, 1)]
        for _ in range(m.rounds):
            last = out[-1]
            bodies = {body for _, _, body in last.outcomes() if body.status != "dead"}
            for body in bodies - after.keys():
                after[body] = enumerate_outcomes(partial(blasted, m, t, body))
            common = reduce(math.lcm, (after[b].total for b in bodies), 1)
            nxt: dict[State, int] = {}
            for (hit, damage, body), p in last.items():
                if body.status == "dead":  # a dead target is not blasted again
                    nxt[(hit, damage, body)] = nxt.get((hit, damage, body), 0) + p * common
                    continue
                w = after[body]
                scale = p * (common // w.total)
                for (amount, later), r in w.items():
                    key = (True, damage + amount, later)
                    nxt[key] = nxt.get(key, 0) + r * scale
            out.append(Weighted(nxt, last.total * common))
        return tuple(out)

    return kept_value(key, build)


def target_outcomes(m: Mortar) -> Weighted[TargetOutcome]:
    """Exact outcomes of the fire plan ``m`` on its one target (integer weights over one
    denominator). Each round strikes or not with the same chance p, and a round that does not
    strike changes nothing, so k strikes of n rounds weigh C(n, k) p^k (1 - p)^(n - k) and
    leave the states of k blasts in a row (:func:`_after_blasts`)."""
    (t,) = m.targets
    _, zs, _, _, _ = _fire_plan(m)
    start = Body(t.hit_points_left, t.stamina_left, t.status)
    states: dict[State, int] = {(False, 0, start): 1}  # outside the radius: no rolls at all
    den = 1
    if zone_of(zs, t.distance_m or 0.0) is not None:
        strikes = enumerate_outcomes(lambda d: struck(d, m, t))
        yes, total = dict(strikes.items()).get(True, 0), strikes.total
        blasts = _after_blasts(m, t)
        common = reduce(math.lcm, (w.total for w in blasts), 1)
        n = m.rounds
        states = {}
        for k, w in enumerate(blasts):
            scale = math.comb(n, k) * yes**k * (total - yes) ** (n - k) * (common // w.total)
            for state, p in w.items():
                states[state] = states.get(state, 0) + p * scale
        den = total**n * common
    out: dict[TargetOutcome, int] = {}
    for (hit, damage, b), p in states.items():
        o = TargetOutcome(
            t.name,
            "hit" if hit else "miss",
            False,
            False,
            damage,
            t.stamina_left - b.stamina_left,
            t.hit_points_left - b.hit_points_left,
            b.status,
        )
        out[o] = out.get(o, 0) + p
    return Weighted(out, den)
