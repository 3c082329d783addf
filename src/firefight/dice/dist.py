"""Exact distributions as immutable values with integer weights.

:class:`Dist` is the integer-valued workhorse: a dense weight array over ``lo .. lo+len-1`` and a
``total`` denominator. Probabilities are ``weight / total`` as exact :class:`~fractions.Fraction`.
``sum(weights) < total`` means some mass was left out on purpose (an open-ended explosion cut at a
stated depth); :attr:`Dist.truncated_mass` reports it and every query is over the kept mass only
(``cdf`` and friends never pretend the missing mass is somewhere).

Weights are numpy ``int64`` while ``total`` fits; past that they switch to exact Python integers
(``dtype=object``) so nothing ever overflows silently.

:class:`Weighted` holds any hashable outcomes (sorted dice tuples, rule outcomes) with the same
integer-weight contract.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from functools import reduce
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from firefight.errors import DiceError

_INT64_SAFE = 2**62
T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

WeightArray = npt.NDArray[Any]


def _convolve(a: WeightArray, b: WeightArray, big: bool) -> WeightArray:
    if not big:
        return np.convolve(a.astype(np.int64), b.astype(np.int64))
    out = [0] * (len(a) + len(b) - 1)
    bl = [int(x) for x in b]
    for i, x in enumerate(a):
        xi = int(x)
        if xi:
            for j, y in enumerate(bl):
                out[i + j] += xi * y
    return np.array(out, dtype=object)


class Dist:
    """An exact distribution over integers: dense integer weights and a denominator."""

    __slots__ = ("_big", "_lo", "_total", "_w")

    def __init__(self, lo: int, weights: Iterable[int] | WeightArray, total: int | None = None):
        arr = weights if isinstance(weights, np.ndarray) else np.array(list(weights), dtype=object)
        nz = np.flatnonzero(arr)
        if len(nz) == 0:
            raise DiceError("a distribution needs some weight")
        start, end = int(nz[0]), int(nz[-1]) + 1
        arr = arr[start:end]
        kept = int(sum(int(x) for x in arr)) if arr.dtype == object else int(arr.sum())
        if total is None:
            total = kept
        if kept > total or (arr < 0).any():
            raise DiceError("distribution weights must be non-negative and sum to at most total")
        self._big = total >= _INT64_SAFE
        # Equal distributions get one shape: zero weights trimmed at both ends.
        self._lo = int(lo) + start
        self._w = arr.astype(object if self._big else np.int64, copy=True)
        self._w.setflags(write=False)
        self._total = int(total)

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def constant(cls, value: int) -> Dist:
        return cls(value, [1])

    @classmethod
    def uniform(cls, lo: int, hi: int) -> Dist:
        """Every integer from ``lo`` to ``hi`` equally likely: one die."""
        return cls(lo, [1] * (hi - lo + 1))

    @classmethod
    def from_mapping(cls, weights: Mapping[int, int], total: int | None = None) -> Dist:
        if not weights:
            raise DiceError("a distribution needs at least one outcome")
        lo, hi = min(weights), max(weights)
        dense = [0] * (hi - lo + 1)
        for v, w in weights.items():
            dense[v - lo] += int(w)
        return cls(lo, dense, total)

    # -- basic facts ------------------------------------------------------------------------
    @property
    def lo(self) -> int:
        return self._lo

    @property
    def hi(self) -> int:
        return self._lo + len(self._w) - 1

    @property
    def total(self) -> int:
        return self._total

    @property
    def weights(self) -> WeightArray:
        """Read-only weights for ``lo .. hi``."""
        return self._w

    @property
    def kept(self) -> int:
        return int(sum(int(x) for x in self._w)) if self._big else int(self._w.sum())

    @property
    def truncated_mass(self) -> Fraction:
        """Probability mass left out by an explosion depth limit (0 for ordinary dice)."""
        return Fraction(self._total - self.kept, self._total)

    def items(self) -> Iterator[tuple[int, int]]:
        """``(value, weight)`` for every value with non-zero weight, ascending."""
        for i, w in enumerate(self._w):
            if w:
                yield self._lo + i, int(w)

    def values(self) -> list[int]:
        return [v for v, _ in self.items()]

    def __len__(self) -> int:
        return sum(1 for _ in self.items())

    def p(self, value: int) -> Fraction:
        """P(X = value)."""
        i = value - self._lo
        if 0 <= i < len(self._w):
            return Fraction(int(self._w[i]), self._total)
        return Fraction(0)

    def probabilities(self) -> list[tuple[int, Fraction]]:
        return [(v, Fraction(w, self._total)) for v, w in self.items()]

    # -- summaries (over the kept mass) -----------------------------------------------------
    def _kept_fraction(self, weight: int) -> Fraction:
        return Fraction(weight, self.kept)

    @property
    def mean(self) -> Fraction:
        return self._kept_fraction(sum(v * w for v, w in self.items()))

    @property
    def variance(self) -> Fraction:
        m = self.mean
        return sum((Fraction(w, self.kept) * (v - m) ** 2 for v, w in self.items()), Fraction(0))

    def cdf(self, value: int) -> Fraction:
        """P(X <= value) among kept outcomes, as a share of the whole (truncated mass excluded)."""
        return Fraction(sum(w for v, w in self.items() if v <= value), self._total)

    def at_least(self, value: int) -> Fraction:
        """P(X >= value): the "X or more" column of a table."""
        return Fraction(sum(w for v, w in self.items() if v >= value), self._total)

    def at_most(self, value: int) -> Fraction:
        return self.cdf(value)

    def quantile(self, q: Fraction | float) -> int:
        """Smallest value v with P(X <= v) >= q (over the kept mass)."""
        q = Fraction(q)
        if not 0 <= q <= 1:
            raise DiceError(f"quantile {q} is outside 0..1")
        need = q * self.kept
        run = 0
        for v, w in self.items():
            run += w
            if run >= need:
                return v
        return self.hi

    # -- arithmetic: every operation returns a new value ------------------------------------
    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, int):
            return Dist(self._lo + other, self._w, self._total)
        big = self._total * other._total >= _INT64_SAFE
        return Dist(
            self._lo + other._lo, _convolve(self._w, other._w, big), self._total * other._total
        )

    __radd__ = __add__

    def __neg__(self) -> Dist:
        return Dist(-self.hi, self._w[::-1], self._total)

    def __sub__(self, other: Dist | int) -> Dist:
        return self + (-other)

    def __rsub__(self, other: int) -> Dist:
        return (-self) + other

    def times(self, factor: int) -> Dist:
        """Multiply every outcome by a constant."""
        if factor == 0:
            return Dist(0, [self.kept], self._total)
        return self.map(lambda v: v * factor)

    def repeat(self, count: int) -> Dist:
        """Sum of ``count`` independent copies (binary powering)."""
        if count < 1:
            raise DiceError("repeat needs a count of at least 1")
        result: Dist | None = None
        base = self
        n = count
        while n:
            if n & 1:
                result = base if result is None else result + base
            n >>= 1
            if n:
                base = base + base
        assert result is not None
        return result

    def map(self, fn: Callable[[int], int]) -> Dist:
        out: dict[int, int] = {}
        for v, w in self.items():
            k = fn(v)
            out[k] = out.get(k, 0) + w
        return Dist.from_mapping(out, self._total)

    def abs(self) -> Dist:
        return self.map(abs)

    def scaled(self, factor: int) -> Dist:
        """Same probabilities, weights and total multiplied by ``factor`` (for mixing)."""
        return Dist(self._lo, [w * factor for w in (int(x) for x in self._w)], self._total * factor)

    @staticmethod
    def mix(parts: Iterable[tuple[int, Dist]], total: int) -> Dist:
        """Mixture: each ``(weight, dist)`` contributes ``weight / total`` of its distribution.

        The result's denominator is ``total * lcm(dist totals)``, so mass a part left out stays
        left out.
        """
        parts = list(parts)
        common = reduce(math.lcm, (d.total for _, d in parts), 1)
        out: dict[int, int] = {}
        for weight, d in parts:
            k = weight * (common // d.total)
            for v, w in d.items():
                out[v] = out.get(v, 0) + w * k
        return Dist.from_mapping(out, total * common)

    # -- comparisons between independent distributions -------------------------------------
    def p_compare(self, op: str, other: Dist | int) -> Fraction:
        """P(X op Y) for independent X (self) and Y; op in ``< <= > >= == !=``."""
        diff = self - other if isinstance(other, Dist) else self - Dist.constant(other)
        tests: dict[str, Callable[[int], bool]] = {
            "<": lambda d: d < 0,
            "<=": lambda d: d <= 0,
            ">": lambda d: d > 0,
            ">=": lambda d: d >= 0,
            "==": lambda d: d == 0,
            "!=": lambda d: d != 0,
        }
        if op not in tests:
            raise DiceError(f"unknown comparison {op!r}", tip="use one of < <= > >= == !=")
        test = tests[op]
        return Fraction(sum(w for v, w in diff.items() if test(v)), diff.total)

    # -- identity ---------------------------------------------------------------------------
    def normalized(self) -> tuple[int, tuple[int, ...], int]:
        """Canonical form: weights and total divided by their common gcd."""
        ws = [int(x) for x in self._w]
        g = reduce(math.gcd, ws, self._total)
        return self._lo, tuple(w // g for w in ws), self._total // g

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return self.normalized() == other.normalized()

    def __hash__(self) -> int:
        return hash(self.normalized())

    def __repr__(self) -> str:
        head = ", ".join(f"{v}: {w}" for v, w in list(self.items())[:6])
        more = ", ..." if len(self) > 6 else ""
        return f"Dist({{{head}{more}}} / {self._total})"


class Weighted(Generic[T]):
    """An exact distribution over any hashable outcomes, with integer weights and a total."""

    __slots__ = ("_total", "_w")

    def __init__(self, weights: Mapping[T, int], total: int | None = None) -> None:
        clean = {k: int(w) for k, w in weights.items() if w}
        kept = sum(clean.values())
        self._total = kept if total is None else int(total)
        if self._total <= 0 or kept > self._total:
            raise DiceError("weights must be positive and sum to at most total")
        self._w = clean

    @classmethod
    def from_fractions(
        cls, probs: Mapping[T, Fraction], missing: Fraction = Fraction(0)
    ) -> Weighted[T]:
        """Integer weights over a common denominator; ``missing`` mass stays out."""
        dens = [p.denominator for p in probs.values()] + [missing.denominator]
        common = reduce(math.lcm, dens, 1)
        return cls({k: int(p * common) for k, p in probs.items()}, common)

    @property
    def total(self) -> int:
        return self._total

    @property
    def kept(self) -> int:
        return sum(self._w.values())

    @property
    def truncated_mass(self) -> Fraction:
        return Fraction(self._total - self.kept, self._total)

    def items(self) -> Iterator[tuple[T, int]]:
        return iter(self._w.items())

    def outcomes(self) -> list[T]:
        return list(self._w)

    def p(self, outcome: T) -> Fraction:
        return Fraction(self._w.get(outcome, 0), self._total)

    def probability(self, predicate: Callable[[T], bool]) -> Fraction:
        """P(predicate(outcome))."""
        return Fraction(sum(w for k, w in self._w.items() if predicate(k)), self._total)

    def probabilities(self) -> dict[T, Fraction]:
        return {k: Fraction(w, self._total) for k, w in self._w.items()}

    def map(self, fn: Callable[[T], U]) -> Weighted[U]:
        """The distribution of ``fn(outcome)``: a marginal."""
        out: dict[U, int] = {}
        for k, w in self._w.items():
            key = fn(k)
            out[key] = out.get(key, 0) + w
        return Weighted(out, self._total)

    def to_dist(self, fn: Callable[[T], int] | None = None) -> Dist:
        """The integer marginal ``fn(outcome)`` as a :class:`Dist` (identity for int outcomes)."""
        out: dict[int, int] = {}
        for k, w in self._w.items():
            key = fn(k) if fn else k
            if not isinstance(key, int):
                raise DiceError(f"outcome {key!r} is not an integer")
            out[key] = out.get(key, 0) + w
        return Dist.from_mapping(out, self._total)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Weighted):
            return NotImplemented
        return self.probabilities() == other.probabilities() and (
            self.truncated_mass == other.truncated_mass
        )

    def __hash__(self) -> int:
        return hash(frozenset(self.probabilities().items()))

    def __len__(self) -> int:
        return len(self._w)

    def __repr__(self) -> str:
        return f"Weighted({len(self._w)} outcomes / {self._total})"
