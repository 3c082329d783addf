"""What a Dragon Warriors II fight keeps between steps: each combatant's wounds, stun clock and
stance (:class:`Warrior`), an exchange waiting for a decision, and the turn's board (D03-D08)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firefight.core.turns import FightState

STANCES = ("normal", "full parry", "aggressive parry")
#: The clock of a stun that a scenario starts with: it lasts through the first turn.
START_STUN = (2, 1)


@dataclass(frozen=True)
class Warrior:
    """What changes about one combatant during a fight."""

    name: str
    side: str
    wounds: int = 0
    #: (turn, action) at whose start the stun wears off; None when not stunned (D06).
    stunned_until: tuple[int, int] | None = None
    knocked_out: bool = False
    dead: bool = False
    #: The stance taken for this turn (D08).
    stance: str = "normal"
    #: Riposte decisions taken so far; counted only with riposte = "choose" (the next default).
    choices_used: int = 0
    #: Missiles left; None when not counted.
    ammunition: int | None = None

    @property
    def stunned(self) -> bool:
        return self.stunned_until is not None


@dataclass(frozen=True)
class Exchange:
    """An exchange waiting for a decision: the defender's stance, or a winner's riposte."""

    attacker: str
    defender: str
    #: "stance" or "riposte".
    asking: str
    #: Level of the next contest (0 the attack, 1 the riposte, 2 the counter-riposte, ...).
    level: int = 0
    #: The riposte's Attack on offer, and the margin it comes from.
    score: int = 0
    won_by: int = 0


@dataclass(frozen=True)
class Board:
    """The turn's shared state: distances, who has acted or delayed, an exchange in progress."""

    #: Feet between pairs that are not 0 apart: (name, name, feet), names in scenario order.
    distances: tuple[tuple[str, str, int], ...] = ()
    done: tuple[str, ...] = ()
    delayed: tuple[str, ...] = ()
    #: Actions finished this turn (the stun clock).
    actions: int = 0
    exchange: Exchange | None = None
    #: An exchange of this fight was cut at ``options.max_chain`` (D05): kept to the end, for
    #: ``simulate`` to report.
    chain_cut: bool = False


def moved(
    state: FightState,
    acting: str | None,
    phase: str,
    board: Board,
    combatants: tuple[Any, ...] | None = None,
) -> FightState:
    """``state`` with a new turn holder, phase, board (and combatants): built directly, as
    exact enumeration builds one per path."""
    people = state.combatants if combatants is None else combatants
    return FightState(
        state.round, phase, state.order, acting, people, board, state.ending, state.winner
    )


def swap(people: tuple[Any, ...], new: Warrior) -> tuple[Any, ...]:
    """``people`` with ``new`` in place of the combatant of the same name."""
    return tuple(new if c.name == new.name else c for c in people)
