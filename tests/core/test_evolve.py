"""``evolve``: the engine's and the rulesets' ``dataclasses.replace`` without ``__init__``."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass

import pytest

from firefight.core.turns import FightState, evolve


@dataclass(frozen=True)
class Soldier:
    name: str
    side: str
    hp: int
    ammo: int = 10


@dataclass(frozen=True)
class Checked:
    name: str
    hp: int

    def __post_init__(self) -> None:
        if self.hp < 0:
            raise ValueError("hp below 0")


def fight() -> FightState:
    people = (Soldier("A", "x", 5), Soldier("B", "y", 7))
    return FightState(round=1, phase="turns", order=("A", "B"), acting="A", combatants=people)


def test_evolve_equals_dataclasses_replace() -> None:
    s = Soldier("A", "x", 5)
    assert evolve(s, hp=2, ammo=3) == dataclasses.replace(s, hp=2, ammo=3)
    assert s.hp == 5  # the original is untouched


def test_evolve_drops_the_kept_hash() -> None:
    state = fight()
    hash(state)  # keeps the hash in __dict__
    moved = evolve(state, round=2)
    assert "_hash" not in moved.__dict__
    assert hash(moved) == hash(dataclasses.replace(state, round=2))
    assert moved != state


def test_with_combatant_by_evolve() -> None:
    state = fight()
    hurt = evolve(state.combatant("B"), hp=1)
    after = state.with_combatant(hurt)
    assert after.combatant("B").hp == 1 and after.combatant("A") is state.combatant("A")
    assert after == dataclasses.replace(state, combatants=(state.combatants[0], hurt))
    assert pickle.loads(pickle.dumps(after)) == after == copy.deepcopy(after)


def test_unknown_field_is_an_error() -> None:
    with pytest.raises(TypeError, match=r"Soldier has no field \['hpp'\]"):
        evolve(Soldier("A", "x", 5), hpp=1)


def test_post_init_still_runs() -> None:
    with pytest.raises(ValueError, match="hp below 0"):
        evolve(Checked("A", 3), hp=-1)
