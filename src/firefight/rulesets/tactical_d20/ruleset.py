"""tactical_d20 through the shared Ruleset protocol: load a situation of any kind, resolve it on
any dice, and read exact odds off the very same rule code."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from pydantic import BaseModel

from firefight.core.house import HouseRules, house_events
from firefight.core.loading import validate
from firefight.core.odds import OddsReport, outcome_distribution
from firefight.core.resolution import Resolution
from firefight.core.ruleset import Ruleset
from firefight.core.transcript import Check, Transcript
from firefight.core.turns import ScenarioSpec, Turns
from firefight.core.validation import situation_kind
from firefight.dice import DiceSource, Dist, Weighted
from firefight.errors import InputError
from firefight.rulesets.tactical_d20 import gear
from firefight.rulesets.tactical_d20.attack import (
    AttackOutcome,
    PreparedAttack,
    prepare_attack,
    roll_attack,
)
from firefight.rulesets.tactical_d20.contests import (
    ContestOutcome,
    prepare_contest,
    roll_contest,
)
from firefight.rulesets.tactical_d20.house import TacticalHouse
from firefight.rulesets.tactical_d20.initiative import UNRESOLVED, roll_initiative
from firefight.rulesets.tactical_d20.models import (
    AttackFields,
    AttackSituation,
    ContestSituation,
    Creature,
    InitiativeSituation,
    Step,
    SuppressionSituation,
    TurnSituation,
)
from firefight.rulesets.tactical_d20.suppression import (
    RESULTS,
    PreparedCone,
    SuppressOutcome,
    prepare_cone,
    roll_cone,
)
from firefight.rulesets.tactical_d20.turn import PlannedStep, prepare_turn, roll_turn

ID = "tactical_d20"
MODELS: dict[str, type[BaseModel]] = {
    "attack": AttackSituation,
    "suppression": SuppressionSituation,
    "contest": ContestSituation,
    "initiative": InitiativeSituation,
    "turn": TurnSituation,
}
#: Most creatures an exact initiative enumeration takes (20^N first rolls).
INITIATIVE_ODDS_LIMIT = 3


@dataclass(frozen=True)
class Loaded:
    """A checked situation: its kind, the house rules, and the rule to run on dice."""

    kind: str
    title: str
    house: TacticalHouse
    run: Callable[[DiceSource], Hashable]
    prepared: Any


def _targets(catalog: Any, f: AttackFields, source: str, where: str) -> tuple[Creature, ...]:
    if f.targets:
        found = tuple(
            gear.creature(catalog, ref, source, f"{where}targets[{i}]")
            for i, ref in enumerate(f.targets)
        )
    else:
        assert f.target is not None
        found = (gear.creature(catalog, f.target, source, f"{where}target"),)
    _unique(found, source)
    return found


def _unique(creatures: tuple[Creature, ...], source: str) -> None:
    names = [c.name for c in creatures]
    for name in names:
        if names.count(name) > 1:
            raise InputError(
                f"{source}: two creatures are called {name!r}",
                tip=f'give each its own name, e.g. {{ use = "{name.lower()}", name = "{name} 2" }}',
            )


def _load_attack(s: AttackSituation, source: str, house: TacticalHouse) -> Loaded:
    catalog = gear.catalog_for(s.catalogs, source)
    attacker = gear.creature(catalog, s.attacker, source, "attacker")
    targets = _targets(catalog, s, source, "")
    weapon = gear.weapon(catalog, s.weapon, source, "weapon", house)
    p = prepare_attack(attacker, targets, weapon, s, house)
    who = " / ".join(t.name for t in targets)
    mode = s.mode.replace("_", " ")
    title = f"{attacker.name}: {weapon.name} {mode} at {who} ({s.region}, {s.distance} ft)"
    return Loaded("attack", title, house, lambda d: roll_attack(p, d), p)


def _load_suppression(s: SuppressionSituation, source: str, house: TacticalHouse) -> Loaded:
    catalog = gear.catalog_for(s.catalogs, source)
    shooter = gear.creature(catalog, s.shooter, source, "shooter")
    creature = gear.creature(catalog, s.creature, source, "creature")
    weapon = gear.weapon(catalog, s.weapon, source, "weapon", house)
    p = prepare_cone(shooter, weapon, creature, s, house)
    where = s.position.replace("_", " ")
    title = f"{shooter.name}: suppressing fire ({weapon.name}); {creature.name} {where}"
    return Loaded("suppression", title, house, lambda d: roll_cone(p, d), p)


def _load_contest(s: ContestSituation, source: str, house: TacticalHouse) -> Loaded:
    catalog = gear.catalog_for(s.catalogs, source)
    actor = gear.creature(catalog, s.actor, source, "actor")
    opponent = gear.creature(catalog, s.opponent, source, "opponent") if s.opponent else None
    p = prepare_contest(s.action, actor, opponent, s.distance, house)
    against = f" vs {opponent.name}" if opponent is not None and p.dc is None else ""
    title = f"{actor.name}: {s.action.replace('_', ' ')}{against}"
    return Loaded("contest", title, house, lambda d: roll_contest(p, d), p)


def _load_initiative(s: InitiativeSituation, source: str, house: TacticalHouse) -> Loaded:
    catalog = gear.catalog_for(s.catalogs, source)
    creatures = tuple(
        gear.creature(catalog, ref, source, f"creatures[{i}]") for i, ref in enumerate(s.creatures)
    )
    _unique(creatures, source)
    title = "initiative: " + ", ".join(c.name for c in creatures)
    return Loaded(
        "initiative", title, house, lambda d: roll_initiative(creatures, d, house), creatures
    )


def _load_turn(s: TurnSituation, source: str, house: TacticalHouse) -> Loaded:
    catalog = gear.catalog_for(s.catalogs, source)
    actor = gear.creature(catalog, s.actor, source, "actor")

    def targets(step: Step, i: int) -> tuple[Creature, ...]:
        return _targets(catalog, step, source, f"steps[{i - 1}].")

    def weapon(step: Step, i: int) -> Any:
        return gear.weapon(catalog, step.weapon, source, f"steps[{i - 1}].weapon", house)

    plan = prepare_turn(actor, s.steps, targets, weapon, house)
    title = f"{actor.name}'s turn: " + ", ".join(st.do.replace("_", " ") for st in s.steps)
    return Loaded("turn", title, house, lambda d: roll_turn(actor, plan, d, house), plan)


LOADERS: dict[str, Callable[[Any, str, TacticalHouse], Loaded]] = {
    "attack": _load_attack,
    "suppression": _load_suppression,
    "contest": _load_contest,
    "initiative": _load_initiative,
    "turn": _load_turn,
}


# ----------------------------------------------------------------------------------------------
# Summaries and odds, per kind
# ----------------------------------------------------------------------------------------------
def _attack_summary(o: AttackOutcome, t: Transcript, p: PreparedAttack) -> dict[str, Any]:
    check = next(e for e in t.of_type(Check) if e.name == "attack roll")
    out: dict[str, Any] = {"attack roll": check.value, "dodge": check.target, "result": o.label}
    if o.hit:
        out["target"] = o.member
    if o.hit and not o.stopped:
        out["damage rolled"] = o.rolled
        out["hp lost"] = o.damage
        out["effects"] = ", ".join(e.label() for e in o.effects) or "none"
    if p.rounds:
        out["rounds left"] = p.loaded - p.rounds
    return out


def _attack_odds(w: Weighted[AttackOutcome], loaded: Loaded) -> OddsReport:
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
            "p_hit counts hits that reach the target (cover that stops a hit is not a hit); "
            "damage = hit points lost after damage thresholds",
        ),
    )


def _cone_odds(w: Weighted[SuppressOutcome], loaded: Loaded) -> OddsReport:
    by_result = w.map(lambda o: o.result).probabilities()
    outcomes = {r: by_result.get(r, Fraction(0)) for r in (*RESULTS, "outside", "protected")}
    check = {r: outcomes[r] for r in RESULTS}
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


def _contest_odds(w: Weighted[ContestOutcome], loaded: Loaded) -> OddsReport:
    success = w.probability(lambda o: o.success)
    return OddsReport(
        ruleset=ID,
        title=loaded.title,
        p_hit=None,
        outcomes={"success": success, "failure": 1 - success},
        probabilities={"p_success": success},
    )


def _initiative_odds(w: Weighted[tuple[str, ...]], loaded: Loaded) -> OddsReport:
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


def _turn_odds(w: Weighted[tuple[Any, ...]], loaded: Loaded) -> OddsReport:
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


def _summary(loaded: Loaded, outcome: Any, t: Transcript) -> dict[str, Any]:
    if loaded.kind == "attack":
        return _attack_summary(outcome, t, loaded.prepared)
    if loaded.kind == "suppression":
        return {"result": outcome.result, "damage": outcome.damage}
    if loaded.kind == "contest":
        return {"result": "success" if outcome.success else "failure"}
    if loaded.kind == "initiative":
        return {"order": " > ".join(outcome)}
    out: dict[str, Any] = {}
    for step, o in zip(loaded.prepared, outcome, strict=True):
        if isinstance(o, AttackOutcome):
            out[step.label] = (
                f"{o.label}, {o.damage} hp lost" if o.hit and not o.stopped else o.label
            )
        elif isinstance(o, ContestOutcome):
            out[step.label] = "success" if o.success else "failure"
        else:
            out[step.label] = "done"
    return out


ODDS: dict[str, Callable[[Any, Loaded], OddsReport]] = {
    "attack": _attack_odds,
    "suppression": _cone_odds,
    "contest": _contest_odds,
    "initiative": _initiative_odds,
    "turn": _turn_odds,
}


class TacticalD20(Ruleset):
    """Four-Action d20 combat: targeted regions, fire modes, suppressing cone, grapples, cover."""

    id: ClassVar[str] = ID
    title: ClassVar[str] = (
        "tactical d20: four Actions, targeted regions, fire modes, grapples, cover"
    )
    house_model: ClassVar[type[HouseRules]] = TacticalHouse
    situation_kinds: ClassVar[tuple[str, ...]] = (
        "attack",
        "suppression",
        "contest",
        "initiative",
        "turn",
    )

    #: A scenario may add catalog files, as situation files do.
    scenario_keys: ClassVar[tuple[str, ...]] = ("catalogs",)

    def encounter(self, spec: ScenarioSpec) -> Turns:
        """Whole fights: rounds, the 4-Action turn, the Reaction (``encounter.TacticalTurns``)."""
        from firefight.rulesets.tactical_d20.encounter import TacticalTurns

        return TacticalTurns(spec)

    def load_situation(self, data: Mapping[str, Any], *, source: str, house: HouseRules) -> Loaded:
        rules = house if isinstance(house, TacticalHouse) else TacticalHouse()
        kind = situation_kind(data, list(MODELS), "attack", source)
        model = validate(MODELS[kind], data, source)
        return LOADERS[kind](model, source, rules)

    def situation_kind(self, situation: Any) -> str:
        return str(situation.kind)

    def resolve(self, situation: Loaded, dice: DiceSource) -> Resolution:
        mark = len(dice.events)
        for e in house_events(situation.house):
            dice.record(e)
        outcome = situation.run(dice)
        transcript = Transcript.since(dice.events, mark)
        return Resolution(ID, outcome, transcript, _summary(situation, outcome, transcript))

    def odds(self, situation: Loaded) -> OddsReport:
        if situation.kind == "initiative" and len(situation.prepared) > INITIATIVE_ODDS_LIMIT:
            raise InputError(
                "initiative odds enumerate 20^N first rolls: "
                f"at most {INITIATIVE_ODDS_LIMIT} creatures",
                tip="resolve it with --seed instead, or ask about fewer creatures",
            )
        w = outcome_distribution(situation.run)
        return ODDS[situation.kind](w, situation)

    def script_order(self) -> str:
        return (
            "attack d20, then (on a hit) the member die of a Grapple/Melee, the weapon dice, then "
            "each extra die; contests: actor d20 then opponent d20"
        )


RULESET = TacticalD20()


def damage_dist(report: OddsReport) -> Dist:
    """The ``damage`` distribution of a report (hit points lost)."""
    return report.distributions["damage"]
