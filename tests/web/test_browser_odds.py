"""The GM's page shows the odds as the server refines them: in Chromium, a server whose budget
leaves graydawn's suppressing fire estimated at first, then exact, each step of it pushed over
the live stream and shown as it comes, with the progress in words, a win chance per action
and the best marked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.web.serving import Server
from tests.web.test_browser import WAIT_MS, browser
from tests.web.test_pages import PHONE, open_folds, serious, sideways, small_targets, small_text

__all__ = ["browser"]

#: Collects every text the progress line shows, from the page's first paint.
WATCH_PROGRESS = """
window.seen = [];
document.addEventListener("DOMContentLoaded", () => {
  const line = document.getElementById("odds-progress");
  new MutationObserver(() => window.seen.push(line.textContent))
    .observe(line, {childList: true, characterData: true, subtree: true});
});
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "tracker.sqlite3", "--budget", "0.002", "--ceiling", "2")
    yield running
    running.stop()


def test_the_page_shows_each_refinement(browser: Browser, server: Server) -> None:
    made = httpx.post(
        server.url + "/api/encounters", json={"example": "graydawn/duel", "seed": 1}
    ).json()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.add_init_script(WATCH_PROGRESS)
    page.goto(f"{server.url}/gm/{made['id']}#gm={made['gm_token']}&player={made['player_token']}")
    progress = page.locator("[data-testid=odds-progress]")
    expect(progress).to_contain_text("exact for all 4", timeout=120_000)
    seen = page.evaluate("() => window.seen")
    assert any("the rest estimated" in text for text in seen), seen  # estimates came first
    assert len(set(seen)) >= 3  # and each refinement showed as it came
    fire = page.locator('[data-action="suppress:Kid_Rourke:10"]')
    expect(fire.locator(".odds")).to_have_attribute("data-exact", "true", timeout=WAIT_MS)
    shown = fire.locator(".odds").inner_text()
    assert shown.startswith("lands ") and "~" not in shown.split(" hurt before")[0]
    # a win bar on every group's chosen action, and the best by the win chances marked
    groups = page.locator("[data-group]").count()
    expect(page.locator(".win:not([hidden]) .meter")).to_have_count(groups, timeout=WAIT_MS)
    expect(page.locator(".group.best .best-badge")).to_have_text("best chance to win")
    expect(page.locator(".group.best")).to_have_count(1)
    assert "win the fight" in fire.locator(".win").inner_text()
    # on a phone, with every bar and the best mark in: nothing scrolls sideways, targets and
    # text stay a finger's and a reader's size, and axe-core finds nothing serious
    page.set_viewport_size(PHONE)
    open_folds(page)
    assert sideways(page) <= 0
    assert small_targets(page) == [] and small_text(page) == []
    assert serious(page) == []
