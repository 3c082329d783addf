"""The toy ruleset registered for the engine tests, and a scenario writer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firefight.rulesets import REGISTRY

TOY = """
ruleset = "toy"
title = "toy duel"
max_rounds = {max_rounds}
{extra}

[[sides]]
name = "red"
policy = "{red}"

[[sides]]
name = "blue"
policy = "{blue}"

[[combatants]]
name = "Ann"
side = "red"
hp = {ann_hp}
skill = {ann_skill}

[[combatants]]
name = "Bob"
side = "blue"
hp = {bob_hp}
skill = {bob_skill}
"""


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(REGISTRY, "toy", "tests.encounter.toy")
    yield


@pytest.fixture
def toy_scenario(tmp_path: Path) -> Callable[..., Path]:
    def write(name: str = "toy.toml", **kw: object) -> Path:
        values: dict[str, object] = {
            "max_rounds": 50,
            "extra": "",
            "red": "first",
            "blue": "first",
            "ann_hp": 1,
            "ann_skill": 4,
            "bob_hp": 1,
            "bob_skill": 4,
        }
        values.update(kw)
        path = tmp_path / name
        path.write_text(TOY.format(**values), encoding="utf-8")
        return path

    return write
