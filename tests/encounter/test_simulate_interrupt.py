"""Ctrl-C stops `simulate` cleanly and reports what was done (``"interrupted": true``).

KeyboardInterrupt is raised deterministically, by a function the loop calls raising it at its
k-th call, except in the last test, which sends SIGINT to a real multi-process run.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import firefight.analysis.exact as exact_module
import firefight.analysis.fast as fast
import firefight.analysis.reference as reference_module
from firefight.analysis.report import Tally
from firefight.analysis.simulate import simulate
from firefight.encounter import Engine, read_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = EXAMPLES / "warfare2d20" / "encounters" / "duel.toml"
#: Keys only an interrupted report has, and ``n`` (the fights done there, asked otherwise).
PARTIAL_KEYS = ("n", "interrupted", "fights_done", "fights_asked")


def _engine(path: Path) -> Engine:
    return Engine(read_scenario(path))


def _raising_at(calls: int, inner: Callable[..., Any]) -> Callable[..., Any]:
    """``inner``, but its ``calls``-th call raises KeyboardInterrupt (Ctrl-C arriving there)."""
    seen = [0]

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        seen[0] += 1
        if seen[0] == calls:
            raise KeyboardInterrupt
        return inner(*args, **kwargs)

    return wrapped


def _whole_fights_only(tally: Tally) -> None:
    """Every fight counted ended: a lane still fighting would count in ``total`` (as a draw)
    without an ending round or a truncation."""
    ended = sum(tally.ended_at.values()) + tally.truncated
    assert ended == tally.total
    assert all(v <= tally.total for v in tally.out.values())


def _without(report: dict[str, Any], keys: tuple[str, ...] = PARTIAL_KEYS) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in keys}


# ------------------------------------------------------------------------------ reference


def test_reference_keeps_the_whole_fights_done(toy_scenario, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Ctrl-C in the middle of a fight: the report is that of the fights finished before it,
    exactly the report of a run asked for that many (fight i is seeded by (seed, i)); the
    fight being played adds nothing (its harm dealt and falls included)."""
    path = toy_scenario(ann_hp=3, bob_hp=3, extra="initiative = true")
    done: list[int] = []
    with monkeypatch.context() as patch:
        patch.setattr(reference_module, "harm_dealt", _raising_at(400, reference_module.harm_dealt))
        cut = simulate(_engine(path), 1_000, 7, reference=True, progress=done.append)
    assert cut.interrupted and cut.tally.interrupted
    assert done and 0 < done[-1] < 1_000
    report = cut.to_json("s")
    assert report["interrupted"] is True
    assert report["n"] == report["fights_done"] == done[-1] == cut.tally.total
    assert report["fights_asked"] == 1_000
    whole = simulate(_engine(path), done[-1], 7, reference=True).to_json("s")
    assert "interrupted" not in whole
    assert _without(report) == _without(whole)


# ---------------------------------------------------------------------------------- exact


def test_exact_chain_stopped_says_so(toy_scenario, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Ctrl-C during a pass of the chain: the whole passes done are reported, the mass still
    in play is ``mass_left``, and the report says interrupted (it claimed a finished chain).
    It is the report of the chain cut at that many passes (``MAX_STEPS``): the pass Ctrl-C
    came in adds nothing."""
    path = toy_scenario(ann_hp=3, bob_hp=3)
    passes: list[int] = []
    with monkeypatch.context() as patch:
        # a state's moves are worked out once, when a pass first meets it: the 50th such
        # state is met in pass 9 (this toy duel meets 1, 2, 4, 6, 9, 9, 9, 9, 9 in its passes)
        patch.setattr(exact_module, "_moves", _raising_at(50, exact_module._moves))
        cut = simulate(_engine(path), None, None, exact=True, progress=passes.append)
    assert cut.interrupted and len(passes) == 8
    report = cut.to_json("s")
    assert report["interrupted"] is True and report["n"] is None
    assert "fights_done" not in report
    assert 0 < report["mass_left"] < 1
    ended = sum(s["win"]["p"] for s in report["sides"].values())
    ended += report["draw"]["p"] + report["truncated"]["p"]
    assert ended + report["mass_left"] == pytest.approx(1)
    monkeypatch.setattr(exact_module, "MAX_STEPS", 8)
    eight = simulate(_engine(path), None, None, exact=True)
    assert not eight.interrupted
    assert _without(report, ("interrupted",)) == eight.to_json("s")


def test_exact_stopped_before_its_first_pass(toy_scenario, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Ctrl-C while round 1's start is listed: nothing absorbed, all of it still in play."""
    monkeypatch.setattr(
        exact_module, "enumerate_outcomes", _raising_at(1, exact_module.enumerate_outcomes)
    )
    cut = simulate(_engine(toy_scenario()), None, None, exact=True)
    report = cut.to_json("s")
    assert cut.interrupted and report["interrupted"] is True
    assert report["mass_left"] == 1.0


# ----------------------------------------------------------------------- fast, one process


def test_fast_path_keeps_the_fights_over_in_the_chunk_cut(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """One process, one chunk: the bar moves pass by pass (it moved once, at the chunk's
    end), and Ctrl-C in the 6th pass keeps the fights over after the 5 before it (the chunk
    was lost whole: 15 s of a graydawn fire team reported 0 fights)."""
    passes: list[int] = []
    full = simulate(_engine(DUEL), 5_000, 3, workers=1, progress=passes.append)
    assert not full.interrupted and full.tally.total == 5_000
    assert len(passes) > 6 and passes == sorted(passes) and passes[-1] == 5_000
    done: list[int] = []
    with monkeypatch.context() as patch:
        patch.setattr(fast, "_step", _raising_at(6, fast._step))
        cut = simulate(_engine(DUEL), 5_000, 3, workers=1, progress=done.append)
    assert cut.interrupted
    # the same passes as the whole run's, up to the cut
    assert done and done == passes[: len(done)]
    report = cut.to_json("s")
    assert report["interrupted"] is True and report["fights_asked"] == 5_000
    assert 0 < report["n"] == report["fights_done"] == done[-1] == cut.tally.total < 5_000
    _whole_fights_only(cut.tally)


def test_fast_path_keeps_the_fights_played_out(toy_scenario, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A chunk playing its lanes out one by one (a big fight's fallback): the bar moves fight
    by fight, and Ctrl-C in the middle of one keeps the fights before it, not that one."""
    monkeypatch.setattr(fast, "SOLO_FROM", 0.0)  # every chunk plays out after its first pass
    path = toy_scenario(ann_hp=3, bob_hp=3, red="random")
    inner = fast._play_out

    def play_out(*args: Any) -> None:  # Ctrl-C at the 300th step played out
        monkeypatch.setattr(fast, "harm_dealt", _raising_at(300, fast.harm_dealt))
        inner(*args)

    monkeypatch.setattr(fast, "_play_out", play_out)
    done: list[int] = []
    cut = simulate(_engine(path), 2_000, 5, workers=1, progress=done.append)
    assert cut.interrupted
    steps = [b - a for a, b in itertools.pairwise(done)]
    assert len(steps) > 5 and set(steps[1:]) == {1}  # the first pass, then fight by fight
    report = cut.to_json("s")
    assert 0 < report["n"] == done[-1] == cut.tally.total < 2_000
    _whole_fights_only(cut.tally)


# ------------------------------------------------------------------------------------ CLI


def _cut_at(method: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Ctrl-C arranged in the middle of ``method``'s work; its options."""
    if method == "exact":
        monkeypatch.setattr(exact_module, "_moves", _raising_at(50, exact_module._moves))
        return ["--exact"]
    if method == "reference":
        patched = _raising_at(400, reference_module.harm_dealt)
        monkeypatch.setattr(reference_module, "harm_dealt", patched)
        return ["-n", "1000", "--reference"]
    monkeypatch.setattr(fast, "_step", _raising_at(6, fast._step))
    return ["-n", "5000", "--workers", "1"]


@pytest.mark.parametrize("method", ["fast", "reference", "exact"])
def test_cli_prints_the_partial_report_and_exits_130(toy_scenario, monkeypatch, method) -> None:  # type: ignore[no-untyped-def]
    """As ``sweep`` and ``encounter actions`` do: the report of what was done, a line on
    stderr, exit code 130 (it was 0, as for a finished run)."""
    from typer.testing import CliRunner

    from firefight.cli.app import app

    path = str(toy_scenario(ann_hp=3, bob_hp=3))
    options = _cut_at(method, monkeypatch)
    res = CliRunner().invoke(app, ["simulate", path, "--seed", "2", *options, "--json"])
    assert res.exit_code == 130, res.output
    report = json.loads(res.stdout)
    assert report["interrupted"] is True
    if method == "exact":
        assert 0 < report["mass_left"] < 1
        assert "interrupted (Ctrl-C): the chain stopped with" in res.stderr
    else:
        assert 0 < report["n"] == report["fights_done"] < report["fights_asked"]
        done, asked = report["n"], report["fights_asked"]
        assert f"interrupted (Ctrl-C): {done:,} of {asked:,} fights done" in res.stderr
    options = _cut_at(method, monkeypatch)  # again: the text report
    res = CliRunner().invoke(app, ["simulate", path, "--seed", "2", *options])
    assert res.exit_code == 130, res.output
    text = " ".join(res.stdout.split())  # as wrapped to the terminal's width
    assert "interrupted (Ctrl-C): the report covers what was done" in text
    if method == "exact":
        assert "mass still in play when interrupted" in text and "step limit" not in text
    else:
        assert f"({report['n']:,} fights, seed 2)" in text


def test_sweep_in_process_stops_instead_of_keeping_a_cut_cell(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``sweep --no-cluster`` runs its cells' simulations in this process: Ctrl-C in one stops
    the sweep (exit 130, the cell not kept). The cell's interrupted report was kept as done,
    its row saying the -n asked, and the sweep went on to the next cell and exited 0."""
    from typer.testing import CliRunner

    from firefight.cli.app import app

    monkeypatch.setattr(fast, "_step", _raising_at(6, fast._step))
    args = ["sweep", str(DUEL), "--vary", "max_rounds=3..5", "-n", "3000", "--no-cluster"]
    res = CliRunner().invoke(app, [*args, "--seed", "1", "--json"])
    assert res.exit_code == 130, res.output
    out = json.loads(res.stdout)
    assert out["interrupted"] is True and out["rows"] == []
    assert "interrupted (Ctrl-C): 0 of 3 cells done" in res.stderr


# ---------------------------------------------------------------------- fast, two processes

BRAWL = EXAMPLES / "dragonwarriors2" / "encounters" / "tavern_brawl.toml"
#: ``firefight`` with chunks of 128 fights: a tavern brawl's take about half a second, so the
#: bar moves within seconds and 64 chunks are left to do (the old command went on running them
#: after its report, the pool's manager thread feeding its workers, for some 20 s).
SMALL_CHUNKS = (
    "import sys; import firefight.analysis.fast as fast; fast.CHUNK = 128; "
    "from firefight.cli.app import main; sys.argv[0] = 'firefight'; main()"
)
#: Longest wait for anything in the test below.
BOUND = 20.0


class _Run:
    """A command on a terminal (the progress bar shows there), its stdout on a pipe."""

    def __init__(self, args: list[str]) -> None:
        import pty
        import subprocess
        import sys

        src = str(Path(fast.__file__).resolve().parents[2])  # this firefight, not another
        path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH")) if p)
        env = {**os.environ, "PYTHONPATH": path, "TERM": "xterm", "COLUMNS": "120"}
        self.terminal, tty = pty.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SMALL_CHUNKS, *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=tty,
            env=env,
            start_new_session=True,  # its own process group, as a terminal's job
        )
        os.close(tty)
        assert self.proc.stdout is not None
        self.out, self.err = bytearray(), bytearray()
        self.open = {self.proc.stdout.fileno(): self.out, self.terminal: self.err}

    def pump(self, seconds: float) -> None:
        """Read what the command wrote within ``seconds`` (it blocks once a pipe is full)."""
        import select

        if not self.open:
            return
        ready, _, _ = select.select(list(self.open), [], [], seconds)
        for fd in ready:
            try:
                data = os.read(fd, 1 << 16)
            except OSError:  # the terminal once its last writer is gone
                data = b""
            if data:
                self.open[fd] += data
            else:
                del self.open[fd]

    def progress(self) -> int:
        """The most fights the bar has shown done (the count before its time column)."""
        import re

        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.err.decode(errors="replace"))
        counts = re.findall(r"([\d,]+)(?:/8192)? +\d+:\d\d:\d\d", text)
        return max((int(m.replace(",", "")) for m in counts), default=0)

    def end(self) -> None:
        import signal

        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(BOUND)
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        os.close(self.terminal)


def _gone(pgid: int, processes: list[Any] | None) -> bool:
    """None of ``processes`` (psutil's) is left running, a zombie waiting for init to reap it
    aside; without psutil (``processes`` None), the process group is empty."""
    if processes is None:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        return False
    import psutil

    for process in processes:
        try:
            if process.status() != psutil.STATUS_ZOMBIE:
                return False
        except psutil.NoSuchProcess:
            pass
    return True


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX process groups and terminals")
def test_ctrl_c_ends_the_workers_and_exits_at_once() -> None:
    """SIGINT to the process group of a two-process run, once the bar has moved, as a
    terminal's Ctrl-C: the workers are ended before the report is printed (they went on
    computing, and the command exited only once every chunk was done), the partial report
    is printed and the command exits 130 within seconds, leaving no process behind."""
    import signal
    import time

    run = _Run(["simulate", str(BRAWL), "-n", "8192", "--seed", "1", "--workers", "2"])
    try:
        deadline = time.monotonic() + BOUND
        while run.progress() == 0 and run.proc.poll() is None and time.monotonic() < deadline:
            run.pump(0.05)
        seen = run.progress()
        assert seen > 0, run.err.decode(errors="replace")
        spawned: list[Any] | None = None  # the workers and multiprocessing's resource tracker
        workers: list[Any] | None = None
        try:
            import psutil
        except ImportError:
            pass
        else:
            spawned = psutil.Process(run.proc.pid).children(recursive=True)
            workers = [p for p in spawned if "spawn_main" in " ".join(p.cmdline())]
            assert len(workers) == 2
        os.killpg(run.proc.pid, signal.SIGINT)
        sent = time.monotonic()
        while not run.out and run.proc.poll() is None and time.monotonic() < sent + BOUND:
            run.pump(0.02)
        assert run.out, "no report"
        if workers is not None:  # the report is printed once the workers are gone
            assert _gone(run.proc.pid, workers)
        while run.proc.poll() is None and time.monotonic() < sent + BOUND:
            run.pump(0.05)
        took = time.monotonic() - sent
        assert run.proc.poll() == 130, (run.proc.poll(), run.err.decode(errors="replace"))
        assert took < 5, f"{took:.1f} s to exit after Ctrl-C"
        while run.open:
            run.pump(0.05)
        text = " ".join(run.out.decode().split())
        assert "interrupted (Ctrl-C): the report covers what was done" in text
        done = int(text.split(" fights, seed 1)")[0].rsplit("(", 1)[1].replace(",", ""))
        assert seen <= done < 8192 and done % 128 == 0  # whole chunks, out of order too
        assert f"{done:,} of 8,192 fights done" in run.err.decode(errors="replace")
        gone_by = time.monotonic() + BOUND / 2
        while not _gone(run.proc.pid, spawned) and time.monotonic() < gone_by:
            time.sleep(0.05)
        assert _gone(run.proc.pid, spawned)
    finally:
        run.end()
