"""quality_d100 whole fights: two fights worked by hand from the text, played through the engine;
the JSON round trip of real states; bad scenario input; the exact duel.

Qualities (Q01, every percentage rounded up): a chance C gives Average at or under C, Better at
or under 40% of C, Crucial 20%, Decisive 10%; natural 01 is at least Decisive.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from firefight.core.turns import state_from_json, state_to_json
from firefight.dice import ScriptedDice, SeededDice
from firefight.encounter import Encounter, Engine, build_scenario, fight, read_scenario
from firefight.encounter.fight import fight_json
from firefight.errors import InputError, UnknownNameError

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "quality_d100" / "encounters"


def play(path: Path, script: list[tuple[str, list[int]]]) -> Encounter:
    """Begin on no dice (every figure engaged: initiative is rolled by nobody), then act."""
    engine = Engine(read_scenario(path))
    enc = Encounter.begin(engine, ScriptedDice([]))
    for action, faces in script:
        dice = ScriptedDice(faces)
        enc.act(action, dice)
        dice.check_all_used()
    return enc


def test_small_duel_by_hand() -> None:
    # Ash: dagger BC 40 + MD 10 + 4 x rank 1 = SC 54; defence AG 12; FT 2, EN 2, WP 10.
    # Birk: dagger 40 + 8 + 4 x 2 = SC 56; defence AG 10; leather (FT 2, EN 1); FT 2, EN 2, WP 8.
    # Engaged initiative: Ash PC 10 + AG 12 + rank 1 = 23; Birk 11 + 10 + 2 = 23: a tie, kept in
    # the scenario's order (reading): Ash, Birk, every round.
    enc = play(
        EXAMPLES / "small_duel.toml",
        [
            # Round 1. Ash strikes; Birk stands. Ash 40 vs 54: Average (Better needs 22).
            # Birk 50 vs 10: Poor. Result 1: Fatigue, d6 5 - FT armour 2 = 3 FT: FT 2 -> 0 and
            # 1 past 0 into EN (current rules): EN 2 -> 1; EN <= 3: stay conscious, D100
            # under EN 1 x WP 8 = 8: 7, conscious. (Overflow is no EN hit: no stun.)
            ("attack:Birk", []),
            ("defend:stand", [40, 50, 5, 7]),
            # Birk (no Fatigue: SC 56 - 10 = 46) strikes; Ash evades: defence 12 + 10 + 4 x 1
            # = 26 and gives up his next action. Birk 30 vs 46: Average (Better 19). Ash 3 vs
            # 26: Decisive (10% of 26 = 3). 4 - 1 = 3 >= 2: parry D10 2 + 1 - 2 = 1: a
            # successful parry, Ash must pass his next action too.
            ("attack:Ash", []),
            ("defend:evade", [30, 3, 2]),
            # Round 2. Ash's action went to evading.
            ("pass", []),
            # Birk strikes; Ash stands (defence 12). Birk 20 vs 46: Average; Ash 60: Poor.
            # d6 1 FT: Ash FT 2 -> 1.
            ("attack:Ash", []),
            ("defend:stand", [20, 60, 1]),
            # Round 3. Ash passes the parry's action.
            ("pass", []),
            # Birk 5 vs 46: Decisive (10% of 46 = 5); Ash 12 vs 12: Average. Result 3:
            # Endurance, d6 3 - EN armour 0 = 3: Ash EN 2 -> -1: dead.
            ("attack:Ash", []),
            ("defend:stand", [5, 12, 3]),
        ],
    )
    state = enc.state
    assert (state.ending, state.winner, state.round) == ("terminated", "Birk", 3)
    ash, birk = state.combatant("Ash"), state.combatant("Birk")
    assert (ash.ft, ash.en, ash.status) == (1, -1, "dead")
    assert not (ash.stunned or ash.prone or ash.disarmed or ash.evading or ash.passes)
    assert (birk.ft, birk.en, birk.status) == (0, 1, "ready")
    assert not (birk.stunned or birk.prone or birk.disarmed or birk.evading or birk.passes)
    turns = enc.engine.turns
    assert (turns.harm(ash), turns.harm(birk)) == (4, 3)
    assert turns.view(birk) == {"FT": "0/2", "EN": "1/2", "status": "ready"}
    lines = [x for s in enc.steps for x in s.lines]
    assert "1 FT damage past 0 FT runs into EN (Q03 current rules)" in lines
    assert "strike chance -10  attacker has no Fatigue (attacker.no_fatigue; Q04 melee)" in lines
    assert "parry: D10 2 + rank 1 - rank 2 = 1: parry (Q07)" in lines
    assert enc.steps[4].label == "Ash spent this action evading"
    assert enc.steps[7].label == "Ash passes this action (successful parry, Q07)"


def test_stun_and_knockdown_by_hand() -> None:
    # Fenn: spear 50 + MD 13 + 12 = SC 75, defence AG 15, leather, FT 13, EN 11.
    # Orla: broadsword 55 + 12 + 8 = SC 75, defence AG 13 + shield 12 = 25, leather, FT 14, EN 12.
    # Brute: greataxe 45 + 9 + 12 = SC 66, defence AG 12, chainmail (FT 4, EN 2), FT 16, EN 12,
    # WP 6. Initiative: Fenn 13 + 15 + 3 = 31, Orla 12 + 13 + 2 = 27, Brute 8 + 12 + 3 + 2 = 25.
    enc = play(
        EXAMPLES / "stun_and_knockdown.toml",
        [
            # Round 1. Fenn trips: BC min(50, 40) + 13 + 12 = 65, damage D10. 30: Average
            # (Better 26); Brute 40 vs 12: Poor. Result 1. Avoid: D100 under 3 x AG = 36: 50
            # fails: knocked down. D10 7 - FT armour 4 = 3: FT 16 -> 13.
            ("attack:Brute:trip", []),
            ("defend:stand", [30, 40, 50, 7]),
            # Orla strikes the prone Brute: SC 75 + 20 = 95. 15: Crucial (20% of 95 = 19).
            # Brute 90: Poor. Result 3: d10+2 = 8 - EN armour 2 = 6: EN 12 -> 6; the EN hit
            # stuns (reading).
            ("attack:Brute", []),
            ("defend:stand", [15, 90, 6]),
            # Brute (stunned and down) tries to recover: 2 x WP 6 + FT 13 = 25: 60 fails.
            ("recover", [60]),
            # Round 2. Stunned: no choice, defence = magic 0 - 15 = -15. Fenn 95: 50 Average;
            # Brute 5: Poor. d10+1 = 10 - 4 = 6 FT: 13 -> 7.
            ("attack:Brute", [50, 5, 9]),
            # Orla 8: Decisive (10% of 95 = 10); Brute 70: Poor. Result 4: EN (possible
            # grievous: no table, event only): d10+2 = 6 - 2 = 4: EN 6 -> 2. Stay conscious:
            # D100 under 2 x 6 = 12: 12, conscious (at or under).
            ("attack:Brute", [8, 70, 4, 12]),
            # Recovery: 2 x 6 + FT 7 = 19: 19 recovers (the roll is its turn).
            ("recover", [19]),
            # Round 3. Brute, still down, evades Fenn: 12 + 10 + 4 x 3 = 34. Fenn 95 vs 95:
            # Average; Brute natural 01: Decisive. 4 - 1 >= 2: parry D10 9 + 3 - 3 = 9:
            # disarm + riposte: Fenn disarmed and 1 EN (11 -> 10).
            ("attack:Brute", []),
            ("defend:evade", [95, 1, 9]),
            # The riposte: Brute SC 66 vs Fenn (disarmed, stands, defence 15). 20: Better
            # (40% of 66 = 27); Fenn 80: Poor. Result 2: maximum 2d6+3 = 15 - FT armour 2 = 13:
            # Fenn FT 13 -> 0. Then the turn passes on from Fenn's turn to Orla.
            ("riposte:Fenn", []),
            ("defend:stand", [20, 80]),
            # Orla strikes the evading Brute (no choice now): 95 vs 34. 40: Average (Better
            # 38); Brute 30: Average (Better 14). Result 0: blocked.
            ("attack:Brute", [40, 30]),
            # Brute's action went to evading.
            ("pass", []),
            # Round 4. Fenn readies his spear (disarmed: engaged initiative with rank 0 = 28).
            ("ready", []),
            # Orla shield-rushes: SC 95. 5: Decisive; Brute 50: Poor. Result 4. Avoid the
            # knock-down: 20 under 36, avoided. d10+2 = 5 - EN 2 = 3: EN 2 -> -1: dead.
            ("attack:Brute:shield_rush", []),
            ("defend:stand", [5, 50, 20, 3]),
        ],
    )
    state = enc.state
    assert (state.ending, state.winner, state.round) == ("terminated", "pair", 4)
    assert state.order == ("Fenn", "Orla", "Brute")
    brute, fenn, orla = (state.combatant(n) for n in ("Brute", "Fenn", "Orla"))
    assert (brute.ft, brute.en, brute.status) == (7, -1, "dead")
    assert brute.prone and not (brute.stunned or brute.evading or brute.disarmed)
    assert (fenn.ft, fenn.en, fenn.status) == (0, 10, "ready")
    assert not (fenn.disarmed or fenn.prone or fenn.stunned or fenn.passes)
    assert (orla.ft, orla.en, orla.status) == (14, 12, "ready")
    lines = [x for s in enc.steps for x in s.lines]
    assert "Brute: prone no -> yes (Q08 trip)" in lines
    assert "Brute: stunned no -> yes (an EN hit stuns (reading))" in lines
    assert "Brute: stunned yes -> no (Q08 stun recovery)" in lines
    assert "defence = -15 (Q05)" in lines
    assert "parry: D10 9 + rank 3 - rank 3 = 9: disarm + riposte (Q07)" in lines
    assert "Fenn: disarmed no -> yes (Q07 parry)" in lines
    assert "order of action: Fenn 28, Orla 27, Brute 25 (Q08 initiative)" in lines


def test_states_of_real_fights_round_trip_through_json() -> None:
    for path in sorted(EXAMPLES.glob("*.toml")):
        engine = Engine(read_scenario(path, policies=None))
        for seed in (1, 2):
            enc = fight(engine, seed)
            types = engine.turns.state_types
            for state in enc.states:
                assert state_from_json(state_to_json(state), types) == state
            fight_json(enc, seed)  # JSON-ready views and events


def test_a_pending_exchange_round_trips_too() -> None:
    engine = Engine(read_scenario(EXAMPLES / "duel.toml"))
    enc = Encounter.begin(engine, ScriptedDice([]))
    enc.act("attack:Rolf", ScriptedDice([]))
    state = enc.state
    assert state.board.pending is not None and state.phase == "defence"
    assert state_from_json(state_to_json(state), engine.turns.state_types) == state


def test_the_small_duel_is_exact_and_quick() -> None:
    """One step of the exact kernel: the defender's choice branches on the strike's effects."""
    engine = Engine(read_scenario(EXAMPLES / "small_duel.toml"))
    state = engine.step(engine.start(SeededDice(0)), "attack:Birk", SeededDice(0))
    stand = engine.find_action(state, "defend:stand")
    dist = engine.kernel(state, stand)
    assert sum(dist.probabilities().values()) == 1 and dist.truncated_mass == 0
    preview = engine.preview(state, stand)
    assert 0 < preview.p_out.get("Birk", 0) < 1


def test_the_defenders_choice_is_resolved_by_the_single_strike_rule() -> None:
    """P(Birk's state changes when he stands) = P(damage > 0) by `odds` on the same situation."""
    from firefight.rulesets.quality_d100 import RULESET
    from firefight.rulesets.quality_d100.house import QualityD100House

    engine = Engine(read_scenario(EXAMPLES / "small_duel.toml"))
    state = engine.step(engine.start(SeededDice(0)), "attack:Birk", SeededDice(0))
    preview = engine.preview(state, engine.find_action(state, "defend:stand"))
    situation = {
        "attacker": {"weapon": "dagger", "manual_dexterity": 10, "rank": 1},
        "defender": {"agility": 10, "armour": "leather"},
    }
    plan = RULESET.load_situation(situation, source="t.toml", house=QualityD100House())
    report = RULESET.odds(plan)
    assert preview.p_effect == 1 - report.distributions["damage"].p(0)


# -- bad input ---------------------------------------------------------------------------------
def base() -> dict[str, Any]:
    return copy.deepcopy(
        {
            "ruleset": "quality_d100",
            "sides": [{"name": "a"}, {"name": "b"}],
            "combatants": [
                {
                    "name": "Ann",
                    "side": "a",
                    "weapon": "broadsword",
                    "fatigue": 10,
                    "endurance": 10,
                    "willpower": 10,
                },
                {
                    "name": "Bob",
                    "side": "b",
                    "weapon": "dagger",
                    "fatigue": 10,
                    "endurance": 10,
                    "willpower": 10,
                },
            ],
        }
    )


def refused(data: dict[str, Any], error: type[Exception] = InputError) -> str:
    with pytest.raises(error) as info:
        Engine(build_scenario(data, "s.toml"))
    message = str(info.value)
    assert "\n" not in message
    return message


def test_unknown_weapon_and_armour_say_did_you_mean() -> None:
    data = base()
    data["combatants"][0]["weapon"] = "brodsword"
    message = refused(data, UnknownNameError)
    assert "s.toml: combatants.Ann.weapon: unknown weapon 'brodsword'" in message
    assert "did you mean 'broadsword'" in message
    data = base()
    data["combatants"][1]["armour"] = "chainmale"
    message = refused(data, UnknownNameError)
    assert "combatants.Bob.armour: unknown armour 'chainmale'" in message
    assert "chainmail" in message


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("willpower", None, "combatants.Ann: field willpower: is missing"),
        ("endurance", 0, "field endurance"),
        ("rank", -1, "field rank"),
        ("stunned", True, "field stunned: unknown key 'stunned'"),
        ("damage", "d10!", "field damage"),
        ("weapon", None, "field weapon: give a weapon or a strike_chance"),
    ],
)
def test_bad_combatant_fields_give_one_line(field: str, value: Any, expected: str) -> None:
    data = base()
    if value is None:
        del data["combatants"][0][field]
    else:
        data["combatants"][0][field] = value
    assert expected in refused(data)


@pytest.mark.parametrize(
    ("battlefield", "expected"),
    [
        ({"range": "melee"}, "battlefield.range: range 'melee' is not a quality_d100 distance"),
        ({"range": 0}, "battlefield.range"),
        (
            {"pairs": [{"between": ["Ann", "Bob"], "range": "far"}]},
            "battlefield.pairs[0].range",
        ),
        ({"cover": {"Ann": "wall"}}, "battlefield.cover.Ann: cover 'wall'"),
    ],
)
def test_bad_battlefield_values_give_one_line(battlefield: dict[str, Any], expected: str) -> None:
    data = base()
    data["battlefield"] = battlefield
    assert expected in refused(data)


def test_bad_catalogs_key_and_house_value() -> None:
    data = base()
    data["catalogs"] = "mine.toml"
    assert "catalogs: must be a list" in refused(data)
    data = base()
    data["house"] = {"initiative_ties": "coin"}
    assert "initiative_ties" in refused(data)


def test_no_riposte_at_an_attacker_the_parry_put_out() -> None:
    """Seed 291, random choices: Tam's disarm attempt is parried "disarm + riposte" and the
    parry's 1 EN knocks Tam out (EN 4 -> 3, stay-conscious roll 80 vs 30): Brack gets no riposte,
    so nobody out of the fight defends (or acts) afterwards."""
    from firefight.encounter import play as autoplay
    from firefight.encounter import policy_rng

    path = EXAMPLES / "charge_and_withdraw.toml"
    sides = {s.name: "random" for s in read_scenario(path).spec.sides}
    engine = Engine(read_scenario(path, policies=sides))
    dice = SeededDice(291)
    enc = Encounter.begin(engine, dice)
    autoplay(enc, dice, policy_rng(291), max_steps=400 * engine.max_rounds)
    knocked = [
        i
        for i, step in enumerate(enc.steps)
        if any("Tam: status ready -> unconscious" in line for line in step.lines)
        and any("disarm + riposte" in line for line in step.lines)
    ]
    assert knocked, "the fight goes through the parry that knocks Tam out"
    after = enc.states[knocked[0] + 1]
    assert after.phase != "riposte"
    for state in enc.states:
        if state.acting is not None:
            assert engine.turns.can_fight(state.combatant(state.acting)), state.acting
