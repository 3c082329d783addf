"""graydawn's critical failures in fights (G06), on scripted dice through the engine: a melee
weapon that fails its reliability roll breaks (never jams), the melee and unarmed consequences
the state holds (a dropped or lodged weapon, an overextension, a fall), the wounds a fumble deals
the attacker himself, what a disarmed or held fighter may do and does first; and the exact odds
of a strike read off the same rule code."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from firefight.dice import ScriptedDice, exact
from firefight.encounter import Encounter, Engine, read_scenario
from tests.rulesets.graydawn.test_encounter import begin, engine, step

EXAMPLES = Path(__file__).parents[3] / "examples" / "graydawn" / "encounters"
#: CQB ceil((6+6)/2) 6 + melee 3 = 9 to attack with the knife and to defend against a blow.
KNIFE = {
    "stats": {"REF": 6, "CL": 6, "MA": 6, "BODY": 6, "LUCK": 4},
    "skills": {"melee": 3},
    "weapon": "knife",
    "uses_luck": False,
}
#: CQB 6 + brawling 2 = 8 with the fists.
FISTS = {**KNIFE, "skills": {"brawling": 2}, "weapon": "punch"}


def man(name: str, side: str, kind: dict[str, Any] = KNIFE, **fields: Any) -> dict[str, Any]:
    return {"name": name, "side": side, **kind, **fields}


def ids(enc: Encounter) -> list[str]:
    return [a.id for a in enc.engine.legal_actions(enc.state)]


def label(enc: Encounter, action_id: str) -> str:
    return enc.engine.find_action(enc.state, action_id).label


def knife_fight(house: dict[str, Any] | None = None, **a: Any) -> Encounter:
    """A (initiative 6 + 9 = 15) and B (6 + 2 = 8) with knives, at arm's length; A acts."""
    return begin(engine(man("A", "a", **a), man("B", "b"), range=1, house=house), [9, 2])


def fist_fight(house: dict[str, Any] | None = None) -> Encounter:
    people = (man("A", "a", FISTS), man("B", "b", FISTS))
    return begin(engine(*people, range=1, house=house), [9, 2])


def next_round(enc: Encounter) -> None:
    """B waits; round 2 begins on no dice (initiative kept, G33) with A to act."""
    step(enc, "wait")
    assert enc.state.round == 2 and enc.state.acting == "A"


# -- G06: a melee weapon's reliability roll and the melee list ------------------------------------
def test_a_melee_weapon_failing_its_reliability_roll_breaks_for_the_fight() -> None:
    enc = knife_fight()
    # 9 + (1, then 9 subtracted) = 0: a critical failure, severity 0 ("drops the weapon");
    # defence d10x 5; reliability d10 9 >= 9 (very reliable): the knife breaks
    lines = step(enc, "strike:B", [1, 9, 5, 9])
    a = enc.state.combatant("A")
    assert a.broken and not a.jammed
    assert any("knife breaks" in line for line in lines)
    next_round(enc)
    assert "clear_jam" not in ids(enc) and "pick_up" not in ids(enc)
    assert ids(enc)[0] == "strike:B" and "bare-handed" in label(enc, "strike:B")
    assert "broken" in enc.engine.turns.view(enc.state.combatant("A"))["weapon"]
    # bare-handed: CQB 6 + brawling 0 against B's 6 + melee 3 (a miss: 8 vs 18)
    lines = step(enc, "strike:B", [2, 9])
    assert any("6 + d10x vs 9 + d10x" in line for line in lines)


def test_a_dropped_weapon_is_picked_up_first_and_fists_fight_meanwhile() -> None:
    enc = knife_fight()
    step(enc, "strike:B", [1, 9, 5, 3])  # total 0, reliability 3 holds: the knife is dropped
    a = enc.state.combatant("A")
    assert not a.ready and not a.broken
    next_round(enc)
    assert ids(enc)[0] == "pick_up"
    assert "bare-handed" in label(enc, "strike:B")
    step(enc, "pick_up")
    assert enc.state.combatant("A").ready
    lines = step(enc, "strike:A", [2, 9])  # B's knife 9 against A's, back in hand: 9
    assert any("9 + d10x vs 9 + d10x" in line for line in lines)
    assert enc.state.acting == "A" and "with the knife" in label(enc, "strike:B")


def test_a_disarmed_man_defends_with_brawling() -> None:
    enc = knife_fight()
    step(enc, "strike:B", [1, 9, 5, 3])  # dropped
    lines = step(enc, "strike:A", [2, 9])  # B's knife 9 vs A's fists: 6 + brawling 0
    assert any("9 + d10x vs 6 + d10x" in line for line in lines)


def test_a_slipping_weapon_deals_1d3_to_the_bare_hands() -> None:
    enc = knife_fight(armour="light armour jacket")  # SP 14 on the arms: the hands are bare
    # 9 + (1, then 10 and 4 subtracted) = -5: severity 1, the weapon slips; defence 5;
    # reliability 3 holds; 1d3 = 3 to the right arm, no armour, BTM -2: one minor mark;
    # stun save d10 2 <= BODY 6
    lines = step(enc, "strike:B", [1, 10, 4, 5, 3, 3, 2])
    a = enc.state.combatant("A")
    assert (a.minor, a.marks, a.status) == (1, 1, "ready")
    assert any("right arm is hurt" in line for line in lines)
    assert any("armour SP (right_arm): 3 vs 0" in line for line in lines)


def test_a_wild_swing_into_himself_is_full_damage_with_his_btm_added() -> None:
    # 9 - 19 = -10: severity 2; reliability 3; location d10 3 (torso); 1d6 = 4, no armour,
    # no graze roll (full damage); BTM -2 added: 6 wounding marks; stun save d10 2 <= 6 - 1
    enc = knife_fight()
    lines = step(enc, "strike:B", [1, 10, 9, 5, 3, 3, 4, 2])
    a = enc.state.combatant("A")
    assert (a.wounding, a.status) == (6, "ready")
    assert not any("graze" in line for line in lines)
    # house own_blow_btm = "taken_off": the BTM comes off as from any wound: 4 - 2 = 2
    enc = knife_fight(house={"own_blow_btm": "taken_off"})
    step(enc, "strike:B", [1, 10, 9, 5, 3, 3, 4, 2])
    assert enc.state.combatant("A").wounding == 2


def test_a_lodged_weapon_costs_an_action_to_free() -> None:
    enc = knife_fight()
    step(enc, "strike:B", [1, 10, 10, 9, 5, 3])  # 9 - 29 = -20: severity 4, lodged
    assert enc.state.combatant("A").lodged
    next_round(enc)
    assert ids(enc)[0] == "free_weapon"
    assert not any(i.startswith(("strike", "grapple")) for i in ids(enc))
    step(enc, "free_weapon")
    assert not enc.state.combatant("A").lodged
    step(enc, "wait")
    assert "with the knife" in label(enc, "strike:B")


def test_a_held_man_still_strikes_with_his_blade() -> None:
    enc = knife_fight()
    step(enc, "wait")
    # B grapples: CQB 6 + brawling 0 + d10x 9 = 15 vs A's 6 + melee 3 + d10x 2 = 11: held
    step(enc, "grapple:A", [9, 2])
    assert enc.state.combatant("A").grappled_by == "B"
    choices = ids(enc)
    assert choices[0] == "strike:B" and "break_grapple" in choices  # G38 stops only guns
    # 9 + 8 vs 9 + 2: a hit, torso, 1d6 2 (above the graze damage 1: LUCK 4 + 2 fails the
    # graze roll), BTM -2 leaves the 1-point minimum; B's stun save 2
    lines = step(enc, "strike:B", [8, 2, 3, 2, 2, 2])
    assert any("attack vs defence: 17 vs 11" in line for line in lines)


def test_a_held_gunman_breaks_free_first() -> None:
    gun = {**KNIFE, "weapon": "heavy pistol", "skills": {}}
    enc = begin(engine(man("A", "a", gun), man("B", "b"), range=1), [9, 2])
    step(enc, "wait")
    step(enc, "grapple:A", [9, 2])
    assert ids(enc)[0] == "break_grapple" and not any(i.startswith("fire") for i in ids(enc))


# -- G06: the unarmed list -----------------------------------------------------------------------
def test_an_overextended_man_attacks_next_at_minus_3() -> None:
    enc = fist_fight()
    step(enc, "strike:B", [1, 8, 5])  # 8 - 8 = 0: severity 0, overextends (no reliability)
    assert enc.state.combatant("A").overextended
    next_round(enc)
    lines = step(enc, "strike:B", [2, 9])  # a miss: 5 + 2 vs 8 + 9
    assert any("overextended (G06)" in line for line in lines)
    assert any("5 + d10x vs 8 + d10x" in line for line in lines)
    assert not enc.state.combatant("A").overextended  # only the next attack


def test_a_man_who_fell_defends_without_his_skill_until_his_turn() -> None:
    enc = fist_fight()
    step(enc, "strike:B", [1, 10, 3, 5])  # 8 - 13 = -5: severity 1, falls down
    assert enc.state.combatant("A").prone
    lines = step(enc, "strike:A", [2, 9])  # a miss: 10 vs 15
    assert any("no brawling skill in defence: prone (G06)" in line for line in lines)
    assert any("8 + d10x vs 6 + d10x" in line for line in lines)
    assert enc.state.acting == "A" and not enc.state.combatant("A").prone  # the free move
    # house stand_up = "action": getting up is the turn
    enc = fist_fight(house={"stand_up": "action"})
    step(enc, "strike:B", [1, 10, 3, 5])
    next_round(enc)
    assert ids(enc) == ["stand_up", "wait"]
    step(enc, "stand_up")
    assert not enc.state.combatant("A").prone


def test_a_punch_into_the_scenery_hurts_the_arm_and_a_stuck_fist_costs_an_action() -> None:
    enc = fist_fight()
    # 8 - 18 = -10: severity 2; punch 1d6 = 6 to the right arm, no armour, BTM -2: 4, blunt:
    # 2 real and 2 stun marks; stun save 2
    lines = step(enc, "strike:B", [1, 10, 8, 5, 6, 2])
    a = enc.state.combatant("A")
    assert (a.wounding, a.stun_marks) == (2, 2)
    assert any("right arm is hurt" in line for line in lines)
    enc = fist_fight()
    step(enc, "strike:B", [1, 10, 10, 8, 5])  # 8 - 28 = -20: severity 4, stuck
    next_round(enc)
    assert ids(enc)[0] == "free_weapon" and not any(i.startswith("strike") for i in ids(enc))


def test_a_fumbled_grapple_takes_the_unarmed_list() -> None:
    enc = knife_fight()
    # grapple: CQB 6 + brawling 0 + (1, then 6 subtracted) = 0: overextends; defence 5
    step(enc, "grapple:B", [1, 6, 5])
    a = enc.state.combatant("A")
    assert a.overextended and enc.state.combatant("B").grappled_by is None


# -- G06 jam clearing: REF less the wound penalty -------------------------------------------------
def test_clearing_a_jam_is_ref_less_the_wound_penalty_plus_the_weapon_skill() -> None:
    pistol = {**KNIFE, "weapon": "heavy pistol", "skills": {}}
    eng = engine(man("A", "a", pistol, wounds={"wounding": 5}), man("B", "b", pistol), range=12)
    enc = begin(eng, [9, 2])
    # RA ceil((5+5)/2) 5 (serious: REF and CL -1) + (1, then 9 subtracted) = -4: severity 0;
    # defence 5; reliability 7 >= 6: jammed
    step(enc, "fire:B:single", [1, 9, 5, 7])
    step(enc, "wait")
    # REF 6 - 1 + handgun 0 + d10x 9 = 14 < 15: still jammed (unwounded, 15 would clear it)
    lines = step(enc, "clear_jam", [9])
    assert enc.state.combatant("A").jammed
    assert any("clears the jam (handgun): 14 vs 15" in line for line in lines)


# -- the same rule code in odds: a strike's exact distribution ------------------------------------
def test_the_strike_distribution_breaks_the_knife_as_often_as_the_text_says() -> None:
    """P(the knife breaks) in the strike's exact distribution is P(attack total <= 0) x P(d10 >=
    9), worked from the open-ended d10's own distribution; P(dropped and still whole) is
    P(total in 0..-4) x 8/10."""
    eng = Engine(read_scenario(EXAMPLES / "knife_duel_exact.toml"))
    state = Encounter.begin(eng, ScriptedDice([5, 6])).state  # the Smuggler strikes first
    dist = eng.act_distribution(state, eng.find_action(state, "strike:Enforcer"))
    d10x = exact("d10x")
    base = 7  # CQB 5, less 1 for the critical wound state (G20), + melee 3

    def p_total(low: int, high: int) -> Fraction:
        return sum((p for v, p in d10x.probabilities() if low <= base + v <= high), Fraction(0))

    def p(pred: Any) -> float:
        states = dist.probabilities().items()
        return float(sum((w for s, w in states if pred(s.combatant("Smuggler"))), Fraction(0)))

    assert p(lambda f: f.broken) > 0
    assert abs(p(lambda f: f.broken) - float(p_total(-(10**6), 0) / 5)) < 1e-12
    dropped = p(lambda f: not f.ready and not f.broken)
    assert abs(dropped - float(p_total(-4, 0) * 4 / 5)) < 1e-12
    lodged = p(lambda f: f.lodged and not f.broken)
    assert abs(lodged - float(p_total(-(10**6), -20) * 4 / 5)) < 1e-12
