"""How a page shows a combatant: each ruleset's layout over its own view, and the default."""

from __future__ import annotations

from pathlib import Path

import pytest

from firefight.core.layout import Condition, ViewLayout, Vital
from firefight.dice import SeededDice
from firefight.encounter import Engine, read_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: One example of each ruleset, played a few steps so wounds and conditions show.
PLAYED = [
    "warfare2d20/small_duel",
    "dragonwarriors2/goblin_duel",
    "graydawn/knife_duel_exact",
    "tactical_d20/knife_duel",
    "quality_d100/small_duel",
]


def test_a_vital_track_reads_its_number_and_its_most() -> None:
    layout = ViewLayout(
        vital=(
            Vital("hit points"),
            Vital("wounds", most="toughness", taken=True),
            Vital("marks", 13),
        ),
        conditions=(),
    )
    card = layout.card({"hit points": "14/20", "wounds": 3, "toughness": 10, "marks": "4 marks"})
    assert card["vital"] == [
        {"key": "hit points", "value": 14, "most": 20, "taken": False, "text": "hit points: 14/20"},
        {
            "key": "wounds",
            "value": 3,
            "most": 10,
            "taken": True,
            "text": "wounds: 3 of toughness 10",
        },
        {"key": "marks", "value": 4, "most": 13, "taken": False, "text": "marks: 4 marks of 13"},
    ]
    assert card["details"] == []  # toughness is the wounds' most, not a detail
    # a track whose value has no number, or is missing (hidden from the players), is no bar
    odd = layout.card({"hit points": "unknown", "toughness": 10})
    assert odd["vital"] == [] and odd["details"] == ["hit points", "toughness"]


def test_conditions_are_chips_only_while_they_are_there() -> None:
    layout = ViewLayout(
        conditions=(
            Condition("status", named=False),
            Condition("suppressed"),
            Condition("suppression levels"),
            Condition("conditions", named=False, items=True),
            Condition("crippled", items=True),
            Condition("ammunition", words=("jammed", "broken")),
        )
    )
    quiet = {
        "status": "none",
        "suppressed": False,
        "suppression levels": 0,
        "conditions": "none",
        "crippled": "-",
        "ammunition": "12/12",
    }
    assert layout.card(quiet) == {"vital": [], "conditions": [], "details": ["ammunition"]}
    loud = {
        "status": "pinned",
        "suppressed": True,
        "suppression levels": 2,
        "conditions": "stunned until a Body check, disarmed",
        "crippled": "left arm, right leg",
        "ammunition": "0/12 (+1 magazines) jammed",
        "cover": "wall",
    }
    card = layout.card(loud)
    assert [c["text"] for c in card["conditions"]] == [
        "pinned",
        "suppressed",
        "suppression levels 2",
        "stunned until a Body check",
        "disarmed",
        "crippled left arm",
        "crippled right leg",
        "jammed",
    ]
    assert card["details"] == ["ammunition", "cover"]  # a word's field stays a detail too


def test_a_ruleset_that_declares_nothing_shows_its_status_and_folds_the_rest() -> None:
    card = ViewLayout().card({"status": "shaken", "grit": "3/5", "mood": "grim"})
    assert card == {
        "vital": [],
        "conditions": [{"key": "status", "text": "shaken"}],
        "details": ["grit", "mood"],
    }


@pytest.mark.parametrize("example", PLAYED)
def test_each_rulesets_layout_fits_its_view(example: str) -> None:
    """Every declared vital track is a bar on every combatant, every field of the view lands
    somewhere, and the conditions a fight leaves show as chips."""
    ruleset, name = example.split("/")
    engine = Engine(read_scenario(EXAMPLES / ruleset / "encounters" / f"{name}.toml"))
    layout = engine.turns.layout
    state = engine.start(SeededDice(3))
    chips = set()
    for n in range(12):
        for c in state.combatants:
            view = engine.turns.view(c)
            card = layout.card(view)
            assert [v["key"] for v in card["vital"]] == [v.key for v in layout.vital]
            assert all(v["most"] >= 0 and v["text"].startswith(v["key"]) for v in card["vital"])
            placed = {v["key"] for v in card["vital"]} | {c["key"] for c in card["conditions"]}
            mosts = {v.most for v in layout.vital if isinstance(v.most, str)}
            assert set(view) <= placed | set(card["details"]) | mosts | _quiet(layout, view)
            chips |= {chip["text"] for chip in card["conditions"]}
        if state.ending:
            break
        state = engine.step(state, engine.legal_actions(state)[0], SeededDice(n))
    assert chips  # at least the status of everyone


def _quiet(layout: ViewLayout, view: dict[str, object]) -> set[str]:
    """Declared conditions that are not there now (no chip, and no detail either)."""
    return {c.key for c in layout.conditions if c.key in view and not c.chips(view[c.key])}
