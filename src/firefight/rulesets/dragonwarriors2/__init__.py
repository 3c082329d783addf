"""dragonwarriors2: Dragon Warriors II's open-ended plus-minus contests (D01-D11).

Attack against Defence, damage from the margin, riposte chains, stun / knock-out / death checks,
defensive stances, missiles by feet and fathoms, initiative, and exact odds of an exchange.
"""

from firefight.rulesets.dragonwarriors2.ruleset import RULESET, DragonWarriors2

__all__ = ["RULESET", "DragonWarriors2"]
