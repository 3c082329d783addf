"""Active and passive contests of skill (D01, D02): the open-ended plus-minus roll every contest
rolls, and what a double six does."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from firefight.dice import DOUBLE_SIX, DiceSource, Roll

#: Called when a plus-minus roll throws a double six: (who, role, roll) -> bonus to the total.
DoubleSixHook = Callable[[str, str, Roll], int]

Role = Literal["attacker", "defender"]


@dataclass(frozen=True)
class DoubleSix:
    """Transcript event: both dice showed six on the first throw (D01)."""

    who: str
    role: str
    bonus: int
    rule: str = "D01"

    def text(self) -> str:
        effect = f": {self.bonus:+d} to the total (double_six_bonus)" if self.bonus else ""
        return f"double six on {self.who}'s {self.role} roll ({self.rule}){effect}"


def bonus_hook(bonus: int) -> DoubleSixHook | None:
    """The situation option ``double_six_bonus`` as a hook (None when it is 0)."""
    if not bonus:
        return None

    def hook(who: str, role: str, roll: Roll) -> int:
        return bonus

    return hook


def plus_minus(dice: DiceSource, who: str, role: str, hook: DoubleSixHook | None = None) -> int:
    """One open-ended plus-minus roll (D01); a double six is recorded and offered to the hook."""
    r = dice.roll("pm6", why=f"{who}: {role}")
    if DOUBLE_SIX not in r.tags:
        return r.total
    bonus = hook(who, role, r) if hook is not None else 0
    dice.record(DoubleSix(who, role, bonus))
    return r.total + bonus
