"""The Dragon Warriors II ruleset object: its table of situation kinds (the shared protocol)."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from pydantic import BaseModel

from firefight.core.house import HouseRules
from firefight.core.ruleset import Ruleset, SituationKind
from firefight.core.turns import ScenarioSpec, Turns
from firefight.rulesets.dragonwarriors2 import odds
from firefight.rulesets.dragonwarriors2.attack import exchange_summary, resolve_bout
from firefight.rulesets.dragonwarriors2.fight import fight_outcome, fight_summary, resolve_plan
from firefight.rulesets.dragonwarriors2.house import DragonWarriors2House
from firefight.rulesets.dragonwarriors2.models import ExchangeSituation, FightSituation
from firefight.rulesets.dragonwarriors2.situation import Exchange, Fight, load_exchange, load_fight

#: The table of situation kinds; "attack" is the text's other word for an exchange.
EXCHANGE = SituationKind(
    "exchange",
    ExchangeSituation,
    load_exchange,
    lambda s, dice: resolve_bout(s.bout, dice),
    odds.exchange_report,
    lambda s, rec, t: exchange_summary(s.bout, rec),
    lambda rec: rec.outcome,
)
ATTACK = replace(EXCHANGE, name="attack")
FIGHT = SituationKind(
    "fight",
    FightSituation,
    load_fight,
    lambda s, dice: resolve_plan(dice, s.fighters, s.turns, s.model.options, s.house),
    odds.fight_report,
    lambda s, res, t: fight_summary(res),
    fight_outcome,
)


class DragonWarriors2(Ruleset[Exchange | Fight, DragonWarriors2House]):
    id: ClassVar[str] = "dragonwarriors2"
    title: ClassVar[str] = "Dragon Warriors II: open-ended contests and riposte chains"
    house_model: ClassVar[type[HouseRules]] = DragonWarriors2House
    kinds = (EXCHANGE, ATTACK, FIGHT)
    scenario_keys: ClassVar[tuple[str, ...]] = ("options", "catalogs")

    def combatant_model(self) -> type[BaseModel]:
        """A scenario's combatant table, for the tracker's scenario form."""
        from firefight.rulesets.dragonwarriors2.encounter_setup import EncounterCombatant

        return EncounterCombatant

    def encounter(self, spec: ScenarioSpec) -> Turns:
        """Whole fights: see :mod:`.encounter` (imported here: the engine asks only then)."""
        from firefight.rulesets.dragonwarriors2.encounter import DW2Turns

        return DW2Turns(spec)

    def script_order(self) -> str:
        return (
            "each plus-minus roll takes the plus die and its re-rolls on sixes, then the minus "
            "die and its re-rolls; rolls in transcript order: initiative, attacker before "
            "defender in every contest, then the death and stun checks"
        )


RULESET = DragonWarriors2()
