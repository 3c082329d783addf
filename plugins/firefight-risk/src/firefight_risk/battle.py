"""One roll of a RISK battle (rules R02-R04 of the README): the dice each side rolls, the pairs
compared highest against highest, ties to the defender.

Written once against a dice source, so the same function rolls seeded dice, replays the faces a
table rolled, and is enumerated exactly. Exact enumeration branches over each side's sorted
faces (``sort(3d6)``: 56 distinct tuples, not 216 ordered ones); the whole roll is a kept
sub-rule (``derive(..., keep=True)``), so its three or so outcomes are worked out once a process
and every battle, kernel and table after reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from firefight.api import DiceSource, Note, Roll, RuleError

from firefight_risk.house import RiskHouse


@dataclass(frozen=True)
class Losses:
    """What one roll costs each side, in armies."""

    attacker: int
    defender: int

    def label(self) -> str:
        """The outcome in words: ``defender loses 2``, ``each loses 1``, ..."""
        if self.attacker and self.defender:
            return f"each loses {self.attacker}" if self.attacker == self.defender else str(self)
        if self.defender:
            return f"defender loses {self.defender}"
        return f"attacker loses {self.attacker}"

    def __str__(self) -> str:
        return f"attacker loses {self.attacker}, defender loses {self.defender}"


def attacker_dice(armies: int, house: RiskHouse, asked: int | None = None) -> int:
    """R02: the attacker rolls up to ``house.attacker_dice`` dice, never more than the armies
    that may attack; ``asked`` rolls fewer (refused above what is allowed)."""
    most = min(house.attacker_dice, armies)
    if asked is None:
        return most
    if not 1 <= asked <= most:
        raise RuleError(
            f"the attacker may roll 1 to {most} dice with {armies} armies attacking, not {asked}",
            tip="roll fewer dice, or attack with more armies (R02)",
        )
    return asked


def defender_dice(armies: int, house: RiskHouse) -> int:
    """R03: the defender rolls as many dice as allowed: up to ``house.defender_dice``, never more
    than the armies defending."""
    return min(house.defender_dice, armies)


def _faces(rolled: Roll) -> tuple[int, ...]:
    """A ``sort(NdX)`` roll's faces, highest first."""
    value = rolled.value
    return value if isinstance(value, tuple) else (value,)


def roll(dice: DiceSource, attacking: int, defending: int, house: RiskHouse) -> Losses:
    """R04: ``attacking`` dice against ``defending`` dice; the highest of each side compared,
    then the second highest, as many pairs as the side with fewer dice rolled; the higher die
    wins its pair and a tie goes to the defender; each pair lost costs its side one army."""
    sides = house.sides

    def compare(d: DiceSource) -> Losses:
        mine = _faces(d.roll(f"sort({attacking}d{sides})", why="attacker's dice (R02)"))
        theirs = _faces(d.roll(f"sort({defending}d{sides})", why="defender's dice (R03)"))
        lost_a = lost_d = 0
        for i, (a, b) in enumerate(zip(mine, theirs, strict=False)):
            won = a > b
            lost_d += won
            lost_a += not won
            if not d.is_exact:
                verdict = (
                    "attacker wins" if won else "defender wins" + (" the tie" if a == b else "")
                )
                d.record(Note(f"pair {i + 1}: {a} against {b}: {verdict}", "R04"))
        return Losses(lost_a, lost_d)

    return dice.derive(
        f"{attacking} dice against {defending}",
        compare,
        key=("firefight_risk.roll", attacking, defending, sides),
        keep=True,
    )
