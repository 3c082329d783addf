"""What changes during a tactical_d20 fight: frozen, hashable, JSON round-trip exact.

:class:`Fighter` is one creature's changing state (hit points, the turn's Actions and the
Reaction, lasting wounds with their durations, rounds loaded, cover held); :class:`Board` is what
the creatures share (distances in feet, Grapples and Melees, suppression zones, a Reaction owed
mid-turn). Stats and weapons stay on the ``Turns`` object.

Distances (reading, see docs/rules/tactical_d20.md "Encounters"): firefight keeps no map, only the
distance between each pair of creatures. A move toward or away from one creature changes that
distance by the move; every other distance of the mover changes as little as the triangle
inequality allows (never by more than the move), which keeps the table a possible one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property


@dataclass(frozen=True)
class Lasting:
    """A wound effect (T05) and how long it lasts.

    ``turns`` counts the ends of the creature's own turns still to pass before it wears off: 1 for
    "until the end of their next turn" taken outside its turn, 2 when taken during its own turn
    (its *next* turn is the one after); 0 means until a DC 15 Body check (a critical's arm or leg
    wound).
    """

    condition: str
    turns: int

    def label(self) -> str:
        if self.turns == 0:
            return f"{self.condition} until a Body check"
        if self.turns == 1:
            return f"{self.condition} until the end of its next turn"
        return f"{self.condition} until the end of its turn after this one"


@dataclass(frozen=True)
class Fighter:
    """One creature's changing state."""

    name: str
    side: str
    hp: int
    #: Actions left this turn (0 outside its turn).
    actions: int = 0
    #: The Reaction is unused (it comes back at the start of the creature's turn).
    reaction: bool = True
    effects: tuple[Lasting, ...] = ()
    #: Rounds loaded per ranged weapon name.
    rounds: tuple[tuple[str, int], ...] = ()
    disarmed: bool = False
    #: Holds the cover the battlefield gives it (lost on moving or entering a Grapple).
    in_cover: bool = False
    #: Moved into reach of this creature this turn: a free melee attack on it is open (T09).
    closed_on: str = ""

    def has(self, condition: str) -> bool:
        return any(e.condition == condition for e in self.effects)

    def loaded(self, weapon: str) -> int:
        return dict(self.rounds).get(weapon, 0)

    def with_rounds(self, weapon: str, left: int) -> Fighter:
        return replace(self, rounds=tuple((w, left if w == weapon else n) for w, n in self.rounds))

    def with_effect(self, new: Lasting) -> Fighter:
        """Add a wound effect; the same condition again keeps the longer duration."""
        old = next((e for e in self.effects if e.condition == new.condition), None)
        if old is not None:
            turns = 0 if 0 in (old.turns, new.turns) else max(old.turns, new.turns)
            new = Lasting(new.condition, turns)
        rest = tuple(e for e in self.effects if e.condition != new.condition)
        return replace(self, effects=tuple(sorted((*rest, new), key=lambda e: e.condition)))

    def without(self, condition: str) -> Fighter:
        return replace(self, effects=tuple(e for e in self.effects if e.condition != condition))

    def turn_ended(self) -> Fighter:
        """The end of its turn: timed effects count down, the rest of the budget lapses."""
        kept = []
        for e in self.effects:
            if e.turns == 0:
                kept.append(e)
            elif e.turns > 1:
                kept.append(Lasting(e.condition, e.turns - 1))
        return replace(self, effects=tuple(kept), actions=0, closed_on="")


@dataclass(frozen=True)
class Zone:
    """Suppressing fire (T08): the cone lasts until the shooter's next turn."""

    shooter: str
    weapon: str
    #: The creatures inside the cone (fixed when it is laid; a creature that moves leaves it).
    covers: tuple[str, ...]


@dataclass(frozen=True)
class Pending:
    """A Reaction owed mid-turn: ``reactor`` may attack ``mover``, who is leaving their Grapple."""

    reactor: str
    mover: str


@dataclass(frozen=True)
class Board:
    """Shared changing state: distances in feet, groups, suppression zones, a pending Reaction."""

    #: ((a, b), feet) for every pair, a < b.
    distances: tuple[tuple[tuple[str, str], int], ...]
    #: Grapples (two creatures) and Melees (three or more), names sorted.
    groups: tuple[tuple[str, ...], ...] = ()
    zones: tuple[Zone, ...] = ()
    pending: Pending | None = None

    @cached_property
    def _feet(self) -> dict[tuple[str, str], int]:
        # derived lookup tables: not fields, so equality, hashing and JSON ignore them
        return dict(self.distances)

    @cached_property
    def _groups(self) -> dict[str, tuple[str, ...]]:
        return {name: g for g in self.groups for name in g}

    def distance(self, a: str, b: str) -> int:
        if a == b:
            return 0
        return self._feet[(a, b) if a < b else (b, a)]

    def group_of(self, name: str) -> tuple[str, ...]:
        """The Grapple or Melee ``name`` is in, or ()."""
        return self._groups.get(name, ())

    def with_distances(self, changes: dict[str, int], mover: str) -> Board:
        out = []
        for (a, b), feet in self.distances:
            other = b if a == mover else a if b == mover else None
            out.append(((a, b), changes.get(other, feet) if other is not None else feet))
        return replace(self, distances=tuple(out))

    def moved(self, mover: str, toward: str, new: int) -> Board:
        """``mover`` ends ``new`` ft from ``toward``; its other distances change as little as
        the triangle inequality allows (by at most the distance moved)."""
        old = self.distance(mover, toward)
        step = abs(old - new)
        changes = {toward: new}
        for (a, b), feet in self.distances:
            if mover not in (a, b):
                continue
            other = b if a == mover else a
            if other == toward:
                continue
            far = self.distance(toward, other)
            lo = max(feet - step, abs(far - new))
            hi = min(feet + step, far + new)
            changes[other] = min(max(feet, lo), hi)
        return self.with_distances(changes, mover)

    def join(self, a: str, b: str) -> Board:
        """``a`` makes a melee attack on ``b``: a Grapple, or ``a`` joins ``b``'s (a Melee)."""
        mine, theirs = self.group_of(a), self.group_of(b)
        if mine and mine == theirs:
            return self
        rest = tuple(g for g in self.groups if g not in (mine, theirs))
        merged = tuple(sorted({*mine, *theirs, a, b}))
        board = replace(self, groups=tuple(sorted((*rest, merged))))
        board = board.moved(a, b, 0)
        for other in merged:
            if other not in (a, b):
                board = board.with_distances({other: 0}, a)
        return board

    def leave(self, name: str, gap: int) -> Board:
        """``name`` leaves its group for an adjacent space ``gap`` ft from each member."""
        group = self.group_of(name)
        if not group:
            return self
        rest = tuple(n for n in group if n != name)
        groups = tuple(g for g in self.groups if g != group)
        if len(rest) >= 2:
            groups = tuple(sorted((*groups, rest)))
        board = replace(self, groups=groups)
        return board.moved(name, rest[0], gap).with_distances(dict.fromkeys(rest, gap), name)

    def drop(self, name: str) -> Board:
        """``name`` is out of the fight: it leaves its group and every cone; its own cones end
        (nobody is firing them)."""
        board = self
        group = self.group_of(name)
        if group:
            rest = tuple(n for n in group if n != name)
            groups = tuple(g for g in self.groups if g != group)
            if len(rest) >= 2:
                groups = tuple(sorted((*groups, rest)))
            board = replace(board, groups=groups)
        zones = tuple(z for z in board.zones if z.shooter != name)
        return replace(board, zones=zones).out_of_zones(name)

    def out_of_zones(self, name: str) -> Board:
        zones = tuple(
            replace(z, covers=tuple(n for n in z.covers if n != name)) for z in self.zones
        )
        return replace(self, zones=zones)
