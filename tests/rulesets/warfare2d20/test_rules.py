"""Rules beyond the worked examples: cover and layered soak, stamina, death, shock, house rules,
mortar bands, thrown scatter, initiative order, the fatigue model."""

from __future__ import annotations

import numpy as np
import pytest

from firefight.core.transcript import HouseRule, Modifier
from firefight.errors import InputError
from firefight.rulesets.warfare2d20.attack import AttackOutcome
from firefight.rulesets.warfare2d20.fatigue import (
    HeartRateModel,
    action_limit,
    breath_modifier,
    fatigue_round,
)
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.initiative import InitiativeResult, acting_order
from firefight.rulesets.warfare2d20.models import Combatant
from firefight.rulesets.warfare2d20.mortar import reach, zone_of, zones
from firefight.rulesets.warfare2d20.soak import beats, through

from .helpers import changes, checks, notes, scripted, situation

MARINE = {"combatant": "marine", "name": "marine", "armour": "body armour"}


def one_target(**target: object) -> dict[str, object]:
    return {"target": {**MARINE, **target}}


def test_brick_wall_struck_first_then_armour_with_full_value() -> None:
    """W04/W07: delta 6 >= delta c 4 strikes the wall; 12 and 5 get through it (9 is stopped)
    and go on at full value; the 5 then faces the armour's second die (6), not its third."""
    sit = situation("b_ak47_ambush.toml", **one_target(cover="brick wall"))
    faces = [10, 10, 13, 13, 12, 9, 5, 10, 11, 2, 1, 9, 6, 3, 3, 3]
    res = scripted(sit, faces)
    (cover,) = checks(res, "delta vs delta c")
    assert (cover.value, cover.target, cover.passed) == (6, 4, True)
    assert "brick wall: 12 vs 11: through; 9 vs 10: stopped; 5 vs 2: through" in notes(res)
    assert "body armour: 12 vs 9: through; 5 vs 6: stopped" in notes(res)
    assert isinstance(res.outcome, AttackOutcome)
    assert res.outcome.targets[0].damage == 12 and res.outcome.targets[0].cover_struck


def test_delta_under_delta_c_misses_the_cover() -> None:
    sit = situation("b_ak47_ambush.toml", **one_target(cover="brick wall"))
    res = scripted(sit, [10, 10, 11, 12, 5, 4, 3, 1, 1, 1, 3, 3])  # delta 3 < 4: no wall roll
    (cover,) = checks(res, "delta vs delta c")
    assert not cover.passed
    assert not any(r.why.startswith("soak brick wall") for r in res.transcript.rolls())


def test_everything_stopped_by_cover_skips_the_armour_roll() -> None:
    sit = situation("b_ak47_ambush.toml", **one_target(cover="brick wall"))
    res = scripted(sit, [10, 10, 13, 13, 3, 2, 1, 12, 12, 12, 12])
    assert "nothing left to test against body armour" in notes(res)
    assert isinstance(res.outcome, AttackOutcome)
    assert res.outcome.targets[0].damage == 0


def test_unmatched_damage_dice_count_in_full() -> None:
    sit = situation("b_ak47_ambush.toml", **one_target(armour="helmet"))
    res = scripted(sit, [10, 10, 13, 13, 2, 3, 4, 9])
    assert "helmet: 4 vs 9: stopped; 3 vs no soak die: through; 2 vs no soak die: through" in notes(
        res
    )


def test_beats_and_through_on_arrays() -> None:
    d = np.array([[10, 8, 3]])
    s = np.array([[8, 8, 4]])
    assert beats(d, s).tolist() == [[True, False, False]]
    assert through(np.array([[12, 9, 5]]), np.array([[11, 10, 2, 1]])).tolist() == [[12, 5, 0]]


def test_pain_threshold_only_while_stamina_lasts_and_death() -> None:
    sit = situation("b_ak47_ambush.toml", **one_target(stamina_left=2, hit_points_left=8))
    res = scripted(sit, [10, 10, 13, 13, 12, 1, 1, 10, 1, 1])  # 12 through
    assert changes(res, "marine", "stamina") == [(2, 0)]
    assert changes(res, "marine", "hit points") == [(8, -2)]
    assert checks(res, "endurance check") == []  # dead: no check
    assert isinstance(res.outcome, AttackOutcome)
    assert res.outcome.targets[0].status == "dead"


def test_endurance_threshold_is_strictly_more_than_25_percent() -> None:
    # 5 HP of 20 is exactly 25%: no check. 9 through - 4 = 5.
    res = scripted(situation("b_ak47_ambush.toml"), [10, 10, 13, 13, 9, 1, 1, 8, 1, 1])
    assert changes(res, "point man", "hit points") == [(20, 15)]
    assert checks(res, "endurance check") == []


def test_shock_and_a_cool_head() -> None:
    sit = situation("d_m249.toml")
    faces = [12, 12, 15, 14, 3, 4, 11, 10, 9, 9, 12, 11, 10, 10, 9]
    res = scripted(sit, faces)
    (cool, scared) = checks(res, "mettle check")
    assert (cool.value, cool.target, cool.passed) == (7, 11, True)
    assert (scared.value, scared.passed) == (18, False)
    assert isinstance(res.outcome, AttackOutcome)
    assert [o.suppressed for o in res.outcome.targets] == [False, True, False]


def test_house_rule_changes_a_number_and_says_so() -> None:
    house = Warfare2d20House(base_delta_t=12)
    res = scripted(situation("c_moving_to_cover.toml", house=house), [*C_FACES_HOUSE])
    assert HouseRule("base_delta_t", 12, 10) in res.transcript.events
    assert [c.passed for c in checks(res, "delta vs delta t")] == [False, True, True]


# With delta t 12 - 2 = 10 the grenadier's 9 now hits: his damage (ours) follows his roll.
C_FACES_HOUSE = [4, 4, 16, 16, 15, 14, 19, 19, 1, 1, 1, 9, 9, 9, 8, 8, 11, 11, 7, 6, 6, 9, 7, 5]


def test_house_modifier_is_marked() -> None:
    house = Warfare2d20House(taking_cover=-5)
    res = scripted(situation("e_fire_team_c.toml", house=house), [13, 13, 9, 9, 1, 1, 1])
    mod = [m for m in res.transcript.of_type(Modifier) if "taking cover" in m.name]
    assert [(m.value, m.house) for m in mod] == [(-5, True)]
    assert "[house rule]" in mod[0].text()


def test_mortar_zones_reading() -> None:
    house = Warfare2d20House()
    z60 = zones(house.mortar_shells["60mm HE"])
    assert [(z.radius_m, z.penalty) for z in z60] == [(10, 0), (20, 2)]
    assert zone_of(z60, 10) == 0 and zone_of(z60, 10.5) == 1 and zone_of(z60, 21) is None
    z120 = zones(house.mortar_shells["120mm HE"])
    assert [(z.radius_m, z.penalty) for z in z120] == [(20, 0), (40, 2), (60, 4)]
    # delta t 14 at the centre: delta 10 strikes out to 60 m, 11-12 to 40 m, 13-14 to 20 m
    assert [reach(d, 0, 14, z120) for d in (10, 11, 12, 13, 14, 15)] == [2, 1, 1, 0, 0, -1]


def test_mortar_each_target_rolls_and_outside_radius_is_untouched() -> None:
    targets = [
        {"combatant": "insurgent", "name": "near", "distance_m": 5},
        {"combatant": "insurgent", "name": "far", "distance_m": 25},
    ]
    sit = situation("f_mortar.toml", spot_roll="each", rounds=1, targets=targets)
    res = scripted(sit, [10, 10, 15, 14, 2, 2])  # mortar 20, near 29: delta 9 <= 12
    assert "far is outside the lethal radius" in notes(res)
    assert isinstance(res.outcome, AttackOutcome)
    assert [o.result for o in res.outcome.targets] == ["hit", "miss"]
    assert res.outcome.targets[0].damage == 4


def test_thrown_scatter_reading() -> None:
    res = scripted(situation("g_smoke_grenade.toml"), [20, 20, 1, 1, 3])  # delta 38
    assert res.outcome.lands is False
    assert (res.outcome.scatter_m, res.outcome.direction) == (28, "right")


def test_initiative_ambusher_first_and_order() -> None:
    results = [
        InitiativeResult("slow", 12, True),
        InitiativeResult("failed", 3, False),
        InitiativeResult("ambusher", None, True),
        InitiativeResult("quick", 5, True),
    ]
    assert [r.name for r in acting_order(results)] == ["ambusher", "quick", "slow", "failed"]


def test_initiative_file_with_ambush() -> None:
    sit = situation("h_initiative.toml", ambushers=["grenadier"])
    res = scripted(sit, [3, 4, 6, 6, 7, 7])
    assert res.outcome[0] == InitiativeResult("grenadier", None, True)


def test_initiative_ambusher_must_be_listed() -> None:
    with pytest.raises(InputError, match="ambushers"):
        situation("h_initiative.toml", ambushers=["nobody"])


MARINE_STATS = Combatant(
    name="m", mettle=14, endurance=13, dexterity=12, hit_points=20, stamina=20, pain_threshold=4
)


def test_fatigue_model() -> None:
    assert action_limit(MARINE_STATS) == 3
    calm = fatigue_round(MARINE_STATS, "walking", 2)
    assert (calm.heart_rate, calm.out_of_breath, calm.next_round_penalty) == (120, False, 0)
    assert breath_modifier(MARINE_STATS, calm) is None
    hard = fatigue_round(MARINE_STATS, "sprinting", 3)  # 160 + 30 = 190 > 140 + 26 = 166
    assert (hard.heart_rate, hard.out_of_breath, hard.next_round_penalty) == (190, True, 3)
    mod = breath_modifier(MARINE_STATS, hard)
    assert mod is not None and (mod.value, mod.target, mod.rule) == (3, "delta", "W11")
    assert hard.heart_rate_after_rest == 160
    rest = fatigue_round(MARINE_STATS, "still", 0, heart_rate=hard.heart_rate_after_rest)
    assert rest.heart_rate_after_rest == 130
    with pytest.raises(InputError, match="actions"):
        fatigue_round(MARINE_STATS, "still", 4)
    custom = HeartRateModel(per_action=20)
    assert fatigue_round(MARINE_STATS, "still", 1, model=custom).heart_rate == 100
