"""The tracker in a real browser: Debian's Chromium driven by Playwright, against a real server.

A GM uploads a scenario file on the start page, plays two rounds on the program's dice and on
typed table dice, and undoes a step; the players' page, open beside it, shows each step live and
never an enemy's hidden field. Screenshots of both pages are saved as test artifacts
(``$FIREFIGHT_ARTIFACTS``, default the test's temporary folder; ``docs/img`` makes the docs').
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from firefight.encounter import read_scenario
from tests.web.conftest import EXAMPLE_IDS, EXAMPLES
from tests.web.serving import Server

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
WAIT_MS = 30_000


@pytest.fixture
def browser() -> Iterator[Browser]:
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is needed: apt-get install -y chromium (.ci/run does)"
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, timeout=60_000)
        yield launched
        launched.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "tracker.sqlite3")
    yield running
    running.stop()


def _gm_api(server: Server, encounter: str, token: str, path: str = "") -> Any:
    response = httpx.get(
        f"{server.url}/api/encounters/{encounter}{path}",
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    )
    assert response.status_code == 200, response.text
    return response.json()


def _steps(page: Page, n: int) -> None:
    expect(page.locator("body")).to_have_attribute("data-steps", str(n), timeout=WAIT_MS)


def _hidden_fields(state: dict[str, Any], side: str, public: set[str]) -> dict[str, set[str]]:
    return {
        name: set(entry) - public
        for name, entry in state["combatants"].items()
        if entry["side"] != side
    }


def test_a_gm_plays_two_rounds_and_the_players_watch(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    artifacts = Path(os.environ.get("FIREFIGHT_ARTIFACTS", tmp_path))
    artifacts.mkdir(parents=True, exist_ok=True)
    # Rolf and Lennox (D11) made too tough to fall in two rounds, uploaded as a scenario file
    source = EXAMPLES / "dragonwarriors2" / "encounters" / "rolf_vs_lennox.toml"
    scenario = tmp_path / "long_duel.toml"
    scenario.write_text(
        source.read_text()
        .replace("toughness = 13", "toughness = 60")
        .replace("toughness = 10", "toughness = 60")
    )
    public = {"side", "out", *read_scenario(scenario).turns.public_keys}
    gm = browser.new_page(viewport={"width": 1280, "height": 900})
    gm.goto(server.url + "/")
    expect(gm.locator("[data-example]")).to_have_count(len(EXAMPLE_IDS), timeout=WAIT_MS)
    gm.locator("#scenario-file").set_input_files(str(scenario))
    gm.wait_for_url("**/gm/**", timeout=WAIT_MS)
    _steps(gm, 0)
    encounter = gm.url.split("/gm/")[1].split("#")[0]
    gm_token = gm.url.split("gm=")[1].split("&")[0]
    player_url = gm.locator("#player-link").get_attribute("href")
    assert player_url and player_url.startswith(f"/play/{encounter}#")

    players = browser.new_page(viewport={"width": 1100, "height": 800})
    players.goto(server.url + player_url)
    expect(players.locator("[data-testid=live]")).to_have_text("live", timeout=WAIT_MS)
    _steps(players, 0)
    view = players.evaluate("() => document.body.dataset.steps")
    assert view == "0"

    side = httpx.get(
        f"{server.url}/api/encounters/{encounter}/player",
        headers={"Authorization": f"Bearer {gm_token}"},
    ).json()["side"]

    steps = 0
    typed = 0
    while True:
        state = _gm_api(server, encounter, gm_token)
        if state["round"] > 2:
            break
        first = gm.locator("[data-action]").first
        action = first.get_attribute("data-action")
        if steps % 2 == 0:  # the program's dice
            first.locator("[data-roll]").click()
        else:  # the same step on typed dice: roll it, read its faces, undo, type them in
            first.locator("[data-roll]").click()
            _steps(gm, steps + 1)
            faces = _gm_api(server, encounter, gm_token, "/log")["steps"][-1]["faces"]
            rolled = _gm_api(server, encounter, gm_token)
            gm.locator("[data-testid=undo]").click()
            _steps(gm, steps)
            _steps(players, steps)
            row = gm.locator(f'[data-action="{action}"]')
            row.locator("input").fill(", ".join(str(f) for f in faces))
            row.locator("[data-table]").click()
            _steps(gm, steps + 1)
            again = _gm_api(server, encounter, gm_token)
            assert again["version"] == rolled["version"] + 2  # (the undo between)
            assert {**again, "version": 0} == {**rolled, "version": 0}  # typed faces, same result
            typed += bool(faces)
        steps += 1
        _steps(gm, steps)
        _steps(players, steps)  # the players' page caught up, live
        for name, fields in _hidden_fields(state, side, public).items():
            row = players.locator(f'[data-combatant="{name}"]')
            shown = row.inner_text()
            for field in fields:
                assert row.locator(f'[data-field="{field}"]').count() == 0, (name, field)
                value = state["combatants"][name][field]
                if isinstance(value, str) and len(value) > 2:
                    assert f"{field}: {value}" not in shown, (name, field)
    assert typed >= 1  # steps that rolled dice, resolved on typed faces
    assert state["round"] == 3 and not state["ending"]  # two whole rounds played

    # a bad face is refused in one line and changes nothing
    row = gm.locator("[data-action]").first
    row.locator("input").fill("x")
    row.locator("[data-table]").click()
    expect(gm.locator("[data-testid=error]")).to_contain_text("dice face 1 is 'x'", timeout=WAIT_MS)
    assert _gm_api(server, encounter, gm_token)["steps"] == steps

    gm.locator("[data-testid=undo]").click()
    _steps(gm, steps - 1)
    _steps(players, steps - 1)
    expect(players.locator("[data-testid=log] [data-step]")).to_have_count(steps - 1)
    expect(gm.locator("[data-testid=actions]")).to_have_attribute(
        "data-odds", re.compile("refining|ready"), timeout=WAIT_MS
    )
    # the page's words for exact odds, an estimate (with its intervals) and a win chance
    told = gm.evaluate(
        """() => [
        Odds.line({actor: "Rolf", odds: {exact: true, p_success: 0.25, p_out: {Lennox: 0.25,
          Rolf: 0.00001}, conditions: {Lennox: {stunned: 0.039}}, expected_harm: {Lennox: 1.5},
          risk: {p: 0.107, exact: true, ci95: [0.107, 0.107]}}}),
        Odds.line({actor: "Rolf", odds: {exact: false, samples: 1000, p_success: 0.475,
          p_out: {Lennox: 0.475}, conditions: {}, ci95: {p_success: [0.444, 0.506],
          p_out: {Lennox: [0.444, 0.506]}}, expected_harm: {Lennox: 12.6}}}),
        Odds.winText({p: {knights: 0.5432}, ci95: {knights: [0.52, 0.56]}, exact: false,
          fights: 2400}, "knights"),
      ]"""
    )
    assert told == [
        "lands 25.0%; Lennox out 25.0%, stunned 3.9%; Lennox +1.50 harm; Rolf hurt before next"
        " turn 10.7%",
        "lands ~48% (44-51%); Lennox out ~48% (44-51%); Lennox +12.60 harm; estimated from"
        " 1,000 plays",
        "knights win 54% ±2",
    ]
    gm.screenshot(path=str(artifacts / "tracker-gm.png"), full_page=True)
    players.screenshot(path=str(artifacts / "tracker-players.png"), full_page=True)
    assert (artifacts / "tracker-gm.png").stat().st_size > 10_000
