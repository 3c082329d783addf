"""Thrown objects (W13): the thrower's 2d20 against the GM's 2d20 for the spot.

Within delta t the object lands where it was meant to. Reading for a miss (the text gives none):
it lands (modified delta - delta t) metres off, in a direction rolled on 1d8 (1 = long, then
clockwise in eighths). Scripted order: thrower 2d20, GM 2d20, then the direction die on a miss.
"""

from __future__ import annotations

from dataclasses import dataclass

from firefight.core.house import house_events
from firefight.core.transcript import Check, Modifier, Note
from firefight.dice import DiceSource, Weighted, exact
from firefight.rulesets.warfare2d20.attack import MOVEMENT_FIELDS
from firefight.rulesets.warfare2d20.checks import house_modifier, pool
from firefight.rulesets.warfare2d20.models import Thrown

DIRECTIONS = (
    "long",
    "long right",
    "right",
    "short right",
    "short",
    "short left",
    "left",
    "long left",
)


@dataclass(frozen=True)
class ThrowOutcome:
    lands: bool
    scatter_m: int = 0
    direction: str = ""


def resolve_throw(th: Thrown, dice: DiceSource) -> ThrowOutcome:
    h = th.house
    for e in house_events(h):
        dice.record(e)
    mods: list[Modifier] = []
    if th.movement != "still":
        mods.append(
            house_modifier(
                h,
                MOVEMENT_FIELDS[th.movement],
                f"thrower {th.movement}",
                "delta",
                th.thrower,
                "W02",
            )
        )
    mods += [Modifier(m.name, m.value, m.target, "situation", m.rule) for m in th.modifiers]
    mods += th.named
    for m in mods:
        dice.record(m)
    delta_mod = sum(m.value for m in mods if m.target == "delta")
    delta_t = h.base_delta_t + sum(m.value for m in mods if m.target == "delta t")
    node = pool(h.opposed_dice)

    def off_by(delta: int) -> int:
        return max(0, delta + delta_mod - delta_t)

    def run(d: DiceSource) -> int:
        throw = d.roll(node, why=f"{th.thrower} throws the {th.item} {h.opposed_dice} (W13)").total
        spot = d.roll(node, why=f"GM's {h.opposed_dice} for the spot (W13)").total
        delta = abs(throw - spot)
        d.record(Note(f"delta = |{throw} - {spot}| = {delta}", "W13"))
        d.record(Check("delta vs delta t", delta + delta_mod, delta_t, off_by(delta) == 0, "W13"))
        return off_by(delta)

    def table() -> Weighted[int]:
        one = exact(node)
        deltas = (one - one).abs()
        out: dict[int, int] = {}
        for v, w in deltas.items():
            out[off_by(v)] = out.get(off_by(v), 0) + w
        return Weighted(out, deltas.total)

    key = ("throw", h.opposed_dice, delta_mod, delta_t)
    off = dice.derive("throw", run, key, exact=table, keep=True)
    if off == 0:
        dice.record(Note(f"the {th.item} lands where it was meant to", "W13"))
        return ThrowOutcome(True)
    way = DIRECTIONS[dice.roll(pool("1d8"), why="scatter direction 1d8 (W13 reading)").total - 1]
    dice.record(Note(f"the {th.item} lands {off} m {way} of the spot", "W13"))
    return ThrowOutcome(False, off, way)


def summary(outcome: ThrowOutcome) -> dict[str, object]:
    """Key figures for the CLI table and JSON."""
    return {
        "lands": outcome.lands,
        "scatter (m)": outcome.scatter_m,
        "direction": outcome.direction,
    }
