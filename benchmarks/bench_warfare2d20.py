"""Benchmarks for warfare2d20 (figures go in docs/rules/warfare2d20.md and the ruleset notes).

Run: python benchmarks/bench_warfare2d20.py [--quick]

1. ``firefight odds warfare2d20`` on the AK-47 ambush (W15 b): whole command, wall time.
2. The odds computation itself: cold (fresh process, empty caches) and warm.
3. Seeded resolution of one attack (full transcript): attacks per second.
4. Many attacks: a plain-Python loop over ``random`` doing the same rule, against the vectorised
   path (exact outcome distribution sampled by numpy in one call), both checked against exact.
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from firefight.core.loading import read_toml
from firefight.core.sampling import AliasTable, sample_outcomes
from firefight.dice import SeededDice
from firefight.rulesets.warfare2d20 import RULESET
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.odds import target_odds

ROOT = Path(__file__).resolve().parents[1]
AMBUSH = ROOT / "examples" / "warfare2d20" / "b_ak47_ambush.toml"
QUICK = "--quick" in sys.argv


def load() -> object:
    return RULESET.load_situation(read_toml(AMBUSH), source=str(AMBUSH), house=Warfare2d20House())


def wall(cmd: list[str], repeat: int) -> tuple[float, float]:
    """Median wall time and median CPU time (user + sys) of a command."""
    times, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times), statistics.median(cpus)


CORE_AND_RULESET = "import firefight.cli.ruleset_commands, firefight.rulesets.warfare2d20"
ODDS = [sys.executable, "-m", "firefight.cli.app", "odds", "warfare2d20", str(AMBUSH)]

COLD = """
import time
from firefight.core.loading import read_toml
from firefight.rulesets.warfare2d20 import RULESET
from firefight.rulesets.warfare2d20.house import Warfare2d20House
p = {path!r}
s = RULESET.load_situation(read_toml(p), source=p, house=Warfare2d20House())
t = time.perf_counter(); RULESET.odds(s); print(time.perf_counter() - t)
"""


def plain_attack(rng: random.Random) -> tuple[bool, int, int, str]:
    """The AK-47 ambush rule written again as a plain loop over ``random`` (the baseline)."""
    a = rng.randint(1, 20) + rng.randint(1, 20)
    d = rng.randint(1, 20) + rng.randint(1, 20)
    if abs(a - d) > 10:
        return False, 0, 0, "unhurt"
    dmg = sorted((rng.randint(1, 12) for _ in range(3)), reverse=True)
    soak = sorted((rng.randint(1, 10) for _ in range(3)), reverse=True)
    damage = sum(x for x, s in zip(dmg, soak, strict=True) if x > s)
    if damage == 0:
        return True, 0, 0, "unhurt"
    absorbed = min(4, 20, damage)
    hp_lost = damage - absorbed
    if 20 - hp_lost <= 0:
        return True, damage, hp_lost, "dead"
    if hp_lost * 100 > 25 * 20:
        check = rng.randint(1, 10) + rng.randint(1, 10)
        return True, damage, hp_lost, "wounded" if check <= 13 else "unconscious"
    return True, damage, hp_lost, "wounded" if hp_lost else "unhurt"


def main() -> None:
    reps = 3 if QUICK else 7
    load_avg = os.getloadavg()[0]
    print(
        f"python {sys.version.split()[0]}, numpy {np.__version__}, {os.cpu_count()} cores, "
        f"load average {load_avg:.1f}"
    )
    print("commands: median wall time / median CPU time (user + sys)")
    for name, cmd in [
        ("python startup", [sys.executable, "-c", "pass"]),
        ("firefight --help", [sys.executable, "-m", "firefight.cli.app", "--help"]),
        ("import core + CLI", [sys.executable, "-c", "import firefight.cli.ruleset_commands"]),
        ("  + warfare2d20", [sys.executable, "-c", CORE_AND_RULESET]),
        ("firefight odds (W15 b)", [*ODDS]),
        ("firefight odds --json", [*ODDS, "--json"]),
    ]:
        w_, c_ = wall(cmd, reps)
        print(f"{name:26} {w_ * 1000:7.0f} ms / {c_ * 1000:4.0f} ms CPU")

    colds = [
        float(
            subprocess.run(
                [sys.executable, "-c", COLD.format(path=str(AMBUSH))],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        for _ in range(reps)
    ]
    print(f"odds computation, cold     {statistics.median(colds) * 1000:7.1f} ms (fresh process)")
    sit = load()
    warm = []
    for _ in range(20):
        t = time.perf_counter()
        RULESET.odds(sit)
        warm.append(time.perf_counter() - t)
    print(f"odds computation, warm     {statistics.median(warm) * 1000:7.1f} ms")

    n_seeded = 1000 if QUICK else 5000
    rng = np.random.default_rng(1)
    t = time.perf_counter()
    for _ in range(n_seeded):
        RULESET.resolve(sit, SeededDice(rng))
    seeded = n_seeded / (time.perf_counter() - t)
    print(f"seeded resolve+transcript  {seeded:9,.0f} attacks/s")

    n_plain = 100_000 if QUICK else 300_000
    prng = random.Random(1)
    t = time.perf_counter()
    plain = [plain_attack(prng) for _ in range(n_plain)]
    plain_rate = n_plain / (time.perf_counter() - t)
    print(f"plain Python + random      {plain_rate:9,.0f} attacks/s")

    n_vec = 10_000_000
    t = time.perf_counter()
    w = target_odds(sit, 0)  # type: ignore[arg-type]
    table = AliasTable.build(w)
    t_exact = time.perf_counter() - t
    table.sample(1000, 0)  # warm up
    t = time.perf_counter()
    idx = table.sample(n_vec, 1)
    t_vec = time.perf_counter() - t
    t = time.perf_counter()
    damage = table.column("damage")[idx]
    t_gather = time.perf_counter() - t
    vec_rate = n_vec / t_vec
    print(
        f"vectorised (alias, numpy)  {vec_rate:9,.0f} attacks/s "
        f"({n_vec:,} in {t_vec * 1000:.0f} ms; exact table {t_exact * 1000:.0f} ms once)"
    )
    print(f"  + damage of every attack {t_gather * 1000:7.0f} ms (one gather)")
    print(f"vectorised / plain loop    {vec_rate / plain_rate:9.0f} x")
    n_core = 2_000_000
    t = time.perf_counter()
    sample_outcomes(w, n_core, 1)
    core_rate = n_core / (time.perf_counter() - t)
    print(f"core sample_outcomes       {core_rate:9,.0f} attacks/s (table built per call)")
    outcomes = table.outcomes

    p_hit = float(w.probability(lambda o: o.result == "hit"))
    mean_damage = float(sum(o.damage * w.p(o) for o in outcomes))
    plain_hit = sum(x[0] for x in plain) / n_plain
    plain_dmg = sum(x[1] for x in plain) / n_plain
    print(
        f"check: P(hit) exact {p_hit:.4f}, plain {plain_hit:.4f}, "
        f"vectorised {float((np.array([o.result == 'hit' for o in outcomes])[idx]).mean()):.4f}"
    )
    print(
        f"check: mean damage exact {mean_damage:.3f}, plain {plain_dmg:.3f}, "
        f"vectorised {damage.mean():.3f}"
    )


if __name__ == "__main__":
    main()
