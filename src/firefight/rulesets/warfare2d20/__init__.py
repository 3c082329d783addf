"""warfare2d20: the 2d20 delta system for modern combat (W01-W15 of the rules inventory).

Attacks (opposed 2d20, delta / delta t / delta c / delta s, damage dice against soak dice,
stamina, hit points, endurance), mortar fire, thrown objects, initiative and a fatigue model.
"""

from firefight.rulesets.warfare2d20.ruleset import Warfare2d20

RULESET = Warfare2d20()

__all__ = ["RULESET", "Warfare2d20"]
