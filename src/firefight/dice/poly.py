"""Exact products and powers of integer polynomials held as plain lists (a distribution's weights).

Adding independent dice multiplies the polynomials of their weights. Everything here is
pure Python with C-speed inner loops, so a small exact answer never imports numpy:

- a product is one big-integer multiplication (Kronecker substitution: each coefficient in a
  fixed-width slot of one integer, packed and unpacked by :mod:`array` or ``int.to_bytes``);
  past :data:`SMALL_PACKED_BITS` FLINT (python-flint's ``fmpz_poly``, imported on first use)
  multiplies faster than Python's Karatsuba;
- a power ``f**n`` of a big pool (``1000d6``) is one pass of an exact linear recurrence: O(1)
  big-integer operations per coefficient for a die of equal faces (4-12x faster than FLINT's
  power even with FLINT loaded), O(len f) for a die of a few unequal faces (J.C.P. Miller's
  power recurrence), half the coefficients for a symmetric die; a die of many unequal faces (an
  exploding die's chain: ``2d10x``, ``2pm6``) is one packed integer raised to the power, and
  FLINT's power past :data:`SMALL_POWER_BITS` (``8d10x``).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from typing import Any

from firefight.errors import DiceError

#: Most bits (coefficients x their width) one exact product may hold: about 12 MB of integers.
MAX_PRODUCT_BITS = 100_000_000
#: Products whose packed operands have at most this many bits stay in Python integers (Karatsuba
#: is quick there, and a short command need not pay FLINT's import, ~30 ms); bigger go to FLINT.
SMALL_PACKED_BITS = 200_000
#: A power of a die with more faces than this (and unequal weights) is a packed power (FLINT's
#: past :data:`SMALL_POWER_BITS`): Miller's recurrence costs len(f) big-integer products per
#: coefficient (measured: as fast as FLINT's power at 8 faces, 3x slower at 30).
MILLER_MAX_LEN = 12
#: Powers whose packed result (slot x len(f) x count bits) is at most this stay one Python
#: integer raised to the power; bigger go to FLINT. Measured for d10x, d20x and pm6 dice (FLINT
#: loaded, CPU ms, Python vs FLINT): 2d10x 52 kbit 0.6 vs 0.4, 6d10x 452 kbit 18 vs 2.6, 8d10x
#: 809 kbit 35 vs 4.0, 8pm6 1.28 Mbit 45 vs 2.7, 8d20x 1.29 Mbit 72 vs 7.6, 12d10x 1.8 Mbit
#: 134 vs 8.7, 16d10x 3.2 Mbit 298 vs 16; FLINT's import costs 40-60 ms. Python's extra time
#: reaches the import's cost at about 1.2 Mbit: below 800 kbit it costs less than the import.
SMALL_POWER_BITS = 800_000

_WORD = 64
_LITTLE = sys.byteorder == "little"
#: array typecodes by their width in bits (unsigned: B, H, I or L, Q).
_ARRAY_CODES = {array(code).itemsize * 8: code for code in "QLIHB"}
_ARRAY_WIDTHS = sorted(_ARRAY_CODES)


def check_size(length: int, largest: int, tip: str) -> None:
    """Refuse a polynomial of ``length`` coefficients up to ``largest`` past the size limit."""
    if length * largest.bit_length() > MAX_PRODUCT_BITS:
        raise DiceError("this exact distribution takes too long to compute", tip=tip)


def pack(coeffs: Sequence[int], slot: int) -> int:
    """Non-negative coefficients as one integer, coefficient ``i`` in bits ``i*slot ..``
    (``slot`` a whole number of bytes, each coefficient below ``2**slot``)."""
    code = _ARRAY_CODES.get(slot)
    if code is not None:
        words = array(code, coeffs)
        if not _LITTLE:  # pragma: no cover - big-endian hosts
            words.byteswap()
        return int.from_bytes(words.tobytes(), "little")
    step = slot // 8
    return int.from_bytes(b"".join(c.to_bytes(step, "little") for c in coeffs), "little")


def unpack(packed: int, slot: int, length: int) -> list[int]:
    """The ``length`` coefficients of a packed polynomial (inverse of :func:`pack`)."""
    step = slot // 8
    data = packed.to_bytes(step * length, "little")
    code = _ARRAY_CODES.get(slot)
    if code is not None:
        words = array(code)
        words.frombytes(data)
        if not _LITTLE:  # pragma: no cover - big-endian hosts
            words.byteswap()
        return words.tolist()
    frm = int.from_bytes
    return [frm(data[i : i + step], "little") for i in range(0, len(data), step)]


def slot_bits(bound: int) -> int:
    """The narrowest slot that holds every integer up to ``bound``: 8, 16, 32 or 64 bits (packed
    by :mod:`array`), else whole bytes. Narrow slots make the one multiplication short."""
    bits = bound.bit_length()
    for width in _ARRAY_WIDTHS:
        if bits <= width:
            return width
    return 8 * -(-bits // 8)


def multiply(a: list[int], b: list[int], bound: int, tip: str) -> list[int]:
    """Exact product of two non-negative coefficient lists; ``bound`` bounds every coefficient
    of the product (the product of the two weight sums does)."""
    slot = slot_bits(bound)
    n = len(a) + len(b) - 1
    if slot * max(len(a), len(b)) > SMALL_PACKED_BITS:
        check_size(n, bound, tip)
        from flint import fmpz_poly

        return _coeffs(fmpz_poly(a) * fmpz_poly(b), n)
    return unpack(pack(a, slot) * pack(b, slot), slot, n)


def _coeffs(poly: Any, length: int) -> list[int]:
    out = [int(c) for c in poly.coeffs()]
    return out + [0] * (length - len(out))


def power(f: list[int], count: int, bound: int, tip: str) -> list[int]:
    """Exact ``f**count`` for a coefficient list with non-zero ends; ``bound`` bounds every
    coefficient of the power (the weight sum to the ``count``)."""
    length = (len(f) - 1) * count + 1
    check_size(length, bound, tip)
    if count == 1 or len(f) == 1:
        return [f[0] ** count] if len(f) == 1 else list(f)
    if bound.bit_length() <= _WORD - 2 or length <= 64:  # small: a few packed products
        return _binary_power(f, count, bound)
    if f.count(f[0]) == len(f):  # a die of equal faces
        scale = f[0] ** count
        half = _equal_faces_power(len(f), count, length)
        return [c * scale for c in half] if scale != 1 else half
    if len(f) <= MILLER_MAX_LEN:
        return _miller_power(f, count, length)
    return _binary_power(f, count, bound)


def _binary_power(f: list[int], count: int, bound: int) -> list[int]:
    """``f**count`` as one packed integer raised to the power (FLINT's power past
    :data:`SMALL_POWER_BITS`, where it repays its import)."""
    slot = slot_bits(bound)
    if slot * len(f) * count > SMALL_POWER_BITS:
        from flint import fmpz_poly

        return _coeffs(fmpz_poly(f) ** count, (len(f) - 1) * count + 1)
    return unpack(pack(f, slot) ** count, slot, (len(f) - 1) * count + 1)


def _mirror(first: list[int], length: int) -> list[int]:
    """A symmetric coefficient list from its first ``ceil(length / 2)`` coefficients."""
    return first + first[: length - len(first)][::-1]


def _equal_faces_power(faces: int, count: int, length: int) -> list[int]:
    """Coefficients of ``(1 + x + ... + x**(faces-1))**count``.

    From ``P' (1-x)(1-x^s) = N P (1 - s x^(s-1) + (s-1) x^s)`` (``P = f^N``, ``s`` faces):
    ``(k+1) c[k+1] = (k+N) c[k] + (k-s+1-N s) c[k-s+1] + (N(s-1)-k+s) c[k-s]``, an exact
    division. The power is symmetric, so only its first half is computed.
    """
    s, n = faces, count
    half = (length + 1) // 2
    c = [1]
    for k in range(half - 1):
        acc = (k + n) * c[k]
        if k >= s - 1:
            acc += (k - s + 1 - n * s) * c[k - s + 1]
            if k >= s:
                acc += (n * (s - 1) - k + s) * c[k - s]
        c.append(acc // (k + 1))
    return _mirror(c, length)


def _miller_power(f: list[int], count: int, length: int) -> list[int]:
    """Coefficients of ``f**count`` by J.C.P. Miller's recurrence (``f[0] != 0``):
    ``p[k] = sum_i ((N+1) i - k) f[i] p[k-i] / (k f[0])``, an exact division."""
    a0 = f[0]
    terms = [(i, a) for i, a in enumerate(f) if i and a]
    symmetric = f == f[::-1]
    stop = (length + 1) // 2 if symmetric else length
    n1 = count + 1
    p = [a0**count]
    for k in range(1, stop):
        acc = 0
        for i, a in terms:
            if i > k:
                break
            acc += (n1 * i - k) * a * p[k - i]
        p.append(acc // (k * a0))
    return _mirror(p, length) if symmetric else p
