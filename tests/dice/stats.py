"""A chi-square goodness-of-fit check of sampled values against an exact distribution.

No scipy: the statistic is a few numpy lines and the critical value uses the Wilson-Hilferty
approximation of the chi-square quantile. Tolerance: a false alarm probability of about 1e-6
(z = 4.753) per check; with fixed seeds the outcome is deterministic anyway.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from firefight.dice import Dist

Z_ONE_IN_A_MILLION = 4.753


def critical_value(dof: int, z: float = Z_ONE_IN_A_MILLION) -> float:
    """Upper chi-square quantile (Wilson-Hilferty), about P = 1e-6 for the default z."""
    h = 2 / (9 * dof)
    return dof * (1 - h + z * math.sqrt(h)) ** 3


def chi_square(samples: npt.ArrayLike, d: Dist, min_expected: float = 5.0) -> tuple[float, int]:
    """Statistic and degrees of freedom; neighbouring values are pooled until each bin expects
    at least ``min_expected`` observations. A value the distribution cannot produce makes the
    statistic infinite (unless mass was left out, which then expects ``n * truncated_mass``)."""
    values = np.asarray(samples)
    n = len(values)
    idx = values - d.lo
    inside = (idx >= 0) & (idx < len(d.weights))
    possible = np.zeros(n, dtype=bool)
    possible[inside] = d.weights[idx[inside]] > 0
    outside = int((~possible).sum())
    values = values[possible]
    probs = [(v, float(p)) for v, p in d.probabilities()]
    edges: list[int] = []  # each bin starts at an edge value
    expected: list[float] = []
    run = 0.0
    for v, p in probs:
        if not edges or run >= min_expected:
            edges.append(v)
            expected.append(0.0)
            run = 0.0
        expected[-1] += n * p
        run += n * p
    if len(expected) > 1 and expected[-1] < min_expected:  # fold a thin last bin back
        expected[-2] += expected.pop()
        edges.pop()
    bins = np.searchsorted(np.array(edges[1:]), values, side="right")
    observed = np.bincount(bins, minlength=len(edges)).astype(float)
    exp = np.array(expected)
    stat = float(((observed - exp) ** 2 / exp).sum())
    if outside:
        missing = n * float(d.truncated_mass)
        stat += math.inf if missing == 0 else (outside - missing) ** 2 / missing
    return stat, len(edges) - 1
