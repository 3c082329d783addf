"""Defaults a small ruleset builds on, so that a minimal one is a page of rule code.

A ruleset must give its situation models and their rule code; everything else has a default:

- :func:`simple_kind`: a situation kind whose file validates straight into its model, whose odds
  are its rule code's outcomes enumerated exactly and labelled (:func:`outcome_odds`), and whose
  summary is the outcome's label;
- :class:`SimpleTurns`: a turn structure where every combatant who can fight acts once a round
  in the scenario's order, no dice, the turn passed on by ``pass_turn`` (the protocol's), and the
  combatant's view read off its fields.

Nothing here is needed: a ruleset may fill a :class:`~firefight.core.ruleset.SituationKind` row
and a :class:`~firefight.core.turns.Turns` subclass itself (the five built-in rulesets do).
"""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import Any, TypeVar

from pydantic import BaseModel

from firefight.core.house import HouseRules
from firefight.core.odds import OddsReport, outcome_distribution
from firefight.core.ruleset import Command, SituationKind
from firefight.core.turns import CombatantEntry, FightState, Turns, evolve
from firefight.core.validation import validate
from firefight.dice import DiceSource

M = TypeVar("M", bound=BaseModel)
R = TypeVar("R", bound=Hashable)


def outcome_odds(
    ruleset: str,
    title: str,
    resolve: Callable[[DiceSource], R],
    label: Callable[[R], str] = str,
) -> OddsReport:
    """The exact odds of a resolution: ``resolve`` run on every branch of its dice, its
    outcomes labelled (outcomes with one label add up), most likely first."""
    weighted = outcome_distribution(resolve)
    total = Fraction(weighted.total)
    labelled: dict[str, Fraction] = {}
    for outcome, weight in weighted.items():
        key = label(outcome)
        labelled[key] = labelled.get(key, Fraction(0)) + weight / total
    ordered = dict(sorted(labelled.items(), key=lambda kv: -kv[1]))
    return OddsReport(ruleset, title, None, ordered, truncated_mass=weighted.truncated_mass)


def simple_kind(
    ruleset: str,
    name: str,
    model: type[M],
    resolve: Callable[[M, DiceSource], R],
    *,
    label: Callable[[R], str] = str,
    title: Callable[[M], str] | None = None,
    summary: Callable[[M, R], Mapping[str, Any]] | None = None,
    command: Command = "attack",
) -> SituationKind[M, R, HouseRules]:
    """A situation kind from a model and its rule code alone.

    ``model`` is the file's pydantic model (with a field ``kind: Literal["<name>"] = "<name>"``),
    and the loaded situation is the model itself; ``resolve`` is the rule code on any dice,
    returning a hashable outcome; ``label`` names an outcome for people (odds add up outcomes
    with one label); ``title`` heads the odds (default: ``"<ruleset> <name>"``); ``summary``
    gives the key figures of one resolution (default: ``{"outcome": label(outcome)}``).
    """

    def load(data: Mapping[str, Any], source: str, house: HouseRules) -> M:
        return validate(model, data, source)

    def odds(situation: M) -> OddsReport:
        heading = title(situation) if title is not None else f"{ruleset} {name}"
        return outcome_odds(ruleset, heading, lambda dice: resolve(situation, dice), label)

    def summarise(situation: M, outcome: R, _transcript: Any) -> Mapping[str, Any]:
        if summary is not None:
            return summary(situation, outcome)
        return {"outcome": label(outcome)}

    return SituationKind(name, model, load, resolve, odds, summarise, command=command)


class SimpleTurns(Turns):
    """A turn structure with defaults (see the module docstring). A ruleset writes
    :meth:`combatant` (a scenario entry as its frozen state), ``legal_actions``, ``act`` (ending
    with ``return self.pass_turn(state, dice)``), ``can_fight`` and ``harm``; it may change the
    order of a round (:meth:`round_order`) and the view (:meth:`view`)."""

    @abstractmethod
    def combatant(self, entry: CombatantEntry) -> Any:
        """The state of one combatant as the fight starts (a frozen dataclass with ``name`` and
        ``side``), its fields validated: raise ``self.spec.fail(entry.where + ".field", ...)``
        for a bad one."""

    def initial(self) -> FightState:
        """Round 0, nobody acting, every combatant as :meth:`combatant` builds it."""
        fighters = tuple(self.combatant(e) for e in self.spec.combatants)
        return FightState(0, "between rounds", (), None, fighters)

    def round_order(self, state: FightState, dice: DiceSource) -> tuple[str, ...]:
        """Who acts this round, in order: by default everyone who can fight, in the scenario's
        order, without dice (roll initiative on ``dice`` here to change that)."""
        return tuple(c.name for c in state.combatants if self.can_fight(c))

    def start_round(self, state: FightState, dice: DiceSource) -> FightState:
        """The next round, its order from :meth:`round_order`, the first in it acting."""
        order = self.round_order(state, dice)
        return evolve(
            state,
            round=state.round + 1,
            phase="turns" if order else "between rounds",
            order=order,
            acting=order[0] if order else None,
        )

    def view(self, combatant: Any) -> dict[str, Any]:
        """The combatant's fields (``name`` and ``side`` left out) and ``status``: ``fighting``,
        ``dead`` or ``out``."""
        out: dict[str, Any] = {
            f.name: getattr(combatant, f.name)
            for f in dataclasses.fields(combatant)
            if f.name not in ("name", "side")
        }
        if self.can_fight(combatant):
            out["status"] = "fighting"
        else:
            out["status"] = "dead" if self.is_dead(combatant) else "out"
        return out
