"""Small shared pieces of rule code: dice pools without the parser, roll-under checks, and the
modifiers the text names (S03) built from the house-rule numbers (S04)."""

from __future__ import annotations

from functools import lru_cache

from firefight.core.transcript import Check, Modifier
from firefight.dice import DiceSource, Weighted, exact
from firefight.dice.nodes import Dice, Sorted
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.models import _dice_pool

_TEXT = Warfare2d20House()


@lru_cache(maxsize=64)
def pool(text: str) -> Dice:
    """``"2d20"`` as a dice node (no grammar needed for plain pools)."""
    count, sides = _dice_pool(text).split("d")
    return Dice(int(count), int(sides))


@lru_cache(maxsize=64)
def sorted_pool(text: str) -> Sorted:
    """``"3d12"`` as ``sort(3d12)``: faces high to low (W06)."""
    p = pool(text)
    return Sorted(p.count, p.sides)


def house_modifier(
    house: Warfare2d20House, field: str, name: str, target: str, source: str, rule: str
) -> Modifier:
    """A modifier whose value is a number the text fixes; marked when a house rule changed it."""
    value: int = getattr(house, field)
    return Modifier(name, value, target, source, rule, house=value != getattr(_TEXT, field))


def roll_under(dice: DiceSource, name: str, expr: str, stat: int, rule: str, who: str) -> bool:
    """``expr`` rolled equal to or under ``stat`` (mettle W05/W10, endurance W09)."""
    node = pool(expr)

    def run(d: DiceSource) -> bool:
        r = d.roll(node, why=f"{name} for {who}: {expr} vs {stat} ({rule})")
        ok = r.total <= stat
        d.record(Check(name, r.total, stat, ok, rule, detail=who))
        return ok

    def table() -> Weighted[bool]:  # the same test over the roll's exact distribution
        d = exact(node)
        out: dict[bool, int] = {}
        for v, w in d.items():
            out[v <= stat] = out.get(v <= stat, 0) + w
        return Weighted(out, d.total)

    return dice.derive(name, run, key=("roll under", expr, stat), exact=table, keep=True)
