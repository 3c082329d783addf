"""Writes that cannot land on a state nobody saw, and the GM's hand, through the API."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Table

#: Every write route, and every question of the table's dice about an encounter (guarded as the
#: write it leads to), with a body that would go through on the state it was chosen on.
WRITES: list[tuple[str, str, dict[str, Any]]] = [
    ("POST", "/act", {"action": "done", "seed": 1}),
    ("POST", "/undo", {}),
    ("POST", "/redo", {}),
    ("POST", "/edit", {"combatant": "Rivera", "field": "hit_points", "value": 9}),
    (
        "POST",
        "/add",
        {
            "side": "insurgents",
            "combatant": {"name": "Second", "combatant": "insurgent", "weapon": "AK-47"},
        },
    ),
    ("POST", "/remove", {"combatant": "Insurgent"}),
    ("POST", "/order", {"order": ["Insurgent", "Rivera"]}),
    ("POST", "/skip", {"seed": 1}),
    ("POST", "/end-round", {"seed": 1}),
    ("POST", "/start", {"dice": [5, 6, 8, 10]}),
    ("PUT", "/settings", {"enemy_detail": "names"}),
    ("POST", "/dice", {"action": "done"}),
    ("POST", "/start/dice", {"faces": []}),
]


def _detail(response: Any) -> str:
    detail: str = response.json()["detail"]
    assert "\n" not in detail
    return detail


def _gm_state(table: Table, made: dict[str, str]) -> tuple[Any, Any, int]:
    return (
        table.gm(made, "GET", "/record").json(),
        table.gm(made, "GET", "/settings").json(),
        table.store.version(made["id"]) or 0,
    )


@pytest.mark.parametrize(("method", "path", "body"), WRITES, ids=[w[1] for w in WRITES])
def test_a_write_on_a_version_nobody_sees_now_changes_nothing(
    table: Table, method: str, path: str, body: dict[str, Any]
) -> None:
    """Rivera acts (version 2); a write chosen on version 1 is a 409 naming what happened,
    and the record, the settings and the version stay as they were."""
    made = table.start(example="warfare2d20/duel", seed=1)
    assert table.gm(made, "GET").json()["turn"] == "Rivera"
    assert table.write(made, "/act", {"action": "done", "seed": 2}).status_code == 200
    before = _gm_state(table, made)
    response = table.gm(made, method, path, json={**body, "version": 1})
    assert response.status_code == 409, response.text
    assert _detail(response) == (
        "the fight moved on: Rivera acted since you looked "
        "(tip: reload to see the fight as it is now, then choose again)"
    )
    assert _gm_state(table, made) == before
    # the same write on the version it names now goes through
    if path not in ("/redo", "/start", "/start/dice"):
        now = table.gm(made, method, path, json={**body, "version": before[2]})
        assert now.status_code == 200, now.text


def test_the_same_request_sent_twice_commits_once(table: Table) -> None:
    made = table.start(example="warfare2d20/duel", seed=1)
    body = {"action": "take cover", "seed": 3, "version": 1}
    first = table.gm(made, "POST", "/act", json=body)
    second = table.gm(made, "POST", "/act", json=body)
    assert (first.status_code, second.status_code) == (200, 409)
    assert "Rivera acted since you looked" in _detail(second)
    assert table.gm(made, "GET").json()["steps"] == 1
    undo = {"version": 2}
    assert [table.gm(made, "POST", "/undo", json=undo).status_code for _ in range(2)] == [200, 409]
    assert table.gm(made, "GET").json()["steps"] == 0  # one step taken back, not two


def test_a_late_act_never_goes_to_whoever_acts_now(table: Table) -> None:
    """ "Rivera takes cover" chosen on version 1, sent after Rivera's turn passed: refused,
    never "Insurgent takes cover" (the same action id, now someone else's)."""
    made = table.start(example="warfare2d20/duel", seed=1)
    assert table.write(made, "/act", {"action": "done", "seed": 2}).status_code == 200
    assert table.gm(made, "GET").json()["turn"] == "Insurgent"
    late = {"action": "take cover", "actor": "Rivera", "seed": 3}
    response = table.gm(made, "POST", "/act", json={**late, "version": 1})
    assert response.status_code == 409
    # the actor named is checked too, even on the version the page shows
    response = table.write(made, "/act", late)
    assert response.status_code == 409
    assert "it is Insurgent's turn, not Rivera's" in _detail(response)
    assert table.gm(made, "GET").json()["steps"] == 1


def test_a_409_counts_the_changes_missed(table: Table) -> None:
    made = table.start(example="warfare2d20/duel", seed=1)
    table.write(made, "/act", {"action": "done", "seed": 2})
    table.write(made, "/edit", {"combatant": "Rivera", "field": "hit_points", "value": 9})
    response = table.gm(made, "POST", "/undo", json={"version": 1})
    assert response.status_code == 409
    assert _detail(response).startswith(
        "the fight moved on: 2 changes since you looked, the last: the GM edited it "
        "(Rivera.hit_points = 9 (was 20))"
    )
    response = table.gm(made, "POST", "/undo", json={"version": 99})
    assert response.status_code == 409 and "not one this encounter has had" in _detail(response)
    for body, says in [({}, "version: Field required"), ({"version": "3"}, "valid integer")]:
        response = table.gm(made, "POST", "/undo", json=body)
        assert response.status_code == 422 and says in _detail(response)


def test_the_gms_hand_through_the_api(table: Table) -> None:
    made = table.start(example="warfare2d20/duel", seed=1)
    state = table.gm(made, "GET").json()
    assert state["editable"]["Rivera"][:3] == ["hit_points", "stamina", "status"]
    assert state["sides"] == ["marines", "insurgents"]
    toml = 'name = "Second"\ncombatant = "insurgent"\nweapon = "AK-47"'
    steps = [
        ("/edit", {"combatant": "Insurgent", "field": "hit_points", "value": 5}),
        ("/edit", {"combatant": "Insurgent", "field": "stance", "value": "taking cover"}),
        ("/add", {"side": "insurgents", "combatant": toml, "position": 0}),
        ("/order", {"order": ["Rivera", "Second", "Insurgent"]}),
        ("/skip", {"dice": []}),
        ("/remove", {"combatant": "Second"}),
        ("/end-round", {"dice": []}),
    ]
    for path, body in steps:
        response = table.write(made, path, body)
        assert response.status_code == 200, (path, response.text)
    state = table.gm(made, "GET").json()
    assert state["round"] == 2 and state["steps"] == len(steps)
    log = table.gm(made, "GET", "/log").json()["steps"]
    assert log[0]["label"] == "GM: Insurgent.hit_points = 5 (was 14)"
    assert log[2]["label"] == "GM: Second joins insurgents, place 1 of this round's order"
    # the players see each edit as the view allows: never the hit points the GM set
    view = table.player(made).json()
    labels = [s["label"] for s in view["log"]]
    assert (
        labels[0] == "GM: an adjustment the players do not see" and view["log"][0]["changes"] == []
    )
    assert labels[1] == "GM: Insurgent changed"
    assert view["log"][1]["changes"] == ["Insurgent: stance none -> taking cover"]
    assert labels[2] == "GM: Second joins insurgents, place 1 of this round's order"
    assert "5" not in str(view["combatants"]["Insurgent"])
    # undone like an action
    assert table.write(made, "/undo").json()["round"] == 1


@pytest.mark.parametrize(
    ("path", "body", "says"),
    [
        ("/edit", {"combatant": "Rivera", "field": "hit_points", "value": 99}, "at most 20"),
        ("/edit", {"combatant": "Rivera", "field": "hit_points", "value": 9.5}, "whole number"),
        ("/edit", {"combatant": "Rivera", "field": "mood", "value": 1}, "not a field a GM may"),
        ("/add", {"side": "insurgents", "combatant": {"name": "X"}}, "the new combatant"),
        ("/add", {"side": "insurgents", "combatant": "name = ["}, "combatant: malformed TOML"),
        ("/remove", {"combatant": "x" * 100_000}, "remove: field combatant: String should"),
        ("/order", {"order": []}, "order names nobody"),
        ("/skip", {"dice": [1, 2]}, "left unused"),
        ("/start", {"dice": [1]}, "dice gave 1 face; this resolution needs 4 in all"),
        ("/act", {"action": "y" * 100_000}, "has no action 'yyy"),
    ],
)
def test_a_refused_edit_is_one_short_line_and_changes_nothing(
    table: Table, path: str, body: dict[str, Any], says: str
) -> None:
    made = table.start(example="warfare2d20/duel", seed=1)
    before = _gm_state(table, made)
    response = table.write(made, path, body)
    assert response.status_code == 422 and says in _detail(response)
    assert len(_detail(response)) <= 400  # a 100,000-character id is cut, as the CLI cuts it
    assert _gm_state(table, made) == before


def test_the_table_rolls_the_start(table: Table) -> None:
    """The start's initiative on the table's dice, when starting or before the first step."""
    made = table.start(example="warfare2d20/duel", dice=[10, 9, 1, 1])
    log = table.gm(made, "GET", "/log").json()
    assert "2d10[10, 9] = 19" in " ".join(log["start"])
    assert table.gm(made, "GET").json()["order"] == ["Insurgent", "Rivera"]
    response = table.write(made, "/start", {"dice": [1, 1, 10, 9]})
    assert response.status_code == 200 and response.json()["order"] == ["Rivera", "Insurgent"]
    table.write(made, "/act", {"action": "done", "seed": 1})
    response = table.write(made, "/start", {"dice": [1, 1, 10, 9]})
    assert response.status_code == 422 and "only before the first step" in _detail(response)
    bad = table.client.post("/api/encounters", json={"example": "warfare2d20/duel", "dice": [1]})
    assert bad.status_code == 422 and "dice gave 1 face; this resolution" in _detail(bad)


def test_the_gm_chooses_the_players_side(table: Table) -> None:
    made = table.start(example="warfare2d20/duel", seed=1)
    assert table.player(made).json()["side"] == "marines"
    put = table.write(made, "/settings", {"players_side": "insurgents"}, method="PUT")
    assert put.status_code == 200 and put.json()["players_side"] == "insurgents"
    assert table.player(made).json()["side"] == "insurgents"
    bad = table.write(made, "/settings", {"players_side": "pirates"}, method="PUT")
    assert bad.status_code == 422 and "is not a side" in _detail(bad)
