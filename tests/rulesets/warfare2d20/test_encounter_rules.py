"""warfare2d20 encounters: each lasting rule on its own (initiative, actions, suppression, cover,
fatigue, bursts, mortar rounds, smoke, the signal), on scripted dice through the engine."""

from __future__ import annotations

from typing import Any

from firefight.dice import ScriptedDice
from firefight.encounter import Encounter, Engine, build_scenario
from firefight.rulesets.warfare2d20.encounter_actions import Volley
from firefight.rulesets.warfare2d20.fatigue import RoundFatigue

MISS = [1, 1, 20, 20]  # attacker 2, defender 40: delta 38, out of any delta t or delta s


def engine(*people: dict[str, Any], house: dict[str, Any] | None = None, **field: Any) -> Engine:
    sides = list(dict.fromkeys(p["side"] for p in people))
    data: dict[str, Any] = {
        "ruleset": "warfare2d20",
        "max_rounds": 10,
        "sides": [{"name": s} for s in sides],
        "combatants": list(people),
        "battlefield": {"range": "close", **field},
    }
    if house:
        data["house"] = house
    return Engine(build_scenario(data, "test.toml"))


def man(name: str, side: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "side": side, "combatant": "marine", "weapon": "M4", **fields}


def foe(name: str, side: str = "b", **fields: Any) -> dict[str, Any]:
    return {"name": name, "side": side, "combatant": "insurgent", "weapon": "AK-47", **fields}


def begin(eng: Engine, faces: list[int]) -> Encounter:
    dice = ScriptedDice(faces)
    enc = Encounter.begin(eng, dice)
    dice.check_all_used()
    return enc


def step(enc: Encounter, action: str, faces: list[int] = ()) -> list[str]:  # type: ignore[assignment]
    dice = ScriptedDice(list(faces))
    done = enc.act(action, dice)
    dice.check_all_used()
    return list(done.lines)


def ids(enc: Encounter) -> list[str]:
    return [a.id for a in enc.engine.legal_actions(enc.state)]


# -- W10 initiative ----------------------------------------------------------------------------
def test_initiative_ambush_first_ties_in_file_order_failures_last_rolled_once() -> None:
    eng = engine(
        foe("A", "a", ambusher=True), man("B", "b"), man("C", "b"), foe("D", "a", ambusher=False)
    )
    # A: ambush, no roll. B 5+5 = 10 and C 4+6 = 10 <= 14: a tie, file order. D 10+10 > 11.
    enc = begin(eng, [5, 5, 4, 6, 10, 10])
    s = enc.state
    assert s.order == ("A", "B", "C", "D")
    assert [c.initiative for c in s.combatants] == ["ambush", "passed", "passed", "failed"]
    for who in ("A", "B", "C"):
        assert enc.state.acting == who
        step(enc, "done")
    # Round 2 needs no roll: "rolled when a confrontation starts" (the last step used no faces).
    step(enc, "done")
    assert (enc.state.round, enc.state.order, enc.state.acting) == (2, s.order, "A")


def test_initiative_each_round_is_a_house_option_and_ambush_counts_once() -> None:
    eng = engine(
        foe("A", "a", ambusher=True), man("B", "b"), man("C", "b"), foe("D", "a"),
        house={"initiative_each_round": True},
    )  # fmt: skip
    enc = begin(eng, [5, 5, 4, 6, 10, 10])
    for _ in range(3):
        step(enc, "done")
    # Round 2: everyone rolls, the ambusher too: A 5+5 = 10 <= 11; B 9+9 = 18 > 14 fails;
    # C 2+2 = 4: a pass by 10, exceptionally well; D 3+3 = 6 passes.
    lines = step(enc, "done", [5, 5, 9, 9, 2, 2, 3, 3])
    assert "acting order: C, D, A, B (W10)" in lines
    words = {c.name: c.initiative for c in enc.state.combatants}
    assert words == {"A": "passed", "B": "failed", "C": "exceptionally well", "D": "passed"}


# -- W11 actions, turns and fatigue ---------------------------------------------------------------
def test_actions_alternate_in_order_up_to_each_ones_limit() -> None:
    # marine dexterity 12: 3 actions; insurgent 11: 2. Marine 5+5 = 10, insurgent 2+2 = 4: the
    # insurgent first.
    enc = begin(engine(man("M", "a"), foe("I")), [5, 5, 2, 2])
    seen = []
    while enc.state.round == 1:
        seen.append(enc.state.acting)
        target = "M" if enc.state.acting == "I" else "I"
        step(enc, f"fire:{target}:single", MISS)
    assert seen == ["I", "M", "I", "M", "M"]
    # Still, 3 and 2 actions: 110 and 100, under 166 and 162; they rest to 80.
    assert enc.state.combatant("M").fatigue == RoundFatigue(110, False, 0, 80)
    assert enc.state.combatant("I").fatigue == RoundFatigue(100, False, 0, 80)
    assert (enc.state.round, enc.state.acting) == (2, "I")


# -- W05 suppression -----------------------------------------------------------------------------
def gunner_and_foe(**house: Any) -> Encounter:
    eng = engine(man("G", "a", weapon="M249"), foe("I"), house=house or None)
    enc = begin(eng, [2, 2, 6, 6])
    # automatic: delta t 10 + 2 = 12, delta s 3. 10+10 = 20 against 17+17 = 34: delta 14 > 12
    # but <= 15: shock. Mettle check 6+6 = 12 > 11: suppressed.
    step(enc, "fire:I:automatic", [10, 10, 17, 17, 6, 6])
    return enc


def test_suppressed_takes_cover_and_loses_every_action_to_the_end_of_the_next_round() -> None:
    enc = gunner_and_foe()
    i = enc.state.combatant("I")
    assert (i.suppressed_until, i.stance, i.done) == (2, "taking cover", True)
    assert enc.engine.turns.is_hurt(i)  # pinned: the cautious policy turns defensive
    seen = []
    while enc.state.round <= 2:
        seen.append(enc.state.acting)
        step(enc, "done")
    assert "I" not in seen  # neither the rest of round 1 nor round 2
    assert seen == ["G", "G"]
    assert enc.state.combatant("I").suppressed_until == 0
    # Round 3: he acts again, and acting ends his taking cover (W03 reading).
    step(enc, "done")
    assert enc.state.acting == "I"
    step(enc, "fire:G:single", MISS)
    assert enc.state.combatant("I").stance == "none"


def test_suppression_rounds_zero_lifts_at_the_end_of_the_same_round() -> None:
    enc = gunner_and_foe(suppression_rounds=0)
    assert enc.state.combatant("I").suppressed_until == 1
    lines = step(enc, "done")
    assert "I: suppressed yes -> no (W05)" in lines
    assert (enc.state.round, enc.state.acting) == (2, "G")
    step(enc, "done")
    assert enc.state.acting == "I"


# -- W03/W04 cover --------------------------------------------------------------------------------
def test_moving_to_cover_costs_breath_and_reaches_the_cover_at_the_round_end() -> None:
    enc = begin(engine(man("M", "a", cover_nearby="tree"), foe("I")), [2, 3, 5, 5])
    assert "move_to_cover" in ids(enc)
    move = next(a for a in enc.engine.legal_actions(enc.state) if a.id == "move_to_cover")
    assert move.defensive
    step(enc, "move_to_cover")
    m = enc.state.combatant("M")
    assert (m.stance, m.movement, m.cover) == ("moving to cover", "sprinting", None)
    assert "delta t -2  target moving to cover (M; W03)" in step(enc, "fire:M:single", MISS)
    assert "delta +6  shooter sprinting (M; W02)" in step(enc, "fire:I:single", MISS)
    step(enc, "done")  # I
    lines = step(enc, "done")  # M: sprinting (160) with 2 actions = 180 > 166 by 14: +2
    assert "M: cover none -> tree (W04)" in lines
    m = enc.state.combatant("M")
    assert (m.cover, m.stance, m.movement) == ("tree", "none", "still")
    assert m.fatigue == RoundFatigue(180, True, 2, 150)
    assert "move_to_cover" not in ids(enc)
    lines = step(enc, "fire:I:single", MISS)
    assert "delta +2  out of breath (M; W11)" in lines
    assert not any("sprinting" in line for line in lines)
    lines = step(enc, "fire:M:single", MISS)
    assert "delta c +5  cover: tree (tree; W04)" in lines
    assert not any("moving to cover" in line for line in lines)


def test_cover_held_from_the_battlefield_and_taking_cover() -> None:
    eng = engine(man("M", "a"), foe("I"), cover={"I": "rocks"})
    enc = begin(eng, [2, 3, 5, 5])
    step(enc, "take_cover")  # M: -6 until he acts again; ends his round
    assert enc.state.combatant("M").stance == "taking cover"
    lines = step(enc, "fire:M:single", MISS)
    assert "delta t -6  target taking cover (M; W03)" in lines
    step(enc, "done")
    # round 2: M is down (still), then fires at the rocks and stands up
    assert enc.state.combatant("M").movement == "still"
    lines = step(enc, "fire:I:single", MISS)
    assert "delta c +4  cover: rocks (rocks; W04)" in lines
    assert enc.state.combatant("M").stance == "none"


# -- one shared roll, a mortar round, smoke, the signal --------------------------------------------
def test_a_burst_at_two_is_one_action_with_one_shared_roll() -> None:
    eng = engine(man("AR", "a", weapon="M249"), foe("I1"), foe("I2"))
    enc = begin(eng, [2, 3, 9, 9, 9, 9])
    assert "burst:automatic" in ids(enc) and ids(enc)[0] == "fire:I1:automatic"
    # shared 10+10 = 20; I1 10+10 = 20: delta 0 <= 12, hit; 3d10 [1, 1, 1] = 3, no armour: the
    # pain threshold takes it all (stamina 12 -> 9).
    lines = step(enc, "burst:automatic", [10, 10, 10, 10, 1, 1, 1])
    assert "roll attacker AR 2d20, shared (W01): 2d20[10, 10] = 20" in lines
    s = enc.state
    assert isinstance(s.board, Volley) and s.board.targets == ("I2",) and s.board.total == 20
    assert s.acting == "AR" and ids(enc) == ["burst:I2"]
    assert s.combatant("I1").stamina == 9 and s.combatant("AR").actions == 1
    # I2 rolls 1+1 = 2 against the same 20: delta 18 > 15, a miss; no attacker roll this time.
    lines = step(enc, "burst:I2", [1, 1])
    assert not any("roll attacker" in line for line in lines)
    assert "delta = |20 - 2| = 18 (W01)" in lines
    assert enc.state.board is None and enc.state.acting == "I1"
    assert enc.state.combatant("AR").actions == 1


def test_a_mortar_round_strikes_the_group_against_one_mortar_roll() -> None:
    eng = engine(man("FO", "a", mortar="60mm HE", mortar_rounds=2), foe("I1"), foe("I2"), foe("I3"))
    enc = begin(eng, [2, 3, 9, 9, 9, 9, 9, 9])
    # mortar 10+10 = 20. 60mm: delta t 10 + 2 (centre); I1 at 0 m rolls 10+10: delta 0, struck;
    # blast 2d10 [5, 5] = 10 through armour; stamina 12 -> 9, hit points 14 -> 7; 7 > 25% of 14:
    # endurance 1+1 = 2 <= 11.
    step(enc, "mortar:I1", [10, 10, 10, 10, 5, 5, 1, 1])
    s = enc.state
    assert (s.combatant("I1").hit_points, s.combatant("I1").stamina) == (7, 9)
    v = s.board
    assert isinstance(v, Volley) and (v.targets, v.distances) == (("I2", "I3"), (8.0, 16.0))
    assert s.combatant("FO").mortar_rounds == 1
    # I2 at 8 m (inside 10 m: no penalty) rolls 1+1: delta 18 > 12, untouched.
    step(enc, "mortar:I2", [1, 1])
    # I3 at 16 m (beyond 10 m: +2) rolls 10+11: delta 1 + 2 = 3 <= 12: blast [1, 1] = 2, all
    # taken by stamina (pain threshold 3).
    lines = step(enc, "mortar:I3", [10, 11, 1, 1])
    assert any("blast on I3 at 16 m: 3 vs 12 -> passed" in line for line in lines)
    s = enc.state
    assert s.combatant("I2").stamina == 12 and s.combatant("I3").stamina == 10
    assert s.board is None and s.acting == "I1"


def test_smoke_screens_the_position_both_ways_until_the_end_of_the_next_round() -> None:
    enc = begin(engine(man("G", "a", smoke_grenades=1), foe("I")), [2, 3, 9, 9])
    # thrower 10+10 against the GM's 10+10: delta 0 <= 10, it lands.
    step(enc, "smoke:I", [10, 10, 10, 10])
    assert enc.state.combatant("I").smoked_until == 2
    assert enc.state.combatant("G").smoke_grenades == 0
    assert "delta t -4  hardly visible (G; W03)" in step(enc, "fire:G:single", MISS)
    assert not any(a.startswith("smoke:") for a in ids(enc))
    step(enc, "done")
    step(enc, "done")  # round 2
    step(enc, "done")
    lines = step(enc, "done")
    assert "the smoke on I's position clears (W13)" in lines
    assert not any("hardly" in line for line in step(enc, "fire:I:single", MISS))


def test_exceptionally_well_signals_the_side_to_take_aim() -> None:
    eng = engine(
        man("TL", "a", combatant="team leader", aim="ACOG"), man("R", "a", aim="ACOG"), foe("I")
    )
    # TL 3+3 = 6 against mettle 15: by 9, exceptionally well; R 6+6 = 12; I 10+10 fails.
    enc = begin(eng, [3, 3, 6, 6, 10, 10])
    assert "signal" in ids(enc)
    step(enc, "signal")
    assert enc.state.combatant("R").aiming and enc.state.combatant("TL").actions == 1
    lines = step(enc, "fire:I:single", MISS)  # R
    assert "delta -4  aim: ACOG (high-power scope) (R; W02)" in lines
    assert not enc.state.combatant("R").aiming
    assert enc.state.combatant("TL").signalled


def test_updated_copies_records_and_falls_back_for_slots() -> None:
    from dataclasses import dataclass

    from firefight.rulesets.warfare2d20.encounter_actions import Soldier, updated

    s = Soldier("A", "a", 10, 5)
    t = updated(s, hit_points=3)
    assert (t, s.hit_points) == (Soldier("A", "a", 3, 5), 10) and hash(t) == hash(
        Soldier("A", "a", 3, 5)
    )

    @dataclass(frozen=True, slots=True)
    class Slotted:
        x: int
        y: int = 0

    assert updated(Slotted(1), y=2) == Slotted(1, 2)


# -- readings a fight depends on ------------------------------------------------------------------
def test_failed_initiative_checks_act_after_the_passes_lowest_roll_first() -> None:
    # B 5+5 = 10 <= 14 passes; C 10+10 = 20 and D 6+7 = 13 fail (mettle 11): D, lower, first
    enc = begin(engine(man("B", "b"), foe("C", "a"), foe("D", "a")), [5, 5, 10, 10, 6, 7])
    assert enc.state.order == ("B", "D", "C")


def test_taking_cover_under_suppression_lasts_until_the_man_acts_again() -> None:
    """W05/W03 reading: the cover a pinned man takes outlasts the suppression: it ends when he
    acts again, not when the suppression lifts at a round's end."""
    enc = gunner_and_foe()
    while enc.state.round <= 2:
        step(enc, "done")
    i = enc.state.combatant("I")
    assert i.suppressed_until == 0 and i.stance == "taking cover"
    assert enc.state.acting == "G"  # round 3: G first, I still down in cover
    lines = step(enc, "fire:I:automatic", MISS)
    assert "delta t -6  target taking cover (I; W03)" in lines
    step(enc, "fire:G:single", MISS)
    assert enc.state.combatant("I").stance == "none"


def test_a_man_pinned_mid_round_tires_from_what_he_did_before() -> None:
    """W11 reading: pinned after an action, his round's heart rate counts that action at the
    pace he kept (running); he keeps still from the next round while pinned."""
    enc = begin(engine(man("G", "a", weapon="M249"), foe("I", movement="running")), [6, 6, 2, 2])
    step(enc, "fire:G:single", MISS)  # I (2+2 = 4) acts first, running
    step(enc, "fire:I:automatic", [10, 10, 17, 17, 6, 6])  # shock, mettle 12 > 11: pinned
    assert enc.state.combatant("I").suppressed_until == 2
    lines = step(enc, "done")
    assert "I: 1 action(s), running: heart rate 140 (breath limit 162) (W11)" in lines
    lines = step(enc, "done")  # round 2: G only; I pinned and still
    assert any(line.startswith("I: 0 action(s), still") for line in lines)
