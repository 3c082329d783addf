"""Situation files, one loader per kind: validate the file, resolve catalog names, and prepare
everything the dice do not decide (a :class:`Loaded` holds the rule to run on dice)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from firefight.core.house import house_events
from firefight.core.loading import validate
from firefight.dice import DiceSource
from firefight.errors import InputError
from firefight.rulesets.tactical_d20 import gear
from firefight.rulesets.tactical_d20.attack import AttackOutcome, prepare_attack, roll_attack
from firefight.rulesets.tactical_d20.contests import ContestOutcome, prepare_contest, roll_contest
from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.initiative import roll_initiative
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
from firefight.rulesets.tactical_d20.suppression import SuppressOutcome, prepare_cone, roll_cone
from firefight.rulesets.tactical_d20.turn import StepOutcome, prepare_turn, roll_turn

M = TypeVar("M", bound=BaseModel)
Out = TypeVar("Out", bound=Hashable)


@dataclass(frozen=True)
class Loaded(Generic[Out]):
    """A checked situation: its kind, the house rules, and the rule to run on dice."""

    kind: str
    title: str
    house: TacticalD20House
    run: Callable[[DiceSource], Out]
    prepared: Any


def _targets(catalog: Any, f: AttackFields, source: str, where: str) -> tuple[Creature, ...]:
    if f.targets:
        found = tuple(
            gear.creature(catalog, ref, source, f"{where}targets[{i}]")
            for i, ref in enumerate(f.targets)
        )
    else:
        if f.target is None:
            raise InputError(f"{source}: field {where}target is missing", tip="name a target")
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


def _load_attack(s: AttackSituation, source: str, house: TacticalD20House) -> Loaded[AttackOutcome]:
    catalog = gear.catalog_for(s.catalogs, source)
    attacker = gear.creature(catalog, s.attacker, source, "attacker")
    targets = _targets(catalog, s, source, "")
    weapon = gear.weapon(catalog, s.weapon, source, "weapon", house)
    p = prepare_attack(attacker, targets, weapon, s, house)
    who = " / ".join(t.name for t in targets)
    mode = s.mode.replace("_", " ")
    title = f"{attacker.name}: {weapon.name} {mode} at {who} ({s.region}, {s.distance} ft)"
    return Loaded("attack", title, house, lambda d: roll_attack(p, d), p)


def _load_suppression(
    s: SuppressionSituation, source: str, house: TacticalD20House
) -> Loaded[SuppressOutcome]:
    catalog = gear.catalog_for(s.catalogs, source)
    shooter = gear.creature(catalog, s.shooter, source, "shooter")
    creature = gear.creature(catalog, s.creature, source, "creature")
    weapon = gear.weapon(catalog, s.weapon, source, "weapon", house)
    p = prepare_cone(shooter, weapon, creature, s, house)
    where = s.position.replace("_", " ")
    title = f"{shooter.name}: suppressing fire ({weapon.name}); {creature.name} {where}"
    return Loaded("suppression", title, house, lambda d: roll_cone(p, d), p)


def _load_contest(
    s: ContestSituation, source: str, house: TacticalD20House
) -> Loaded[ContestOutcome]:
    catalog = gear.catalog_for(s.catalogs, source)
    actor = gear.creature(catalog, s.actor, source, "actor")
    opponent = gear.creature(catalog, s.opponent, source, "opponent") if s.opponent else None
    p = prepare_contest(s.action, actor, opponent, s.distance, house)
    against = f" vs {opponent.name}" if opponent is not None and p.dc is None else ""
    title = f"{actor.name}: {s.action.replace('_', ' ')}{against}"
    return Loaded("contest", title, house, lambda d: roll_contest(p, d), p)


def _load_initiative(
    s: InitiativeSituation, source: str, house: TacticalD20House
) -> Loaded[tuple[str, ...]]:
    catalog = gear.catalog_for(s.catalogs, source)
    creatures = tuple(
        gear.creature(catalog, ref, source, f"creatures[{i}]") for i, ref in enumerate(s.creatures)
    )
    _unique(creatures, source)
    title = "initiative: " + ", ".join(c.name for c in creatures)
    return Loaded(
        "initiative", title, house, lambda d: roll_initiative(creatures, d, house), creatures
    )


def _load_turn(
    s: TurnSituation, source: str, house: TacticalD20House
) -> Loaded[tuple[StepOutcome, ...]]:
    catalog = gear.catalog_for(s.catalogs, source)
    actor = gear.creature(catalog, s.actor, source, "actor")

    def targets(step: Step, i: int) -> tuple[Creature, ...]:
        return _targets(catalog, step, source, f"steps[{i - 1}].")

    def weapon(step: Step, i: int) -> Any:
        return gear.weapon(catalog, step.weapon, source, f"steps[{i - 1}].weapon", house)

    plan = prepare_turn(actor, s.steps, targets, weapon, house)
    title = f"{actor.name}'s turn: " + ", ".join(st.do.replace("_", " ") for st in s.steps)
    return Loaded("turn", title, house, lambda d: roll_turn(actor, plan, d, house), plan)


def _from_file(
    model: type[M], load: Callable[[M, str, TacticalD20House], Loaded[Out]]
) -> Callable[[Mapping[str, Any], str, TacticalD20House], Loaded[Out]]:
    """A loader of file data: validate it as ``model``, then ``load`` it."""
    return lambda data, source, house: load(validate(model, data, source), source, house)


load_attack = _from_file(AttackSituation, _load_attack)
load_suppression = _from_file(SuppressionSituation, _load_suppression)
load_contest = _from_file(ContestSituation, _load_contest)
load_initiative = _from_file(InitiativeSituation, _load_initiative)
load_turn = _from_file(TurnSituation, _load_turn)


def run(situation: Loaded[Out], dice: DiceSource) -> Out:
    """Resolve a loaded situation: the house rules in force, then its rule on the dice."""
    for e in house_events(situation.house):
        dice.record(e)
    return situation.run(dice)
