"""Exact keep-highest / keep-lowest sums by order statistics, not by enumerating combinations.

The faces are walked from the kept end (highest first for ``kh``/``dl``). A state is how many
dice, ``n < keep``, already show a face walked so far, with the polynomial of their kept sum; the
next face takes ``m`` of the ``count - n`` dice left in ``C(count - n, m)`` ways. Once ``keep``
dice are placed, the kept sum is settled and the other dice may show any of the faces not yet
walked, counted in closed form. Cost grows with faces x keep² big-integer operations on
polynomials of ``keep x sides`` coefficients: no loop over the (possibly astronomical) number of
face combinations.

Each polynomial is one Python integer (Kronecker substitution: coefficient ``i`` in bits
``i*slot .. (i+1)*slot``), so shifting a kept sum is a bit shift and adding two states is one
integer addition. No coefficient can exceed ``sides**count``, which sets the slot width.
"""

from __future__ import annotations

import math

from firefight.dice.dist import Dist
from firefight.dice.poly import slot_bits, unpack


def keep_sum(count: int, sides: int, keep_high: bool, keep: int) -> Dist:
    """Exact sum of the ``keep`` highest (or lowest) of ``count`` dice of ``sides`` faces."""
    total = sides**count
    slot = slot_bits(total)  # no coefficient exceeds total: no carry between slots
    # C(left, m) for the m < keep dice a face may take without settling the kept sum
    binom = [[math.comb(n, m) for m in range(keep)] for n in range(count + 1)]
    states = [1] + [0] * (keep - 1)  # states[n]: n dice placed on the faces walked so far
    result = 0
    faces = range(sides, 0, -1) if keep_high else range(1, sides + 1)
    for walked, face in enumerate(faces, start=1):
        below = sides - walked  # faces the remaining dice may still show
        shift = slot * face
        new = [0] * keep
        for n, poly in enumerate(states):
            if not poly:
                continue
            left = count - n
            row = binom[left]
            need = keep - n  # dice this face must take to settle the kept sum
            unsettled = 0  # ways fewer than `need` dice show this face, the rest below it
            for m in range(need):
                unsettled += row[m] * below ** (left - m)
                new[n + m] += (poly * row[m]) << (shift * m)
            # m >= need dice here settle it; the other left - m show any of the `below` faces
            settled = (below + 1) ** left - unsettled
            if settled:
                result += (poly * settled) << (shift * need)
        states = new
    # every kept sum from keep to keep * sides can occur: the weights from `keep` on are trimmed
    weights = unpack(result, slot, keep * sides + 1)[keep:]
    return Dist._raw(keep, weights, total, total)
