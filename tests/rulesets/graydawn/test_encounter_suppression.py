"""graydawn panic and suppressing fire as issue 12 reads them (G09, G12, G15), in the
suppression module and in a fight: a panicked target still takes fire, a panicked combatant
flees until it passes a check, and the G09 WA reading with its house switch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firefight.core.loading import read_toml
from firefight.core.transcript import Check
from firefight.dice import ScriptedDice
from firefight.rulesets.graydawn.house import GraydawnHouse, SuppressionHouse
from firefight.rulesets.graydawn.suppression_round import resolve_suppression
from firefight.rulesets.graydawn.suppression_situation import load_suppression
from tests.rulesets.graydawn.test_encounter import KID, VANCE, begin, engine, step

EXAMPLES = Path(__file__).parents[3] / "examples" / "graydawn"


def andre(house: GraydawnHouse | None = None, **target: Any) -> Any:
    data = read_toml(EXAMPLES / "suppress_andre.toml")
    data["target"] = {**data["target"], **target}
    data["target"].pop("actions", None)
    return load_suppression(data, "andre.toml", house or GraydawnHouse())


def test_panicked_in_the_open_hunkers_with_luck_only_and_the_penalty() -> None:
    # Andre empties the pistol (2 levels) + 22 vs TN 15 (+2): 4 levels, TN 25. The target in
    # the open: CL 6 + dodge 5 + (1, then 10 and 2 subtracted) = -1: panic (G10). In the open
    # it hunkers down from panic (G12): LUCK 5 - 2 x (4 + 2 in the open) = -7, + d10x 6 = -1
    # vs 10: missed by 11, two full 5s: 2 hits (of the 20 rounds).
    sit = andre(cover={"level": 0, "position": "none"})
    r = resolve_suppression(sit, ScriptedDice([8, 1, 10, 2, 6]))
    assert r.outcome.panicked and r.outcome.hits == 2
    hunker = next(c for c in r.transcript.of_type(Check) if c.rule == "G12")
    assert (hunker.value, hunker.target) == (-1, 10)


def test_panicked_behind_cover_runs_through_automatic_fire() -> None:
    # the same target behind its car, but an SMG: 20 rounds = 2 levels; RA 7 + SMG skill 0 +
    # d10x (10, 3) = 20 vs TN 15: +2, 4 levels. Panic as above; it flees through automatic
    # fire (G15): the 3-move dodge check of G11, RD 6 + dodge 5 + d10x 4 = 15, - 12 penalty
    # (failed, in the open) + MA 6 (three moves) = 9 vs TN 25: missed by 16, 3 hits.
    data = read_toml(EXAMPLES / "suppress_andre.toml")
    data["shooters"][0] = {**data["shooters"][0], "weapon": "smg", "rounds": 20}
    data["shooters"][0].pop("full_magazine")
    data["target"].pop("actions")
    sit = load_suppression(data, "andre.toml", GraydawnHouse())
    r = resolve_suppression(sit, ScriptedDice([10, 3, 1, 10, 2, 4]))
    assert r.outcome.levels == 4 and r.outcome.panicked and r.outcome.hits == 3
    run = next(c for c in r.transcript.of_type(Check) if c.rule == "G11")
    assert (run.value, run.target) == (9, 25)


def test_panicked_behind_cover_is_not_caught_by_pistol_fire() -> None:
    r = resolve_suppression(andre(), ScriptedDice([8, 1, 10, 2]))
    assert r.outcome.panicked and r.outcome.hits == 0


def smg_shooter(house: GraydawnHouse) -> Any:
    data = read_toml(EXAMPLES / "suppress_andre.toml")
    data["shooters"][0] = {**data["shooters"][0], "weapon": "smg", "rounds": 10}
    data["shooters"][0].pop("full_magazine")
    data["target"].pop("actions")
    return load_suppression(data, "andre.toml", house)


def test_g09_suppressing_fire_gets_no_wa_by_default() -> None:
    # 10 SMG rounds: 1 level; RA 7 + d10x 7 = 14 < TN 15 (the SMG's WA 1 is not added): no
    # more; the check at TN 10: 6 + 5 + 5 = 16 passes
    r = resolve_suppression(smg_shooter(GraydawnHouse()), ScriptedDice([7, 5]))
    assert r.outcome.levels == 1


def test_g09_house_switch_adds_wa_to_the_suppressing_attack() -> None:
    # suppression.suppressing_fire_wa = true: 14 + WA 1 = 15 meets TN 15: +1 level, 2 in all;
    # the check at TN 15: 16 passes
    house = GraydawnHouse(suppression=SuppressionHouse(suppressing_fire_wa=True))
    r = resolve_suppression(smg_shooter(house), ScriptedDice([7, 5]))
    assert r.outcome.levels == 2
    assert any("weapon accuracy" in line for line in r.transcript.lines())


# -- panic in a fight --------------------------------------------------------------------------
GUNNER = {
    "name": "Gunner",
    "side": "a",
    "stats": {"REF": 6, "CL": 6, "MA": 5, "BODY": 7},
    "skills": {"heavy_weapons": 4},
    "weapon": "machine gun",
    "fire": "suppressing",
    "rounds": 30,
    "uses_luck": False,
}
RECRUIT = {
    "name": "Recruit",
    "side": "b",
    "stats": {"REF": 5, "CL": 3, "MA": 6, "BODY": 5, "LUCK": 3},
    "weapon": "heavy pistol",
    "uses_luck": False,
}


def test_a_panicked_combatant_flees_until_it_passes_a_check() -> None:
    """Round 1: the Gunner (6 + 9 = 15) and the Recruit (5 + 3 + 2 = 10; heavy pistol +3).
    30 rounds: 3 base levels; 10 + d10x 1 (then 2: -2) = 8 < TN 15: 3 levels, TN 20. The
    Recruit, behind a fence: CL 3 + (1, then 5) = -2 <= 0: panic (G10/G15); G33 makes it
    re-roll initiative keeping the lower: 5 + 3 + 9 = 17, stays 10. At its turn it flees from
    cover through the machine gun's fire (G15): RD ceil((5+6)/2) 6 + d10x 7 = 13 - 2 x (3 + 2)
    + MA 6 = 9 vs 25: missed by 16: 3 hits of 6d6+2 (8d6+2): location 7, left leg; 8 x 1 + 2 =
    10, no graze roll (not above 10); BTM -2: 8 cripples the leg (capped at 8); crippling
    check BODY 5 + LUCK 3 + d10x 9 = 17 >= 8: not severed; stun save d10 3 <= 5 - 1; the
    one-time death save d10 4 <= 5. It runs 18 m: 40 -> 58 m, in the open.
    Round 2: the Gunner declines and waits; the Recruit, not under fire, checks at TN 10:
    CL 3 - 1 (serious) + d10x 9 = 11: the panic ends and it decides at once.
    """
    eng = engine(GUNNER, RECRUIT, range=40, cover={"Recruit": "wooden fence"})
    enc = begin(eng, [9, 2])
    faces = [1, 2, 1, 5, 9, 7, 7, 1, 1, 1, 1, 1, 1, 1, 1, 9, 3, 4]
    lines = step(enc, "suppress:Recruit:30", faces)
    assert any("flees through automatic suppressing fire" in line for line in lines)
    r = enc.state.combatant("Recruit")
    assert r.panicked and (r.crippling, r.crippled, r.status) == (8, ("left_leg",), "ready")
    assert r.initiative == 10 and r.stance == "open" and r.cover_m == 18
    assert enc.state.board.distance("Gunner", "Recruit") == 58
    assert enc.state.round == 2 and enc.state.acting == "Gunner"
    step(enc, "no_fire")
    assert enc.state.acting == "Gunner"
    step(enc, "wait", [9])
    assert enc.state.acting == "Recruit" and not enc.state.combatant("Recruit").panicked


#: The target's track before the hits: unhurt but for a mark, with stun marks that real marks
#: overwrite (G21), and with a crippled arm (G22) while stunned.
TRACKS = [
    {"minor": 1},
    {"minor": 1, "wounding": 3, "stun_marks": 4},
    {"wounding": 4, "crippled": ("left_arm",), "status": "stunned"},
]


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("exposed", [False, True])
def test_hits_taken_sub_rule_is_the_wound_applied_to_the_fighter_as_it_stands(
    exposed: bool, track: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hits from suppressing fire are one sub-rule, kept by the target without the fields a
    wound never reads (initiative, ammunition, this round's flags) and put back after: the
    same distribution as applying the hits' outcome to the fighter as it stands, by the
    table (the hits' table as the wound reads it, ``encounter_turn._taken``) and path by
    path; a table that reads the hits without the luck they leave, or without where a
    crippling wound struck, differs."""
    from firefight.rulesets.graydawn import encounter_turn

    fast, slow, plain = _hits_taken_routes(exposed, track)
    assert fast.probabilities() == slow.probabilities() == plain.probabilities()
    outcomes = fast.probabilities()
    assert {f.initiative for f in outcomes} == {-3} and {f.ammo for f in outcomes} == {5}
    assert len({f.marks for f in outcomes}) > 5  # the wounds really vary
    assert len({f.luck for f in outcomes}) > 1  # and so does the luck they leave
    inner = encounter_turn.fire.taken

    def no_luck(result: Any) -> Any:
        location, wound, _, saves = result
        return inner(location, wound, saves, None)

    def nowhere(result: Any) -> Any:
        _, wound, _, saves = result
        return inner(None, wound, saves, saves.luck_left)

    for broken_read in (no_luck, nowhere):
        monkeypatch.setattr(encounter_turn, "_taken", broken_read)
        broken, slow, _ = _hits_taken_routes(exposed, track)
        assert broken.probabilities() != slow.probabilities()


def _hits_taken_routes(exposed: bool, track: dict[str, Any]) -> tuple[Any, Any, Any]:
    """Two hits of covering fire on Kid (``track`` on his wound track) as ``take_fire`` takes
    them by the tables and path by path, and the hits' outcome applied directly."""
    from firefight.core.turns import evolve
    from firefight.dice import enumerate_outcomes
    from firefight.rulesets.graydawn import encounter_fire as fire
    from firefight.rulesets.graydawn.encounter_state import Board, Declared, put
    from firefight.rulesets.graydawn.encounter_turn import take_fire

    from .helpers import both_routes

    luck = {"reroll": ["stun_save"], "boost": ["death_save"]}
    kid_luck = {**KID, "uses_luck": True, "luck": luck}
    eng = engine(VANCE, kid_luck, cover={"Vance": "car", "Kid": "car"})
    t = eng.turns
    start = t.initial()
    vance, kid = start.combatants
    kid = evolve(
        kid,
        initiative=-3,
        ammo=5,
        acted=True,
        levels=2,
        check="fumble",
        fired_at=10,
        hits_taken=1,
        lost_action=True,
        **track,
    )
    board = Board(start.board.distances, (), (Declared("Vance", "Kid", "suppressing", 10),))
    state = evolve(put(start, kid), board=board)

    def rule(d: Any) -> Any:
        return take_fire(t, state, "Kid", 2, exposed, d).combatant("Kid")

    def direct(d: Any) -> Any:
        o = fire.fire_hits_outcome(d, t.sits, kid, vance, 12.0, 2, exposed)
        return evolve(fire.take_outcome(kid, o, t.house), hits_taken=3)

    fast, slow = both_routes(lambda: enumerate_outcomes(rule))
    plain, _ = both_routes(lambda: enumerate_outcomes(direct))
    return fast, slow, plain


def test_a_panic_rerolls_initiative_with_the_house_pistol_bonus() -> None:
    """G33: the panic's re-roll (keep the lower) adds what the round's roll adds, a house's
    pistol bonus included (it used the printed +3 whatever the house said)."""
    from firefight.core.turns import evolve
    from firefight.rulesets.graydawn.encounter_turn import _after_check

    for bonus in (3, 7):
        eng = engine(VANCE, KID, house={"suppression": {"pistol_initiative_bonus": bonus}})
        vance = evolve(eng.turns.initial().combatant("Vance"), initiative=30, levels=2)
        dice = ScriptedDice([4])
        after = _after_check(eng.turns, vance, "panic", dice)
        dice.check_all_used()
        # REF 7 + the pistol bonus + d10 4, lower than 30: kept
        assert after.initiative == 7 + bonus + 4 and after.panicked


def test_waiting_rerolls_are_told_as_the_order_reads_them() -> None:
    """A preview's re-rolled scores (G33) stand at the least scores the order reads alike among
    the others' (their bonus added): a tie stays, a gap keeps its scores' order and ties."""
    from firefight.rulesets.graydawn.encounter_scores import order_alike

    others = (16, 23)
    assert order_alike((16,), (0,), others) == (16,)  # a tie stays (REF breaks it)
    assert order_alike((15,), (0,), others) == (15,)  # below every other: one under
    assert order_alike((-40,), (0,), others) == (15,)
    assert order_alike((20,), (0,), others) == (17,)  # in the gap: one over the score below
    assert order_alike((20, 18), (0, 0), others) == (18, 17)
    assert order_alike((20, 20), (0, 0), others) == (17, 17)
    assert order_alike((-50, -9), (0, 0), others) == (14, 15)
    assert order_alike((13,), (3,), others) == (13,)  # an ambusher's 13 + 3 ties the 16
    assert order_alike((4, 9), (0, 0), ()) == (0, 1)  # nobody else: their own order


def test_a_panicked_score_is_told_against_the_ambush_order() -> None:
    """In an ambush's first round the order adds the ambushers' +3 (G33), so a preview tells a
    waiting re-roll against the others' scores with it: the victim's 16 ties an ambusher's
    13 + 3, while in round 2 it only stands between 13 and 20."""
    from firefight.core.turns import evolve
    from firefight.encounter import Engine, build_scenario
    from firefight.rulesets.graydawn.encounter_scores import WaitingBoard, defer, settle

    gunner = {**VANCE, "name": "Gunner", "side": "Squad"}
    loader = {**VANCE, "name": "Loader", "side": "Squad"}
    victim = {**KID, "name": "Victim", "side": "Militia"}
    data = {
        "ruleset": "graydawn",
        "ambush": "Squad",
        "sides": [{"name": "Squad"}, {"name": "Militia"}],
        "combatants": [gunner, loader, victim],
        "battlefield": {"range": 12},
    }
    t: Any = Engine(build_scenario(data, "test.toml")).turns
    start = t.initial()
    people = {f.name: f for f in start.combatants}
    scores = {"Gunner": 20, "Loader": 13, "Victim": 18}
    people = {n: evolve(f, initiative=scores[n]) for n, f in people.items()}
    state = evolve(start, round=1, combatants=tuple(people.values()))
    state = defer(state, "Victim", 8, 3)  # REF 8, a pistol's +3
    for round_, told in ((1, 16), (2, 14)):
        dice = ScriptedDice([5])  # 8 + 3 + 5 = 16, lower than 18: kept
        after = settle(t, evolve(state, round=round_), dice)
        dice.check_all_used()
        assert after.combatant("Victim").initiative == told
        assert not isinstance(after.board, WaitingBoard)


def _two_waiting(round_: int) -> tuple[Any, Any]:
    """An ambush's fighters in ``round_``: two ambushers, and two victims whose panic re-rolls
    wait (REF 8 with a pistol's +3 from 14; REF 5 from 16)."""
    from firefight.core.turns import evolve
    from firefight.encounter import Engine, build_scenario
    from firefight.rulesets.graydawn.encounter_scores import defer

    people = [
        {**VANCE, "name": "Gunner", "side": "Squad"},
        {**VANCE, "name": "Loader", "side": "Squad"},
        {**KID, "name": "Abel", "side": "Militia"},
        {**KID, "name": "Bram", "side": "Militia", "stats": {**KID["stats"], "REF": 5}},
    ]
    data = {
        "ruleset": "graydawn",
        "ambush": "Squad",
        "sides": [{"name": "Squad"}, {"name": "Militia"}],
        "combatants": people,
        "battlefield": {"range": 12},
    }
    t: Any = Engine(build_scenario(data, "test.toml")).turns
    scores = {"Gunner": 15, "Loader": 9, "Abel": 14, "Bram": 16}
    fighters = tuple(evolve(f, initiative=scores[f.name]) for f in t.initial().combatants)
    state = evolve(t.initial(), round=round_, combatants=fighters)
    return t, defer(defer(state, "Abel", 8, 3), "Bram", 5, 3)


@pytest.mark.parametrize("round_", [1, 2])
def test_waiting_rerolls_settle_to_the_order_rolling_them_gives(round_: int) -> None:
    """G33: the waiting re-rolls rolled together and told by the order (a preview's route) give
    every order with the chance that re-rolling each at its check gives (``act``'s route),
    exactly, in an ambush's first round and after; and the table is its own enumeration."""
    from firefight.core.turns import evolve
    from firefight.dice import enumerate_outcomes
    from firefight.rulesets.graydawn import tactics
    from firefight.rulesets.graydawn.encounter_scores import settle
    from firefight.rulesets.graydawn.encounter_state import put

    from .helpers import both_routes

    t, state = _two_waiting(round_)

    def rolled_at_once(d: Any) -> Any:
        rolled = state
        for name, ref, mods in state.board.waiting:
            f = rolled.combatant(name)
            new = tactics.reroll_keep_lower(d, f.initiative, ref, mods)
            rolled = put(rolled, evolve(f, initiative=new))
        return t.order(rolled)

    act = enumerate_outcomes(rolled_at_once).probabilities()
    told, replayed = both_routes(
        lambda: enumerate_outcomes(lambda d: t.order(settle(t, state, d))).probabilities()
    )
    assert told == replayed == act
    orders = list(act)
    # the two re-rolls really reorder the fighters, each other included
    assert len(orders) > 4
    assert any(o.index("Abel") < o.index("Bram") for o in orders)
    assert any(o.index("Bram") < o.index("Abel") for o in orders)


def test_a_waiting_reroll_keeps_the_fighters_kind() -> None:
    """A fighter whose wound a preview told briefly (it carries its marks' mean apart) is still
    that fighter, mean and all, once its re-roll is settled: the wait is kept on the board."""
    from fractions import Fraction

    from firefight.rulesets.graydawn.encounter_scores import settle
    from firefight.rulesets.graydawn.encounter_state import put
    from firefight.rulesets.graydawn.encounter_turn import BriefFighter, _carrying

    t, state = _two_waiting(2)
    told = _carrying(state.combatant("Abel"), Fraction(5, 2))
    state = put(state, told)
    after = settle(t, state, ScriptedDice([5, 5]))
    abel = after.combatant("Abel")
    assert isinstance(abel, BriefFighter) and abel.carried == Fraction(5, 2)
