"""Rule by rule (T01, T03, T05, T06, T08-T11), on scripted dice."""

from __future__ import annotations

import pytest

from firefight.core.transcript import Check, HouseRule, Modifier, StateChange
from firefight.rulesets.tactical_d20 import RuleError

from .helpers import attack, load, scripted


def mods(result) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return {m.name: m.value for m in result.transcript.of_type(Modifier)}


def changes(result) -> list[tuple[str, str, object]]:  # type: ignore[no-untyped-def]
    return [(e.who, e.field, e.after) for e in result.transcript.of_type(StateChange)]


# --- T03 attack ---------------------------------------------------------------------------------
def test_meeting_the_dodge_hits_one_below_misses() -> None:
    # operator +4 vs raider Dodge 12 with a rifle at 80 ft: 8 + 4 = 12 hits, 7 + 4 = 11 misses
    rifle = attack(weapon="infantry_rifle", distance=80)
    assert scripted(load(rifle), [8, 1, 1]).summary["result"] == "hit"
    assert scripted(load(rifle), [7]).summary["result"] == "miss"


def test_natural_20_is_a_critical_hit_even_below_the_dodge() -> None:
    far = attack(weapon="pistol", distance=100, target={"use": "raider", "dodge": 30})
    result = scripted(load(far), [20, 2, 3])
    assert result.summary["result"] == "critical hit"
    assert result.summary["damage rolled"] == 5  # torso critical: 2d6
    off = load(far, natural_critical_always_hits=False)
    assert scripted(off, [20]).summary["result"] == "miss"


def test_damage_threshold_is_subtracted_and_never_heals() -> None:
    rifle = attack(weapon="infantry_rifle", distance=80, target="guard")  # guard: ballistic DT 2
    result = scripted(load(rifle), [15, 3, 2])
    assert mods(result)["damage threshold (ballistic)"] == -2
    assert result.summary["hp lost"] == 3
    assert scripted(load(rifle), [15, 1, 1]).summary["hp lost"] == 0


def test_house_rule_is_named_in_the_transcript() -> None:
    result = scripted(load(attack(weapon="pistol", distance=10), burst_bonus=4), [1])
    assert result.transcript.of_type(HouseRule)[0].key == "burst_bonus"


# --- T05 regions -------------------------------------------------------------------------------
def test_head_critical_stuns_and_head_doubles_dice() -> None:
    result = scripted(load(attack(weapon="pistol", distance=10, region="head")), [20, 1, 1])
    assert result.transcript.rolls()[1].expr == "2d6"
    assert ("raider", "condition", "stunned until the end of its next turn") in changes(result)
    assert mods(result)["head target penalty"] == -5


def test_arms_hit_and_critical() -> None:
    arms = load(attack(weapon="pistol", distance=10, region="arms"))
    hit = scripted(arms, [15, 4])
    assert hit.summary["effects"] == "arm_wound until the end of its next turn"
    assert hit.transcript.rolls()[1].expr == "1d6"  # no doubling for arms
    crit = scripted(arms, [20, 4])
    assert crit.summary["effects"] == "arm_wound until a DC 15 Body check (1 Action)"


def test_legs_hit_and_critical() -> None:
    legs = load(attack(weapon="pistol", distance=10, region="legs"))
    assert scripted(legs, [15, 4]).summary["effects"] == "leg_wound until the end of its next turn"
    assert "DC 15 Body check" in scripted(legs, [20, 4]).summary["effects"]
    assert mods(scripted(legs, [1]))["legs target penalty"] == -3


def test_torso_critical_doubles_damage_dice() -> None:
    result = scripted(load(attack(weapon="infantry_rifle", distance=50)), [20, 1, 1, 1, 1])
    assert result.transcript.rolls()[1].expr == "4d4"


def test_wounded_arm_attacker_takes_minus_5() -> None:
    wounded = {"use": "operator", "conditions": ["arm_wound"]}
    assert (
        mods(scripted(load(attack(attacker=wounded, weapon="pistol", distance=10)), [1]))[
            "arm wound"
        ]
        == -5
    )


@pytest.mark.parametrize("ammo", ["buckshot", "birdshot"])
def test_shot_targets_the_torso_only(ammo: str) -> None:
    with pytest.raises(RuleError, match=f"{ammo} can only target the torso"):
        load(attack(weapon="coach_gun", ammo=ammo, region="head", distance=10))


# --- T06 ranged --------------------------------------------------------------------------------
def test_range_bands_and_longest_range() -> None:
    coach = "coach_gun"
    # the boundary: at the first threshold (30 ft) no penalty, one foot past it -3 (band 2)
    at_threshold = mods(scripted(load(attack(weapon=coach, distance=30)), [1]))
    assert not [name for name in at_threshold if name.startswith("extended range penalty")]
    assert (
        mods(scripted(load(attack(weapon=coach, distance=31)), [1]))[
            "extended range penalty (31 ft, band 2)"
        ]
        == -3
    )
    assert (
        mods(scripted(load(attack(weapon=coach, distance=61)), [1]))[
            "extended range penalty (61 ft, band 3)"
        ]
        == -6
    )
    with pytest.raises(RuleError, match="beyond coach_gun's longest range 90 ft"):
        load(attack(weapon=coach, distance=91))


def test_an_empty_weapon_cannot_fire_and_wrong_ammunition_is_refused() -> None:
    with pytest.raises(RuleError, match="has 0 loaded"):
        load(attack(weapon="pistol", distance=10, loaded=0))
    with pytest.raises(RuleError, match="does not take buckshot"):
        load(attack(weapon="pistol", distance=10, ammo="buckshot"))


def test_double_burst_adds_6_and_an_extra_die() -> None:
    result = scripted(
        load(attack(weapon="infantry_rifle", mode="double_burst", distance=50)), [5, 1, 1, 2]
    )
    assert mods(result)["double burst bonus"] == 6
    assert [r.expr for r in result.transcript.rolls()] == [
        "1d20",
        "2d4",
        "1d4",
    ]  # 2 dice: same size
    assert result.summary["rounds left"] == 25


# --- T09 melee, Grapples and Melees ------------------------------------------------------------
def test_melee_attack_needs_reach_and_starts_a_grapple() -> None:
    with pytest.raises(RuleError, match="within 5 ft, not 10"):
        load(attack(weapon="knife", distance=10))
    result = scripted(load(attack(weapon="knife")), [1])  # even a miss makes a Grapple
    assert ("operator", "condition", "grappled") in changes(result)
    assert ("raider", "condition", "grappled") in changes(result)
    assert mods(result)["melee modifier"] == 2


def test_in_a_grapple_only_the_grappled_creature_can_be_attacked() -> None:
    with pytest.raises(RuleError, match="may only attack raider"):
        load(attack(weapon="knife", target="guard", grappling=["raider"]))
    load(attack(weapon="knife", target="guard", grappling=["raider", "guard"]))  # a Melee


def test_firearm_without_compact_at_5_ft_takes_minus_6() -> None:
    rifle = mods(scripted(load(attack(weapon="infantry_rifle", distance=5)), [1]))
    assert rifle["firearm without Compact/Concealable within 5 ft"] == -6
    pistol = mods(scripted(load(attack(weapon="pistol", distance=5)), [1]))
    assert "firearm without Compact/Concealable within 5 ft" not in pistol


def test_ranged_attack_at_a_grapple_uses_dodge_12_and_picks_a_member() -> None:
    group = attack(weapon="pistol", distance=20, target=None, targets=["raider", "brute"])
    result = scripted(load(group), [10, 2, 6])  # 10 + 4 = 14 >= 12; member die 2 -> brute
    check = result.transcript.of_type(Check)[0]
    assert check.target == 12
    assert result.summary["target"] == "brute"
    assert result.summary["hp lost"] == 6  # brute has no ballistic threshold
    with pytest.raises(RuleError, match="melee attack targets one creature"):
        load(attack(weapon="knife", target=None, targets=["raider", "brute"]))


def test_restrained_target_gives_plus_5() -> None:
    target = {"use": "raider", "conditions": ["restrained"]}
    assert (
        mods(scripted(load(attack(weapon="knife", target=target)), [1]))["target restrained"] == 5
    )


# --- T10 unarmed and contests ------------------------------------------------------------------
def test_unarmed_strike_is_1d4_crushing() -> None:
    result = scripted(load(attack(weapon="unarmed", target="brute")), [15, 4])
    assert result.transcript.rolls()[1].expr == "1d4"
    assert mods(result)["damage threshold (crushing)"] == -2
    assert result.summary["hp lost"] == 2


def contest(
    action: str, actor: object = "operator", opponent: object = "raider"
) -> dict[str, object]:
    return {"kind": "contest", "action": action, "actor": actor, "opponent": opponent}


def test_contest_needs_the_actor_to_beat_the_opponent() -> None:
    # operator athletics +2 vs raider +3: 11 + 2 = 13 vs 10 + 3 = 13 is a tie -> fails
    assert scripted(load(contest("trip")), [11, 10]).summary["result"] == "failure"
    assert scripted(load(contest("trip")), [12, 10]).summary["result"] == "success"
    tied = load(contest("trip"), contest_ties="attacker")
    assert scripted(tied, [11, 10]).summary["result"] == "success"


def test_disarm_against_a_restrained_creature() -> None:
    restrained = {"use": "raider", "conditions": ["restrained"]}
    result = scripted(load(contest("disarm", opponent=restrained)), [7, 10])
    assert mods(result)["restrained: resisting disarm"] == -5
    assert result.summary["result"] == "success"  # 7 + 2 = 9 > 10 + 3 - 5 = 8
    assert ("raider", "condition", "disarmed") in changes(result)
    assert scripted(load(contest("disarm")), [7, 10]).summary["result"] == "failure"  # 9 vs 13


def test_restrain_only_your_size_or_smaller() -> None:
    with pytest.raises(RuleError, match=r"only creatures its size or smaller, not brute \(large\)"):
        load(contest("restrain", opponent="brute"))
    result = scripted(load(contest("restrain", actor="brute", opponent="raider")), [15, 2])
    assert ("raider", "condition", "restrained") in changes(result)
    assert ("brute", "condition", "restraining") in changes(result)


def test_manacles_use_dexterity_on_a_restrained_creature() -> None:
    with pytest.raises(RuleError, match="manacles go on a restrained creature"):
        load(contest("manacles"))
    restrained = {"use": "raider", "conditions": ["restrained"]}
    result = scripted(load(contest("manacles", opponent=restrained)), [10, 10])
    dex = [(m.source, m.value) for m in result.transcript.of_type(Modifier)]
    assert dex == [("operator", 3), ("raider", 1)]
    assert result.summary["result"] == "success"  # 13 vs 11


def test_body_check_and_moving_a_melee_are_fixed_dcs() -> None:
    wounded = {"use": "operator", "conditions": ["leg_wound"]}
    body = {"kind": "contest", "action": "body_check", "actor": wounded}
    assert scripted(load(body), [14]).summary["result"] == "success"  # 14 + 1 = 15
    assert scripted(load(body), [13]).summary["result"] == "failure"
    with pytest.raises(RuleError, match="no arm or leg wound"):
        load({**body, "actor": "operator"})
    move = {"kind": "contest", "action": "move_melee", "actor": "operator"}
    assert scripted(load(move), [11]).transcript.of_type(Check)[0].target == 13


# --- T11 cover ---------------------------------------------------------------------------------
def test_light_cover_adds_3_to_the_ballistic_threshold() -> None:
    result = scripted(load(attack(weapon="pistol", distance=10, cover="light")), [15, 5])
    assert mods(result)["light cover threshold"] == -3
    assert result.summary["hp lost"] == 2


def test_light_cover_negates_non_ballistic_damage() -> None:
    bolt = attack(weapon="crossbow", distance=10, cover="light")
    assert scripted(load(bolt), [15]).summary["result"] == "stopped by cover"


def test_armour_piercing_ammunition_and_cover() -> None:
    ap_pistol = attack(weapon="pistol", distance=10, ammo="armour_piercing")
    result = scripted(load({**ap_pistol, "cover": "light"}), [15, 5])
    assert result.summary["hp lost"] == 5  # ignores light cover
    assert scripted(load({**ap_pistol, "cover": "heavy"}), [15]).summary["result"] == (
        "stopped by cover"
    )
    ap_rifle = attack(weapon="infantry_rifle", distance=50, ammo="armour_piercing", cover="heavy")
    assert scripted(load(ap_rifle), [15, 2, 2]).summary["hp lost"] == 4


def test_concealment() -> None:
    hidden = attack(weapon="pistol", distance=10, cover="concealment")
    assert scripted(load(hidden), [15, 3]).summary["hp lost"] == 3  # bullets pass through
    with pytest.raises(RuleError, match="no targeted attacks"):
        load({**hidden, "region": "head"})
    with pytest.raises(RuleError, match="only if its position is known"):
        load({**hidden, "knows_position": False})
    birdshot = {**hidden, "weapon": "coach_gun", "ammo": "birdshot"}
    assert scripted(load(birdshot), [15]).summary["result"] == "stopped by cover"
    bolt = {**hidden, "weapon": "crossbow"}
    assert scripted(load(bolt), [15]).summary["result"] == "stopped by cover"


# --- T08 suppressing fire ----------------------------------------------------------------------
def cone(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "kind": "suppression",
        "shooter": "operator",
        "weapon": "smg",
        "creature": "raider",
        "distance": 20,
    }
    base.update(fields)
    return base


@pytest.mark.parametrize(
    ("die", "result"), [(14, "fail"), (15, "partial"), (18, "partial"), (19, "pass")]
)
def test_willpower_check_against_12_plus_proficiency(die: int, result: str) -> None:
    # DC 12 + 4 = 16; raider Willpower +1: 15 fails, 16..19 partial (pass by <= 3), 20+ passes
    faces = [die, 4] if result == "partial" else [die]
    res = scripted(load(cone()), faces)
    assert res.summary["result"] == result
    assert res.transcript.of_type(Check)[0].target == 16
    if result == "partial":
        assert res.summary["damage"] == 4


def test_cone_ends_at_the_first_threshold_or_a_barrier() -> None:
    assert scripted(load(cone(distance=51)), []).summary["result"] == "outside"
    assert scripted(load(cone(distance=30, barrier_at=25)), []).summary["result"] == "outside"


def test_starting_the_turn_inside() -> None:
    res = scripted(load(cone(position="starts_turn_inside")), [2])
    assert res.summary == {"result": "fail", "damage": 0}
    assert any("must move out" in line for line in res.transcript.lines())
    protected = load(cone(position="starts_turn_inside", protected=True))
    assert scripted(protected, []).summary["result"] == "protected"


# --- T01 initiative ----------------------------------------------------------------------------
def initiative(*creatures: object) -> dict[str, object]:
    return {"kind": "initiative", "creatures": list(creatures)}


def test_initiative_highest_first() -> None:
    # operator +3, medic +1, raider +2
    res = scripted(load(initiative("operator", "medic", "raider")), [5, 19, 10])
    assert res.summary["order"] == "medic > raider > operator"


def test_player_goes_before_gm_on_a_tie() -> None:
    # operator 9 + 3 = 12, raider 10 + 2 = 12
    res = scripted(load(initiative("raider", "operator")), [10, 9])
    assert res.summary["order"] == "operator > raider"


def test_same_side_tie_rerolls_until_broken() -> None:
    # operator 9 + 3 = 12 and medic 11 + 1 = 12 tie. The re-roll is the Initiative roll, d20 +
    # the modifier (figures changed with that reading, issue 12): 5 + 3 = 8 and 7 + 1 = 8 tie
    # again; then 3 + 3 = 6 against 15 + 1 = 16.
    res = scripted(load(initiative("operator", "medic")), [9, 11, 5, 7, 3, 15])
    assert res.summary["order"] == "medic > operator"


def test_the_reroll_adds_the_initiative_modifier() -> None:
    # operator 9 + 3 = 12 and medic 11 + 1 = 12 tie. Re-roll faces 12 and 13: with the modifier
    # 12 + 3 = 15 beats 13 + 1 = 14, so the operator goes first. Read as a bare d20 (the old
    # reading) 13 beats 12 and the medic would go first.
    res = scripted(load(initiative("operator", "medic")), [9, 11, 12, 13])
    assert res.summary["order"] == "operator > medic"
    # faces 7 and 9: 10 against 10 ties again, so two more faces are needed (a bare d20 would
    # have broken the tie at once); then 1 + 3 = 4 against 5 + 1 = 6
    res = scripted(load(initiative("operator", "medic")), [9, 11, 7, 9, 1, 5])
    assert res.summary["order"] == "medic > operator"


def test_creatures_need_distinct_names() -> None:
    from firefight.errors import InputError

    with pytest.raises(InputError, match="two creatures are called 'raider'"):
        load(initiative("raider", "raider"))
    load(initiative("raider", {"use": "raider", "name": "raider 2"}))


# --- T09 group size ----------------------------------------------------------------------------
def test_grapple_and_melee_size() -> None:
    from firefight.rulesets.tactical_d20.grapple import exit_provokes, group_name, melee_side
    from firefight.rulesets.tactical_d20.models import Creature

    def c(size: str) -> Creature:
        return Creature(name=size, size=size)  # type: ignore[arg-type]

    assert group_name([c("medium")] * 2) == "Grapple" and exit_provokes([c("medium")] * 2)
    assert group_name([c("medium")] * 3) == "Melee" and not exit_provokes([c("medium")] * 3)
    assert melee_side([c("medium"), c("large")]) == 2  # a Grapple shares one space
    assert melee_side([c("medium")] * 3) == 2
    assert melee_side([c("medium")] * 5) == 3
    assert melee_side([c("large"), c("medium"), c("medium")]) == 3
    assert melee_side([c("large"), c("large"), c("medium")]) == 4  # two 2x2 never fit in 3x3


def test_a_disarmed_creature_strikes_unarmed_only() -> None:
    disarmed = {"use": "operator", "conditions": ["disarmed"]}
    with pytest.raises(RuleError, match="is disarmed"):
        load(attack(attacker=disarmed, weapon="pistol", distance=10))
    load(attack(attacker=disarmed, weapon="unarmed"))


def test_a_grappled_creature_is_shot_at_as_part_of_its_grapple() -> None:
    grappled = {"use": "raider", "conditions": ["grappled"]}
    with pytest.raises(RuleError, match="ranged attacks treat the Grapple as one target"):
        load(attack(weapon="pistol", distance=20, target=grappled))
    load(attack(weapon="pistol", distance=5, target=grappled, grappling=["raider"]))


def test_house_rules_are_checked() -> None:
    from firefight.core.loading import validate
    from firefight.errors import InputError
    from firefight.rulesets.tactical_d20.house import TacticalD20House

    with pytest.raises(InputError, match="die_steps"):
        validate(TacticalD20House, {"die_steps": [8, 6]}, "house.toml")
    with pytest.raises(InputError, match="unarmed_damage"):
        validate(TacticalD20House, {"unarmed_damage": "d"}, "house.toml")
    with pytest.raises(InputError, match="actions_per_turn"):
        validate(TacticalD20House, {"actions_per_turn": "four"}, "house.toml")


# --- T07 the extra die: "normally deals" ---------------------------------------------------------
@pytest.mark.parametrize(
    ("rule", "region", "critical", "expected"),
    [
        # printed_dice (default): sized on the printed 1d6 -> d4; only a torso critical (which
        # doubles the dice) moves it up. The head doubling alone leaves it at d4.
        ("printed_dice", "torso", False, 4),
        ("printed_dice", "head", False, 4),
        ("printed_dice", "head", True, 4),
        ("printed_dice", "torso", True, 6),
        ("printed_dice", "legs", True, 4),
        # rolled_dice (house): sized on the dice rolled after doubling
        ("rolled_dice", "torso", False, 4),
        ("rolled_dice", "head", False, 6),
        ("rolled_dice", "torso", True, 6),
        ("rolled_dice", "legs", True, 4),
        # base_dice_critical_upgrade (house): printed, one size up on any critical
        ("base_dice_critical_upgrade", "head", False, 4),
        ("base_dice_critical_upgrade", "legs", True, 6),
    ],
)
def test_extra_die_size_readings(rule: str, region: str, critical: bool, expected: int) -> None:
    from firefight.rulesets.tactical_d20.damage import extra_die_size
    from firefight.rulesets.tactical_d20.house import TacticalD20House
    from firefight.rulesets.tactical_d20.models import Weapon

    smg = Weapon(name="smg", damage="1d6", fire="auto", ranges=(50,))
    house = TacticalD20House(extra_die_rule=rule)  # type: ignore[arg-type]
    doubled = region == "head" or (region == "torso" and critical)
    assert extra_die_size(smg, doubled, critical, house, region=region) == expected
    rifle = Weapon(name="rifle", damage="2d4", fire="auto", ranges=(100,))
    assert extra_die_size(rifle, doubled, False, house, region=region) == 4


@pytest.mark.parametrize(
    ("rule", "region", "expected"),
    [
        ("printed_dice", "torso", 6),  # 2d4 printed: a d4 extra die, one size up on the crit
        ("printed_dice", "head", 4),  # the head doubles anyway: a head critical stuns only
        ("printed_dice", "legs", 4),
        ("rolled_dice", "torso", 4),  # sized on the 4d4 rolled: d4, nothing more
        ("base_dice_critical_upgrade", "legs", 6),  # one size up on any critical
    ],
)
def test_a_critical_upgrades_a_multi_die_weapons_extra_die(
    rule: str, region: str, expected: int
) -> None:
    """T07/T12 reading for a weapon of several dice (2d4): its extra die is the same size as
    its own (only a 1-die weapon's is one size lower); the torso critical's "die upgrade" moves
    it one size up under the default reading."""
    from firefight.rulesets.tactical_d20.damage import extra_die_size
    from firefight.rulesets.tactical_d20.house import TacticalD20House
    from firefight.rulesets.tactical_d20.models import Weapon

    rifle = Weapon(name="rifle", damage="2d4", fire="auto", ranges=(100,))
    house = TacticalD20House(extra_die_rule=rule)  # type: ignore[arg-type]
    doubled = region in ("head", "torso")
    assert extra_die_size(rifle, doubled, True, house, region=region) == expected
