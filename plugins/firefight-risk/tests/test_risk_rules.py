"""RISK's rules (R01-R07 of the README) on the plugin's own rule code: one roll's exact odds,
a battle replayed on the faces a table rolled, fewer dice, stopping, house rules, refusals, and
the tracker's form building a battle one combatant at a time."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import firefight
import pytest
from firefight.api import InputError, RuleError, ScriptedDice, SeededDice
from firefight.encounter import Encounter, Engine, build_scenario, fight

from firefight_risk import RULESET, Losses

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "firefight_risk" / "examples"
BATTLE = EXAMPLES / "battle.toml"


def roll_odds(attacker: int, defender: int, **more: object) -> dict[str, Fraction]:
    shot = firefight.load_situation(
        "risk", {"kind": "roll", "attacker": attacker, "defender": defender, **more}
    )
    return dict(firefight.odds(shot).outcomes)


@pytest.mark.parametrize(
    ("attacker", "defender", "expected"),
    [
        (1, 1, {"defender loses 1": Fraction(15, 36), "attacker loses 1": Fraction(21, 36)}),
        (2, 1, {"defender loses 1": Fraction(125, 216), "attacker loses 1": Fraction(91, 216)}),
        (3, 1, {"defender loses 1": Fraction(855, 1296), "attacker loses 1": Fraction(441, 1296)}),
        (1, 2, {"defender loses 1": Fraction(55, 216), "attacker loses 1": Fraction(161, 216)}),
        (
            2,
            2,
            {
                "defender loses 2": Fraction(295, 1296),
                "each loses 1": Fraction(420, 1296),
                "attacker loses 2": Fraction(581, 1296),
            },
        ),
        (
            3,
            2,
            {
                "defender loses 2": Fraction(2890, 7776),
                "each loses 1": Fraction(2611, 7776),
                "attacker loses 2": Fraction(2275, 7776),
            },
        ),
    ],
)
def test_one_roll_has_the_classic_odds(attacker: int, defender: int, expected: dict) -> None:
    """R02-R04: the well-known figures of one roll (Osborne's table 2), for every pair of dice
    counts; more armies than dice change nothing."""
    assert roll_odds(attacker, defender) == expected
    more_attackers = attacker + 5 if attacker == 3 else attacker
    more_defenders = defender + 5 if defender == 2 else defender
    assert roll_odds(more_attackers, more_defenders) == expected


def test_a_roll_on_the_tables_faces() -> None:
    """R04 worked by hand: 6,5,1 against 6,4: 6 ties 6 (the defender wins it), 5 beats 4."""
    shot = firefight.load_situation("risk", EXAMPLES / "roll.toml")
    result = firefight.resolve(shot, dice=[6, 5, 1, 6, 4])
    assert result.outcome == Losses(attacker=1, defender=1)
    lines = result.transcript.lines()
    assert "pair 1: 6 against 6: defender wins the tie (R04)" in lines
    assert "pair 2: 5 against 4: attacker wins (R04)" in lines


def test_osbornes_example_battle_replays_on_its_faces() -> None:
    """The battle of Osborne's table 1 (after Tan): 4 armies attack 3. Rolls: 5,4,3 v 6,3
    (one each); 5,5,3 v 5,5 (attacker two); 6 v 4,3 (defender one); 5 v 6 (attacker one): the
    defender holds with one army."""
    data = tomllib.loads(BATTLE.read_text(encoding="utf-8"))
    data["combatants"][0]["armies"], data["combatants"][1]["armies"] = 4, 3
    engine = Engine(firefight.load_scenario(data))
    enc = Encounter.begin(engine, ScriptedDice([]))
    for faces in ([5, 4, 3, 6, 3], [5, 5, 3, 5, 5], [6, 4, 3], [5, 6]):
        action = engine.legal_actions(enc.state)[0]
        assert action.id == "attack"
        dice = ScriptedDice(faces)
        enc.act(action.id, dice)
        dice.check_all_used()
    armies = [c.armies for c in enc.state.combatants]
    assert [len(s.faces) for s in enc.steps] == [5, 5, 3, 2]
    assert armies == [0, 1]
    assert enc.state.winner == "Defender"


def test_fewer_dice_and_stopping_are_decisions() -> None:
    """R02 and R05: with 3 armies the attacker may roll 3, 2 or 1 dice, or stop; stopping ends
    the battle, the defender holding and the attacker keeping its armies."""
    engine = Engine(firefight.load_scenario(BATTLE))
    enc = Encounter.begin(engine, SeededDice(1))
    ids = [a.id for a in engine.legal_actions(enc.state)]
    assert ids == ["attack", "attack:2", "attack:1", "stop"]
    dice = ScriptedDice([6, 6, 1, 1])
    enc.act("attack:2", dice)
    dice.check_all_used()
    assert [c.armies for c in enc.state.combatants] == [5, 1]
    enc.act("stop", ScriptedDice([]))
    assert enc.state.ending == "terminated"
    assert enc.state.winner == "Defender"
    assert [c.armies for c in enc.state.combatants] == [5, 1]
    assert engine.turns.view(enc.state.combatants[0])["status"] == "stopped"


def test_a_cautious_attacker_stops_after_its_first_loss() -> None:
    """The cautious policy takes the defensive option (stop) once hurt: it wins less often
    than the attacker who presses on, and never loses an army it could keep."""
    pressing = firefight.exact(firefight.load_scenario(BATTLE)).p_win("Attacker")
    cautious = firefight.exact(firefight.load_scenario(BATTLE, policies={"Attacker": "cautious"}))
    assert cautious.p_win("Attacker") < pressing
    log = firefight.fight(
        firefight.load_scenario(BATTLE, policies={"Attacker": "cautious"}), seed=1
    )
    me = log.encounter.state.combatants[0]
    assert me.stopped or log.winner == "Attacker"


def test_the_house_rule_of_two_dice() -> None:
    """``attacker_dice = 2``: three armies roll two dice, as a 2-against-2 roll."""
    house = EXAMPLES / "house" / "two_dice_attack.toml"
    shot = firefight.load_situation("risk", EXAMPLES / "roll.toml", house=house)
    assert dict(firefight.odds(shot).outcomes) == roll_odds(2, 2)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"attacker": 2, "defender": 1, "attacker_dice": 3}, "field attacker_dice: 3 is more"),
        ({"attacker": 0, "defender": 1}, "field attacker"),
        ({"attacker": 2, "defender": 1, "defenders": 2}, "defenders"),
    ],
)
def test_bad_rolls_are_one_line(data: dict, words: str) -> None:
    with pytest.raises(InputError, match=words) as err:
        firefight.load_situation("risk", {"kind": "roll", **data})
    assert "\n" not in err.value.one_line()


def test_a_battle_has_two_combatants_and_its_own_house_rules() -> None:
    data = tomllib.loads(BATTLE.read_text(encoding="utf-8"))
    third = {"name": "Ally", "side": "Attacker", "armies": 2}
    with pytest.raises(InputError, match="two combatants on two sides"):
        firefight.load_scenario({**data, "combatants": [*data["combatants"], third]})
    with pytest.raises(InputError, match="armiess"):
        firefight.load_scenario(
            {
                **data,
                "combatants": [
                    {"name": "A", "side": "Attacker", "armiess": 2},
                    data["combatants"][1],
                ],
            }
        )


def test_a_draft_on_the_trackers_form_takes_the_attacker_before_the_defender() -> None:
    data = tomllib.loads(BATTLE.read_text(encoding="utf-8"))
    first = {**data, "combatants": data["combatants"][:1]}
    assert build_scenario(first, "draft", draft=True).spec.combatants[0].name == "Attacker"
    with pytest.raises(InputError, match="field combatants: has 1 item"):
        build_scenario(first, "file")  # a whole scenario needs the defender
    third = {"name": "Ally", "side": "Attacker", "armies": 2}
    with pytest.raises(InputError, match="two combatants on two sides"):
        build_scenario({**data, "combatants": [*data["combatants"], third]}, "draft", draft=True)
    bad = {**data, "combatants": [{"name": "A", "side": "Attacker", "armiess": 2}]}
    with pytest.raises(InputError, match="armiess"):
        build_scenario(bad, "draft", draft=True)


def test_rolling_more_dice_than_allowed_is_a_rule_error() -> None:
    from firefight_risk.battle import attacker_dice
    from firefight_risk.house import RiskHouse

    with pytest.raises(RuleError, match="1 to 2 dice"):
        attacker_dice(2, RiskHouse(), asked=3)


def test_seeded_fights_are_repeatable() -> None:
    engine = Engine(firefight.load_scenario(BATTLE))
    assert fight(engine, 5).to_json() == fight(engine, 5).to_json()
    assert RULESET.id == "risk"
