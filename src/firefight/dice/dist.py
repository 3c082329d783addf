"""Exact distributions as immutable values with integer weights.

:class:`Dist` is the integer-valued workhorse: a dense weight array over ``lo .. lo+len-1`` and a
``total`` denominator. Probabilities are ``weight / total`` as exact :class:`~fractions.Fraction`.
``sum(weights) < total`` means some mass was left out on purpose (an open-ended explosion cut at a
stated depth); :attr:`Dist.truncated_mass` reports it and every query is over the kept mass only
(``cdf`` and friends never pretend the missing mass is somewhere).

Weights are numpy ``int64`` while ``total`` fits; past that they switch to exact Python integers
(``dtype=object``) so nothing ever overflows silently. Every operation works on whole arrays:
convolution (numpy on ``int64``, FLINT's ``fmpz_poly`` on big integers), cumulative sums for
``cdf`` / ``at_least`` / ``quantile``, and an exact dot product for comparisons of two independent
distributions: no Python loop over outcomes. Small dice answer in microseconds; big pools (past
int64) cost what their big-integer arithmetic costs (``docs/performance.md`` has figures).

:class:`Weighted` holds any hashable outcomes (sorted dice tuples, rule outcomes) with the same
integer-weight contract.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from functools import reduce
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from firefight.errors import DiceError

#: Totals at or above this switch the weights to exact Python integers.
INT64_SAFE = 2**62
_INT64_MAX = 2**63 - 1
T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

WeightArray = npt.NDArray[Any]
Number = int | np.integer[Any]

_COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")


def _int_array(values: Sequence[int]) -> WeightArray:
    """Integers as ``int64`` when they fit, else as exact Python integers."""
    try:
        return np.array(values, dtype=np.int64)
    except OverflowError:
        return np.array([int(v) for v in values], dtype=object)


def _exact_sum(arr: WeightArray) -> int:
    if arr.dtype == object or (len(arr) and int(arr.max()) > _INT64_MAX // len(arr)):
        return sum(arr.tolist())
    return int(arr.sum())


#: Most values one exact distribution may span (keeps memory and time bounded).
MAX_SPAN = 2_000_000
#: Most multiply-adds one int64 convolution may take (about a tenth of a second).
MAX_CONVOLVE_WORK = 200_000_000
_TOO_LARGE_TIP = "roll or sample it instead, or use fewer dice / sides"


def _check_span(span: int) -> None:
    if span > MAX_SPAN:
        raise DiceError(
            f"an exact distribution over {span} values is too large (at most {MAX_SPAN})",
            tip=_TOO_LARGE_TIP,
        )


def _convolve(a: WeightArray, b: WeightArray, big: bool) -> WeightArray:
    """Exact polynomial product of two non-negative weight arrays: numpy while the product fits
    int64, FLINT past that."""
    _check_span(len(a) + len(b) - 1)
    if not big:
        if len(a) * len(b) > MAX_CONVOLVE_WORK:
            raise DiceError("this exact distribution takes too long to compute", tip=_TOO_LARGE_TIP)
        return np.convolve(a.astype(np.int64, copy=False), b.astype(np.int64, copy=False))
    from firefight.dice import bigpoly

    return bigpoly.multiply(a, b, _TOO_LARGE_TIP)


def _dot(a: WeightArray, b: WeightArray) -> int:
    """Exact ``sum(a[i] * b[i])`` for non-negative integer arrays (no int64 overflow)."""
    if len(a) == 0:
        return 0
    if a.dtype != object and b.dtype != object:
        amax, bmax = int(a.max()), int(b.max())
        if amax * bmax * len(a) <= _INT64_MAX:
            return int(np.dot(a, b))
    return sum(map(operator.mul, a.tolist(), b.tolist()))


class Dist:
    """An exact distribution over integers: dense integer weights and a denominator."""

    __slots__ = ("_big", "_cum", "_kept", "_lo", "_total", "_w")

    def __init__(self, lo: int, weights: Iterable[int] | WeightArray, total: int | None = None):
        arr = weights if isinstance(weights, np.ndarray) else _int_array(list(weights))
        if arr.ndim != 1:
            raise DiceError("distribution weights must be one-dimensional")
        nz = np.flatnonzero(arr)
        if len(nz) == 0:
            raise DiceError("a distribution needs some weight")
        start, end = int(nz[0]), int(nz[-1]) + 1
        arr = arr[start:end]
        kept = _exact_sum(arr)
        if total is None:
            total = kept
        total = int(total)
        if kept > total or (arr < 0).any():
            raise DiceError("distribution weights must be non-negative and sum to at most total")
        self._big = total >= INT64_SAFE
        # Equal distributions get one shape: zero weights trimmed at both ends.
        self._lo = int(lo) + start
        if self._big:
            # astype(object) turns int64 into Python ints; an object array is copied as it is.
            self._w = arr.astype(object, copy=True)
        else:
            self._w = arr.astype(np.int64, copy=True)
        self._w.setflags(write=False)
        self._total = total
        self._kept = kept
        self._cum: WeightArray | None = None

    @classmethod
    def _raw(cls, lo: int, w: WeightArray, total: int, kept: int) -> Dist:
        """Trusted fast path for the arithmetic below: ``w`` is trimmed, non-negative, of the
        right dtype for ``total``, and never written to again (a fresh array or a view of one)."""
        self = object.__new__(cls)
        self._big = total >= INT64_SAFE
        self._lo = lo
        if w.flags.writeable:
            w.setflags(write=False)
        self._w = w
        self._total = total
        self._kept = kept
        self._cum = None
        return self

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def constant(cls, value: int) -> Dist:
        """Certainty: ``value`` with probability 1 (a modifier in an expression)."""
        return cls._raw(int(value), np.ones(1, dtype=np.int64), 1, 1)

    @classmethod
    def uniform(cls, lo: int, hi: int) -> Dist:
        """Every integer from ``lo`` to ``hi`` equally likely: one die."""
        if hi < lo:
            raise DiceError(f"no integers from {lo} to {hi}")
        n = hi - lo + 1
        if n >= INT64_SAFE:  # pragma: no cover - far past any die firefight allows
            raise DiceError(f"a die with {n} faces is too large")
        return cls._raw(int(lo), np.ones(n, dtype=np.int64), n, n)

    @classmethod
    def from_mapping(cls, weights: Mapping[int, int], total: int | None = None) -> Dist:
        """From ``{value: weight}``; ``total`` above the weights' sum leaves mass out."""
        if not weights:
            raise DiceError("a distribution needs at least one outcome")
        keys = [int(k) for k in weights]
        lo, hi = min(keys), max(keys)
        _check_span(hi - lo + 1)
        ws = _int_array([int(w) for w in weights.values()])
        dense = np.zeros(hi - lo + 1, dtype=ws.dtype)
        dense[np.array(keys, dtype=np.int64) - lo] = ws
        return cls(lo, dense, total)

    # -- basic facts ------------------------------------------------------------------------
    @property
    def lo(self) -> int:
        """The smallest value with weight."""
        return self._lo

    @property
    def hi(self) -> int:
        """The largest value with weight."""
        return self._lo + len(self._w) - 1

    @property
    def total(self) -> int:
        """The denominator: every probability is a weight over it."""
        return self._total

    @property
    def weights(self) -> WeightArray:
        """Read-only weights for ``lo .. hi``."""
        return self._w

    @property
    def support(self) -> npt.NDArray[np.int64]:
        """The values ``lo .. hi`` as an array aligned with :attr:`weights`."""
        return np.arange(self._lo, self.hi + 1, dtype=np.int64)

    @property
    def kept(self) -> int:
        """The weight the values carry (below :attr:`total` when a depth limit cut mass)."""
        return self._kept

    @property
    def truncated_mass(self) -> Fraction:
        """Probability mass left out by an explosion depth limit (0 for ordinary dice)."""
        return Fraction(self._total - self._kept, self._total)

    def items(self) -> Iterator[tuple[int, int]]:
        """``(value, weight)`` for every value with non-zero weight, ascending."""
        nz = np.flatnonzero(self._w)
        return zip((nz + self._lo).tolist(), [int(w) for w in self._w[nz].tolist()], strict=True)

    def values(self) -> list[int]:
        """The values with non-zero weight, ascending."""
        return [int(v) for v in (np.flatnonzero(self._w) + self._lo).tolist()]

    def __len__(self) -> int:
        return int(np.count_nonzero(self._w))

    def p(self, value: int) -> Fraction:
        """P(X = value)."""
        i = value - self._lo
        if 0 <= i < len(self._w):
            return Fraction(int(self._w[i]), self._total)
        return Fraction(0)

    def probabilities(self) -> list[tuple[int, Fraction]]:
        """``(value, P(X = value))`` for every value with weight, ascending."""
        return [(v, Fraction(w, self._total)) for v, w in self.items()]

    # -- summaries (over the kept mass) -----------------------------------------------------
    def _moments(self) -> tuple[int, int]:
        """Exact ``sum(u*w)`` and ``sum(u*u*w)`` with ``u = value - lo`` (non-negative)."""
        u = np.arange(len(self._w), dtype=np.int64)
        if self._big:
            u = u.astype(object)
        return _dot(u, self._w), _dot(u * u, self._w)

    @property
    def mean(self) -> Fraction:
        """The exact mean over the kept mass."""
        s1, _ = self._moments()
        return self._lo + Fraction(s1, self._kept)

    @property
    def variance(self) -> Fraction:
        """The exact variance over the kept mass."""
        s1, s2 = self._moments()
        k = self._kept
        return Fraction(s2 * k - s1 * s1, k * k)

    def _cumulative(self) -> WeightArray:
        """``c[i]`` = weight of values below ``lo + i`` (length ``len + 1``, starts at 0)."""
        if self._cum is None:
            cum = np.zeros(len(self._w) + 1, dtype=self._w.dtype)
            cum[0] = 0
            np.cumsum(self._w, out=cum[1:])
            cum.setflags(write=False)
            self._cum = cum
        return self._cum

    def _weight_at_most(self, values: npt.NDArray[np.int64]) -> WeightArray:
        """Kept weight of ``X <= v`` for each ``v`` (vectorised)."""
        idx = np.minimum(np.maximum(values - (self._lo - 1), 0), len(self._w))
        return self._cumulative()[idx]

    def cdf(self, value: int) -> Fraction:
        """P(X <= value) among kept outcomes, as a share of the whole (truncated mass excluded)."""
        i = min(max(value - self._lo + 1, 0), len(self._w))
        return Fraction(int(self._cumulative()[i]), self._total)

    def at_least(self, value: int) -> Fraction:
        """P(X >= value): the "X or more" column of a table."""
        i = min(max(value - self._lo, 0), len(self._w))
        return Fraction(self._kept - int(self._cumulative()[i]), self._total)

    def at_most(self, value: int) -> Fraction:
        """P(X <= value): the "X or less" column of a table (same as :meth:`cdf`)."""
        return self.cdf(value)

    def cdf_array(self, values: npt.ArrayLike) -> WeightArray:
        """Numerators of ``P(X <= v)`` over :attr:`total` for an array of ``v`` (one call)."""
        return self._weight_at_most(np.asarray(values, dtype=np.int64))

    def at_least_array(self, values: npt.ArrayLike) -> WeightArray:
        """Numerators of ``P(X >= v)`` over :attr:`total` for an array of ``v`` (one call)."""
        return self._kept - self._weight_at_most(np.asarray(values, dtype=np.int64) - 1)

    def quantile(self, q: Fraction | float) -> int:
        """Smallest value v with P(X <= v) >= q (over the kept mass)."""
        q = Fraction(q)
        if not 0 <= q <= 1:
            raise DiceError(f"quantile {q} is outside 0..1")
        need = -((-q.numerator * self._kept) // q.denominator)  # ceil(q * kept)
        i = int(np.searchsorted(self._cumulative()[1:], need, side="left"))
        return self._lo + min(i, len(self._w) - 1)

    # -- arithmetic: every operation returns a new value ------------------------------------
    def __add__(self, other: Dist | Number) -> Dist:
        if isinstance(other, (int, np.integer)):
            return Dist._raw(self._lo + int(other), self._w, self._total, self._kept)
        if not isinstance(other, Dist):
            return NotImplemented
        total = self._total * other._total
        w = _convolve(self._w, other._w, total >= INT64_SAFE)
        # trimmed ends multiply to non-zero ends: the product is trimmed too
        return Dist._raw(self._lo + other._lo, w, total, self._kept * other._kept)

    __radd__ = __add__

    def __neg__(self) -> Dist:
        return Dist._raw(-self.hi, self._w[::-1], self._total, self._kept)

    def __sub__(self, other: Dist | Number) -> Dist:
        if isinstance(other, Dist):  # convolve with the reversed weights: no negated copy
            total = self._total * other._total
            w = _convolve(self._w, other._w[::-1], total >= INT64_SAFE)
            return Dist._raw(self._lo - other.hi, w, total, self._kept * other._kept)
        return self + (-other)

    def __rsub__(self, other: Number) -> Dist:
        return (-self) + other

    def times(self, factor: int) -> Dist:
        """Multiply every outcome by a constant."""
        factor = int(factor)
        if factor == 0:
            return Dist(0, [self._kept], self._total)
        if factor < 0:
            return (-self).times(-factor)
        if factor == 1:
            return self
        _check_span((len(self._w) - 1) * factor + 1)
        out = np.zeros((len(self._w) - 1) * factor + 1, dtype=self._w.dtype)
        out[::factor] = self._w
        return Dist._raw(self._lo * factor, out, self._total, self._kept)

    def repeat(self, count: int) -> Dist:
        """Sum of ``count`` independent copies (binary powering; FLINT's power past int64)."""
        if count < 1:
            raise DiceError("repeat needs a count of at least 1")
        total = self._total**count
        span = (len(self._w) - 1) * count + 1
        if count > 1 and total >= INT64_SAFE and span > 512:  # big pools: one FLINT power
            from firefight.dice import bigpoly

            _check_span(span)
            w = bigpoly.power(self._w, count, total, _TOO_LARGE_TIP)
            return Dist._raw(self._lo * count, w, total, self._kept**count)
        base, n = self, count
        while not n & 1:  # count >= 1: the lowest set bit starts the sum
            base, n = base + base, n >> 1
        result, n = base, n >> 1
        while n:
            base = base + base
            if n & 1:
                result = result + base
            n >>= 1
        return result

    def map(self, fn: Callable[[int], int]) -> Dist:
        """The distribution of ``fn(X)``: values that map together add their weights."""
        out: dict[int, int] = {}
        for v, w in self.items():
            k = fn(v)
            out[k] = out.get(k, 0) + w
        return Dist.from_mapping(out, self._total)

    def abs(self) -> Dist:
        """The distribution of ``|X|`` (``abs(2d20-2d20)``: the warfare2d20 delta)."""
        if self._lo >= 0:
            return self
        if self.hi <= 0:
            return -self
        lo, w = self._lo, self._w
        out = np.zeros(max(-lo, self.hi) + 1, dtype=w.dtype)
        out[: self.hi + 1] += w[-lo:]  # values 0..hi
        out[1 : -lo + 1] += w[:-lo][::-1]  # values lo..-1 fold onto 1..-lo
        return Dist._raw(0, out, self._total, self._kept)

    def scaled(self, factor: int) -> Dist:
        """Same probabilities, weights and total multiplied by ``factor`` (for mixing)."""
        total = self._total * factor
        w = self._w.astype(object) if total >= INT64_SAFE else self._w
        return Dist(self._lo, w * factor, total)

    @staticmethod
    def mix(parts: Iterable[tuple[int, Dist]], total: int) -> Dist:
        """Mixture: each ``(weight, dist)`` contributes ``weight / total`` of its distribution.

        The result's denominator is ``total * lcm(dist totals)``, so mass a part left out stays
        left out.
        """
        parts = list(parts)
        if not parts:
            raise DiceError("a mixture needs at least one part")
        common = reduce(math.lcm, (d.total for _, d in parts), 1)
        lo = min(d.lo for _, d in parts)
        hi = max(d.hi for _, d in parts)
        big = total * common >= INT64_SAFE
        _check_span(hi - lo + 1)
        out = np.zeros(hi - lo + 1, dtype=object if big else np.int64)
        for weight, d in parts:
            k = weight * (common // d.total)
            w = d.weights.astype(object) if big else d.weights
            out[d.lo - lo : d.hi - lo + 1] += w * k
        return Dist(lo, out, total * common)

    # -- comparisons between independent distributions -------------------------------------
    def p_compare(self, op: str, other: Dist | Number) -> Fraction:
        """P(X op Y) for independent X (self) and Y; op in ``< <= > >= == !=``.

        Computed as one exact dot product of X's weights with Y's cumulative weights (no
        convolution), so it stays cheap even when the joint denominator is a big integer.
        """
        if op not in _COMPARISONS:
            raise DiceError(f"unknown comparison {op!r}", tip="use one of < <= > >= == !=")
        if isinstance(other, (int, np.integer)):
            other = Dist.constant(int(other))
        if not isinstance(other, Dist):
            raise DiceError(f"cannot compare a distribution with {other!r}")
        x = self.support
        if op in ("==", "!="):
            idx = x - other._lo
            ok = (idx >= 0) & (idx < len(other._w))
            same = np.zeros(len(x), dtype=other._w.dtype)
            same[ok] = other._w[idx[ok]]
            g = same if op == "==" else other._kept - same
        elif op == ">=":  # Y <= x
            g = other._weight_at_most(x)
        elif op == ">":  # Y <= x - 1
            g = other._weight_at_most(x - 1)
        elif op == "<":  # Y > x
            g = other._kept - other._weight_at_most(x)
        else:  # "<=": Y >= x
            g = other._kept - other._weight_at_most(x - 1)
        return Fraction(_dot(self._w, g), self._total * other._total)

    # -- identity ---------------------------------------------------------------------------
    def normalized(self) -> tuple[int, tuple[int, ...], int]:
        """Canonical form: weights and total divided by their common gcd."""
        ws = [int(x) for x in self._w.tolist()]
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
        """The denominator: every probability is a weight over it."""
        return self._total

    @property
    def kept(self) -> int:
        """The weight the outcomes carry (below :attr:`total` when a limit cut mass)."""
        return sum(self._w.values())

    @property
    def truncated_mass(self) -> Fraction:
        """Probability mass left out by a depth or path limit (0 when none)."""
        return Fraction(self._total - self.kept, self._total)

    def items(self) -> Iterator[tuple[T, int]]:
        """``(outcome, weight)`` pairs, in the order the weights were given."""
        return iter(self._w.items())

    def outcomes(self) -> list[T]:
        """The outcomes with weight, in the order the weights were given."""
        return list(self._w)

    def p(self, outcome: T) -> Fraction:
        """P(outcome), 0 for an outcome never reached."""
        return Fraction(self._w.get(outcome, 0), self._total)

    def probability(self, predicate: Callable[[T], bool]) -> Fraction:
        """P(predicate(outcome))."""
        return Fraction(sum(w for k, w in self._w.items() if predicate(k)), self._total)

    def probabilities(self) -> dict[T, Fraction]:
        """``{outcome: P(outcome)}`` for every outcome with weight."""
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
