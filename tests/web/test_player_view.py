"""The players' view never shows what the GM keeps hidden: checked over whole fights, by value.

Every example is played to the end by random policies. At every state the view of each side is
checked: its own side in full; each enemy with only its side, whether it is out, and the
ruleset's public fields, equal to the GM's values; the log with no transcript, faces or events,
and no change line naming an enemy's hidden field; and no hidden text value of any enemy anywhere
in the view's JSON unless the same text is said in public elsewhere in the fight.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from firefight.dice import SeededDice
from firefight.encounter import Encounter, Engine, read_scenario
from firefight.encounter.fight import combatant_entry
from firefight.web.views import player_view
from tests.web.conftest import EXAMPLE_FILES, EXAMPLE_IDS

MAX_STEPS = 150


def _fight(example: str, seed: int) -> Encounter:
    path = EXAMPLE_FILES[example]
    sides = read_scenario(path).spec.sides
    engine = Engine(read_scenario(path, policies={s.name: "random" for s in sides}))
    dice, rng = SeededDice(seed), np.random.default_rng(seed)
    enc = Encounter.begin(engine, dice)
    while enc.state.ending is None and len(enc.steps) < MAX_STEPS:
        actions = engine.legal_actions(enc.state)
        enc.act(actions[int(rng.integers(len(actions)))].id, dice)
    return enc


def _views_along(enc: Encounter, side: str) -> list[tuple[Any, dict[str, Any]]]:
    """The players' view after each step, on a copy of the encounter cut at that step."""
    out = []
    for n in range(len(enc.steps) + 1):
        cut = Encounter(
            enc.engine, enc.start_faces, enc.start_lines, enc.steps[:n], [], enc.states[: n + 1]
        )
        out.append((enc.states[n], player_view(cut, side, "status")))
    return out


@pytest.mark.parametrize("example", EXAMPLE_IDS)
def test_players_never_see_hidden_fields(example: str) -> None:
    enc = _fight(example, seed=7)
    engine = enc.engine
    public = {"side", "out", *engine.turns.public_keys}
    for side in [s.name for s in engine.scenario.spec.sides]:
        hidden_text: set[str] = set()
        public_text: set[str] = set()
        texts = []
        for state, view in _views_along(enc, side):
            text = json.dumps(view)
            texts.append(text)
            assert not {"lines", "faces", "events"} & set(_all_keys(view))
            for c in state.combatants:
                full = combatant_entry(engine, c)
                shown = view["combatants"][c.name]
                if c.side == side:
                    assert shown == full
                    public_text |= _strings(full.values())
                    continue
                assert set(shown) <= public, (c.name, set(shown) - public)
                assert all(shown[k] == full[k] for k in shown)
                public_text |= _strings(shown.values())
                hidden_text |= _strings(v for k, v in full.items() if k not in public)
            public_text |= {step["label"] for step in view["log"]}
            for step in view["log"]:
                for line in step["changes"]:
                    name, _, rest = line.partition(": ")
                    if view["combatants"][name]["side"] != side:
                        assert any(rest.startswith(f"{k} ") for k in public), line
        # a hidden text that is also said in public (a declared stance in an action's label)
        # is not a secret
        secret = {
            t
            for t in hidden_text - public_text
            if len(t) > 1 and not any(t in said for said in public_text)
        }
        for text in texts:
            for value in secret:
                assert json.dumps(value)[1:-1] not in text, (side, value)


def test_names_only_shows_enemies_by_name() -> None:
    enc = _fight("warfare2d20/small_duel", seed=3)
    side = enc.engine.scenario.spec.sides[0].name
    view = player_view(enc, side, "names")
    for entry in view["combatants"].values():
        if entry["side"] != side:
            assert entry == {"side": entry["side"]}
    assert all(
        view["combatants"][line.partition(":")[0]]["side"] == side
        for step in view["log"]
        for line in step["changes"]
    )


@pytest.mark.parametrize(
    "example",
    [
        "warfare2d20/small_duel",
        "dragonwarriors2/goblin_duel",
        "graydawn/knife_duel_exact",
        "tactical_d20/knife_duel",
        "quality_d100/small_duel",
    ],
)
def test_every_ruleset_keeps_something_from_the_players(example: str) -> None:
    """So the checks above have something to find: each ruleset's combatants carry fields that
    are not public (hit points, stamina, wounds, ammunition), and the view leaves them out."""
    enc = _fight(example, seed=3)
    engine = enc.engine
    side = engine.scenario.spec.sides[0].name
    enemy = next(c for c in enc.state.combatants if c.side != side)
    full = combatant_entry(engine, enemy)
    shown = player_view(enc, side, "status")["combatants"][enemy.name]
    assert set(full) - set(shown) >= {"harm", "dead"}
    assert len(set(full) - set(shown)) > 2


def _all_keys(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [*data, *(k for v in data.values() for k in _all_keys(v))]
    if isinstance(data, list):
        return [k for v in data for k in _all_keys(v)]
    return []


def _strings(values: Any) -> set[str]:
    out: set[str] = set()
    for v in values:
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, list | tuple):
            out |= _strings(v)
    return out
