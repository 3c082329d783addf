"""The syntax tree of a dice expression: small frozen nodes that print back as notation.

Parsing (``parse.py``), exact distributions (``exact.py``), rolling (``rolling.py``) and sampling
(``sample.py``) are separate walks over these nodes; the nodes themselves hold no behaviour but
their own notation.

Notation, with the rule each special die comes from:

- ``NdX`` (``d%`` = ``d100``); ``NdXkhK`` / ``klK`` / ``dhK`` / ``dlK`` keep or drop dice.
- ``NdXx``: the CP2020 exploding die (graydawn G02). A top face re-rolls and adds, again and again;
  a 1 does not count: re-roll and *subtract* that roll, which itself keeps adding on top faces.
- ``NpmX``: the Dragon Warriors plus-minus roll (D01): a plus die and a minus die, each re-rolled
  and accumulated while it shows its top face. Both dice showing the top face on the first throw is
  tagged ``double six`` (for d6).
- ``sort(NdX)``: the faces of NdX as a descending tuple (warfare2d20 W06 soak comparisons).
- ``abs(e)``, ``e + e``, ``e - e``, ``e * k`` with a constant ``k``, parentheses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

KeepMode = Literal["kh", "kl", "dh", "dl"]
#: Other spellings of a keep mode: ``4d6k3`` keeps the highest three, as dice calculators read it.
KEEP_ALIASES = {"k": "kh"}

#: Tag set on a rolled ``d10x`` whose first face was a 1 (graydawn's fumble / natural 1).
NATURAL_ONE = "natural 1"
#: Tag set on a rolled ``pm6`` whose first throw showed the top face on both dice (D01).
DOUBLE_SIX = "double six"


class Node:
    """Base of every syntax-tree node."""

    def children(self) -> tuple[Node, ...]:
        """The sub-expressions, left to right (none for a leaf); walks recurse through them."""
        return ()

    @property
    def is_sorted(self) -> bool:
        """True when the value is a descending tuple of faces, not an integer."""
        return False


@dataclass(frozen=True)
class Const(Node):
    """A whole number in the expression, e.g. the ``11`` of ``d10x + 11``."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Dice(Node):
    """``count`` dice of ``sides`` faces, summed, optionally keeping/dropping some."""

    count: int
    sides: int
    keep: KeepMode | None = None
    keep_n: int = 0

    def __str__(self) -> str:
        s = f"{self.count}d{self.sides}"
        return f"{s}{self.keep}{self.keep_n}" if self.keep else s

    @property
    def kept_count(self) -> int:
        """How many of the ``count`` dice the sum keeps once any are dropped."""
        if self.keep in ("kh", "kl"):
            return self.keep_n
        if self.keep in ("dh", "dl"):
            return self.count - self.keep_n
        return self.count


@dataclass(frozen=True)
class Exploding(Node):
    """CP2020 exploding dice (``d10x``): top face adds a re-roll, a 1 subtracts one."""

    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}x"


@dataclass(frozen=True)
class PlusMinus(Node):
    """Dragon Warriors open-ended plus-minus roll (``pm6``)."""

    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}pm{self.sides}" if self.count != 1 else f"pm{self.sides}"


@dataclass(frozen=True)
class Sorted(Node):
    """The faces of ``count``d``sides`` sorted high to low (a tuple value)."""

    count: int
    sides: int

    def __str__(self) -> str:
        return f"sort({self.count}d{self.sides})"

    @property
    def is_sorted(self) -> bool:
        return True


@dataclass(frozen=True)
class Add(Node):
    """``left + right``."""

    left: Node
    right: Node

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)

    def __str__(self) -> str:
        return f"{self.left} + {self.right}"


@dataclass(frozen=True)
class Sub(Node):
    """``left - right``: the right side is a whole sub-expression, bracketed when it prints."""

    left: Node
    right: Node

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)

    def __str__(self) -> str:
        right = f"({self.right})" if isinstance(self.right, (Add, Sub)) else str(self.right)
        return f"{self.left} - {right}"


@dataclass(frozen=True)
class Mul(Node):
    """An expression times a constant factor."""

    operand: Node
    factor: int

    def children(self) -> tuple[Node, ...]:
        return (self.operand,)

    def __str__(self) -> str:
        inner = f"({self.operand})" if isinstance(self.operand, (Add, Sub)) else str(self.operand)
        return f"{inner} * {self.factor}"


@dataclass(frozen=True)
class Neg(Node):
    """``-operand``: a whole sub-expression negated (``-(d4+d6)``)."""

    operand: Node

    def children(self) -> tuple[Node, ...]:
        return (self.operand,)

    def __str__(self) -> str:
        inner = str(self.operand)
        # -(x * k) must keep its parentheses to print back as the same tree
        return f"-({inner})" if isinstance(self.operand, (Add, Sub, Mul)) else f"-{inner}"


@dataclass(frozen=True)
class Abs(Node):
    """``abs(operand)``: the size of a difference, as in the warfare2d20 delta."""

    operand: Node

    def children(self) -> tuple[Node, ...]:
        return (self.operand,)

    def __str__(self) -> str:
        return f"abs({self.operand})"


def walk(node: Node) -> list[Node]:
    """Every node of the tree, parents before children."""
    out = [node]
    for child in node.children():
        out.extend(walk(child))
    return out


def dice_count(node: Node) -> int:
    """How many dice the expression throws before any explosion (for the roll budget)."""
    return sum(
        n.count * (2 if isinstance(n, PlusMinus) else 1)
        for n in walk(node)
        if isinstance(n, (Dice, Exploding, PlusMinus, Sorted))
    )
