"""quality_d100: the opposed D100 "qualities of success" combat playtest (Q01-Q10).

Attacker and defender each roll D100 for a quality of success (Poor..Fantastic); the difference
picks a row of the result table (blocked, Fatigue, ..., maximum Endurance + 10). See
docs/rules/quality_d100.md for the situation format and the coverage table.
"""

from firefight.rulesets.quality_d100.ruleset import RULESET, QualityD100

__all__ = ["RULESET", "QualityD100"]
