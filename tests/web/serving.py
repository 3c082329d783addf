"""A real ``firefight serve`` process on a free 127.0.0.1 port, and Chromium, for the server and
browser tests."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

START_TIMEOUT = 60.0
#: Chromium's flags for a closed network and a root user (no sandbox), as the machine docs say.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium through Playwright, closed on the way out."""
    from playwright.sync_api import sync_playwright

    found = shutil.which("chromium")
    assert found, "Debian's chromium is needed: apt-get install -y chromium (.ci/run does)"
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=found, args=CHROMIUM_ARGS, timeout=60_000)
        try:
            yield launched
        finally:
            launched.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


class Server:
    def __init__(self, db: Path, *options: str) -> None:
        """``options``: more of ``firefight serve``'s (``--budget 0.01``)."""
        self.db = db
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = ["firefight", "serve", "--db", str(db), "--port", str(self.port), *options]
        self.process = subprocess.Popen(
            [sys.executable, "-m", *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert self.process.poll() is None, self.process.communicate()
            try:
                if httpx.get(self.url + "/api/examples", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate(timeout=30)
