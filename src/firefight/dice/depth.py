"""How open-ended dice are cut: the explosion depth, kept apart from the exact machinery so
the dice sources (and ``firefight roll``) need not import it."""

from __future__ import annotations

from dataclasses import dataclass

from firefight.dice.nodes import Exploding, Node, PlusMinus
from firefight.errors import DiceError

#: Truncated mass an expression may leave out by default.
DEFAULT_TOLERANCE = 1e-12


@dataclass(frozen=True)
class Depth:
    """How open-ended dice are cut: ``depth`` re-rolls per chain (None = automatic).

    ``chains`` is the number of open-ended chains in the whole expression; :func:`exact` sets it
    so the automatic depth keeps the *expression's* left-out mass below the tolerance, however
    many exploding dice it has (0 = count each die node on its own).
    """

    depth: int | None = None
    stop: bool = False
    chains: int = 0

    def for_die(self, sides: int, chains: int) -> int:
        """Re-rolls allowed so that ``chains`` chains lose at most the default tolerance."""
        if self.depth is not None:
            if self.depth < 1:
                raise DiceError("explosion depth must be at least 1", tip="use depth=1 or more")
            return self.depth
        chains = max(chains, self.chains)
        k = 1
        while chains * sides ** -(k + 1) > DEFAULT_TOLERANCE / 10:
            k += 1
        return k


def open_chains(node: Node) -> int:
    """How many open-ended chains an expression can start (a pm die has two); one loop over the
    tree, no list of its nodes (every fresh exact() asks this)."""
    chains = 0
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Exploding):
            chains += n.count
        elif isinstance(n, PlusMinus):
            chains += 2 * n.count
        else:
            stack.extend(n.children())
    return chains


def resolve_depth(node: Node, depth: Depth) -> Depth:
    """An automatic depth counts every chain of the expression, not just one die's."""
    if depth.depth is not None or depth.chains:
        return depth
    chains = open_chains(node)
    return Depth(None, depth.stop, chains) if chains > 1 else depth
