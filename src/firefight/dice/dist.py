"""Exact distributions as immutable values with integer weights.

:class:`Dist` is the integer-valued workhorse: dense weights over ``lo .. lo+len-1`` and a
``total`` denominator. Probabilities are ``weight / total`` as exact :class:`~fractions.Fraction`.
``sum(weights) < total`` means some mass was left out on purpose (an open-ended explosion cut at a
stated depth); :attr:`Dist.truncated_mass` reports it and every query is over the kept mass only
(``cdf`` and friends never pretend the missing mass is somewhere).

Weights are a plain list of exact Python integers, so nothing ever overflows and a small answer
never imports numpy (its import costs more CPU than a whole small query). The work still runs in C:
sums of dice are one big-integer product or an exact power recurrence (:mod:`firefight.dice.poly`,
FLINT for the biggest products), cumulative sums are :func:`itertools.accumulate`, comparisons of
two independent distributions one dot product over slices. numpy is loaded only when an array is
asked for (:attr:`Dist.weights`, :attr:`Dist.support`, :meth:`Dist.cdf_array`). Small dice answer
in microseconds; big pools cost what their big-integer arithmetic costs (``docs/performance.md``
has figures).

:class:`Weighted` holds any hashable outcomes (sorted dice tuples, rule outcomes) with the same
integer-weight contract.
"""

from __future__ import annotations

import math
import operator
from bisect import bisect_left
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from functools import reduce
from itertools import accumulate, compress, repeat
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from firefight.dice import poly
from firefight.display import Display, Grid, Shown, percent, probability
from firefight.errors import DiceError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    WeightArray = npt.NDArray[Any]
    Number = int | np.integer[Any]

#: Totals at or above this make :attr:`Dist.weights` an object array of Python integers (int64
#: below) and products pack their coefficients in wider slots.
INT64_SAFE = 2**62
T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

_COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")

#: Most values one exact distribution may span (keeps memory and time bounded).
MAX_SPAN = 2_000_000
#: Most multiply-adds one product of distributions below :data:`INT64_SAFE` may take.
MAX_CONVOLVE_WORK = 200_000_000
_TOO_LARGE_TIP = "roll or sample it instead, or use fewer dice / sides"


def _check_span(span: int) -> None:
    if span > MAX_SPAN:
        raise DiceError(
            f"an exact distribution over {span} values is too large (at most {MAX_SPAN})",
            tip=_TOO_LARGE_TIP,
        )


def _convolve(a: list[int], b: list[int], bound: int) -> list[int]:
    """Exact product of two non-negative weight lists; ``bound`` bounds every coefficient."""
    _check_span(len(a) + len(b) - 1)
    if bound < INT64_SAFE and len(a) * len(b) > MAX_CONVOLVE_WORK:
        raise DiceError("this exact distribution takes too long to compute", tip=_TOO_LARGE_TIP)
    return poly.multiply(a, b, bound, _TOO_LARGE_TIP)


def _window(seq: list[int], start: int, n: int, before: int, after: int) -> list[int]:
    """``seq[start + i]`` for ``i`` in ``0 .. n-1``, ``before`` / ``after`` where that index
    falls before / after ``seq`` (slices, no Python loop)."""
    lo, hi = max(start, 0), min(start + n, len(seq))
    if lo >= hi:
        return [before if start + n <= 0 else after] * n
    return [before] * (lo - start) + seq[lo:hi] + [after] * (start + n - hi)


def _dot(a: Iterable[int], b: Iterable[int]) -> int:
    return sum(map(operator.mul, a, b))


def _as_int(value: object) -> int | None:
    """``value`` as an int if it is an integer (Python or numpy), else None."""
    if isinstance(value, int):
        return value
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


class Dist(Shown):
    """An exact distribution over integers: dense integer weights and a denominator (shown as
    a table by rich and in notebooks)."""

    __slots__ = ("_arr", "_cdfs", "_cum", "_fractions", "_kept", "_lo", "_total", "_w")

    def __init__(self, lo: int, weights: Iterable[int] | WeightArray, total: int | None = None):
        raw = weights.tolist() if hasattr(weights, "tolist") else weights
        try:
            ws = list(map(operator.index, raw))
        except TypeError:
            raise DiceError("distribution weights must be one-dimensional integers") from None
        start = next((i for i, w in enumerate(ws) if w), None)
        if start is None:
            raise DiceError("a distribution needs some weight")
        end = len(ws) - next(i for i, w in enumerate(reversed(ws)) if w)
        ws = ws[start:end]
        kept = sum(ws)
        total = kept if total is None else int(total)
        if kept > total or min(ws) < 0:
            raise DiceError("distribution weights must be non-negative and sum to at most total")
        # Equal distributions get one shape: zero weights trimmed at both ends.
        self._lo = int(lo) + start
        self._w = ws
        self._total = total
        self._kept = kept
        self._cum: list[int] | None = None
        self._arr: WeightArray | None = None
        self._fractions: dict[int, Fraction] = {}
        self._cdfs: dict[int, Fraction] = {}

    def grid(
        self,
        title: str = "",
        *,
        exact_column: bool = True,
        names: Mapping[int, str] | None = None,
    ) -> Grid:
        """The distribution as a table: each value's chance (with its exact fraction unless
        ``exact_column`` is False), and the chance of that value or more; a value the text
        names (``names``: quality levels) shows as ``name (value)``."""
        names = names or {}
        columns: tuple[str, ...] = ("value", "probability", "%", "or more %")
        if not exact_column:
            columns = ("value", "%", "or more %")
        rows = tuple(
            (
                f"{names[v]} ({v})" if v in names else str(v),
                *([probability(p)] if exact_column else []),
                percent(p),
                percent(or_more),
            )
            for (v, p), or_more in zip(self.probabilities(), self._or_more(), strict=True)
        )
        caption = "%: this value exactly; or more %: this value or higher"
        return Grid(title, columns, rows, caption, right=tuple(range(len(columns))))

    def _or_more(self) -> list[Fraction]:
        """P(X >= v) for each value with weight, highest value last (one pass, not a search
        per value)."""
        out = []
        left = self._kept
        for w in self._w:
            if w:
                out.append(Fraction(left, self._total))
                left -= w
        return out

    def display(self) -> Display:
        """Its table, mean and spread, and the mass open-ended dice left out."""
        sd = float(self.variance) ** 0.5
        after = [f"mean {float(self.mean):.4f}   sd {sd:.4f}"]
        if self.truncated_mass:
            cut = float(self.truncated_mass)
            after.append(f"open-ended dice cut at a depth: mass left out {cut:.3g}")
        return Display("", (), (self.grid(),), (), tuple(after))

    @classmethod
    def _raw(cls, lo: int, w: list[int], total: int, kept: int) -> Dist:
        """Trusted fast path for the arithmetic below: ``w`` is trimmed, non-negative Python
        integers, and never written to again (values share their lists)."""
        self = object.__new__(cls)
        self._lo = lo
        self._w = w
        self._total = total
        self._kept = kept
        self._cum = None
        self._arr = None
        self._fractions = {}
        self._cdfs = {}
        return self

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def constant(cls, value: int) -> Dist:
        """Certainty: ``value`` with probability 1 (a modifier in an expression)."""
        return cls._raw(int(value), [1], 1, 1)

    @classmethod
    def uniform(cls, lo: int, hi: int) -> Dist:
        """Every integer from ``lo`` to ``hi`` equally likely: one die."""
        if hi < lo:
            raise DiceError(f"no integers from {lo} to {hi}")
        n = hi - lo + 1
        if n >= INT64_SAFE:  # pragma: no cover - far past any die firefight allows
            raise DiceError(f"a die with {n} faces is too large")
        return cls._raw(int(lo), [1] * n, n, n)

    @classmethod
    def from_mapping(cls, weights: Mapping[int, int], total: int | None = None) -> Dist:
        """From ``{value: weight}``; ``total`` above the weights' sum leaves mass out."""
        if not weights:
            raise DiceError("a distribution needs at least one outcome")
        keys = [int(k) for k in weights]
        lo, hi = min(keys), max(keys)
        _check_span(hi - lo + 1)
        dense = [0] * (hi - lo + 1)
        for k, w in zip(keys, weights.values(), strict=True):
            dense[k - lo] = int(w)
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
        """Read-only numpy weights for ``lo .. hi``: ``int64`` while :attr:`total` is below
        :data:`INT64_SAFE`, else Python integers (``dtype=object``). Imports numpy."""
        if self._arr is None:
            import numpy as np

            arr = np.array(self._w, dtype=np.int64 if self._total < INT64_SAFE else object)
            arr.setflags(write=False)
            self._arr = arr
        return self._arr

    def weight_list(self) -> list[int]:
        """The weights for ``lo .. hi`` as a new list of Python integers (no numpy)."""
        return list(self._w)

    @property
    def support(self) -> npt.NDArray[np.int64]:
        """The values ``lo .. hi`` as an array aligned with :attr:`weights` (imports numpy)."""
        import numpy as np

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
        lo = self._lo
        return ((lo + i, w) for i, w in enumerate(self._w) if w)

    def values(self) -> list[int]:
        """The values with non-zero weight, ascending."""
        return list(compress(range(self._lo, self.hi + 1), self._w))

    def __len__(self) -> int:
        return len(self._w) - self._w.count(0)

    def _share(self, weight: int) -> Fraction:
        """``weight / total``, memoised: a Fraction costs a gcd, and the cumulative weights
        of ``cdf`` and ``at_least`` repeat across values outside the support."""
        share = self._fractions.get(weight)
        if share is None:
            share = self._fractions[weight] = Fraction(weight, self._total)
        return share

    def p(self, value: int) -> Fraction:
        """P(X = value)."""
        i = value - self._lo
        return self._share(self._w[i] if 0 <= i < len(self._w) else 0)

    def probabilities(self) -> list[tuple[int, Fraction]]:
        """``(value, P(X = value))`` for every value with weight, ascending. Equal weights share
        one Fraction (a sum of dice is symmetric: half the gcds of ``200d20``); the pairs are
        built by C iterators, so a fresh query's Python work is the Fractions themselves."""
        ws = self._w
        distinct = set(ws)
        shares = dict(zip(distinct, map(Fraction, distinct, repeat(self._total)), strict=True))
        pairs = zip(range(self._lo, self._lo + len(ws)), map(shares.__getitem__, ws), strict=True)
        return list(compress(pairs, ws))  # values of weight 0 left out

    # -- summaries (over the kept mass) -----------------------------------------------------
    def _moments(self) -> tuple[int, int]:
        """Exact ``sum(u*w)`` and ``sum(u*u*w)`` with ``u = value - lo`` (non-negative)."""
        uw = list(map(operator.mul, range(len(self._w)), self._w))
        return sum(uw), _dot(uw, range(len(self._w)))

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

    def _cumulative(self) -> list[int]:
        """``c[i]`` = weight of values below ``lo + i`` (length ``len + 1``, starts at 0)."""
        if self._cum is None:
            self._cum = list(accumulate(self._w, initial=0))
        return self._cum

    def _at_most(self, value: int) -> int:
        """Kept weight of ``X <= value``."""
        cum = self._cum if self._cum is not None else self._cumulative()
        i = value - self._lo + 1
        return cum[0 if i < 0 else i if i < len(cum) else -1]

    def cdf(self, value: int) -> Fraction:
        """P(X <= value) among kept outcomes, as a share of the whole (truncated mass excluded).

        Memoised by value (at most one entry per value from ``lo - 1`` to ``hi``): a table asks
        each threshold many times (121 cells of a 2d20 delta ask 21)."""
        share = self._cdfs.get(value)
        if share is None:  # _share(_at_most(value)) written out: a fresh table pays no frames
            cum = self._cum if self._cum is not None else self._cumulative()
            i = value - self._lo + 1
            weight = cum[0 if i < 0 else i if i < len(cum) else -1]
            share = self._fractions.get(weight)
            if share is None:
                share = self._fractions[weight] = Fraction(weight, self._total)
            if 0 <= i < len(cum):
                self._cdfs[value] = share
        return share

    def at_least(self, value: int) -> Fraction:
        """P(X >= value): the "X or more" column of a table."""
        return self._share(self._kept - self._at_most(value - 1))

    def at_most(self, value: int) -> Fraction:
        """P(X <= value): the "X or less" column of a table (same as :meth:`cdf`)."""
        return self.cdf(value)

    def cdf_array(self, values: npt.ArrayLike) -> WeightArray:
        """Numerators of ``P(X <= v)`` over :attr:`total` for an array of ``v`` (imports numpy)."""
        import numpy as np

        cum = np.array(self._cumulative(), dtype=self.weights.dtype)
        v = np.asarray(values, dtype=np.int64)
        return cum[np.minimum(np.maximum(v - (self._lo - 1), 0), len(self._w))]

    def at_least_array(self, values: npt.ArrayLike) -> WeightArray:
        """Numerators of ``P(X >= v)`` over :attr:`total` for an array of ``v`` (imports numpy)."""
        import numpy as np

        return self._kept - self.cdf_array(np.asarray(values, dtype=np.int64) - 1)

    def quantile(self, q: Fraction | float) -> int:
        """Smallest value v with P(X <= v) >= q (over the kept mass)."""
        q = Fraction(q)
        if not 0 <= q <= 1:
            raise DiceError(f"quantile {q} is outside 0..1")
        need = -((-q.numerator * self._kept) // q.denominator)  # ceil(q * kept)
        i = bisect_left(self._cumulative(), need, 1) - 1
        return self._lo + min(i, len(self._w) - 1)

    # -- arithmetic: every operation returns a new value ------------------------------------
    def __add__(self, other: Dist | Number) -> Dist:
        if not isinstance(other, Dist):
            shift = _as_int(other)
            if shift is None:
                return NotImplemented
            return Dist._raw(self._lo + shift, self._w, self._total, self._kept)
        kept = self._kept * other._kept
        w = _convolve(self._w, other._w, kept)
        # trimmed ends multiply to non-zero ends: the product is trimmed too
        return Dist._raw(self._lo + other._lo, w, self._total * other._total, kept)

    __radd__ = __add__

    def __neg__(self) -> Dist:
        return Dist._raw(-self.hi, self._w[::-1], self._total, self._kept)

    def __sub__(self, other: Dist | Number) -> Dist:
        if isinstance(other, Dist):  # the product with the reversed weights
            kept = self._kept * other._kept
            w = _convolve(self._w, other._w[::-1], kept)
            return Dist._raw(self._lo - other.hi, w, self._total * other._total, kept)
        shift = _as_int(other)
        if shift is None:
            return NotImplemented
        return self + (-shift)

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
        out = [0] * ((len(self._w) - 1) * factor + 1)
        out[::factor] = self._w
        return Dist._raw(self._lo * factor, out, self._total, self._kept)

    def repeat(self, count: int) -> Dist:
        """Sum of ``count`` independent copies: one exact power (see :mod:`firefight.dice.poly`)."""
        if count < 1:
            raise DiceError("repeat needs a count of at least 1")
        if count == 1:
            return self
        span = (len(self._w) - 1) * count + 1
        _check_span(span)
        kept = self._kept**count
        # the limit of the products binary powering would take (its last one is half by half)
        if kept < INT64_SAFE and (span // 2) ** 2 > MAX_CONVOLVE_WORK:
            raise DiceError("this exact distribution takes too long to compute", tip=_TOO_LARGE_TIP)
        w = poly.power(self._w, count, kept, _TOO_LARGE_TIP)
        return Dist._raw(self._lo * count, w, self._total**count, kept)

    def map(self, fn: Callable[[int], int]) -> Dist:
        """The distribution of ``fn(X)``: values that map together add their weights."""
        out: dict[int, int] = {}
        for v, w in self.items():
            k = fn(v)
            out[k] = out.get(k, 0) + w
        return Dist.from_mapping(out, self._total)

    def abs(self) -> Dist:
        """The distribution of ``|X|`` (``abs(2d20-2d20)``: the warfare2d20 delta)."""
        lo, hi, w = self._lo, self.hi, self._w
        if lo >= 0:
            return self
        if hi <= 0:
            return -self
        out = [0] * (max(-lo, hi) + 1)
        out[: hi + 1] = w[-lo:]  # values 0..hi
        folded = w[-lo - 1 :: -1]  # values -1, -2, .., lo fold onto 1..-lo
        out[1 : len(folded) + 1] = map(operator.add, out[1 : len(folded) + 1], folded)
        return Dist._raw(0, out, self._total, self._kept)

    def scaled(self, factor: int) -> Dist:
        """Same probabilities, weights and total multiplied by ``factor`` (for mixing)."""
        return Dist(self._lo, [w * factor for w in self._w], self._total * factor)

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
        _check_span(hi - lo + 1)
        out = [0] * (hi - lo + 1)
        for weight, d in parts:
            k = weight * (common // d.total)
            a, b = d.lo - lo, d.hi - lo + 1
            out[a:b] = map(operator.add, out[a:b], [w * k for w in d._w])
        return Dist(lo, out, total * common)

    # -- comparisons between independent distributions -------------------------------------
    def p_compare(self, op: str, other: Dist | Number) -> Fraction:
        """P(X op Y) for independent X (self) and Y; op in ``< <= > >= == !=``.

        Computed as one exact dot product of X's weights with Y's cumulative weights (no
        convolution), so it stays cheap even when the joint denominator is a big integer.
        """
        if op not in _COMPARISONS:
            raise DiceError(f"unknown comparison {op!r}", tip="use one of < <= > >= == !=")
        if not isinstance(other, Dist):
            value = _as_int(other)
            if value is None:
                raise DiceError(f"cannot compare a distribution with {other!r}")
            other = Dist.constant(value)
        n, both = len(self._w), self._kept * other._kept
        if op in ("==", "!="):  # Y's weight at each x
            same = _dot(self._w, _window(other._w, self._lo - other._lo, n, 0, 0))
            hits = same if op == "==" else both - same
        else:  # Y's cumulative weight at each x (index of "Y <= x" is x - Y.lo + 1)
            cum = other._cumulative()
            start = self._lo - other._lo + (1 if op in (">=", "<") else 0)
            at_most = _dot(self._w, _window(cum, start, n, 0, other._kept))
            hits = at_most if op in (">=", ">") else both - at_most
        return Fraction(hits, self._total * other._total)

    # -- identity ---------------------------------------------------------------------------
    def normalized(self) -> tuple[int, tuple[int, ...], int]:
        """Canonical form: weights and total divided by their common gcd."""
        g = math.gcd(self._total, *self._w)
        return self._lo, tuple(w // g for w in self._w), self._total // g

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
        if self._total <= 0 or kept > self._total or (clean and min(clean.values()) < 0):
            raise DiceError("weights must be positive and sum to at most total")
        self._w = clean

    @classmethod
    def adopt(cls, weights: dict[T, int], total: int) -> Weighted[T]:
        """A Weighted that takes a dict of int weights built by its caller as it is: checked in
        bulk (no weight 0 or below, none past ``total``) but not copied, so its keys are not
        hashed again. The exact walks gather thousands of outcomes whose hash is costly."""
        values = weights.values()
        if values and (min(values) <= 0 or not all(type(w) is int for w in values)):
            return cls(weights, total)  # drops zeros, makes numpy ints Python's, refuses the rest
        if total <= 0 or sum(values) > total:
            raise DiceError("weights must be positive and sum to at most total")
        made: Weighted[T] = cls.__new__(cls)
        made._w = weights
        made._total = total
        return made

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
