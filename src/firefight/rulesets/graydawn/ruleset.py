"""The graydawn ruleset object: its table of situation kinds (the shared protocol).

Two kinds: ``attack`` (the attack-and-damage half, :mod:`.attack`) and ``suppression`` (the
suppression half, :mod:`.suppression`). Both halves build their whole Resolution (the suppression
round gathers its summary as it goes), so the table reads the outcome and summary off it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from firefight.core.house import HouseRules
from firefight.core.resolution import Resolution
from firefight.core.ruleset import Ruleset, SituationKind
from firefight.core.transcript import Transcript
from firefight.core.turns import ScenarioSpec, Turns
from firefight.rulesets.graydawn.attack import resolve_attack
from firefight.rulesets.graydawn.house import GraydawnHouse
from firefight.rulesets.graydawn.odds import attack_odds, suppression_odds
from firefight.rulesets.graydawn.situation import AttackSituation, load_attack
from firefight.rulesets.graydawn.suppression_round import resolve_suppression
from firefight.rulesets.graydawn.suppression_situation import (
    SuppressionSituation,
    load_suppression,
)


def _summary(
    situation: object, resolution: Resolution, transcript: Transcript
) -> Mapping[str, Any]:
    return resolution.summary


def _outcome(resolution: Resolution) -> Hashable:
    return resolution.outcome


#: The table of situation kinds.
ATTACK = SituationKind(
    "attack", AttackSituation, load_attack, resolve_attack, attack_odds, _summary, _outcome
)
SUPPRESSION = SituationKind(
    "suppression",
    SuppressionSituation,
    load_suppression,
    resolve_suppression,
    suppression_odds,
    _summary,
    _outcome,
    command="suppress",
)


class Graydawn(Ruleset[AttackSituation | SuppressionSituation, GraydawnHouse]):
    id: ClassVar[str] = "graydawn"
    title: ClassVar[str] = "X-Com: Gray Dawn (CP2020 variant)"
    house_model: ClassVar[type[HouseRules]] = GraydawnHouse
    kinds = (ATTACK, SUPPRESSION)
    #: Scenario keys beyond the engine's: extra catalog files, and the side that ambushes (G35).
    scenario_keys: ClassVar[tuple[str, ...]] = ("catalogs", "ambush")

    def combatant_model(self) -> type[BaseModel]:
        """A scenario's combatant table, for the tracker's scenario form."""
        from firefight.rulesets.graydawn.encounter_setup import ScenarioCombatant

        return ScenarioCombatant

    def encounter(self, spec: ScenarioSpec) -> Turns:
        """Whole fights: the turn structure of :mod:`.encounter` (G13, G15-G19, G31-G35)."""
        from firefight.rulesets.graydawn.encounter import GraydawnTurns

        return GraydawnTurns(spec)


RULESET = Graydawn()
