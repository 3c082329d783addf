"""Exact odds by enumerating the resolution code itself (one rule, three uses).

Several targets: each target's odds are its own (marginal) distribution, computed by running the
attack with that target alone. How many targets are hit, suppressed or put down is exact too:
targets are independent once the shared attacker roll is known, so for every value of that roll
each target's chance of each event is worked out from ``resolve_target``'s own pieces (its hit
test's table for that roll, the rest of it once per verdict) and the counts convolved, then
mixed over the roll (with one roll per target, the marginals convolve directly). Mortar files
report marginals only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import partial, reduce

from firefight.core.odds import OddsReport
from firefight.dice import DiceSource, Dist, Weighted, enumerate_outcomes, exact
from firefight.rulesets.warfare2d20 import mortar_odds
from firefight.rulesets.warfare2d20.attack import (
    HitTest,
    TargetOutcome,
    after_hit_test,
    hit_test_odds,
    resolve_attack,
)
from firefight.rulesets.warfare2d20.checks import pool
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.initiative import InitiativeResult, roll_initiative
from firefight.rulesets.warfare2d20.models import (
    Attack,
    Combatant,
    Initiative,
    Mortar,
    Target,
    Thrown,
)
from firefight.rulesets.warfare2d20.mortar import zone_of, zones
from firefight.rulesets.warfare2d20.thrown import resolve_throw

#: The ruleset id the reports carry (the ruleset object itself is ``ruleset.RULESET``).
RULESET_ID = "warfare2d20"


def label(o: TargetOutcome) -> str:
    """One word-picture per outcome; the labels partition every outcome."""
    if o.result == "miss":
        return "miss"
    if o.result == "shock":
        return "shock, suppressed" if o.suppressed else "shock, kept cool"
    if o.status in ("unconscious", "dead"):
        return f"hit, {o.status}"
    if o.hp_lost:
        return "hit, wounded"
    return "hit, stamina only" if o.damage else "hit, no damage through"


LABELS = (
    "miss",
    "shock, kept cool",
    "shock, suppressed",
    "hit, no damage through",
    "hit, stamina only",
    "hit, wounded",
    "hit, unconscious",
    "hit, dead",
)


def target_odds(s: Attack | Mortar, i: int) -> Weighted[TargetOutcome]:
    """Exact outcomes for target ``i`` alone, from the same resolve code."""
    return _alone_odds(s, s.targets[i])


def _odds_key(s: Attack | Mortar, t: Target) -> object:
    """What a target's own odds depend on: all of it but its name (a label) and, under a mortar,
    its distance within one blast band (only the band enters the rules)."""
    if isinstance(s, Mortar):
        band = zone_of(zones(s.house.mortar_shells[s.shell]), t.distance_m or 0.0)
        return replace(t, name="", distance_m=None), band
    return replace(t, name="")


def _marginals(s: Attack | Mortar) -> list[Weighted[TargetOutcome]]:
    """Each target's own odds; targets alike in everything but their names are enumerated once
    and the outcomes relabelled (a fire team of identical riflemen is one enumeration)."""
    done: dict[object, tuple[str, Weighted[TargetOutcome]]] = {}
    out = []
    for t in s.targets:
        key = _odds_key(s, t)
        if key not in done:
            done[key] = (t.name, _alone_odds(s, t))
        name, w = done[key]
        out.append(w if name == t.name else w.map(partial(_renamed, name=t.name)))
    return out


def _renamed(o: TargetOutcome, name: str) -> TargetOutcome:
    """``o`` for the target called ``name`` (built directly: ``replace`` is slow per outcome)."""
    return TargetOutcome(
        name, o.result, o.cover_struck, o.suppressed, o.damage, o.stamina_lost, o.hp_lost, o.status
    )


def _alone_odds(s: Attack | Mortar, t: Target) -> Weighted[TargetOutcome]:
    alone = replace(s, targets=(t,))
    if isinstance(alone, Attack):
        a = alone
        return enumerate_outcomes(lambda d: resolve_attack(a, d).targets[0])
    return mortar_odds.target_outcomes(alone)  # round by round: equal to replaying resolve_mortar


COUNTS: dict[str, Callable[[TargetOutcome], bool]] = {
    "targets_hit": lambda o: o.result == "hit",
    "targets_suppressed": lambda o: o.suppressed,
    "targets_down": lambda o: o.status in ("unconscious", "dead"),
}


def _count(ps: list[Fraction]) -> Dist:
    """How many of independent events with probabilities ``ps`` happen: the product of their
    Bernoulli polynomials, over the product of their denominators (plain integers: a handful of
    terms, cheaper than one convolution each)."""
    weights, total = [1], 1
    for p in ps:
        yes, no = p.numerator, p.denominator - p.numerator
        weights = [a * no + b * yes for a, b in zip([*weights, 0], [0, *weights], strict=True)]
        total *= p.denominator
    return Dist(0, weights, total)


def _given_verdict(a: Attack, t: Target, ht: HitTest) -> dict[str, tuple[int, int]]:
    """Each count's event as (numerator, denominator) given target ``t``'s hit test ``ht``: the
    rest of :func:`resolve_target` enumerated once per verdict, not once per shared roll."""

    def run(d: DiceSource) -> TargetOutcome:
        return after_hit_test(d, a, t, ht)

    w = enumerate_outcomes(run)
    return {k: (sum(p for o, p in w.items() if f(o)), w.total) for k, f in COUNTS.items()}


def target_counts(a: Attack, marginals: list[Weighted[TargetOutcome]]) -> dict[str, Dist]:
    """Exact distributions of how many targets are hit / suppressed / down.

    Under a shared roll a target reads the roll only through its hit test, so given the roll
    each count's event has probability sum over verdicts h of P(h | roll) * P(event | h): the
    hit test's table once per roll value and kind of target, the rest once per verdict."""
    if a.attack_roll == "each":
        return {k: _count([w.probability(f) for w in marginals]) for k, f in COUNTS.items()}
    roll = exact(pool(a.house.opposed_dice))
    parts: dict[str, list[tuple[int, Dist]]] = {k: [] for k in COUNTS}
    kinds: dict[object, Target] = {}  # the counts ignore names: alike is alike
    keys = [_odds_key(a, t) for t in a.targets]
    for key, t in zip(keys, a.targets, strict=True):
        kinds.setdefault(key, t)
    given: dict[tuple[object, HitTest], dict[str, tuple[int, int]]] = {}
    seen: dict[object, dict[str, Fraction]] = {}  # a kind of target given a roll: P(hit), ...
    counted: dict[tuple[object, ...], dict[str, Dist]] = {}
    for value, weight in roll.items():
        alike_of: dict[object, object] = {}
        for key, t in kinds.items():
            # rolls alike in the hit test (e.g. 21 - k and 21 + k, or all the rolls that
            # miss) resolve alike
            hit = hit_test_odds(a, t, value)
            verdicts = sorted((h.result, h.cover_struck, w) for h, w in hit.items())
            alike = (key, hit.total, tuple(verdicts))  # plain integers: cheap to hash
            if alike not in seen:
                for h, _ in hit.items():
                    if (key, h) not in given:
                        given[(key, h)] = _given_verdict(a, t, h)
                seen[alike] = {}
                for k in COUNTS:
                    terms = [(w, *given[(key, h)][k]) for h, w in hit.items()]
                    common = reduce(math.lcm, (den for _, _, den in terms), 1)
                    num = sum(w * n * (common // den) for w, n, den in terms)
                    seen[alike][k] = Fraction(num, hit.total * common)
            alike_of[key] = alike
        alikes = [alike_of[key] for key in keys]
        group = tuple(alikes)
        if group not in counted:
            counted[group] = {k: _count([seen[x][k] for x in alikes]) for k in COUNTS}
        for k in COUNTS:
            parts[k].append((weight, counted[group][k]))
    return {k: Dist.mix(v, roll.total) for k, v in parts.items()}


def attack_report(s: Attack | Mortar) -> OddsReport:
    many = len(s.targets) > 1
    outcomes: dict[str, Fraction] = {}
    dists: dict[str, Dist] = {}
    probs: dict[str, Fraction] = {}
    p_hit: Fraction | None = None
    marginals = _marginals(s)
    for t, w in zip(s.targets, marginals, strict=True):
        pre = f"{t.name}: " if many else ""
        suf = f" ({t.name})" if many else ""
        labelled = w.map(label).probabilities()
        for name in LABELS:
            if name in labelled:
                outcomes[pre + name] = labelled[name]
        hit = w.probability(lambda o: o.result == "hit")
        if many:
            probs[f"p_hit{suf}"] = hit
        else:
            p_hit = hit
        if isinstance(s, Attack):
            probs[f"p_cover_struck{suf}"] = w.probability(lambda o: o.cover_struck)
            probs[f"p_shock{suf}"] = w.probability(lambda o: o.result == "shock")
            probs[f"p_suppressed{suf}"] = w.probability(lambda o: o.suppressed)
        probs[f"p_unconscious{suf}"] = w.probability(lambda o: o.status == "unconscious")
        probs[f"p_dead{suf}"] = w.probability(lambda o: o.status == "dead")
        dists[f"damage{suf}"] = w.to_dist(lambda o: o.damage)
        dists[f"hp_damage{suf}"] = w.to_dist(lambda o: o.hp_lost)
    if many and isinstance(s, Attack):
        dists.update(target_counts(s, marginals))
        probs["p_any_hit"] = 1 - dists["targets_hit"].p(0)
    notes: tuple[str, ...] = (
        "damage: through all soak, before stamina; HP damage: hit points lost",
    )
    if many:
        notes += ("several targets: each target's odds are its own; a shared roll links them",)
    return OddsReport(RULESET_ID, s.title, p_hit, outcomes, dists, {}, probs, Fraction(0), notes)


def throw_report(s: Thrown) -> OddsReport:
    w = enumerate_outcomes(lambda d: resolve_throw(s, d))
    lands = w.probability(lambda o: o.lands)
    scatter = w.to_dist(lambda o: o.scatter_m)
    return OddsReport(
        RULESET_ID,
        s.title,
        lands,
        {"lands on the spot": lands, "scatters": 1 - lands},
        {"scatter_m": scatter},
    )


def _initiative_outcomes(c: Combatant, house: Warfare2d20House) -> Weighted[InitiativeResult]:
    def run(d: DiceSource) -> InitiativeResult:
        return roll_initiative(d, c, house)

    return enumerate_outcomes(run)


def initiative_report(s: Initiative) -> OddsReport:
    """Per combatant, exclusive outcomes (fails / passes / exceptionally well, summing to 1);
    the overlapping "passes at all" is an event of its own."""
    outcomes: dict[str, Fraction] = {}
    events: dict[str, Fraction] = {}
    for c in s.combatants:
        if c.name in s.ambushers:
            outcomes[f"{c.name}: automatic (ambush)"] = Fraction(1)
            continue
        w = _initiative_outcomes(c, s.house)
        outcomes[f"{c.name}: fails"] = w.probability(lambda r: not r.passed)
        outcomes[f"{c.name}: passes, not exceptionally"] = w.probability(
            lambda r: r.passed and not r.exceptional
        )
        outcomes[f"{c.name}: exceptionally well"] = w.probability(lambda r: r.exceptional)
        events[f"p_passes ({c.name})"] = w.probability(lambda r: r.passed)
    return OddsReport(RULESET_ID, s.title, None, outcomes, probabilities=events)
