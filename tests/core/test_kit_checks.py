"""The conformance kit's checks fail on rule code that breaks their promise (the built-ins and
the plugin pass them in test_conformance.py and the plugin's tests), and the examples a ruleset
ships are each loaded."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

from firefight.dice import DiceSource, SeededDice, Weighted
from firefight.errors import FirefightError
from firefight.rulesets import get_ruleset
from firefight.testing import check_asked, check_shipped_examples, chi_square_check

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _attack(dice: DiceSource) -> int:
    """Roll 1d20; a 20 deals 2d6 more."""
    hit = dice.roll("1d20", "attack").value
    return hit + (dice.roll("2d6", "damage").value if hit == 20 else 0)


def test_the_table_asked_roll_by_roll_ends_where_the_dice_given_end() -> None:
    asked = check_asked(_attack, [20, 3, 4], "crit")
    assert asked.result == 27
    assert [g.dice for g, _ in asked.answered] == ["1d20", "2d6"]
    assert check_asked(_attack, [7], "plain").result == 7


def test_rule_code_that_remembers_between_runs_fails_the_asking_check() -> None:
    """Asking runs the rule once per answer, as the tracker does: a rule keeping state between
    runs (a counter here) asks for other dice than one run on all faces."""
    calls = itertools.count()

    def remembers(dice: DiceSource) -> int:
        return dice.roll(f"{1 + next(calls) % 2}d6", "hidden state").value

    with pytest.raises(
        AssertionError,
        match="stateful: asked for group by group: 1 of the table's faces left unused",
    ):
        check_asked(remembers, [3, 4], "stateful")


def test_faces_too_few_for_the_rule_fail_the_asking_check() -> None:
    with pytest.raises(AssertionError, match="still asking"):
        check_asked(_attack, [20, 3], "short")


def test_biased_samples_fail_the_statistical_check() -> None:
    die = Weighted({face: 1 for face in range(1, 7)})
    dice = SeededDice(5)
    fair = [dice.roll("1d6").value for _ in range(600)]
    assert chi_square_check(die, fair, "a fair die")[0] >= 0
    with pytest.raises(AssertionError, match="do not fit the exact odds"):
        chi_square_check(die, [6] * 300 + [1] * 300, "a loaded die")
    with pytest.raises(AssertionError, match="impossible"):
        chi_square_check(die, [7] * 10, "a seventh face")


def test_the_examples_a_ruleset_ships_are_each_loaded(tmp_path: Path) -> None:
    risk = get_ruleset("risk")
    found = check_shipped_examples(risk)
    assert found is not None
    assert [p.name for p in found.scenarios] == ["battle.toml", "last_stand.toml"]
    assert [p.name for p in found.situations] == ["roll.toml"]
    assert [p.name for p in found.house] == ["two_dice_attack.toml"]
    assert check_shipped_examples(get_ruleset("graydawn")) is None  # it declares none


def test_a_declared_examples_folder_missing_from_the_package_fails() -> None:
    class Missing(type(get_ruleset("risk"))):  # type: ignore[misc]
        examples = "no_such_folder"

    with pytest.raises(AssertionError, match="'no_such_folder' is no folder beside"):
        check_shipped_examples(Missing())


def test_shipped_files_that_do_not_load_fail(tmp_path: Path) -> None:
    class Shipping(type(get_ruleset("risk"))):  # type: ignore[misc]
        examples = "examples"

        def example_folder(self) -> Path:
            return tmp_path

    roll = tmp_path / "roll.toml"
    roll.write_text("attacker = 3\ndefenderr = 2\n")
    with pytest.raises(FirefightError, match="defenderr"):
        check_shipped_examples(Shipping())
    roll.write_text("attacker = 3\ndefender = 2\n")
    assert check_shipped_examples(Shipping()) is not None
    # a scenario of another ruleset: the tracker would not offer it as this ruleset's
    shutil.copy(EXAMPLES / "graydawn" / "encounters" / "duel.toml", tmp_path)
    with pytest.raises(AssertionError, match="names ruleset 'graydawn', not 'risk'"):
        check_shipped_examples(Shipping())
