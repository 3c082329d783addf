"""Exact products of weight arrays past int64, by FLINT (python-flint's ``fmpz_poly``).

A distribution's weights are the coefficients of a polynomial, so adding independent dice is a
polynomial product. numpy is exact only while the coefficients fit int64; past that FLINT
multiplies (and raises to powers) polynomials with huge integer coefficients in milliseconds,
where packing them into one Python integer took hundreds. python-flint is imported on first use
only: small dice never load it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from firefight.errors import DiceError

#: Most bits (coefficients x their width) one exact product may hold: about 12 MB of integers.
MAX_PRODUCT_BITS = 100_000_000
#: Products of at most this many coefficient pairs (a few ms) are done by numpy on Python
#: integers: a short command need not pay FLINT's import (~30 ms) for them.
SMALL_PRODUCT = 50_000

WeightArray = npt.NDArray[Any]


def _poly(arr: WeightArray) -> Any:
    from flint import fmpz_poly

    return fmpz_poly([int(x) for x in arr.tolist()])


def _array(poly: Any) -> WeightArray:
    out = np.empty(poly.length(), dtype=object)
    out[:] = list(map(int, poly.coeffs()))
    return out


def _check_size(length: int, largest: int, tip: str) -> None:
    if length * largest.bit_length() > MAX_PRODUCT_BITS:
        raise DiceError("this exact distribution takes too long to compute", tip=tip)


def multiply(a: WeightArray, b: WeightArray, tip: str) -> WeightArray:
    """Exact product of two non-negative weight arrays (no leading or trailing zeros)."""
    if len(a) * len(b) <= SMALL_PRODUCT:
        return np.convolve(a.astype(object), b.astype(object))
    bound = int(a.max()) * int(b.max()) * min(len(a), len(b))
    _check_size(len(a) + len(b) - 1, bound, tip)
    return _array(_poly(a) * _poly(b))


def power(a: WeightArray, count: int, bound: int, tip: str) -> WeightArray:
    """Exact ``count``-th power of a weight array; ``bound`` bounds its coefficients (the
    power's total)."""
    _check_size((len(a) - 1) * count + 1, bound, tip)
    return _array(_poly(a) ** count)
