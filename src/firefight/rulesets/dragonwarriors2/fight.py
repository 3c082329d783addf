"""Turns of a fight: initiative (D03), exchanges in order, stuns that last until the same point
of the next turn (D06). The Rolf vs Lennox example (D11) is a fight of two turns."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from firefight.core.house import house_events
from firefight.core.transcript import Modifier, Note, StateChange
from firefight.dice import DiceSource
from firefight.rulesets.dragonwarriors2.attack import (
    Bout,
    ExchangeOutcome,
    fighter_state,
    run_exchange,
)
from firefight.rulesets.dragonwarriors2.contests import DoubleSixHook, bonus_hook, plus_minus
from firefight.rulesets.dragonwarriors2.gear import Fighter, Missile
from firefight.rulesets.dragonwarriors2.house import DragonWarriors2House
from firefight.rulesets.dragonwarriors2.models import Options


@dataclass(frozen=True)
class Initiative:
    name: str
    total: int
    reflexes: int


def roll_initiative(
    dice: DiceSource, fighters: list[Fighter], hook: DoubleSixHook | None = None
) -> list[Initiative]:
    """Reflexes + roll - armour for each combatant, best first (D03).

    Reading for ties: the higher Reflexes acts first; still tied, they act together, in the
    order the situation lists them.
    """
    rolled = []
    for f in fighters:
        if f.armour_reduction:
            dice.record(
                Modifier(
                    "armour", -f.armour_reduction, f"{f.name}'s initiative", f.armour or "", "D03"
                )
            )
        total = f.reflexes + plus_minus(dice, f.name, "initiative", hook) - f.armour_reduction
        rolled.append(Initiative(f.name, total, f.reflexes))
    order = sorted(rolled, key=lambda i: (-i.total, -i.reflexes))
    text = ", ".join(f"{i.name} {i.total}" for i in order)
    dice.record(Note(f"initiative order: {text}", "D03"))
    return order


@dataclass(frozen=True)
class PlannedExchange:
    attacker: str
    defender: str
    defender_stance: str | None
    missile: Missile | None


@dataclass(frozen=True)
class PlannedTurn:
    initiative: bool
    exchanges: tuple[PlannedExchange, ...]


@dataclass(frozen=True)
class FightResult:
    fighters: tuple[Fighter, ...]
    exchanges: tuple[ExchangeOutcome, ...]
    initiative: tuple[tuple[Initiative, ...], ...]


def run_fight(
    dice: DiceSource,
    fighters: list[Fighter],
    turns: tuple[PlannedTurn, ...],
    options: Options,
    house: DragonWarriors2House,
    hook: DoubleSixHook | None = None,
) -> FightResult:
    """Play the turns in order; each exchange is :func:`run_exchange` on the current states."""
    now = {f.name: f for f in fighters}
    stun_ends: dict[str, tuple[int, int]] = {f.name: (0, 0) for f in fighters if f.stunned}
    used = {f.name: 0 for f in fighters}
    outcomes: list[ExchangeOutcome] = []
    inits: list[tuple[Initiative, ...]] = []
    for t, turn in enumerate(turns, start=1):
        dice.record(Note(f"turn {t}"))
        ranks: dict[str, int] = {}
        if turn.initiative:
            active = [f for f in now.values() if not f.out_of_fight]
            order = roll_initiative(dice, active, hook)
            inits.append(tuple(order))
            ranks = {i.name: i.total for i in order}
        for slot, ex in enumerate(turn.exchanges, start=1):
            for name, ends in list(stun_ends.items()):
                if (t, slot) >= ends and now[name].stunned:
                    dice.record(StateChange(name, "stunned", True, False, "D06"))
                    now[name] = replace(now[name], stunned=False)
                    del stun_ends[name]
            later = {e.attacker for e in turn.exchanges[slot:]} - {ex.attacker}
            for other in sorted(later):
                if ranks.get(other, -(10**9)) > ranks.get(ex.attacker, -(10**9)):
                    dice.record(
                        Note(f"{other} delays his action (initiative {ranks[other]})", "D03")
                    )
            att, dfn = now[ex.attacker], now[ex.defender]
            if att.out_of_fight or dfn.out_of_fight:
                who = att if att.out_of_fight else dfn
                dice.record(Note(f"{ex.attacker} -> {ex.defender}: {who.name} is out of the fight"))
                continue
            if ex.defender_stance is not None:
                dfn = replace(dfn, stance=ex.defender_stance)
            dice.record(Note(f"{att.name} attacks {dfn.name}", "D04"))
            bout = Bout(att, dfn, options, house, ex.missile, (used[att.name], used[dfn.name]))
            rec = run_exchange(dice, bout, hook)
            used[att.name] += rec.choices[0]
            used[dfn.name] += rec.choices[1]
            for before, after in ((att, rec.attacker), (dfn, rec.defender)):
                if after.stunned and after.wounds != before.wounds:
                    stun_ends[after.name] = (t + 1, slot)
                now[after.name] = replace(after, stance=now[after.name].stance)
            outcomes.append(rec.outcome)
    return FightResult(tuple(now.values()), tuple(outcomes), tuple(inits))


def resolve_plan(
    dice: DiceSource,
    fighters: list[Fighter],
    turns: tuple[PlannedTurn, ...],
    options: Options,
    house: DragonWarriors2House,
) -> FightResult:
    """A fight as a situation file gives it: the house rules in force, then the turns."""
    for ev in house_events(house):
        dice.record(ev)
    return run_fight(dice, fighters, turns, options, house, bonus_hook(options.double_six_bonus))


def fight_outcome(res: FightResult) -> tuple[tuple[str, int, bool, bool, bool], ...]:
    """Each fighter's name, wounds, stunned, knocked out and dead at the end (hashable)."""
    return tuple((f.name, f.wounds, f.stunned, f.knocked_out, f.dead) for f in res.fighters)


def fight_summary(res: FightResult) -> dict[str, Any]:
    """Every fighter's state at the end and each exchange's result."""
    summary: dict[str, Any] = {f.name: fighter_state(f) for f in res.fighters}
    summary["exchanges"] = [o.result for o in res.exchanges]
    return summary
