"""warfare2d20: the 2d20 delta system for modern combat (W01-W15 of the rules inventory).

Attacks (opposed 2d20, delta / delta t / delta c / delta s, damage dice against soak dice,
stamina, hit points, endurance), mortar fire, thrown objects, initiative and a fatigue model.

Whole fights: ``RULESET.encounter(spec)`` gives the turn structure (``encounter.py``), built on
the pieces below: ``roll_initiative`` + ``acting_order`` (W10), ``fatigue_round`` +
``breath_modifier`` (W11), ``resolve_mortar`` (W12), ``resolve_throw`` (W13); every attack
returns ``TargetOutcome``s (suppressed, stamina and hit points lost, status) that it applies.
"""

from firefight.rulesets.warfare2d20.attack import AttackOutcome, TargetOutcome, resolve_attack
from firefight.rulesets.warfare2d20.fatigue import HeartRateModel, breath_modifier, fatigue_round
from firefight.rulesets.warfare2d20.initiative import acting_order, roll_initiative
from firefight.rulesets.warfare2d20.mortar import resolve_mortar
from firefight.rulesets.warfare2d20.ruleset import RULESET, Warfare2d20
from firefight.rulesets.warfare2d20.thrown import resolve_throw

__all__ = [
    "RULESET",
    "AttackOutcome",
    "HeartRateModel",
    "TargetOutcome",
    "Warfare2d20",
    "acting_order",
    "breath_modifier",
    "fatigue_round",
    "resolve_attack",
    "resolve_mortar",
    "resolve_throw",
    "roll_initiative",
]
