"""Initiative (W10): 2d10 roll-under mettle when a confrontation starts, not every round.

Order (reading): ambushers first (automatic initiative, no roll); then everyone who passed, lowest
roll first ("the better the roll"); then those who failed, lowest roll first. Ties keep the
listed order. A pass by the house margin or more (7: the team leader's 7 against mettle 14-15)
is "exceptional": in total control, may hold his men and fire on his command.
"""

from __future__ import annotations

from dataclasses import dataclass

from firefight.core.house import house_events
from firefight.core.transcript import Check, Note
from firefight.dice import DiceSource
from firefight.rulesets.warfare2d20.checks import pool
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.models import Combatant, Initiative


@dataclass(frozen=True)
class InitiativeResult:
    name: str
    roll: int | None  # None: ambusher, no roll
    passed: bool
    exceptional: bool = False


def roll_initiative(
    dice: DiceSource, c: Combatant, house: Warfare2d20House, ambusher: bool = False
) -> InitiativeResult:
    """One combatant's initiative check."""
    if ambusher:
        dice.record(Note(f"{c.name} springs the ambush: automatic initiative", "W10"))
        return InitiativeResult(c.name, None, True)
    expr = house.initiative_dice
    node = pool(expr)

    def run(d: DiceSource) -> tuple[int, bool, bool]:
        r = d.roll(node, why=f"initiative for {c.name}: {expr} vs mettle {c.mettle} (W10)").total
        ok = r <= c.mettle
        great = ok and c.mettle - r >= house.exceptional_initiative_margin
        d.record(
            Check(
                "initiative",
                r,
                c.mettle,
                ok,
                "W10",
                f"{c.name}{': exceptionally well' if great else ''}",
            )
        )
        return r, ok, great

    key = ("initiative", expr, c.mettle, house.exceptional_initiative_margin)
    r, ok, great = dice.derive("initiative", run, key, keep=True)
    return InitiativeResult(c.name, r, ok, great)


def acting_order(results: list[InitiativeResult]) -> list[InitiativeResult]:
    """Ambushers, then passes by lowest roll, then failures by lowest roll (stable)."""

    def rank(x: InitiativeResult) -> tuple[int, int]:
        if x.roll is None:
            return (0, 0)
        return (1 if x.passed else 2, x.roll)

    return sorted(results, key=rank)


def resolve_initiative(s: Initiative, dice: DiceSource) -> tuple[InitiativeResult, ...]:
    for e in house_events(s.house):
        dice.record(e)
    results = [roll_initiative(dice, c, s.house, c.name in s.ambushers) for c in s.combatants]
    order = acting_order(results)
    dice.record(Note("acting order: " + ", ".join(x.name for x in order), "W10"))
    return tuple(order)


def summary(order: tuple[InitiativeResult, ...]) -> dict[str, object]:
    """Each combatant's roll in acting order, for the CLI table and JSON."""
    return {
        r.name: (
            "ambush"
            if r.roll is None
            else f"{r.roll} {'passed' if r.passed else 'failed'}"
            f"{', exceptionally well' if r.exceptional else ''}"
        )
        for r in order
    }
