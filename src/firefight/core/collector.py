"""Pausing Python's cyclic garbage collector around work that makes many objects but few cycles.

Exact enumerations and the fight simulator's chunks make tens of thousands of short-lived,
acyclic tuples and states; every full collection on the way walks the whole heap again (a fifth
of a 30-round burst's odds, a quarter of a warfare2d20 duel's chunk). The few cycles they leave
are collected once the collector is back on.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import Any, TypeVar

R = TypeVar("R")


def collector_paused(fn: Callable[..., R]) -> Callable[..., R]:
    """``fn`` run with the cyclic collector paused (and left as it was found afterwards)."""

    @functools.wraps(fn)
    def paused(*args: Any, **kwargs: Any) -> R:
        was_on = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if was_on:
                gc.enable()

    return paused
