"""Exact odds per situation kind, read off the outcome distribution of the very same rule code
that resolves it (``outcome_distribution`` over :attr:`.situation.Loaded.run`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from firefight.core.odds import OddsReport, outcome_distribution
from firefight.dice import Weighted
from firefight.errors import InputError
from firefight.rulesets.tactical_d20.attack import AttackOutcome, PreparedAttack
from firefight.rulesets.tactical_d20.contests import ContestOutcome
from firefight.rulesets.tactical_d20.initiative import UNRESOLVED
from firefight.rulesets.tactical_d20.models import Creature
from firefight.rulesets.tactical_d20.situation import Loaded
from firefight.rulesets.tactical_d20.suppression import RESULTS, PreparedCone, SuppressOutcome
from firefight.rulesets.tactical_d20.turn import PlannedStep, StepOutcome

#: The ruleset id the reports carry.
ID = "tactical_d20"
#: Most creatures an exact initiative enumeration takes (20^N first rolls).
INITIATIVE_ODDS_LIMIT = 3


def _attack_odds(w: Weighted[AttackOutcome], loaded: Loaded[Any]) -> OddsReport:
    p: PreparedAttack = loaded.prepared
    labels = ("miss", "stopped by cover", "hit", "critical hit")
    by_label = w.map(lambda o: o.label).probabilities()
    outcomes = {lab: by_label.get(lab, Fraction(0)) for lab in labels}
    probs: dict[str, Fraction] = {
        "p_critical": w.probability(lambda o: o.critical and not o.stopped),
        "p_stopped_by_cover": w.probability(lambda o: o.stopped),
    }
    effects: dict[str, Fraction] = {}
    conditions = {f"p_{c}": Fraction(0) for c in ("stunned", "arm_wound", "leg_wound")}
    for o, chance in w.probabilities().items():
        for e in o.effects:
            effects[e.label()] = effects.get(e.label(), Fraction(0)) + chance
            conditions[f"p_{e.condition}"] += chance
    probs.update(conditions)
    tables: dict[str, dict[str, Fraction]] = {}
    if effects:
        tables["effects"] = effects
    if p.is_group:
        landed = w.map(lambda o: o.member if o.hit and not o.stopped else "").probabilities()
        tables["p_hit_per_member"] = {t.name: landed.get(t.name, Fraction(0)) for t in p.targets}
    return OddsReport(
        ruleset=ID,
        title=loaded.title,
        p_hit=w.probability(lambda o: o.hit and not o.stopped),
        outcomes={k: v for k, v in outcomes.items() if v},
        distributions={"damage": w.to_dist(lambda o: o.damage)},
        tables=tables,
        probabilities=probs,
        truncated_mass=w.truncated_mass,
        notes=(
            "P(hit) counts hits that reach the target (cover that stops a hit is not a hit); "
            "damage = hit points lost after damage thresholds",
        ),
    )


def _cone_odds(w: Weighted[SuppressOutcome], loaded: Loaded[Any]) -> OddsReport:
    by_result = w.map(lambda o: o.result).probabilities()
    outcomes = {r: by_result.get(r, Fraction(0)) for r in (*RESULTS, "outside", "protected")}
    check: dict[str, Fraction] = {r: outcomes[r] for r in RESULTS}
    cone: PreparedCone = loaded.prepared
    return OddsReport(
        ruleset=ID,
        title=loaded.title,
        p_hit=None,
        outcomes={k: v for k, v in outcomes.items() if v},
        distributions={"damage": w.to_dist(lambda o: o.damage)},
        tables={"check": check},
        probabilities={f"p_{r}": check[r] for r in RESULTS},
        truncated_mass=w.truncated_mass,
        notes=(
            f"Willpower DC {cone.dc}; partial = pass by "
            f"{cone.house.suppress_partial_margin} or less",
        ),
    )


def _contest_odds(w: Weighted[ContestOutcome], loaded: Loaded[Any]) -> OddsReport:
    success = w.probability(lambda o: o.success)
    return OddsReport(
        ruleset=ID,
        title=loaded.title,
        p_hit=None,
        outcomes={"success": success, "failure": 1 - success},
        probabilities={"p_success": success},
    )


def _initiative_odds(w: Weighted[tuple[str, ...]], loaded: Loaded[Any]) -> OddsReport:
    creatures: tuple[Creature, ...] = loaded.prepared
    orders = {
        " > ".join(o): p
        for o, p in sorted(w.probabilities().items(), key=lambda kv: -kv[1])
        if o != UNRESOLVED
    }
    leaders = w.map(lambda o: o[0]).probabilities()
    first = {c.name: leaders.get(c.name, Fraction(0)) for c in creatures}
    cut = w.p(UNRESOLVED) + w.truncated_mass
    return OddsReport(
        ruleset=ID,
        title=loaded.title,
        p_hit=None,
        outcomes=orders,
        tables={"acts_first": first},
        truncated_mass=cut,
        notes=("same-side ties re-roll; exact odds follow re-rolls 12 deep",),
    )


def _turn_odds(w: Weighted[tuple[Any, ...]], loaded: Loaded[Any]) -> OddsReport:
    plan: tuple[PlannedStep, ...] = loaded.prepared
    per_step: dict[str, Fraction] = {}
    chances = w.probabilities()
    for i, step in enumerate(plan):
        if step.attack is not None:
            per_step[f"{step.label}: hit"] = sum(
                (c for o, c in chances.items() if o[i].hit and not o[i].stopped), Fraction(0)
            )
        elif step.contest is not None:
            per_step[f"{step.label}: success"] = sum(
                (c for o, c in chances.items() if o[i].success), Fraction(0)
            )

    def total(o: tuple[Any, ...]) -> int:
        return sum(x.damage for x in o if isinstance(x, AttackOutcome))

    dist = w.to_dist(total)
    return OddsReport(
        ruleset=ID,
        title=loaded.title,
        p_hit=None,
        outcomes={"deals damage": 1 - dist.p(0), "deals no damage": dist.p(0)},
        distributions={"damage": dist},
        tables={"steps": per_step},
        truncated_mass=w.truncated_mass,
        notes=("damage = hit points lost by all targets over the turn",),
    )


def attack_report(loaded: Loaded[AttackOutcome]) -> OddsReport:
    """Exact odds of an attack."""
    return _attack_odds(outcome_distribution(loaded.run), loaded)


def cone_report(loaded: Loaded[SuppressOutcome]) -> OddsReport:
    """Exact odds of suppressing fire: the creature's Willpower check."""
    return _cone_odds(outcome_distribution(loaded.run), loaded)


def contest_report(loaded: Loaded[ContestOutcome]) -> OddsReport:
    """Exact odds of a contest."""
    return _contest_odds(outcome_distribution(loaded.run), loaded)


def initiative_report(loaded: Loaded[tuple[str, ...]]) -> OddsReport:
    """Exact odds of the acting order, for a few creatures."""
    if len(loaded.prepared) > INITIATIVE_ODDS_LIMIT:
        raise InputError(
            "initiative odds enumerate 20^N first rolls: "
            f"at most {INITIATIVE_ODDS_LIMIT} creatures",
            tip="resolve it with --seed instead, or ask about fewer creatures",
        )
    return _initiative_odds(outcome_distribution(loaded.run), loaded)


def turn_report(loaded: Loaded[tuple[StepOutcome, ...]]) -> OddsReport:
    """Exact odds of a whole planned turn."""
    return _turn_odds(outcome_distribution(loaded.run), loaded)
