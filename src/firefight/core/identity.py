"""Memoising pure functions of frozen situation objects by identity.

Exact odds replay a rule once per path, with the very same situation objects every time; what a
rule derives from them alone (its modifiers, its thresholds, the house-rule events) is the same on
every path. Hashing a large frozen value on each path costs more than the work, so these caches
key on ``id`` and keep the arguments alive, so an id cannot be reused while its entry exists.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

R = TypeVar("R")

#: Entries one cache keeps before it starts over (bounded memory).
KEPT = 256


def per_object(fn: Callable[..., R]) -> Callable[..., R]:
    """``fn(*args)`` computed once per distinct tuple of argument objects (by identity)."""
    cache: dict[tuple[int, ...], tuple[tuple[Any, ...], R]] = {}

    @functools.wraps(fn)
    def cached(*args: Any) -> R:
        key = tuple(map(id, args))
        hit = cache.get(key)
        if hit is not None and all(a is b for a, b in zip(hit[0], args, strict=True)):
            return hit[1]
        value = fn(*args)
        if len(cache) >= KEPT:
            cache.clear()
        cache[key] = (args, value)
        return value

    return cached
