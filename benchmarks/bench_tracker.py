"""The web tracker (issue 17): server time of a step plus the refreshed odds preview for every
example encounter, and how fast 20 connected players' pages all receive an update.

The first figure is CPU time inside the tracker (``Tracker.act`` then ``Tracker.actions``, the
database write included), per step, over the first steps of each example played on seeded dice
by the first legal action; the worst step of each example is reported. Each example runs in a
child process, cut off after ``--cap`` seconds (a few graydawn previews run for minutes). The
second starts a real ``firefight serve`` process, connects 20 players' event streams, and times
from the GM's POST to the moment every page has fetched its refreshed view.

Writes its section of docs/performance.md (``--no-write`` only prints; ``--only TEXT``
(repeatable) times only the example encounters whose name contains TEXT, e.g. ``warfare2d20/``,
skips the fan-out test, prints the load average and never writes).
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from firefight.web.store import Store
from firefight.web.tracker import Tracker

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from perfdoc import write_table
from tests.web.serving import Server

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
SECTION = "## The web tracker (issue 17)"


def step_times(example: str, steps: int, folder: Path) -> list[float]:
    """CPU seconds of act + refreshed previews, per step, on a fresh tracker (cold caches)."""
    tracker = Tracker(Store(f"sqlite:///{folder / (example.replace('/', '_') + '.db')}"), EX)
    gc.freeze()  # as `firefight serve` does once its app is built
    made = tracker.create(example=example, seed=1)
    tracker.actions(made.id)  # the start's previews, as the page asks them
    out = []
    for n in range(steps):
        first = tracker.actions(made.id, odds=False)
        if not first:
            break
        t = time.process_time()
        tracker.act(made.id, first[0]["id"], seed=n, version=n + 1)
        tracker.actions(made.id)
        out.append(time.process_time() - t)
    tracker.store.close()
    return out


def timed_out(
    fn: Callable[..., list[float]], args: tuple[Any, ...], cap: int
) -> list[float] | None:
    """``fn(*args)`` in a child process, or None when it takes more than ``cap`` seconds."""
    with multiprocessing.get_context("fork").Pool(1) as pool:
        pending = pool.apply_async(fn, args)
        try:
            return pending.get(timeout=cap)
        except multiprocessing.TimeoutError:
            pool.terminate()
            return None


def fan_out(players: int, rounds: int, folder: Path) -> list[float]:
    """Seconds from the GM's POST until all ``players`` pages fetched their new view."""
    server = Server(folder / "fan.db")
    try:
        made = httpx.post(
            server.url + "/api/encounters", json={"example": "quality_d100/caravan", "seed": 1}
        ).json()
        base = f"{server.url}/api/encounters/{made['id']}"
        gm = {"Authorization": f"Bearer {made['gm_token']}"}
        pl = {"Authorization": f"Bearer {made['player_token']}"}
        seen: dict[int, list[float]] = {}
        lock = threading.Lock()
        ready = threading.Barrier(players + 1)

        def page() -> None:
            with (
                httpx.Client(timeout=60) as client,
                client.stream("GET", base + "/events", params={"token": made["player_token"]}) as r,
            ):
                lines = r.iter_lines()
                next(lines)  # the version at connection
                ready.wait()
                for line in lines:
                    if line.startswith("data: "):
                        version = int(line[6:])
                        client.get(base + "/player", headers=pl).raise_for_status()
                        with lock:
                            seen.setdefault(version, []).append(time.perf_counter())
                        if version >= rounds + 1:
                            return

        threads = [threading.Thread(target=page, daemon=True) for _ in range(players)]
        for t in threads:
            t.start()
        ready.wait(timeout=60)
        out = []
        for n in range(rounds):
            action = httpx.get(base + "/actions", params={"odds": "false"}, headers=gm).json()
            start = time.perf_counter()
            version = n + 2
            body = {"action": action[0]["id"], "seed": n, "version": version - 1}
            httpx.post(base + "/act", json=body, headers=gm).raise_for_status()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                with lock:
                    if len(seen.get(version, [])) == players:
                        break
                time.sleep(0.002)
            with lock:
                assert len(seen.get(version, [])) == players, "not every page was updated"
                out.append(max(seen[version]) - start)
        for t in threads:
            t.join(timeout=30)
        return out
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--steps", type=int, default=5, help="steps timed per example")
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument(
        "--cap",
        type=int,
        default=400,
        help="seconds an example may take before it is cut off (graydawn's suppression_panic "
        "takes about 190, its fifth step's 33 exact previews of suppressing fire, so the "
        "default measures it rather than cutting it off)",
    )
    parser.add_argument("--rounds", type=int, default=5, help="GM steps in the fan-out test")
    parser.add_argument(
        "--only",
        action="append",
        metavar="TEXT",
        help="time only the examples whose name contains TEXT (repeatable, e.g. graydawn/); "
        "skips the fan-out test and only prints",
    )
    args = parser.parse_args()
    rows: list[tuple[str, str, str, str]] = []
    examples = sorted(f"{p.parent.parent.name}/{p.stem}" for p in EX.glob("*/encounters/*.toml"))
    if args.only:
        examples = [e for e in examples if any(text in e for text in args.only)]
        if not examples:
            parser.error(f"no example encounter matches --only {' '.join(args.only)}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        worst: dict[str, float] = {}
        for example in examples:
            times = timed_out(step_times, (example, args.steps, folder), args.cap)
            if times is None:
                worst[example] = float(args.cap)
                print(f"{example}: not finished in {args.cap} s", flush=True)
                continue
            worst[example] = max(times) if times else 0.0
            print(
                f"{example}: worst {1000 * worst[example]:.1f} ms, median "
                f"{1000 * statistics.median(times or [0]):.1f} ms over {len(times)} steps",
                flush=True,
            )
        over = {k: v for k, v in worst.items() if v >= 0.1}
        met = len(worst) - len(over)
        slow = "; ".join(
            f"{k} {'over ' if v >= args.cap else ''}{1000 * v:,.0f} ms"
            for k, v in sorted(over.items())
        )
        rows.append(
            (
                f"act plus the refreshed odds preview, server CPU time, worst of the first "
                f"{args.steps} steps of each of the {len(worst)} example encounters",
                "< 100 ms each",
                f"{met} of {len(worst)} under 100 ms (median of the worst steps "
                f"{1000 * statistics.median(worst.values()):.0f} ms)"
                + (f"; over: {slow}" if slow else ""),
                "Tracker.act(...); Tracker.actions(...)",
            )
        )
        if args.only:  # a part of the examples: no fan-out, no table written
            print(f"load average {os.getloadavg()[0]:.1f}")
        else:
            fans = fan_out(args.players, args.rounds, folder)
            rows.append(
                (
                    f"{args.players} players' pages on one encounter (a real server process): from "
                    "the GM's POST until every page fetched its new view",
                    "< 1 s",
                    f"worst {1000 * max(fans):.0f} ms, median "
                    f"{1000 * statistics.median(fans):.0f} ms over {len(fans)} steps",
                    "firefight serve; 20 x GET .../events",
                )
            )
    for what, goal, measured, _ in rows:
        print(f"{what}: {measured} (goal {goal})")
    if not args.no_write and not args.only:
        import fastapi

        write_table(SECTION, "bench_tracker.py", f"FastAPI {fastapi.__version__}", rows)


if __name__ == "__main__":
    main()
