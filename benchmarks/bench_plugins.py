"""Rulesets from outside: what discovery costs at start-up, and the RISK plugin's exact table.
Goals: the exact 10x10 table in under 1 s of CPU; ``firefight --help`` and ``roll`` read no
entry point and import no ruleset (held by tests/core/test_discovery.py; their times are shown).

Writes the "Plugins" section of docs/performance.md (``--no-write`` only prints). CPU times
(user + sys), medians: other jobs on a shared machine stretch wall time far more. Needs the
plugin installed (``pip install -e plugins/firefight-risk``).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from perfdoc import ENV, ROOT, process_ms, write_table

SECTION = "## Plugins"
BATTLE = ROOT / "plugins" / "firefight-risk" / "src" / "firefight_risk" / "examples" / "battle.toml"
VARY = ["combatants.Attacker.armies=1..10", "combatants.Defender.armies=1..10"]
FF = [sys.executable, "-m", "firefight.cli.app"]

TABLE = f"""
import time
t0 = time.process_time()
from firefight.analysis.sweep import plan_sweep, run_sweep
t1 = time.process_time()
plan = plan_sweep({str(BATTLE)!r}, {VARY!r}, n=None, seed=None, exact=True)
result = run_sweep(plan, cluster=False)
t2 = time.process_time()
assert len(result.rows) == 100 and not result.failed
print(t1 - t0, t2 - t1)
"""

DISCOVER = """
import time
t0 = time.process_time()
from firefight.rulesets import installed, get_ruleset
t1 = time.process_time()
installed()
t2 = time.process_time()
get_ruleset("risk")
t3 = time.process_time()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def in_child(code: str, runs: int) -> list[float]:
    """Medians of the figures a child prints (one fresh process a run)."""
    got = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=ENV, check=True
        )
        got.append([float(x) for x in out.stdout.split()])
    return [statistics.median(col) for col in zip(*got, strict=True)]


def whole_cpu(args: list[str]) -> float:
    start = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(args, capture_output=True, env=ENV, check=True, cwd=ROOT)
    wall = time.perf_counter() - t
    end = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = end.ru_utime - start.ru_utime + end.ru_stime - start.ru_stime
    print(f"  (wall {wall:.1f} s)")
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-write", action="store_true")
    opts = parser.parse_args()
    rows = []
    imports, table = in_child(TABLE, opts.runs)
    rows.append(
        (
            "RISK 10x10 exact table: 100 exact chains (scenario, engine, chain, report each) in "
            "a fresh process, imports apart",
            "< 1 s",
            f"{table:.2f} s CPU (imports {imports:.2f} s)",
            "plan_sweep(battle.toml, VARY, exact=True); run_sweep(plan, cluster=False)",
        )
    )
    sweep = [*FF, "sweep", str(BATTLE), "--exact", *(a for v in VARY for a in ("--vary", v))]
    cpu = whole_cpu([*sweep, "--no-cluster"])
    rows.append(
        (
            "the same as a whole command (cells in this process), imports included",
            "",
            f"{cpu:.2f} s CPU",
            " ".join(["firefight", *sweep[3:], "--no-cluster"]).replace(str(ROOT) + "/", ""),
        )
    )
    _, scan, first = in_child(DISCOVER, opts.runs)
    rows.append(
        (
            "discovery: the entry-point group read once a process, then the plugin imported and "
            "checked",
            "",
            f"{1000 * scan:.1f} ms, then {1000 * first:.1f} ms",
            "installed(); get_ruleset('risk')",
        )
    )
    for line in (["--help"], ["roll", "2d6", "--seed", "1"]):
        ms, _ = process_ms([*FF, *line], opts.runs)
        rows.append(
            (
                f"`firefight {' '.join(line)}`, a whole process",
                "no ruleset imported, no entry point read (tests/core/test_discovery.py)",
                f"{ms:.0f} ms CPU",
                f"firefight {' '.join(line)}",
            )
        )
    for row in rows:
        print(" | ".join(row))
    if not opts.no_write:
        from firefight import __version__

        write_table(SECTION, "bench_plugins.py", f"firefight {__version__}", rows)


if __name__ == "__main__":
    main()
