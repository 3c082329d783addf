"""firefight-risk: RISK battles as a firefight ruleset, installed as a plugin.

Registered under the entry-point group ``firefight.rulesets`` as ``risk`` (``RULESET``). The
rules and the readings chosen are in the package's README; :mod:`firefight_risk.battle` holds
one roll, :mod:`firefight_risk.turns` a whole battle.
"""

from firefight_risk.battle import Losses, roll
from firefight_risk.house import RiskHouse
from firefight_risk.ruleset import Risk
from firefight_risk.turns import Army, RiskTurns

__version__ = "0.1.0"

RULESET = Risk()

__all__ = ["RULESET", "Army", "Losses", "Risk", "RiskHouse", "RiskTurns", "roll"]
