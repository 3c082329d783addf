"""The GM's hand: edits as steps of the record, on every ruleset and on the toy one (whose
turn structure declares nothing for them, as a plugin's may not: the defaults)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from firefight.dice import ScriptedDice, SeededDice
from firefight.encounter import Encounter, Engine, load_record, read_scenario, save_record
from firefight.encounter.edits import (
    AddCombatant,
    EndRound,
    RemoveCombatant,
    Reorder,
    SetField,
    SkipTurn,
    parse_assignment,
)
from firefight.encounter.record import VERSION, open_record, save_over
from firefight.errors import InputError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: A small example of each ruleset, a field a GM may set with a good value, and an impossible
#: value with the words of its refusal.
SETS = [
    ("warfare2d20/small_duel", "Red", "hit_points", 2, 99, "at most 14"),
    ("dragonwarriors2/goblin_duel", "Grub", "stance", "full parry", "sitting", "is not one of"),
    ("graydawn/duel", "Vance", "ammo", 3, -1, "at least 0"),
    ("tactical_d20/knife_duel", "Sable", "conditions", ["prone"], ["sleepy"], "is not one of"),
    ("quality_d100/small_duel", "Birk", "range.Ash", "close", "far", "range.Ash"),
]


def started(example: str, seed: int = 1) -> Encounter:
    ruleset, name = example.split("/")
    engine = Engine(read_scenario(EXAMPLES / ruleset / "encounters" / f"{name}.toml"))
    return Encounter.begin(engine, SeededDice(seed))


def table_of(example: str, index: int, name: str) -> tuple[str, dict[str, Any]]:
    """A combatant's table from the example's file, renamed: (its side, the table)."""
    ruleset, file = example.split("/")
    text = (EXAMPLES / ruleset / "encounters" / f"{file}.toml").read_text()
    row = dict(tomllib.loads(text)["combatants"][index])
    side = row.pop("side")
    return side, {**row, "name": name}


def reloaded(enc: Encounter, tmp_path: Path) -> Encounter:
    file = tmp_path / "enc.json"
    save_record(enc, file)
    return load_record(file)


@pytest.mark.parametrize(("example", "who", "field", "good", "bad", "says"), SETS)
def test_a_set_field_is_a_step_replayed_undone_and_redone(
    example: str, who: str, field: str, good: Any, bad: Any, says: str, tmp_path: Path
) -> None:
    enc = started(example)
    before = json.dumps(enc.to_json())
    with pytest.raises(InputError, match=f"{who}: field {field}") as refused:
        enc.edit(SetField(combatant=who, field=field, value=bad), SeededDice(1))
    assert says in str(refused.value)
    assert json.dumps(enc.to_json()) == before  # refused by the models: nothing changed
    step = enc.edit(SetField(combatant=who, field=field, value=good), SeededDice(1))
    assert step.is_edit and step.actor == "GM" and f"{who}.{field}" in step.label
    assert step.lines[0] == step.label  # the log's first line
    changed = enc.state
    again = reloaded(enc, tmp_path)  # replayed on load
    assert again.state == changed and again.steps[-1].to_json() == step.to_json()
    assert again.steps[-1].public == f"GM: {who} changed"
    again.undo()
    assert again.state == enc.states[0]
    again.redo()
    assert again.state == changed


def test_fields_a_gm_may_not_set_are_named(tmp_path: Path) -> None:
    enc = started("warfare2d20/small_duel")
    with pytest.raises(InputError, match=r"Red.hitpoints: not a field.*did you mean 'hit_points'"):
        enc.edit(SetField(combatant="Red", field="hitpoints", value=1), SeededDice(1))
    with pytest.raises(InputError, match=r"no combatant 'Rod'.*did you mean 'Red'"):
        enc.edit(SetField(combatant="Rod", field="hit_points", value=1), SeededDice(1))
    with pytest.raises(InputError, match="is 3 already"):
        enc.edit(SetField(combatant="Red", field="hit_points", value=3), SeededDice(1))
    assert not enc.steps


@pytest.mark.parametrize("example", [s[0] for s in SETS])
def test_add_remove_order_skip_and_end_round_on_every_ruleset(example: str, tmp_path: Path) -> None:
    """Each kind of edit once, as steps, then the fight played on: replayed on load, undone to
    the start, redone to the end, each state the same."""
    enc = started(example, seed=3)
    side, table = table_of(example, 1, "Newcomer")
    enc.edit(AddCombatant(side=side, combatant=table), SeededDice(1))
    assert "Newcomer" in enc.state.names() and enc.engine is not enc.first_engine
    if enc.state.ending is None and enc.engine.turns.busy(enc.state) is None:
        order = enc.state.order
        if len(order) > 1:
            enc.edit(Reorder(order=(*order[1:], order[0])), SeededDice(2))
            assert enc.state.order[-1] == order[0] or enc.state.round > 1
        enc.edit(SkipTurn(), SeededDice(3))
    if enc.state.ending is None and enc.engine.turns.busy(enc.state) is None:
        enc.edit(EndRound(), SeededDice(4))
    if enc.state.ending is None and enc.engine.turns.busy(enc.state) is None:
        enc.edit(RemoveCombatant(combatant="Newcomer"), SeededDice(5))
        assert "Newcomer" not in enc.state.names()
    from firefight.encounter import play, policy_rng

    play(enc, SeededDice(6), policy_rng(6), max_steps=30)
    states = list(enc.states)
    again = reloaded(enc, tmp_path)
    assert again.states == states
    while again.steps:
        again.undo()
    assert again.engine is again.first_engine and again.state == states[0]
    while again.redo_stack:
        again.redo()
    assert again.states == states
    assert again.to_json()["version"] == VERSION
    assert again.to_json()["scenario"] == enc.first_engine.scenario.data  # the file's own


def test_the_defaults_serve_a_ruleset_that_declares_nothing(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    engine = Engine(read_scenario(toy_scenario(ann_hp=5, bob_hp=5)))
    enc = Encounter.begin(engine, ScriptedDice([]))
    assert enc.state.order == ("Ann", "Bob") and enc.state.acting == "Ann"
    with pytest.raises(InputError, match="toy lets a GM set no fields"):
        enc.edit(SetField(combatant="Ann", field="hp", value=1), SeededDice(1))
    enc.edit(AddCombatant(side="red", combatant={"name": "Cy", "hp": 2}), ScriptedDice([]))
    assert enc.state.order == ("Ann", "Bob", "Cy")  # at the order's end, this round
    enc.edit(SkipTurn(), ScriptedDice([]))
    assert enc.state.acting == "Bob"
    enc.edit(Reorder(order=("Ann", "Cy", "Bob")), ScriptedDice([]))
    enc.edit(SkipTurn(), ScriptedDice([]))
    assert enc.state.acting is not None and enc.state.round == 2  # Bob was the last
    assert enc.state.order == ("Ann", "Bob", "Cy")  # the toy's round: the scenario's order
    enc.edit(EndRound(), ScriptedDice([]))
    assert enc.state.round == 3 and enc.state.acting == "Ann"
    enc.edit(RemoveCombatant(combatant="Ann"), ScriptedDice([]))  # acting: its turn passes
    assert enc.state.acting == "Bob" and "Ann" not in enc.state.names()
    enc.edit(RemoveCombatant(combatant="Cy"), ScriptedDice([]))
    assert enc.state.ending == "terminated" and enc.state.winner == "blue"
    with pytest.raises(InputError, match="the fight is over"):
        enc.edit(SkipTurn(), ScriptedDice([]))
    # a finished fight takes an addition: the fight goes on
    enc.edit(AddCombatant(side="red", combatant={"name": "Di", "hp": 1}), ScriptedDice([]))
    assert enc.state.ending is None and enc.state.acting is not None


def test_an_addition_is_a_row_of_the_scenarios_table(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    engine = Engine(read_scenario(toy_scenario(ann_hp=5, bob_hp=5)))
    enc = Encounter.begin(engine, ScriptedDice([]))
    cases = [
        ({"hp": 2}, "red", "has no name"),
        ({"name": "Bob", "hp": 2}, "red", "'Bob' is in this fight"),
        ({"name": "Cy", "hp": 0}, "red", "refused: .*hp: must be a whole number of at least 1"),
        ({"name": "Cy", "hp": 2}, "green", "side 'green' is not a side"),
        ({"name": "Cy", "hp": 2, "side": "blue"}, "red", "names side 'blue', not 'red'"),
    ]
    for table, side, says in cases:
        with pytest.raises(InputError, match=says):
            enc.edit(AddCombatant(side=side, combatant=table), ScriptedDice([]))
    enc.edit(RemoveCombatant(combatant="Bob"), ScriptedDice([]))
    enc.undo()
    enc.edit(RemoveCombatant(combatant="Ann"), ScriptedDice([]))
    with pytest.raises(InputError, match="'Ann' was in this fight"):
        enc.edit(AddCombatant(side="red", combatant={"name": "Ann", "hp": 2}), ScriptedDice([]))
    assert len(enc.steps) == 1


def test_order_names_everyone_of_this_round_once(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    engine = Engine(read_scenario(toy_scenario(ann_hp=5, bob_hp=5)))
    enc = Encounter.begin(engine, ScriptedDice([]))
    for order, says in [
        (("Ann",), "leaves out Bob"),
        (("Ann", "Ann", "Bob"), "names 'Ann' twice"),
        (("Ann", "Zed"), "'Zed', who is not in the fight"),
        (("Ann", "Bob"), "the order is that already"),
    ]:
        with pytest.raises(InputError, match=says):
            enc.edit(Reorder(order=order), ScriptedDice([]))
    assert not enc.steps


def test_a_half_done_action_holds_the_gms_hand() -> None:
    """goblin_duel: an attack waits for the defender's stance (D08); no edit until it is
    taken."""
    enc = started("dragonwarriors2/goblin_duel")
    attack = next(a for a in enc.engine.legal_actions(enc.state) if a.kind == "attack")
    enc.act(attack.id, ScriptedDice([]))
    assert enc.engine.turns.in_progress(enc.state)
    with pytest.raises(InputError, match="the GM's hand waits: an action waits on"):
        enc.edit(SkipTurn(), SeededDice(1))


def test_an_assignment_names_the_combatant_by_the_longest_name() -> None:
    names = ("Cpl. Hicks", "Cpl.", "Jax")
    assert parse_assignment("Cpl. Hicks.hit_points=14", names) == SetField(
        combatant="Cpl. Hicks", field="hit_points", value=14
    )
    assert parse_assignment('Jax.stance = "taking cover"', names).value == "taking cover"
    assert parse_assignment("Jax.conditions=['prone']", names).value == ["prone"]
    for text, says in [
        ("Jax.hit_points", "has no '='"),
        ("Jxa.hit_points=3", "no combatant 'Jxa'.*did you mean 'Jax'"),
        ("Jax.stance=taking cover", "is not a TOML value"),
    ]:
        with pytest.raises(InputError, match=says):
            parse_assignment(text, names)


def test_a_version_1_record_still_loads(tmp_path: Path) -> None:
    enc = started("warfare2d20/small_duel")
    enc.act(enc.engine.legal_actions(enc.state)[0].id, SeededDice(2))
    file = tmp_path / "old.json"
    save_record(enc, file)
    data = json.loads(file.read_text())
    assert data["version"] == VERSION == 2
    file.write_text(json.dumps({**data, "version": 1}))  # as the previous firefight saved it
    assert load_record(file).states == enc.states


def test_an_edited_redo_stack_is_refused(tmp_path: Path) -> None:
    """A redo entry whose faces were changed would play a roll nobody made: the record's redo
    stack is replayed on load as its steps are."""
    enc = started("warfare2d20/small_duel")
    enc.act(enc.engine.legal_actions(enc.state)[0].id, SeededDice(2))
    enc.undo()
    file = tmp_path / "enc.json"
    save_record(enc, file)
    assert len(load_record(file).redo_stack) == 1
    data = json.loads(file.read_text())
    faces = data["redo"][0]["faces"]
    data["redo"][0]["faces"] = [f % 20 + 1 for f in faces]
    file.write_text(json.dumps(data))
    with pytest.raises(InputError, match="does not replay at redo entry 1"):
        load_record(file)


@pytest.mark.parametrize(
    ("where", "value", "says"),
    [
        ("faces", "[Infinity]", "steps\\[0\\]: damaged record: faces\\[0\\]"),
        ("faces", "[1e400]", "steps\\[0\\]: damaged record: faces\\[0\\]"),
        ("faces", "[4.7]", "faces\\[0\\]: input should be a valid integer"),
        ("faces", "[true]", "faces\\[0\\]: input should be a valid integer"),
        ("round", "Infinity", "steps\\[0\\]: damaged record: round"),
        ("round", "1" + "0" * 5000, "not a readable record"),
    ],
)
def test_numbers_that_are_no_face_or_round_are_refused(
    where: str, value: str, says: str, tmp_path: Path
) -> None:
    enc = started("warfare2d20/small_duel")
    enc.act(enc.engine.legal_actions(enc.state)[0].id, SeededDice(2))
    file = tmp_path / "enc.json"
    save_record(enc, file)
    data = json.loads(file.read_text())
    data["steps"][0][where] = "@@"
    file.write_text(json.dumps(data).replace('"@@"', value))
    with pytest.raises(InputError, match=says):
        load_record(file)


@pytest.mark.parametrize(
    "junk",
    [{"round": 1}, [1, 2], "redo", {"round": 1, "actor": "A", "action": "x", "faces": [], "x": 1}],
)
def test_junk_in_the_redo_entries_is_refused(junk: Any, tmp_path: Path) -> None:
    enc = started("warfare2d20/small_duel")
    file = tmp_path / "enc.json"
    save_record(enc, file)
    data = json.loads(file.read_text())
    file.write_text(json.dumps({**data, "redo": [junk]}))
    with pytest.raises(InputError, match="redo\\[0\\]: damaged record"):
        load_record(file)


def test_a_save_changed_by_another_process_is_not_replaced(tmp_path: Path) -> None:
    enc = started("warfare2d20/small_duel")
    file = tmp_path / "enc.json"
    save_record(enc, file)
    mine, theirs = open_record(file), open_record(file)
    first = mine.enc.engine.legal_actions(mine.enc.state)[0].id
    theirs.enc.act(first, SeededDice(7))
    save_over(theirs)
    written = file.read_bytes()
    mine.enc.act(first, SeededDice(8))
    with pytest.raises(InputError, match="changed by another process since it was read"):
        save_over(mine)
    assert file.read_bytes() == written  # theirs stands, whole
    save_over(theirs)  # the one that read last saves again


#: Where a newcomer enters: at the end of this round's order (every ruleset); at the next
#: round's start, by the text's initiative where it is found again, else kept last. The line
#: of the next round's start that shows it.
NEWCOMERS = [
    # W10 rolled when the confrontation starts, not again: no roll, last (the end round's
    # fatigue counts it)
    ("warfare2d20/small_duel", "Late: 0 action(s), still"),
    ("dragonwarriors2/goblin_duel", "roll Late: initiative: pm6"),  # D03 every turn
    ("graydawn/duel", "roll initiative Late (G33)"),  # G33: it rolls as in round 1
    ("tactical_d20/knife_duel", "repeats the Initiative order: Sable > Rook > Late (T01)"),
    ("quality_d100/small_duel", "order of action: Ash 23, Birk 23, Late 23"),  # Q08 each round
]


@pytest.mark.parametrize(("example", "line"), NEWCOMERS)
def test_a_newcomer_enters_the_order_as_the_text_reads(example: str, line: str) -> None:
    enc = started(example, seed=4)
    side, table = table_of(example, 0, "Late")
    enc.edit(AddCombatant(side=side, combatant=table), SeededDice(1))
    assert enc.state.order[-1] == "Late"  # this round: after everyone
    step = enc.edit(EndRound(), SeededDice(2))
    assert enc.state.round == 2 and "Late" in enc.state.order
    assert any(line in x for x in step.lines), step.lines
    if example.startswith(("warfare2d20", "tactical_d20")):
        assert enc.state.order[-1] == "Late"
        assert not any(x.startswith("roll") and "Late" in x for x in step.lines)
