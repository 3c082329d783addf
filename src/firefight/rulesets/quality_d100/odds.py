"""Exact odds of a strike (Q01-Q07, Q10) and of an equation (Q08), from the same rule code that
resolves them."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from firefight.core.odds import OddsReport, outcome_distribution
from firefight.dice import Weighted
from firefight.rulesets.quality_d100.equations import EquationOutcome, LoadedEquation
from firefight.rulesets.quality_d100.plan import Plan
from firefight.rulesets.quality_d100.quality import BEST, NAMES
from firefight.rulesets.quality_d100.strike import StrikeOutcome, armour_text, strike

#: The ruleset id the reports carry.
RULESET_ID = "quality_d100"


@lru_cache(maxsize=256)
def strike_outcomes(plan: Plan) -> Weighted[StrikeOutcome]:
    """Every outcome of a strike with its exact probability (memoised per plan)."""
    return outcome_distribution(lambda dice: strike(plan, dice))


def strike_odds(plan: Plan) -> OddsReport:
    """Exact odds of a strike: qualities, damage, special effects, parries."""
    w = strike_outcomes(plan)
    sit = plan.situation
    by_level = w.to_dist(lambda o: o.result_quality)
    outcomes = {NAMES[level]: by_level.p(level) for level in range(BEST + 1)}
    dists = {
        "result_quality": w.to_dist(lambda o: o.result_quality),
        "attack_quality": w.to_dist(lambda o: o.attack_quality),
        "defence_quality": w.to_dist(lambda o: o.defence_quality),
        "damage": w.to_dist(lambda o: o.damage),
        "ft_damage": w.to_dist(lambda o: o.ft_damage),
        "en_damage": w.to_dist(lambda o: o.en_damage),
    }
    probs = {"p_possible_grievous": w.probability(lambda o: o.possible_grievous)}
    if sit.grievous.chance is not None:
        probs["p_grievous_injury"] = w.probability(lambda o: o.grievous)
    tables: dict[str, dict[str, Fraction]] = {}
    if sit.special != "none":
        tables["special"] = _table(w, lambda o: o.special or "no effect")
    if sit.mode == "melee" and sit.defender.evading:
        tables["parry"] = _table(w, lambda o: o.parry or "no parry")
    notes = [
        f"strike chance {plan.strike_chance}, die modifier {plan.die_modifier:+d}, "
        f"defence {plan.defence}; {armour_text(plan.armour)}",
        "hit = result quality 1 or more; damage = FT + EN lost by the defender",
    ]
    if sit.grievous.chance is None:
        notes.append("possible grievous injury raised at result 4+; its table is not in the text")
    title = sit.title or f"{sit.attacker.name} strikes {sit.defender.name} ({sit.mode})"
    levels = dict(enumerate(NAMES))
    return OddsReport(
        RULESET_ID,
        title,
        w.probability(lambda o: o.hit),
        outcomes,
        dists,
        tables,
        probs,
        w.truncated_mass,
        tuple(notes),
        {name: levels for name in dists if name.endswith("_quality")},
    )


def _table(w: Weighted[Any], label: Any) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for outcome, p in w.probabilities().items():
        key = str(label(outcome))
        out[key] = out.get(key, Fraction(0)) + p
    return dict(sorted(out.items()))


def equation_odds(eq: LoadedEquation) -> OddsReport:
    """Exact odds of an equation (Q08)."""
    w: Weighted[EquationOutcome] = outcome_distribution(eq.run)
    outcomes = _table(w, lambda o: o.result)
    probs: dict[str, Fraction] = {}
    if any(o.passed is not None for o in w.outcomes()):
        probs["p_success"] = w.probability(lambda o: bool(o.passed))
    dists = {}
    if all(o.value is not None for o in w.outcomes()):
        dists["value"] = w.to_dist(lambda o: o.value or 0)
    title = eq.situation.title or f"equation {eq.situation.equation}"
    return OddsReport(RULESET_ID, title, None, outcomes, dists, {}, probs, w.truncated_mass)
