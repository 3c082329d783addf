"""The tactical_d20 ruleset object: its table of situation kinds (the shared protocol). Each kind
loads into a :class:`~.situation.Loaded` that holds the rule to run on dice; odds read the very
same rule code (:mod:`.odds`)."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel

from firefight.core.house import HouseRules
from firefight.core.ruleset import Ruleset, SituationKind
from firefight.core.turns import ScenarioSpec, Turns
from firefight.rulesets.tactical_d20 import attack, contests, initiative, odds, suppression, turn
from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.models import (
    AttackSituation,
    ContestSituation,
    InitiativeSituation,
    SuppressionSituation,
    TurnSituation,
)
from firefight.rulesets.tactical_d20.situation import (
    Loaded,
    load_attack,
    load_contest,
    load_initiative,
    load_suppression,
    load_turn,
    run,
)

#: The table of situation kinds.
ATTACK = SituationKind(
    "attack",
    AttackSituation,
    load_attack,
    run,
    odds.attack_report,
    lambda s, o, t: attack.summary(o, t, s.prepared),
)
SUPPRESSION = SituationKind(
    "suppression",
    SuppressionSituation,
    load_suppression,
    run,
    odds.cone_report,
    lambda s, o, t: suppression.summary(o),
    command="suppress",
)
CONTEST = SituationKind(
    "contest",
    ContestSituation,
    load_contest,
    run,
    odds.contest_report,
    lambda s, o, t: contests.summary(o),
)
INITIATIVE = SituationKind(
    "initiative",
    InitiativeSituation,
    load_initiative,
    run,
    odds.initiative_report,
    lambda s, o, t: initiative.summary(o),
)
TURN = SituationKind(
    "turn",
    TurnSituation,
    load_turn,
    run,
    odds.turn_report,
    lambda s, o, t: turn.summary(s.prepared, o),
)


class TacticalD20(Ruleset[Loaded[Any], TacticalD20House]):
    """Four-Action d20 combat: targeted regions, fire modes, suppressing cone, grapples, cover."""

    id: ClassVar[str] = odds.ID
    title: ClassVar[str] = (
        "tactical d20: four Actions, targeted regions, fire modes, grapples, cover"
    )
    house_model: ClassVar[type[HouseRules]] = TacticalD20House
    kinds = (ATTACK, SUPPRESSION, CONTEST, INITIATIVE, TURN)

    #: A scenario may add catalog files, as situation files do.
    scenario_keys: ClassVar[tuple[str, ...]] = ("catalogs",)

    def combatant_model(self) -> type[BaseModel]:
        """A scenario's combatant table, for the tracker's scenario form."""
        from firefight.rulesets.tactical_d20.encounter_setup import CombatantFields

        return CombatantFields

    def encounter(self, spec: ScenarioSpec) -> Turns:
        """Whole fights: rounds, the 4-Action turn, the Reaction (``encounter.TacticalTurns``)."""
        from firefight.rulesets.tactical_d20.encounter import TacticalTurns

        return TacticalTurns(spec)

    def script_order(self) -> str:
        return (
            "attack d20, then (on a hit) the member die of a Grapple/Melee, the weapon dice, then "
            "each extra die; contests: actor d20 then opponent d20"
        )


RULESET = TacticalD20()
