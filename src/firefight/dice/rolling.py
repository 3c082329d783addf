"""Syntax tree + a face supplier -> rolled tree that keeps every die.

The face supplier is the only source of chance: ``faces(sides) -> int``. Seeded dice pass a numpy
generator, scripted dice pass the faces a table rolled, and nothing here knows which. The rolled
tree keeps every face (kept, dropped, exploded, subtracted) so any renderer can show it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from firefight.dice.nodes import (
    DOUBLE_SIX,
    NATURAL_ONE,
    Abs,
    Add,
    Const,
    Dice,
    Exploding,
    Mul,
    Neg,
    Node,
    PlusMinus,
    Sorted,
    Sub,
)
from firefight.errors import DiceError

FaceSupplier = Callable[[int], int]
Value = int | tuple[int, ...]
#: What a rule did with one die beyond keeping or dropping it: nothing (""), "explodes" (it
#: rolled its top face and rolls again), "replaced" (a CP2020 natural 1 that does not count).
FaceNote = Literal["", "explodes", "replaced"]

#: Most faces one expression may roll, explosions included (stops runaway chains).
FACE_BUDGET = 10_000


@dataclass(frozen=True)
class Face:
    """One physical die: its sides, the face shown, and what the rule did with it."""

    sides: int
    face: int
    kept: bool = True
    sign: int = 1
    #: See :data:`FaceNote`.
    note: FaceNote = ""

    @property
    def counted(self) -> int:
        """What this die adds to the total."""
        if not self.kept or self.note == "replaced":
            return 0
        return self.sign * self.face


@dataclass(frozen=True)
class Rolled:
    """A node with its rolled value, its own dice and its rolled children."""

    node: Node
    value: Value
    faces: tuple[Face, ...] = ()
    children: tuple[Rolled, ...] = ()
    tags: frozenset[str] = field(default_factory=frozenset)

    def all_faces(self) -> list[Face]:
        """Every die of the whole tree in the order it was rolled."""
        out = list(self.faces)
        for child in self.children:
            out.extend(child.all_faces())
        return out

    @property
    def total(self) -> int:
        """The value as an integer; a sorted roll (a tuple of faces) has none and says so."""
        if not isinstance(self.value, int):
            raise DiceError(f"{self.node} is a tuple of faces, not a number")
        return self.value


@dataclass(frozen=True)
class DieCall:
    """Which physical die a face is asked for, told to a supplier that wants to know (the
    table's dice asked roll by roll): its term of the expression, its place among the term's
    dice, and for an extra die the face that called for it."""

    #: The leaf of the expression the die belongs to (``Dice``, ``Sorted``, ``Exploding``, ...).
    term: Node
    #: The die's place among the term's ``count`` dice, from 0.
    index: int = 0
    #: The face that called for this extra die (a top face exploding, a CP2020 natural 1); 0 for
    #: one of the term's own dice.
    after: int = 0
    #: -1 when the die is subtracted (a plus-minus roll's minus die, a CP2020 1's re-roll).
    sign: int = 1


#: Told of each die before its face is asked (see :func:`roll_tree`).
DieTeller = Callable[[DieCall], None]


class _Budget:
    def __init__(self, supplier: FaceSupplier, tell: DieTeller | None = None) -> None:
        self.supplier = supplier
        self.tell = tell
        self.used = 0

    def __call__(
        self, sides: int, term: Node | None = None, index: int = 0, after: int = 0, sign: int = 1
    ) -> int:
        self.used += 1
        if self.used > FACE_BUDGET:
            raise DiceError(
                f"more than {FACE_BUDGET} faces rolled", tip="the expression keeps exploding"
            )
        if self.tell is not None and term is not None:
            self.tell(DieCall(term, index, after, sign))
        face = self.supplier(sides)
        if not 1 <= face <= sides:
            raise DiceError(f"a d{sides} cannot show {face}")
        return face


def _chain(
    roll: _Budget, term: Node, index: int, sides: int, sign: int, after: int = 0
) -> list[Face]:
    """Roll once, and again while the top face shows (an open-ended chain); ``after`` is the
    face that called for the chain's first die (0: none did)."""
    faces = []
    while True:
        f = roll(sides, term, index, after, sign)
        top = f == sides
        faces.append(Face(sides, f, sign=sign, note="explodes" if top else ""))
        if not top:
            return faces
        after = f


def _roll(node: Node, roll: _Budget) -> Rolled:
    if isinstance(node, Const):
        return Rolled(node, node.value)
    if isinstance(node, Dice):
        shown = [roll(node.sides, node, i) for i in range(node.count)]
        keep = set(range(node.count))
        if node.keep:
            order = sorted(range(node.count), key=lambda i: shown[i], reverse=True)
            n = node.kept_count
            high = node.keep in ("kh", "dl")
            keep = set(order[:n]) if high else set(order[node.count - n :])
        faces = tuple(Face(node.sides, f, kept=i in keep) for i, f in enumerate(shown))
        return Rolled(node, sum(f.counted for f in faces), faces)
    if isinstance(node, Sorted):
        shown = sorted((roll(node.sides, node, i) for i in range(node.count)), reverse=True)
        return Rolled(node, tuple(shown), tuple(Face(node.sides, f) for f in shown))
    if isinstance(node, Exploding):
        faces_x: list[Face] = []
        tags: set[str] = set()
        for i in range(node.count):
            first = roll(node.sides, node, i)
            if first == 1:
                tags.add(NATURAL_ONE)
                faces_x.append(Face(node.sides, 1, note="replaced"))
                faces_x.extend(_chain(roll, node, i, node.sides, -1, after=1))
            elif first == node.sides:
                faces_x.append(Face(node.sides, first, note="explodes"))
                faces_x.extend(_chain(roll, node, i, node.sides, 1, after=first))
            else:
                faces_x.append(Face(node.sides, first))
        return Rolled(node, sum(f.counted for f in faces_x), tuple(faces_x), tags=frozenset(tags))
    if isinstance(node, PlusMinus):
        faces_pm: list[Face] = []
        tags_pm: set[str] = set()
        for i in range(node.count):
            plus = _chain(roll, node, i, node.sides, 1)
            minus = _chain(roll, node, i, node.sides, -1)
            if plus[0].face == node.sides and minus[0].face == node.sides:
                tags_pm.add(DOUBLE_SIX if node.sides == 6 else f"double {node.sides}")
            faces_pm.extend(plus + minus)
        return Rolled(
            node, sum(f.counted for f in faces_pm), tuple(faces_pm), tags=frozenset(tags_pm)
        )
    if isinstance(node, (Add, Sub)):
        left, right = _roll(node.left, roll), _roll(node.right, roll)
        sign = 1 if isinstance(node, Add) else -1
        return Rolled(
            node,
            left.total + sign * right.total,
            children=(left, right),
            tags=left.tags | right.tags,
        )
    if isinstance(node, Neg):
        inner = _roll(node.operand, roll)
        return Rolled(node, -inner.total, children=(inner,), tags=inner.tags)
    if isinstance(node, Mul):
        inner = _roll(node.operand, roll)
        return Rolled(node, inner.total * node.factor, children=(inner,), tags=inner.tags)
    if isinstance(node, Abs):
        inner = _roll(node.operand, roll)
        return Rolled(node, abs(inner.total), children=(inner,), tags=inner.tags)
    raise DiceError(f"cannot roll {node!r}")


def roll_tree(node: Node, faces: FaceSupplier, tell: DieTeller | None = None) -> Rolled:
    """Roll a syntax tree, asking ``faces(sides)`` for each physical die in order; ``tell``, if
    given, hears which die (:class:`DieCall`) just before each face is asked."""
    return _roll(node, _Budget(faces, tell))
