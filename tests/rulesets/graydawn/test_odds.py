"""Exact odds: against independent computations, against seeded sampling, and the vectorised exact
route against plain path-by-path enumeration of the same rule."""

from __future__ import annotations

from contextlib import nullcontext
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np
import pytest

from firefight.dice import SeededDice, enumerate_outcomes, exact
from firefight.dice.sources import clear_derived, path_by_path
from firefight.rulesets.graydawn import checks
from firefight.rulesets.graydawn.attack import (
    _hits_landed,
    hits_read,
    outcome_read,
    outcome_weights,
    resolve_hits,
    resolve_outcome,
)
from firefight.rulesets.graydawn.checks import LuckUse, over_weights, roll_over
from firefight.rulesets.graydawn.damage import SaveSpec, resolve_saves, saves_key
from firefight.rulesets.graydawn.house import GraydawnHouse
from firefight.rulesets.graydawn.odds import attack_distribution

from .helpers import RULESET, SMG_2D6, situation

D10X = exact("d10x")
#: Open-ended d10s are exact to a depth whose left-out mass is about 1e-12 per check; the
#: resolution's later checks (graze, saves) leave that much out of each hit count too.
TOL = 1e-11


def close(a: dict[int, Fraction], b: dict[int, Fraction]) -> bool:
    keys = set(a) | set(b)
    return all(abs(float(a.get(k, 0)) - float(b.get(k, 0))) < TOL for k in keys)


def independent_hits(a_base: int, d_base: int, rounds: int) -> dict[int, Fraction]:
    """Hits of a full-auto attack straight from two d10x distributions (G04, G06, G28)."""
    out: dict[int, int] = {}
    for x, wx in D10X.items():
        attack = a_base + x
        for y, wy in D10X.items():
            defence = d_base + y
            hits = 0 if attack <= 0 or attack < defence else min(1 + attack - defence, rounds)
            out[hits] = out.get(hits, 0) + wx * wy
    return {k: Fraction(w, D10X.total**2) for k, w in out.items()}


def test_full_auto_hit_distribution_matches_an_independent_computation() -> None:
    sit = situation({"attack": {"mode": "full_auto", "rounds": 30, "range_m": 50}})
    report = RULESET.odds(sit)
    # attack 6 + 5 + 3 (30 rounds, close) = 14; defence 6 + 3 = 9
    expected = independent_hits(14, 9, 30)
    got = dict(report.distributions["hits"].probabilities())
    assert close(got, expected)
    assert got[14] > 0 and max(got) == 30


def test_full_auto_recoil_at_medium_range_and_a_short_burst() -> None:
    sit = situation({"attack": {"mode": "full_auto", "rounds": 14, "range_m": 150}})
    report = RULESET.odds(sit)
    # 150 m of 400 listed is medium: -5, and recoil -1 for 14 rounds: 6 + 5 - 6 = 5
    expected = independent_hits(5, 9, 14)
    assert close(dict(report.distributions["hits"].probabilities()), expected)


def test_burst_hit_distribution_is_p_hit_times_the_d6_table() -> None:
    sit = situation({"attacker": {"weapon": SMG_2D6}, "attack": {"mode": "burst", "range_m": 20}})
    report = RULESET.odds(sit)
    p_hit = sum(p for k, p in independent_hits(14, 9, 1).items() if k)
    assert report.p_hit is not None
    assert abs(float(report.p_hit - p_hit)) < TOL
    hits = dict(report.distributions["hits"].probabilities())
    expected = {k: p_hit * Fraction(n, 6) for k, n in ((1, 2), (2, 3), (3, 1))}
    expected[0] = 1 - p_hit
    assert close(hits, expected)


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({}, {"head": 1, "torso": 3, "left_arm": 1, "right_arm": 1, "left_leg": 2, "right_leg": 2}),
        (
            {"attack": {"hit_locations": "d8"}},
            {"head": 1, "torso": 3, "left_arm": 1, "right_arm": 1, "left_leg": 2},
        ),
        (
            {"attack": {"mode": "centre_of_mass"}},
            {"head": 1, "torso": 3, "left_arm": 1, "right_arm": 1},
        ),
        ({"attack": {"hit_locations": "cinematic"}}, {"torso": 1}),
    ],
)
def test_hit_location_probabilities(extra: dict[str, object], expected: dict[str, int]) -> None:
    report = RULESET.odds(situation(extra))
    p_hit = report.p_hit
    assert p_hit is not None
    whole = sum(expected.values())
    table = report.tables["location"]
    for loc, share in table.items():
        assert abs(float(share - p_hit * Fraction(expected.get(loc, 0), whole))) < TOL


def test_d8_option_falls_back_to_d10_behind_cover() -> None:
    sit = situation(
        {"attack": {"hit_locations": "d8"}, "target": {"cover": {"level": 3, "position": "active"}}}
    )
    table = RULESET.odds(sit).tables["location"]
    assert table["right_leg"] > 0  # d10 faces 9-10 exist only on the full table (G24)


def test_exact_odds_agree_with_seeded_sampling() -> None:
    sit = situation(
        {
            "attack": {"mode": "burst", "range_m": 20},
            "attacker": {"weapon": SMG_2D6},
            "target": {"armour": ["kevlar t-shirt"], "cover": {"level": 1, "position": "active"}},
        }
    )
    dist = attack_distribution(sit)
    n = 3000
    rng = np.random.default_rng(20261121)
    dice = SeededDice(rng)
    sampled = [resolve_outcome(sit, dice) for _ in range(n)]
    for name, pred in (
        ("hit", lambda o: o.hit),
        ("graze", lambda o: o.wound.grazed),
        ("stunned", lambda o: o.saves.stunned),
        ("two hits", lambda o: o.hits == 2),
    ):
        p = float(dist.probability(pred))
        share = sum(1 for o in sampled if pred(o)) / n
        sigma = (p * (1 - p) / n) ** 0.5
        assert abs(share - p) < 4 * sigma + 1e-9, name
    mean = float(dist.to_dist(lambda o: o.damage).mean)
    sample_mean = sum(o.damage for o in sampled) / n
    sd = float(dist.to_dist(lambda o: o.damage).variance) ** 0.5
    assert abs(sample_mean - mean) < 4 * sd / n**0.5


@pytest.mark.parametrize(
    "extra",
    [
        {"target": {"armour": ["kevlar t-shirt"], "cover": {"level": 2, "position": "active"}}},
        {"attack": {"mode": "burst", "range_m": 20}, "attacker": {"weapon": SMG_2D6}},
        {"attack": {"mode": "full_auto", "rounds": 10, "range_m": 50}},
        {"attack": {"mode": "centre_of_mass"}, "target": {"wounds": {"wounding": 10}}},
        {
            "target": {"stats": {"LUCK": 7}, "armour": ["steel helmet"]},
            "luck": {
                "target": {"reroll": ["hit_location_head"], "boost": ["graze", "stun_save"]},
            },
        },
        {"attack": {"mode": "melee"}, "attacker": {"weapon": "club", "skills": {"melee": 4}}},
    ],
)
def test_vectorised_exact_route_equals_path_by_path_enumeration(extra: dict[str, object]) -> None:
    sit = situation(extra)
    clear_derived()
    fast = attack_distribution(sit)
    clear_derived()
    with path_by_path():
        slow = attack_distribution(sit)
    clear_derived()
    assert fast.probabilities() == slow.probabilities()
    assert fast.truncated_mass == slow.truncated_mass


def test_odds_json_has_p_hit_hits_and_damage() -> None:
    out = RULESET.odds(situation()).to_json()
    assert {"p_hit", "hits", "damage", "location", "p_graze", "p_crippled", "p_severed"} <= set(out)
    assert {"p_stunned", "p_death_save_needed", "p_killed_outright_head"} <= set(out)
    total = sum(Fraction(row["p"]) for row in out["damage"])
    assert 1 - total < Fraction(1, 10**9)


def test_killed_outright_equals_head_hits_of_8_or_more_after_btm() -> None:
    """P(killed outright) = P(head hit) x P(head damage >= 8 after BTM and no graze)."""
    sit = situation({"target": {"mook": True}})  # mooks never graze: a clean check
    report = RULESET.odds(sit)
    dmg = exact("4d6+1")
    p_8 = dmg.at_least(8 + 2)  # BTM -2
    expected = report.tables["location"]["head"] * p_8
    assert abs(float(report.probabilities["p_killed_outright_head"] - expected)) < TOL
    assert report.probabilities["p_killed_outright_head"] > Fraction(1, 20)


@pytest.mark.parametrize(
    ("base", "target", "reroll", "boost", "points"),
    [
        (5, 15, True, False, 3),
        (5, 15, True, True, 6),
        (8, 15, False, True, 2),
        (2, 20, True, True, 1),
    ],
)
def test_luck_check_routes_agree(
    base: int, target: int, reroll: bool, boost: bool, points: int
) -> None:
    luck = LuckUse("t", points, reroll=reroll, boost=boost)

    def fn(d):  # type: ignore[no-untyped-def]
        return roll_over(d, name="graze roll", base=base, target=target, rule="G25", luck=luck)

    clear_derived()
    fast = enumerate_outcomes(fn)
    clear_derived()
    with path_by_path():
        slow = enumerate_outcomes(fn)
    clear_derived()
    assert fast.probabilities() == slow.probabilities()
    spent = {left for (_, left) in fast.outcomes()}
    if reroll and points >= 2:
        assert points - 2 in spent  # some branch paid for a re-roll


def test_full_auto_exact_hits_agree_with_seeded_sampling() -> None:
    sit = situation({"attack": {"mode": "full_auto", "rounds": 30, "range_m": 50}})
    report = RULESET.odds(sit)
    hits = report.distributions["hits"]
    dice = SeededDice(np.random.default_rng(7))
    n = 1500
    sample = [resolve_outcome(sit, dice).hits for _ in range(n)]
    mean, sd = float(hits.mean), float(hits.variance) ** 0.5
    assert abs(sum(sample) / n - mean) < 4 * sd / n**0.5
    p0 = float(hits.p(0))
    share0 = sum(1 for h in sample if h == 0) / n
    assert abs(share0 - p0) < 4 * (p0 * (1 - p0) / n) ** 0.5


def _contest_dist(extra: dict[str, object], vectorise: bool):  # type: ignore[no-untyped-def]
    from firefight.rulesets.graydawn.contest import contest
    from firefight.rulesets.graydawn.plan import plan_attack

    sit = situation(extra)
    plan = plan_attack(sit)
    cache: dict[object, object] = {}
    clear_derived()
    try:
        if vectorise:
            return enumerate_outcomes(lambda d: contest(d, sit, plan, 2, False, cache))
        with path_by_path():
            return enumerate_outcomes(lambda d: contest(d, sit, plan, 2, False, cache))
    finally:
        clear_derived()


@pytest.mark.parametrize(
    "extra",
    [
        {
            "luck": {"attacker": {"reroll": ["fumble"]}},
            "attacker": {"stats": {"REF": 1, "CL": 1}},
            "target": {"mook": True},
        },
        {"luck": {"attacker": {"boost": ["attack"]}, "target": {"boost": ["defence"]}}},
        {
            "luck": {"attacker": {"reroll": ["attack"], "boost": ["attack"]}},
            "target": {"mook": True},
            "attack": {"range_m": 300},
        },
    ],
)
def test_contest_with_luck_routes_agree(extra: dict[str, object]) -> None:
    fast = _contest_dist(extra, True)
    slow = _contest_dist(extra, False)
    assert fast.probabilities() == slow.probabilities()
    assert fast.truncated_mass == slow.truncated_mass


def test_attacker_reroll_of_a_miss_matches_an_independent_computation() -> None:
    """P(hit) with one luck re-roll of a miss = sum over D of P(D) (P(A >= D) + P(A < D)^2)."""
    dist = _contest_dist({"luck": {"attacker": {"reroll": ["attack"]}}}, True)
    p_hit = float(dist.probability(lambda c: c.critical is None and c.margin >= 0))
    a_base, d_base = 11, 9
    total = 0.0
    for y, wy in D10X.items():
        defence = d_base + y
        hit = sum(w for x, w in D10X.items() if a_base + x >= defence and a_base + x > 0)
        miss = sum(w for x, w in D10X.items() if a_base + x < defence)
        t = D10X.total
        # a miss re-rolls only when the attack fell short of the defence (not a critical at or
        # above it), exactly as the rule reads
        total += wy / t * (hit / t + miss / t * hit / t)
    assert abs(p_hit - total) < 1e-11


def test_a_custom_explosion_depth_is_honoured_path_by_path() -> None:
    from firefight.core.odds import outcome_distribution

    sit = situation({"target": {"mook": True}})
    clear_derived()
    shallow = outcome_distribution(lambda d: resolve_outcome(sit, d), depth=2)
    clear_derived()
    full = attack_distribution(sit)
    assert shallow.truncated_mass > Fraction(1, 10**4)  # 2 re-rolls leave a visible tail
    gap = abs(shallow.probability(lambda o: o.hit) - full.probability(lambda o: o.hit))
    assert 0 < gap <= shallow.truncated_mass


@pytest.mark.parametrize(
    ("target", "reroll", "boost"),
    [
        (9, False, True),
        (14, True, True),
        (9, False, False),
        (14, True, False),
        (5, True, True),
        (40, True, True),
        (140, False, True),
    ],
)
def test_a_checks_table_for_other_tables_is_its_path_by_path_distribution(
    target: int, reroll: bool, boost: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """over_weights (what the wound tables read) gives roll_over's own outcomes, same odds;
    and the same weights in the same order as the table walked over every d10x value (no
    values taken together)."""
    luck = LuckUse("t", 4, reroll=reroll, boost=boost)
    args = {"name": "crippling check", "base": 9, "target": target, "rule": "G22", "luck": luck}
    clear_derived()
    table = over_weights(**args)  # type: ignore[arg-type]
    with path_by_path():
        slow = enumerate_outcomes(lambda d: roll_over(d, **args))  # type: ignore[arg-type]
    clear_derived()
    assert table.probabilities() == slow.probabilities()
    assert (False, 4) in table.outcomes() or (False, 2) in table.outcomes()
    monkeypatch.setattr(checks, "_regions", lambda expr, low, high: checks._faces(expr)[0])
    every_value = over_weights(**args)  # type: ignore[arg-type]
    clear_derived()
    assert list(table.items()) == list(every_value.items())
    assert table.total == every_value.total


def test_saves_are_keyed_by_the_penalties_so_one_wound_state_shares_a_table() -> None:
    """Marks 14 and 16 are both mortal 0 (same stun and death penalties): one key, the same
    path-by-path odds; mortal 1 (marks 17+) reads other penalties and gets another key."""
    house = GraydawnHouse()
    luck = LuckUse("t", 0)

    def spec(marks: int) -> SaveSpec:
        return SaveSpec("t", 6, marks, True, False, luck, luck, house)

    def odds(marks: int) -> dict[object, Fraction]:
        clear_derived()
        with path_by_path():
            found = enumerate_outcomes(lambda d: resolve_saves(d, spec(marks))).probabilities()
        clear_derived()
        return found

    assert saves_key(spec(14)) == saves_key(spec(16))
    assert odds(14) == odds(16)
    assert saves_key(spec(16)) != saves_key(spec(17))
    assert odds(16) != odds(17)


def test_a_hit_built_without_init_equals_the_dataclass_and_keeps_its_field_order() -> None:
    """_hit_outcome (exact odds' fast path) leaves the object __init__ would: equal, same hash,
    the fields in the same order, no field that AttackOutcome lacks."""
    from firefight.rulesets.graydawn.attack import AttackOutcome, _hit_outcome
    from firefight.rulesets.graydawn.damage import Saves, Wound

    wound, saves = Wound(True, marks=3, kind="wounding", luck_left=2), Saves(True, luck_left=1)
    fast = _hit_outcome(2, "torso", wound, 3, saves, "ally", 4, 1)
    slow = AttackOutcome(
        hit=True,
        hits=2,
        location="torso",
        wound=wound,
        damage=3,
        saves=saves,
        ally_hit="ally",
        attacker_luck=4,
        target_luck=1,
    )
    assert fast == slow and hash(fast) == hash(slow)
    assert list(vars(fast)) == list(vars(slow))[: len(vars(fast))]


def test_a_barely_hit_margin_of_one_comes_back_as_zero_outside_full_auto(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only full auto reads a hit's margin past "barely" (0 or 1, G25): elsewhere the contest
    returns 0 for 1 (one branch), and the attack's odds are those of the unlumped margins."""
    from firefight.rulesets.graydawn import attack
    from firefight.rulesets.graydawn.contest import contest
    from firefight.rulesets.graydawn.plan import plan_attack

    sit = situation()
    plan = plan_attack(sit)

    def margins(barely_only: bool) -> set[int]:
        clear_derived()
        table = enumerate_outcomes(
            lambda d: contest(d, sit, plan, 2, False, {}, barely_only=barely_only)
        )
        return {c.margin for c in table.outcomes()}

    assert 1 in margins(False)
    assert 1 not in margins(True) and 0 in margins(True)
    sit = situation({"target": {"stats": {"LUCK": 9}}})  # graze rolls that "barely" shifts
    clear_derived()
    lumped = attack_distribution(sit)
    monkeypatch.setattr(attack, "contest", lambda *args: contest(*args[:-1], barely_only=False))
    clear_derived()
    apart = attack_distribution(sit)
    clear_derived()
    assert lumped.probabilities() == apart.probabilities()
    assert list(lumped.outcomes()) == list(apart.outcomes())


@pytest.mark.parametrize(
    ("modifier", "reroll", "boost", "points"),
    [
        (0, False, False, 0),
        (-2, True, False, 4),
        (-3, False, True, 4),
        (-4, True, True, 5),
        (-9, True, True, 6),
        (-12, False, True, 9),
    ],
)
def test_a_saves_table_is_its_path_by_path_distribution(
    modifier: int, reroll: bool, boost: bool, points: int
) -> None:
    """roll_under's table (stun and death saves, G18/G19 with G17 luck) gives the outcomes of
    the roll-by-roll walk, with the same odds, in the same order."""
    from firefight.rulesets.graydawn.checks import roll_under

    luck = LuckUse("t", points, reroll=reroll, boost=boost)
    args = {"name": "stun save", "stat": 6, "modifier": modifier, "rule": "G18", "luck": luck}
    clear_derived()
    table = enumerate_outcomes(lambda d: roll_under(d, **args))  # type: ignore[arg-type]
    with path_by_path():
        slow = enumerate_outcomes(lambda d: roll_under(d, **args))  # type: ignore[arg-type]
    clear_derived()
    assert list(table.probabilities().items()) == list(slow.probabilities().items())
    assert len(table.outcomes()) > 1 or modifier == -12


def test_a_wound_spec_replaced_without_init_equals_dataclasses_replace() -> None:
    """_respec (the wound tables' keys) gives what dataclasses.replace gives: equal, same hash,
    the house key kept; a changed house still goes through __init__ (its key follows)."""
    from dataclasses import replace

    from firefight.rulesets.graydawn.damage import WoundSpec, _respec, wound_key

    luck = LuckUse("t", 0)
    house = GraydawnHouse()
    spec = WoundSpec(
        "t", "right_arm", False, 3, 6, 0, False, 0, 10, -1, True, 0, 5, 6, "normal", False, 0,
        luck, luck, house,
    )  # fmt: skip
    fast, slow = (
        _respec(spec, location="left_arm", dice=0),
        replace(spec, location="left_arm", dice=0),
    )
    assert fast == slow and hash(fast) == hash(slow) and vars(fast) == vars(slow)
    assert wound_key(spec) == replace(spec, location="left_arm")
    assert wound_key(slow) is slow  # a left limb, head or torso is its own key
    other = GraydawnHouse(graze_tn=house.graze_tn + 1)
    assert _respec(spec, house=other).house_key != spec.house_key


@pytest.mark.parametrize(("after", "location"), [(3, "torso"), (9, "left_arm"), (8, "head")])
def test_a_final_wound_built_without_init_equals_the_dataclass(after: int, location: str) -> None:
    """final_wound fills the fields itself: the object __init__ would leave (equal, same hash,
    every field in field order)."""
    from dataclasses import asdict

    from firefight.rulesets.graydawn.damage import Wound, WoundSpec, final_wound

    luck = LuckUse("t", 0)
    spec = WoundSpec(
        "t", location, False, 3, 6, 0, False, 0, 0, -1, True, 0, 5, 6, "normal", False, 0,
        luck, luck, GraydawnHouse(),
    )  # fmt: skip
    fast = final_wound(after, False, True, 2, spec)
    slow = Wound(**asdict(fast))
    assert list(vars(fast)) == list(vars(slow)) == list(Wound.__dataclass_fields__)
    assert fast == slow and hash(fast) == hash(slow)


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"attack": {"mode": "burst", "range_m": 20}, "attacker": {"weapon": SMG_2D6}},
        {"attack": {"mode": "full_auto", "rounds": 8, "range_m": 50}},
        {
            "target": {"stats": {"LUCK": 7}, "wounds": {"wounding": 6}},
            "luck": {"attacker": {"boost": ["attack"]}, "target": {"boost": ["graze"]}},
        },
        {
            "attack": {
                "into_close_combat": True,
                "allies_in_melee": [{"name": "Rook", "stats": {"REF": 4, "MA": 4}}],
            },
        },
        {"attack": {"range_m": 380}, "attacker": {"skills": {"rifle": 0}}},  # fumbles, jams
        # melee fumbles: broken clubs, slips and wild swings into the swinger (G06)
        {"attack": {"mode": "melee"}, "attacker": {"weapon": "club", "skills": {"melee": 0}}},
    ],
)
@pytest.mark.parametrize("plain", [False, True])
def test_attack_distribution_is_the_enumeration_of_resolve_outcome(
    extra: dict[str, object], plain: bool
) -> None:
    """Spreading the hit stage over its table (:func:`.attack.outcome_weights`) gives exactly
    what enumerating the whole attack gives: the same outcomes with the same weights, in the
    same order, over the same total, on the table route and path by path; misses, critical
    failures, hits and allies' dodges included."""
    sit = situation(extra)
    clear_derived()
    with path_by_path() if plain else nullcontext():
        spread = attack_distribution(sit)
        clear_derived()
        whole = enumerate_outcomes(lambda d: resolve_outcome(sit, d))
    clear_derived()
    assert list(spread.items()) == list(whole.items())
    assert spread.total == whole.total
    assert spread.probability(lambda o: o.hit) > 0
    assert spread.probability(lambda o: not o.hit) > 0
    if extra.get("attack", {}).get("mode") == "melee":  # type: ignore[attr-defined]
        assert spread.probability(lambda o: o.own is not None and o.own[2] > 0) > 0


@pytest.mark.parametrize("miss_floor", [-6, -11])
def test_attack_distribution_with_a_miss_floor_is_the_enumeration(miss_floor: int) -> None:
    """How far a miss fell short (``miss_floor``: what a shooter under fire reads, G11) kept
    in the outcomes: :func:`.attack.outcome_weights` gives what enumerating the attack with it
    gives (outcomes, weights, order and total), and more outcomes than without it."""
    sit = situation({"attack": {"range_m": 60}})
    clear_derived()
    spread = outcome_weights(sit, {}, miss_floor)
    clear_derived()
    whole = enumerate_outcomes(lambda d: resolve_outcome(sit, d, {}, miss_floor))
    clear_derived()
    assert list(spread.items()) == list(whole.items())
    assert spread.total == whole.total
    assert len({o.missed_by for o, _ in spread.items()}) > 2
    assert len(spread) > len(outcome_weights(sit))


def _shot_reads(o: Any) -> Any:
    """What a shot in an encounter reads of an outcome (its hit as the track keeps it)."""
    from firefight.rulesets.graydawn.encounter_fire import shot_read

    return shot_read(o)


@pytest.mark.parametrize(
    ("extra", "miss_floor"),
    [
        ({"attack": {"range_m": 60}}, -11),
        ({"attacker": {"weapon": SMG_2D6}, "attack": {"mode": "burst", "range_m": 20}}, -1),
        ({"attack": {"mode": "full_auto", "rounds": 8, "range_m": 50}}, -6),
    ],
)
def test_outcome_read_is_the_enumeration_read(extra: dict[str, object], miss_floor: int) -> None:
    """An attack's outcomes read as a caller reads them (:func:`.attack.outcome_read`: each
    landing's hit stage mixed straight into the whole) give exactly what enumerating the
    attack and reading each outcome gives; fewer than the outcomes when the read merges them
    (a shot's: what the track keeps of a hit); a landing read without its own part differs."""
    sit = situation(extra)
    clear_derived()
    whole = enumerate_outcomes(lambda d: resolve_outcome(sit, d, {}, miss_floor))
    clear_derived()
    for read in (lambda o: o, _shot_reads):
        table = outcome_read(sit, {}, miss_floor, read)
        assert table.probabilities() == whole.map(read).probabilities()
    assert len(outcome_read(sit, {}, miss_floor, _shot_reads)) < len(whole)
    clear_derived()


def test_a_broken_outcome_read_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hit stages read without their landing's own part (its hit count) differ."""
    from firefight.rulesets.graydawn import attack

    sit = situation({"attack": {"mode": "full_auto", "rounds": 8, "range_m": 50}})
    honest = outcome_read(sit, {}, -1, lambda o: (o.hits, o.wound.marks))
    inner = attack._read_landed

    def one_landing(read: Any, landing: Any, result: Any) -> Any:
        return inner(read, (1, *landing[1:]), result)

    monkeypatch.setattr(attack, "_read_landed", one_landing)
    broken = outcome_read(sit, {}, -1, lambda o: (o.hits, o.wound.marks))
    assert broken.probabilities() != honest.probabilities()


@pytest.mark.parametrize(
    ("extra", "hits"),
    [
        ({}, 1),
        ({}, 7),
        ({"attacker": {"weapon": SMG_2D6}}, 12),
        ({"target": {"stats": {"LUCK": 7}, "wounds": {"wounding": 6}}}, 3),
        ({"target": {"stats": {"LUCK": 5}}, "luck": {"target": {"reroll": ["stun_save"]}}}, 4),
    ],
)
def test_hits_read_is_the_enumeration_of_resolve_hits(extra: dict[str, object], hits: int) -> None:
    """A volley's hits as their hit stage's table read whole (:func:`.attack.hits_read`, each
    result made the outcome :func:`.attack.resolve_hits` makes) give exactly what enumerating
    :func:`.attack.resolve_hits` gives, and read as the wound's marks, what those outcomes'
    marks give: the same chances in exact fractions."""
    sit = situation(extra)
    clear_derived()
    table = hits_read(sit, hits, {}, partial(_hits_landed, hits))
    marks = hits_read(sit, hits, {}, lambda r: r[1].marks)
    clear_derived()
    whole = enumerate_outcomes(lambda d: resolve_hits(sit, d, hits))
    clear_derived()
    assert table.probabilities() == whole.probabilities()
    assert marks.probabilities() == whole.map(lambda o: o.wound.marks).probabilities()
    outcomes = [o for o, _ in table.items()]
    assert len(outcomes) > 1 and all(o.hits == hits for o in outcomes)
    broken = hits_read(sit, hits, {}, lambda r: r[1].marks + (r[0] == "head"))
    assert broken.probabilities() != marks.probabilities()
