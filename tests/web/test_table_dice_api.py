"""POST .../dice, POST .../start/dice and POST /api/start/dice: the table's dice asked for group
by group over the API, writing nothing, on the version the page shows; the faces they end with,
given to the act route (or to a new encounter, or to .../start), record exactly what the same
faces give at once."""

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
        response = table.write(made, "/dice", {"action": action, "faces": faces})
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
    after = table.write(made, "/act", {"action": action, "dice": asked["faces_so_far"]})
    assert after.status_code == 200, after.text
    log = table.gm(made, "GET", "/log").json()["steps"][-1]
    assert log["faces"] == list(step.faces) and log["lines"] == list(step.lines)


def test_the_program_rolls_a_group_or_the_rest_and_back_is_the_faces_without_the_last(
    table: Table,
) -> None:
    made = table.start(example="warfare2d20/duel", seed=3)
    action = table.gm(made, "GET", "/actions?odds=false").json()[0]["id"]
    first = table.write(made, "/dice", {"action": action, "roll": "group"}).json()
    assert len(first["faces_so_far"]) == first["answered"][0]["count"] == 2
    assert first["answered"][0]["faces"] == first["faces_so_far"]
    rest = table.write(
        made, "/dice", {"action": action, "faces": first["faces_so_far"], "roll": "rest"}
    ).json()
    assert rest["complete"] and rest["faces_so_far"][:2] == first["faces_so_far"]
    last = rest["answered"][-1]
    back = rest["faces_so_far"][: last["first_face"] - 1]
    again = table.write(made, "/dice", {"action": action, "faces": back}).json()
    assert not again["complete"] and again["next"]["for"] == last["for"]
    done = table.write(made, "/act", {"action": action, "dice": rest["faces_so_far"]})
    assert done.status_code == 200 and done.json()["steps"] == 1


def test_a_stale_version_or_actor_is_refused_as_a_stale_write_is(table: Table) -> None:
    """The dialog's questions are guarded as the act that ends them: the same 409, in the same
    words, on a version the encounter has moved on from or for a combatant whose turn it is not."""
    made = table.start(example="tactical_d20/knife_duel", seed=3)
    row = table.gm(made, "GET", "/actions?odds=false").json()[0]
    action, actor = row["id"], row["actor"]
    version = table.version(made)
    body = {"action": action, "actor": actor, "version": version}
    fresh = table.gm(made, "POST", "/dice", json=body)
    assert fresh.status_code == 200 and fresh.json()["version"] == version
    table.write(made, "/act", {"action": action, "seed": 1})
    stale = table.gm(made, "POST", "/dice", json=body)
    stale_act = table.gm(made, "POST", "/act", json={**body, "seed": 1})
    assert stale.status_code == stale_act.status_code == 409
    assert stale.json()["detail"] == stale_act.json()["detail"]
    assert stale.json()["detail"].startswith(f"the fight moved on: {actor} acted since you looked")
    now = table.gm(made, "GET").json()
    idle = next(name for name in now["combatants"] if name != now["turn"])
    action_now = table.gm(made, "GET", "/actions?odds=false").json()[0]["id"]
    mine = {"action": action_now, "actor": now["turn"], "version": now["version"]}
    assert table.gm(made, "POST", "/dice", json=mine).status_code == 200
    other = table.gm(made, "POST", "/dice", json={**mine, "actor": idle})
    assert other.status_code == 409 and f"not {idle}'s" in other.json()["detail"]
    unversioned = table.gm(made, "POST", "/dice", json={"action": action})
    assert unversioned.status_code == 422 and "version" in unversioned.json()["detail"]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"action": "nope"}, "has no action 'nope'"),
        ({"action": "FIRST", "faces": [99]}, "the table's die 1 shows 99, which a d20"),
        ({"action": "FIRST", "faces": [True]}, "dice face 1 is true, not a face of a die"),
        ({"action": "FIRST", "faces": [3] * 40}, "left unused"),
        ({"action": "FIRST", "roll": "some"}, "roll: Input should be 'group' or 'rest'"),
        ({"action": "FIRST", "colour": 1}, "colour: Extra inputs are not permitted"),
        ({"action": "FIRST", "faces": "4 8"}, "faces: Input should be a valid list"),
        ({"action": 7}, "action: Input should be a valid string"),
    ],
)
def test_bad_asks_are_one_clear_422(table: Table, body: dict[str, Any], says: str) -> None:
    made = table.start(example="tactical_d20/knife_duel", seed=2)
    first = table.gm(made, "GET", "/actions?odds=false").json()[0]["id"]
    body = {k: (first if v == "FIRST" else v) for k, v in body.items()}
    response = table.write(made, "/dice", body)
    assert response.status_code == 422 and says in response.json()["detail"]


def _fencers_start(seed: int) -> tuple[SeededDice, Encounter]:
    """The fencers' start on seeded dice: the dice (their tape) and the encounter begun."""
    engine = Engine(read_scenario(EXAMPLES / "dragonwarriors2" / "encounters" / "fencers.toml"))
    seeded = SeededDice(seed)
    return seeded, Encounter.begin(engine, seeded)


def _start_faces(ask: Any, seeded: SeededDice) -> tuple[list[int], dict[str, Any]]:
    """``ask(faces)`` group by group, each group answered with the next faces ``seeded`` rolled."""
    faces: list[int] = []
    while True:
        got: dict[str, Any] = ask(faces)
        if got["complete"]:
            return faces, got
        assert "initiative" in got["next"]["for"] and got["next"]["who"]
        faces = faces + list(seeded.tape[len(faces) : len(faces) + got["next"]["count"]])


def test_round_ones_initiative_on_the_table_dice_before_the_encounter_exists(
    table: Table,
) -> None:
    seeded, expected = _fencers_start(4)

    def ask(faces: list[int]) -> dict[str, Any]:
        body = {"example": "dragonwarriors2/fencers", "faces": faces}
        return dict(table.client.post("/api/start/dice", json=body).json())

    faces, got = _start_faces(ask, seeded)
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


def test_round_ones_initiative_asked_again_on_the_gms_page_before_the_first_step(
    table: Table,
) -> None:
    """.../start/dice asks what .../start takes, on the version shown, before any step."""
    seeded, expected = _fencers_start(5)
    made = table.start(example="dragonwarriors2/fencers", seed=1)
    version = table.version(made)

    def ask(faces: list[int]) -> dict[str, Any]:
        response = table.gm(made, "POST", "/start/dice", json={"faces": faces, "version": version})
        assert response.status_code == 200, response.text
        return dict(response.json())

    faces, got = _start_faces(ask, seeded)
    assert got["transcript"] == list(expected.start_lines)
    assert table.version(made) == version, "asking writes nothing"
    short = table.write(made, "/start", {"dice": faces[:-1]})
    assert short.status_code == 422 and "POST .../start/dice asks" in short.json()["detail"]
    done = table.write(made, "/start", {"dice": faces})
    assert done.status_code == 200, done.text
    assert table.gm(made, "GET", "/record").json()["start"]["faces"] == list(expected.start_faces)
    stale = table.gm(made, "POST", "/start/dice", json={"faces": [], "version": version})
    assert stale.status_code == 409 and "the start was rolled again" in stale.json()["detail"]
    action = table.gm(made, "GET", "/actions?odds=false").json()[0]["id"]
    table.write(made, "/act", {"action": action, "seed": 1})
    late = table.write(made, "/start/dice", {"faces": []})
    assert late.status_code == 422 and "only before the first step" in late.json()["detail"]
