"""The tracker in a real browser: Debian's Chromium driven by Playwright, against a real server.

A GM uploads a scenario file on the start page, plays two rounds on the program's dice and on
typed table dice, and undoes a step; the players' page, open beside it, shows each step live and
never an enemy's hidden field. Screenshots of both pages are saved as test artifacts
(``$FIREFIGHT_ARTIFACTS``, default the test's temporary folder).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from firefight.dice import SeededDice
from firefight.encounter import Encounter, read_scenario
from tests.web.conftest import EXAMPLE_IDS, EXAMPLES
from tests.web.serving import Server, chromium

WAIT_MS = 30_000


def _launched() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def browser() -> Iterator[Browser]:
    yield from _launched()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "tracker.sqlite3")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def shared_browser() -> Iterator[Browser]:
    """One browser for the dice dialog's tests (each opens its own pages)."""
    yield from _launched()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the dice dialog's tests (each starts its own encounters)."""
    running = Server(tmp_path_factory.mktemp("dialog") / "tracker.sqlite3")
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
            gm.locator("[data-testid=dice-mode]").click()  # the table's dice
            row = gm.locator(f'[data-action="{action}"]')
            row.locator("input").fill(", ".join(str(f) for f in faces))
            row.locator("[data-table]").click()
            _steps(gm, steps + 1)
            gm.locator("[data-testid=dice-mode]").click()  # the program's again
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
    gm.locator("[data-testid=dice-mode]").click()
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
        "data-odds", "ready", timeout=WAIT_MS
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
        Actions.winText(Actions.winOf({win: {p: {knights: 0.5432},
          ci95: {knights: [0.52, 0.56]}, exact: false, fights: 2400}}, null, "knights"), "knights"),
      ]"""
    )
    assert told == [
        "lands 25.0%; Lennox out 25.0%, stunned 3.9%; Lennox +1.50 harm; Rolf hurt before next"
        " turn 10.7%",
        "lands ~48% (44-51%); Lennox out ~48% (44-51%); Lennox +12.60 harm; estimated from"
        " 1,000 plays",
        "knights win the fight ~54% (52-56%), from 2,400 fights",
    ]
    gm.screenshot(path=str(artifacts / "tracker-gm.png"), full_page=True)
    players.screenshot(path=str(artifacts / "tracker-players.png"), full_page=True)
    assert (artifacts / "tracker-gm.png").stat().st_size > 10_000


# ------------------------------------------------------------------ the table's dice, roll by roll

#: One example of each ruleset, played one step through the dice dialog.
ONE_OF_EACH = [
    "warfare2d20/duel",
    "dragonwarriors2/goblin_duel",
    "graydawn/duel",
    "tactical_d20/knife_duel",
    "quality_d100/small_duel",
]


def _post(server: Server, path: str, token: str | None = None, **body: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = httpx.post(server.url + path, json=body, headers=headers, timeout=60)
    assert response.status_code in (200, 201), response.text
    return response.json()


def _dialog_group(page: Page) -> tuple[list[int], int, int]:
    """The open dialog's faces so far, how many dice its group has, and their sides."""
    dialog = page.locator("[data-testid=dice-dialog]")
    expect(dialog.locator("input[data-die]").first).to_be_focused(timeout=WAIT_MS)
    shown = dialog.get_attribute("data-faces") or ""
    count, sides = (int(x) for x in (dialog.get_attribute("data-dice") or "").split("d"))
    return [int(f) for f in shown.split(",") if f], count, sides


def _type_group(page: Page, faces: list[int]) -> None:
    """Type a group's faces key by key (digits only, each die's range enforced as typed)."""
    dialog = page.locator("[data-testid=dice-dialog]")
    before = dialog.get_attribute("data-faces") or ""
    for i, face in enumerate(faces):
        box = dialog.locator(f"input[data-die='{i}']")
        box.press_sequentially(str(face))
        assert box.input_value() == str(face)
    dialog.locator("[data-dice=enter]").click()
    _next_group_or_closed(page, before)


def _next_group_or_closed(page: Page, before: str) -> None:
    page.wait_for_function(
        """(before) => { const d = document.querySelector('[data-testid=dice-dialog]');
        return !d || (d.dataset.faces !== before && !d.dataset.busy); }""",
        arg=before,
        timeout=WAIT_MS,
    )


def _cli_on_faces(tmp_path: Path, record: dict[str, Any], action: str, faces: list[int]) -> Any:
    """The same step given to `firefight encounter act FILE ACTION --dice FACES`: its record."""
    from typer.testing import CliRunner

    from firefight.cli.commands import app

    saved = tmp_path / f"cli-{action.replace(':', '_').replace(' ', '_')}.json"
    saved.write_text(json.dumps(record))
    dice = ["--dice", ",".join(map(str, faces))] if faces else ["--dice", ""]
    result = CliRunner().invoke(app, ["encounter", "act", str(saved), action, *dice])
    assert result.exit_code == 0, result.output
    return json.loads(saved.read_text())


def _open_gm(page: Page, server: Server, made: dict[str, str]) -> None:
    """The GM's page on the table's dice (the bar's "dice" switch, kept in the browser)."""
    page.goto(f"{server.url}/gm/{made['id']}#gm={made['gm_token']}&player={made['player_token']}")
    expect(page.locator("[data-action]").first).to_be_visible(timeout=WAIT_MS)
    if page.locator("[data-testid=dice-mode]").get_attribute("aria-pressed") != "true":
        page.locator("[data-testid=dice-mode]").click()


def _rolling_action(server: Server, made: dict[str, str]) -> tuple[str, list[int], dict[str, Any]]:
    """The first action whose step rolls dice (a dragonwarriors2 attack is declared first and
    rolled in the defender's step: declared here on the program's dice), its seeded faces and
    the record before it."""
    for _ in range(3):
        record = _gm_api(server, made["id"], made["gm_token"], "/record")
        enc = Encounter.from_json(record, "record")
        action = enc.engine.legal_actions(enc.state)[0].id
        faces = list(enc.trial(action, SeededDice(21)).faces)
        if faces:
            return action, faces, record
        version = _gm_api(server, made["id"], made["gm_token"])["version"]
        _post(
            server,
            f"/api/encounters/{made['id']}/act",
            made["gm_token"],
            action=action,
            version=version,
        )
    raise AssertionError("no step that rolls dice")


def test_the_gm_types_every_face_of_a_step_of_each_ruleset_in_the_dice_dialog(
    shared_browser: Browser, shared_server: Server, tmp_path: Path
) -> None:
    browser, server = shared_browser, shared_server
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    for example in ONE_OF_EACH:
        made = _post(server, "/api/encounters", example=example, seed=6)
        action, faces, before = _rolling_action(server, made)
        _open_gm(page, server, made)
        page.locator(f'[data-action="{action}"] [data-table]').click()
        groups = 0
        while page.locator("[data-testid=dice-dialog]").count():
            so_far, count, sides = _dialog_group(page)
            assert so_far == faces[: len(so_far)]
            group = faces[len(so_far) : len(so_far) + count]
            assert len(group) == count and all(1 <= f <= sides for f in group)
            _type_group(page, group)
            groups += 1
        _steps(page, 1 + len(before["steps"]))
        record = _gm_api(server, made["id"], made["gm_token"], "/record")
        assert record["steps"][-1]["faces"] == faces and groups >= 1, example
        cli = _cli_on_faces(tmp_path, before, action, faces)
        assert cli["state"] == record["state"] and cli["steps"] == record["steps"], example


def test_the_program_rolls_one_group_in_the_middle_and_back_takes_one_back(
    shared_browser: Browser, shared_server: Server, tmp_path: Path
) -> None:
    browser, server = shared_browser, shared_server
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    made = _post(server, "/api/encounters", example="warfare2d20/duel", seed=6)
    action, faces, before = _rolling_action(server, made)
    _open_gm(page, server, made)
    page.locator(f'[data-action="{action}"] [data-table]').click()
    dialog = page.locator("[data-testid=dice-dialog]")
    _, count, sides = _dialog_group(page)
    expect(dialog.locator("[data-dice=back]")).to_be_disabled()
    # a face the die cannot show is refused as it is typed
    dialog.locator("input[data-die='0']").press_sequentially("0")
    assert dialog.locator("input[data-die='0']").input_value() == ""
    _type_group(page, faces[:count])
    dialog.locator("[data-dice=back]").click()
    _next_group_or_closed(page, ",".join(map(str, faces[:count])))
    assert _dialog_group(page)[0] == []
    _type_group(page, faces[:count])
    dialog.locator("[data-dice=program]").click()  # "roll this one for me"
    _next_group_or_closed(page, ",".join(map(str, faces[:count])))
    while dialog.count():
        so_far, count, sides = _dialog_group(page)
        _type_group(page, [1 + (len(so_far) + i) % sides for i in range(count)])
    _steps(page, 1 + len(before["steps"]))
    record = _gm_api(server, made["id"], made["gm_token"], "/record")
    typed = record["steps"][-1]["faces"]
    assert typed[:2] == faces[:2] and len(typed) > 2
    cli = _cli_on_faces(tmp_path, before, action, typed)
    assert cli["state"] == record["state"] and cli["steps"] == record["steps"]


def _type_initiative(page: Page, first: int) -> list[int]:
    """Answer the open dialog's initiative groups with first, first + 1, ... (at most the die's
    sides) until it closes; the faces typed."""
    typed: list[int] = []
    while page.locator("[data-testid=dice-dialog]").count():
        so_far, count, sides = _dialog_group(page)
        expect(page.locator("[data-testid=dice-purpose]")).to_contain_text("initiative")
        group = [min(sides, first + len(so_far) + i) for i in range(count)]
        _type_group(page, group)
        typed += group
    return typed


def test_round_ones_initiative_on_the_table_dice_from_the_start_page_and_the_gms_page(
    shared_browser: Browser, shared_server: Server
) -> None:
    browser, server = shared_browser, shared_server
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(server.url + "/")
    page.locator("[data-testid=table-initiative]").check()
    page.locator('[data-example="tactical_d20/knife_duel"]').click()
    typed = _type_initiative(page, 3)
    assert len(typed) >= 2, "knife_duel's initiative rolls a d20 each"
    page.wait_for_url("**/gm/**", timeout=WAIT_MS)
    encounter = page.url.split("/gm/")[1].split("#")[0]
    gm_token = page.url.split("gm=")[1].split("&")[0]
    assert _gm_api(server, encounter, gm_token, "/record")["start"]["faces"] == typed
    # on the GM's page, before the first step: the initiative asked for again, the box left empty
    expect(page.locator("body")).to_have_attribute("data-version", "1", timeout=WAIT_MS)
    page.locator("#table-panel > summary").click()  # the table's settings, folded
    page.locator("[data-testid=start-use]").click()
    again = _type_initiative(page, 11)
    expect(page.locator("body")).to_have_attribute("data-version", "2", timeout=WAIT_MS)
    assert again != typed
    assert _gm_api(server, encounter, gm_token, "/record")["start"]["faces"] == again
