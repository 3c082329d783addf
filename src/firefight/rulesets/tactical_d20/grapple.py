"""Grapples and Melees as groups (T09): what a group is called and how much room it takes.

The encounter engine will place groups on a grid; these helpers give it the text's rules.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from firefight.rulesets.tactical_d20.models import Creature

#: Squares a creature of each size occupies (reading: 5-ft squares, large 2x2, huge 3x3).
SQUARES = {"tiny": 1, "small": 1, "medium": 1, "large": 4, "huge": 9}


def group_name(members: Sequence[Creature]) -> str:
    """Two creatures make a Grapple; a third creature joining makes it a Melee."""
    return "Grapple" if len(members) <= 2 else "Melee"


def melee_side(members: Sequence[Creature]) -> int:
    """Side, in squares, of the smallest square in which every member has its own space.

    Two creatures in a Grapple share one space; a Melee gives each creature its own, so the
    creatures' squares are packed (a small search: Melees hold a handful of creatures).
    """
    sides = sorted((math.isqrt(SQUARES[m.size]) for m in members), reverse=True)
    if len(members) <= 2:
        return sides[0]
    side = max(sides[0], math.isqrt(sum(s * s for s in sides) - 1) + 1)
    while not _packs(sides, side):
        side += 1
    return side


def _packs(sides: list[int], board: int) -> bool:
    taken = [[False] * board for _ in range(board)]

    def free(r: int, c: int, s: int) -> bool:
        return all(not taken[r + i][c + j] for i in range(s) for j in range(s))

    def mark(r: int, c: int, s: int, value: bool) -> None:
        for i in range(s):
            for j in range(s):
                taken[r + i][c + j] = value

    def place(k: int) -> bool:
        if k == len(sides):
            return True
        s = sides[k]
        for r in range(board - s + 1):
            for c in range(board - s + 1):
                if free(r, c, s):
                    mark(r, c, s, True)
                    if place(k + 1):
                        return True
                    mark(r, c, s, False)
        return False

    return place(0)


def exit_provokes(members: Sequence[Creature]) -> bool:
    """Leaving a Grapple lets the other creature attack as a Reaction; leaving a Melee does not."""
    return len(members) <= 2
