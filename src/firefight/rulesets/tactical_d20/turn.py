"""The 4-Action turn (T02, T04): a budget the encounter engine can call, and turn plans.

:class:`TurnBudget` counts Actions and the one Reaction and refuses what does not fit.
:func:`prepare_turn` checks a whole plan (Actions, ammunition carried from step to step, fire-mode
and range limits) before any die is rolled; :func:`roll_turn` then resolves its steps in order.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from functools import partial

from firefight.core.transcript import Note, StateChange
from firefight.dice import DiceSource
from firefight.errors import RuleError
from firefight.rulesets.tactical_d20.attack import (
    AttackOutcome,
    PreparedAttack,
    check_can_act,
    prepare_attack,
    roll_attack,
)
from firefight.rulesets.tactical_d20.contests import (
    ContestOutcome,
    PreparedContest,
    action_cost,
    prepare_contest,
    roll_contest,
)
from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.models import Creature, Step, Weapon
from firefight.rulesets.tactical_d20.suppression import check_suppressing_fire


@dataclass(frozen=True)
class TurnBudget:
    """Actions left this turn and whether the Reaction is still available (T02).

    Frozen: :meth:`spend` and :meth:`use_reaction` return the budget after paying, so the
    encounter engine can keep it in a state and exact enumeration never shares a mutable budget.
    """

    house: TacticalD20House
    actions: int = -1
    reaction: bool = True
    spent: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        if self.actions < 0:
            object.__setattr__(self, "actions", self.house.actions_per_turn)

    def can_spend(self, cost: int) -> bool:
        return cost <= self.actions

    def spend(self, cost: int, what: str) -> TurnBudget:
        """Pay ``cost`` Actions for ``what`` or refuse with the budget in the message."""
        if cost > self.actions:
            used = self.house.actions_per_turn - self.actions
            raise RuleError(
                f"{what} needs {cost} Action(s) but {used} of the turn's "
                f"{self.house.actions_per_turn} are spent, {self.actions} left (T02)",
                tip="drop a step or move it to the next turn",
            )
        return replace(self, actions=self.actions - cost, spent=(*self.spent, (what, cost)))

    def use_reaction(self, what: str) -> TurnBudget:
        if not self.reaction:
            raise RuleError(f"{what} needs the Reaction, already used this round (T02)")
        return replace(self, reaction=False)


def move_distance(creature: Creature, house: TacticalD20House) -> int:
    """Feet one move Action covers: speed, 5 ft in a Grapple, halved by a leg wound (T04-T09)."""
    speed = house.grapple_speed if creature.has("grappled") else creature.speed
    return speed // 2 if creature.has("leg_wound") else speed


@dataclass(frozen=True)
class PlannedStep:
    """A checked step: its cost, and what to roll (if anything)."""

    label: str
    cost: int
    attack: PreparedAttack | None = None
    contest: PreparedContest | None = None
    notes: tuple[str, ...] = ()
    rule: str = "T02"
    ammo: tuple[str, int, int] | None = None


StepOutcome = AttackOutcome | ContestOutcome | None


def prepare_turn(
    actor: Creature,
    steps: tuple[Step, ...],
    resolve_targets: Callable[[Step, int], tuple[Creature, ...]],
    resolve_weapon: Callable[[Step, int], Weapon],
    house: TacticalD20House,
) -> tuple[PlannedStep, ...]:
    """Check a whole turn against the rules; refuse the first step that breaks them."""
    budget = TurnBudget(house)
    loaded: dict[str, int] = {}
    planned: list[PlannedStep] = []
    moved_since_attack = False
    for i, step in enumerate(steps, start=1):
        what = f"step {i} ({step.do.replace('_', ' ')})"
        if step.do != "escape":
            check_can_act(actor, step.do.replace("_", " "))
        if step.do == "move":
            budget = budget.spend(house.move_actions, what)
            moved_since_attack = True
            feet = move_distance(actor, house)
            planned.append(
                PlannedStep(what, house.move_actions, notes=(f"moves up to {feet} ft",), rule="T04")
            )
        elif step.do == "attack":
            weapon = resolve_weapon(step, i)
            targets = resolve_targets(step, i)
            rounds_now = loaded.get(
                weapon.name, weapon.magazine if step.loaded is None else step.loaded
            )
            prepared = prepare_attack(
                actor, targets, weapon, step.model_copy(update={"loaded": rounds_now}), house
            )
            if step.free:
                if not moved_since_attack:
                    raise RuleError(
                        f"{what}: a free melee attack comes only after moving into reach (T09)",
                        tip="put a move step before it or drop free = true",
                    )
                moved_since_attack = False
                cost = 0
            else:
                cost = house.attack_actions
                budget = budget.spend(cost, what)
            if weapon.is_ranged:
                loaded[weapon.name] = rounds_now - prepared.rounds
            planned.append(PlannedStep(what, cost, attack=prepared))
        elif step.do == "suppress":
            weapon = resolve_weapon(step, i)
            rounds_now = loaded.get(
                weapon.name, weapon.magazine if step.loaded is None else step.loaded
            )
            check_suppressing_fire(weapon, rounds_now, house)
            budget = budget.spend(house.suppress_actions, what)
            budget = budget.use_reaction(what)
            loaded[weapon.name] = rounds_now - house.suppress_rounds
            planned.append(
                PlannedStep(
                    what,
                    house.suppress_actions,
                    notes=(
                        f"lays a cone to {weapon.ranges[0]} ft (or a barrier); uses the Reaction",
                    ),
                    ammo=(weapon.name, rounds_now, rounds_now - house.suppress_rounds),
                    rule="T08",
                )
            )
        elif step.do in ("disarm", "restrain", "trip", "escape", "manacles", "body_check"):
            cost = action_cost(step.do, house)
            budget = budget.spend(cost, what)
            opponent = None
            if step.do not in ("body_check",) and step.target is not None:
                opponent = resolve_targets(step, i)[0]
            contest = prepare_contest(step.do, actor, opponent, step.distance, house)
            planned.append(PlannedStep(what, cost, contest=contest))
        elif step.do == "exit_grapple":
            budget = budget.spend(house.exit_grapple_actions, what)
            melee = len(step.grappling) > 1
            note = (
                "leaves the Melee to an adjacent space; no opportunity attack"
                if melee
                else "leaves the Grapple; the other creature may make a melee attack as a Reaction"
            )
            planned.append(PlannedStep(what, house.exit_grapple_actions, notes=(note,), rule="T09"))
        else:
            planned.append(PlannedStep(what, 0, notes=("a Free Action",)))
    return tuple(planned)


def roll_turn(
    actor: Creature, plan: tuple[PlannedStep, ...], dice: DiceSource, house: TacticalD20House
) -> tuple[StepOutcome, ...]:
    """Resolve each step in order; each attack or contest is its own sub-rule."""
    left = house.actions_per_turn
    outcomes: list[StepOutcome] = []
    hp: dict[str, int] = {}
    for index, step in enumerate(plan):
        left -= step.cost
        dice.record(Note(f"{actor.name} {step.label}: {step.cost} Action(s), {left} left", "T02"))
        for note in step.notes:
            dice.record(Note(note, step.rule))
        if step.ammo is not None:
            name, before, after = step.ammo
            dice.record(StateChange(name, "rounds loaded", before, after, "T08"))
        key: Hashable = ("tactical_d20 turn step", index)
        if step.attack is not None:
            prepared_attack = step.attack
            hit = dice.derive(step.label, partial(roll_attack, prepared_attack, hp=hp), key=key)
            if hit.member:
                start = next(t.hp for t in prepared_attack.targets if t.name == hit.member)
                hp[hit.member] = hp.get(hit.member, start) - hit.damage
            outcomes.append(hit)
        elif step.contest is not None:
            prepared_contest = step.contest
            outcomes.append(
                dice.derive(step.label, partial(roll_contest, prepared_contest), key=key)
            )
        else:
            outcomes.append(None)
    return tuple(outcomes)


def summary(plan: tuple[PlannedStep, ...], outcome: tuple[Hashable, ...]) -> dict[str, object]:
    """Each step's result for the CLI table and JSON."""
    out: dict[str, object] = {}
    for step, o in zip(plan, outcome, strict=True):
        if isinstance(o, AttackOutcome):
            out[step.label] = (
                f"{o.label}, {o.damage} hp lost" if o.hit and not o.stopped else o.label
            )
        elif isinstance(o, ContestOutcome):
            out[step.label] = "success" if o.success else "failure"
        else:
            out[step.label] = "done"
    return out
