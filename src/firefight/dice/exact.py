"""Syntax tree -> exact distribution, with integer weights and exact polynomial products.

Some dice carry *tags* that rule code may need beside the value: a CP2020 ``d10x`` whose first face
was 1 (``natural 1``), a Dragon Warriors ``pm6`` whose first throw was a double six. An
expression's exact form is therefore a list of ``(tags, Dist)`` groups; every group shares one
denominator so a group's weights are joint probabilities ``P(value and exactly these tags)``.

Open-ended dice are exact to a stated depth (the number of re-rolls one chain may take). Two
conventions for what happens at the limit:

- ``stop=False`` (default): the branch that would roll again is left out and reported as
  :attr:`Dist.truncated_mass`. The default depth keeps that mass below ``1e-12``.
- ``stop=True``: the last allowed die counts its face and does not roll again. This is icepool's
  ``explode(depth=...)`` convention, used to compare against it fraction for fraction.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterable
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import NoReturn

from firefight.dice.depth import Depth, resolve_depth
from firefight.dice.dist import Dist, Weighted
from firefight.dice.keep import keep_sum
from firefight.dice.limits import check_keep
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
from firefight.dice.parse import as_node
from firefight.errors import DiceError

#: Most distinct sorted tuples an exact ``sort(NdX)`` may enumerate.
SORTED_BUDGET = 200_000

#: The automatic depth (the default tolerance).
AUTO = Depth()

Tags = frozenset[str]
Tagged = tuple[tuple[Tags, Dist], ...]
NO_TAGS: Tags = frozenset()


def _merge(groups: Iterable[tuple[Tags, Dist]]) -> Tagged:
    """Add together groups that carry the same tags (they share one denominator)."""
    acc: dict[Tags, list[Dist]] = {}
    for tags, d in groups:
        acc.setdefault(tags, []).append(d)
    return tuple(
        (tags, ds[0] if len(ds) == 1 else Dist.mix(((1, d) for d in ds), 1))
        for tags, ds in sorted(acc.items(), key=_key)
    )


def _key(item: tuple[Tags, object]) -> tuple[str, ...]:
    return tuple(sorted(item[0]))


def _combine(a: Tagged, b: Tagged, negate_b: bool = False) -> Tagged:
    if len(a) == 1 and len(b) == 1 and not a[0][0] and not b[0][0]:
        right = -b[0][1] if negate_b else b[0][1]
        return ((NO_TAGS, a[0][1] + right),)
    return _merge((ta | tb, da + (-db if negate_b else db)) for ta, da in a for tb, db in b)


def _map(groups: Tagged, fn: Callable[[Dist], Dist]) -> Tagged:
    return tuple((tags, fn(d)) for tags, d in groups)


@lru_cache(maxsize=256)
def chain(sides: int, rerolls: int, stop: bool) -> Dist:
    """One open-ended die: the top face adds another roll, up to ``rerolls`` more rolls.

    Closed form: ``j`` top faces then a face ``f`` below the top has weight ``sides**(rerolls-j)``
    over ``sides**(rerolls+1)``. The last allowed die counts its face (``stop``) or, showing the
    top face, is the mass left out.
    """
    total = sides ** (rerolls + 1)
    w = [0] * (sides * (rerolls + 1))
    for j in range(rerolls + 1):
        w[j * sides : j * sides + sides - 1] = [sides ** (rerolls - j)] * (sides - 1)
    if stop:
        w[-1] = 1
    return Dist(1, w, total)


def _cp2020_die(sides: int, rerolls: int, stop: bool) -> Tagged:
    """CP2020 ``d10x``: 2..9 count; 10 adds a chain; a 1 is replaced by minus a chain."""
    inner = chain(sides, rerolls - 1, stop)
    total = sides * inner.total
    # values 2 .. sides + inner.hi; faces 2..sides-1 carry one face's share, sides+v the chain.
    weights = inner.weight_list()
    w = [inner.total] * (sides - 2) + [0] * inner.lo + weights
    natural_one = Dist(-inner.hi, weights[::-1], total)
    return ((NO_TAGS, Dist(2, w, total)), (frozenset({NATURAL_ONE}), natural_one))


def _plus_minus(sides: int, rerolls: int, stop: bool) -> Tagged:
    """Dragon Warriors plus-minus: open-ended plus die minus open-ended minus die."""
    one = chain(sides, rerolls, stop)
    whole = one - one
    inner = chain(sides, rerolls - 1, stop)
    double = inner - inner  # both first faces were the top face: the two tops cancel
    rest = whole.weight_list()
    cut = double.weight_list()
    offset = double.lo - whole.lo
    rest[offset : offset + len(cut)] = map(operator.sub, rest[offset : offset + len(cut)], cut)
    tag = frozenset({DOUBLE_SIX}) if sides == 6 else frozenset({f"double {sides}"})
    return (
        (NO_TAGS, Dist(whole.lo, rest, whole.total)),
        (tag, Dist(double.lo, cut, whole.total)),
    )


def _untagged(node: Node) -> Dist | None:
    """Constants and plain or keep/drop dice, which carry no tags; None for any other node."""
    if isinstance(node, Const):
        return Dist.constant(node.value)
    if isinstance(node, Dice):
        if node.keep is None:
            return Dist.uniform(1, node.sides).repeat(node.count)
        check_keep(node)  # the refusal firefight dist gives, before any work
        high = node.keep in ("kh", "dl")
        return keep_sum(node.count, node.sides, high, node.kept_count)
    return None


def _not_exact(node: Node) -> NoReturn:
    """Refuse a node with no exact integer distribution (sorted dice are tuples of faces)."""
    if isinstance(node, Sorted):
        raise DiceError(f"{node} is a tuple of faces", tip="use exact_sorted() for sorted dice")
    raise DiceError(f"cannot compute {node!r} exactly")


def _tagged(node: Node, depth: Depth) -> Tagged:
    single = _untagged(node)
    if single is not None:
        return ((NO_TAGS, single),)
    if isinstance(node, Exploding):
        die = _cp2020_die(node.sides, depth.for_die(node.sides, node.count), depth.stop)
        out = die
        for _ in range(node.count - 1):
            out = _combine(out, die)
        return out
    if isinstance(node, PlusMinus):
        pm = _plus_minus(node.sides, depth.for_die(node.sides, 2 * node.count), depth.stop)
        out = pm
        for _ in range(node.count - 1):
            out = _combine(out, pm)
        return out
    if isinstance(node, Add):
        return _combine(tagged(node.left, depth), tagged(node.right, depth))
    if isinstance(node, Sub):
        return _combine(tagged(node.left, depth), tagged(node.right, depth), negate_b=True)
    if isinstance(node, Neg):
        return _map(tagged(node.operand, depth), lambda d: -d)
    if isinstance(node, Mul):
        return _merge(_map(tagged(node.operand, depth), lambda d: d.times(node.factor)))
    if isinstance(node, Abs):
        return _merge(_map(tagged(node.operand, depth), lambda d: d.abs()))
    _not_exact(node)


@lru_cache(maxsize=1024)
def tagged(node: Node, depth: Depth = AUTO) -> Tagged:
    """The exact ``(tags, Dist)`` groups of a syntax tree (memoised)."""
    return _tagged(node, depth)


@lru_cache(maxsize=256)
def _cp2020_plain(sides: int, rerolls: int, stop: bool) -> Dist:
    (_, counted), (_, natural_one) = _cp2020_die(sides, rerolls, stop)
    return Dist.mix([(1, counted), (1, natural_one)], 1)


def _plain(node: Node, depth: Depth) -> Dist:
    if isinstance(node, Exploding):
        k = depth.for_die(node.sides, node.count)
        return _cp2020_plain(node.sides, k, depth.stop).repeat(node.count)
    if isinstance(node, PlusMinus):
        one = chain(node.sides, depth.for_die(node.sides, 2 * node.count), depth.stop)
        return (one - one).repeat(node.count)
    if isinstance(node, Add):
        return plain(node.left, depth) + plain(node.right, depth)
    if isinstance(node, Sub):
        return plain(node.left, depth) - plain(node.right, depth)
    if isinstance(node, Neg):
        return -plain(node.operand, depth)
    if isinstance(node, Mul):
        return plain(node.operand, depth).times(node.factor)
    if isinstance(node, Abs):
        return plain(node.operand, depth).abs()
    single = _untagged(node)
    if single is None:
        _not_exact(node)
    return single


@lru_cache(maxsize=1024)
def plain(node: Node, depth: Depth = AUTO) -> Dist:
    """The exact distribution of a syntax tree with tags left out (memoised; no tag products)."""
    return _plain(node, depth)


def exact_tagged(expr: str | Node, *, depth: int | None = None, stop: bool = False) -> Tagged:
    """The exact distribution split by tags: ``((tags, Dist), ...)`` over one denominator."""
    node = as_node(expr)
    return tagged(node, resolve_depth(node, _depth(depth, stop)))


def exact(expr: str | Node, *, depth: int | None = None, stop: bool = False) -> Dist:
    """The exact distribution of an integer dice expression (tags merged)."""
    if isinstance(expr, str):
        return _exact_text(expr, depth, stop)
    return plain(expr, resolve_depth(expr, _depth(depth, stop)))


@lru_cache(maxsize=1024)
def _exact_text(expr: str, depth: int | None, stop: bool) -> Dist:
    """``exact`` of notation text: a repeated question is one dictionary lookup."""
    node = as_node(expr)
    return plain(node, resolve_depth(node, _depth(depth, stop)))


def _depth(depth: int | None, stop: bool) -> Depth:
    """``Depth(depth, stop)``; the default is the one ``AUTO`` (no frozen dataclass to build)."""
    return AUTO if depth is None and not stop else Depth(depth, stop)


def clear_caches() -> None:
    """Forget every memoised distribution (for cold-start benchmarks and tests)."""
    for fn in (_exact_text, tagged, plain, chain, _cp2020_plain, _sorted_weights):
        fn.cache_clear()


@lru_cache(maxsize=256)
def _sorted_weights(count: int, sides: int) -> Weighted[tuple[int, ...]]:
    n_tuples = math.comb(count + sides - 1, count)
    if n_tuples > SORTED_BUDGET:
        raise DiceError(
            f"sort({count}d{sides}) has {n_tuples} distinct outcomes",
            tip=f"exact sorted dice allow at most {SORTED_BUDGET}",
        )
    fact = math.factorial(count)
    out: dict[tuple[int, ...], int] = {}
    for combo in combinations_with_replacement(range(sides, 0, -1), count):
        w = fact
        for face in set(combo):
            w //= math.factorial(combo.count(face))
        out[combo] = w
    return Weighted(out, sides**count)


def exact_sorted(expr: str | Node) -> Weighted[tuple[int, ...]]:
    """The exact distribution of ``sort(NdX)``: descending face tuples with their weights."""
    node = as_node(expr)
    if not isinstance(node, Sorted):
        raise DiceError(f"{node} is not a sorted-dice expression", tip="write sort(3d10)")
    return _sorted_weights(node.count, node.sides)
