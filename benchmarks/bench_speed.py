"""Speed where users wait: fresh queries, big pools, start-up, example odds, sampling.

Every figure comes from a fresh Python process unless said otherwise, because that is what a user
of the command line gets: a query is timed *after* its tool's imports (``import icepool`` /
``import firefight.dice`` plus one unrelated warm-up query, then ``gc.freeze()``), as the first
time that process asks it, so no memo cache of either tool has seen it. Each exact answer is
checked to be the identical Fraction table in both tools first.

- keep-highest: ``NdXkhK`` for four pools and their neighbours (one more / one fewer die, one
  more / one fewer kept);
- the reference queries A, B, C of ``bench_dice.py`` as fresh queries;
- ``1000d6`` (icepool is not run: it takes ~13 s) and ``200d20`` against icepool;
- the first answer in a fresh process, import included, as whole processes;
- start-up of three commands as whole processes, beside ``python -c pass`` and
  ``python -c "import numpy"``;
- exact odds of every shipped example after imports (``ruleset.odds(situation)``, cold);
- bulk sampling of ``abs(2d20-2d20)`` and of a whole attack against a plain numpy kernel of the
  same arithmetic and a plain-Python loop.

Run: ``python benchmarks/bench_speed.py`` (writes the "Speed where users wait" section
of docs/performance.md; ``--no-write`` only prints; ``--only startup|keep|abc|big|odds`` runs and
prints one part alone: the whole-process rows, the keep-highest rows, queries A B C, the big pools,
or the examples' exact odds (``--example TEXT`` picks some of them).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_dice import write_section  # noqa: E402
from perfdoc import ENV, process_ms  # noqa: E402

SECTION = "## Speed where users wait"

KEEP_POOLS = [(10, 6, 3), (20, 10, 5), (8, 12, 4), (12, 8, 6)]

#: A fresh process: import, warm up on an unrelated query, then time one query (µs on stdout).
#: ``gc.freeze()`` just before the timer (both tools, and the A floor) sets the collector's
#: generation-0 counter to 0: it stands wherever the imports and warm-up left it (560 of 700 in
#: one tree, 0 in the next after an unrelated change at import), so without this a small query
#: paid one collection (20-60 µs in a fresh process) or none by that accident. ``freeze`` moves
#: the old objects aside without walking them (``gc.collect()`` walks every object, and the query
#: then starts with cold caches: ~2x on the smallest queries). The CLI collects less often too.
FF_QUERY = """
import gc, sys, time
from fractions import Fraction
from firefight.dice import exact
import firefight.dice.exact
exact("3d5").probabilities()
gc.freeze()
start = time.process_time()
{body}
print((time.process_time() - start) * 1e6)
print(repr(answer), file=sys.stderr)
"""
IP_QUERY = """
import gc, sys, time
from fractions import Fraction
import icepool
icepool.d5.highest(3, 2).denominator()
gc.freeze()
start = time.process_time()
{body}
print((time.process_time() - start) * 1e6)
print(repr(answer), file=sys.stderr)
"""

A_CELLS = "[(m, t) for m in range(-4, 7) for t in range(4, 15)]"
FF_BODIES = {
    "A": f"d = exact('abs(2d20-2d20)')\nanswer = {{(m, t): d.cdf(t - m) for m, t in {A_CELLS}}}",
    "B": "x = exact('d10x', depth={dx}, stop=True)\nanswer = (x + 14).p_compare('>=', x + 12)",
    "C": "r = exact('pm6', depth={dp}, stop=True)\nanswer = (r + 14).p_compare('>', r + 12)",
}
IP_BODIES = {
    "A": "d = abs(2 @ icepool.d20 - 2 @ icepool.d20)\n"
    f"answer = {{(m, t): d.probability('<=', t - m) for m, t in {A_CELLS}}}",
    "B": "inner = icepool.d10.explode(depth={dx} - 1)\n"
    "x = icepool.Die([*range(2, 10), 10 + inner, -inner])\n"
    "y = icepool.Die([*range(2, 10), 10 + inner, -inner])\n"
    "answer = (14 + x >= 12 + y).probability(True)",
    "C": "pm = lambda: icepool.d6.explode(depth={dp}) - icepool.d6.explode(depth={dp})\n"
    "answer = (14 + pm() > 12 + pm()).probability(True)",
}


def run_query(template: str, body: str) -> tuple[float, str]:
    """Time of one fresh query (µs) and its answer's repr."""
    out = subprocess.run(
        [sys.executable, "-c", template.format(body=body)],
        capture_output=True,
        text=True,
        env=ENV,
        check=True,
    )
    return float(out.stdout.split()[-1]), out.stderr.strip()


def fresh_pair(ff_body: str, ip_body: str, runs: int) -> tuple[float, float]:
    """Median fresh-query times (µs) of both tools, after checking they give the same answer."""
    ff_times, ip_times = [], []
    for _ in range(runs):
        t_ff, a_ff = run_query(FF_QUERY, ff_body)
        t_ip, a_ip = run_query(IP_QUERY, ip_body)
        if a_ff != a_ip:
            raise SystemExit(f"answers differ:\n{ff_body}\n{a_ff[:200]}\n{a_ip[:200]}")
        ff_times.append(t_ff)
        ip_times.append(t_ip)
    return statistics.median(ff_times), statistics.median(ip_times)


def dist_body(ff_expr: str) -> str:
    return f"answer = sorted(exact({ff_expr!r}).probabilities())"


def ice_body(build: str) -> str:
    return (
        f"d = {build}\n"
        "answer = sorted((int(v), Fraction(q, d.denominator())) for v, q in d.items() if q)"
    )


def keep_rows(runs: int) -> list[tuple[str, float, float]]:
    rows = []
    for n, s, k in KEEP_POOLS:
        for dn, dk in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            c, kk = n + dn, k + dk
            ff, ip = fresh_pair(
                dist_body(f"{c}d{s}kh{kk}"), ice_body(f"icepool.d({s}).highest({c}, {kk})"), runs
            )
            rows.append((f"{c}d{s}kh{kk}", ff, ip))
            print(f"{c}d{s}kh{kk}: firefight {ff:.0f} us, icepool {ip:.0f} us, {ip / ff:.1f}x")
    return rows


def abc_rows(runs: int) -> list[tuple[str, float, float]]:
    from firefight.dice import Depth

    dx, dp = Depth().for_die(10, 1), Depth().for_die(6, 2)
    rows = []
    for name in "ABC":
        ff_body = FF_BODIES[name].replace("{dx}", str(dx)).replace("{dp}", str(dp))
        ip_body = IP_BODIES[name].replace("{dx}", str(dx)).replace("{dp}", str(dp))
        ff, ip = fresh_pair(ff_body, ip_body, runs)
        rows.append((name, ff, ip))
        print(f"query {name}: firefight {ff:.0f} us, icepool {ip:.0f} us, {ip / ff:.0f}x")
        if name == "A":
            floor = a_floor(runs)
            rows.append(("A floor", floor, ip))
            print(f"query A's cell loop alone: {floor:.0f} us, at most {ip / floor:.0f}x")
    return rows


#: Query A's own table loop over a ready dict: what a tool doing no dice work at all would take.
A_FLOOR = (
    "from firefight.dice import exact\n"
    "ready = {v: exact('abs(2d20-2d20)').cdf(v) for v in range(-2, 19)}\n"
    "gc.freeze()\n"
    "start = time.process_time()\n"
    f"answer = {{(m, t): ready[t - m] for m, t in {A_CELLS}}}\n"
)


def floor_ratio(abc: object) -> float:
    """icepool's time on query A over the floor's (the best ratio any tool could show)."""
    return next(ip / ff for name, ff, ip in abc if name == "A floor")  # type: ignore[attr-defined]


def a_floor(runs: int) -> float:
    """Median µs of query A's cell loop alone in a fresh process (the 121 cells from a dict)."""
    template = FF_QUERY.replace("start = time.process_time()\n", "")
    return statistics.median(run_query(template, A_FLOOR)[0] for _ in range(runs))


#: Keep pools of ~60-100 ms, timed against the refusal's cost model (dice.limits.keep_seconds).
KEEP_MODEL_POOLS = [(40, 100, 10), (100, 20, 40), (20, 1000, 2)]


def keep_model_rows() -> list[tuple[str, float, float]]:
    """(pool, the model's estimate, keep_sum's best of 3 CPU time), in seconds: the model the
    refusal of big keep pools rests on, held to the clock here rather than in a timed test."""
    from firefight.dice.keep import keep_sum
    from firefight.dice.limits import keep_seconds

    rows = []
    for count, sides, keep in KEEP_MODEL_POOLS:
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            keep_sum(count, sides, True, keep)
            best = min(best, time.process_time() - start)
        rows.append((f"{count}d{sides}kh{keep}", keep_seconds(count, sides, keep), best))
        print(f"{rows[-1][0]}: model {rows[-1][1] * 1e3:.0f} ms, measured {best * 1e3:.0f} ms")
    return rows


def big_rows(runs: int) -> tuple[list[float], float, float]:
    """1000d6 (fresh; its power is a recurrence, python-flint is not imported) and 200d20."""
    body = "answer = exact('1000d6').cdf(3500)"
    first = [run_query(FF_QUERY, body)[0] for _ in range(runs)]
    ff200, ip200 = fresh_pair(dist_body("200d20"), ice_body("200 @ icepool.d20"), 1)
    print(f"1000d6: {statistics.median(first) / 1e3:.1f} ms")
    print(f"200d20: firefight {ff200 / 1e3:.1f} ms, icepool {ip200 / 1e3:.0f} ms")
    return first, ff200, ip200


CLI = [sys.executable, "-c", "from firefight.cli.app import main; main()"]
FIRST_FF = "from firefight.dice import exact; d = exact('abs(2d20-2d20)'); print(d.cdf(10))"
FIRST_IP = (
    "import icepool; d = abs(2 @ icepool.d20 - 2 @ icepool.d20); print(d.probability('<=', 10))"
)


def startup_rows(runs: int) -> dict[str, tuple[float, float]]:
    py = [sys.executable, "-c"]
    out = {
        "python -c pass": process_ms([*py, "pass"], runs),
        'python -c "import numpy"': process_ms([*py, "import numpy"], runs),
        "firefight --help": process_ms([*CLI, "--help"], runs),
        "firefight roll 2d20 --seed 1": process_ms([*CLI, "roll", "2d20", "--seed", "1"], runs),
        "firefight odds warfare2d20 examples/warfare2d20/b_ak47_ambush.toml": process_ms(
            [*CLI, "odds", "warfare2d20", "examples/warfare2d20/b_ak47_ambush.toml"], runs
        ),
        "first answer, firefight": process_ms([*py, FIRST_FF], runs),
        "first answer, icepool": process_ms([*py, FIRST_IP], runs),
    }
    for k, (cpu, wall) in out.items():
        print(f"{k}: {cpu:.0f} ms CPU, {wall:.0f} ms wall")
    return out


ODDS = """
import sys, time
from pathlib import Path
import numpy  # after imports: the rulesets' array code loads it on first use, not at start
from firefight.cli.ruleset_commands import load
from firefight.rulesets import get_ruleset
rs = get_ruleset(sys.argv[1])
situation = load(rs, Path(sys.argv[2]), [], None, None)
start = time.process_time()
rs.odds(situation)
print((time.process_time() - start) * 1e3)
"""


#: Examples whose exact odds the docs say take longer than 20 ms, and why, with their limits:
#: full auto and Andre's suppression as docs/rules/graydawn.md sets them, the two
#: long riposte chains as docs/rules/dragonwarriors2.md sets them ("What it still costs").
ODDS_LIMITS = {
    "graydawn/full_auto_30.toml": 250,
    "graydawn/suppress_andre.toml": 200,
    "dragonwarriors2/aggressive_parry.toml": 150,
    "dragonwarriors2/knight_vs_squire.toml": 100,
}


def odds_limit(rel: str) -> int:
    """The limit of one example's exact odds (ms): its documented one, else 20."""
    return next((ms for name, ms in ODDS_LIMITS.items() if rel.endswith(name)), 20)


def odds_verdict(rows: list[tuple[str, float]]) -> str:
    """How many examples are under 20 ms and how many within their limits, naming any over."""
    under = sum(ms < 20 for _, ms in rows)
    over = [f"`{rel}` {ms:.1f} ms" for rel, ms in rows if ms > odds_limit(rel)]
    within = f"{len(rows) - len(over)} of {len(rows)} within their limits"
    return f"{under} of {len(rows)} under 20 ms; {within}" + (
        f" (over: {', '.join(over)})" if over else ""
    )


def odds_rows(runs: int, only: list[str] | None = None) -> list[tuple[str, float]]:
    """CPU ms of each example's exact odds (median of ``runs`` processes); ``only``: the
    examples whose path contains one of these texts."""
    rows = []
    for path in sorted((ROOT / "examples").glob("*/*.toml")):
        rel = path.relative_to(ROOT)
        if only and not any(text in str(rel) for text in only):
            continue
        times = []
        for _ in range(runs):
            out = subprocess.run(
                [sys.executable, "-c", ODDS, path.parent.name, str(path)],
                capture_output=True,
                text=True,
                env=ENV,
                check=True,
            )
            times.append(float(out.stdout.split()[-1]))
        rows.append((str(rel), statistics.median(times)))
        print(f"{rel}: {rows[-1][1]:.1f} ms")
    return rows


def sampling_rates(n: int) -> tuple[float, float, float]:
    """Draws per second: firefight's sample, a plain numpy kernel, a plain-Python loop."""
    from firefight.dice import sample

    rng = np.random.default_rng(1)

    def kernel() -> np.ndarray:
        a = rng.integers(1, 21, size=n, dtype=np.int8)
        a += rng.integers(1, 21, size=n, dtype=np.int8)
        a -= rng.integers(1, 21, size=n, dtype=np.int8)
        a -= rng.integers(1, 21, size=n, dtype=np.int8)
        return np.abs(a, out=a)

    def loop(m: int) -> list[int]:
        r = random.randint
        return [abs(r(1, 20) + r(1, 20) - r(1, 20) - r(1, 20)) for _ in range(m)]

    ours = [lambda: sample("abs(2d20-2d20)", n, rng), kernel]
    best = [float("inf"), float("inf")]
    for _ in range(9):  # interleaved, so a burst of load hits both alike
        for i, fn in enumerate(ours):
            start = time.process_time()
            fn()
            best[i] = min(best[i], time.process_time() - start)
    ff, np_rate = n / best[0], n / best[1]
    m = n // 20
    slow = float("inf")
    for _ in range(3):
        start = time.process_time()
        loop(m)
        slow = min(slow, time.process_time() - start)
    py = m / slow
    print(
        f"sampling: firefight {ff / 1e6:.1f} M/s, numpy {np_rate / 1e6:.1f} M/s, "
        f"python {py / 1e6:.3f} M/s"
    )
    return ff, np_rate, py


def attack_rates(n: int) -> tuple[float, float, float]:
    """Whole attacks per second (warfare2d20 AK-47 ambush, first target): firefight's alias
    sampler, the same alias arithmetic as one plain numpy pass, and the rule as a plain-Python
    loop (``bench_warfare2d20.plain_attack``)."""
    from bench_warfare2d20 import load, plain_attack

    from firefight.core.sampling import AliasTable
    from firefight.rulesets.warfare2d20.odds import target_odds

    table = AliasTable.build(target_odds(load(), 0))  # type: ignore[arg-type]
    k, prob, alias = len(table.outcomes), table.prob, table.alias
    rng = np.random.default_rng(2)

    def kernel() -> np.ndarray:
        u = rng.random(n) * k
        column = u.astype(np.intp)
        np.minimum(column, k - 1, out=column)
        u -= column
        return np.where(u < prob[column], column, alias[column])

    ours = [lambda: table.sample(n, rng), kernel]
    best = [float("inf"), float("inf")]
    for _ in range(7):
        for i, fn in enumerate(ours):
            start = time.process_time()
            fn()
            best[i] = min(best[i], time.process_time() - start)
    prng = random.Random(1)
    m = 100_000
    start = time.process_time()
    for _ in range(m):
        plain_attack(prng)
    py = m / (time.process_time() - start)
    ff, np_rate = n / best[0], n / best[1]
    print(
        f"attacks: firefight {ff / 1e6:.1f} M/s, numpy {np_rate / 1e6:.1f} M/s, python {py:,.0f}/s"
    )
    return ff, np_rate, py


def render(data: dict[str, object], args: argparse.Namespace) -> str:
    keep = data["keep"]
    abc = data["abc"]
    first, ff200, ip200 = data["big"]  # type: ignore[misc]
    st: dict[str, tuple[float, float]] = data["startup"]  # type: ignore[assignment]
    odds: list[tuple[str, float]] = data["odds"]  # type: ignore[assignment]
    ff_rate, np_rate, py_rate = data["sampling"]  # type: ignore[misc]
    a_ff, a_np, a_py = data["attacks"]  # type: ignore[misc]
    lines = [
        SECTION,
        "",
        "Written by `python benchmarks/bench_speed.py`; one run on "
        f"{platform.machine()} / Python {platform.python_version()} / numpy {np.__version__}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end of the run "
        "(other jobs may share the cores, so every time is the CPU time the process "
        "itself spent, `time.process_time()` or the children's user + sys time; wall times of "
        "whole processes are shown beside, and are what a loaded machine gives). A *fresh "
        "query* is the first time a process asks it, timed after the tool's imports, one "
        "unrelated warm-up query and `gc.freeze()` (so no query pays, or skips, a collection "
        "by where the imports left the collector's counter); medians of "
        f"{args.runs} processes per figure. Every exact "
        "answer is checked identical (the same Fractions) in both tools first.",
        "",
        "### Keep-highest, fresh queries (goal >= 10x icepool)",
        "",
        "`python benchmarks/bench_speed.py` (keep rows)",
        "",
        "| query | firefight | icepool | ratio |",
        "|---|---:|---:|---:|",
    ]
    for name, ff, ip in keep:  # type: ignore[attr-defined]
        lines.append(f"| `{name}` | {ff:.0f} µs | {ip:.0f} µs | {ip / ff:.1f}x |")
    lines += [
        "",
        "### Reference queries A, B, C, fresh (goal >= 50x icepool)",
        "",
        "| query | firefight | icepool | ratio |",
        "|---|---:|---:|---:|",
    ]
    for name, ff, ip in abc:  # type: ignore[attr-defined]
        lines.append(f"| {name} | {ff:.0f} µs | {ip:.0f} µs | {ip / ff:.1f}x |")
    lines += [
        "",
        "*A floor* is query A's own loop filling the 121 cells from a ready dict of the 21 "
        "Fractions, in a fresh process after the same imports and warm-up: the time of a tool "
        "that did no dice work at all. Its ratio is the most any tool could reach on query A "
        f"as the benchmark writes it: {floor_ratio(abc):.0f}x here, against the 50x goal.",
    ]
    lines += [
        "",
        "### Big pools",
        "",
        "- `1000d6` exact, fresh query (`exact('1000d6').cdf(3500)`): "
        f"**{statistics.median(first) / 1e3:.1f} ms**, one pass of an exact recurrence for the "
        "power (python-flint is not imported; goal < 50 ms; icepool is not run here, it takes "
        "~13 s).",
        f"- `200d20` exact, fresh query: firefight **{ff200 / 1e3:.1f} ms**, icepool "
        f"{ip200 / 1e3:.0f} ms: **{ip200 / ff200:.0f}x** (goal >= 100x).",
        "- Keep pools are refused past an estimated 5 s (`dice.limits.keep_seconds`, a model "
        "fitted to timed pools); the model against the clock (`keep_sum`, best of 3 CPU): "
        + "; ".join(
            f"`{pool}` {est * 1e3:.0f} ms estimated, {got * 1e3:.0f} ms measured"
            for pool, est, got in data["keep_model"]  # type: ignore[attr-defined]
        )
        + ".",
        "",
        *startup_table(st, args.startup_runs),
        "",
        f'First answer: `python -c "{FIRST_FF}"` against `python -c "{FIRST_IP}"`.',
        "",
        "### Exact odds of every shipped example, after imports (goal < 20 ms, except where "
        "the rules docs say why: " + ", ".join(f"{k} <= {v} ms" for k, v in ODDS_LIMITS.items()) + ")",
        "",
        f"`ruleset.odds(situation)` in a fresh process, median of {args.odds_runs}:",
        "",
        "| example | odds | limit |",
        "|---|---:|---:|",
    ]
    for rel, ms in odds:
        lines.append(f"| `{rel}` | {ms:.1f} ms | {odds_limit(rel)} ms |")
    lines += [
        "",
        odds_verdict(odds) + ".",
        "",
        "### Bulk sampling of `abs(2d20-2d20)`",
        "",
        f"`sample('abs(2d20-2d20)', {args.sample_n})`: **{ff_rate / 1e6:.1f} M draws/s**; a plain "
        f"numpy kernel of the same sums (four int8 columns, in place) {np_rate / 1e6:.1f} M/s "
        f"({ff_rate / np_rate:.0%} of it, goal >= 50%); a plain-Python `random.randint` loop "
        f"{py_rate / 1e6:.3f} M/s ({ff_rate / py_rate:.0f}x, goal >= 100x).",
        "",
        "### Bulk sampling of a whole attack",
        "",
        f"warfare2d20 AK-47 ambush (first target), {args.sample_n} attacks read by index from "
        f"the exact outcomes (`AliasTable.sample`): **{a_ff / 1e6:.1f} M attacks/s**; the same "
        f"alias arithmetic as one plain numpy pass {a_np / 1e6:.1f} M/s ({a_ff / a_np:.0%} of "
        f"it, goal >= 50%); the rule as a plain-Python loop (`bench_warfare2d20.plain_attack`) "
        f"{a_py:,.0f}/s ({a_ff / a_py:.0f}x, goal >= 100x).",
        "",
    ]
    return "\n".join(lines)


def startup_table(st: dict[str, tuple[float, float]], runs: int) -> list[str]:
    """The whole-process rows, each command's CPU time beside its goal's ratio."""
    lines = [
        f"### Whole processes (median of {runs})",
        "",
        "| command | CPU (user + sys) | wall | ratio of CPU times |",
        "|---|---:|---:|---:|",
    ]
    base_pass, base_np = st["python -c pass"][0], st['python -c "import numpy"'][0]
    goals = {
        "firefight --help": ("python -c pass", base_pass, 4.0),
        "firefight roll 2d20 --seed 1": ("import numpy", base_np, 1.5),
        "firefight odds warfare2d20 examples/warfare2d20/b_ak47_ambush.toml": (
            "import numpy",
            base_np,
            2.5,
        ),
        "first answer, firefight": ("icepool's", st["first answer, icepool"][0], 1.0),
    }
    for cmd, (cpu, wall) in st.items():
        ratio = ""
        if cmd in goals:
            ref, base, goal = goals[cmd]
            ratio = f"{cpu / base:.2f}x {ref} (goal <= {goal:g}x)"
        lines.append(f"| `{cmd}` | {cpu:.0f} ms | {wall:.0f} ms | {ratio} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="processes per fresh query")
    parser.add_argument("--startup-runs", type=int, default=15, help="runs per command")
    parser.add_argument("--odds-runs", type=int, default=3, help="processes per example")
    parser.add_argument("--sample-n", type=int, default=4_000_000, help="draws per sample")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument(
        "--only",
        choices=["startup", "keep", "abc", "big", "odds"],
        help="run one part and print it (never writes): startup = the whole-process rows, "
        "keep = keep-highest, abc = queries A B C, big = 1000d6 and 200d20, "
        "odds = the examples' exact odds",
    )
    parser.add_argument(
        "--example",
        action="append",
        metavar="TEXT",
        help="with --only odds: only the examples whose path contains TEXT (repeatable)",
    )
    args = parser.parse_args()
    if args.only == "startup":
        print("\n".join(startup_table(startup_rows(args.startup_runs), args.startup_runs)))
        return
    if args.only == "odds":
        rows = odds_rows(args.odds_runs, args.example)
        print(f"{odds_verdict(rows)} (load average {os.getloadavg()[0]:.1f})")
        return
    if args.only is not None:  # the part prints its own rows as it runs
        if args.only == "big":
            keep_model_rows()
        {"keep": keep_rows, "abc": abc_rows, "big": big_rows}[args.only](args.runs)
        return
    data: dict[str, object] = {
        "sampling": sampling_rates(args.sample_n),
        "attacks": attack_rates(args.sample_n),
        "keep": keep_rows(args.runs),
        "abc": abc_rows(args.runs),
        "big": big_rows(args.runs),
        "keep_model": keep_model_rows(),
        "startup": startup_rows(args.startup_runs),
        "odds": odds_rows(args.odds_runs),
    }
    text = render(data, args)
    if args.no_write:
        print(text)
    else:
        write_section(text, SECTION)
        print(f"wrote {(ROOT / 'docs' / 'performance.md').relative_to(ROOT)}")


if __name__ == "__main__":
    main()
