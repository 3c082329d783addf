"""Two clients racing against a real ``firefight serve`` process: the same write sent by both
at once commits once, whatever the route (threads, bounded in time)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.serving import Server

#: Rounds of the race: each round both clients send the same write on the same version.
ROUNDS = 6
TIMEOUT = 60.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "race.sqlite3")
    try:
        yield running
    finally:
        running.stop()


def _race(url: str, headers: dict[str, str], body: dict[str, Any]) -> list[int]:
    """Both clients send ``body`` at once (a barrier releases them together): their codes."""
    gate = threading.Barrier(2, timeout=TIMEOUT)
    codes: list[int] = []
    lock = threading.Lock()

    def send() -> None:
        with httpx.Client(timeout=TIMEOUT) as client:
            gate.wait()
            code = client.post(url, json=body, headers=headers).status_code
        with lock:
            codes.append(code)

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=TIMEOUT)
    assert not any(t.is_alive() for t in threads), "a racing request did not finish"
    return sorted(codes)


def test_two_clients_racing_commit_each_write_once(server: Server) -> None:
    made = httpx.post(
        server.url + "/api/encounters", json={"example": "warfare2d20/duel", "seed": 1}
    ).json()
    base = f"{server.url}/api/encounters/{made['id']}"
    headers = {"Authorization": f"Bearer {made['gm_token']}"}

    def state() -> dict[str, Any]:
        got: dict[str, Any] = httpx.get(base, headers=headers, timeout=TIMEOUT).json()
        return got

    committed = 0
    for _ in range(ROUNDS):  # the same act from two tabs at once
        now = state()
        body = {"action": "done", "actor": now["turn"], "seed": 1, "version": now["version"]}
        codes = _race(base + "/act", headers, body)
        assert codes == [200, 409], codes
        committed += 1
        assert state()["steps"] == committed
    for _ in range(ROUNDS // 2):  # two undos at once take back one step
        codes = _race(base + "/undo", headers, {"version": state()["version"]})
        assert codes == [200, 409], codes
        committed -= 1
        assert state()["steps"] == committed
    # two edits at once: one step
    now = state()
    edit = {"combatant": "Rivera", "field": "hit_points", "value": 7, "version": now["version"]}
    assert _race(base + "/edit", headers, edit) == [200, 409]
    assert state()["steps"] == committed + 1
