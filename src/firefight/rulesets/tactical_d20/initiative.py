"""Initiative (T01): d20 + Agility modifier once at the start of combat; the order then repeats
every 10-second round.

Ties: player characters go before GM creatures; creatures of the same side that tie re-roll among
themselves (again and again while they tie). The text: "they reroll their Initiative rolls", and
the Initiative roll is d20 + the Initiative modifier, so each re-roll adds the creature's Agility
modifier again (not a bare d20). The re-roll is a sub-rule run through ``dice.derive`` so exact
odds enumerate it once per tuple of modifiers and depth. Exact mode stops after
:data:`EXACT_REROLL_DEPTH` nested re-rolls and reports what is left as truncated mass (as the dice
module does for open-ended dice); seeded and scripted dice re-roll for as long as it takes.
"""

from __future__ import annotations

from collections.abc import Sequence

from firefight.core.transcript import Modifier, Note
from firefight.dice import DiceSource
from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.models import Creature

#: Nested same-side re-rolls enumerated in exact mode (a tie of three recurs with p < 0.15).
EXACT_REROLL_DEPTH = 12
#: The outcome when exact enumeration stopped inside an unbroken tie.
UNRESOLVED = ("(tie still unbroken)",)


def _reroll_order(mods: tuple[int, ...], depth: int, die: int, dice: DiceSource) -> tuple[int, ...]:
    """Positions 0..len(mods)-1 of a tied group in their new order, or () if cut off (exact only).

    Each creature re-rolls its Initiative roll: d20 + its own Initiative modifier (T01).
    """
    size = len(mods)
    if dice.is_exact and depth > EXACT_REROLL_DEPTH:
        return ()
    rolls = [
        dice.roll(
            f"1d{die}", why=f"initiative re-roll, place {i + 1}: d20 {mods[i]:+d} (T01)"
        ).total
        + mods[i]
        for i in range(size)
    ]
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
    scores = []
    for c in creatures:
        dice.record(Modifier("Agility modifier", c.agility, "initiative", c.name, "T01"))
        natural = dice.roll(f"1d{house.initiative_die}", why=f"{c.name} initiative d20 (T01)").total
        scores.append(natural + c.agility)
        dice.record(Note(f"{c.name} initiative {scores[-1]}", "T01"))
    order = order_of(creatures, scores, dice, house)
    every = f"each {house.round_seconds}-second round"
    dice.record(Note(f"turn order {every}: " + " > ".join(order), "T01"))
    return order


def summary(order: tuple[str, ...]) -> dict[str, object]:
    """The acting order for the CLI table and JSON."""
    return {"order": " > ".join(order)}
