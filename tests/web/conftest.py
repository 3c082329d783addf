"""An in-process tracker on a temporary SQLite file, and helpers to start encounters on it."""

from __future__ import annotations

import tomllib
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette warns that its test client will leave httpx
    from fastapi.testclient import TestClient

from firefight.web.api import create_app
from firefight.web.store import Store

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
#: The scenarios the RISK plugin ships in its package (``Risk.examples``).
RISK_EXAMPLES = ROOT / "plugins" / "firefight-risk" / "src" / "firefight_risk" / "examples"
#: The file of each example the tracker offers: the bundled folder's scenarios, then the plugin's.
EXAMPLE_FILES = {
    f"{p.parent.parent.name}/{p.stem}": p for p in sorted(EXAMPLES.glob("*/encounters/*.toml"))
} | {
    f"risk/{p.stem}": p
    for p in sorted(RISK_EXAMPLES.glob("*.toml"))
    if "ruleset" in tomllib.loads(p.read_text())
}
EXAMPLE_IDS = list(EXAMPLE_FILES)


class Table:
    """A test client plus the tokens of the encounters it started."""

    def __init__(self, client: TestClient, store: Store) -> None:
        self.client = client
        self.store = store

    def start(self, **body: Any) -> dict[str, str]:
        response = self.client.post("/api/encounters", json=body)
        assert response.status_code == 201, response.text
        made: dict[str, str] = response.json()
        return made

    @staticmethod
    def auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    def gm(self, made: dict[str, str], method: str, path: str = "", **kw: Any) -> Any:
        url = f"/api/encounters/{made['id']}{path}"
        return self.client.request(method, url, headers=self.auth(made["gm_token"]), **kw)

    def version(self, made: dict[str, str]) -> int:
        """The version the GM's page would show now (what a write names)."""
        version: int = self.gm(made, "GET").json()["version"]
        return version

    def write(
        self, made: dict[str, str], path: str, body: dict[str, Any] | None = None, **kw: Any
    ) -> Any:
        """A GM's write chosen on the state as it is now (its version read first)."""
        method = kw.pop("method", "POST")
        return self.gm(made, method, path, json={**(body or {}), "version": self.version(made)})

    def player(self, made: dict[str, str]) -> Any:
        url = f"/api/encounters/{made['id']}/player"
        return self.client.get(url, headers=self.auth(made["player_token"]))


def make_table(tmp_path: Path, **kw: Any) -> Iterator[Table]:
    store = Store(f"sqlite:///{tmp_path / 'tracker.sqlite3'}")
    app = create_app(store, examples=EXAMPLES, **kw)
    with TestClient(app) as client:
        yield Table(client, store)
    store.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """The tracker with a generous rate limit (the rate limit has its own test)."""
    yield from make_table(tmp_path, rate=10_000, burst=10_000)
