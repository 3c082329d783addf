"""Two GM tabs in Chromium: one that is behind gets the 409's line and the fresh state (a dice
dialog left open while the fight moved on, too); a tab that hears the live stream follows the
other's steps; a GM's edit reaches the players' page as the view allows, and the side the GM
says the players are is the one their page shows."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.web.serving import Server
from tests.web.test_browser import WAIT_MS, browser

__all__ = ["browser"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for both tests (each starts its own encounter): a start costs seconds."""
    running = Server(tmp_path_factory.mktemp("stale") / "tracker.sqlite3")
    yield running
    running.stop()


def _gm_tab(browser: Browser, url: str, *, deaf: bool = False) -> Page:
    """A GM tab on ``url``; ``deaf``: its live stream never connects (a tab left behind, as
    on a device whose connection dropped)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    if deaf:

        def refuse(route: Route) -> None:
            route.abort()

        page.route("**/events?**", refuse)
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-steps", "0", timeout=WAIT_MS)
    return page


def _duel(server: Server) -> tuple[dict[str, str], str]:
    """A warfare2d20 duel started on the server: its tokens and the GM's link."""
    made: dict[str, str] = httpx.post(
        server.url + "/api/encounters", json={"example": "warfare2d20/duel", "seed": 1}
    ).json()
    url = f"{server.url}/gm/{made['id']}#gm={made['gm_token']}&player={made['player_token']}"
    return made, url


def _version(page: Page, version: int) -> None:
    expect(page.locator("body")).to_have_attribute("data-version", str(version), timeout=WAIT_MS)


def _refused_after_rivera_took_cover(page: Page) -> None:
    """The 409's line, and under it the fresh state: Rivera's step taken, the Insurgent to act."""
    expect(page.locator("[data-testid=error]")).to_have_text(
        "the fight moved on: Rivera acted since you looked "
        "(tip: reload to see the fight as it is now, then choose again)",
        timeout=WAIT_MS,
    )
    _version(page, 2)
    expect(page.locator("[data-testid=turn]")).to_contain_text("Insurgent to act")
    expect(page.locator("body")).to_have_attribute("data-steps", "1")


def test_a_tab_that_is_behind_shows_the_409_and_the_fresh_state(
    browser: Browser,
    server: Server,
) -> None:
    made, url = _duel(server)
    ahead = _gm_tab(browser, url)
    behind = _gm_tab(browser, url, deaf=True)
    follows = _gm_tab(browser, url)
    for page in (ahead, behind, follows):
        _version(page, 1)
        expect(page.locator("[data-testid=turn]")).to_contain_text("Rivera to act")

    # Rivera takes cover in one tab...
    ahead.locator('[data-roll="take_cover"]').click()
    _version(ahead, 2)
    expect(ahead.locator("[data-testid=turn]")).to_contain_text("Insurgent to act")
    _version(follows, 2)  # ...a tab on the live stream follows at once
    expect(follows.locator("[data-testid=turn]")).to_contain_text("Insurgent to act")

    # ...and the tab that is behind, still showing Rivera's turn, clicks "take_cover" too:
    # the same action id, now the Insurgent's; refused, never applied to him
    expect(behind.locator("[data-testid=turn]")).to_contain_text("Rivera to act")
    behind.locator('[data-roll="take_cover"]').click()
    _refused_after_rivera_took_cover(behind)
    log = httpx.get(
        f"{server.url}/api/encounters/{made['id']}/log",
        headers={"Authorization": f"Bearer {made['gm_token']}"},
    ).json()
    assert [s["label"] for s in log["steps"]] == ["Rivera takes cover and keeps his head down"]


def test_a_dice_dialog_on_a_state_the_fight_moved_on_from_closes_with_the_409(
    browser: Browser,
    server: Server,
) -> None:
    """The table rolls for Rivera's shot while, in another tab, Rivera takes cover: the next
    group answered is refused as a stale click is, and nothing is done with its faces."""
    made, url = _duel(server)
    tab = _gm_tab(browser, url)
    _version(tab, 1)
    tab.locator("[data-testid=dice-mode]").click()  # the table's dice
    tab.locator('[data-table="fire:Insurgent:single"]').click()
    dialog = tab.locator("[data-testid=dice-dialog]")
    expect(dialog.locator("input[data-die='1']")).to_be_visible(timeout=WAIT_MS)
    taken = httpx.post(
        f"{server.url}/api/encounters/{made['id']}/act",
        json={"action": "take cover", "version": 1, "seed": 1},
        headers={"Authorization": f"Bearer {made['gm_token']}"},
    )
    assert taken.status_code == 200, taken.text
    dialog.locator("input[data-die='0']").press_sequentially("17")
    dialog.locator("input[data-die='1']").press_sequentially("6")
    dialog.locator("[data-dice=enter]").click()
    _refused_after_rivera_took_cover(tab)
    expect(dialog).to_have_count(0)


def test_an_edit_shows_on_the_players_page_as_the_view_allows(
    browser: Browser,
    server: Server,
) -> None:
    made, url = _duel(server)
    gm = _gm_tab(browser, url)
    players = browser.new_page()
    players.goto(f"{server.url}/play/{made['id']}#{made['player_token']}")
    expect(players.locator("[data-testid=live]")).to_have_text("live", timeout=WAIT_MS)

    gm.locator("#hand-panel > summary").click()  # the GM's hand, folded until wanted
    gm.locator("#table-panel > summary").click()

    def set_field(who: str, field: str, value: str, steps: int) -> None:
        gm.locator("[data-testid=edit-who]").select_option(who)
        gm.locator("[data-testid=edit-field]").select_option(field)
        gm.locator("[data-testid=edit-value]").fill(value)
        gm.locator("[data-testid=edit-set]").click()
        expect(gm.locator("body")).to_have_attribute("data-steps", str(steps), timeout=WAIT_MS)
        expect(players.locator("body")).to_have_attribute("data-steps", str(steps), timeout=WAIT_MS)

    insurgent = players.locator('[data-combatant="Insurgent"]')
    set_field("Insurgent", "hit_points", "3", 1)  # hidden from the players: not shown
    expect(players.locator('[data-step="1"]')).to_contain_text(
        "GM: an adjustment the players do not see"
    )
    expect(insurgent).not_to_contain_text("hit points")
    set_field("Insurgent", "stance", "taking cover", 2)  # public: shown
    expect(insurgent.locator('[data-field="stance"]')).to_have_text("taking cover")
    expect(players.locator('[data-step="2"]')).to_contain_text(
        "Insurgent: stance none -> taking cover"
    )
    expect(gm.locator('[data-combatant="Insurgent"] [data-field="hit points"]')).to_have_text(
        "hit points: 3/14"
    )
    # a value the models refuse: one line, nothing changed
    gm.locator("[data-testid=edit-field]").select_option("hit_points")
    gm.locator("[data-testid=edit-value]").fill("99")
    gm.locator("[data-testid=edit-set]").click()
    expect(gm.locator("[data-testid=error]")).to_contain_text(
        "Insurgent: field hit_points: 99 is out of range", timeout=WAIT_MS
    )
    expect(gm.locator("body")).to_have_attribute("data-steps", "2")
    # the GM chooses which side the players are: their page shows that side in full
    gm.locator("[data-testid=players-side]").select_option("insurgents")
    expect(players.locator("#side")).to_contain_text("you are insurgents", timeout=WAIT_MS)
    expect(insurgent.locator('[data-field="hit points"]')).to_have_text("hit points: 3/14")
