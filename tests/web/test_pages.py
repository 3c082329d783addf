"""The tracker's pages at a phone's, a tablet's and a laptop's size, in Chromium against a real
server: no sideways scrolling, 44 px targets and 16 px text on the phone, a step through the
actions at every size for one example of each ruleset, the long list of a tactical_d20 fire team
(the refusal and the step's result in sight without scrolling), the players' page on a bad
link, and axe-core's serious and critical findings on the start, GM and players' pages.
Screenshots go to ``$FIREFIGHT_ARTIFACTS`` (default: the test's temporary folder).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, Route, expect

from tests.web.serving import Server, chromium
from tests.web.test_browser import WAIT_MS

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
LAPTOP = {"width": 1366, "height": 768}
SIZES = {"phone": PHONE, "tablet": TABLET, "laptop": LAPTOP}
#: One example of each ruleset, long enough to last three steps.
EXAMPLES = [
    "warfare2d20/duel",
    "dragonwarriors2/rolf_vs_lennox",
    "graydawn/duel",
    "tactical_d20/fire_team",
    "quality_d100/duel",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("pages") / "tracker.sqlite3")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("FIREFIGHT_ARTIFACTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def start(server: Server, example: str, seed: int = 1) -> dict[str, str]:
    made: dict[str, str] = httpx.post(
        server.url + "/api/encounters", json={"example": example, "seed": seed}, timeout=60
    ).json()
    return made


def gm_url(server: Server, made: dict[str, str]) -> str:
    return f"{server.url}/gm/{made['id']}#gm={made['gm_token']}&player={made['player_token']}"


def players_url(server: Server, made: dict[str, str]) -> str:
    return f"{server.url}/play/{made['id']}#{made['player_token']}"


def steps(page: Page, n: int) -> None:
    expect(page.locator("body")).to_have_attribute("data-steps", str(n), timeout=WAIT_MS)


def sideways(page: Page) -> int:
    """How far the page scrolls sideways (0: not at all)."""
    overflow: int = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    return overflow


def small_targets(page: Page) -> list[str]:
    """Visible controls smaller than 44 x 44 px (a checkbox counts by its label)."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll(
            'button, select, input:not([type=checkbox]), textarea, summary, label.check')]
          .map((e) => [e, e.getBoundingClientRect()])
          .filter(([e, r]) => r.width > 0 && r.height > 0 && (r.width < 44 || r.height < 44))
          .map(([e, r]) => `${e.tagName} ${e.id || e.textContent.trim().slice(0, 30)}: `
            + `${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    return found


def small_text(page: Page) -> list[str]:
    """Visible text set smaller than 16 px."""
    found: list[str] = page.evaluate(
        """() => {
          const out = [];
          const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let node = walk.nextNode(); node; node = walk.nextNode()) {
            const parent = node.parentElement;
            if (!node.textContent.trim() || !parent || !parent.getClientRects().length) continue;
            const size = parseFloat(getComputedStyle(parent).fontSize);
            const text = node.textContent.trim().slice(0, 30);
            if (size < 16) out.push(`${parent.tagName} "${text}": ${size}px`);
          }
          return out;
        }"""
    )
    return found


def in_sight(page: Page, locator: Locator) -> bool:
    """The element shows whole in the window as it is scrolled now."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def open_folds(page: Page) -> None:
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")


@pytest.mark.parametrize("example", EXAMPLES)
def test_a_ruleset_at_a_phones_a_tablets_and_a_laptops_size(
    browser: Browser, server: Server, artifacts: Path, example: str
) -> None:
    made = start(server, example)
    gm = browser.new_page(viewport=PHONE)
    gm.goto(gm_url(server, made))
    players = browser.new_page(viewport=PHONE)
    players.goto(players_url(server, made))
    expect(players.locator("[data-testid=live]")).to_have_text("live", timeout=WAIT_MS)
    name = example.replace("/", "-")
    for n, (size, viewport) in enumerate(SIZES.items()):
        for page in (gm, players):
            page.set_viewport_size(viewport)
            steps(page, n)
            assert sideways(page) <= 0, (size, page.url)
        if size == "phone":
            gm.mouse.wheel(0, 5000)  # the bar stays in sight, scrolled or not
            expect(gm.locator("[data-testid=undo]")).to_be_in_viewport()
            for page in (gm, players):
                open_folds(page)
                assert small_targets(page) == [], page.url
                assert small_text(page) == [], page.url
            gm.evaluate("() => window.scrollTo(0, 0)")
        # the combatants as cards: the ruleset's vital tracks as bars beside their words
        assert gm.locator("[data-combatant] .vital .meter").count() >= 2
        # a full step through the actions on the program's dice: the last group's (waiting,
        # passing, delaying) where the fight must go on, the first one reached by the keyboard
        # (an attack) last
        groups = gm.locator("[data-action]")
        if size == "laptop":  # by the keyboard alone: "skip to the actions", Tab, Enter
            gm.focus("a.skip")
            gm.keyboard.press("Enter")
            for _ in range(12):
                gm.keyboard.press("Tab")
                if gm.evaluate("() => document.activeElement.matches('[data-roll]')"):
                    break
            chosen = gm.evaluate("() => document.activeElement.dataset.roll")
            label = gm.locator(f'[data-action="{chosen}"] .label').inner_text()
            gm.keyboard.press("Enter")
        else:
            group = groups.last
            label = group.locator(".label").inner_text()
            group.locator("[data-roll]").click()
        steps(gm, n + 1)
        steps(players, n + 1)
        result = gm.locator("[data-testid=result]")
        expect(result).to_contain_text(f"{n + 1}. {label}")
        expect(result).to_be_in_viewport()
        gm.screenshot(path=str(artifacts / f"page-{name}-{size}-gm.png"))
        players.screenshot(path=str(artifacts / f"page-{name}-{size}-players.png"))
    gm.close()
    players.close()


def test_the_long_list_keeps_the_refusal_and_the_result_in_sight(
    browser: Browser, server: Server, artifacts: Path
) -> None:
    """A tactical_d20 operator with an SMG and a knife has 44 actions (targets x modes x
    regions): grouped they make a dozen boxes, and a refusal or a step's result at the foot of
    the list shows without scrolling back up."""
    made = start(server, "tactical_d20/fire_team", seed=3)
    gm = browser.new_page(viewport=PHONE)
    gm.goto(gm_url(server, made))
    steps(gm, 0)
    listed = httpx.get(
        f"{server.url}/api/encounters/{made['id']}/actions?odds=false",
        headers={"Authorization": f"Bearer {made['gm_token']}"},
    ).json()
    assert len(listed) == 44
    groups = gm.locator("[data-group]")
    assert groups.count() < 16
    assert gm.locator("[data-group] select").count() >= 6  # mode and region chosen, not listed
    gm.locator("[data-testid=dice-mode]").click()  # the table's dice
    last = groups.last
    last.scroll_into_view_if_needed()
    last.locator("input").fill("x")
    last.locator("[data-table]").click()
    error = gm.locator("[data-testid=error]")
    expect(error).to_contain_text("dice face 1 is 'x'", timeout=WAIT_MS)
    assert in_sight(gm, error)
    assert in_sight(gm, last.locator(".refusal"))
    expect(last.locator(".refusal")).to_contain_text("dice face 1 is 'x'")
    gm.screenshot(path=str(artifacts / "page-long-list-refusal-phone.png"))
    gm.locator("#toast-close").click()
    expect(error).to_be_hidden()
    gm.locator("[data-testid=dice-mode]").click()  # the program's dice again
    last = groups.last
    last.scroll_into_view_if_needed()
    label = last.locator(".label").inner_text()
    last.locator("[data-roll]").click()
    steps(gm, 1)
    result = gm.locator("[data-testid=result]")
    expect(result).to_contain_text(label)
    assert in_sight(gm, result)
    gm.screenshot(path=str(artifacts / "page-long-list-result-phone.png"))
    # the fight's evaluation, where the API gives one, in the page's words, and the best by it
    told = gm.evaluate(
        """() => {
          const w = Actions.winOf({win: {p: {operators: 0.62}, ci95: {operators: [0.58, 0.66]},
            exact: false, fights: 2000}}, null, "operators");
          const odds = new Map([["a", {effect: 3}], ["b", {effect: 9}]]);
          const acts = [{id: "a", win: {p: 0.7, exact: true}},
            {id: "b", win: {p: 0.4, exact: true}}];
          return [Actions.winText(w, "operators"), Actions.best(acts, odds, "operators"),
            Actions.best([{id: "a"}, {id: "b"}], odds, "operators")];
        }"""
    )
    assert told == [
        "operators win the fight ~62% (58-66%), from 2,000 fights",
        {"id": "a", "why": "best chance to win"},
        {"id": "b", "why": "most harm to the other side"},
    ]
    gm.close()


def test_the_players_page_on_a_bad_or_missing_token_says_so(
    browser: Browser, server: Server
) -> None:
    made = start(server, "warfare2d20/small_duel")
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.url}/play/{made['id']}#not-the-token")
    problem = page.locator("[data-testid=problem]")
    expect(problem).to_have_text(
        "This link does not open the players' page: this token does not open this encounter "
        "(tip: use the link the GM was given)",
        timeout=WAIT_MS,
    )
    expect(page.locator("[data-testid=live]")).to_have_text("not connected")
    page.goto(f"{server.url}/play/{made['id']}")
    expect(problem).to_contain_text("This players' link has no token", timeout=WAIT_MS)
    assert "\n" not in problem.inner_text()
    assert httpx.get(server.url + "/favicon.ico").status_code == 200
    page.close()


def serious(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical findings on the page as it shows now."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:3]}
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def test_axe_finds_nothing_serious_on_the_three_pages_at_three_sizes(
    browser: Browser, server: Server
) -> None:
    made = start(server, "warfare2d20/duel")
    pages = {
        "start": server.url + "/",
        "gm": gm_url(server, made),
        "players": players_url(server, made),
    }
    ready = {
        "start": "body[data-builder]",
        "gm": "[data-testid=actions][data-odds=ready]",
        "players": "body[data-steps]",
    }
    found = {}
    for name, url in pages.items():
        page = browser.new_page(viewport=PHONE)
        page.goto(url)
        page.wait_for_selector(ready[name], timeout=WAIT_MS)
        open_folds(page)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            found[(name, size)] = serious(page)
        page.close()
    assert found == {key: [] for key in found}


#: Per ruleset: the form's fields for a combatant of its own (catalog choices, required
#: numbers; a checkbox by its id), and the range between everyone.
FORMS: dict[str, tuple[dict[str, str], str]] = {
    "warfare2d20": ({"f-combatant": "marine", "f-weapon": "M4"}, "medium"),
    "dragonwarriors2": ({"f-attack": "12", "f-defence": "8", "f-toughness": "10"}, ""),
    "graydawn": ({"f-weapon": "9mm pistol", "f-stats-REF": "7"}, "12"),
    "tactical_d20": ({"f-creature": "raider", "f-weapons-knife": "on"}, "5"),
    "quality_d100": (
        {"f-weapon": "broadsword", "f-fatigue": "12", "f-endurance": "12", "f-willpower": "10"},
        "engaged",
    ),
}


@pytest.mark.parametrize("ruleset", sorted(FORMS))
def test_a_scenario_built_on_the_page_is_the_file_it_downloads(
    browser: Browser, server: Server, artifacts: Path, tmp_path: Path, ruleset: str
) -> None:
    """One combatant from the form drawn from the ruleset's model, one copied from its
    examples, a range, the players' side and a seed: the encounter the page starts equals the
    one the downloaded TOML starts, and the command line reads that file."""
    from firefight.encounter import read_scenario

    fields, distance = FORMS[ruleset]
    page = browser.new_page(viewport=TABLET)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-builder]", timeout=WAIT_MS)
    page.select_option("#b-ruleset", ruleset)
    page.wait_for_selector(f"body[data-builder={ruleset}]", timeout=WAIT_MS)
    open_folds(page)  # the model's optional fields, folded under "more fields"
    if distance:
        page.fill("[data-testid=b-range]", distance)
    page.fill("#f-name", "Ash")
    for field, value in fields.items():
        box = page.locator(f"#{field}")
        if value == "on":
            box.check()
        elif box.evaluate("e => e.tagName") == "SELECT":
            box.select_option(value)
        else:
            box.fill(value)
    page.click("[data-testid=b-add]")
    roster = page.locator("[data-testid=b-combatants] li")
    try:
        expect(roster).to_have_count(1, timeout=WAIT_MS)
    except AssertionError as missing:
        said = page.locator("[data-testid=b-add-refusal]").all_text_contents()
        raise AssertionError(
            f"{ruleset}: the first combatant was not added; page: {said}"
        ) from missing
    # a refusal in one line beside the button, as a file's: the form's name again
    page.fill("#f-name", "Ash")
    page.click("[data-testid=b-add]")
    expect(page.locator("[data-testid=b-add-refusal]")).to_have_text(
        "scenario: two combatants are called 'Ash' (tip: names must differ)", timeout=WAIT_MS
    )
    page.select_option("#b-side", "enemies")
    page.select_option("[data-testid=b-preset]", index=1)
    page.click("[data-testid=b-add]")
    expect(roster).to_have_count(2, timeout=WAIT_MS)
    page.select_option("[data-testid=b-players]", "enemies")
    page.fill("[data-testid=seed]", "4")
    with page.expect_download(timeout=WAIT_MS) as downloading:
        page.click("[data-testid=b-download]")
    file = tmp_path / "built.toml"
    downloading.value.save_as(file)
    form = page.evaluate(
        "() => { const r = document.getElementById('builder').getBoundingClientRect();"
        " return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}; }"
    )
    page.screenshot(path=str(artifacts / f"page-builder-{ruleset}.png"), full_page=True, clip=form)
    page.click("[data-testid=b-start]")
    page.wait_for_url("**/gm/**", timeout=WAIT_MS)
    built = {
        "id": page.url.split("/gm/")[1].split("#")[0],
        "gm_token": page.url.split("gm=")[1].split("&")[0],
    }
    page.close()
    uploaded = httpx.post(
        server.url + "/api/encounters",
        json={"scenario": file.read_text(), "seed": 4, "players_side": "enemies"},
        timeout=60,
    ).json()

    def seen(made: dict[str, str], path: str) -> Any:
        return httpx.get(
            f"{server.url}/api/encounters/{made['id']}{path}",
            headers={"Authorization": f"Bearer {made['gm_token']}"},
            timeout=60,
        ).json()

    for path in ("", "/actions?odds=false", "/settings", "/record"):
        assert seen(built, path) == seen(uploaded, path), path
    state = seen(built, "")
    assert state["ruleset"] == ruleset and len(state["combatants"]) == 2
    assert read_scenario(file).spec.ruleset == ruleset  # a file the command line runs


def test_a_plugins_battle_is_built_from_the_examples_it_ships(
    browser: Browser, server: Server
) -> None:
    """The RISK plugin gives no combatant model but ships its examples: the attacker and the
    defender copied from them (as TOML lines) make a battle the page starts."""
    page = browser.new_page(viewport=TABLET)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-builder]", timeout=WAIT_MS)
    expect(page.locator('[data-example="risk/last_stand"]')).to_have_count(1, timeout=WAIT_MS)
    page.select_option("#b-ruleset", "risk")
    page.wait_for_selector("body[data-builder=risk]", timeout=WAIT_MS)
    roster = page.locator("[data-testid=b-combatants] li")
    for count, (side, preset) in enumerate(
        (("players", "Alaska (last_stand)"), ("enemies", "Kamchatka (last_stand)")), start=1
    ):
        page.select_option("#b-side", side)
        page.select_option("[data-testid=b-preset]", label=preset)
        page.click("[data-testid=b-add]")
        try:
            expect(roster).to_have_count(count, timeout=WAIT_MS)
        except AssertionError as missing:
            said = page.locator("[data-testid=b-add-refusal]").all_text_contents()
            raise AssertionError(f"{preset} was not added; page: {said}") from missing
    page.click("[data-testid=b-start]")
    page.wait_for_url("**/gm/**", timeout=WAIT_MS)
    made = page.url.split("/gm/")[1].split("#")[0]
    token = page.url.split("gm=")[1].split("&")[0]
    page.close()
    state = httpx.get(
        f"{server.url}/api/encounters/{made}",
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    ).json()
    assert state["ruleset"] == "risk"
    assert {n: c["armies"] for n, c in state["combatants"].items()} == {
        "Alaska": 10,
        "Kamchatka": 10,
    }


def test_the_form_drawn_is_the_ruleset_chosen_last_however_slow_the_answers(
    browser: Browser, server: Server
) -> None:
    """The GM picks one ruleset and then another before the first's form arrives: the late
    answer is dropped, and the page is marked ready only once the last choice's form is drawn
    (choosing the ruleset already shown fetches it again; typing meanwhile must not be lost)."""
    page = browser.new_page(viewport=TABLET)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-builder]", timeout=WAIT_MS)
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/api/rulesets/dragonwarriors2", hold)
    page.select_option("#b-ruleset", "dragonwarriors2")
    assert page.evaluate("() => document.body.dataset.builder") is None  # not ready: awaited
    page.select_option("#b-ruleset", "graydawn")
    page.wait_for_selector("body[data-builder=graydawn]", timeout=WAIT_MS)
    assert len(held) == 1
    with page.expect_request_finished(
        lambda request: request.url.endswith("/api/rulesets/dragonwarriors2"), timeout=WAIT_MS
    ):
        held[0].continue_()
    page.evaluate("() => new Promise((done) => setTimeout(done, 100))")  # its handler has run
    assert page.evaluate("() => document.body.dataset.builder") == "graydawn"
    assert page.locator("#f-stats-REF").count() == 1  # graydawn's form
    assert page.locator("#f-attack").count() == 0  # not dragonwarriors2's
    page.close()
