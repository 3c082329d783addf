"""``simulate``: the three ways to a fight report behind one call.

- ``exact``: the Markov chain (:mod:`firefight.analysis.exact`);
- ``reference``: the engine loop, fight by fight (:mod:`firefight.analysis.reference`);
- otherwise the fast path (:mod:`firefight.analysis.fast`), on several processes for big runs.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firefight.analysis.exact import solve_exact
from firefight.analysis.fast import simulate_fast
from firefight.analysis.optimal import prepare
from firefight.analysis.reference import simulate_reference
from firefight.analysis.report import Tally, report_json
from firefight.encounter.engine import Engine
from firefight.errors import InputError

#: Most fights one call will simulate.
MAX_FIGHTS = 100_000_000
#: Below this many fights one process is quicker than starting others.
PARALLEL_FROM = 200_000
#: A run given no seed draws one below this (short enough to type back as ``--seed``).
SEED_RANGE = 10**9


@dataclass(frozen=True)
class Simulation:
    tally: Tally
    n: int | None
    seed: int | None
    exact: bool
    interrupted: bool
    method: str

    def to_json(self, scenario: str) -> dict[str, Any]:
        """The report; stopped by Ctrl-C, ``interrupted`` and (sampled) ``n`` the fights done,
        ``fights_asked`` the ``-n`` given, or (exact) ``mass_left`` what was still in play."""
        done = int(self.tally.total) if not self.exact else None
        extra: dict[str, Any] = {"method": self.method}
        if self.interrupted:
            extra["interrupted"] = True
            if not self.exact:
                extra["fights_done"] = done
                extra["fights_asked"] = self.n
        return report_json(
            self.tally,
            scenario=scenario,
            n=done if self.interrupted else self.n,
            seed=self.seed,
            exact=self.exact,
            extra=extra,
        )


def default_workers(n: int) -> int:
    return max(1, min(os.cpu_count() or 1, 8)) if n >= PARALLEL_FROM else 1


def simulate(
    engine: Engine,
    n: int | None,
    seed: int | None,
    *,
    exact: bool = False,
    reference: bool = False,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Simulation:
    """A report of ``n`` simulated fights, or the exact one. ``progress`` sees the fights done,
    or with ``exact`` the distinct states met so far (refused past ``exact.MAX_STATES``). A
    side playing ``optimal`` has its solution worked out first (or refused) in this process."""
    prepare(engine)
    if exact:
        if n is not None or reference:
            raise InputError("--exact takes no -n or --reference", tip="drop -n for --exact")
        # the exact chain's progress is the states met: it is refused past MAX_STATES of them
        states = (lambda p, s: progress(s)) if progress is not None else None
        tally, arithmetic = solve_exact(engine, on_pass=states)
        return Simulation(tally, None, None, True, tally.interrupted, f"exact ({arithmetic})")
    if n is None:
        raise InputError("say how many fights", tip="add -n 10000, or --exact")
    if not 1 <= n <= MAX_FIGHTS:
        raise InputError(f"-n {n} is out of range", tip=f"give 1 to {MAX_FIGHTS:,} fights")
    if workers is not None and not 1 <= workers <= 64:
        raise InputError(f"--workers {workers} is out of range", tip="give 1 to 64")
    if seed is None:  # drawn here, so the report names it and --seed gives the run again
        seed = secrets.randbelow(SEED_RANGE)
    if reference:
        tally = simulate_reference(engine, n, seed, progress)
        return Simulation(tally, n, seed, False, tally.interrupted, "reference")
    step: Callable[[int], None] | None = None
    if progress is not None:
        done = [0]

        def step(size: int) -> None:
            done[0] += size
            progress(done[0])

    tally, interrupted = simulate_fast(
        engine, n, seed, workers if workers is not None else default_workers(n), step
    )
    return Simulation(tally, n, seed, False, interrupted, "fast")
