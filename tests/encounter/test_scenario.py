"""Scenario files: every mistake one line naming the field, with a fix."""

from __future__ import annotations

import pytest

from firefight.encounter import read_scenario
from firefight.errors import InputError

TWO_SIDES = """
ruleset = "toy"
[[sides]]
name = "red"
[[sides]]
name = "blue"
"""


def combatant(name: str, side: str, hp: int = 1) -> str:
    return f'\n[[combatants]]\nname = "{name}"\nside = "{side}"\nhp = {hp}\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (TWO_SIDES + combatant("A", "red") + combatant("A", "blue"), "two combatants are called"),
        (TWO_SIDES + combatant("A", "red") + combatant("B", "red"), "side 'blue' has nobody"),
        (TWO_SIDES + combatant("A", "red") + combatant("B", "green"), "not one of the sides"),
        (TWO_SIDES.replace('[[sides]]\nname = "blue"\n', "") + combatant("A", "red"), "sides"),
        (
            TWO_SIDES + combatant("A", "red") + combatant("B", "blue", 0),
            r"combatants\.B\.hp",
        ),
        (
            'color = "x"\n' + TWO_SIDES + combatant("A", "red") + combatant("B", "blue"),
            "unknown key 'color'",
        ),
        (
            TWO_SIDES.replace('name = "blue"', 'name = "blue"\npolicy = "sneaky"')
            + combatant("A", "red")
            + combatant("B", "blue"),
            "unknown policy 'sneaky'",
        ),
        (
            TWO_SIDES
            + combatant("A", "red")
            + combatant("B", "blue")
            + '[battlefield]\ncover = { Zed = "wall" }\n',
            "'Zed', who is not a combatant",
        ),
        (
            TWO_SIDES
            + combatant("A", "red")
            + combatant("B", "blue")
            + '[[battlefield.pairs]]\nbetween = ["A", "A"]\nrange = 3\n',
            "names 'A' twice",
        ),
        (
            TWO_SIDES.replace('"toy"', '"chess"') + combatant("A", "red") + combatant("B", "blue"),
            "unknown ruleset",
        ),
        (
            TWO_SIDES + "max_rounds = true\n" + combatant("A", "red") + combatant("B", "blue"),
            "max_rounds",
        ),
    ],
)
def test_bad_scenarios(tmp_path, text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(InputError, match=message) as err:
        read_scenario(path)
    assert "\n" not in err.value.one_line()


def test_policy_override_names_a_side(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match="has no side 'green'"):
        read_scenario(toy_scenario(), policies={"green": "random"})
    assert read_scenario(toy_scenario(), policies={"red": "random"}).policies["red"] == "random"


def test_a_ruleset_without_encounters_is_refused(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A ruleset that declares no turns resolves single situations only: a scenario naming it
    is refused in the ruleset's own words."""
    from firefight.rulesets import REGISTRY

    (tmp_path / "single_only.py").write_text(
        "from tests.encounter.toy import Toy\n"
        "class SingleOnly(Toy):\n    id = 'single_only'\n    turns = None\n"
        "RULESET = SingleOnly()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(REGISTRY, "single_only", "single_only")
    path = tmp_path / "s.toml"
    path.write_text(
        TWO_SIDES.replace('"toy"', '"single_only"') + combatant("A", "red") + combatant("B", "blue")
    )
    with pytest.raises(InputError, match="does not run whole fights"):
        read_scenario(path)


@pytest.mark.parametrize(
    ("example", "other"),
    [
        ("warfare2d20/small_duel", "graydawn"),
        ("dragonwarriors2/goblin_duel", "warfare2d20"),
        ("graydawn/knife_duel_exact", "quality_d100"),
        ("tactical_d20/knife_duel", "dragonwarriors2"),
        ("quality_d100/small_duel", "tactical_d20"),
    ],
)
def test_a_turn_structure_refuses_another_rulesets_house_rules(example: str, other: str) -> None:
    """Never silently the text's defaults in place of house rules it cannot read."""
    import dataclasses
    from pathlib import Path

    from firefight.errors import FirefightError
    from firefight.rulesets import get_ruleset

    ruleset, name = example.split("/")
    scenario = read_scenario(
        Path(__file__).parents[2] / "examples" / ruleset / "encounters" / f"{name}.toml"
    )
    foreign = dataclasses.replace(scenario.spec, house=get_ruleset(other).house_model())
    with pytest.raises(FirefightError, match="house"):
        get_ruleset(ruleset).encounter(foreign)


def test_set_house_reads_the_file_beside_the_scenario(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``--set house=FILE`` reads FILE (relative to the scenario, as ``house = "FILE"`` in the
    file is); a file that is not there is refused by name."""
    from pathlib import Path

    source = Path(__file__).parents[2] / "examples" / "dragonwarriors2" / "encounters"
    path = tmp_path / "duel.toml"
    path.write_text((source / "goblin_duel.toml").read_text().replace("house = {", "# {"))
    (tmp_path / "hard.toml").write_text("stun_target_bonus = 3\nknock_out_margin = 2\n")
    house = read_scenario(path, ["house=hard.toml"]).spec.house
    assert (house.stun_target_bonus, house.knock_out_margin) == (3, 2)  # type: ignore[attr-defined]
    with pytest.raises(InputError, match=r"missing\.toml"):
        read_scenario(path, ["house=missing.toml"])
