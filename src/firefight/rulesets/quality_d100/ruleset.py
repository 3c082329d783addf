"""The quality_d100 ruleset object: its table of situation kinds, strikes (Q01-Q07, Q10) and
equations (Q08), over the shared protocol."""

from __future__ import annotations

from pydantic import BaseModel

from firefight.core.house import HouseRules
from firefight.core.ruleset import Ruleset, SituationKind
from firefight.core.turns import ScenarioSpec, Turns
from firefight.errors import InputError
from firefight.rulesets.quality_d100 import odds
from firefight.rulesets.quality_d100.equations import (
    EquationSituation,
    LoadedEquation,
    equation_summary,
    load_equation_file,
    resolve_equation,
)
from firefight.rulesets.quality_d100.house import QualityD100House
from firefight.rulesets.quality_d100.models import AttackSituation
from firefight.rulesets.quality_d100.plan import Plan, load_attack
from firefight.rulesets.quality_d100.strike import resolve_strike, strike_summary
from firefight.rulesets.quality_d100.table import headers, table_rows

#: The table of situation kinds.
ATTACK = SituationKind(
    "attack",
    AttackSituation,
    load_attack,
    resolve_strike,
    odds.strike_odds,
    lambda plan, out, t: strike_summary(plan, out),
)
EQUATION = SituationKind(
    "equation",
    EquationSituation,
    load_equation_file,
    resolve_equation,
    odds.equation_odds,
    lambda eq, out, t: equation_summary(eq, out),
)


class QualityD100(Ruleset[Plan | LoadedEquation, QualityD100House]):
    """Opposed D100 qualities of success with a result table (combat playtest)."""

    id = odds.RULESET_ID
    title = "Opposed D100 qualities of success (combat playtest)"
    house_model = QualityD100House
    kinds = (ATTACK, EQUATION)
    scenario_keys = ("catalogs",)

    def table(
        self, rows: tuple[int, int] | None, printed: bool, house: HouseRules
    ) -> tuple[list[str], list[list[str]]]:
        if rows is not None and rows[0] > 100:
            raise InputError(
                f"--rows {rows[0]}-{rows[1]}: the table has rolls 1-100",
                tip="write e.g. --rows 1-100",
            )
        return headers(), table_rows(rows, printed, self.house(house))

    def combatant_model(self) -> type[BaseModel]:
        """A scenario's combatant table, for the tracker's scenario form."""
        from firefight.rulesets.quality_d100.fighters import CombatantModel

        return CombatantModel

    def encounter(self, spec: ScenarioSpec) -> Turns:
        """Whole fights: pulses, exchanges and lasting conditions (``encounter.py``)."""
        from firefight.rulesets.quality_d100.encounter import QualityTurns  # needs this module

        return QualityTurns(spec)

    def script_order(self) -> str:
        return "attacker D100, defender D100, then damage / special / grievous rolls as listed"


RULESET = QualityD100()
