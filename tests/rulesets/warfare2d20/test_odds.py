"""Exact odds: against icepool and brute force (independent computations), against seeded
sampling of the same resolve code, and the JSON shape of the issue."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from typing import Any

import icepool
import numpy as np
import pytest

from firefight.core.sampling import AliasTable, sample_outcomes
from firefight.dice import SeededDice, Weighted, enumerate_outcomes
from firefight.dice.sources import path_by_path
from firefight.rulesets.warfare2d20 import RULESET
from firefight.rulesets.warfare2d20.attack import resolve_attack, resolve_target
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.odds import label, target_odds
from firefight.rulesets.warfare2d20.soak import damage_table

from .helpers import situation

SEED = 20260627
#: Sampling tolerance: 4 standard errors plus a small floor (a false alarm is ~1 in 15,000).
SIGMAS = 4


def within(p_hat: float, p: Fraction, n: int) -> bool:
    sd = math.sqrt(float(p) * (1 - float(p)) / n)
    return abs(p_hat - float(p)) <= SIGMAS * sd + 0.002


def icepool_delta() -> Any:
    return abs(2 @ icepool.d20 - 2 @ icepool.d20)


@pytest.mark.parametrize(
    ("file", "delta_mod", "delta_t"),
    [("a_basic_hit.toml", 0, 10), ("b_ak47_ambush.toml", 0, 10), ("e_fire_team_c.toml", -4, 4)],
)
def test_p_hit_matches_icepool(file: str, delta_mod: int, delta_t: int) -> None:
    report = RULESET.odds(situation(file))
    expected = (icepool_delta() + delta_mod).probability("<=", delta_t)
    assert report.p_hit == Fraction(expected)


def test_m249_hit_and_shock_match_icepool() -> None:
    """One target of the M249 burst: hit <= 8, shock in 9..11 after +6 (the shared roll does not
    change one target's odds)."""
    report = RULESET.odds(situation("d_m249.toml"))
    d = icepool_delta() + 6
    name = "enemy by the rocks 1"
    assert report.probabilities[f"p_hit ({name})"] == Fraction(d.probability("<=", 8))
    shock = Fraction(d.probability("<=", 11)) - Fraction(d.probability("<=", 8))
    assert report.probabilities[f"p_shock ({name})"] == shock
    assert report.p_hit is None


def brute_force_soak(damage: tuple[int, int], layers: list[tuple[int, int]]) -> Counter[int]:
    """W06/W07 written again, plainly, over every physical roll (counted by sorted tuple)."""

    def pools(count: int, sides: int) -> Counter[tuple[int, ...]]:
        return Counter(
            tuple(sorted(r, reverse=True))
            for r in itertools.product(range(1, sides + 1), repeat=count)
        )

    out: Counter[int] = Counter()
    all_layers = [pools(*layer) for layer in layers]
    for dmg, wd in pools(*damage).items():
        for combo in itertools.product(*(p.items() for p in all_layers)):
            going = list(dmg)
            weight = wd
            for soak, ws in combo:
                weight *= ws
                kept = [g for i, g in enumerate(going) if i >= len(soak) or g > soak[i]]
                going = sorted(kept, reverse=True)
            out[sum(going)] += weight
    return out


def as_fractions(c: Counter[int]) -> dict[int, Fraction]:
    total = sum(c.values())
    return {k: Fraction(v, total) for k, v in c.items() if v}


def test_damage_table_matches_brute_force_ak47_against_body_armour() -> None:
    table = damage_table("3d12", ("3d10",)).probabilities()
    assert table == as_fractions(brute_force_soak((3, 12), [(3, 10)]))


def test_layered_table_matches_brute_force() -> None:
    table = damage_table("3d6", ("2d6", "4d4")).probabilities()
    assert table == as_fractions(brute_force_soak((3, 6), [(2, 6), (4, 4)]))


def test_more_soak_dice_than_damage_dice_match_brute_force() -> None:
    """Soak tuples merged by their highest dice (only those face a damage die), in a middle
    layer and in the last."""
    table = damage_table("2d6", ("4d4", "5d3")).probabilities()
    assert table == as_fractions(brute_force_soak((2, 6), [(4, 4), (5, 3)]))


def test_fewer_soak_dice_than_damage_dice_match_brute_force() -> None:
    """A damage die with no soak die left to face counts in full (the last layer's sums)."""
    table = damage_table("3d6", ("1d8",)).probabilities()
    assert table == as_fractions(brute_force_soak((3, 6), [(1, 8)]))


def test_report_damage_is_hit_times_soak_table() -> None:
    report = RULESET.odds(situation("b_ak47_ambush.toml"))
    assert report.p_hit is not None
    damage = report.distributions["damage"]
    table = damage_table("3d12", ("3d10",))
    for v in range(1, 37):
        assert damage.p(v) == report.p_hit * table.p(v)
    assert sum(p for _, p in damage.probabilities()) == 1


def test_report_json_shape() -> None:
    out = RULESET.odds(situation("b_ak47_ambush.toml")).to_json()
    assert out["ruleset"] == "warfare2d20"
    assert out["p_hit"] == "9971/16000"
    assert set(out["outcomes"]) >= {"miss", "hit, unconscious", "hit, dead"}
    for name in ("damage", "hp_damage"):
        assert {"value", "p"} <= set(out[name][0])
        assert sum(Fraction(x["p"]) for x in out[name]) == 1
    for name in ("p_cover_struck", "p_shock", "p_suppressed", "p_unconscious", "p_dead"):
        assert "/" in out[name]


def test_exact_agrees_with_seeded_resolution_ak47_ambush() -> None:
    sit = situation("b_ak47_ambush.toml")
    exact = target_odds(sit, 0).map(label).probabilities()
    rng = np.random.default_rng(SEED)
    n = 2500
    seen = Counter(label(resolve_attack(sit, SeededDice(rng)).targets[0]) for _ in range(n))
    for name, p in exact.items():
        assert within(seen[name] / n, p, n), (name, seen[name] / n, float(p))
    assert set(seen) <= set(exact)


def test_exact_agrees_with_seeded_resolution_behind_a_wall() -> None:
    target = {"combatant": "marine", "armour": "body armour", "cover": "brick wall"}
    sit = situation("b_ak47_ambush.toml", target=target, fire_mode="automatic")
    w = target_odds(sit, 0)
    rng = np.random.default_rng(SEED + 1)
    n = 2000
    got = [resolve_attack(sit, SeededDice(rng)).targets[0] for _ in range(n)]
    for name, pred in {
        "cover": lambda o: o.cover_struck,
        "shock": lambda o: o.result == "shock",
        "damage >= 10": lambda o: o.damage >= 10,
        "unconscious": lambda o: o.status == "unconscious",
    }.items():
        assert within(sum(map(pred, got)) / n, w.probability(pred), n), name


def test_mortar_marginals_agree_with_seeded_resolution() -> None:
    sit = situation("f_mortar.toml")
    rng = np.random.default_rng(SEED + 2)
    n = 1500
    runs = [RULESET.resolve(sit, SeededDice(rng)).outcome.targets for _ in range(n)]
    for i in (0, 5):  # a near man and a far man
        w = target_odds(sit, i)
        for status in ("dead", "unconscious"):
            seen = sum(1 for r in runs if r[i].status == status) / n
            assert within(seen, w.probability(lambda o, s=status: o.status == s), n)


def test_vectorised_sampling_agrees_with_exact() -> None:
    w = target_odds(situation("b_ak47_ambush.toml"), 0)
    outcomes, idx = sample_outcomes(w, 200_000, SEED)
    counts = np.bincount(idx, minlength=len(outcomes))
    for o, c in zip(outcomes, counts, strict=True):
        assert within(c / 200_000, w.p(o), 200_000)


def test_thrown_and_initiative_odds() -> None:
    lands = RULESET.odds(situation("g_smoke_grenade.toml")).p_hit
    assert lands == Fraction(icepool_delta().probability("<=", 10))
    report = RULESET.odds(situation("h_initiative.toml"))
    two_d10 = Counter(a + b for a in range(1, 11) for b in range(1, 11))
    assert report.probabilities["p_passes (team leader)"] == Fraction(
        sum(v for k, v in two_d10.items() if k <= 14), 100
    )
    leader = {k: p for k, p in report.outcomes.items() if k.startswith("team leader: ")}
    assert sum(leader.values()) == 1, "a combatant's outcomes are exclusive"
    assert report.outcomes["team leader: exceptionally well"] == Fraction(
        sum(v for k, v in two_d10.items() if k <= 7), 100
    )


def test_odds_enumerate_the_resolve_code() -> None:
    """The report is read off enumerate_outcomes of resolve: the same numbers both ways."""
    sit = situation("e_fire_team_c.toml")
    direct = enumerate_outcomes(lambda d: resolve_attack(sit, d).targets[0])
    assert direct == target_odds(sit, 0)
    assert RULESET.odds(sit).outcomes == direct.map(label).probabilities()


def test_alias_table_samples_the_exact_distribution() -> None:
    w = target_odds(situation("b_ak47_ambush.toml"), 0)
    table = AliasTable.build(w)
    n = 300_000
    idx = table.sample(n, SEED)
    counts = np.bincount(idx, minlength=len(table.outcomes))
    for o, c in zip(table.outcomes, counts, strict=True):
        assert within(c / n, w.p(o), n), o
    damage = table.column("damage")[idx]
    mean = float(sum(o.damage * w.p(o) for o in table.outcomes))
    assert abs(damage.mean() - mean) < 0.05


def test_alias_table_with_one_outcome() -> None:
    table = AliasTable.build(Weighted({"only": 3}))
    assert set(table.sample(1000, 1).tolist()) == {0}


def test_m249_targets_hit_count_matches_brute_force() -> None:
    """Three targets against one shared roll: P(k hit) by a plain loop over every attacker total
    and defender total (modified delta = delta + 6 against delta t 8)."""
    report = RULESET.odds(situation("d_m249.toml"))
    two_d20 = Counter(a + b for a in range(1, 21) for b in range(1, 21))
    expected: Counter[int] = Counter()
    for att, wa in two_d20.items():
        hit = sum(w for d, w in two_d20.items() if abs(att - d) + 6 <= 8)
        p = Fraction(hit, 400)
        for k in range(4):
            expected[k] += Fraction(wa, 400) * math.comb(3, k) * p**k * (1 - p) ** (3 - k)
    counts = report.distributions["targets_hit"]
    assert {k: counts.p(k) for k in range(4)} == dict(expected)
    assert report.probabilities["p_any_hit"] == 1 - expected[0]


def _counts_roll_by_roll(a: Any) -> dict[str, dict[int, Fraction]]:
    """The counts the plain way: for every shared roll, each target's whole ``resolve_target``
    enumerated, the events' numbers of targets convolved, mixed over the roll."""
    events = {
        "targets_hit": lambda o: o.result == "hit",
        "targets_suppressed": lambda o: o.suppressed,
        "targets_down": lambda o: o.status in ("unconscious", "dead"),
    }
    out: dict[str, dict[int, Fraction]] = {k: Counter() for k in events}
    roll = Counter(x + y for x in range(1, 21) for y in range(1, 21))
    for value, weight in roll.items():
        given = [
            enumerate_outcomes(lambda d, t=t, v=value: resolve_target(d, a, t, v))
            for t in a.targets
        ]
        for k, f in events.items():
            dist = {0: Fraction(1)}
            for w in given:
                p = w.probability(f)
                nxt: Counter[int] = Counter()
                for n, q in dist.items():
                    nxt[n] += q * (1 - p)
                    nxt[n + 1] += q * p
                dist = nxt
            for n, q in dist.items():
                out[k][n] += Fraction(weight, 400) * q
    return out


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {  # targets unlike each other: cover struck or not, armour, visibility
            "targets": [
                {"name": "a", "combatant": "insurgent", "cover": "rocks"},
                {"name": "b", "combatant": "marine", "armour": "body armour"},
                {"name": "c", "combatant": "insurgent", "visibility": "hardly visible"},
                {"name": "d", "combatant": "insurgent", "cover": "rocks"},
            ],
            "movement": "still",
        },
    ],
)
def test_shared_roll_counts_equal_roll_by_roll_enumeration(changes: dict[str, Any]) -> None:
    """Counts under a shared roll, worked out per hit-test verdict, equal enumerating each
    target's resolution for every value of the roll."""
    sit = situation("d_m249.toml", **changes)
    report = RULESET.odds(sit)
    expected = _counts_roll_by_roll(sit)
    for k, dist in expected.items():
        got = report.distributions[k]
        assert {n: got.p(n) for n in dist} == dist, k
        assert sum(dist.values()) == 1


def test_m249_counts_agree_with_seeded_resolution() -> None:
    sit = situation("d_m249.toml")
    report = RULESET.odds(sit)
    rng = np.random.default_rng(SEED + 3)
    n = 2000
    runs = [resolve_attack(sit, SeededDice(rng)).targets for _ in range(n)]
    for name, pred in (
        ("targets_hit", lambda o: o.result == "hit"),
        ("targets_suppressed", lambda o: o.suppressed),
    ):
        seen = Counter(sum(map(pred, r)) for r in runs)
        for k, p in report.distributions[name].probabilities():
            assert within(seen[k] / n, p, n), (name, k)


@pytest.mark.parametrize("file", ["b_ak47_ambush.toml", "e_fire_team_c.toml"])
def test_numpy_tables_equal_path_by_path_enumeration(file: str) -> None:
    """The one-pass tables handed to derive(exact=...) give the same fractions as replaying the
    sub-rules themselves path by path (kept sub-rules included: path_by_path keeps them apart)."""
    sit = situation(file)
    fast = enumerate_outcomes(lambda d: resolve_attack(sit, d).targets[0])
    with path_by_path():
        slow = enumerate_outcomes(lambda d: resolve_attack(sit, d).targets[0])
    assert fast == slow


@pytest.mark.parametrize(
    ("changes", "house"),
    [
        ({}, None),
        ({"spot_roll": "each", "rounds": 3}, None),
        ({"targets": [{"combatant": "marine", "distance_m": 5, "armour": "body armour"}]}, None),
        (
            {"targets": [{"combatant": "marine", "distance_m": 5, "armour": "body armour"}]},
            Warfare2d20House(blast_ignores_armour=False),
        ),
        ({"targets": [{"combatant": "insurgent", "distance_m": 80}]}, None),
        (  # hurt already, three rounds: deaths part-way and a second endurance check
            {
                "rounds": 3,
                "targets": [
                    {"combatant": "insurgent", "distance_m": 3, "hit_points_left": 4},
                    {"combatant": "marine", "distance_m": 15, "stamina_left": 0},
                ],
            },
            None,
        ),
    ],
)
def test_mortar_round_by_round_equals_replaying_resolve_mortar(
    changes: dict[str, Any], house: Warfare2d20House | None
) -> None:
    """The mortar's odds run round by round (states merged); replaying the whole fire plan path
    by path gives identical fractions, target by target."""
    from dataclasses import replace

    from firefight.rulesets.warfare2d20.mortar import resolve_mortar
    from firefight.rulesets.warfare2d20.mortar_odds import target_outcomes

    sit = situation("f_mortar.toml", house, **changes)
    for t in sit.targets[:2] + sit.targets[-1:]:
        alone = replace(sit, targets=(t,))
        slow = enumerate_outcomes(lambda d, a=alone: resolve_mortar(a, d).targets[0])
        assert target_outcomes(alone).probabilities() == slow.probabilities()


@pytest.mark.parametrize("status", ["wounded", "unconscious", "dead"])
def test_mortar_odds_start_from_the_targets_status(status: str) -> None:
    """A target already down (as an encounter carries it) starts the blasts from its status,
    as resolve_mortar does: a dead one is not blasted, a wounded one stays at least wounded."""
    from dataclasses import replace

    from firefight.rulesets.warfare2d20.mortar import resolve_mortar
    from firefight.rulesets.warfare2d20.mortar_odds import target_outcomes

    sit = situation("f_mortar.toml")
    t = replace(sit.targets[0], hit_points_left=5, status=status)
    alone = replace(sit, targets=(t,))
    slow = enumerate_outcomes(lambda d: resolve_mortar(alone, d).targets[0])
    fast = target_outcomes(alone)
    assert fast.probabilities() == slow.probabilities()
    assert {o.status for o in fast.outcomes()} >= {status}
