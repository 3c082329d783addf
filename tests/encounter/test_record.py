"""Records: replay, undo and redo, atomic saves, and files that must be refused."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from firefight.dice import ScriptedDice, SeededDice
from firefight.encounter import Encounter, Engine, load_record, read_scenario, save_record
from firefight.encounter.fight import play, policy_rng
from firefight.encounter.record import VERSION
from firefight.errors import InputError


def played(path: Path, steps: int = 6, seed: int = 2) -> Encounter:
    engine = Engine(read_scenario(path))
    dice = SeededDice(seed)
    enc = Encounter.begin(engine, dice)
    play(enc, dice, policy_rng(seed), max_steps=steps)
    return enc


def test_save_and_load_give_the_same_state(toy_scenario, tmp_path) -> None:  # type: ignore[no-untyped-def]
    enc = played(toy_scenario(ann_hp=5, bob_hp=5, extra="initiative = true"))
    file = tmp_path / "fight.json"
    save_record(enc, file)
    again = load_record(file)
    assert again.states == enc.states
    assert [s.to_json() for s in again.steps] == [s.to_json() for s in enc.steps]


def test_undo_redo_and_undo_to_start(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    enc = played(toy_scenario(ann_hp=5, bob_hp=5, extra="initiative = true"))
    states = list(enc.states)
    last = enc.undo()
    assert enc.state == states[-2]
    enc.redo()
    assert enc.state == states[-1] and enc.steps[-1].to_json() == last.to_json()
    while enc.steps:
        enc.undo()
    assert enc.state == states[0]
    start = Encounter.replay(enc.engine, enc.start_faces, [], [], None, "t").state
    assert enc.state == start
    with pytest.raises(InputError, match="nothing to undo"):
        enc.undo()


def test_a_new_step_clears_redo(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    enc = played(toy_scenario(ann_hp=5, bob_hp=5))
    enc.undo()
    enc.act("wait", ScriptedDice([]))
    with pytest.raises(InputError, match="nothing to redo"):
        enc.redo()


def test_interrupted_save_keeps_the_previous_file(toy_scenario, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    enc = played(toy_scenario(ann_hp=5, bob_hp=5))
    file = tmp_path / "fight.json"
    save_record(enc, file)
    before = file.read_bytes()
    enc.act(enc.engine.legal_actions(enc.state)[0].id, SeededDice(1))

    def boom(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(InputError, match="cannot write"):
        save_record(enc, file)
    assert file.read_bytes() == before
    assert load_record(file).states == enc.states[:-1]
    assert [p.name for p in tmp_path.iterdir()] == ["fight.json", "toy.toml"] or sorted(
        p.name for p in tmp_path.iterdir()
    ) == ["fight.json", "toy.toml"]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda text: text[: len(text) // 2], "not a readable record"),
        (lambda text: "{}", "not a firefight encounter record"),
        (lambda text: '{"hello": 1}', "not a firefight encounter record"),
        (lambda text: text.replace(f'"version": {VERSION}', '"version": 99'), "newer"),
        # no version, or not a number: damaged, not "newer" (which told to upgrade firefight)
        (lambda text: json.dumps({**json.loads(text), "version": None}), "version is None, not"),
        (lambda text: text.replace(f'"version": {VERSION}', '"version": "1"'), "damaged record"),
        (lambda text: text.replace(f'"version": {VERSION}', '"version": true'), "damaged record"),
        (lambda text: text.replace('"faces": [', '"faces": [6, ', 1), "does not replay"),
    ],
)
def test_damaged_files_are_refused(toy_scenario, tmp_path, damage, message) -> None:  # type: ignore[no-untyped-def]
    enc = played(toy_scenario(ann_hp=5, bob_hp=5, extra="initiative = true"))
    file = tmp_path / "fight.json"
    save_record(enc, file)
    file.write_text(damage(file.read_text()))
    with pytest.raises(InputError, match=message):
        load_record(file)


def test_edited_outcome_is_refused(toy_scenario, tmp_path) -> None:  # type: ignore[no-untyped-def]
    enc = played(toy_scenario(ann_hp=5, bob_hp=5))
    file = tmp_path / "fight.json"
    save_record(enc, file)
    data = json.loads(file.read_text())
    data["state"]["combatants"][1]["hp"] = 5 if data["state"]["combatants"][1]["hp"] != 5 else 4
    file.write_text(json.dumps(data))
    with pytest.raises(InputError, match="differs from its replay"):
        load_record(file)
