"""The quality_d100 ruleset: the shared protocol over strikes (Q01-Q07, Q10) and equations (Q08)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from firefight.core.house import HouseRules, house_events
from firefight.core.loading import validate
from firefight.core.odds import OddsReport, outcome_distribution
from firefight.core.resolution import Resolution
from firefight.core.ruleset import Ruleset
from firefight.core.transcript import Note, StateChange, Transcript
from firefight.core.turns import ScenarioSpec, Turns
from firefight.core.validation import situation_kind
from firefight.dice import DiceSource, Weighted
from firefight.errors import InputError
from firefight.rulesets.quality_d100.equations import (
    EquationOutcome,
    EquationSituation,
    LoadedEquation,
    load_equation,
)
from firefight.rulesets.quality_d100.house import QualityHouse
from firefight.rulesets.quality_d100.models import AttackSituation
from firefight.rulesets.quality_d100.plan import Plan, make_plan
from firefight.rulesets.quality_d100.quality import BEST, NAMES, name
from firefight.rulesets.quality_d100.strike import (
    DESCRIPTIONS,
    PARRY_RESULTS,
    StrikeOutcome,
    armour_text,
    strike,
)
from firefight.rulesets.quality_d100.table import headers, table_rows

KINDS = ("attack", "equation")


@lru_cache(maxsize=256)
def strike_outcomes(plan: Plan) -> Weighted[StrikeOutcome]:
    """Every outcome of a strike with its exact probability (memoised per plan)."""
    return outcome_distribution(lambda dice: strike(plan, dice))


def record_plan(plan: Plan, dice: DiceSource) -> None:
    for m in plan.strike_mods:
        dice.record(m)
    dice.record(Note(f"strike chance = {plan.strike_chance}", "Q04/Q08"))
    for m in plan.die_mods:
        dice.record(m)
    for m in plan.defence_mods:
        dice.record(m)
    dice.record(Note(f"defence = {plan.defence}", "Q05"))
    w = plan.weapon
    if w is not None:
        label = " (EXAMPLE catalog entry, not from the text)" if w.example else ""
        dice.record(Note(f"weapon {w.name}{label}: BC {w.base_chance}, damage {w.damage}", "Q09"))
    if plan.damage is not None:
        dice.record(Note(f"damage {plan.damage}, maximum {plan.max_damage}", "Q03"))
    label = " (EXAMPLE catalog entry, not from the text)" if plan.armour.example else ""
    dice.record(Note(f"armour {armour_text(plan.armour)}{label}", "Q03, Q09"))


def _state_changes(plan: Plan, out: StrikeOutcome, dice: DiceSource) -> None:
    d, house = plan.situation.defender, plan.house
    if d.fatigue is not None and out.ft_damage:
        dice.record(StateChange(d.name, "FT", d.fatigue, d.fatigue - out.ft_damage, "Q03"))
    if d.endurance is not None and out.en_damage:
        dice.record(StateChange(d.name, "EN", d.endurance, d.endurance - out.en_damage, "Q03"))
    if out.parry in PARRY_RESULTS[1:]:
        who = plan.situation.attacker.name if house.parry_en_damage_to == "attacker" else d.name
        dice.record(Note(f"parry {out.parry}: {who} takes {house.parry_en_damage} EN", "Q07"))


def strike_summary(plan: Plan, out: StrikeOutcome) -> dict[str, Any]:
    return {
        "strike_chance": plan.strike_chance,
        "die_modifier": plan.die_modifier,
        "defence": plan.defence,
        "attack_quality": name(out.attack_quality),
        "defence_quality": name(out.defence_quality),
        "result_quality": name(out.result_quality),
        "result": DESCRIPTIONS[out.result_quality],
        "hit": out.hit,
        "ft_damage": out.ft_damage,
        "en_damage": out.en_damage,
        "damage": out.damage,
        "possible_grievous": out.possible_grievous,
        "grievous": out.grievous,
        "special": out.special or "none",
        "parry": out.parry or "none",
    }


class QualityD100(Ruleset):
    """Opposed D100 qualities of success with a result table (combat playtest)."""

    id = "quality_d100"
    title = "Opposed D100 qualities of success (combat playtest)"
    house_model = QualityHouse
    situation_kinds = KINDS
    scenario_keys = ("catalogs",)

    def load_situation(
        self, data: Mapping[str, Any], *, source: str, house: HouseRules
    ) -> Plan | LoadedEquation:
        assert isinstance(house, QualityHouse)
        kind = situation_kind(data, ("attack", "equation"), "attack", source)
        if kind == "equation":
            eq = validate(EquationSituation, data, source)
            return load_equation(eq, house, source)
        sit = validate(AttackSituation, data, source)
        return make_plan(sit, house, source)

    def resolve(self, situation: Any, dice: DiceSource) -> Resolution:
        mark = len(dice.events)
        for event in house_events(situation.house):
            dice.record(event)
        if isinstance(situation, LoadedEquation):
            eq = situation.run(dice)
            summary: dict[str, Any] = {
                "equation": situation.situation.equation,
                "result": eq.result,
                "value": eq.value,
            }
            if eq.passed is not None:
                summary["passed"] = eq.passed
            return Resolution(self.id, eq, Transcript.since(dice.events, mark), summary)
        plan: Plan = situation
        record_plan(plan, dice)
        out = strike(plan, dice)
        _state_changes(plan, out, dice)
        return Resolution(
            self.id, out, Transcript.since(dice.events, mark), strike_summary(plan, out)
        )

    def odds(self, situation: Any) -> OddsReport:
        if isinstance(situation, LoadedEquation):
            return _equation_odds(self.id, situation)
        return strike_odds(self.id, situation)

    def table(
        self, rows: tuple[int, int] | None, printed: bool, house: HouseRules
    ) -> tuple[list[str], list[list[str]]]:
        if rows is not None and rows[0] > 100:
            raise InputError(
                f"--rows {rows[0]}-{rows[1]}: the table has rolls 1-100",
                tip="write e.g. --rows 1-100",
            )
        assert isinstance(house, QualityHouse)
        return headers(), table_rows(rows, printed, house)

    def encounter(self, spec: ScenarioSpec) -> Turns:
        """Whole fights: pulses, exchanges and lasting conditions (``encounter.py``)."""
        from firefight.rulesets.quality_d100.encounter import QualityTurns  # needs this module

        return QualityTurns(spec)

    def script_order(self) -> str:
        return "attacker D100, defender D100, then damage / special / grievous rolls as listed"


def strike_odds(ruleset: str, plan: Plan) -> OddsReport:
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
    return OddsReport(
        ruleset,
        title,
        w.probability(lambda o: o.hit),
        outcomes,
        dists,
        tables,
        probs,
        w.truncated_mass,
        tuple(notes),
    )


def _table(w: Weighted[Any], label: Any) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for outcome, p in w.probabilities().items():
        key = str(label(outcome))
        out[key] = out.get(key, Fraction(0)) + p
    return dict(sorted(out.items()))


def _equation_odds(ruleset: str, eq: LoadedEquation) -> OddsReport:
    w: Weighted[EquationOutcome] = outcome_distribution(eq.run)
    outcomes = _table(w, lambda o: o.result)
    probs: dict[str, Fraction] = {}
    if any(o.passed is not None for o in w.outcomes()):
        probs["p_success"] = w.probability(lambda o: bool(o.passed))
    dists = {}
    if all(o.value is not None for o in w.outcomes()):
        dists["value"] = w.to_dist(lambda o: o.value or 0)
    title = eq.situation.title or f"equation {eq.situation.equation}"
    return OddsReport(ruleset, title, None, outcomes, dists, {}, probs, w.truncated_mass)
