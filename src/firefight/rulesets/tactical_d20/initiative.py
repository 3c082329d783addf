"""Initiative (T01): d20 + Agility modifier once at the start of combat; the order then repeats
every 10-second round.

Ties: player characters go before GM creatures; creatures of the same side that tie re-roll among
themselves (again and again while they tie). The text: "they reroll their Initiative rolls", and
the Initiative roll is d20 + the Initiative modifier, so each re-roll adds the creature's Agility
modifier again (not a bare d20). The re-roll is a sub-rule run through ``dice.derive`` so exact
odds enumerate it once per tuple of modifiers and depth. Exact mode stops after
:data:`EXACT_REROLL_DEPTH` nested re-rolls and reports what is left as truncated mass (as the dice
module does for open-ended dice); seeded and scripted dice re-roll for as long as it takes.

The order depends on the scores only through how they compare, so in exact mode each round of
rolls is one derived request for the scores' *ranks* (how many scores are below each one), not
their values: three creatures' rolls are 13 rank patterns instead of 8,000 paths. Its table
(:func:`rank_table`) counts the patterns over every face at once; a test holds it to the
path-by-path replay of the rolls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial

import numpy as np

from firefight.core.transcript import Modifier, Note
from firefight.dice import DiceSource, Weighted
from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.models import Creature

#: Nested same-side re-rolls enumerated in exact mode (a tie of three recurs with p < 0.15).
EXACT_REROLL_DEPTH = 12
#: The outcome when exact enumeration stopped inside an unbroken tie.
UNRESOLVED = ("(tie still unbroken)",)
#: Most cells (die^N for N creatures) a one-pass rank table counts; beyond, the rolls are
#: enumerated path by path.
RANK_TABLE_CELLS = 200_000


def ranks(scores: Sequence[int]) -> tuple[int, ...]:
    """How many scores are below each one: the same order and ties as the scores themselves."""
    return tuple(sum(o < s for o in scores) for s in scores)


@lru_cache(maxsize=256)
def rank_table(mods: tuple[int, ...], die: int) -> Weighted[tuple[int, ...]]:
    """Exact distribution of :func:`ranks` of d``die`` + ``mods[i]`` for each creature: every
    cell of the die^N grid at once (numpy), counted by pattern."""
    n = len(mods)
    faces = np.arange(1, die + 1)
    grids = np.meshgrid(*[faces + m for m in mods], indexing="ij")
    code = np.zeros(grids[0].shape, dtype=np.int64)
    for g in grids:
        below = sum((h < g).astype(np.int64) for h in grids)
        code = code * n + below
    values, counts = np.unique(code, return_counts=True)
    out: dict[tuple[int, ...], int] = {}
    for v, c in zip(values.tolist(), counts.tolist(), strict=True):
        digits = []
        for _ in range(n):
            v, r = divmod(v, n)
            digits.append(r)
        out[tuple(reversed(digits))] = c
    return Weighted(out, die**n)


def _ranked(
    dice: DiceSource,
    why: str,
    mods: tuple[int, ...],
    die: int,
    roll: Callable[[DiceSource], list[int]],
) -> tuple[int, ...]:
    """The scores ``roll`` makes; on exact dice their :func:`ranks`, one derived request."""

    def run(d: DiceSource) -> tuple[int, ...]:
        scores = roll(d)
        return ranks(scores) if d.is_exact else tuple(scores)

    table = partial(rank_table, mods, die) if die ** len(mods) <= RANK_TABLE_CELLS else None
    key = ("tactical_d20 initiative ranks", mods, die)
    return dice.derive(why, run, key, exact=table, keep=True)


def _reroll_order(mods: tuple[int, ...], depth: int, die: int, dice: DiceSource) -> tuple[int, ...]:
    """Positions 0..len(mods)-1 of a tied group in their new order, or () if cut off (exact only).

    Each creature re-rolls its Initiative roll: d20 + its own Initiative modifier (T01).
    """
    size = len(mods)
    if dice.is_exact and depth > EXACT_REROLL_DEPTH:
        return ()

    def reroll(d: DiceSource) -> list[int]:
        return [
            d.roll(
                f"1d{die}", why=f"initiative re-roll, place {i + 1}: d20 {mods[i]:+d} (T01)"
            ).total
            + mods[i]
            for i in range(size)
        ]

    rolls = _ranked(dice, "initiative re-roll (T01)", mods, die, reroll)
    order: list[int] = []
    for value in sorted(set(rolls), reverse=True):
        tied = [i for i in range(size) if rolls[i] == value]
        if len(tied) == 1:
            order += tied
            continue
        sub = _break(tuple(mods[i] for i in tied), depth + 1, die, dice)
        if not sub:
            return ()
        order += [tied[j] for j in sub]
    return tuple(order)


def _break(mods: tuple[int, ...], depth: int, die: int, dice: DiceSource) -> tuple[int, ...]:
    return dice.derive(
        f"re-roll a tie of {len(mods)}",
        lambda d: _reroll_order(mods, depth, die, d),
        key=("tactical_d20 initiative tie", mods, depth, die),
    )


def order_of(
    creatures: Sequence[Creature], scores: Sequence[int], dice: DiceSource, house: TacticalD20House
) -> tuple[str, ...]:
    """Highest score first; ties: players before GM creatures, same side re-rolls."""
    order: list[str] = []
    for score in sorted(set(scores), reverse=True):
        tied = [c for c, s in zip(creatures, scores, strict=True) if s == score]
        for side in ("player", "gm"):
            group = [c for c in tied if c.side == side]
            if len(group) > 1:
                dice.record(
                    Note(f"{', '.join(c.name for c in group)} tie on {score}: re-roll", "T01")
                )
                mods = tuple(c.agility for c in group)
                sub = _break(mods, 1, house.initiative_die, dice)
                if not sub:
                    return UNRESOLVED
                group = [group[j] for j in sub]
            elif len(group) == 1 and len(tied) > 1 and side == "player":
                dice.record(Note(f"{group[0].name} ties a GM creature and goes first", "T01"))
            order += [c.name for c in group]
    return tuple(order)


def roll_initiative(
    creatures: Sequence[Creature], dice: DiceSource, house: TacticalD20House
) -> tuple[str, ...]:
    """Every creature's Initiative, and the turn order that repeats each round."""

    def roll(d: DiceSource) -> list[int]:
        scores = []
        for c in creatures:
            d.record(Modifier("Agility modifier", c.agility, "initiative", c.name, "T01"))
            natural = d.roll(f"1d{house.initiative_die}", why=f"{c.name} initiative d20 (T01)")
            scores.append(natural.total + c.agility)
            d.record(Note(f"{c.name} initiative {scores[-1]}", "T01"))
        return scores

    mods = tuple(c.agility for c in creatures)
    scores = _ranked(dice, "initiative (T01)", mods, house.initiative_die, roll)
    order = order_of(creatures, scores, dice, house)
    every = f"each {house.round_seconds}-second round"
    dice.record(Note(f"turn order {every}: " + " > ".join(order), "T01"))
    return order


def summary(order: tuple[str, ...]) -> dict[str, object]:
    """The acting order for the CLI table and JSON."""
    return {"order": " > ".join(order)}
