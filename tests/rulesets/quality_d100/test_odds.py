"""Exact odds come from enumerating the strike code; checked against brute force and sampling."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from firefight.dice import SeededDice
from firefight.rulesets.quality_d100 import RULESET
from firefight.rulesets.quality_d100.quality import quality
from tests.rulesets.quality_d100.helpers import load

SIMPLE: dict[str, Any] = {
    "attacker": {"strike_chance": 72, "damage": "d6+1"},
    "defender": {"defence": 35, "armour": {"ft": 2, "en": 1, "dr": 1}},
}


def brute_force(chance: int, defence: int, die: int = 0) -> dict[str, Counter[int]]:
    """Every pair of faces (and every d6 face) through the pure Q01 function and Table 2."""
    out: dict[str, Counter[int]] = {"rq": Counter(), "damage": Counter(), "en": Counter()}
    for a in range(1, 101):
        aq = quality(a + die, chance, natural=a)
        for d in range(1, 101):
            rq = max(0, aq - quality(d, defence))
            out["rq"][rq] += 6
            for face in range(1, 7):
                hit = face + 1
                if rq == 0:
                    ft = en = 0
                elif rq == 1:
                    ft, en = max(0, hit - 2 - 1), 0
                elif rq == 2:
                    ft, en = max(0, 7 - 2 - 1), 0
                elif rq in (3, 4):
                    ft, en = 0, max(0, hit - 1 - 1)
                else:
                    ft, en = 0, max(0, 7 + (10 if rq == 6 else 0) - 1)
                out["damage"][ft + en] += 1
                out["en"][en] += 1
    return out


def as_probs(counts: Counter[int]) -> dict[int, Fraction]:
    total = sum(counts.values())
    return {v: Fraction(n, total) for v, n in sorted(counts.items()) if n}


def test_exact_odds_equal_brute_force_over_every_face() -> None:
    report = RULESET.odds(load(SIMPLE))
    brute = brute_force(72, 35)
    rq = as_probs(brute["rq"])
    assert report.p_hit == sum(p for v, p in rq.items() if v >= 1)
    assert dict(report.distributions["result_quality"].probabilities()) == rq
    assert dict(report.distributions["damage"].probabilities()) == as_probs(brute["damage"])
    assert dict(report.distributions["en_damage"].probabilities()) == as_probs(brute["en"])
    assert report.probabilities["p_possible_grievous"] == sum(p for v, p in rq.items() if v >= 4)


def test_exact_odds_with_aim_equal_brute_force() -> None:
    data = {
        "mode": "ranged",
        "attacker": {"strike_chance": 230, "damage": "d6+1", "aim": True},
        "defender": {"defence": 35, "armour": {"ft": 2, "en": 1, "dr": 1}},
    }
    report = RULESET.odds(load(data))
    assert load(data).strike_chance == 250
    rq = as_probs(brute_force(250, 35, die=-5)["rq"])
    assert dict(report.distributions["result_quality"].probabilities()) == rq
    assert report.outcomes["Fantastic"] == rq[6]


def test_outcomes_are_keyed_by_result_quality_name_and_sum_to_one() -> None:
    report = RULESET.odds(load(SIMPLE))
    assert list(report.outcomes) == [
        "Poor",
        "Average",
        "Better",
        "Crucial",
        "Decisive",
        "Excellent",
        "Fantastic",
    ]
    assert sum(report.outcomes.values()) == 1
    assert report.p_hit == 1 - report.outcomes["Poor"]


def test_grievous_chance_multiplies_the_possible_grievous_probability() -> None:
    data = SIMPLE | {"grievous": {"chance": 25, "extra_damage": "d4"}}
    report = RULESET.odds(load(data))
    possible = report.probabilities["p_possible_grievous"]
    assert report.probabilities["p_grievous_injury"] == possible * Fraction(1, 4)
    plain = RULESET.odds(load(SIMPLE))
    assert report.distributions["damage"].mean > plain.distributions["damage"].mean


def test_exact_odds_match_seeded_sampling() -> None:
    """3000 seeded strikes: P(hit), P(possible grievous) and mean damage within 4 sigma."""
    data = {
        "attacker": {"weapon": "broadsword", "manual_dexterity": 14, "rank": 3},
        "defender": {
            "agility": 16,
            "shield": 10,
            "evading": True,
            "rank": 2,
            "armour": "chainmail",
        },
        "grievous": {"chance": 50, "extra_damage": "d6"},
    }
    situation = load(data)
    report = RULESET.odds(situation)
    dice = SeededDice(20261121)
    n = 3000
    outs = [RULESET.resolve(situation, dice).outcome for _ in range(n)]
    for p, seen in (
        (report.p_hit, sum(o.hit for o in outs)),
        (report.probabilities["p_possible_grievous"], sum(o.possible_grievous for o in outs)),
        (report.tables["parry"]["parry"], sum(o.parry == "parry" for o in outs)),
    ):
        sigma = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(seen / n - float(p)) < 4 * sigma + 1e-9
    dmg = report.distributions["damage"]
    sd = float(dmg.variance) ** 0.5
    assert abs(sum(o.damage for o in outs) / n - float(dmg.mean)) < 4 * sd / n**0.5


def test_json_shape() -> None:
    out = RULESET.odds(load(SIMPLE)).to_json()
    assert out["ruleset"] == "quality_d100"
    for key in (
        "p_hit",
        "outcomes",
        "damage",
        "ft_damage",
        "en_damage",
        "result_quality",
        "p_possible_grievous",
    ):
        assert key in out
    assert set(out["outcomes"]) >= {"Poor", "Average", "Fantastic"}
    assert out["damage"][0]["value"] == 0


def test_special_attack_odds_multiply_hit_and_avoidance() -> None:
    # Trip: knocked down = hit x P(D100 > 3 x AG 12 = 36); the avoid roll is independent.
    data = {
        "special": "trip",
        "attacker": {"weapon": "spear", "manual_dexterity": 13, "rank": 2},
        "defender": {"agility": 12, "hex": "flank", "armour": "chainmail"},
    }
    report = RULESET.odds(load(data))
    assert report.p_hit is not None
    assert report.tables["special"]["knocked down"] == report.p_hit * Fraction(64, 100)
    assert report.tables["special"]["avoided"] == report.p_hit * Fraction(36, 100)
