"""quality_d100 encounters: each lasting rule on its own, on scripted dice worked from the text.

Scripted faces follow the transcript: attacker D100, defender D100, parry D10, avoidance D100,
damage dice, then the checks the outcome asks for (stay conscious D100 ...).
"""

from __future__ import annotations

from typing import Any

from firefight.core.turns import FightState
from firefight.dice import ScriptedDice
from firefight.encounter import Encounter, Engine, build_scenario
from firefight.rulesets.quality_d100.fighters import board_of

# Every fighter below: broadsword (EXAMPLE catalog: BC 55, d10+2), MD 10, rank 1 -> SC 69;
# AG 10 and no shield -> front defence 10; engaged initiative PC 10 + AG 10 + rank 1 = 21.


def fighter(name: str, side: str, **kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": name,
        "side": side,
        "weapon": "broadsword",
        "manual_dexterity": 10,
        "rank": 1,
        "agility": 10,
        "perception": 10,
        "fatigue": 10,
        "endurance": 10,
        "willpower": 10,
    }
    base.update(kw)
    return base


def engine(
    *combatants: dict[str, Any],
    battlefield: dict[str, Any] | None = None,
    house: dict[str, Any] | None = None,
) -> Engine:
    sides = list(dict.fromkeys(c["side"] for c in combatants))
    data: dict[str, Any] = {
        "ruleset": "quality_d100",
        "title": "test",
        "max_rounds": 30,
        "sides": [{"name": s, "policy": "first"} for s in sides],
        "combatants": list(combatants),
    }
    if battlefield is not None:
        data["battlefield"] = battlefield
    if house is not None:
        data["house"] = house
    return Engine(build_scenario(data, "test.toml"))


def duel(**kw: Any) -> Engine:
    """Ann against Bob, engaged; ``ann`` / ``bob`` / ``house`` / ``battlefield`` change them."""
    return engine(
        fighter("Ann", "a", **kw.get("ann", {})),
        fighter("Bob", "b", **kw.get("bob", {})),
        battlefield=kw.get("battlefield"),
        house=kw.get("house"),
    )


def begin(e: Engine, faces: list[int] | None = None) -> Encounter:
    dice = ScriptedDice(faces or [])
    enc = Encounter.begin(e, dice)
    dice.check_all_used()
    return enc


def act(enc: Encounter, action: str, faces: list[int] | None = None) -> list[str]:
    dice = ScriptedDice(faces or [])
    step = enc.act(action, dice)
    dice.check_all_used()
    return list(step.lines)


def ids(enc: Encounter) -> list[str]:
    return [a.id for a in enc.engine.legal_actions(enc.state)]


def who(enc: Encounter, name: str) -> Any:
    return enc.state.combatant(name)


def text(lines: list[str]) -> str:
    return "\n".join(lines)


# -- initiative ------------------------------------------------------------------------------
def test_engaged_initiative_is_pc_ag_weapon_rank_warrior_rank_highest_first() -> None:
    # Ann 10 + 10 + 1 + 0 = 21; Bob 10 + 12 + 1 + 2 = 25: Bob acts first, no dice.
    enc = begin(duel(bob={"agility": 12, "warrior_rank": 2}))
    assert enc.state.order == ("Bob", "Ann") and enc.state.acting == "Bob"
    assert "order of action: Bob 25, Ann 21 (Q08 initiative)" in enc.start_lines


def test_tied_initiative_keeps_the_scenario_order_or_rolls_off_by_house_rule() -> None:
    enc = begin(duel(ann={}, bob={}))
    assert enc.state.order == ("Ann", "Bob")
    assert any("tied initiative keeps the scenario's order" in x for x in enc.start_lines)
    # house initiative_ties = "d10": Ann rolls 3, Bob 8 -> Bob first
    enc = begin(duel(house={"initiative_ties": "d10"}), [3, 8])
    assert enc.state.order == ("Bob", "Ann")


def test_unengaged_initiative_rolls_d10_plus_pc_plus_twice_military_scientist() -> None:
    # 4 hexes apart: Ann D10 2 + PC 10 + 2 x 3 = 18; Bob D10 9 + 10 + 0 = 19.
    e = duel(ann={"military_scientist": 3}, battlefield={"range": 4})
    enc = begin(e, [2, 9])
    assert enc.state.order == ("Bob", "Ann")
    assert "order of action: Bob 19, Ann 18 (Q08 initiative)" in enc.start_lines


# -- exchanges: the defender's choice ----------------------------------------------------------
def test_an_attack_waits_for_the_defenders_choice() -> None:
    enc = begin(duel())
    act(enc, "attack:Bob")
    state = enc.state
    assert state.acting == "Bob" and state.phase == "defence"
    assert ids(enc) == ["defend:stand", "defend:evade", "defend:evade:noparry"]
    actions = enc.engine.legal_actions(state)
    assert [a.defensive for a in actions] == [False, True, True]
    assert {a.striker for a in actions} == {"Ann"}  # the blow that lands is Ann's


def test_standing_defence_then_the_turn_passes_on() -> None:
    # Ann SC 69 rolls 30: Average (30 > 40% of 69 = 28). Bob defence 10 rolls 50: Poor.
    # Result 1: Fatigue, d10+2 rolls 4 + 2 = 6, no armour: Bob FT 10 -> 4.
    enc = begin(duel())
    act(enc, "attack:Bob")
    lines = act(enc, "defend:stand", [30, 50, 4])
    assert who(enc, "Bob").ft == 4 and who(enc, "Bob").en == 10
    assert enc.state.acting == "Bob" and enc.state.phase == "turns"
    assert "Bob: FT 10 -> 4 (Q03)" in lines


def test_evading_adds_ten_and_four_per_rank_and_costs_the_next_action() -> None:
    # Bob rank 3 evades: defence 10 + 10 + 12 = 32. Ann rolls 90 (Poor), Bob 50 (Poor): blocked.
    enc = begin(duel(ann={"warrior_rank": 10}, bob={"rank": 3}))
    act(enc, "attack:Bob")
    lines = act(enc, "defend:evade", [90, 50])
    assert "defence = 32 (Q05)" in lines
    assert who(enc, "Bob").evading
    # Bob's own action this round is spent evading; a second attack meets the evasion unasked.
    assert ids(enc) == ["pass"]
    act(enc, "pass")
    assert enc.state.round == 2 and not who(enc, "Bob").evading


def test_an_evader_attacked_again_before_its_action_evades_without_a_choice() -> None:
    # Carl and Ann both strike Bob; Bob evades Ann's attack, then Carl's meets the evasion.
    e = engine(
        fighter("Ann", "a", warrior_rank=10),
        fighter("Carl", "a", warrior_rank=5),
        fighter("Bob", "b", rank=3),
    )
    enc = begin(e)
    act(enc, "attack:Bob")
    act(enc, "defend:evade", [90, 50])
    assert enc.state.acting == "Carl"
    lines = act(enc, "attack:Bob", [90, 50])  # no decision point: resolved at once
    assert "defence = 32 (Q05)" in lines and enc.state.acting == "Bob"


def test_a_successful_parry_makes_the_evader_pass_its_next_action() -> None:
    # Bob evades (defence 32): Ann rolls 60 (Average 1), Bob 3 (Decisive 4: 10% of 32 = 4).
    # 4 - 1 = 3 >= 2: parry D10 1 + rank 3 - rank 1 = 3 -> "parry". With the house rule that
    # evading costs nothing, the pass comes from the parry alone.
    enc = begin(
        duel(ann={"warrior_rank": 10}, bob={"rank": 3}, house={"evade_costs_next_action": False})
    )
    act(enc, "attack:Bob")
    lines = act(enc, "defend:evade", [60, 3, 1])
    assert "parry: D10 1 + rank 3 - rank 1 = 3: parry (Q07)" in lines
    bob = who(enc, "Bob")
    assert bob.passes and not bob.evading
    assert enc.engine.legal_actions(enc.state)[0].label.endswith("(successful parry, Q07)")


def test_parry_disarm_costs_the_attacker_one_en_and_its_weapon() -> None:
    # As above but D10 5: 5 + 3 - 1 = 7 -> disarm, 1 EN to the attacker (house default).
    enc = begin(duel(ann={"warrior_rank": 10}, bob={"rank": 3}))
    act(enc, "attack:Bob")
    act(enc, "defend:evade", [60, 3, 5])
    ann = who(enc, "Ann")
    assert ann.disarmed and ann.en == 9
    # Ann's next turn: ready the weapon first (no strike while disarmed)
    act(enc, "pass")  # Bob's action was spent evading
    assert enc.state.acting == "Ann"
    assert ids(enc)[0] == "ready" and not any(i.startswith("attack:") for i in ids(enc))


def test_parry_riposte_is_the_evaders_decision_then_a_strike() -> None:
    # D10 9: 9 + 3 - 1 = 11 -> disarm + riposte. Bob may strike back at once.
    enc = begin(duel(ann={"warrior_rank": 10}, bob={"rank": 3}))
    act(enc, "attack:Bob")
    act(enc, "defend:evade", [60, 3, 9])
    assert enc.state.acting == "Bob" and enc.state.phase == "riposte"
    assert ids(enc) == ["riposte:Ann", "riposte:decline"]
    act(enc, "riposte:Ann")
    # Ann (disarmed: no parry) chooses her defence; stands. Bob SC 55+10+12 = 77 rolls 20:
    # Better (20 <= 31, > 16); Ann rolls 95: Poor. Result 2: maximum FT 12: Ann FT 10 -> 0
    # and 2 past 0 run into EN: 9 -> 7.
    assert enc.state.acting == "Ann"
    act(enc, "defend:stand", [20, 95])
    ann = who(enc, "Ann")
    assert (ann.ft, ann.en) == (0, 7)
    assert enc.state.acting == "Bob"  # the turn passes on from Ann's turn


# -- lasting conditions ----------------------------------------------------------------------
def test_an_en_hit_stuns_until_a_recovery_roll_succeeds() -> None:
    # Ann rolls 10 (Crucial 3: 20% of 69 = 14), Bob 50 (Poor): result 3, EN. d10 5 + 2 = 7:
    # Bob EN 10 -> 3, stay conscious D100 under 3 x WP 10 = 30: rolls 20, stays.
    # The EN hit stuns Bob (reading).
    enc = begin(duel())
    act(enc, "attack:Bob")
    act(enc, "defend:stand", [10, 50, 5, 20])
    bob = who(enc, "Bob")
    assert (bob.en, bob.stunned, bob.status) == (3, True, "ready")
    assert ids(enc) == ["recover"]
    # Stun recovery: D100 under 2 x WP 10 + FT 10 = 30: 31 fails.
    lines = act(enc, "recover", [31])
    assert "stun recovery: 31 vs 30 -> failed (Q08 stun recovery)" in text(lines)
    assert who(enc, "Bob").stunned
    # Round 2: Ann strikes a stunned Bob: no choice; defence = magic 0 - 15 = -15.
    lines = act(enc, "attack:Bob", [99, 1])
    assert "defence = -15 (Q05)" in lines
    assert "Bob rolls 1 vs -15, natural 01: Decisive (4) (Q01)" in lines
    lines = act(enc, "recover", [30])
    assert not who(enc, "Bob").stunned


def test_stay_conscious_failed_puts_the_figure_out_and_en_zero_kills() -> None:
    enc = begin(duel())
    act(enc, "attack:Bob")
    act(enc, "defend:stand", [10, 50, 5, 31])  # EN 3; 31 > 30: unconscious
    bob = who(enc, "Bob")
    assert bob.status == "unconscious" and not enc.engine.turns.can_fight(bob)
    assert enc.state.ending == "terminated" and enc.state.winner == "a"
    # EN 0 or less is death: 10 + 2 = 12 EN damage on 10 EN
    enc = begin(duel())
    act(enc, "attack:Bob")
    act(enc, "defend:stand", [10, 50, 10])
    assert who(enc, "Bob").status == "dead" and who(enc, "Bob").en == -2
    assert enc.engine.turns.is_dead(who(enc, "Bob"))


def test_stay_conscious_each_turn_is_a_house_rule() -> None:
    # EN 3 after the hit (20 <= 30: conscious); with the house rule Bob rolls again as his
    # turn starts: 40 > 30, unconscious. By the text's default no second roll is asked.
    house = {"stay_conscious_each_turn": True, "stun_on_endurance_hit": False}
    enc = begin(duel(ann={"warrior_rank": 10}, house=house))
    act(enc, "attack:Bob")
    lines = act(enc, "defend:stand", [10, 50, 5, 20, 40])
    assert "Bob starts its turn at EN 3 (Q08 stay conscious)" in lines
    assert who(enc, "Bob").status == "unconscious" and enc.state.ending == "terminated"
    enc = begin(duel(ann={"warrior_rank": 10}, house={"stun_on_endurance_hit": False}))
    act(enc, "attack:Bob")
    act(enc, "defend:stand", [10, 50, 5, 20])
    assert enc.state.acting == "Bob" and who(enc, "Bob").status == "ready"


def test_fatigue_runs_out_into_endurance_and_no_fatigue_hurts_both_rolls() -> None:
    # Ann rolls 20 (Better 2: 40% of 69 = 28), Bob 50: maximum FT 12 on FT 10: FT 0, 2 into EN.
    enc = begin(duel())
    act(enc, "attack:Bob")
    lines = act(enc, "defend:stand", [20, 50])
    assert "2 FT damage past 0 FT runs into EN (Q03 current rules)" in lines
    assert (who(enc, "Bob").ft, who(enc, "Bob").en) == (0, 8)
    # Bob, with no Fatigue, strikes at -10 and Ann defends; Bob's next defence is -10 too.
    act(enc, "attack:Ann")
    lines = act(enc, "defend:stand", [99, 99])
    assert "strike chance = 59 (Q04/Q08)" in lines
    # without the overflow (house rule), the 2 points are lost
    enc = begin(duel(house={"fatigue_overflow_to_en": False}))
    act(enc, "attack:Bob")
    act(enc, "defend:stand", [20, 50])
    assert (who(enc, "Bob").ft, who(enc, "Bob").en) == (0, 10)


def test_knocked_down_until_it_gets_up() -> None:
    # Trip: BC min(55, 40) = 40 + 10 + 4 = 54, damage D10. Ann rolls 40 (Average), Bob 50.
    # Bob avoids with D100 under 3 x AG 10 = 30: 31 fails -> knocked down; d10 3 FT.
    enc = begin(duel())
    act(enc, "attack:Bob:trip")
    act(enc, "defend:stand", [40, 50, 31, 3])
    bob = who(enc, "Bob")
    assert bob.prone and bob.ft == 7
    assert ids(enc) == ["stand"]  # getting up is Bob's whole turn
    act(enc, "stand")
    assert not who(enc, "Bob").prone and enc.state.round == 2
    # avoided: 30 under 30
    enc = begin(duel())
    act(enc, "attack:Bob:trip")
    act(enc, "defend:stand", [40, 50, 30, 3])
    assert not who(enc, "Bob").prone


def test_a_prone_defender_is_struck_at_plus_20() -> None:
    # Ann (initiative 41) trips Bob; Carl (36) strikes him while he is down.
    e = engine(
        fighter("Ann", "a", agility=30),
        fighter("Carl", "a", agility=25),
        fighter("Bob", "b"),
    )
    enc = begin(e)
    act(enc, "attack:Bob:trip")
    act(enc, "defend:stand", [40, 50, 31, 3])
    act(enc, "attack:Bob")
    lines = act(enc, "defend:stand", [99, 99])
    prone = "defender kneeling or prone (defender.kneeling_or_prone; Q04 melee)"
    assert f"strike chance +20  {prone}" in lines
    assert "strike chance = 89 (Q04/Q08)" in lines


# -- movement: charge and withdrawals -----------------------------------------------------------
def test_charge_engages_with_the_charge_modifier_and_may_be_repulsed() -> None:
    # 5 hexes apart: D10 initiative Ann 9 + 10, Bob 1 + 10.
    e = duel(ann={"weapon": "spear"}, bob={"rank": 2}, battlefield={"range": 5})
    enc = begin(e, [9, 1])
    assert ids(enc)[0] == "charge:Bob"
    act(enc, "charge:Bob")
    assert board_of(enc.state).between("Ann", "Bob") == "engaged"
    assert "defend:repulse" in ids(enc)
    # repulse: D10 at least rank 2: 1 fails; then Bob stands: Ann's spear SC 50+10+4+20 = 84.
    lines = act(enc, "defend:repulse", [1, 99, 99])
    charge = "charging with pole weapon or shield (attacker.charge; Q04 melee)"
    assert f"strike chance +20  {charge}" in lines
    assert "strike chance = 84 (Q04/Q08)" in lines
    enc = begin(e, [9, 1])
    act(enc, "charge:Bob")
    lines = act(enc, "defend:repulse", [2])
    assert "Bob repulses Ann's charge: no strike (Q08)" in lines


def test_charging_with_a_non_pole_weapon_is_minus_15() -> None:
    enc = begin(duel(battlefield={"range": 5}), [9, 1])
    act(enc, "charge:Bob")
    assert "defend:repulse" in ids(enc)  # Bob rank 1
    lines = act(enc, "defend:stand", [99, 99])
    assert "strike chance = 54 (Q04/Q08)" in lines


def test_defensive_withdrawal_adds_20_and_steps_out_at_the_round_end() -> None:
    e = duel(bob={"agility": 12})  # Bob first (23 against 21)
    enc = begin(e)
    assert enc.state.acting == "Bob"
    act(enc, "withdraw:defensive")
    assert who(enc, "Bob").withdrawing
    act(enc, "attack:Bob")
    lines = act(enc, "defend:stand", [99, 99, 6, 5])
    assert "defence +20  defensive withdrawal (defender.defensive_withdrawal; Q05 melee)" in lines
    # round over: Bob is out of engagement; round 2 rolls unengaged initiative (Ann 6 + 10,
    # Bob 5 + 10)
    assert board_of(enc.state).between("Ann", "Bob") == 1
    assert enc.state.round == 2 and enc.state.order == ("Ann", "Bob")
    assert not who(enc, "Bob").withdrawing


def test_offensive_withdrawal_strikes_at_minus_20_then_disengages() -> None:
    enc = begin(duel())
    act(enc, "withdraw:offensive:Bob")
    lines = act(enc, "defend:stand", [99, 99])
    withdrawal = "offensive withdrawal (attacker.offensive_withdrawal; Q04 melee)"
    assert f"strike chance -20  {withdrawal}" in lines
    assert board_of(enc.state).between("Ann", "Bob") == 1
    assert "Ann withdraws out of engagement (Q04 offensive withdrawal)" in lines
    assert ids(enc)[0] == "charge:Ann"  # Bob is no longer engaged


def test_withdraw_from_close_combat_by_d10_and_physical_strength() -> None:
    # Close combat: Ann PS 12 + Carl PS 6 against Bob PS 9: D10 + 18 - 9 >= 10 needs 1+.
    e = engine(
        fighter("Ann", "a", physical_strength=12, agility=30),
        fighter("Carl", "a", physical_strength=6),
        fighter("Bob", "b", physical_strength=9),
        battlefield={
            "range": 3,
            "pairs": [
                {"between": ["Ann", "Bob"], "range": "close"},
                {"between": ["Carl", "Bob"], "range": "close"},
            ],
        },
    )
    enc = begin(e)
    assert "withdraw:close" in ids(enc) and ids(enc)[0] == "attack:Bob:close"
    lines = act(enc, "withdraw:close", [1])
    assert "withdraw: 10 vs 10 -> passed (Q08 withdraw): D10 1 + 18 - 9" in lines
    board = board_of(enc.state)
    assert board.between("Ann", "Bob") == "engaged" and board.between("Carl", "Bob") == "close"
    # Alone against PS 9 with PS 12: D10 10 + 12 - 9 = 13 passes; against PS 20: 10 + 12 - 20
    # = 2 fails and Ann stays in close combat.
    e = duel(
        ann={"physical_strength": 12, "agility": 30},
        bob={"physical_strength": 20},
        battlefield={"range": "close"},
    )
    enc = begin(e)
    lines = act(enc, "withdraw:close", [10])
    assert "withdraw: 2 vs 10 -> failed (Q08 withdraw): D10 10 + 12 - 20" in lines
    assert board_of(enc.state).between("Ann", "Bob") == "close"


def test_close_combat_strikes_add_ps_and_allow_no_evasion() -> None:
    e = duel(
        ann={"physical_strength": 12, "agility": 30},
        bob={"physical_strength": 9},
        battlefield={"range": "close"},
    )
    enc = begin(e)
    lines = act(enc, "attack:Bob:close", [99, 99])  # no decision point in close combat
    assert "strike chance +12  attacker's PS (attacker.physical_strength; Q04 close)" in lines
    assert "defence +9  defender's PS (defender.physical_strength; Q05 close)" in lines


def test_missiles_with_range_and_a_sheltered_target_and_no_shooting_when_engaged() -> None:
    e = duel(
        ann={"weapon": "short_bow", "agility": 30},
        battlefield={"range": 12, "cover": {"Bob": "sheltered"}},
    )
    enc = begin(e, [9, 1])
    assert ids(enc)[0] == "shoot:Bob"
    act(enc, "shoot:Bob")
    lines = act(enc, "defend:stand", [99, 99])
    assert any("missile 12 hexes" in x and "-6" in x for x in lines)
    assert "defence +20  sheltered hex (defender.sheltered_hex; Q05 ranged)" in lines
    e = duel(ann={"weapon": "short_bow", "agility": 30})
    enc = begin(e)
    assert not any(i.startswith(("shoot", "attack")) for i in ids(enc))
    assert ids(enc)[0] == "withdraw:defensive"


def test_view_names_the_conditions() -> None:
    enc = begin(duel())
    act(enc, "attack:Bob")
    act(enc, "defend:stand", [10, 50, 5, 20])
    view = enc.engine.turns.view(who(enc, "Bob"))
    assert view == {"FT": "10/10", "EN": "3/10", "status": "stunned"}
    assert enc.engine.turns.harm(who(enc, "Bob")) == 7
    state: FightState = enc.state
    assert state.phase == "turns"


def test_special_attacks_on_offer_shield_rush_only_with_a_shield() -> None:
    enc = begin(duel(ann={"shield": 5, "agility": 30}))
    specials = [i for i in ids(enc) if i.startswith("attack:Bob:")]
    assert specials == [f"attack:Bob:{s}" for s in ("trip", "shield_rush", "knockout", "disarm")]
    enc = begin(duel(ann={"agility": 30}))
    assert "attack:Bob:shield_rush" not in ids(enc)


def test_a_stunned_evader_keeps_only_the_stunned_defence() -> None:
    # Bob evades Ann (defence 32): Ann natural 01 (Decisive), Bob 50 (Poor): result 4, EN:
    # d10 5 + 2 = 7: EN 3, conscious on 20 (under 30), stunned. Carl's strike meets a stunned
    # Bob: magic 0 - 15, no evading bonus although his action is still given to evading.
    e = engine(
        fighter("Ann", "a", warrior_rank=10),
        fighter("Carl", "a", warrior_rank=5),
        fighter("Bob", "b", rank=3),
    )
    enc = begin(e)
    act(enc, "attack:Bob")
    act(enc, "defend:evade", [1, 50, 5, 20])
    bob = who(enc, "Bob")
    assert bob.stunned and bob.evading and bob.en == 3
    lines = act(enc, "attack:Bob", [99, 99])
    assert "defence = -15 (Q05)" in lines
    assert not any("evading" in x for x in lines)


# -- readings a fight depends on ------------------------------------------------------------------
def test_fatigue_running_into_endurance_asks_the_stay_conscious_roll_and_does_not_stun() -> None:
    """FT damage past 0 that runs into EN is EN damage for staying conscious (EN 4 -> 2: D100
    under 2 x WP 10); it is no EN hit, so it does not stun."""
    enc = begin(duel(bob={"endurance": 4}))
    act(enc, "attack:Bob")
    lines = act(enc, "defend:stand", [20, 50, 21])  # maximum FT 12 on FT 10: 2 into EN
    assert "stay conscious: 21 vs 20 -> failed (Q08 stay conscious)" in lines
    assert who(enc, "Bob").status == "unconscious"
    enc = begin(duel(bob={"endurance": 4}))
    act(enc, "attack:Bob")
    act(enc, "defend:stand", [20, 50, 20])
    bob = who(enc, "Bob")
    assert (bob.en, bob.status, bob.stunned) == (2, "ready", False)


def test_an_en_hit_stuns_only_with_en_damage_left_after_armour() -> None:
    plate = {"name": "hard plate", "ft": 0, "en": 7, "dr": 0}
    enc = begin(duel(bob={"armour": plate}))
    act(enc, "attack:Bob")
    lines = act(enc, "defend:stand", [10, 50, 5])  # result 3 (EN): d10 5 + 2 = 7 - 7 = 0
    assert "7 - EN armour 7 - DR 0 = 0 EN damage (hard plate) (Q03)" in lines
    bob = who(enc, "Bob")
    assert (bob.en, bob.stunned) == (10, False)


def test_close_combat_takes_only_the_close_combat_modifiers() -> None:
    """57.1/57.2 list close and melee modifiers apart: a close-combat strike takes the close
    ones only (no Fatigue: -20 once, not the melee -10 as well)."""
    enc = begin(duel(ann={"fatigue": 0}, battlefield={"range": "close"}))
    lines = act(enc, "attack:Bob:close", [99, 99])
    no_fatigue = [line for line in lines if "no Fatigue" in line]
    assert no_fatigue == [
        "strike chance -20  attacker has no Fatigue (attacker.no_fatigue; Q04 close)"
    ]
    assert "strike chance = 49 (Q04/Q08)" in lines  # 69 - 20
