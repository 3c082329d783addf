"""Rounds and fatigue (W11): a small heart-rate model designed by the project.

The text says: a round is 10 seconds and only measures fatigue; movement sets the base heart rate;
each action adds heart load; the player chooses how many actions, up to a limit set by dexterity;
running out of breath brings penalties next round; the round's end recovers fatigue. It gives no
numbers, so these are ours, all configurable (:class:`HeartRateModel`):

- base heart rate by movement: still 80, walking 100, running 130, sprinting 160 (beats/min);
- every action adds 10; the most actions in a round is dexterity // 4 (at least 1);
- the breath limit is 140 + 2 x endurance; above it the character is out of breath and takes
  +1 delta, and +1 more per full 10 beats over the limit, on the next round (a named modifier);
- at the end of a round the heart rate falls by 30, but never below the next round's base.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from firefight.core.transcript import Modifier
from firefight.errors import InputError
from firefight.rulesets.warfare2d20.models import Combatant


class HeartRateModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    base: dict[str, int] = Field(
        default_factory=lambda: {"still": 80, "walking": 100, "running": 130, "sprinting": 160}
    )
    per_action: int = 10
    dexterity_per_action: int = 4
    breath_limit_base: int = 140
    breath_limit_per_endurance: int = 2
    penalty_step: int = 10
    recovery: int = 30


TEXTLESS = HeartRateModel()


@dataclass(frozen=True)
class RoundFatigue:
    heart_rate: int  # at the end of the round's actions
    out_of_breath: bool
    next_round_penalty: int  # added to delta next round
    heart_rate_after_rest: int  # carried into the next round


def action_limit(c: Combatant, model: HeartRateModel = TEXTLESS) -> int:
    return max(1, c.dexterity // model.dexterity_per_action)


def breath_limit(c: Combatant, model: HeartRateModel = TEXTLESS) -> int:
    return model.breath_limit_base + model.breath_limit_per_endurance * c.endurance


def fatigue_round(
    c: Combatant,
    movement: str,
    actions: int,
    heart_rate: int | None = None,
    next_movement: str | None = None,
    model: HeartRateModel = TEXTLESS,
) -> RoundFatigue:
    """One round: heart rate from movement and actions, breath, penalty, recovery."""
    if movement not in model.base:
        raise InputError(f"unknown movement {movement!r}", tip=f"one of {', '.join(model.base)}")
    if not 0 <= actions <= action_limit(c, model):
        raise InputError(
            f"{c.name} may take 0..{action_limit(c, model)} actions this round, not {actions}",
            tip="the limit is dexterity // 4 (W11 model)",
        )
    start = max(model.base[movement], heart_rate or 0)
    rate = start + model.per_action * actions
    limit = breath_limit(c, model)
    over = rate - limit
    penalty = over // model.penalty_step + 1 if over > 0 else 0
    floor = model.base[next_movement or movement]
    return RoundFatigue(rate, over > 0, penalty, max(floor, rate - model.recovery))


def breath_modifier(c: Combatant, fatigue: RoundFatigue) -> Modifier | None:
    """The next round's "out of breath" delta modifier, if any."""
    if not fatigue.next_round_penalty:
        return None
    return Modifier("out of breath", fatigue.next_round_penalty, "delta", c.name, "W11")
