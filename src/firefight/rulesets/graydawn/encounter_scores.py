"""A panic's re-rolled initiative in an exact preview (G33: a check total of 0 or less re-rolls
initiative, keeping the lower), told only as the rest of the preview reads it.

Once the suppression checks are made, a preview reads the new scores only through the order the
checks end with (the scores themselves are read when the next round starts, after any preview,
and ``preview_idle`` sets them aside). An exploding d10 gives a re-roll about a hundred scores,
and while another target is still to check, which may re-roll too, each of them had to be kept
apart: two targets' checks multiplied a volley's states a hundredfold and refused its preview
(suppression_panic's fifth step: 34 declarations). So a preview leaves a panicked fighter's
re-roll waiting on the board (:class:`WaitingBoard`) until the checks end, and :func:`settle`
then rolls every waiting re-roll as one sub-rule, told as the order reads the scores together
(:func:`order_alike`). Rolled fights and ``act`` never wait: they re-roll at the check.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from firefight.core.transcript import StateChange
from firefight.core.turns import FightState, evolve
from firefight.dice import DiceSource, Weighted
from firefight.dice.sources import derived_distribution, reduced
from firefight.rulesets.graydawn import tactics
from firefight.rulesets.graydawn.encounter_state import Board, put

if TYPE_CHECKING:
    from firefight.rulesets.graydawn.encounter import GraydawnTurns

#: A waiting re-roll as the sub-rule reads it: the score kept if lower (the current one), REF
#: and the modifiers of the roll, and the bonus the order adds (the ambush's, round 1).
_Roll = tuple[int, int, int, int]


@dataclass(frozen=True)
class WaitingBoard(Board):
    """The board while a preview's panic re-rolls wait for the end of the checks: each as
    (name, REF, modifiers of the roll), the score kept if lower being the fighter's own. Kept
    on the board, not the fighter, so a fighter keeps its own kind (a wound told briefly
    carries its mean). Only inside previews; never saved."""

    waiting: tuple[tuple[str, int, int], ...] = ()


def defer(state: FightState, name: str, ref: int, mods: int) -> FightState:
    """``state`` with ``name``'s re-roll (REF ``ref``, modifiers ``mods``) left for
    :func:`settle`."""
    board = state.board
    waiting = (*getattr(board, "waiting", ()), (name, ref, mods))
    return evolve(state, board=WaitingBoard(board.distances, board.asked, board.declared, waiting))


def settle(t: GraydawnTurns, state: FightState, dice: DiceSource) -> FightState:
    """Every waiting re-roll rolled, as one sub-rule told by :func:`order_alike` against the
    other fighters' scores (the order's bonus added on both sides,
    :meth:`.GraydawnTurns.order_bonus`); nothing waiting: ``state`` itself."""
    board = state.board
    if not isinstance(board, WaitingBoard):
        return state
    names = {name for name, _, _ in board.waiting}
    fixed = tuple(
        sorted(
            {
                f.initiative + t.order_bonus(state, f)
                for f in state.combatants
                if f.name not in names
            }
        )
    )
    rolls = tuple(
        (f.initiative, ref, mods, t.order_bonus(state, f))
        for f, ref, mods in ((state.combatant(n), ref, mods) for n, ref, mods in board.waiting)
    )
    news = dice.derive(
        "initiative re-roll",
        partial(_rolled, rolls, fixed),
        ("initiative re-rolls told by the order", rolls, fixed),
        exact=partial(_table, rolls, fixed),
        keep=True,
    )
    state = evolve(state, board=Board(board.distances, board.asked, board.declared))
    for (name, _, _), new in zip(board.waiting, news, strict=True):
        f = state.combatant(name)
        dice.record(StateChange(name, "initiative", f.initiative, new, "G33"))
        state = put(state, evolve(f, initiative=new))
    return state


def _rolled(rolls: tuple[_Roll, ...], fixed: tuple[int, ...], dice: DiceSource) -> tuple[int, ...]:
    """The re-rolls on ``dice``, told by :func:`order_alike`."""
    news = tuple(tactics.reroll_keep_lower(dice, c, ref, mods) for c, ref, mods, _ in rolls)
    return order_alike(news, tuple(b for *_, b in rolls), fixed)


def _table(rolls: tuple[_Roll, ...], fixed: tuple[int, ...]) -> Weighted[tuple[int, ...]]:
    """:func:`_rolled`'s distribution from each re-roll's kept table (independent rolls)."""
    kept = [
        derived_distribution(partial(_one, c, ref, mods), ("re-roll", c, ref, mods))
        for c, ref, mods, _ in rolls
    ]
    bonuses = tuple(b for *_, b in rolls)
    acc: dict[tuple[int, ...], int] = {}
    total = 1
    for table in kept:
        total *= table.total
    for combo in itertools.product(*(table.items() for table in kept)):
        weight = 1
        for _, w in combo:
            weight *= w
        told = order_alike(tuple(v for v, _ in combo), bonuses, fixed)
        acc[told] = acc.get(told, 0) + weight
    return reduced(list(acc), list(acc.values()), total)


def _one(current: int, ref: int, mods: int, dice: DiceSource) -> int:
    return tactics.reroll_keep_lower(dice, current, ref, mods)


def order_alike(
    news: tuple[int, ...], bonuses: tuple[int, ...], fixed: tuple[int, ...]
) -> tuple[int, ...]:
    """The least scores the order reads as ``news`` (each with its bonus) among the others'
    scores ``fixed`` (bonus added, sorted, distinct): equal to one of them, a score stays; in a
    gap between them (or beyond them), the scores in it keep their order and ties, counted up
    from the score below (or down from the lowest). Ties with another score are broken by REF
    and the scenario's order alike for every score equal to it (G33)."""
    mine = [n + b for n, b in zip(news, bonuses, strict=True)]
    told: dict[int, int] = {}
    below = sorted({v for v in mine if v not in fixed and (not fixed or v < fixed[0])})
    for j, v in enumerate(below):
        told[v] = (fixed[0] if fixed else len(below)) - len(below) + j
    gap: list[int] = []
    for v in sorted(set(mine) - set(below)):
        if v in fixed:
            told[v] = v
            continue
        gap.append(v)
    for v in gap:
        floor = max(f for f in fixed if f < v)
        told[v] = floor + 1 + sum(1 for g in gap if floor < g < v)
    return tuple(told[v] - b for v, b in zip(mine, bonuses, strict=True))
