"""The warfare2d20 ruleset object: its table of situation kinds (the protocol of firefight.core)."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from pydantic import BaseModel

from firefight.core.house import HouseRules
from firefight.core.ruleset import Ruleset, SituationKind
from firefight.core.turns import ScenarioSpec, Turns
from firefight.rulesets.warfare2d20 import attack, initiative, odds, thrown
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.models import (
    AttackFile,
    InitiativeFile,
    MortarFile,
    Situation,
    ThrownFile,
)
from firefight.rulesets.warfare2d20.mortar import resolve_mortar
from firefight.rulesets.warfare2d20.situation import (
    load_attack,
    load_initiative,
    load_mortar,
    load_thrown,
)

#: The table of situation kinds. Attack and suppression files share the model and the rules;
#: suppression is the same fire given as cover fire (W05), resolved with ``firefight suppress``.
ATTACK = SituationKind(
    "attack",
    AttackFile,
    load_attack,
    attack.resolve_attack,
    odds.attack_report,
    lambda s, o, t: attack.summary(o),
)
SUPPRESSION = replace(ATTACK, name="suppression", command="suppress")
MORTAR = SituationKind(
    "mortar",
    MortarFile,
    load_mortar,
    resolve_mortar,
    odds.attack_report,
    lambda s, o, t: attack.summary(o),
)
THROWN = SituationKind(
    "thrown",
    ThrownFile,
    load_thrown,
    thrown.resolve_throw,
    odds.throw_report,
    lambda s, o, t: thrown.summary(o),
)
INITIATIVE = SituationKind(
    "initiative",
    InitiativeFile,
    load_initiative,
    initiative.resolve_initiative,
    odds.initiative_report,
    lambda s, o, t: initiative.summary(o),
)


class Warfare2d20(Ruleset[Situation, Warfare2d20House]):
    id: ClassVar[str] = "warfare2d20"
    title: ClassVar[str] = "2d20 game mechanics for warfare RPGs (delta system)"
    house_model: ClassVar[type[HouseRules]] = Warfare2d20House
    kinds = (ATTACK, SUPPRESSION, MORTAR, THROWN, INITIATIVE)

    #: Scenario files may list extra catalog files, as situation files do.
    scenario_keys: ClassVar[tuple[str, ...]] = ("catalogs",)

    def combatant_model(self) -> type[BaseModel]:
        """A scenario's combatant table, for the tracker's scenario form."""
        from firefight.rulesets.warfare2d20.roster import FighterFields

        return FighterFields

    def encounter(self, spec: ScenarioSpec) -> Turns:
        """Whole fights: rounds, initiative, actions and lasting state (``encounter.py``)."""
        from firefight.rulesets.warfare2d20.encounter import Warfare2d20Turns

        return Warfare2d20Turns(spec)

    def script_order(self) -> str:
        return (
            "per target: attacker 2d20 (once if shared), defender 2d20, damage dice, cover soak "
            "dice, armour soak dice, then checks (mettle, endurance)"
        )


RULESET = Warfare2d20()
