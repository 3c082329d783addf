"""graydawn encounters: two fights worked by hand from the text on scripted dice, the JSON round
trip of states from real fights, and one-line errors for bad scenario input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from firefight.core.turns import state_from_json, state_to_json
from firefight.dice import ScriptedDice
from firefight.encounter import Encounter, Engine, build_scenario, fight, read_scenario
from firefight.errors import FirefightError

EXAMPLES = Path(__file__).parents[3] / "examples" / "graydawn" / "encounters"


def engine(*people: dict[str, Any], house: dict[str, Any] | None = None, **field: Any) -> Engine:
    sides = list(dict.fromkeys(p["side"] for p in people))
    data: dict[str, Any] = {
        "ruleset": "graydawn",
        "max_rounds": 20,
        "sides": [{"name": s} for s in sides],
        "combatants": list(people),
        "battlefield": {"range": 12, **field},
    }
    if house:
        data["house"] = house
    return Engine(build_scenario(data, "test.toml"))


def begin(eng: Engine, faces: list[int]) -> Encounter:
    dice = ScriptedDice(faces)
    enc = Encounter.begin(eng, dice)
    dice.check_all_used()
    return enc


def step(enc: Encounter, action: str, faces: list[int] | tuple[int, ...] = ()) -> list[str]:
    dice = ScriptedDice(list(faces))
    done = enc.act(action, dice)
    dice.check_all_used()
    return list(done.lines)


VANCE = {
    "name": "Vance",
    "side": "Marshal",
    "stats": {"REF": 7, "CL": 7, "MA": 6, "BODY": 6, "LUCK": 5},
    "skills": {"handgun": 5, "dodge_cover": 3},
    "weapon": "9mm pistol",
    "armour": "kevlar t-shirt",
}
KID = {
    "name": "Kid",
    "side": "Outlaw",
    "stats": {"REF": 8, "CL": 5, "MA": 7, "BODY": 5, "LUCK": 6},
    "skills": {"handgun": 5, "dodge_cover": 4},
    "weapon": "heavy pistol",
    "uses_luck": False,
}


def test_hand_worked_pistol_duel() -> None:
    """Two pistoleros behind cars (level 3: 12 SP on faces 3, 4, 7-10; active cover exposes 1,
    2, 5, 6), 12 m apart: close range for both pistols (listed 50 m, close <= 12.5 m).

    Round 1, initiative (G33: REF + d10x, +3 with a pistol): Vance 7 + 3 + 2 = 12, the Kid
    8 + 3 + 5 = 16: the Kid acts first. Suppressing-fire phase (G16): Vance's 16-round 9mm can
    suppress, so he is asked first (reverse order) and declines; the Kid's 8-round heavy pistol
    is not high-capacity (G09) and is not asked.
    The Kid fires: ceil((8+5)/2) 7 + handgun 5 = 12, d10x 8 -> 20 vs Vance's ceil((7+6)/2) 7
    + dodge 3 = 10, d10x 3 -> 13: hit. Location d10 2: torso, exposed (G07). 3d6 = 6+5+4 = 15
    vs the t-shirt's SP 10: 5 penetrates, more than the graze damage 3, so a graze roll: LUCK 5
    + d10x 4 = 9 < 15. BTM -2 (BODY 6): 3 marks, wounding, light. Stun save d10 7 > BODY 6:
    stunned (G18).
    Vance's initiative comes up: his stun save, d10 3 <= 6, ends the stun and he acts
    (reading). He fires: 12 + d10x 9 = 21 vs the Kid's ceil((8+7)/2) 8 + dodge 4 = 12, d10x 4
    -> 16: hit. Location 1: the head, exposed. 2d6+1 = 6+6+1 = 13, no armour; graze roll
    LUCK 6 - 2 (head) + d10x 5 = 9 < 15. BTM -2: 11 >= 8 cripples the head (G22): doubled,
    22 marks on the track; the crippling check BODY 5 + LUCK 6 + d10x 2 = 13 >= 11: crippled,
    not destroyed, so the death save fails outright. Stun save at 22 marks: -3 - 2 (two full
    4s past 13) = d10 <= 0: the 1 fails. The Kid is dying and out: the Marshal wins in round 1.
    End of round: the Kid's dying and mortal clocks start (1 round each, G19).
    """
    eng = engine(VANCE, KID, cover={"Vance": "car", "Kid": "car"})
    enc = begin(eng, [2, 5])
    assert enc.state.order == ("Kid", "Vance") and enc.state.acting == "Vance"
    assert eng.legal_actions(enc.state)[0].id == "no_fire"
    step(enc, "no_fire")
    assert enc.state.acting == "Kid"
    step(enc, "fire:Vance:single", [8, 3, 2, 6, 5, 4, 4, 7, 3])
    vance = enc.state.combatant("Vance")
    assert (vance.wounding, vance.marks, vance.status) == (3, 3, "ready")
    lines = step(enc, "fire:Kid:single", [9, 4, 1, 6, 6, 5, 2, 1])
    assert any("head crippled" in line for line in lines)
    s = enc.state
    assert (s.ending, s.winner, s.round) == ("terminated", "Marshal", 1)
    kid = s.combatant("Kid")
    assert (kid.crippling, kid.wounding, kid.minor, kid.stun_marks) == (22, 0, 0, 0)
    assert kid.crippled == ("head",) and kid.severed == ()
    assert (kid.status, kid.dying_rounds, kid.mortal_rounds) == ("dying", 1, 1)
    assert (kid.ammo, kid.luck) == (7, 0)
    assert (vance.ammo, vance.luck, vance.initiative, kid.initiative) == (16, 5, 12, 16)
    assert s.combatant("Vance").ammo == 15
    assert eng.turns.view(kid)["wound state"] == "mortal"
    after = eng.turns.after_fight(s)
    assert after[0].startswith("Vance: 3 wounding mark(s)")
    assert "dies in 9 round(s)" in after[1]


GUNNER = {
    "name": "Gunner",
    "side": "Team",
    "stats": {"REF": 6, "CL": 6, "MA": 5, "BODY": 7, "LUCK": 3},
    "skills": {"heavy_weapons": 4, "dodge_cover": 2},
    "weapon": "machine gun",
    "fire": "suppressing",
    "rounds": 20,
    "uses_luck": False,
}
RIFLEMAN = {
    "name": "Rifleman",
    "side": "Foe",
    "stats": {"REF": 6, "CL": 4, "MA": 6, "BODY": 6, "LUCK": 4},
    "skills": {"rifle": 4, "dodge_cover": 2},
    "weapon": "assault rifle",
    "uses_luck": False,
}


def test_hand_worked_suppression_exchange() -> None:
    """A machine gun in the open suppresses a rifleman behind a house wall (level 2), 30 m
    apart: close range for both (listed 800 m / 400 m).

    Round 1: initiative Gunner 6 + 7 = 13, Rifleman 6 + 4 = 10. Declarations in reverse order
    (G16): the Rifleman declines, the Gunner lays 20 rounds (his ``fire`` field): G09 base
    20 // 10 = 2 levels; attack ceil((6+6)/2) 6 + heavy weapons 4 + d10x 8 = 18 vs the close
    range TN 15: +1 level (+0 for 3 over): 3 levels. Check (G10): TN 20 for 3 levels, CL 4 +
    dodge 2 + d10x 6 = 12: failed behind cover, relegated to full cover (G32). The Gunner spent
    the round suppressing; the Rifleman can only take full-cover actions and hunkers down
    (G12): LUCK 4 + dodge 2 + d10x 2 = 8 vs 10, missed by 2: no hit (1 per full 5). His
    actions done, the levels lift (G13).
    Round 2 (streamlined: initiative kept, no dice): the Rifleman declines again, the Gunner
    suppresses again, ammunition 80 -> 60: 10 + d10x 3 = 13 < 15, 2 levels; the check, TN 15:
    6 + 9 = 15 passes: -1 per level, -2 on his actions. He peeks out (full cover -> active, G32)
    and fires full auto: ceil((6+4)/2) 5 + rifle 4 + 3 (30 rounds at close range, G28) - 2 =
    10, d10x 1 then 3: 10 - 3 = 7 vs the Gunner's ceil((6+5)/2) 6 + dodge 2 + d10x 5 = 13:
    missed by 6, one full 5: one hit from the suppressing fire (G11), from the machine gun,
    exposed (no cover): location 3 torso, 6d6+2 = 6 x 1 + 2 = 8, not above the graze damage 8
    so no graze roll; BTM -2: 6 wounding marks, serious; stun save at -1: d10 2 <= 5 passes.
    """
    eng = engine(GUNNER, RIFLEMAN, range=30, cover={"Rifleman": "house wall"})
    enc = begin(eng, [7, 4])
    assert enc.state.acting == "Rifleman" and enc.state.phase == "declare"
    step(enc, "no_fire")
    assert eng.legal_actions(enc.state)[0].id == "suppress:Rifleman:20"
    step(enc, "suppress:Rifleman:20", [8, 6])
    r = enc.state.combatant("Rifleman")
    assert (r.levels, r.check, r.stance, r.fired_at) == (3, "fail", "full_cover", 20)
    assert [a.id for a in eng.legal_actions(enc.state)] == ["hunker", "wait"]
    step(enc, "hunker", [2])
    assert enc.state.round == 2 and enc.state.combatant("Rifleman").levels == 0
    step(enc, "no_fire")
    step(enc, "suppress:Rifleman:20", [3, 9])
    assert enc.state.combatant("Rifleman").check == "pass"
    lines = step(enc, "fire:Gunner:auto", [1, 3, 5, 3, 1, 1, 1, 1, 1, 1, 2])
    assert any("suppression penalty" in line and "-2" in line for line in lines)
    s = enc.state
    r, g = s.combatant("Rifleman"), s.combatant("Gunner")
    assert (r.wounding, r.minor, r.marks, r.status, r.stance) == (6, 0, 6, "ready", "active_cover")
    assert (r.ammo, r.spares, r.levels, r.check, r.hits_taken) == (0, 2, 0, "none", 0)
    assert (g.ammo, g.marks, g.status) == (60, 0, "ready")
    assert (s.round, s.ending) == (3, None)
    # round 3: the Rifleman's magazine is empty, so he is not asked to declare: the Gunner is
    assert s.acting == "Gunner" and s.phase == "declare"


def test_state_json_round_trip_on_real_fights() -> None:
    for name in ("duel.toml", "fire_team.toml"):
        eng = Engine(read_scenario(EXAMPLES / name))
        for seed in (1, 2):
            enc = fight(eng, seed)
            for state in enc.states:
                data = json.loads(json.dumps(state_to_json(state)))
                assert state_from_json(data, eng.turns.state_types) == state


# -- bad input: one line naming the file and field ------------------------------------------------
def bad(*people: dict[str, Any], **field: Any) -> str:
    with pytest.raises(FirefightError) as err:
        engine(*people, **field)
    text = str(err.value)
    assert "\n" not in text and text.startswith("test.toml")
    return text


def test_unknown_weapon_says_did_you_mean() -> None:
    with pytest.raises(FirefightError) as err:
        engine({**VANCE, "weapon": "9mm pistl"}, KID)
    assert "combatants.Vance" in str(err.value) and "unknown weapons" in str(err.value)
    assert "9mm pistol" in (err.value.tip or "")


def test_bad_combatant_fields_are_one_line() -> None:
    assert "stats.REF" in bad({**VANCE, "stats": {"REF": 30}}, KID)
    assert "weapon" in bad({k: v for k, v in VANCE.items() if k != "weapon"}, KID)
    assert "field fire" in bad({**KID, "fire": "suppressing"}, VANCE)
    assert "stance" in bad({**VANCE, "stance": {"bracing": True}}, KID)
    assert "spare_magazines" in bad({**VANCE, "spare_magazines": -1}, KID)
    assert "skils" in bad({**VANCE, "skils": {}}, KID)


def test_bad_battlefield_values_are_one_line() -> None:
    assert "not a distance in metres" in bad(VANCE, KID, range="close")
    assert "not a distance in metres" in bad(VANCE, KID, range=-3)
    text = bad(VANCE, KID, cover={"Vance": "bathtub"})
    assert "battlefield.cover.Vance" in text and "unknown cover" in text
    with pytest.raises(FirefightError) as err:
        eng = Engine(
            build_scenario(
                {
                    "ruleset": "graydawn",
                    "sides": [{"name": "Marshal"}, {"name": "Outlaw"}],
                    "combatants": [VANCE, KID],
                    "ambush": "Posse",
                    "battlefield": {"range": 5},
                },
                "test.toml",
            )
        )
        assert eng is None
    assert "ambush" in str(err.value)
