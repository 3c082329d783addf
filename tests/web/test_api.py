"""The tracker's JSON API in process: every route, every example, every refusal."""

from __future__ import annotations

import json
import time
import tomllib
from pathlib import Path

import pytest

from firefight.core.turns import state_to_json
from firefight.encounter import Encounter, load_record, save_record, show_json
from firefight.encounter.fight import combatants_json
from firefight.encounter.policies import preview_effect
from firefight.web.api import MAX_BUDGET
from firefight.web.views import ENGINE_KEYS
from tests.web.conftest import EXAMPLE_FILES, EXAMPLE_IDS, EXAMPLES, Table, make_table


def test_examples_lists_every_bundled_scenario_and_those_a_plugin_ships(table: Table) -> None:
    listed = table.client.get("/api/examples").json()
    assert [e["id"] for e in listed] == EXAMPLE_IDS
    for example in ("warfare2d20/duel", "risk/last_stand"):
        shown = next(e for e in listed if e["id"] == example)
        title = tomllib.loads(EXAMPLE_FILES[example].read_text())["title"]
        assert shown["title"] == title and shown["ruleset"] == example.split("/")[0]


@pytest.mark.parametrize("example", EXAMPLE_IDS)
def test_every_example_plays_through_the_api(table: Table, example: str) -> None:
    made = table.start(example=example, seed=5)
    assert set(made) == {"id", "gm_token", "player_token"}
    state = table.gm(made, "GET").json()
    assert state["steps"] == 0 and state["ending"] is None and state["turn"] in state["order"]
    listed = table.gm(made, "GET", "/actions?odds=false").json()
    keys = {"id", "label", "kind", "target", "actor", "defensive", "params"}
    assert listed and all(set(a) == keys for a in listed)
    after = table.write(made, "/act", {"action": listed[0]["id"], "seed": 9}).json()
    assert after["steps"] == 1
    log = table.gm(made, "GET", "/log").json()
    assert log["steps"][0]["action"] == listed[0]["id"] and log["steps"][0]["label"]
    view = table.player(made).json()
    assert view["log"][0]["label"] == listed[0]["label"]
    assert table.write(made, "/undo").json()["steps"] == 0
    redone = table.write(made, "/redo").json()
    assert redone["version"] == after["version"] + 2
    assert {**redone, "version": 0} == {**after, "version": 0}  # the same faces: the same state
    record = table.gm(made, "GET", "/record").json()
    assert record["format"] == "firefight-encounter" and len(record["steps"]) == 1


@pytest.mark.parametrize(
    "example",
    [
        "warfare2d20/small_duel",
        "dragonwarriors2/goblin_duel",
        "graydawn/fire_team",
        "tactical_d20/knife_duel",
        "quality_d100/small_duel",
    ],
)
def test_actions_carry_the_engines_previews(table: Table, example: str, tmp_path: Path) -> None:
    """Each action's odds are the engine's preview, with what the list adds (the same odds as
    another, the risk before the actor's next turn and what it saves); each has a ``win`` field
    (none yet, or ``p``, ``ci95``, ``exact``, ``fights``). The list is asked with the largest
    budget, so each preview is exact whatever the machine's speed (on a slow or loaded one the
    default second may give an estimate first, which the budget tests cover)."""
    made = table.start(example=example, seed=2)
    actions = table.gm(made, "GET", "/actions", params={"budget": MAX_BUDGET}).json()
    record = Encounter.from_json(table.gm(made, "GET", "/record").json(), "record")
    engine, state = record.engine, record.state
    legal = engine.legal_actions(state)
    previews = [engine.preview(state, a) for a in legal]
    expected = [
        {**p.to_json(), "effect": float(preview_effect(engine, p, a.actor))}
        for a, p in zip(legal, previews, strict=True)
    ]
    added = {"same_as", "same_why", "risk", "defence"}
    assert [{k: v for k, v in a["odds"].items() if k not in added} for a in actions] == expected
    assert all({"id", "label", "odds", "win"} <= set(a) for a in actions)
    for action in actions:
        assert action["win"] is None or set(action["win"]) == {"p", "ci95", "exact", "fights"}
    # each action's own parameters, for the page's selectors (weapon, mode, region...)
    assert [(a["defensive"], a["params"]) for a in actions] == [
        (a.defensive, {k: state_to_json(v) for k, v in a.params}) for a in legal
    ]


def test_odds_one_action_at_a_time_match_the_list(table: Table) -> None:
    made = table.start(example="tactical_d20/knife_duel", seed=2)
    listed = table.gm(made, "GET", "/choices").json()
    for action in listed["actions"]:
        one = table.gm(made, "GET", "/odds", params={"action": action["id"]}).json()
        assert one.keys() == action["odds"].keys() and one["exact"] == action["odds"]["exact"]
    response = table.gm(made, "GET", "/odds", params={"action": "nope"})
    assert response.status_code == 422 and "has no action 'nope'" in _detail(response)


def test_a_slow_preview_arrives_as_an_estimate_then_exact(table: Table) -> None:
    """Under a tiny budget the list comes back at once with every action answered, graydawn's
    suppressing fire as an estimate with its intervals and count; asked again later, the
    refinement has made it exact (the list is refined for a minute after it is asked)."""
    made = table.start(example="graydawn/duel", seed=1)
    first = table.gm(made, "GET", "/choices", params={"budget": 0.001}).json()
    assert first["progress"]["answered"] and first["progress"]["actions"] == len(first["actions"])
    fire = next(a for a in first["actions"] if a["id"] == "suppress:Kid_Rourke:10")["odds"]
    assert fire["exact"] is False and fire["samples"] >= 1
    lo, hi = fire["ci95"]["p_success"]
    assert lo <= fire["p_success"] <= hi
    assert "the rest estimated" in first["progress"]["text"]
    for _ in range(600):
        now = table.gm(made, "GET", "/choices").json()
        if now["progress"].get("exact") == len(now["actions"]):
            break
        time.sleep(0.1)
    assert now["progress"]["text"].startswith("exact for all")
    fire = next(a for a in now["actions"] if a["id"] == "suppress:Kid_Rourke:10")["odds"]
    assert fire["exact"] is True and "samples" not in fire


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"budget": 0}, "budget: Input should be greater than 0"),
        ({"budget": 61}, "budget: Input should be less than or equal to 60"),
        ({"ceiling": -1}, "ceiling: Input should be greater than or equal to 0"),
    ],
)
def test_a_budget_out_of_bounds_is_refused(
    table: Table, params: dict[str, float], message: str
) -> None:
    made = table.start(example="warfare2d20/small_duel", seed=1)
    response = table.gm(made, "GET", "/actions", params=params)
    assert response.status_code == 422 and message in _detail(response)


def test_a_finished_fight_shows_the_rulesets_recovery(table: Table) -> None:
    """Once a fight ends, the GM's state carries the ruleset's after-the-fight lines (graydawn's
    healing times, G19 for the mortal), as the engine gives them; none while it goes on."""
    made = table.start(example="graydawn/knife_duel_exact", seed=1)
    for n in range(100):
        state = table.gm(made, "GET").json()
        if state["ending"]:
            break
        assert state["after"] == []
        first = table.gm(made, "GET", "/actions?odds=false").json()[0]["id"]
        table.write(made, "/act", {"action": first, "seed": n})
    record = Encounter.from_json(table.gm(made, "GET", "/record").json(), "record")
    assert state["after"] == record.engine.turns.after_fight(record.state)
    assert any("heal" in line for line in state["after"])
    assert any("G19" in line for line in state["after"])


def test_state_is_the_shape_of_encounter_show_json(table: Table, tmp_path: Path) -> None:
    made = table.start(example="quality_d100/small_duel", seed=3)
    first = table.gm(made, "GET", "/actions?odds=false").json()[0]["id"]
    state = table.write(made, "/act", {"action": first, "seed": 4}).json()
    enc = Encounter.from_json(table.gm(made, "GET", "/record").json(), "record")
    editable = {n: list(enc.engine.turns.gm_fields(enc.state, n)) for n in enc.state.names()}
    sides = [s.name for s in enc.engine.scenario.spec.sides]
    layout = enc.engine.turns.layout
    cards = {
        name: layout.card({k: v for k, v in entry.items() if k not in ENGINE_KEYS})
        for name, entry in combatants_json(enc.engine, enc.state).items()
    }
    extra = {"after": [], "version": 2, "sides": sides, "editable": editable, "cards": cards}
    assert state == {**show_json(enc), **extra}
    assert state["combatants"] == combatants_json(enc.engine, enc.state)


def test_a_scenario_text_starts_an_encounter(table: Table) -> None:
    text = (EXAMPLES / "tactical_d20" / "encounters" / "knife_duel.toml").read_text()
    made = table.start(scenario=text, seed=1, players_side=None)
    assert table.gm(made, "GET").json()["ruleset"] == "tactical_d20"


@pytest.mark.parametrize("example", ["warfare2d20/small_duel", "dragonwarriors2/goblin_duel"])
def test_table_dice_give_what_the_program_dice_gave(
    table: Table, tmp_path: Path, example: str
) -> None:
    """The faces of a step on the program's dice, typed back in, give the same step (goblin
    duel: an attack that waits for the parry rolls nothing, and [] is its faces)."""
    made = table.start(example=example, seed=1)
    record = table.gm(made, "GET", "/record").json()
    save = tmp_path / "enc.json"
    save.write_text(json.dumps(record))
    enc = load_record(save)
    action = enc.engine.legal_actions(enc.state)[0].id
    # the program's dice, then the same faces typed in: the same transcript
    by_program = table.write(made, "/act", {"action": action, "seed": 11})
    step = table.gm(made, "GET", "/log").json()["steps"][0]
    table.write(made, "/undo")
    typed = table.write(made, "/act", {"action": action, "dice": step["faces"]})
    assert {**typed.json(), "version": 0} == {**by_program.json(), "version": 0}
    assert table.gm(made, "GET", "/log").json()["steps"][0]["lines"] == step["lines"]


def test_records_move_between_the_cli_and_the_tracker(table: Table, tmp_path: Path) -> None:
    from firefight.dice import SeededDice
    from firefight.encounter import Engine, read_scenario

    engine = Engine(read_scenario(EXAMPLES / "warfare2d20" / "encounters" / "small_duel.toml"))
    enc = Encounter.begin(engine, SeededDice(1))
    enc.act(engine.legal_actions(enc.state)[0].id, SeededDice(2))
    file = tmp_path / "cli.json"
    save_record(enc, file)
    made = table.start(record=json.loads(file.read_text()))
    shown = table.gm(made, "GET").json()
    told = ("version", "sides", "editable", "cards")
    assert {k: v for k, v in shown.items() if k not in told} == {
        **show_json(enc),
        "after": [],
    }
    # and back: the tracker's export opens in the CLI, with the tracker's step in it
    first = table.gm(made, "GET", "/actions?odds=false").json()[0]["id"]
    table.write(made, "/act", {"action": first, "seed": 3})
    back = tmp_path / "back.json"
    back.write_text(json.dumps(table.gm(made, "GET", "/record").json()))
    reopened = load_record(back)
    assert len(reopened.steps) == 2 and reopened.steps[-1].action == first


def test_settings_choose_what_players_see_of_enemies(table: Table) -> None:
    made = table.start(example="warfare2d20/duel", seed=1)
    assert table.gm(made, "GET", "/settings").json()["enemy_detail"] == "status"
    put = table.write(made, "/settings", {"enemy_detail": "names"}, method="PUT")
    assert put.status_code == 200
    view = table.player(made).json()
    enemies = [c for c in view["combatants"].values() if c["side"] != view["side"]]
    assert enemies and all(set(c) == {"side"} for c in enemies)


def test_the_gm_token_reads_the_players_view_too(table: Table) -> None:
    made = table.start(example="warfare2d20/duel", seed=1)
    as_gm = table.gm(made, "GET", "/player").json()
    assert as_gm == table.player(made).json()


def test_openapi_documents_the_routes(table: Table) -> None:
    paths = table.client.get("/openapi.json").json()["paths"]
    for route in ("", "/actions", "/odds", "/act", "/undo", "/redo", "/player", "/events"):
        assert f"/api/encounters/{{encounter_id}}{route}" in paths
    assert "/api/encounters" in paths
    assert table.client.get("/docs").status_code == 200


def test_pages_are_served(table: Table) -> None:
    for page in ("/", "/gm/x", "/play/x", "/static/tracker.js"):
        assert table.client.get(page).status_code == 200


# -- refusals ------------------------------------------------------------------------------------
def _detail(response: object) -> str:
    detail: str = response.json()["detail"]  # type: ignore[attr-defined]
    assert "\n" not in detail and detail
    return detail


def test_a_players_token_cannot_write(table: Table) -> None:
    made = table.start(example="warfare2d20/duel", seed=1)
    first = table.gm(made, "GET", "/actions?odds=false").json()[0]["id"]
    player = table.auth(made["player_token"])
    base = f"/api/encounters/{made['id']}"
    for method, path, body in [
        ("POST", "/act", {"action": first}),
        ("POST", "/undo", None),
        ("POST", "/redo", None),
        ("GET", "", None),
        ("GET", "/actions", None),
        ("GET", "/record", None),
        ("PUT", "/settings", {"enemy_detail": "status"}),
    ]:
        response = table.client.request(method, base + path, headers=player, json=body)
        assert response.status_code == 403, (method, path)
        assert "players' token" in _detail(response)
    assert table.gm(made, "GET").json()["steps"] == 0


def test_another_encounters_token_is_refused(table: Table) -> None:
    one = table.start(example="warfare2d20/duel", seed=1)
    two = table.start(example="warfare2d20/duel", seed=1)
    base = f"/api/encounters/{one['id']}"
    for token in (two["gm_token"], two["player_token"], "not-a-token"):
        for path in ("", "/player"):
            response = table.client.get(base + path, headers=table.auth(token))
            assert response.status_code == 403
            assert "does not open this encounter" in _detail(response)


def test_no_token_and_unknown_encounter(table: Table) -> None:
    made = table.start(example="warfare2d20/duel", seed=1)
    response = table.client.get(f"/api/encounters/{made['id']}")
    assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"
    response = table.client.get("/api/encounters/nope", headers=table.auth(made["gm_token"]))
    assert response.status_code == 404 and "no encounter 'nope'" in _detail(response)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"action": "no-such-action"}, "has no action 'no-such-action'"),
        ({"action": "FIRST", "dice": [99]}, "the table's die 1 shows 99, which a d20 for"),
        ({"action": "FIRST", "dice": ["x"]}, "dice face 1 is 'x'"),
        # JSON that is no face: never read as one (true was a natural 1, 10.0 a 10)
        ({"action": "FIRST", "dice": [True]}, "dice face 1 is true, not a face of a die"),
        ({"action": "FIRST", "dice": [4, False]}, "dice face 2 is false, not a face"),
        ({"action": "FIRST", "dice": [10.0, 2]}, "dice face 1 is 10.0, not a face"),
        ({"action": "FIRST", "dice": [None]}, "dice face 1 is null, not a face"),
        ({"action": "FIRST", "dice": ["17 2"]}, 'dice face 1 is "17 2", not a face'),
        ({"action": "FIRST", "dice": [[3]]}, "dice face 1 is [3], not a face"),
        ({"action": "FIRST", "dice": [3] * 40}, "left unused"),
        ({"action": "FIRST", "dice": []}, "dice gave 0 faces; this resolution needs 1 to 3 in all"),
        ({"action": "FIRST", "dice": [3], "seed": 1}, "dice and seed both given"),
        ({"action": "FIRST", "seed": -1}, "seed: Input should be greater than or equal to 0"),
        ({"action": "FIRST", "colour": "red"}, "colour: Extra inputs are not permitted"),
        ({}, "action: Field required"),
        ({"action": "FIRST", "seed": "1"}, "seed: Input should be a valid integer"),
        ({"action": "FIRST", "seed": True}, "seed: Input should be a valid integer"),
        ({"action": "FIRST", "seed": 1.0}, "seed: Input should be a valid integer"),
    ],
)
def test_bad_actions_and_faces_are_one_clear_422(table: Table, body: dict, says: str) -> None:
    made = table.start(example="tactical_d20/knife_duel", seed=1)  # its first action rolls
    first = table.gm(made, "GET", "/actions?odds=false").json()[0]["id"]
    before = table.gm(made, "GET", "/record").json()
    version = table.store.version(made["id"])
    body = {k: (first if v == "FIRST" else v) for k, v in body.items()}
    response = table.gm(made, "POST", "/act", json={"version": version, **body})
    assert response.status_code == 422
    assert says in _detail(response)
    assert table.gm(made, "GET", "/record").json() == before  # nothing changed...
    assert table.store.version(made["id"]) == version  # ...nor was written


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"scenario": "ruleset = ["}, "scenario: malformed TOML"),
        ({"scenario": 'ruleset = "chess"\ntitle = "x"'}, "scenario"),
        ({"scenario": 'house = "mine.toml"'}, "names a file the server cannot read"),
        ({"example": "warfare2d20/nope"}, "not a bundled example"),
        ({}, "give exactly one of scenario, example or record"),
        ({"record": {"format": "other"}}, "not a firefight encounter record"),
        ({"example": "warfare2d20/duel", "players_side": "Martians"}, "is not a side"),
        ({"example": "warfare2d20/duel", "enemy_detail": "all"}, "enemy_detail"),
    ],
)
def test_bad_scenarios_are_one_clear_422(table: Table, body: dict, says: str) -> None:
    response = table.client.post("/api/encounters", json=body)
    assert response.status_code == 422
    assert says in _detail(response)


def test_a_body_that_is_not_json(table: Table) -> None:
    response = table.client.post(
        "/api/encounters", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422 and "not valid JSON" in _detail(response)


def test_an_oversized_upload_is_refused(tmp_path: Path) -> None:
    for table in make_table(tmp_path, max_body=10_000):
        big = "# padding\n" * 2_000
        response = table.client.post("/api/encounters", json={"scenario": big})
        assert response.status_code == 413 and "over 10,000 bytes" in _detail(response)

        def chunks() -> object:  # no content-length: counted as it arrives
            for _ in range(30):
                yield b" " * 1_000

        response = table.client.post(
            "/api/encounters", content=chunks(), headers={"content-type": "application/json"}
        )
        assert response.status_code == 413


def test_requests_past_the_rate_are_refused(tmp_path: Path) -> None:
    for table in make_table(tmp_path, rate=1, burst=5):
        codes = [table.client.get("/api/examples").status_code for _ in range(8)]
        assert codes[:5] == [200] * 5 and codes[-1] == 429
        response = table.client.get("/api/examples")
        assert "too many requests" in _detail(response)
        assert int(response.headers["retry-after"]) >= 1
        # a made-up token or query string each time is the same client, not a fresh bucket
        dodges = [
            table.client.get(f"/api/examples?n={n}", headers={"Authorization": f"Bearer r{n}"})
            for n in range(5)
        ]
        assert {r.status_code for r in dodges} == {429}


def test_a_finished_fight_refuses_actions_but_undoes(table: Table) -> None:
    made = table.start(example="warfare2d20/small_duel", seed=1)
    for n in range(200):
        state = table.gm(made, "GET").json()
        if state["ending"]:
            break
        first = table.gm(made, "GET", "/actions?odds=false").json()[0]["id"]
        table.write(made, "/act", {"action": first, "seed": n})
    assert state["ending"] is not None
    assert table.gm(made, "GET", "/actions").json() == []
    response = table.write(made, "/act", {"action": "x"})
    assert response.status_code == 422 and "the fight is over" in _detail(response)
    assert table.write(made, "/undo").json()["ending"] is None


def test_tokens_are_stored_only_as_digests(table: Table) -> None:
    made = table.start(example="warfare2d20/duel", seed=1)
    row = table.store.get(made["id"])
    assert row is not None
    stored = json.dumps(row.__dict__)
    assert made["gm_token"] not in stored and made["player_token"] not in stored
