"""graydawn encounters: each lasting rule on its own, on scripted dice through the engine
(initiative G33, stun G18, mortal condition and dying G19, the luck pool G17, magazines and
reloads G40, jams G06, movement G34, flanking and ambush G35, grapples G36-G38, slung guns and
bracing G32/G39, panic G15)."""

from __future__ import annotations

import dataclasses
from typing import Any

from firefight.encounter import Encounter, Engine
from tests.rulesets.graydawn.test_encounter import begin, engine, step

PISTOL = {"stats": {"REF": 6, "CL": 6, "MA": 6, "BODY": 6, "LUCK": 4}, "weapon": "heavy pistol"}


def man(name: str, side: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "side": side, **PISTOL, "uses_luck": False, **fields}


def ids(enc: Encounter) -> list[str]:
    return [a.id for a in enc.engine.legal_actions(enc.state)]


def waits(enc: Encounter, rounds: int) -> None:
    """Both sides wait (the heavy pistols are out of reach and cannot suppress)."""
    for _ in range(rounds):
        while enc.state.acting is not None and enc.state.ending is None:
            step(enc, "wait")
            if enc.state.acting is None or enc.state.round > rounds:
                break


# -- G33 initiative -----------------------------------------------------------------------------
def test_initiative_ties_go_to_the_higher_ref_then_the_file_order() -> None:
    # pistols +3: A (REF 6) 6 + 3 + 4 = 13; B (REF 7) 7 + 3 + 3 = 13; C (REF 6) 6 + 3 + 4 = 13
    eng = engine(
        man("A", "a"),
        man("B", "b", stats={"REF": 7, "MA": 6, "BODY": 6}),
        man("C", "a"),
        range=600,
    )
    enc = begin(eng, [4, 3, 4])
    assert enc.state.order == ("B", "A", "C")
    assert [enc.state.combatant(n).initiative for n in "ABC"] == [13, 13, 13]


def test_streamlined_initiative_is_kept_and_traditional_rolls_every_round() -> None:
    enc = begin(engine(man("A", "a"), man("B", "b"), range=600), [9, 2])
    assert enc.state.order == ("A", "B")
    step(enc, "wait")
    step(enc, "wait")  # round 2 starts on no dice: the scores are kept
    assert enc.state.round == 2 and enc.state.order == ("A", "B")
    default = engine(man("A", "a"), man("B", "b"), range=600)
    assert default.turns.house.initiative == "streamlined"
    nines = {"weapon": "9mm pistol"}  # high-capacity: they could suppress, scores are kept
    eng = engine(
        man("A", "a", **nines),
        man("B", "b", **nines),
        range=600,
        house={"initiative": "traditional"},
    )
    enc = begin(eng, [9, 2])
    step(enc, "wait")
    step(enc, "wait", [2, 9])  # round 2 re-rolls: B 6 + 3 + 9 = 18 goes first
    assert enc.state.order == ("B", "A")
    assert enc.state.combatant("B").initiative == 18
    # nobody able to suppress: no rule reads a score after the order is set, so the state
    # keeps ranks (1 = lowest) and the transcript the scores
    ranked = engine(man("A", "a"), man("B", "b"), range=600, house={"initiative": "traditional"})
    enc = begin(ranked, [9, 2])
    assert [enc.state.combatant(n).initiative for n in "AB"] == [2, 1]
    assert any("initiative 0 -> 18" in line for line in enc.start_lines)


def test_initiative_of_zero_or_less_misses_the_round_and_rolls_again() -> None:
    # A: 6 + 3 + (1, then 10 and 3 subtracted: -13) = -4 -> misses round 1
    eng = engine(man("A", "a"), man("B", "b"), range=600)
    enc = begin(eng, [1, 10, 3, 5])
    a = enc.state.combatant("A")
    assert a.initiative == 0 and a.acted and a.reroll  # "zero or less": kept as 0
    assert any("initiative 0 -> -4" in line for line in enc.start_lines)
    assert enc.state.acting == "B"
    step(enc, "wait", [6])  # round 2: A rolls again (6 + 3 + 6 = 15), B keeps 14
    assert enc.state.combatant("A").initiative == 15
    assert enc.state.order == ("A", "B") and enc.state.acting == "A"


# -- G18 stun over rounds ----------------------------------------------------------------------
def test_a_stunned_combatant_rolls_at_its_initiative_until_it_recovers() -> None:
    eng = engine(man("A", "a"), man("B", "b"), range=600)
    enc = begin(eng, [9, 2])
    state = enc.state
    b = state.combatant("B")
    enc.states[-1] = state.with_combatant(dataclasses.replace(b, status="stunned"))
    # A waits; B's initiative comes up: stun save d10 8 > BODY 6: still stunned, no decision
    step(enc, "wait", [8])
    assert enc.state.round == 2 and enc.state.combatant("B").status == "stunned"
    # round 2: A waits; B's save d10 6 <= 6: the stun ends and B decides at once
    step(enc, "wait", [6])
    assert enc.state.acting == "B" and enc.state.combatant("B").status == "ready"


# -- G19 mortal condition and dying over turns ----------------------------------------------------
def test_a_turn_in_mortal_condition_bleeds_a_mark_and_asks_a_death_save() -> None:
    # 14 marks: mortal. After round 10 (one turn) +1 mark (15) and a death save at -0 (15 is
    # not a full 4 past 13): d10 7 > BODY 6 fails: dying, and dead 10 rounds later.
    eng = engine(man("A", "a", wounds={"wounding": 14}), man("B", "b"), range=600)
    enc = begin(eng, [9, 2])
    while enc.state.ending is None:
        last = enc.state.acting == "B" and enc.state.round == 10
        step(enc, "wait", [7] if last else [])
    a = enc.state.combatant("A")
    assert (a.wounding, a.status, a.mortal_rounds) == (15, "dying", 0)
    assert enc.state.ending == "terminated" and enc.state.winner == "b"


def test_first_aid_buys_minutes_and_a_doctor_stabilises() -> None:
    medic = man("Doc", "a", skills={"first_aid": 3, "doctor": 2}, stats={"TECH": 7, "REF": 6})
    dying = man("A", "a", wounds={"wounding": 14})
    eng = engine(medic, dying, man("B", "b"), range=600)
    enc = begin(eng, [9, 8, 2])
    s = enc.state
    enc.states[-1] = s.with_combatant(dataclasses.replace(s.combatant("A"), status="dying"))
    assert "first_aid:A" in ids(enc) and "stabilise:A" in ids(enc)
    # first aid: TECH 7 + 3 + d10x 6 = 16 >= 15, not a natural 10: d6 4 -> 80 more rounds
    step(enc, "first_aid:A", [6, 4])
    a = enc.state.combatant("A")
    assert a.first_aid and a.dying_rounds == -80 and a.status == "dying"
    step(enc, "wait")  # B; round 2 begins with Doc (A is out and does not act)
    # a doctor: TECH 7 + doctor 2 + d10x 9 = 18 >= 15: stable, out of danger
    step(enc, "stabilise:A", [9])
    assert enc.state.combatant("A").status == "stable"


# -- G17 the luck pool lasts the fight ----------------------------------------------------------
def test_luck_spent_on_a_save_stays_spent() -> None:
    lucky = man("A", "a", uses_luck=True, luck={"boost": ["stun_save"]}, armour="kevlar t-shirt")
    eng = engine(lucky, man("B", "b"), range=10)
    enc = begin(eng, [2, 9])  # B first
    # B fires: 6 + 3... RA ceil(12/2) 6 + handgun 0 + d10x 9 = 15 vs A's RD 6 + d10x 2 = 8;
    # location 3 torso, 3d6 6+6+6 = 18 - SP 10 = 8 > 3: graze LUCK 4 + d10x 2 = 6 fails;
    # BTM -2: 6 marks, serious: stun save d10 7 > 6 - 1 = 5; one luck point (+2) makes it.
    step(enc, "fire:A:single", [9, 2, 3, 6, 6, 6, 2, 7])
    a = enc.state.combatant("A")
    assert (a.marks, a.status, a.luck) == (6, "ready", 3)
    assert enc.engine.turns.view(a)["luck points"] == 3
    step(enc, "wait")
    assert enc.state.round == 2 and enc.state.combatant("A").luck == 3


# -- G40 magazines and reloads, G06 jams ---------------------------------------------------------
def test_magazines_count_across_turns_and_reloading_is_an_action() -> None:
    eng = engine(man("A", "a", spare_magazines=1), man("B", "b", skills={"dodge_cover": 9}))
    enc = begin(eng, [9, 2])
    # two shots at -3 each (G31), both miss against dodge 9 (ceil((6+6)/2) 6 + 9 + d10x 9)
    step(enc, "fire2:B:single", [2, 9])
    assert enc.state.acting == "A" and ids(enc) == ["then:B:single:2"]
    step(enc, "then:B:single:2", [2, 9])
    step(enc, "wait")
    assert enc.state.combatant("A").ammo == 6 and "reload" in ids(enc)
    step(enc, "reload")
    a = enc.state.combatant("A")
    assert (a.ammo, a.spares) == (8, 0)
    step(enc, "wait")
    a = enc.state.combatant("A")
    assert "reload" not in ids(enc)  # a full magazine and no spare


def test_a_fumble_jams_the_gun_and_clearing_it_costs_1d3_rounds() -> None:
    eng = engine(man("A", "a"), man("B", "b"))
    enc = begin(eng, [9, 2])
    # attack 6 + (1, then 9 subtracted) = -3 <= 0: critical failure, severity 0 (0..-4:
    # "simply misses"); defence d10x 5; reliability d10 7 >= 6 (standard): jammed.
    # (-5 or lower would dump the magazine: the next line of G06's list.)
    step(enc, "fire:B:single", [1, 9, 5, 7])
    a = enc.state.combatant("A")
    assert a.jammed and a.ammo == 7
    step(enc, "wait")
    assert ids(enc)[0] == "clear_jam" and not any(i.startswith("fire") for i in ids(enc))
    # REF 6 + handgun 0 + d10x 9 = 15 >= 15: cleared; d3 2 rounds lost
    step(enc, "clear_jam", [9, 2])
    a = enc.state.combatant("A")
    assert not a.jammed and a.ammo == 5


# -- G34 movement, G35 flanking and ambush ------------------------------------------------------
def test_advancing_closes_on_every_enemy_and_leaves_cover() -> None:
    eng = engine(
        man("A", "a"), man("B", "b"), man("C", "b"), range=40, cover={"A": "car", "B": "car"}
    )
    enc = begin(eng, [9, 2, 1, 10, 3])  # C: 6 + 3 + (1 - 10 - 3) = -4 misses the round
    assert enc.state.acting == "A"
    # 6 m closer (34 m: long range for a pistol listed 50 m, -10): 6 - 10 + 5 = 1 vs B's
    # 6 + 9 = 15: a miss
    step(enc, "advance:B:single", [5, 9])
    s = enc.state
    a = s.combatant("A")
    assert s.board.distance("A", "B") == 34 and s.board.distance("A", "C") == 34
    assert (a.stance, a.cover_m, a.moves) == ("open", 6, 1)
    step(enc, "wait", [5])  # B; round 2: C rolls again, 6 + 3 + 5 = 14; A (18) first
    assert enc.state.order == ("A", "C", "B") and enc.state.acting == "A"
    step(enc, "take_cover")  # back 6 m into the car, no roll
    a = enc.state.combatant("A")
    assert (a.stance, a.cover_m) == ("active_cover", 0)
    assert enc.state.board.distance("A", "B") == 40


def test_a_target_in_full_cover_can_only_be_flanked_and_a_flanker_ignores_cover() -> None:
    eng = engine(man("A", "a"), man("B", "b"), range=20, cover={"B": "brick wall"})
    enc = begin(eng, [2, 9])  # B first
    step(enc, "full_cover")
    assert not any(i.startswith("fire") for i in ids(enc)) and "flank:B" in ids(enc)
    # flank: two moves (-3 on the shot, G31); 20 m is medium range (-5): 6 - 8 + d10x (10,
    # then 5) = 13 vs B's 6, no dodge skill and no cover (G35), + d10x 5 = 11: a hit, location
    # 3 (the torso: the wall would cover it), 3d6 = 3, not above the graze damage 3; BTM -2
    # leaves the 1-point minimum (CP2020): one minor mark; stun save d10 2 <= 6
    lines = step(enc, "flank:B", [10, 5, 5, 3, 1, 1, 1, 2])
    assert any("flanked" in line and "no dodge_cover" in line for line in lines)
    assert not any("behind cover" in line for line in lines)
    assert any("A flanks B" in line for line in lines)
    # round 2 begins with B's turn: "when the flanked target has the ability to act again, they
    # may change their position" (G35): the flank is gone and B may shoot back
    assert enc.state.acting == "B" and enc.state.combatant("B").flanked_by == ()
    b = enc.state.combatant("B")
    assert (b.minor, b.marks, b.status) == (1, 1, "ready")


def test_an_ambush_gives_the_first_shot_and_takes_the_dodge_skill() -> None:
    people = [
        man("A", "a"),
        man("A2", "a"),
        man("B", "b", skills={"dodge_cover": 5}),
    ]
    from firefight.encounter import build_scenario

    data = {
        "ruleset": "graydawn",
        "sides": [{"name": "a"}, {"name": "b"}],
        "combatants": people,
        "ambush": "a",
        "battlefield": {"range": 10},
    }
    eng = Engine(build_scenario(data, "test.toml"))
    # A 6+3+3 = 12, first shot; A2 6+3+2 = 11, +3 in round 1 = 14; B 6+3+9 = 18
    enc = begin(eng, [3, 2, 9])
    assert enc.state.order == ("A", "B", "A2") and enc.state.combatant("B").ambushed
    # A: 6 + 5 = 11 vs B's 6 + 5: without the dodge skill 5 (ambushed) a hit: torso, 3d6 = 3,
    # BTM to the 1-point minimum: one minor mark; stun save 1
    lines = step(enc, "fire:B:single", [5, 5, 2, 1, 1, 1, 1])
    assert any("ambushed" in line for line in lines)
    assert enc.state.combatant("B").minor == 1
    step(enc, "wait")  # B has acted: no longer ambushed
    assert not enc.state.combatant("B").ambushed
    # round 2: the ambush bonus is gone, A2 is back to 11 below A's 12
    step(enc, "wait")
    assert enc.state.round == 2 and enc.state.order == ("B", "A", "A2")


# -- G36-G38 the grapple, G39 slung guns ---------------------------------------------------------
def test_a_grapple_stops_the_held_gun_and_the_grappler_fires_point_blank() -> None:
    eng = engine(man("A", "a"), man("B", "b"), range=1)
    enc = begin(eng, [9, 2])
    # grapple: CQB ceil((6+6)/2) 6 + brawling 0 + d10x 8 = 14 vs 6 + d10x 3 = 9: held.
    # G36 follow-up at no penalty: 6 + d10x 9 = 15 vs 6 + 2 = 8: hit, location 3 torso,
    # maximum damage 3d6 = 18; graze LUCK 4 + d10x 1 (then 5: -5) fails; BTM -2: 16 marks.
    lines = step(enc, "grapple:B", [8, 3, 9, 2, 3, 1, 5, 9, 9])
    # stun save at 16 marks: d10 9 > 6 - 3: unconscious; death save 9 > 6 + 0: dying
    assert any("maximum damage" in line for line in lines)
    assert any("grappled by" in line for line in lines)
    b = enc.state.combatant("B")
    assert (b.wounding, b.status) == (16, "dying")
    assert b.grappled_by is None  # the hold ends when the held one is out of the fight


def test_a_held_combatant_cannot_fire_and_may_break_free() -> None:
    eng = engine(man("A", "a", weapon="punch"), man("B", "b"), range=1)
    enc = begin(eng, [9, 2])
    step(enc, "grapple:B", [8, 3])
    assert enc.state.combatant("B").grappled_by == "A"
    assert ids(enc)[0] == "break_grapple" and not any(i.startswith("fire") for i in ids(enc))
    step(enc, "break_grapple", [9, 2])  # 6 + 9 = 15 vs 6 + 2 = 8: free
    assert enc.state.combatant("B").grappled_by is None


def test_a_slung_rifle_is_shouldered_first() -> None:
    rifle = man("A", "a", weapon="assault rifle", slung=True, skills={"rifle": 4})
    eng = engine(rifle, man("B", "b"), range=30)
    enc = begin(eng, [9, 2])
    assert ids(enc)[0] == "shoulder_fire:B" and "shoulder" in ids(enc)
    assert not any(i.startswith("fire:") for i in ids(enc))
    step(enc, "shoulder_fire:B")
    assert enc.state.combatant("A").ready and ids(enc) == ["then:B:single:2"]
    lines = step(enc, "then:B:single:2", [1, 2, 9])
    assert any("1 extra action(s)" in line for line in lines)  # G31 -3
