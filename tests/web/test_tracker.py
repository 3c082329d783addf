"""The tracker's operations without HTTP: previews beside steps, and records kept whole."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firefight.encounter import Engine
from firefight.web.store import Store
from firefight.web.tracker import Stale, Tracker
from tests.web.conftest import EXAMPLES


@pytest.fixture
def tracker(tmp_path: Path) -> Iterator[Tracker]:
    made = Tracker(Store(f"sqlite:///{tmp_path / 't.sqlite3'}"), EXAMPLES)
    yield made
    made.odds_worker.close()  # its thread would refine on through the tests that follow


def test_a_step_is_not_held_up_by_a_preview(
    tracker: Tracker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The odds are worked out on their own thread: a step goes through while a preview is
    stuck, the page that waited for the old state's odds is told the fight moved on, and the
    new state's odds come afresh."""
    made = tracker.create(example="warfare2d20/duel", seed=1)
    first = tracker.actions(made.id, odds=False)[0]["id"]
    started, release = threading.Event(), threading.Event()
    real = Engine.preview

    def slow(self: Engine, state: Any, action: Any, **kw: Any) -> Any:
        started.set()
        assert release.wait(timeout=30)
        return real(self, state, action, **kw)

    monkeypatch.setattr(Engine, "preview", slow)
    waited: list[Any] = []

    def ask() -> None:
        try:
            waited.append(tracker.choices(made.id))
        except Stale as err:
            waited.append(err)

    worker = threading.Thread(target=ask)
    worker.start()
    assert started.wait(timeout=30)
    assert tracker.act(made.id, first, seed=2, version=1)["steps"] == 1  # while the preview waits
    worker.join(timeout=60)
    assert waited and isinstance(waited[0], Stale) and "moved on" in str(waited[0])
    release.set()
    monkeypatch.setattr(Engine, "preview", real)
    fresh = tracker.choices(made.id)  # the new state's odds, computed afresh
    assert fresh["version"] == 2 and fresh["progress"]["answered"]


def test_a_stale_list_stops_at_once(tracker: Tracker) -> None:
    """Refining graydawn's suppressing fire (seconds of work), the odds thread stops within a
    few milliseconds of CPU once a step moves the fight on, and works out the new state."""
    made = tracker.create(example="graydawn/suppression_panic", seed=1)
    for n in range(4):
        first = tracker.actions(made.id, odds=False)[0]["id"]
        tracker.act(made.id, first, seed=n, version=n + 1)
    listed = tracker.choices(made.id, budget=0.01)
    assert listed["progress"]["refining"]
    time.sleep(0.5)  # well into the refinement
    first = tracker.actions(made.id, odds=False)[0]["id"]
    tracker.act(made.id, first, seed=9, version=5)
    deadline = time.monotonic() + 60
    while not tracker.odds_worker.stale_cpu and time.monotonic() < deadline:
        time.sleep(0.01)
    assert tracker.odds_worker.stale_cpu, "the stale job never reported stopping"
    assert max(tracker.odds_worker.stale_cpu) < 0.05
    assert tracker.choices(made.id)["version"] == 6


def test_refinements_reach_the_gms_stream_only(tracker: Tracker) -> None:
    """Each refinement of the list goes to the GM's live stream as a dict (the version, the
    actions, the progress in words); the players' stream hears versions only."""
    made = tracker.create(example="warfare2d20/small_duel", seed=1)

    async def heard() -> tuple[list[Any], list[Any]]:
        gm = tracker.watch(made.id, 1, gm=True)
        players = tracker.watch(made.id, 1)
        await asyncio.to_thread(tracker.choices, made.id)
        got: list[Any] = []
        for _ in range(600):
            while not gm.empty():
                got.append(gm.get_nowait())
            if any(not g["progress"]["refining"] for g in got):
                break
            await asyncio.sleep(0.05)
        seen = []
        while not players.empty():
            seen.append(players.get_nowait())
        tracker.unwatch(made.id, gm)
        tracker.unwatch(made.id, players)
        return got, seen

    got, seen = asyncio.run(heard())
    assert got and seen == []
    last = got[-1]
    assert last["version"] == 1 and not last["progress"]["refining"]
    assert last["progress"]["text"].startswith("exact for all")
    assert all(a["win"] is not None and a["odds"]["exact"] for a in last["actions"])


def test_previews_asked_twice_at_once_are_computed_once(
    tracker: Tracker, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = tracker.create(example="warfare2d20/duel", seed=1)
    listed = tracker.actions(made.id, odds=False)
    calls: list[str] = []
    gate = threading.Barrier(2)
    real = Engine.preview

    def counted(self: Engine, state: Any, action: Any, **kw: Any) -> Any:
        calls.append(action.id)
        return real(self, state, action, **kw)

    monkeypatch.setattr(Engine, "preview", counted)
    results: list[Any] = []

    def ask() -> None:
        gate.wait(timeout=30)
        results.append(tracker.actions(made.id))

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(results) == 2 and results[0] == results[1]
    assert sorted(calls) == sorted(a["id"] for a in listed)


def test_a_refused_step_leaves_the_record_and_version_alone(tracker: Tracker) -> None:
    made = tracker.create(example="tactical_d20/knife_duel", seed=1)
    first = tracker.actions(made.id, odds=False)[0]["id"]
    before = tracker.record(made.id), tracker.version(made.id)
    with pytest.raises(Exception, match="left unused"):
        tracker.act(made.id, first, dice=[17, 2] + [1] * 30, version=1)
    assert (tracker.record(made.id), tracker.version(made.id)) == before
    assert tracker.act(made.id, first, seed=1, version=1)["steps"] == 1  # the next one goes


def test_watchers_hear_of_each_version_once_whoever_wrote_it(tmp_path: Path) -> None:
    """A change made by another tracker on the same database reaches this one's watchers by
    ``poll``; a change made here is announced once, though ``poll`` finds it too."""
    here = Tracker(Store(f"sqlite:///{tmp_path / 't.sqlite3'}"), EXAMPLES)
    elsewhere = Tracker(Store(f"sqlite:///{tmp_path / 't.sqlite3'}"), EXAMPLES)
    made = here.create(example="warfare2d20/small_duel", seed=1)

    async def heard() -> list[int]:
        queue = here.watch(made.id, here.version(made.id))
        here.poll()  # nothing new yet
        first = elsewhere.actions(made.id, odds=False)[0]["id"]
        elsewhere.act(made.id, first, seed=2, version=1)
        here.poll()
        here.poll()  # found twice, announced once
        first = here.actions(made.id, odds=False)[0]["id"]
        here.act(made.id, first, seed=3, version=2)
        here.poll()  # made here: already announced
        await asyncio.sleep(0)  # let the announcements land
        got = []
        while not queue.empty():
            got.append(queue.get_nowait())
        here.unwatch(made.id, queue)
        return got

    assert asyncio.run(heard()) == [2, 3]
    assert not here.watched()


def test_a_database_url_without_its_driver_names_the_driver_and_hides_the_password() -> None:
    """A URL of a database whose Python driver is missing is refused as that, not as a bad
    URL; neither that line nor any other shows the password in the URL."""
    from firefight.errors import InputError
    from firefight.web.store import shown_url

    with pytest.raises(InputError) as err:
        Store("postgresql+pg8000://gm:s3cret@127.0.0.1:1/firefight")
    line = err.value.one_line()
    assert "needs the Python driver pg8000" in line and "pip install pg8000" in line
    assert "s3cret" not in line and "gm:***@127.0.0.1" in line
    with pytest.raises(InputError) as err:
        Store("nosuchdb://gm:s3cret@host/x")
    assert "not a database URL" in err.value.one_line() and "s3cret" not in err.value.one_line()
    assert shown_url("sqlite:////tmp/t.db") == "sqlite:////tmp/t.db"
    assert shown_url("mysql+pymysql://a:b:c@h/d") == "mysql+pymysql://a:***@h/d"
