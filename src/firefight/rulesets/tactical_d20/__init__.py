"""tactical_d20: four-Action d20 combat with targeted regions, fire modes, a suppressing-fire
cone, Grapples and Melees, and cover (rule items T01-T12; docs/rules/tactical_d20.md)."""

from firefight.errors import RuleError
from firefight.rulesets.tactical_d20.ruleset import RULESET, TacticalD20

__all__ = ["RULESET", "RuleError", "TacticalD20"]
