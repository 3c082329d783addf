"""Each lasting rule of a tactical_d20 fight on its own: initiative and its ties, the Action
budget, wound durations, the Body check, movement and distances, Grapples and Melees, the
Reaction, suppression zones, ammunition and disarming.

Catalog figures: operator agility +3, Dodge 14, firearms +4, melee +2, willpower +2, speed 30;
raider agility +2, Dodge 12, firearms +3, melee +3, body +2, willpower +1; guard agility 0;
smg 1d6 auto (50/100/200 ft, 30 rounds); pistol 1d6 semi (30/60/120, 15); knife 1d4.
"""

from __future__ import annotations

from typing import Any

from firefight.dice import ScriptedDice
from firefight.encounter import Encounter
from firefight.rulesets.tactical_d20.encounter_state import Lasting

from .test_encounter import play, scenario


def ids(enc: Encounter) -> list[str]:
    return [a.id for a in enc.engine.legal_actions(enc.state)]


def raider(name: str, side: str = "gang", **more: Any) -> dict[str, Any]:
    return {"name": name, "side": side, "creature": "raider", "weapons": ["knife"], **more}


# --- T01 initiative --------------------------------------------------------------------------
def test_initiative_orders_once_and_the_order_repeats() -> None:
    engine = scenario(
        [
            {"name": "Op", "side": "crew", "creature": "operator", "weapons": ["knife"]},
            raider("R1"),
            raider("R2"),
        ],
        {"range": 60},
    )
    # Op 5 + 3 = 8; R1 10 + 2 = 12; R2 9 + 2 = 11
    enc = play(engine, [5, 10, 9], [])
    assert enc.state.order == ("R1", "R2", "Op") and enc.state.acting == "R1"
    # three turns of "end turn": round 2 starts with no new roll and the same order
    for _ in range(3):
        dice = ScriptedDice([])
        enc.act("end_turn", dice)
        dice.check_all_used()
    assert enc.state.round == 2 and enc.state.order == ("R1", "R2", "Op")
    assert enc.state.acting == "R1"


def test_same_side_ties_reroll_the_initiative_roll_with_the_modifier() -> None:
    guard = {"name": "G", "side": "gang", "creature": "guard", "weapons": ["knife"]}
    op = {"name": "Op", "side": "crew", "creature": "operator", "weapons": ["knife"]}
    engine = scenario([op, raider("R"), guard], {"range": 60})
    # Op 1 + 3 = 4; R 10 + 2 = 12; G 12 + 0 = 12: a GM tie, re-rolled as d20 + modifier:
    # R 8 + 2 = 10 beats G 9 + 0 = 9 (a bare d20 would have put G first)
    enc = play(engine, [1, 10, 12, 8, 9], [])
    assert enc.state.order == ("R", "G", "Op")


def test_a_player_character_wins_a_tie_with_a_gm_creature() -> None:
    op = {"name": "Op", "side": "crew", "creature": "operator", "weapons": ["knife"]}
    engine = scenario([raider("R"), op], {"range": 60})
    enc = play(engine, [10, 9], [])  # 12 each
    assert enc.state.order == ("Op", "R")


# --- T02 the budget --------------------------------------------------------------------------
def test_four_actions_two_attacks_and_the_turn_ends_by_itself() -> None:
    engine = scenario([raider("A", "x"), raider("B", "y")])
    enc = play(engine, [15, 2], [("attack:B:knife:single:torso", [1])])
    assert enc.state.combatant("A").actions == 2
    assert "attack:B:knife:single:torso" in ids(enc)
    enc.act("attack:B:knife:single:torso", ScriptedDice([1]))
    assert enc.state.acting == "B" and enc.state.combatant("A").actions == 0
    assert enc.state.combatant("B").actions == 4


def test_the_default_is_an_attack_on_the_nearest_enemy_and_end_turn_is_always_there() -> None:
    pistol = {"name": "P", "side": "x", "creature": "operator", "weapons": ["pistol"]}
    engine = scenario(
        [pistol, raider("Near", "y"), raider("Far", "y")],
        {"range": 20, "pairs": [{"between": ["P", "Far"], "range": 50}]},
    )
    enc = play(engine, [20, 1, 2], [])
    actions = ids(enc)
    assert actions[0] == "attack:Near:pistol:burst:torso"
    assert "end_turn" in actions
    assert "suppress:Near:pistol" not in actions  # a semi-automatic lays no cone


# --- T05 wounds and their durations -----------------------------------------------------------
def test_an_arm_wound_reaches_the_next_attack_and_ends_with_the_victims_turn() -> None:
    engine = scenario([raider("A", "x"), raider("B", "y")])
    # A: arms 14 + 3 - 3 = 14 hit, 1d4 = 1; second attack misses (2 + 3 = 5)
    enc = play(
        engine,
        [15, 2],
        [("attack:B:knife:single:arms", [14, 1]), ("attack:B:knife:single:torso", [2])],
    )
    b = enc.state.combatant("B")
    assert [e.label() for e in b.effects] == ["arm_wound until the end of its next turn"]
    step = enc.act("attack:A:knife:single:torso", ScriptedDice([15, 1]))
    assert any("-5  arm wound" in line for line in step.lines)  # 15 + 3 - 5 = 13 hits
    assert enc.state.combatant("A").hp == 19
    enc.act("end_turn", ScriptedDice([]))
    assert enc.state.combatant("B").effects == ()
    assert enc.state.round == 2 and enc.state.acting == "A"


def test_a_critical_leg_wound_lasts_until_a_body_check() -> None:
    engine = scenario([raider("A", "x"), raider("B", "y")], {"range": 30})
    # A closes 30 -> 5 ft and uses the free attack at the legs: natural 20, a critical: the leg
    # wound lasts until a DC 15 Body check (B: body +2).
    enc = play(
        engine,
        [15, 2],
        [("close:B", []), ("free:B:knife:single:legs", [20, 2]), ("end_turn", [])],
    )
    b = enc.state.combatant("B")
    assert [e.label() for e in b.effects] == ["leg_wound until a Body check"]
    assert "body_check:leg_wound" in ids(enc)
    enc.act("body_check:leg_wound", ScriptedDice([12]))  # 12 + 2 = 14 < 15: still wounded
    assert enc.state.combatant("B").has("leg_wound")
    enc.act("body_check:leg_wound", ScriptedDice([13]))  # 15: shaken off
    assert enc.state.combatant("B").effects == ()
    # the check lasted beyond B's turn end: it was not a timed effect
    enc.act("end_turn", ScriptedDice([]))
    assert enc.state.combatant("B").effects == ()


def test_a_leg_wound_halves_the_move_until_the_end_of_the_next_turn() -> None:
    pistol = {"name": "P", "side": "x", "creature": "operator", "weapons": ["pistol"]}
    engine = scenario([pistol, raider("B", "y")], {"range": 100})
    # 100 ft is past the second threshold (60): -6; legs -3; +4: 18 + 4 - 9 = 13 >= 12
    enc = play(
        engine,
        [15, 2],
        [("attack:B:pistol:single:legs", [18, 1]), ("end_turn", [])],
    )
    move = next(a for a in enc.engine.legal_actions(enc.state) if a.id == "close:P")
    assert "up to 15 ft" in move.label
    enc.act("close:P", ScriptedDice([]))
    assert enc.state.board.distance("P", "B") == 85
    enc.act("end_turn", ScriptedDice([]))
    enc.act("end_turn", ScriptedDice([]))  # P's turn in round 2
    move = next(a for a in enc.engine.legal_actions(enc.state) if a.id == "close:P")
    assert "up to 30 ft" in move.label


# --- T04/T09 movement, distances, Grapples and Melees -----------------------------------------
def test_moves_change_distances_and_reaching_a_creature_opens_a_free_attack() -> None:
    engine = scenario(
        [raider("A", "x"), raider("B", "y"), raider("C", "y")],
        {"range": 40, "pairs": [{"between": ["B", "C"], "range": 5}]},
    )
    enc = play(engine, [15, 2, 1], [])
    assert not any(i.startswith("free:") for i in ids(enc))
    enc.act("close:B", ScriptedDice([]))
    board = enc.state.board
    # 40 -> 10 ft from B; C stands 5 ft from B: somewhere 5..15 ft from A, as close to 40 as
    # possible: 15 ft
    assert board.distance("A", "B") == 10 and board.distance("A", "C") == 15
    enc.act("close:B", ScriptedDice([]))
    assert enc.state.board.distance("A", "B") == 5
    assert enc.state.combatant("A").closed_on == "B"
    assert ids(enc)[0] == "free:B:knife:single:torso"
    enc.act("free:B:knife:single:torso", ScriptedDice([2]))  # a miss still makes a Grapple
    state = enc.state
    assert state.board.groups == (("A", "B"),) and state.combatant("A").actions == 2
    assert state.board.distance("A", "B") == 0
    assert not any(i.startswith("free:") for i in ids(enc))
    assert not any(i.startswith("close:") for i in ids(enc))  # in a Grapple: attack or leave
    assert all(i.split(":")[1] == "B" for i in ids(enc) if i.startswith("attack:"))


def test_a_third_creature_makes_a_melee_and_leaving_it_provokes_nothing() -> None:
    engine = scenario([raider("A", "x"), raider("B", "y"), raider("C", "y")], {"range": 5})
    enc = play(
        engine,
        [15, 10, 5],
        [
            ("attack:B:knife:single:torso", [2]),  # A and B: a Grapple
            ("end_turn", []),
            ("attack:A:knife:single:torso", [2]),  # B, already in it
            ("end_turn", []),
            ("attack:A:knife:single:torso", [2]),  # C joins: a Melee
        ],
    )
    assert enc.state.board.groups == (("A", "B", "C"),)
    enc.act("end_turn", ScriptedDice([]))
    enc.act("exit", ScriptedDice([]))  # round 2, A leaves the Melee: no Reaction
    state = enc.state
    assert state.board.pending is None and state.acting == "A"
    # B and C are on one side: with no enemy left in it, the rest of the Melee breaks up
    assert state.board.groups == ()
    assert state.board.distance("A", "B") == 5 and state.board.distance("A", "C") == 5
    assert state.combatant("B").reaction and state.combatant("C").reaction


def test_leaving_a_grapple_hands_the_other_creature_its_reaction() -> None:
    engine = scenario([raider("A", "x"), raider("B", "y")])
    enc = play(engine, [15, 2], [("attack:B:knife:single:torso", [2]), ("exit", [])])
    state = enc.state
    assert state.acting == "B" and state.phase == "reaction"
    assert ids(enc)[0] == "reaction:A:knife:single:torso" and ids(enc)[-1] == "let_go"
    enc.act("let_go", ScriptedDice([]))
    state = enc.state
    assert state.acting == "A" and state.combatant("A").actions == 1
    assert state.board.groups == () and state.board.distance("A", "B") == 5
    assert state.combatant("B").reaction  # it let A go: the Reaction is still there


def test_a_reaction_wound_taken_in_ones_own_turn_lasts_through_the_next_turn() -> None:
    engine = scenario([raider("A", "x"), raider("B", "y")])
    enc = play(
        engine,
        [15, 2],
        [
            ("attack:B:knife:single:torso", [2]),
            ("exit", []),
            ("reaction:A:knife:single:arms", [15, 1]),  # 15 + 3 - 3 = 15: A's arm
            ("end_turn", []),
            ("end_turn", []),  # B's turn
        ],
    )
    a = enc.state.combatant("A")
    assert enc.state.acting == "A" and enc.state.round == 2
    assert [e.label() for e in a.effects] == ["arm_wound until the end of its next turn"]
    enc.act("end_turn", ScriptedDice([]))
    assert enc.state.combatant("A").effects == ()
    # B spent its Reaction in round 1; it came back at the start of B's own turn
    assert enc.states[3].combatant("B").reaction is False
    assert enc.state.combatant("B").reaction


def test_a_ranged_attack_at_a_grapple_is_one_attack_on_the_group() -> None:
    pistol = {"name": "P", "side": "x", "creature": "operator", "weapons": ["pistol"]}
    engine = scenario(
        [raider("A", "x"), raider("B", "y"), pistol],
        {"range": 5, "pairs": [{"between": ["P", "B"], "range": 20}]},
    )
    # A 17, B 7, P 1 + 3 = 4
    enc = play(
        engine,
        [15, 5, 1],
        [("attack:B:knife:single:torso", [2]), ("end_turn", []), ("end_turn", [])],
    )
    assert enc.state.acting == "P"
    shots = [i for i in ids(enc) if i.startswith("attack:")]
    assert shots and all(i.startswith("attack:A+B:pistol") for i in shots)
    # 10 + 4 + 3 (burst) = 17 >= Dodge 12 of the Grapple; 1d2 = 2: B; 1d6 + 1d4 = 3 + 2
    step = enc.act("attack:A+B:pistol:burst:torso", ScriptedDice([10, 2, 3, 2]))
    assert any("Dodge 12" in line for line in step.lines)
    assert enc.state.combatant("B").hp == 15


# --- T08 suppression zones ------------------------------------------------------------------
GUNNER = {"name": "Gun", "side": "x", "creature": "operator", "weapons": ["smg"]}


def cone(cover: str | None = None) -> Encounter:
    field = {"range": 40, **({"cover": {"R": cover}} if cover else {})}
    engine = scenario([GUNNER, raider("R", "y", weapons=["pistol"])], field)
    # initiative: Gun 15 + 3 = 18, R 5 + 2 = 7
    return play(engine, [15, 5], [])


def test_suppressing_fire_takes_the_whole_turn_and_lasts_until_the_shooters_next_turn() -> None:
    enc = cone()
    assert "suppress:R:smg" in ids(enc)
    enc.act("suppress:R:smg", ScriptedDice([19]))  # R checks at its turn start: 20 vs DC 16
    gun = enc.state.combatant("Gun")
    assert (gun.actions, gun.reaction, gun.rounds) == (0, False, (("smg", 15),))
    assert [z.covers for z in enc.state.board.zones] == [("R",)]
    assert enc.state.acting == "R" and enc.state.combatant("R").actions == 4  # passed by 4
    enc.act("end_turn", ScriptedDice([]))
    assert enc.state.acting == "Gun" and enc.state.board.zones == ()
    enc.act("close:R", ScriptedDice([]))
    assert not any(i.startswith("suppress:") for i in ids(enc))  # needs all 4 Actions


def test_failing_unprotected_costs_a_move_out_of_the_cone() -> None:
    enc = cone()
    enc.act("suppress:R:smg", ScriptedDice([5]))  # 6 < 16
    r = enc.state.combatant("R")
    assert enc.state.acting == "R" and r.actions == 3 and r.hp == 20
    assert enc.state.board.zones[0].covers == ()


def test_failing_behind_cover_pins_the_creature_for_its_turn() -> None:
    enc = cone("light")
    enc.act("suppress:R:smg", ScriptedDice([5]))
    # R is pinned: its turn is over at once; round 2 begins with the gunner, whose cone lifts
    assert enc.state.round == 2 and enc.state.acting == "Gun"
    assert enc.state.combatant("R").hp == 20 and enc.state.board.zones == ()


def test_passing_by_three_or_less_acts_but_takes_the_weapons_damage() -> None:
    enc = cone()
    enc.act("suppress:R:smg", ScriptedDice([17, 4]))  # 18: passed by 2; 1d6 = 4
    r = enc.state.combatant("R")
    assert enc.state.acting == "R" and r.actions == 4 and r.hp == 16


# --- T06/T10 ammunition and disarming --------------------------------------------------------
def test_ammunition_carries_across_turns_and_limits_the_modes() -> None:
    gun = {**GUNNER, "loaded": {"smg": 5}}
    engine = scenario([gun, raider("R", "y")], {"range": 40})
    enc = play(engine, [15, 5], [("attack:R:smg:burst:torso", [1])])
    assert enc.state.combatant("Gun").loaded("smg") == 2
    modes = {i.split(":")[3] for i in ids(enc) if i.startswith("attack:")}
    assert modes == {"single"}  # 2 rounds: no burst (3) or double burst (5)
    assert not any(i.startswith("suppress:") for i in ids(enc))


def test_a_disarmed_creature_fights_unarmed() -> None:
    engine = scenario([raider("A", "x"), raider("B", "y")])
    # Athletics contest: A 15 + 3 = 18 beats B 4 + 3 = 7
    enc = play(engine, [15, 2], [("disarm:B", [15, 4]), ("end_turn", [])])
    assert enc.state.combatant("B").disarmed
    weapons = {i.split(":")[2] for i in ids(enc) if i.startswith("attack:")}
    assert weapons == {"unarmed"}


# --- house readings about time -----------------------------------------------------------------
def test_house_reading_own_turn_effects_end_with_this_turn() -> None:
    engine = scenario(
        [raider("A", "x"), raider("B", "y")],
        house={"own_turn_effects_last": "this_turn"},
    )
    enc = play(
        engine,
        [15, 2],
        [
            ("attack:B:knife:single:torso", [2]),
            ("exit", []),
            ("reaction:A:knife:single:arms", [15, 1]),
        ],
    )
    assert [e.turns for e in enc.state.combatant("A").effects] == [1]
    enc.act("end_turn", ScriptedDice([]))
    assert enc.state.combatant("A").effects == ()  # gone with A's own turn


def test_house_reading_the_reaction_comes_back_each_round() -> None:
    engine = scenario([raider("A", "x"), raider("B", "y")], house={"reaction_returns": "round"})
    enc = play(engine, [15, 2], [("attack:B:knife:single:torso", [2]), ("exit", [])])
    enc.act("reaction:A:knife:single:torso", ScriptedDice([2]))
    assert not enc.state.combatant("B").reaction
    enc.act("end_turn", ScriptedDice([]))  # A ends; B's turn does not give it back
    assert enc.state.acting == "B" and not enc.state.combatant("B").reaction
    enc.act("end_turn", ScriptedDice([]))  # round 2 begins: every Reaction is back
    assert enc.state.round == 2 and enc.state.combatant("B").reaction


def test_stunned_in_its_own_turn_ends_it_and_loses_the_next_one() -> None:
    engine = scenario([raider("A", "x"), raider("B", "y")])
    # A leaves the Grapple; B's Reaction at the head: natural 20, a critical: stunned; the head
    # doubles the knife's dice: 2d4 = 1 + 1
    enc = play(
        engine,
        [15, 2],
        [
            ("attack:B:knife:single:torso", [2]),
            ("exit", []),
            ("reaction:A:knife:single:head", [20, 1, 1]),
        ],
    )
    a = enc.state.combatant("A")
    assert a.hp == 18 and a.actions == 0  # its turn ended with 1 Action unspent
    assert enc.state.acting == "B" and a.effects == (Lasting("stunned", 1),)
    enc.act("end_turn", ScriptedDice([]))
    # round 2: A's turn is lost to the stun, which then wears off; B acts
    assert enc.state.round == 2 and enc.state.acting == "B"
    assert enc.state.combatant("A").effects == ()


def test_a_group_left_without_an_enemy_breaks_up() -> None:
    engine = scenario(
        [
            raider("A", "x", creature={"use": "raider", "hp": 1}),
            raider("B", "y"),
            raider("C", "y"),
            raider("D", "x"),
        ],
        {"range": 5, "pairs": [{"between": ["D", n], "range": 60} for n in "ABC"]},
    )
    # A 17, B 12, C 7, D 3. A attacks B (a Grapple); B attacks A; C joins (a Melee of A, B, C)
    # and knocks A down: 15 + 3 = 18 hits, 1d4 = 2. B and C, both of side y, are free again
    # while D fights on.
    enc = play(
        engine,
        [15, 10, 5, 1],
        [
            ("attack:B:knife:single:torso", [2]),
            ("end_turn", []),
            ("attack:A:knife:single:torso", [2]),
            ("end_turn", []),
        ],
    )
    assert enc.state.board.groups == (("A", "B"),)
    enc.act("attack:A:knife:single:torso", ScriptedDice([15, 2]))
    assert enc.state.ending is None and enc.state.combatant("A").hp == -1
    assert enc.state.board.groups == ()
    assert any(i.startswith("close:") for i in ids(enc))  # C may move again


def test_two_cones_one_move_out_of_both() -> None:
    # two gunners lay cones over R; R fails the first check unprotected and moves out: it is out
    # of both cones, so the second cone asks for no check
    engine = scenario(
        [GUNNER, {**GUNNER, "name": "Gun2"}, raider("R", "y", weapons=["pistol"])],
        {"range": 40},
    )
    # Gun 15 + 3, Gun2 14 + 3, R 5 + 2
    enc = play(engine, [15, 14, 5], [("suppress:R:smg", [])])
    enc.act("suppress:R:smg", ScriptedDice([5]))  # R: 6 < 16, fails: moves out
    assert enc.state.acting == "R" and enc.state.combatant("R").actions == 3
    assert all(z.covers == () for z in enc.state.board.zones)


def test_a_shooter_who_goes_down_stops_firing() -> None:
    gunner = {**GUNNER, "creature": {"use": "operator", "hp": 5}}
    engine = scenario([gunner, raider("R", "y", weapons=["pistol"])], {"range": 20})
    # R passes its check by 4 (19 + 1 = 20 vs DC 16) and shoots: at 20 ft 14 + 3 = 17 >= Dodge
    # 14, 1d6 = 6: the gunner is down, and its cone ends with it
    enc = play(engine, [15, 5], [("suppress:R:smg", [19])])
    assert enc.state.board.zones
    enc.act("attack:Gun:pistol:single:torso", ScriptedDice([14, 6]))
    assert enc.state.ending == "terminated" and enc.state.board.zones == ()


# --- readings a fight depends on -----------------------------------------------------------------
def test_the_default_order_nests_target_weapon_mode_region() -> None:
    """``first``'s order: the nearest enemy outermost, then the weapon (a melee weapon in
    reach, else a ranged one, fists last), then the fire mode (burst, single, double burst),
    the region innermost (torso, head, arms, legs)."""
    op = {"name": "Op", "side": "x", "creature": "operator", "weapons": ["smg", "knife"]}
    engine = scenario([op, raider("B", "y")], {"range": 30})
    enc = play(engine, [20, 2], [])
    attacks = [i.split(":")[2:] for i in ids(enc) if i.startswith("attack:")]
    regions = ["torso", "head", "arms", "legs"]
    modes = ["burst", "single", "double_burst"]
    # the knife and the fists are out of reach
    assert attacks == [["smg", m, r] for m in modes for r in regions]
    engine = scenario([op, raider("B", "y")], {"range": 5})
    enc = play(engine, [20, 2], [])
    weapons = [i.split(":")[2] for i in ids(enc) if i.startswith("attack:")]
    first = list(dict.fromkeys(weapons))
    assert first == ["knife", "smg", "unarmed"]  # each weapon's attacks together, in that order
    assert weapons == sorted(weapons, key=first.index)


def test_a_fists_only_creature_gets_the_free_attack_after_a_move() -> None:
    """T09's "a melee weapon attack as a Free Action": an unarmed strike counts (a melee
    attack needs a melee weapon "unless making an unarmed attack")."""
    brawler = {"name": "A", "side": "x", "creature": "raider", "weapons": []}
    engine = scenario([brawler, raider("B", "y")], {"range": 30})
    enc = play(engine, [15, 2], [("close:B", [])])
    assert ids(enc)[0] == "free:B:unarmed:single:torso"


def test_a_critical_arm_wound_offers_the_body_check() -> None:
    """T05: a critical at the arms lasts until a DC 15 Body check for 1 Action, as at the
    legs; a plain arm wound ends with the next turn and offers none."""
    engine = scenario([raider("A", "x"), raider("B", "y")], {"range": 30})
    enc = play(
        engine,
        [15, 2],
        [("close:B", []), ("free:B:knife:single:arms", [20, 2]), ("end_turn", [])],
    )
    assert [e.label() for e in enc.state.combatant("B").effects] == ["arm_wound until a Body check"]
    assert "body_check:arm_wound" in ids(enc)
    engine = scenario([raider("A", "x"), raider("B", "y")])
    enc = play(engine, [15, 2], [("attack:B:knife:single:arms", [14, 1]), ("end_turn", [])])
    assert enc.state.combatant("B").has("arm_wound")
    assert not any(i.startswith("body_check") for i in ids(enc))
