"""A whole RISK battle as firefight's turn structure (R01, R05-R07 of the README).

The first combatant of the scenario attacks, the second defends; each has ``armies`` (the
attacker's count the armies that may attack, not the one left behind, R01). A round is one
roll. Each round the attacker decides: attack (with as many dice as allowed, listed first, or
fewer) or stop (R05). The battle ends when the defender has no army left (the attacker takes
the territory), the attacker has none left to attack with, or the attacker stops (R06).

The state is two small records (armies, and whether the attacker stopped), so exact battle odds
are an absorbing chain over at most (attacking + 1) x (defending + 1) positions, and no state
holds a round number: one kernel serves a position in every round (:meth:`shift_rounds`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from firefight.api import (
    Action,
    CombatantEntry,
    DiceSource,
    FightState,
    GmField,
    Note,
    ScenarioSpec,
    SimpleTurns,
    StateChange,
    evolve,
    shift_round,
    validate,
)
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from firefight_risk.battle import attacker_dice, defender_dice, roll
from firefight_risk.house import RiskHouse

#: The most armies one side may bring (a battle of 1000 against 1000 is ~2000 rolls).
MOST_ARMIES = 1000


class ArmyFields(BaseModel):
    """A combatant's fields in a scenario file."""

    model_config = ConfigDict(extra="forbid")

    name: StrictStr
    armies: StrictInt = Field(ge=1, le=MOST_ARMIES)


@dataclass(frozen=True)
class Army:
    """One side's armies in the battle; ``stopped``: the attacker called the attack off."""

    name: str
    side: str
    armies: int
    stopped: bool = False


class RiskTurns(SimpleTurns):
    """A RISK battle: the attacker rolls (or stops) each round, the defender only answers."""

    state_types: ClassVar[tuple[type, ...]] = (Army,)
    public_keys: ClassVar[tuple[str, ...]] = ("armies", "lost", "status")

    def __init__(self, spec: ScenarioSpec) -> None:
        super().__init__(spec)
        if not isinstance(spec.house, RiskHouse):
            raise spec.fail(
                "house", f"RISK takes RiskHouse house rules, not {type(spec.house).__name__}"
            )
        self.house = spec.house
        entries = spec.combatants
        battle = len(entries) == 2 and entries[0].side != entries[1].side
        # a draft (the tracker's form) gets the attacker before the defender
        if not battle and not (spec.draft and len(entries) < 2):
            raise spec.fail(
                "combatants",
                "a RISK battle has two combatants on two sides, the attacker first",
                tip="give one [[combatants]] for the attacker, then one for the defender",
            )
        self.attacker, self.defender = [e.name for e in entries] + [""] * (2 - len(entries))
        self.start_armies = {e.name: self._fields(e).armies for e in entries}

    def _fields(self, entry: CombatantEntry) -> ArmyFields:
        return validate(ArmyFields, entry.fields, f"{self.spec.source}: {entry.where}")

    def combatant(self, entry: CombatantEntry) -> Army:
        return Army(entry.name, entry.side, self.start_armies[entry.name])

    # -- the round ---------------------------------------------------------------------------
    def round_order(self, state: FightState, dice: DiceSource) -> tuple[str, ...]:
        """Only the attacker decides; the defender rolls as many dice as allowed (R03)."""
        return (self.attacker,) if self.can_fight(state.combatant(self.attacker)) else ()

    def legal_actions(self, state: FightState) -> tuple[Action, ...]:
        """R05: attack with as many dice as allowed (first), with fewer, or stop."""
        me = state.combatant(self.attacker)
        them = state.combatant(self.defender)
        most = attacker_dice(me.armies, self.house)
        answer = defender_dice(them.armies, self.house)
        out = [
            Action(
                "attack" if n == most else f"attack:{n}",
                self.attacker,
                f"{self.attacker} rolls {n} {_dice(n)} against {answer}",
                "attack",
                target=self.defender,
                params=(("dice", n),),
            )
            for n in range(most, 0, -1)
        ]
        out.append(
            Action(
                "stop", self.attacker, f"{self.attacker} stops the attack", "stop", defensive=True
            )
        )
        return tuple(out)

    def act(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        me = state.combatant(self.attacker)
        if action.kind == "stop":
            dice.record(Note(f"{self.attacker} stops the attack", "R05"))
            return self.pass_turn(state.with_combatant(evolve(me, stopped=True)), dice)
        them = state.combatant(self.defender)
        n = attacker_dice(me.armies, self.house, action.param("dice"))
        losses = roll(dice, n, defender_dice(them.armies, self.house), self.house)
        for army, lost in ((me, losses.attacker), (them, losses.defender)):
            if lost:
                after = evolve(army, armies=army.armies - lost)
                if not dice.is_exact:
                    dice.record(StateChange(army.name, "armies", army.armies, after.armies, "R04"))
                state = state.with_combatant(after)
        return self.pass_turn(state, dice)

    def gm_fields(self, state: FightState, name: str) -> Mapping[str, GmField]:
        """The GM may set either side's armies (reinforcements, a card's bonus), and call the
        attacker's attack off or on again."""
        fields = {"armies": GmField(Annotated[int, Field(ge=0, le=MOST_ARMIES)])}
        if name == self.attacker:
            fields["stopped"] = GmField(bool)
        return fields

    def shift_rounds(self, state: FightState, delta: int) -> FightState | None:
        """Nothing reads the round: a position plays the same in every round."""
        return shift_round(state, delta)

    # -- reading the state -------------------------------------------------------------------
    def can_fight(self, combatant: Any) -> bool:
        """R06: still in the battle while it has armies and has not stopped."""
        return bool(combatant.armies > 0 and not combatant.stopped)

    def is_dead(self, combatant: Any) -> bool:
        """Wiped out (a stopped attacker keeps its armies)."""
        return bool(combatant.armies <= 0)

    def harm(self, combatant: Any) -> int:
        """Armies lost."""
        return self.start_armies[combatant.name] - int(combatant.armies)

    def view(self, combatant: Any) -> dict[str, Any]:
        role = "attacking" if combatant.name == self.attacker else "defending"
        if combatant.stopped:
            status = "stopped"
        elif combatant.armies <= 0:
            status = "wiped out"
        else:
            status = role
        return {"armies": combatant.armies, "lost": self.harm(combatant), "status": status}

    def after_fight(self, state: FightState) -> list[str]:
        """R07: the attacker who takes the territory moves armies in."""
        me = state.combatant(self.attacker)
        if state.winner == me.side:
            return [
                f"{self.attacker} takes the territory: move in at least as many armies as dice "
                f"in the last roll, up to all {me.armies} left (R07)"
            ]
        return []


def _dice(n: int) -> str:
    return "die" if n == 1 else "dice"
