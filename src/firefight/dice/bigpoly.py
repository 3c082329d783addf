"""Exact products of weight arrays past int64, by FLINT (python-flint's ``fmpz_poly``).

A distribution's weights are the coefficients of a polynomial, so adding independent dice is a
polynomial product. numpy is exact only while the coefficients fit int64; past that, small
products pack each operand into one Python integer (Kronecker substitution) and multiply once,
and big ones go to FLINT, which multiplies (and raises to powers) polynomials with huge integer
coefficients in milliseconds where one packed Python integer took hundreds. python-flint is
imported on first use only: small and mid-size dice never load it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from firefight.errors import DiceError

#: Most bits (coefficients x their width) one exact product may hold: about 12 MB of integers.
MAX_PRODUCT_BITS = 100_000_000
#: Products whose packed operands have at most this many bits are done by Kronecker
#: substitution on Python integers (well under a millisecond): a short command need not pay
#: FLINT's import (~30 ms) for them.
SMALL_PACKED_BITS = 200_000
_WORD = 64
_WORD_MASK = (1 << _WORD) - 1

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
    bound = int(a.max()) * int(b.max()) * min(len(a), len(b))
    words = max(1, -(-bound.bit_length() // _WORD))
    if _WORD * words * max(len(a), len(b)) <= SMALL_PACKED_BITS:
        return _kronecker(a, b, words)
    _check_size(len(a) + len(b) - 1, bound, tip)
    return _array(_poly(a) * _poly(b))


def _pack(arr: WeightArray, words: int) -> int:
    """Non-negative integers as one big integer, ``words`` 64-bit words per slot (numpy packs)."""
    grid = np.zeros((len(arr), words), dtype="<u8")
    if arr.dtype != object:
        grid[:, 0] = arr
    else:
        for i in range(words):
            grid[:, i] = ((arr >> (_WORD * i)) & _WORD_MASK).astype(np.uint64)
    return int.from_bytes(grid.tobytes(), "little")


def _kronecker(a: WeightArray, b: WeightArray, words: int) -> WeightArray:
    """Kronecker substitution: pack each array into one big integer with ``words``-word slots
    (wide enough for any coefficient of the product), multiply once, and unpack. Packing and
    unpacking are numpy byte views, so only the multiplication works digit by digit."""
    n = len(a) + len(b) - 1
    product = _pack(a, words) * _pack(b, words)
    raw = np.frombuffer(product.to_bytes(8 * words * n, "little"), dtype="<u8").reshape(n, words)
    out = raw[:, words - 1].astype(object)
    for i in range(words - 2, -1, -1):
        out = (out << _WORD) + raw[:, i].astype(object)
    return out


def power(a: WeightArray, count: int, bound: int, tip: str) -> WeightArray:
    """Exact ``count``-th power of a weight array; ``bound`` bounds its coefficients (the
    power's total)."""
    _check_size((len(a) - 1) * count + 1, bound, tip)
    return _array(_poly(a) ** count)
