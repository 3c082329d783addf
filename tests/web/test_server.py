"""The tracker as a real server process on 127.0.0.1: live updates, Ctrl-C, and a crash.

Each test starts ``python -m firefight serve`` on a free port with its own SQLite file, bounds
every wait, and stops the process (SIGKILL in the crash test, as a power cut or ``kill -9`` would).
"""

from __future__ import annotations

import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.serving import Server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "tracker.sqlite3")
    yield running
    running.stop()


def _start(server: Server, example: str) -> dict[str, str]:
    response = httpx.post(server.url + "/api/encounters", json={"example": example, "seed": 1})
    assert response.status_code == 201, response.text
    made: dict[str, str] = response.json()
    return made


def _gm(server: Server, made: dict[str, str], method: str, path: str = "", **kw: Any) -> Any:
    headers = {"Authorization": f"Bearer {made['gm_token']}"}
    url = f"{server.url}/api/encounters/{made['id']}{path}"
    response = httpx.request(method, url, headers=headers, timeout=60, **kw)
    assert response.status_code == 200, response.text
    return response.json()


def _step(server: Server, made: dict[str, str], seed: int) -> dict[str, Any]:
    first = _gm(server, made, "GET", "/actions", params={"odds": "false"})[0]["id"]
    version = _gm(server, made, "GET")["version"]
    body = {"action": first, "seed": seed, "version": version}
    state: dict[str, Any] = _gm(server, made, "POST", "/act", json=body)
    return state


def _listen(server: Server, made: dict[str, str], got: queue.Queue[str]) -> threading.Thread:
    def run() -> None:
        url = f"{server.url}/api/encounters/{made['id']}/events"
        try:
            with httpx.stream("GET", url, params={"token": made["player_token"]}, timeout=30) as r:
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        got.put(line[6:])
        except httpx.HTTPError:
            pass  # the server stopped

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_players_get_each_step_live(server: Server) -> None:
    made = _start(server, "warfare2d20/small_duel")
    got: queue.Queue[str] = queue.Queue()
    _listen(server, made, got)
    assert got.get(timeout=10) == "1"  # the version at connection
    for version in (2, 3):
        _step(server, made, seed=version)
        assert got.get(timeout=10) == str(version)
    view = httpx.get(
        f"{server.url}/api/encounters/{made['id']}/player",
        headers={"Authorization": f"Bearer {made['player_token']}"},
    ).json()
    assert view["version"] == 3 and len(view["log"]) == 2


def test_players_on_another_server_get_each_step_live(server: Server) -> None:
    """Two servers on one database: a page watching on the second hears of steps the GM plays
    on the first (the second looks at the database every half second), once each."""
    made = _start(server, "warfare2d20/small_duel")
    other = Server(server.db)
    try:
        got: queue.Queue[str] = queue.Queue()
        _listen(other, made, got)
        assert got.get(timeout=10) == "1"
        for version in (2, 3):
            _step(server, made, seed=version)
            assert got.get(timeout=10) == str(version)
        with pytest.raises(queue.Empty):
            got.get(timeout=1.5)  # nothing heard twice
    finally:
        other.stop()


def test_ctrl_c_stops_the_server_with_players_connected(server: Server) -> None:
    made = _start(server, "warfare2d20/small_duel")
    got: queue.Queue[str] = queue.Queue()
    listener = _listen(server, made, got)
    assert got.get(timeout=10) == "1"
    server.process.send_signal(signal.SIGINT)
    _out, err = server.process.communicate(timeout=30)
    # uvicorn shuts down gracefully, then re-raises the SIGINT: 130 is the shell's "stopped by
    # Ctrl-C" (0 where the parent ignores SIGINT)
    assert server.process.returncode in (0, 130), err
    assert "Traceback" not in err and "ERROR" not in err, err
    listener.join(timeout=10)
    assert not listener.is_alive()


def test_a_killed_server_loses_no_committed_step(server: Server, tmp_path: Path) -> None:
    made = _start(server, "quality_d100/caravan")
    states = [_step(server, made, seed) for seed in (11, 12, 13)]
    record = _gm(server, made, "GET", "/record")
    server.process.send_signal(signal.SIGKILL)  # no clean shutdown: a crash
    server.process.communicate(timeout=30)
    again = Server(server.db)
    try:
        assert _gm(again, made, "GET") == states[-1]
        assert _gm(again, made, "GET", "/record") == record
        assert _step(again, made, seed=14)["steps"] == 4  # and play goes on
    finally:
        again.stop()


@pytest.mark.parametrize(
    ("host", "field"), [("127.0.0.1", "--port"), ("no.such.host.invalid", "--host")]
)
def test_an_address_it_cannot_listen_on_is_one_line(host: str, field: str, tmp_path: Path) -> None:
    """A port in use or a host that is not this machine's: exit 2, one line naming the option,
    before the database is made."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        db = tmp_path / "never.sqlite3"
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "firefight",
                "serve",
                "--db",
                str(db),
                "--host",
                host,
                "--port",
                str(port),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"error: {field} ") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert not db.exists()
