"""Fast path: draw many outcomes at once from an exact outcome distribution.

The vectorised path of S01: compute a situation's exact outcomes once (from the rule code), then
sample ``n`` of them with numpy in one call. Tests hold it against seeded resolution.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar

import numpy as np

from firefight.dice import Weighted

T = TypeVar("T", bound=Hashable)


def sample_outcomes(
    dist: Weighted[T], n: int, rng: np.random.Generator | int | None = None
) -> tuple[list[T], np.ndarray[Any, np.dtype[np.int64]]]:
    """``(outcomes, indices)``: ``n`` draws as indices into the outcome list.

    Mass left out by a depth limit is spread proportionally (it is below 1e-12 by default).
    """
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    outcomes = dist.outcomes()
    weights = np.array([float(dist.p(o)) for o in outcomes])
    weights /= weights.sum()
    return outcomes, gen.choice(len(outcomes), size=n, p=weights)
