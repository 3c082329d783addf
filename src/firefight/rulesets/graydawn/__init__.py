"""graydawn: X-Com Gray Dawn on CP2020 (opposed exploding d10s, hit locations, SP, wound track).

Two situation kinds: ``attack`` (this package's attack-and-damage half, :mod:`.attack`) and
``suppression`` (the suppression half, :mod:`.suppression`). The data model both share is in
:mod:`.models`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from firefight.core.house import HouseRules
from firefight.core.odds import OddsReport
from firefight.core.resolution import Resolution
from firefight.core.ruleset import Ruleset
from firefight.core.turns import ScenarioSpec, Turns
from firefight.core.validation import situation_kind
from firefight.dice import DiceSource
from firefight.rulesets.graydawn.house import GraydawnHouse


class Graydawn(Ruleset):
    id: ClassVar[str] = "graydawn"
    title: ClassVar[str] = "X-Com: Gray Dawn (CP2020 variant)"
    house_model: ClassVar[type[HouseRules]] = GraydawnHouse
    situation_kinds: ClassVar[tuple[str, ...]] = ("attack", "suppression")
    #: Scenario keys beyond the engine's: extra catalog files, and the side that ambushes (G35).
    scenario_keys: ClassVar[tuple[str, ...]] = ("catalogs", "ambush")

    def _kind(self, data: Mapping[str, Any], source: str) -> str:
        return situation_kind(data, self.situation_kinds, "attack", source)

    def load_situation(self, data: Mapping[str, Any], *, source: str, house: HouseRules) -> Any:
        rules = house if isinstance(house, GraydawnHouse) else GraydawnHouse()
        if self._kind(data, source) == "suppression":
            from firefight.rulesets.graydawn.suppression_situation import load_suppression

            return load_suppression(data, source, rules)
        from firefight.rulesets.graydawn.attack import load_attack

        return load_attack(data, source, rules)

    def resolve(self, situation: Any, dice: DiceSource) -> Resolution:
        if self.situation_kind(situation) == "suppression":
            from firefight.rulesets.graydawn.suppression_round import resolve_suppression

            return resolve_suppression(situation, dice)
        from firefight.rulesets.graydawn.attack import resolve_attack

        return resolve_attack(situation, dice)

    def odds(self, situation: Any) -> OddsReport:
        if self.situation_kind(situation) == "suppression":
            from firefight.rulesets.graydawn.odds import suppression_odds

            return suppression_odds(situation)
        from firefight.rulesets.graydawn.odds import attack_odds

        return attack_odds(situation)

    def encounter(self, spec: ScenarioSpec) -> Turns:
        """Whole fights: the turn structure of :mod:`.encounter` (G13, G15-G19, G31-G35)."""
        from firefight.rulesets.graydawn.encounter import GraydawnTurns

        return GraydawnTurns(spec)


RULESET = Graydawn()
