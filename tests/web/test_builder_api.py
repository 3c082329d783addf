"""What the start page's scenario form asks of the API: the rulesets, each one's combatant
model and catalog, a scenario (or a draft) judged as a file is; the cards the pages draw."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from firefight.encounter import read_scenario
from firefight.encounter.policies import POLICIES
from firefight.errors import FirefightError
from firefight.rulesets import BUILT_IN, available, get_ruleset
from tests.web.conftest import EXAMPLE_FILES, EXAMPLES, Table

RULESETS = sorted(available())
DUEL = """
ruleset = "warfare2d20"
[[sides]]
name = "marines"
[[sides]]
name = "insurgents"
[[combatants]]
name = "Rivera"
side = "marines"
combatant = "marine"
weapon = "M4"
"""
SECOND = """
[[combatants]]
name = "Insurgent"
side = "insurgents"
combatant = "insurgent"
weapon = "AK-47"
"""


def test_the_rulesets_that_run_fights_and_the_policies(table: Table) -> None:
    listed = table.client.get("/api/rulesets").json()
    assert sorted(r["id"] for r in listed["rulesets"]) == RULESETS
    assert listed["policies"] == list(POLICIES)


@pytest.mark.parametrize("ruleset", sorted(BUILT_IN))
def test_a_rulesets_form_is_its_model_its_catalog_and_its_examples(
    table: Table, ruleset: str
) -> None:
    form = table.client.get(f"/api/rulesets/{ruleset}").json()
    model = get_ruleset(ruleset).combatant_model()
    assert model is not None and form["schema"] == model.model_json_schema()
    assert form["catalog"] == get_ruleset(ruleset).catalog()
    # every field that names a catalog names a section the catalog has
    hinted = [p["catalog"] for p in form["schema"]["properties"].values() if "catalog" in p]
    assert hinted and all(section in form["catalog"] for section in hinted)
    # the examples' combatants, each one a table the model takes
    files = sorted((EXAMPLES / ruleset / "encounters").glob("*.toml"))
    tables = [c for f in files for c in tomllib.loads(f.read_text())["combatants"]]
    assert [e["name"] for e in form["examples"]] == [c["name"] for c in tables]
    for entry in form["examples"]:
        model.model_validate(entry["table"])
        assert "side" not in entry["table"]


def test_a_ruleset_without_a_combatant_model_gets_a_form_of_toml_lines(table: Table) -> None:
    # a plugin that declares no model (the RISK plugin here) still gets its catalog; the page then
    # takes each combatant as TOML lines
    without = [r for r in RULESETS if get_ruleset(r).combatant_model() is None]
    assert without, "the RISK plugin, which declares no combatant model, is not found"
    for ruleset in without:
        form = table.client.get(f"/api/rulesets/{ruleset}").json()
        assert form["schema"] is None
        assert form["catalog"] == get_ruleset(ruleset).catalog()


def test_a_plugins_form_offers_the_combatants_of_the_examples_it_ships(table: Table) -> None:
    form = table.client.get("/api/rulesets/risk").json()
    files = [path for example, path in EXAMPLE_FILES.items() if example.startswith("risk/")]
    shipped = [(f.stem, c) for f in files for c in tomllib.loads(f.read_text())["combatants"]]
    assert [(e["example"], e["name"]) for e in form["examples"]] == [
        (stem, c["name"]) for stem, c in shipped
    ]
    assert {e["example"] for e in form["examples"]} == {"battle", "last_stand"}
    # copied onto a side, as the page adds a combatant: the draft, then the whole scenario
    # of two copied combatants, are judged as files are and start an encounter
    chosen = {e["name"]: e["table"] for e in form["examples"] if e["example"] == "last_stand"}
    assert chosen == {
        "Alaska": {"name": "Alaska", "armies": 10},
        "Kamchatka": {"name": "Kamchatka", "armies": 10},
    }
    text = 'ruleset = "risk"\n[[sides]]\nname = "attack"\n[[sides]]\nname = "hold"\n'
    for side, name in (("attack", "Alaska"), ("hold", "Kamchatka")):
        lines = [f"{k} = {json.dumps(v)}" for k, v in {**chosen[name], "side": side}.items()]
        text += "[[combatants]]\n" + "\n".join(lines) + "\n"
        checked = _check(table, text, draft=True)
        assert checked.status_code == 200, checked.text
    assert checked.json()["scenario"]["combatants"][1] == {**chosen["Kamchatka"], "side": "hold"}
    made = table.start(scenario=text, seed=3)
    state = table.gm(made, "GET").json()
    assert [state["combatants"][n]["armies"] for n in ("Alaska", "Kamchatka")] == [10, 10]


def test_an_unknown_ruleset_is_refused_in_one_line(table: Table) -> None:
    response = table.client.get("/api/rulesets/warfare")
    assert response.status_code == 422
    assert response.json()["detail"].startswith("unknown ruleset 'warfare'")


def _check(table: Table, text: str, draft: bool = False) -> Any:
    return table.client.post("/api/scenarios/check", json={"scenario": text, "draft": draft})


def test_a_draft_of_one_combatant_is_judged_as_a_file(table: Table, tmp_path: Path) -> None:
    checked = _check(table, DUEL, draft=True)
    assert checked.status_code == 200
    assert checked.json()["scenario"] == tomllib.loads(DUEL)
    # a whole scenario needs a second side with someone on it: the file's line
    whole = _check(table, DUEL)
    assert whole.status_code == 422
    assert whole.json()["detail"].startswith("scenario: field combatants: ")
    # a bad field: the one line a file gets, the file's name aside
    bad = DUEL.replace('weapon = "M4"', 'weapon = "M44"')
    refused = _check(table, bad, draft=True).json()["detail"]
    file = tmp_path / "scenario"
    file.write_text(bad + SECOND)
    with pytest.raises(FirefightError) as told:
        read_scenario(file)
    assert refused == told.value.one_line(400).replace(str(file.resolve()), "scenario")


def test_a_scenario_that_is_no_toml_or_names_a_house_file_is_refused(table: Table) -> None:
    assert _check(table, "ruleset = ").json()["detail"].startswith("scenario: ")
    house = _check(table, 'house = "strict.toml"\n' + DUEL + SECOND)
    assert house.status_code == 422 and "names a file the server cannot read" in house.text


def test_the_state_and_the_players_view_carry_cards(table: Table) -> None:
    made = table.start(example="warfare2d20/duel", seed=1)
    state = table.gm(made, "GET").json()
    card = state["cards"]["Insurgent"]
    assert [v["key"] for v in card["vital"]] == ["hit points", "stamina"]
    assert card["vital"][0] == {
        "key": "hit points",
        "value": 14,
        "most": 14,
        "taken": False,
        "text": "hit points: 14/14",
    }
    view = table.player(made).json()  # the marines' view: the Insurgent's status, no bars
    assert view["cards"]["Insurgent"]["vital"] == []
    assert view["cards"]["Rivera"] == state["cards"]["Rivera"]
    shown = {c["key"] for c in view["cards"]["Insurgent"]["conditions"]}
    shown |= set(view["cards"]["Insurgent"]["details"])
    assert shown <= set(view["combatants"]["Insurgent"])


def test_the_favicon_is_served(table: Table) -> None:
    response = table.client.get("/favicon.ico")
    assert response.status_code == 200 and response.headers["content-type"] == "image/svg+xml"
    assert response.text.startswith("<svg")
