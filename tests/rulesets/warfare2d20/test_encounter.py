"""warfare2d20 encounters: two fights worked out by hand from the text, played through the engine.

Every face is given per step (one ScriptedDice per step, all faces used), and every figure of the
end state is checked. The working is in the comments: each roll and what the rule makes of it.
"""

from __future__ import annotations

from pathlib import Path

from firefight.core.transcript import Modifier
from firefight.dice import ScriptedDice
from firefight.encounter import Encounter, Engine, read_scenario
from firefight.rulesets.warfare2d20.encounter_actions import Soldier
from firefight.rulesets.warfare2d20.fatigue import RoundFatigue

ROOT = Path(__file__).resolve().parents[3]
ENCOUNTERS = ROOT / "examples" / "warfare2d20" / "encounters"

GUNNER_DUEL = """
ruleset = "warfare2d20"
title = "gunner against one insurgent"
max_rounds = 10

[[sides]]
name = "marines"

[[sides]]
name = "insurgents"

[[combatants]]
name = "Gunner"
side = "marines"
combatant = "marine"
weapon = "M249"
movement = "sprinting"

[[combatants]]
name = "Insurgent"
side = "insurgents"
combatant = "insurgent"
weapon = "RPK"

[battlefield]
range = "close"
"""


def begin(path: Path, faces: list[int]) -> Encounter:
    dice = ScriptedDice(faces)
    enc = Encounter.begin(Engine(read_scenario(path)), dice)
    dice.check_all_used()
    return enc


def step(enc: Encounter, action: str, faces: list[int]) -> list[str]:
    dice = ScriptedDice(faces)
    done = enc.act(action, dice)
    dice.check_all_used()
    return list(done.lines)


def test_small_duel_by_hand() -> None:
    """small_duel.toml: two insurgents (mettle 11, endurance 11, dexterity 11: 2 actions,
    14 hit points, pain threshold 3), 3 hit points and no stamina left, M9 (2d10, single),
    close range (M9 close: +0), no armour, no cover."""
    # Round 1, W10: Red 3+4 = 7 <= 11 passes (margin 4, not exceptional); Blue 5+5 = 10 <= 11
    # passes. Lower roll first: Red, then Blue.
    enc = begin(ENCOUNTERS / "small_duel.toml", [3, 4, 5, 5])
    assert enc.state.order == ("Red", "Blue")
    assert enc.state.acting == "Red"
    # Red fires: 10+10 = 20 against Blue's 5+5 = 10, delta 10 <= delta t 10: hit (W01).
    # Damage 2d10 [1, 1] = 2, no armour: 2 through (W06). No stamina: no damper (W08), 2 hit
    # points off: Blue 3 -> 1; 2 is not more than 25% of 14: no endurance check (W09).
    step(enc, "fire:Blue:single", [10, 10, 5, 5, 1, 1])
    assert enc.state.combatant("Blue").hit_points == 1
    assert enc.state.acting == "Blue"  # turns alternate in initiative order (W11 reading)
    # Blue fires: 1+1 = 2 against Red's 20+20 = 40: delta 38 > 10, miss (no delta s: single).
    step(enc, "fire:Red:single", [1, 1, 20, 20])
    assert enc.state.combatant("Red").hit_points == 3
    # Red's second and last action: 6+6 = 12 against 6+7 = 13, delta 1: hit. Damage [2, 1] = 3:
    # Blue 1 -> -2: dead (W09 reading: 0 or less). Blue cannot fight: the fight is over.
    lines = step(enc, "fire:Blue:single", [6, 6, 6, 7, 2, 1])
    assert "Blue: status wounded -> dead (W09)" in lines
    s = enc.state
    assert (s.ending, s.winner, s.round) == ("terminated", "red", 1)
    red, blue = s.combatant("Red"), s.combatant("Blue")
    # End of round 1 (W11 model): Red still, 2 actions: 80 + 2 x 10 = 100, under his breath
    # limit 140 + 2 x 11 = 162; after rest max(80, 100 - 30) = 80. The dead take no fatigue.
    assert red == Soldier(
        "Red", "red", 3, 0, "wounded", initiative="passed", actions=2,
        fatigue=RoundFatigue(100, False, 0, 80),
    )  # fmt: skip
    assert blue == Soldier(
        "Blue", "blue", -2, 0, "dead", initiative="passed", actions=1,
    )  # fmt: skip
    engine = enc.engine
    assert (engine.turns.harm(red), engine.turns.harm(blue)) == (11 + 12, 16 + 12)
    assert engine.turns.is_dead(blue) and not engine.turns.can_fight(blue)


def test_gunner_suppresses_then_runs_out_of_breath(tmp_path: Path) -> None:
    """An M249 gunner (marine: mettle 14, endurance 13, dexterity 12: 3 actions) sprinting,
    against an insurgent with an RPK at close range. Suppression (W05) enforced, fatigue (W11)
    reaching the next round's roll."""
    path = tmp_path / "gunner.toml"
    path.write_text(GUNNER_DUEL)
    # W10: Gunner 2+2 = 4 <= 14, a pass by 10 >= 7: exceptionally well. Insurgent 6+6 = 12 > 11:
    # fails, and acts after everyone who passed.
    enc = begin(path, [2, 2, 6, 6])
    s = enc.state
    assert s.order == ("Gunner", "Insurgent") and s.acting == "Gunner"
    assert s.combatant("Gunner").initiative == "exceptionally well"
    assert s.combatant("Insurgent").initiative == "failed"
    # Gunner, action 1: automatic gives delta t +2 (12), delta s +3; sprinting +6 delta. 10+10 =
    # 20 against 10+18 = 28: delta 8, modified 14 > 12: a miss, but 14 <= 12 + 3: shock. Mettle
    # check 6+6 = 12 > 11: failed, suppressed: takes cover, loses his actions to the end of
    # round 2 (W05 reading, house suppression_rounds = 1).
    lines = step(enc, "fire:Insurgent:automatic", [10, 10, 10, 18, 6, 6])
    assert "Insurgent: suppressed no -> yes (W05)" in lines
    ins = enc.state.combatant("Insurgent")
    assert (ins.suppressed_until, ins.stance, ins.done) == (2, "taking cover", True)
    # The Insurgent may not act: the turn comes back to the Gunner.
    assert enc.state.acting == "Gunner"
    # Action 2: the Insurgent is taking cover (-6 delta t, W03): 10 + 2 - 6 = 6. 10+10 = 20
    # against 10+10 = 20: delta 0, modified 6 <= 6: hit. Damage 3d10 [4, 4, 4] = 12, no armour;
    # pain threshold 3: stamina 12 -> 9, hit points 14 -> 5. 9 > 25% of 14: endurance check
    # 5+5 = 10 <= 11: passed, wounded.
    lines = step(enc, "fire:Insurgent:automatic", [10, 10, 10, 10, 4, 4, 4, 5, 5])
    assert "delta t -6  target taking cover (Insurgent; W03)" in lines
    # Action 3: 1+1 = 2 against 20+20 = 40: delta 38, miss.
    step(enc, "fire:Insurgent:automatic", [1, 1, 20, 20])
    # End of round 1: Gunner sprinting (160) with 3 actions: 190 > 140 + 2 x 13 = 166, over by
    # 24: out of breath, +3 delta next round; carried max(80, 190 - 30) = 160. The Insurgent
    # (still, 0 actions) 80. The suppression holds (until the end of round 2). Round 2: no new
    # initiative roll (the confrontation goes on).
    s = enc.state
    assert s.round == 2 and s.acting == "Gunner"
    assert s.combatant("Gunner").fatigue == RoundFatigue(190, True, 3, 160)
    assert s.combatant("Insurgent").suppressed_until == 2
    # Round 2, Gunner: sprinting +6 and out of breath +3 (W11, a named modifier): +9. The
    # Insurgent, still pinned, takes cover: delta t 6. 10+10 = 20 against 10+11 = 21: delta 1,
    # modified 10 > 6 + 3: a plain miss (rested, 7 would have shocked him again).
    lines = step(enc, "fire:Insurgent:automatic", [10, 10, 10, 11])
    assert "delta +3  out of breath (Gunner; W11)" in lines
    assert any(line.startswith("delta vs delta t + delta s: 10 vs 9 -> failed") for line in lines)
    # The Gunner stops. End of round 2: he starts at max(160, 160) = 160, one action: 170 > 166
    # by 4: +1 next round, carried 140. The suppression lifts at the end of round 2.
    lines = step(enc, "done", [])
    assert "Insurgent: suppressed yes -> no (W05)" in lines
    s = enc.state
    assert (s.round, s.acting, s.ending, s.order) == (3, "Gunner", None, ("Gunner", "Insurgent"))
    assert s.combatant("Gunner") == Soldier(
        "Gunner", "marines", 20, 20, "unhurt", initiative="exceptionally well",
        movement="sprinting", fatigue=RoundFatigue(170, True, 1, 140),
    )  # fmt: skip
    # He stays down in cover until he acts again (W03 reading): still, so his heart rests.
    assert s.combatant("Insurgent") == Soldier(
        "Insurgent", "insurgents", 5, 9, "wounded", initiative="failed", stance="taking cover",
        fatigue=RoundFatigue(80, False, 0, 80),
    )  # fmt: skip
    assert not enc.engine.turns.is_hurt(s.combatant("Gunner"))
    assert enc.engine.turns.is_hurt(s.combatant("Insurgent"))
    assert enc.engine.turns.view(s.combatant("Gunner"))["out of breath"] == "+1 delta"


def test_out_of_breath_is_a_named_modifier_in_the_step_events(tmp_path: Path) -> None:
    path = tmp_path / "gunner.toml"
    path.write_text(GUNNER_DUEL)
    enc = begin(path, [2, 2, 6, 6])
    # Gunner, Insurgent (failed initiative, acts after him), then the Gunner's two more actions;
    # three misses (delta 38). Sprinting with 3 actions: +3 delta next round.
    step(enc, "fire:Insurgent:automatic", [1, 1, 20, 20])
    assert enc.state.acting == "Insurgent"
    step(enc, "done", [])
    step(enc, "fire:Insurgent:automatic", [1, 1, 20, 20])
    step(enc, "fire:Insurgent:automatic", [1, 1, 20, 20])
    assert (enc.state.round, enc.state.acting) == (2, "Gunner")
    dice = ScriptedDice([1, 1, 20, 20])
    enc.act("fire:Insurgent:automatic", dice)
    breath = [e for e in dice.events if isinstance(e, Modifier) and e.name == "out of breath"]
    assert breath == [Modifier("out of breath", 3, "delta", "Gunner", "W11")]
