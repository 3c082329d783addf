"""dragonwarriors2 benchmark: exact odds of an exchange and resolution speed. Goal: the exact
odds of a normal exchange with riposte policy "margin >= 3" in under 50 ms.

Measured (median of repeated runs, warm: the plus-minus roll distributions are memoised after
the first call, as in a long session; cold: those caches cleared first):

- exact odds of a normal exchange, riposte policy "margin >= 3" on both sides
  (examples/dragonwarriors2/knight_vs_squire.toml), and with policy "always";
- exact odds of a missile shot (no riposte chain);
- one seeded exchange (resolve), and the whole Rolf vs Lennox fight on scripted dice.

Run: ``python benchmarks/bench_dragonwarriors2.py`` (prints; figures go into the report and
docs/rules/dragonwarriors2.md by hand).
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firefight.core.house import load_house
from firefight.core.loading import read_toml
from firefight.dice import ScriptedDice, SeededDice
from firefight.rulesets import get_ruleset
from firefight.rulesets.dragonwarriors2 import odds as dw2_odds

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "dragonwarriors2"
RULESET = get_ruleset("dragonwarriors2")
PRINTED = [1, 5, 1, 4, 1, 2, 2, 1, 6, 1, 1, 1, 4, 1, 2, 3, 1, 6, 5, 1, 1, 5, 1, 2, 1, 3, 1, 4,
           1, 3, 3, 3, 6, 1, 1, 6, 3, 1]  # fmt: skip


def load(name: str, **changes: Any) -> Any:
    data = read_toml(EXAMPLES / name)
    for role, fields in changes.items():
        data[role] = {**data[role], **fields}
    return RULESET.load_situation(data, source=name, house=load_house(RULESET.house_model, None))


def median_time(fn: Callable[[], object], runs: int, cold: bool = False) -> float:
    times = []
    for _ in range(runs):
        if cold:
            dw2_odds._SHARED.clear()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    print(f"python {sys.version.split()[0]} on {platform.machine()} ({platform.system()})")
    margin3 = load("knight_vs_squire.toml")
    always = load(
        "knight_vs_squire.toml", attacker={"riposte": "always"}, defender={"riposte": "always"}
    )
    shot = load("bow_shot.toml")
    fight = load("rolf_vs_lennox.toml")
    RULESET.odds(margin3)  # fill the memo of roll distributions
    rows = [
        ("odds, exchange, margin >= 3 (warm)", median_time(lambda: RULESET.odds(margin3), 7)),
        ("odds, exchange, margin >= 3 (cold)", median_time(lambda: RULESET.odds(margin3), 5, True)),
        ("odds, exchange, always (warm)", median_time(lambda: RULESET.odds(always), 5)),
        ("odds, bow shot (warm)", median_time(lambda: RULESET.odds(shot), 7)),
        (
            "resolve, one seeded exchange",
            median_time(lambda: RULESET.resolve(margin3, SeededDice(1)), 501),
        ),
        (
            "resolve, Rolf vs Lennox fight, scripted",
            median_time(lambda: RULESET.resolve(fight, ScriptedDice(PRINTED)), 201),
        ),
    ]
    report = RULESET.odds(margin3)
    for label, seconds in rows:
        print(f"{label:45s} {seconds * 1000:9.2f} ms")
    print(f"truncated mass (margin >= 3): {float(report.truncated_mass):.2e}")
    contests = report.distributions["contests"]
    print(f"longest chain kept: {contests.hi} contests")


if __name__ == "__main__":
    main()
