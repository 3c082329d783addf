"""tactical_d20 whole fights: two fights worked out by hand from the text, the JSON round trip,
bad scenario input, and every shipped scenario played to its end.

Faces are given per step in the order the rule code asks for them (see the docs' "Scripted dice").
Catalog figures used below: raider agility +2, Dodge 12, melee +3, body +2, willpower +1;
operator agility +3, Dodge 14, firearms +4, melee +2; knife 1d4, machete 1d6, pistol 1d6
(ranges 30/60/120 ft, 15 rounds, compact).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firefight.core.turns import state_from_json, state_to_json
from firefight.dice import ScriptedDice
from firefight.encounter import Encounter, Engine, build_scenario, fight, read_scenario
from firefight.errors import FirefightError, InputError, UnknownNameError
from firefight.rulesets.tactical_d20.encounter_state import Board, Fighter, Lasting

from .helpers import EXAMPLES

ENCOUNTERS = EXAMPLES / "encounters"
SCENARIOS = sorted(ENCOUNTERS.glob("*.toml"))


def scenario(
    combatants: list[dict[str, Any]], battlefield: dict[str, Any] | None = None, **top: Any
) -> Engine:
    sides = sorted({c["side"] for c in combatants})
    data: dict[str, Any] = {
        "ruleset": "tactical_d20",
        "sides": [{"name": s} for s in sides],
        "combatants": combatants,
        "battlefield": battlefield or {"range": 5},
        **top,
    }
    return Engine(build_scenario(data, "test.toml"))


def play(engine: Engine, start: list[int], steps: list[tuple[str, list[int]]]) -> Encounter:
    dice = ScriptedDice(start)
    enc = Encounter.begin(engine, dice)
    dice.check_all_used()
    for action, faces in steps:
        dice = ScriptedDice(faces)
        enc.act(action, dice)
        dice.check_all_used()
    return enc


# --- hand-worked fight 1: the knife duel, ended by a Reaction attack -----------------------------
def test_knife_duel_by_hand() -> None:
    """examples/.../knife_duel.toml: Rook (player) and Sable (GM), raiders with 4 hit points and
    knives, 5 ft apart.

    Initiative (T01): 10 + 2 = 12 each; a player character goes before a GM creature: Rook first.
    Rook's turn, 4 Actions:
      - knife at the torso (2 Actions): 15 + 3 = 18 >= Dodge 12, hit; 1d4 = 3: Sable 4 -> 1.
        A melee attack makes a Grapple (T09): the two now share a space (0 ft).
      - knife at the head (2 Actions): 8 + 3 - 5 (head) = 6 < 12, miss.
      Rook has 0 Actions left: the turn ends by itself.
    Sable's turn:
      - knife at the torso: 13 + 3 = 16 >= 12, hit; 1d4 = 1: Rook 4 -> 3.
      - leaves the Grapple (1 Action): Rook may attack as a Reaction (T09); it aims at the legs:
        16 + 3 - 3 = 16 >= 12, hit; 1d4 = 4: Sable 1 -> -3, out of the fight. The leg wound came
        during Sable's own turn, so it would have lasted to the end of its turn after this one.
    Rook wins in round 1 with 3 hit points and its Reaction spent.
    """
    engine = Engine(read_scenario(ENCOUNTERS / "knife_duel.toml"))
    enc = play(
        engine,
        [10, 10],
        [
            ("attack:Sable:knife:single:torso", [15, 3]),
            ("attack:Sable:knife:single:head", [8]),
            ("attack:Rook:knife:single:torso", [13, 1]),
            ("exit", []),
            ("reaction:Sable:knife:single:legs", [16, 4]),
        ],
    )
    state = enc.state
    assert state.order == ("Rook", "Sable")
    assert (state.ending, state.winner, state.round) == ("terminated", "Rook", 1)
    rook, sable = state.combatant("Rook"), state.combatant("Sable")
    assert rook == Fighter("Rook", "Rook", hp=3, actions=0, reaction=False)
    assert sable.hp == -3 and sable.actions == 1
    assert sable.effects == (Lasting("leg_wound", 2),)
    board: Board = state.board
    assert board.groups == () and board.pending is None  # Sable is out: the Grapple is gone
    assert board.distance("Rook", "Sable") == 0
    assert engine.turns.harm(sable) == 7 and engine.turns.harm(rook) == 1
    # who acted: Rook twice, Sable twice, then Rook's Reaction inside Sable's turn
    assert [s.actor for s in enc.steps] == ["Rook", "Rook", "Sable", "Sable", "Rook"]


# --- hand-worked fight 2: a charge through pistol fire, a leg wound, a stun --------------------
ANA = {
    "name": "Ana",
    "side": "crew",
    "creature": {"use": "operator", "hp": 10},
    "weapons": ["pistol"],
}
BO = {"name": "Bo", "side": "gang", "creature": {"use": "raider", "hp": 10}, "weapons": ["machete"]}


def test_charge_by_hand() -> None:
    """Ana (operator, pistol) and Bo (raider, machete), 40 ft apart, 10 hit points each.

    Initiative: Ana 12 + 3 = 15, Bo 5 + 2 = 7: Ana > Bo.
    Round 1, Ana:
      - pistol at the legs: 14 + 4 (Firearms) - 3 (40 ft is past the first threshold, 30 ft)
        - 3 (legs) = 12 >= 12, hit; 1d6 = 2: Bo 10 -> 8, leg wound until the end of its next turn.
      - pistol at the head: 9 + 4 - 3 - 5 = 5, miss. 0 Actions: the turn ends.
    Bo (leg wound: speed 30 halved to 15 ft a move, T04/T05):
      - move toward Ana 40 -> 25 ft; again 25 -> 10 ft; again 10 -> 5 ft: within reach, a free
        melee attack (T09): 11 + 3 = 14 >= Dodge 14, hit; 1d6 = 5: Ana 10 -> 5. A Grapple.
      - 1 Action left, no 1-Action use it wants: ends the turn. The leg wound ends with it.
    Round 2, Ana (in the Grapple; the pistol is Compact, so no -6 at 0 ft):
      - pistol at the head: natural 20, a critical hit; the head doubles the dice: 2d6 = 3 + 4 = 7:
        Bo 8 -> 1, stunned until the end of its next turn.
      - pistol at the torso: 2 + 4 = 6, miss.
    Bo is stunned: no Actions; its turn ends at once and the stun with it.
    Round 3, Ana: a burst at the torso: 10 + 4 + 3 = 17, hit; 1d6 = 1 and the burst die, one size
      lower than the printed d6 (T07): 1d4 = 2: 3 damage, Bo 1 -> -2. Ana wins.
    Rounds: 15 - 1 - 1 - 1 - 1 - 3 = 8 left.
    """
    engine = scenario([ANA, BO], {"range": 40})
    enc = play(
        engine,
        [12, 5],
        [
            ("attack:Bo:pistol:single:legs", [14, 2]),
            ("attack:Bo:pistol:single:head", [9]),
            ("close:Ana", []),
            ("close:Ana", []),
            ("close:Ana", []),
            ("free:Ana:machete:single:torso", [11, 5]),
            ("end_turn", []),
            ("attack:Bo:pistol:single:head", [20, 3, 4]),
            ("attack:Bo:pistol:single:torso", [2]),
            ("attack:Bo:pistol:burst:torso", [10, 1, 2]),
        ],
    )
    distances = [
        line for s in enc.steps if s.action.startswith("close") for line in s.lines if "->" in line
    ]
    assert [d.split(": ")[1].split(" (")[0] for d in distances if "closes" in d] == [
        "40 ft -> 25 ft",
        "25 ft -> 10 ft",
        "10 ft -> 5 ft",
    ]
    # the leg wound was there for Bo's moves and gone after its turn; the stun after the next
    after_bo_1 = enc.states[7]
    assert after_bo_1.acting == "Ana" and after_bo_1.round == 2
    assert after_bo_1.combatant("Bo").effects == ()
    after_head = enc.states[8]
    assert after_head.combatant("Bo").effects == (Lasting("stunned", 1),)
    round_3 = enc.states[9]
    assert round_3.round == 3 and round_3.combatant("Bo").effects == ()
    state = enc.state
    assert (state.ending, state.winner, state.round) == ("terminated", "crew", 3)
    ana, bo = state.combatant("Ana"), state.combatant("Bo")
    assert (ana.hp, ana.actions, ana.rounds, ana.effects) == (5, 2, (("pistol", 8),), ())
    assert (bo.hp, bo.effects, bo.closed_on) == (-2, (), "")
    assert state.board.groups == ()


# --- the JSON round trip ---------------------------------------------------------------------
@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_states_of_real_fights_round_trip_through_json(path: Path) -> None:
    engine = Engine(read_scenario(path))
    enc = fight(engine, 5)
    types = engine.turns.state_types
    for state in enc.states:
        text = json.dumps(state_to_json(state))
        assert state_from_json(json.loads(text), types) == state


def test_a_reaction_in_progress_round_trips() -> None:
    engine = Engine(read_scenario(ENCOUNTERS / "knife_duel.toml"))
    enc = play(engine, [10, 10], [("attack:Sable:knife:single:torso", [15, 3]), ("exit", [])])
    state = enc.state
    assert state.board.pending is not None and state.acting == "Sable"
    assert state_from_json(state_to_json(state), engine.turns.state_types) == state


# --- every shipped scenario runs to its end --------------------------------------------------
def test_four_scenarios_ship() -> None:
    assert len(SCENARIOS) >= 4


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
@pytest.mark.parametrize("policy", ["first", "random"])
def test_shipped_scenarios_end(path: Path, policy: str) -> None:
    sides = {s.name: policy for s in read_scenario(path).spec.sides}
    engine = Engine(read_scenario(path, policies=sides))
    for seed in range(3):
        enc = fight(engine, seed)
        assert enc.state.ending in ("terminated", "truncated")
        assert enc.state.round <= engine.max_rounds


# --- bad input: one line, naming the file and the field --------------------------------------
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"weapons": ["pistl"]}, r"test.toml: combatants\.Ana.weapons\[0\]: unknown "),
        ({"creature": "operatr"}, r"test.toml: combatants\.Ana.creature: unknown "),
        ({"creature": None}, r"combatants\.Ana.*creature"),
        ({"ammo": "buckshot"}, r"Ana.ammo: none of its weapons takes buckshot"),
        ({"loaded": {"smg": 3}}, r"Ana.loaded.smg: no such ranged weapon"),
        ({"loaded": {"pistol": 99}}, r"Ana.loaded.pistol: 99 rounds"),
        ({"control": "npc"}, r"combatants\.Ana.*control"),
        ({"speed": 30}, r"combatants\.Ana.*speed"),
        (
            {"creature": {"use": "operator", "conditions": ["grappled"]}},
            r"Ana.creature.conditions: a fight cannot start with grappled",
        ),
    ],
)
def test_bad_combatant_fields_give_one_line(change: dict[str, Any], message: str) -> None:
    # unknown catalog names raise the catalog's UnknownNameError, the rest InputError: both are
    # FirefightError, one line and exit 2 at the CLI
    ana = {k: v for k, v in {**ANA, **change}.items() if v is not None}
    with pytest.raises(FirefightError, match=message) as err:
        scenario([ana, BO])
    assert "\n" not in err.value.one_line()


def test_an_unknown_weapon_suggests_the_catalog_name() -> None:
    with pytest.raises(UnknownNameError) as err:
        scenario([{**ANA, "weapons": ["pistl"]}, BO])
    assert "did you mean 'pistol'" in (err.value.tip or "")


@pytest.mark.parametrize(
    ("battlefield", "message"),
    [
        ({"range": "close"}, r"test.toml: battlefield.range: 'close' is not a distance in feet"),
        ({"range": -5}, r"battlefield.range: -5 ft: a distance cannot be negative"),
        ({"range": 2.5}, r"battlefield.range: 2.5 is not a distance in feet"),
        (
            {"range": 30, "pairs": [{"between": ["Ana", "Bo"], "range": "far"}]},
            r"battlefield.pairs\[0\].range: 'far' is not a distance",
        ),
        ({"cover": {"Ana": "sandbags"}}, r"battlefield.cover.Ana: unknown cover 'sandbags'"),
    ],
)
def test_bad_battlefield_values_give_one_line(battlefield: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        scenario([ANA, BO], battlefield)


def test_a_cover_typo_gets_a_suggestion() -> None:
    with pytest.raises(InputError) as err:
        scenario([ANA, BO], {"cover": {"Ana": "heavvy"}})
    assert err.value.tip == "did you mean heavy?"


def test_catalogs_must_be_a_list_of_files() -> None:
    with pytest.raises(InputError, match=r"test\.toml: catalogs: must be a list"):
        scenario([ANA, BO], catalogs="mine.toml")


# --- the exact Markov chain, worked by hand ----------------------------------------------------
def test_exact_chain_of_a_one_hit_point_duel_by_hand() -> None:
    """Two raiders with 1 hit point and knives, 5 ft apart, 3 rounds at most, `first` policy.

    Any hit kills (1d4 >= 1, no threshold). One attack hits on d20 + 3 >= 12: 12/20 = 3/5; a turn
    has two attacks, so a turn kills with q = 1 - (2/5)^2 = 21/25. Initiative: both +2; Rook is
    the player character and wins ties: P(Rook first) = (1 + 1/20) / 2 = 21/40.
    The creature acting first wins with A = q * (1 + m + m^2), m = (1 - q)^2 (three rounds), the
    other with B = (1 - q) * A; nobody wins with m^3.
    """
    from fractions import Fraction

    from firefight.analysis.exact import solve_exact

    duel = [
        {"name": n, "side": n, "creature": {"use": "raider", "hp": 1}, "weapons": ["knife"]}
        for n in ("Rook", "Sable")
    ]
    duel[0]["control"] = "player"
    engine = scenario(duel, max_rounds=3)
    tally, arithmetic = solve_exact(engine)
    q = 1 - Fraction(2, 5) ** 2
    m = (1 - q) ** 2
    first = q * (1 + m + m * m)
    second = (1 - q) * first
    p_rook = Fraction(21, 40)
    assert arithmetic == "fraction"
    assert tally.wins["Rook"] == p_rook * first + (1 - p_rook) * second
    assert tally.wins["Sable"] == (1 - p_rook) * first + p_rook * second
    assert tally.truncated == m**3


def test_an_exact_start_leaves_an_unbroken_tie_out_as_truncated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Exact odds stop re-rolling a same-side Initiative tie after EXACT_REROLL_DEPTH re-rolls
    (T01); a fight whose order is still unsettled there ends ``truncated`` instead of starting
    its turns on an order that names nobody (it raised KeyError, and `simulate --exact` showed
    a traceback)."""
    from firefight.dice import enumerate_outcomes
    from firefight.rulesets.tactical_d20 import initiative

    monkeypatch.setattr(initiative, "EXACT_REROLL_DEPTH", 1)  # a tie of a tie is cut
    engine = Engine(read_scenario(ENCOUNTERS / "brawl_melee.toml"))
    starts = enumerate_outcomes(engine.start)
    cut = starts.probability(lambda s: s.ending == "truncated")
    assert 0 < cut < Fraction(1, 100)
    assert all(s.ending is None and s.acting for s, _ in starts.items() if s.ending is None)
    assert sum(w for _, w in starts.items()) == starts.total
