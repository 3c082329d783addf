"""The web tracker: a step and the first answers of its list of choices, win chances per
action, how fast 20 connected players' pages all receive an update, and the server time of each
"what next" answer when the table's dice are asked for roll by roll. Goals: a step plus every
action's first answer under 1 s of server CPU; each action's win chance exact or within +-2
points (95%) in under 2 s; every player's page updated within 1 s; each "what next" answer
under 50 ms.

The first figure is server CPU per step over the first steps of each example played on seeded
dice by the first legal action: the step (``Tracker.act``, the database write included, on its
request's thread) plus the first answers of every action's odds on the odds thread
(``Tracker.choices``: exact where they finish in their share of the budget, else estimated),
as the tracker reports them in ``progress.cpu``; the worst step of each example is reported,
with how many of the actions' first answers were exact. Each example runs in a child process,
cut off after ``--cap`` seconds.

The second gives each action of the same states, in the tracker's order and with its caches, its
win chance alone (``choices.WinWork``): the CPU until it is exact (the chain) or its 95%
interval is within +-2 points, cut off at ``--win-cap`` seconds an action.

The third starts a real ``firefight serve`` process, connects 20 players' event streams, and
times from the GM's POST to the moment every page has fetched its refreshed view.

The fourth is CPU time inside the tracker of ``Tracker.dice`` (POST .../dice, the version read
from the database included): for every legal action of each of the first steps of each example,
the dice dialog played group by group on the faces seeded dice give that action, every answer
timed, from the first question to "complete".

Writes its sections of docs/performance.md (``--no-write`` only prints; ``--only TEXT``
(repeatable) times only the example encounters whose name contains TEXT, e.g. ``warfare2d20/``,
skips the fan-out test, prints the load average and never writes; ``--no-win`` skips the win
chances; ``--dice-only`` runs the fourth part alone and writes its section only).
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

from firefight.analysis.budget import cpu, limited
from firefight.analysis.choices import SLICE, WIN_CLOSE, Evaluation, Shared
from firefight.dice import SeededDice
from firefight.encounter import Encounter, Engine, read_scenario
from firefight.web.store import Store
from firefight.web.tracker import Tracker

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from perfdoc import write_table
from tests.web.serving import Server

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
SECTION = "## The web tracker"
DICE_SECTION = "## The table's dice, roll by roll"


def step_times(example: str, steps: int, folder: Path) -> list[tuple[float, int, int]]:
    """Per step: server CPU of the step plus its list's first answers, the actions, and how
    many of their first answers were exact (a fresh tracker: cold caches)."""
    tracker = Tracker(Store(f"sqlite:///{folder / (example.replace('/', '_') + '.db')}"), EX)
    gc.freeze()  # as `firefight serve` does once its app is built
    made = tracker.create(example=example, seed=1)
    tracker.choices(made.id)  # the start's list, as the page asks it
    out = []
    for n in range(steps):
        first = tracker.actions(made.id, odds=False)
        if not first:
            break
        tracker.act(made.id, first[0]["id"], seed=n, version=n + 1)
        listed = tracker.choices(made.id)
        if not listed["actions"]:  # the fight is over: the step alone
            out.append((listed["progress"]["cpu"]["step"], 0, 0))
            break
        spent = listed["progress"]["cpu"]
        out.append(
            (
                spent["step"] + spent["first_answers"],
                len(listed["actions"]),
                listed["progress"].get("exact", 0),
            )
        )
    tracker.odds_worker.close()
    tracker.store.close()
    return out


def win_times(example: str, steps: int, cap: float) -> list[tuple[float, bool]]:
    """Per action of the first ``steps`` states (as ``step_times`` plays them): CPU until its
    win chance is exact or within +-2 points, at most ``cap``, and whether it got there."""
    ruleset, name = example.split("/")
    engine = Engine(read_scenario(EX / ruleset / "encounters" / f"{name}.toml"))
    enc = Encounter.begin(engine, SeededDice(1))
    shared = Shared(engine)
    out = []
    for n in range(steps + 1):
        if enc.state.ending is not None:
            break
        if n:  # the start's list, then each step's
            evaluation = Evaluation(
                engine, enc.state, odds=False, risk=False, win=True, ceiling=cap, shared=shared
            )
            for choice in evaluation.choices:
                work = choice.win
                assert work is not None
                start = cpu()
                with limited(None):
                    work.first(SLICE)
                    while not work.final:
                        work.refine()
                close = work.exact or (work.runs > 0 and work.half_width() <= WIN_CLOSE)
                out.append((cpu() - start, close))
        if n < steps:
            enc.act(engine.legal_actions(enc.state)[0].id, SeededDice(n))
    return out


#: One timed "what next" answer: the example, the step, the action, the answer's number in
#: its dialog, and its CPU seconds.
Answer = tuple[str, int, str, int, float]


def dice_times(example: str, steps: int, folder: Path) -> list[Answer]:
    """CPU seconds of every "what next" answer (``Tracker.dice``) of every legal action of the
    first ``steps`` steps, each dialog answered group by group with seeded faces; the steps
    themselves are played by the first legal action on seeded dice, as ``step_times`` does."""
    db = folder / (example.replace("/", "_") + "-dice.db")
    tracker = Tracker(Store(f"sqlite:///{db}"), EX)
    gc.freeze()
    made = tracker.create(example=example, seed=1)
    out: list[Answer] = []
    for n in range(steps):
        listed = tracker.actions(made.id, odds=False)
        if not listed:
            break
        enc = Encounter.from_json(tracker.record(made.id), "record")
        for row in listed:
            tape = list(enc.trial(row["id"], SeededDice(100 + n)).faces)
            faces: list[int] = []
            for asked in range(1, 1000):
                t = time.process_time()
                got = tracker.dice(made.id, row["id"], faces, version=n + 1)
                out.append((example, n + 1, row["id"], asked, time.process_time() - t))
                if got["complete"]:
                    break
                faces = tape[: len(faces) + got["next"]["count"]]
        tracker.act(made.id, listed[0]["id"], seed=n, version=n + 1)
    tracker.store.close()
    return out


def dice_row(answers: list[Answer], examples: int, steps: int) -> tuple[str, str, str, str]:
    """The table row of the "what next" answers: how many, how many under 50 ms, the median,
    the 95th percentile and the slowest, each slow one named."""
    times = sorted(a[-1] for a in answers)
    over = [a for a in answers if a[-1] >= 0.05]
    worst = max(answers, key=lambda a: a[-1])
    slow = "; ".join(
        f"{e} step {s} {act} answer {k}: {1000 * t:.0f} ms"
        for e, s, act, k, t in sorted(over, key=lambda a: -a[-1])[:5]
    )
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return (
        f'each "what next" answer (POST .../dice), server CPU time, for every action of the '
        f"first {steps} steps of each of the {examples} example encounters, the dialog answered "
        "group by group",
        "< 50 ms each",
        f"{len(answers) - len(over):,} of {len(answers):,} answers under 50 ms; median "
        f"{1000 * statistics.median(times):.1f} ms, 95th percentile {1000 * p95:.1f} ms, worst "
        f"{1000 * worst[-1]:.1f} ms ({worst[0]} step {worst[1]} {worst[2]})"
        + (f"; over: {slow}" if slow else ""),
        "Tracker.dice(...)",
    )


def timed_out(fn: Callable[..., list[Any]], args: tuple[Any, ...], cap: int) -> list[Any] | None:
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
        "--cap", type=int, default=400, help="seconds an example may take before it is cut off"
    )
    parser.add_argument(
        "--win-cap",
        type=float,
        default=4.0,
        help="CPU seconds an action's win chance may take (the goal is 2)",
    )
    parser.add_argument("--no-win", action="store_true", help="skip the win chances")
    parser.add_argument("--rounds", type=int, default=5, help="GM steps in the fan-out test")
    parser.add_argument(
        "--only",
        action="append",
        metavar="TEXT",
        help="time only the examples whose name contains TEXT (repeatable, e.g. graydawn/); "
        "skips the fan-out test and only prints",
    )
    parser.add_argument(
        "--dice-only",
        action="store_true",
        help='time only the "what next" answers of the table\'s dice (writes their section)',
    )
    args = parser.parse_args()
    rows: list[tuple[str, str, str, str]] = []
    examples = sorted(f"{p.parent.parent.name}/{p.stem}" for p in EX.glob("*/encounters/*.toml"))
    if args.only:
        examples = [e for e in examples if any(text in e for text in args.only)]
        if not examples:
            parser.error(f"no example encounter matches --only {' '.join(args.only)}")
    with tempfile.TemporaryDirectory() as tmp:
        dice = dice_answers(examples, args.steps, args.cap, Path(tmp))
    print(f"{dice[0]}: {dice[2]} (goal {dice[1]})")
    if not args.no_write and not args.only:
        import fastapi

        write_table(DICE_SECTION, "bench_tracker.py", f"FastAPI {fastapi.__version__}", [dice])
    if args.dice_only:
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows.append(_first_answers(examples, args, folder))
        if not args.no_win:
            rows.append(_win_chances(examples, args))
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


def _first_answers(
    examples: list[str], args: argparse.Namespace, folder: Path
) -> tuple[str, str, str, str]:
    """The row of a step plus its list's first answers, worst step of each example."""
    worst: dict[str, float] = {}
    exact = actions = 0
    for example in examples:
        times = timed_out(step_times, (example, args.steps, folder), args.cap)
        if times is None:
            worst[example] = float(args.cap)
            print(f"{example}: not finished in {args.cap} s", flush=True)
            continue
        worst[example] = max((t for t, _, _ in times), default=0.0)
        actions += sum(n for _, n, _ in times)
        exact += sum(k for _, _, k in times)
        print(
            f"{example}: worst {1000 * worst[example]:.0f} ms over {len(times)} steps; first "
            f"answers exact for {sum(k for _, _, k in times)} of {sum(n for _, n, _ in times)}",
            flush=True,
        )
    over = {k: v for k, v in worst.items() if v >= 1.0}
    slow = "; ".join(f"{k} {1000 * v:,.0f} ms" for k, v in sorted(over.items()))
    top = max(worst, key=worst.__getitem__)
    return (
        f"a step plus every action's first answer (exact or estimated), server CPU time, worst "
        f"of the first {args.steps} steps of each of the {len(worst)} example encounters",
        "< 1 s each",
        f"{len(worst) - len(over)} of {len(worst)} under 1 s (the worst: {top} "
        f"{1000 * worst[top]:,.0f} ms; median of the worst steps "
        f"{1000 * statistics.median(worst.values()):.0f} ms); first answers exact for {exact} "
        f"of {actions} actions" + (f"; over: {slow}" if slow else ""),
        "Tracker.act(...); Tracker.choices(...)",
    )


def _win_chances(examples: list[str], args: argparse.Namespace) -> tuple[str, str, str, str]:
    """The row of each action's win chance: CPU to exact or +-2 points."""
    met = total = 0
    missed: list[str] = []
    for example in examples:
        found = timed_out(win_times, (example, args.steps, args.win_cap), args.cap)
        if found is None:
            print(f"{example}: win chances not finished in {args.cap} s", flush=True)
            missed.append(f"{example} (cut off)")
            continue
        good = sum(close and spent < 2.0 for spent, close in found)
        met += good
        total += len(found)
        worst = max((spent for spent, _ in found), default=0.0)
        print(
            f"{example}: win chances of {len(found)} actions, {good} within 2 points (or "
            f"exact) in 2 s; the slowest {worst:.2f} s",
            flush=True,
        )
        if good < len(found):
            missed.append(f"{example} {good} of {len(found)}")
    return (
        f"each action's win chance within +-2 points (95%) or exact, CPU per action, every "
        f"action of the first {args.steps} steps of each example",
        "< 2 s each",
        f"{met} of {total} actions" + (f"; short of it: {'; '.join(missed)}" if missed else ""),
        "choices.WinWork(...) to exact or +-2 points",
    )


def dice_answers(
    examples: list[str], steps: int, cap: int, folder: Path
) -> tuple[str, str, str, str]:
    """Every example's "what next" answers (each in a child process, cut off after ``cap``
    seconds), as the table row."""
    answers: list[Answer] = []
    for example in examples:
        found = timed_out(dice_times, (example, steps, folder), cap)
        if found is None:
            print(f"{example}: the dice answers did not finish in {cap} s", flush=True)
            continue
        times = [a[-1] for a in found]
        print(
            f"{example}: {len(times)} answers, worst {1000 * max(times):.1f} ms, median "
            f"{1000 * statistics.median(times):.1f} ms",
            flush=True,
        )
        answers.extend(found)
    return dice_row(answers, len(examples), steps)


if __name__ == "__main__":
    main()
