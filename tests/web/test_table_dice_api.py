"""POST .../dice and POST /api/start/dice: the table's dice asked for group by group over the
API, writing nothing; the faces they end with, given to the act route (or to a new encounter),
record exactly what the same faces give at once."""

from __future__ import annotations

from typing import Any

import pytest

from firefight.dice import SeededDice
from firefight.encounter import Encounter, Engine, read_scenario
from tests.web.conftest import EXAMPLES, Table

FIVE = [
    "warfare2d20/duel",
    "dragonwarriors2/goblin_duel",
    "graydawn/duel",
    "tactical_d20/knife_duel",
    "quality_d100/small_duel",
]


def _asked(table: Table, made: dict[str, str], action: str, tape: list[int]) -> dict[str, Any]:
    """POST .../dice group by group, each group answered with the next faces of ``tape``."""
    faces: list[int] = []
    while True:
        response = table.gm(made, "POST", "/dice", json={"action": action, "faces": faces})
        assert response.status_code == 200, response.text
        got: dict[str, Any] = response.json()
        assert got["faces_so_far"] == faces
        if got["complete"]:
            return got
        nxt = got["next"]
        assert set(nxt) >= {"group", "who", "dice", "sides", "count", "kind", "for", "rule"}
        assert (
            nxt["first_face"] == len(faces) + 1 and nxt["dice"] == f"{nxt['count']}d{nxt['sides']}"
        )
        faces = faces + tape[len(faces) : len(faces) + nxt["count"]]


@pytest.mark.parametrize("example", FIVE)
def test_a_step_asked_group_by_group_then_acted_is_the_step_on_those_faces(
    table: Table, example: str
) -> None:
    made = table.start(example=example, seed=3)
    record = Encounter.from_json(table.gm(made, "GET", "/record").json(), "record")
    state = record.state
    action = record.engine.legal_actions(state)[0].id
    step = record.trial(action, SeededDice(8))
    before = table.gm(made, "GET", "/record").json()
    version = table.store.version(made["id"])
    asked = _asked(table, made, action, list(step.faces))
    assert asked["faces_so_far"] == list(step.faces)
    assert asked["transcript"] == list(step.lines)
    assert table.store.version(made["id"]) == version, "asking writes nothing"
    assert table.gm(made, "GET", "/record").json() == before
    after = table.gm(made, "POST", "/act", json={"action": action, "dice": asked["faces_so_far"]})
    assert after.status_code == 200, after.text
    log = table.gm(made, "GET", "/log").json()["steps"][-1]
    assert log["faces"] == list(step.faces) and log["lines"] == list(step.lines)


def test_the_program_rolls_a_group_or_the_rest_and_back_is_the_faces_without_the_last(
    table: Table,
) -> None:
    made = table.start(example="warfare2d20/duel", seed=3)
    action = table.gm(made, "GET", "/actions?odds=false").json()[0]["id"]
    first = table.gm(made, "POST", "/dice", json={"action": action, "roll": "group"}).json()
    assert len(first["faces_so_far"]) == first["answered"][0]["count"] == 2
    assert first["answered"][0]["faces"] == first["faces_so_far"]
    rest = table.gm(
        made,
        "POST",
        "/dice",
        json={"action": action, "faces": first["faces_so_far"], "roll": "rest"},
    ).json()
    assert rest["complete"] and rest["faces_so_far"][:2] == first["faces_so_far"]
    last = rest["answered"][-1]
    back = rest["faces_so_far"][: last["first_face"] - 1]
    again = table.gm(made, "POST", "/dice", json={"action": action, "faces": back}).json()
    assert not again["complete"] and again["next"]["for"] == last["for"]
    done = table.gm(made, "POST", "/act", json={"action": action, "dice": rest["faces_so_far"]})
    assert done.status_code == 200 and done.json()["steps"] == 1


def test_a_stale_version_is_refused_and_the_current_one_answered(table: Table) -> None:
    made = table.start(example="tactical_d20/knife_duel", seed=3)
    action = table.gm(made, "GET", "/actions?odds=false").json()[0]["id"]
    version = table.store.version(made["id"])
    fresh = table.gm(made, "POST", "/dice", json={"action": action, "version": version})
    assert fresh.status_code == 200 and fresh.json()["version"] == version
    table.gm(made, "POST", "/act", json={"action": action, "seed": 1})
    stale = table.gm(made, "POST", "/dice", json={"action": action, "version": version})
    assert stale.status_code == 409 and "not " + str(version) in stale.json()["detail"]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"action": "nope"}, "has no action 'nope'"),
        ({"action": "FIRST", "faces": [99]}, "the table's die 1 shows 99, which a d20"),
        ({"action": "FIRST", "faces": [True]}, "dice face 1 is true, not a face of a die"),
        ({"action": "FIRST", "faces": [3] * 40}, "left unused"),
        ({"action": "FIRST", "roll": "some"}, "roll: Input should be 'group' or 'rest'"),
        ({"action": "FIRST", "colour": 1}, "colour: Extra inputs are not permitted"),
    ],
)
def test_bad_asks_are_one_clear_422(table: Table, body: dict[str, Any], says: str) -> None:
    made = table.start(example="tactical_d20/knife_duel", seed=2)
    first = table.gm(made, "GET", "/actions?odds=false").json()[0]["id"]
    body = {k: (first if v == "FIRST" else v) for k, v in body.items()}
    response = table.gm(made, "POST", "/dice", json=body)
    assert response.status_code == 422 and says in response.json()["detail"]


def test_round_ones_initiative_on_the_table_dice_before_the_encounter_exists(
    table: Table,
) -> None:
    engine = Engine(read_scenario(EXAMPLES / "dragonwarriors2" / "encounters" / "fencers.toml"))
    seeded = SeededDice(4)
    expected = Encounter.begin(engine, seeded)
    faces: list[int] = []
    while True:
        got = table.client.post(
            "/api/start/dice", json={"example": "dragonwarriors2/fencers", "faces": faces}
        ).json()
        if got["complete"]:
            break
        assert "initiative" in got["next"]["for"] and got["next"]["who"]
        faces = faces + list(seeded.tape[len(faces) : len(faces) + got["next"]["count"]])
    assert got["transcript"] == list(expected.start_lines)
    made = table.start(example="dragonwarriors2/fencers", dice=faces)
    record = table.gm(made, "GET", "/record").json()
    assert record["start"]["faces"] == list(expected.start_faces)
    short = table.client.post(
        "/api/encounters", json={"example": "dragonwarriors2/fencers", "dice": []}
    )
    assert short.status_code == 422 and "dice gave 0 faces" in short.json()["detail"]
    both = table.client.post(
        "/api/encounters", json={"example": "dragonwarriors2/fencers", "dice": faces, "seed": 1}
    )
    assert both.status_code == 422 and "dice and seed both given" in both.json()["detail"]
