"""A toy ruleset for the engine's own tests: small enough to work every figure out by hand.

Each combatant has ``hp`` hit points and a ``skill``; a round's order is the scenario's order
(no initiative dice) unless ``initiative = true`` is set on the scenario, when each rolls a d6
(higher first, ties in file order). ``attack`` rolls a d6 and hits on ``skill`` or more, taking
one hit point; ``dodge`` (defensive) raises the dodger's target number by 1 until its next turn;
``wait`` does nothing.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel

from firefight.core.minimal import simple_kind
from firefight.core.ruleset import Ruleset
from firefight.core.transcript import Note, StateChange
from firefight.core.turns import Action, FightState, ScenarioSpec, Turns
from firefight.dice import DiceSource


@dataclass(frozen=True)
class Fighter:
    name: str
    side: str
    hp: int
    dodging: bool = False


class ToyTurns(Turns):
    state_types: ClassVar[tuple[type, ...]] = (Fighter,)

    def __init__(self, spec: ScenarioSpec) -> None:
        super().__init__(spec)
        self.skill: dict[str, int] = {}
        self.max_hp: dict[str, int] = {}
        for e in spec.combatants:
            hp, skill = e.fields.get("hp"), e.fields.get("skill", 4)
            if not isinstance(hp, int) or hp < 1:
                raise spec.fail(f"{e.where}.hp", "must be a whole number of at least 1")
            self.max_hp[e.name] = hp
            self.skill[e.name] = int(skill)
        self.rolls_initiative = bool(spec.extra.get("initiative", False))

    def initial(self) -> FightState:
        fighters = tuple(Fighter(e.name, e.side, self.max_hp[e.name]) for e in self.spec.combatants)
        return FightState(0, "between rounds", (), None, fighters)

    def start_round(self, state: FightState, dice: DiceSource) -> FightState:
        standing = [c for c in state.combatants if self.can_fight(c)]
        if self.rolls_initiative:
            rolls = {c.name: dice.roll("d6", why=f"{c.name} initiative").total for c in standing}
            standing.sort(key=lambda c: -rolls[c.name])
        order = tuple(c.name for c in standing)
        dice.record(Note(f"order: {', '.join(order)}"))
        return dataclasses.replace(
            state, round=state.round + 1, phase="turns", order=order, acting=order[0]
        )

    def legal_actions(self, state: FightState) -> tuple[Action, ...]:
        me = state.acting
        assert me is not None
        mine = state.combatant(me)
        out = [
            Action(f"attack:{c.name}", me, f"{me} attacks {c.name}", "attack", target=c.name)
            for c in state.combatants
            if c.side != mine.side and self.can_fight(c)
        ]
        out.append(Action("dodge", me, f"{me} dodges", "defend", defensive=True))
        out.append(Action("wait", me, f"{me} waits", "wait"))
        return tuple(out)

    def act(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        me = state.combatant(action.actor)
        if me.dodging:
            state = state.with_combatant(dataclasses.replace(me, dodging=False))
        if action.kind == "attack":
            target = state.combatant(action.target)
            need = self.skill[action.actor] + (1 if target.dodging else 0)
            face = dice.roll("d6", why=f"{action.actor} attacks {target.name}").total
            if face >= need:
                after = dataclasses.replace(target, hp=target.hp - 1)
                dice.record(StateChange(target.name, "hp", target.hp, after.hp, "toy"))
                state = state.with_combatant(after)
        elif action.kind == "defend":
            state = state.with_combatant(dataclasses.replace(me, dodging=True))
        return self._next(state)

    def _next(self, state: FightState) -> FightState:
        i = state.order.index(state.acting or "")
        for name in state.order[i + 1 :]:
            if self.can_fight(state.combatant(name)):
                return dataclasses.replace(state, acting=name)
        return dataclasses.replace(state, acting=None, phase="between rounds")

    def can_fight(self, combatant: Any) -> bool:
        return bool(combatant.hp > 0)

    def is_dead(self, combatant: Any) -> bool:
        return bool(combatant.hp <= 0)

    def harm(self, combatant: Any) -> int:
        return self.max_hp[combatant.name] - int(combatant.hp)

    def view(self, combatant: Any) -> dict[str, Any]:
        status = "down" if combatant.hp <= 0 else "fighting"
        return {"hp": f"{combatant.hp}/{self.max_hp[combatant.name]}", "status": status}


class Swing(BaseModel):
    """One toy attack: a d6 against ``skill``."""

    kind: Literal["swing"] = "swing"
    skill: int = 4


def swing(situation: Swing, dice: DiceSource) -> bool:
    return dice.roll("d6", why="toy swing").total >= situation.skill


class Toy(Ruleset):
    id: ClassVar[str] = "toy"
    title: ClassVar[str] = "toy duel (tests only)"
    scenario_keys: ClassVar[tuple[str, ...]] = ("initiative",)
    kinds = (simple_kind("toy", "swing", Swing, swing, label=lambda hit: "hit" if hit else "miss"),)
    turns = ToyTurns


RULESET = Toy()
