"""The warfare2d20 ruleset object: load, resolve, odds (the protocol of firefight.core)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from firefight.core.house import HouseRules
from firefight.core.odds import OddsReport
from firefight.core.resolution import Resolution
from firefight.core.ruleset import Ruleset
from firefight.core.transcript import Transcript
from firefight.core.turns import ScenarioSpec, Turns
from firefight.dice import DiceSource
from firefight.rulesets.warfare2d20 import odds
from firefight.rulesets.warfare2d20.attack import resolve_attack, summary
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.initiative import resolve_initiative
from firefight.rulesets.warfare2d20.loading import Situation, load
from firefight.rulesets.warfare2d20.mortar import resolve_mortar
from firefight.rulesets.warfare2d20.situation import Attack, Initiative, Mortar, Thrown
from firefight.rulesets.warfare2d20.thrown import resolve_throw


class Warfare2d20(Ruleset):
    id: ClassVar[str] = "warfare2d20"
    title: ClassVar[str] = "2d20 game mechanics for warfare RPGs (delta system)"
    house_model: ClassVar[type[HouseRules]] = Warfare2d20House
    situation_kinds: ClassVar[tuple[str, ...]] = (
        "attack",
        "suppression",
        "mortar",
        "thrown",
        "initiative",
    )

    #: Scenario files may list extra catalog files, as situation files do.
    scenario_keys: ClassVar[tuple[str, ...]] = ("catalogs",)

    def load_situation(
        self, data: Mapping[str, Any], *, source: str, house: HouseRules
    ) -> Situation:
        assert isinstance(house, Warfare2d20House)
        return load(data, source, house)

    def resolve(self, situation: Situation, dice: DiceSource) -> Resolution:
        mark = len(dice.events)
        out: dict[str, object]
        if isinstance(situation, Attack):
            outcome: Any = resolve_attack(situation, dice)
            out = summary(outcome)
        elif isinstance(situation, Mortar):
            outcome = resolve_mortar(situation, dice)
            out = summary(outcome)
        elif isinstance(situation, Thrown):
            outcome = resolve_throw(situation, dice)
            out = {
                "lands": outcome.lands,
                "scatter (m)": outcome.scatter_m,
                "direction": outcome.direction,
            }
        else:
            outcome = resolve_initiative(situation, dice)
            out = {
                r.name: (
                    "ambush"
                    if r.roll is None
                    else f"{r.roll} {'passed' if r.passed else 'failed'}"
                    f"{', exceptionally well' if r.exceptional else ''}"
                )
                for r in outcome
            }
        return Resolution(self.id, outcome, Transcript.since(dice.events, mark), out)

    def odds(self, situation: Situation) -> OddsReport:
        if isinstance(situation, (Attack, Mortar)):
            return odds.attack_report(situation)
        if isinstance(situation, Thrown):
            return odds.throw_report(situation)
        assert isinstance(situation, Initiative)
        return odds.initiative_report(situation)

    def encounter(self, spec: ScenarioSpec) -> Turns:
        """Whole fights: rounds, initiative, actions and lasting state (``encounter.py``)."""
        from firefight.rulesets.warfare2d20.encounter import Warfare2d20Turns

        return Warfare2d20Turns(spec)

    def situation_kind(self, situation: Any) -> str:
        return str(situation.kind)

    def script_order(self) -> str:
        return (
            "per target: attacker 2d20 (once if shared), defender 2d20, damage dice, cover soak "
            "dice, armour soak dice, then checks (mettle, endurance)"
        )
