"""What a hit does to a character: damage through soak (W06-W07), pain threshold and stamina
(W08), the endurance check and unconsciousness, death (W09)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from firefight.core.transcript import Note, StateChange
from firefight.dice import DiceSource
from firefight.rulesets.warfare2d20.checks import roll_under, sorted_pool
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.models import Combatant, Protection, Status
from firefight.rulesets.warfare2d20.soak import beats, damage_table, through

#: Status words, worst last.
STATUSES: tuple[Status, ...] = ("unhurt", "wounded", "unconscious", "dead")


@dataclass(frozen=True)
class Body:
    """A character's running totals."""

    hit_points_left: int
    stamina_left: int
    status: Status = "unhurt"


def damage_through(
    dice: DiceSource, damage: str, source: str, layers: tuple[Protection, ...]
) -> int:
    """Damage dice against each soak layer in turn (cover or shield first, then armour)."""

    def run(d: DiceSource) -> int:
        rolled = d.roll(sorted_pool(damage), why=f"damage {source} {damage} (W06)").value
        going = np.array(rolled, dtype=np.int64)
        for layer in layers:
            if not going.any():
                d.record(Note(f"nothing left to test against {layer.name}", "W07"))
                break
            soak = d.roll(sorted_pool(layer.soak), why=f"soak {layer.name} {layer.soak} (W06)")
            faces = np.array(soak.value, dtype=np.int64)
            won = beats(going[None, :], faces[None, :])[0]
            pairs = []
            for i, die in enumerate(going.tolist()):
                if die == 0:
                    continue
                against = str(faces[i]) if i < len(faces) else "no soak die"
                verdict = (
                    "through" if won[i] else ("tie, stopped" if against == str(die) else "stopped")
                )
                pairs.append(f"{die} vs {against}: {verdict}")
            d.record(Note(f"{layer.name}: " + "; ".join(pairs), "W06"))
            going = through(going[None, :], faces[None, :])[0]
        total = int(going.sum())
        d.record(Note(f"damage through soak: {total}", "W07"))
        return total

    soaks = tuple(layer.soak for layer in layers)
    return dice.derive(
        "damage through soak",
        run,
        key=("damage through soak", damage, soaks),
        exact=lambda: damage_table(damage, soaks),
        keep=True,
    )


def take_damage(
    dice: DiceSource, who: str, c: Combatant, body: Body, damage: int, house: Warfare2d20House
) -> Body:
    """Pain threshold off stamina first, the rest off hit points; then death or endurance."""
    if damage <= 0 or body.status == "dead":
        return body
    absorbed = min(c.pain_threshold, body.stamina_left, damage)
    hp_lost = damage - absorbed
    stamina = body.stamina_left - absorbed
    hp = body.hit_points_left - hp_lost
    if absorbed:
        dice.record(StateChange(who, "stamina", body.stamina_left, stamina, "W08"))
    if hp_lost:
        dice.record(StateChange(who, "hit points", body.hit_points_left, hp, "W08"))
    status: Status = body.status if body.status != "unhurt" or not hp_lost else "wounded"
    if hp <= 0:
        status = "dead"
    elif hp_lost * 100 > house.endurance_threshold_percent * c.hit_points:
        dice.record(
            Note(
                f"{hp_lost} hit points is more than {house.endurance_threshold_percent}% of "
                f"{c.hit_points}: endurance check",
                "W09",
            )
        )
        if not roll_under(
            dice, "endurance check", house.endurance_check_dice, c.endurance, "W09", who
        ):
            status = "unconscious"
    elif hp_lost:
        dice.record(
            Note(
                f"{hp_lost} hit points is not more than "
                f"{house.endurance_threshold_percent}% of {c.hit_points}: no check",
                "W09",
            )
        )
    if status != body.status:
        dice.record(StateChange(who, "status", body.status, status, "W09"))
    return Body(hp, stamina, status)
