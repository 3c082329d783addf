"""graydawn exact-odds timings (docs/rules/graydawn.md, Performance).

Run: python benchmarks/bench_graydawn.py [repeats]

Each case is timed cold (every memoised sub-rule forgotten first) and warm (the wound, check and
save distributions kept from the previous run, as in a session asking several questions). CPU time
(process_time) is the figure that does not depend on other load on the machine; wall time is shown
beside it.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from firefight.core.loading import apply_overrides, read_toml
from firefight.dice.sources import clear_derived
from firefight.rulesets import get_ruleset
from firefight.rulesets.graydawn.house import GraydawnHouse

ROOT = Path(__file__).resolve().parents[1] / "examples" / "graydawn"
CASES = {
    "30-round full auto, close (armour, helmet, BTM, grazing)": ("full_auto_30.toml", []),
    "30-round full auto, target in active cover (car)": (
        "full_auto_30.toml",
        ['target.cover={ name = "car", position = "active" }'],
    ),
    "30-round full auto, medium range (recoil)": ("full_auto_30.toml", ["attack.range_m=300"]),
    "single shot, active cover": ("rifle_vs_cover.toml", []),
    "3-round burst": ("burst_smg.toml", []),
    "frag grenade": ("grenade.toml", []),
}


def run(repeats: int) -> None:
    ruleset = get_ruleset("graydawn")
    print(f"{'case':58s} {'cold cpu':>9s} {'cold wall':>9s} {'warm cpu':>9s}  outcomes")
    for name, (file, sets) in CASES.items():
        data = apply_overrides(read_toml(ROOT / file), sets)
        sit = ruleset.load_situation(data, source=file, house=GraydawnHouse())
        cold_cpu, cold_wall, warm_cpu = [], [], []
        outcomes = 0
        for _ in range(repeats):
            clear_derived()
            c0, w0 = time.process_time(), time.perf_counter()
            report = ruleset.odds(sit)
            cold_cpu.append(time.process_time() - c0)
            cold_wall.append(time.perf_counter() - w0)
            c0 = time.process_time()
            ruleset.odds(sit)
            warm_cpu.append(time.process_time() - c0)
            outcomes = len(report.distributions["damage"])
        print(
            f"{name:58s} {statistics.median(cold_cpu):8.3f}s {statistics.median(cold_wall):8.3f}s"
            f" {statistics.median(warm_cpu):8.3f}s  {outcomes} damage values"
        )


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
