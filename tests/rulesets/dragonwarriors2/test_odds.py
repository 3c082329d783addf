"""Exact odds: against seeded play of the same rules, and against icepool for the dice."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import icepool
import numpy as np
import pytest

from firefight.core.loading import read_toml
from firefight.dice import Depth, Dist, SeededDice, enumerate_outcomes
from firefight.rulesets import get_ruleset
from firefight.rulesets.dragonwarriors2.attack import run_exchange
from firefight.rulesets.dragonwarriors2.contests import plus_minus
from firefight.rulesets.dragonwarriors2.odds import exchange_odds, injury_weights, shared_roll_dists

from .conftest import EXAMPLES, exchange, fighter, load

RULESET = get_ruleset("dragonwarriors2")


def icepool_pm6(depth: int) -> Any:
    d = icepool.d6.explode(depth=depth)
    return d - d


def icepool_p(die: Any, pred: Any) -> Fraction:
    num = sum(q for v, q in die.items() if pred(v))
    return Fraction(num, die.denominator())


# The open-ended roll ------------------------------------------------------------------------
@pytest.mark.parametrize("depth", [1, 2, 4])
def test_plus_minus_roll_equals_icepool_fraction_for_fraction(depth: int) -> None:
    """The rule's roll function, enumerated with icepool's depth convention (the last allowed
    die counts its face), is icepool's d6.explode(depth) - d6.explode(depth) exactly."""
    ours = enumerate_outcomes(
        lambda d: plus_minus(d, "X", "attack"), depth=Depth(depth, stop=True)
    ).to_dist()
    theirs = icepool_pm6(depth)
    assert {v: p for v, p in ours.probabilities()} == {
        v: Fraction(q, theirs.denominator()) for v, q in theirs.items()
    }


def test_contest_margin_without_ripostes_equals_icepool() -> None:
    """P(hit) with no ripostes is P(Attack + pm6 > Defence + pm6): 14 vs 10 for Rolf."""
    data = exchange(
        fighter("Rolf", 14, 14, 13, riposte="never"), fighter("Lennox", 11, 10, 10, riposte="never")
    )
    report = RULESET.odds(load(data))
    z = icepool_pm6(20)
    expected = icepool_p(z - z, lambda v: 14 + v > 10)
    assert report.p_hit is not None
    # the two differ only by the mass each cuts off the open-ended dice
    assert abs(report.p_hit - expected) <= report.truncated_mass + Fraction(1, 10**15)
    assert report.truncated_mass < Fraction(1, 10**10)
    assert report.outcomes["Rolf wounded by a riposte"] == 0


def test_stun_check_odds_equal_icepool() -> None:
    """Toughness 10 after 6 wounds: held if pm6 >= 1, stunned if -4..0, out if -5 or less."""
    situation = load(exchange(fighter("A", 10, 10, 10), fighter("B", 10, 10, 10)))
    bout = situation.bout
    weights, total = injury_weights(bout, bout.defender, 6, shared_roll_dists(0))
    left_out = 1 - Fraction(sum(weights.values()), total)
    assert left_out < Fraction(1, 10**10)
    z = icepool_pm6(20)
    for status, pred in (
        ("wounded", lambda v: v >= 1),
        ("stunned", lambda v: -4 <= v <= 0),
        ("knocked out", lambda v: v <= -5),
    ):
        ours = Fraction(weights[status], total)
        assert abs(ours - icepool_p(z, pred)) <= left_out + Fraction(1, 10**15)


def test_death_check_readings_give_the_same_odds() -> None:
    """Who rolls in the death check does not change the odds: the roll is symmetric."""
    hurt = fighter("B", 10, 10, 10, wounds=11)
    one = RULESET.odds(load(exchange(fighter("A", 12, 10, 10), hurt)))
    other = RULESET.odds(
        load(exchange(fighter("A", 12, 10, 10), hurt, options={"death_check": "wounds roll"}))
    )
    assert one.probabilities["p_defender_dead"] == other.probabilities["p_defender_dead"]
    assert one.probabilities["p_defender_dead"] > Fraction(1, 10)


# Exact against seeded play of the same rules --------------------------------------------------
N = 5000


def _sigma(p: float) -> float:
    return math.sqrt(max(p * (1 - p), 1e-6) / N)


@pytest.mark.parametrize("name", ["knight_vs_squire.toml", "aggressive_parry.toml"])
def test_exact_odds_match_seeded_sampling(name: str) -> None:
    """Tolerance: 4.5 standard errors of N = 5000 seeded exchanges (fixed seed)."""
    situation = load(read_toml(EXAMPLES / name))
    report = RULESET.odds(situation)
    rng = np.random.default_rng(20260521)
    outs = [run_exchange(SeededDice(rng), situation.bout).outcome for _ in range(N)]
    a, d = situation.bout.attacker.name, situation.bout.defender.name
    observed = {
        f"{d} wounded": sum(o.result == "defender wounded" for o in outs) / N,
        f"{a} wounded by a riposte": sum(o.result == "attacker wounded" for o in outs) / N,
        "p_defender_stunned": sum(o.defender_status == "stunned" for o in outs) / N,
        "p_defender_knocked_out": sum(o.defender_status == "knocked out" for o in outs) / N,
        "p_defender_dead": sum(o.defender_status == "dead" for o in outs) / N,
    }
    exact = {**report.outcomes, **report.probabilities}
    for key, freq in observed.items():
        p = float(exact[key])
        assert abs(freq - p) < 4.5 * _sigma(p), (key, freq, p)
    mean = sum(o.damage for o in outs) / N
    dist = report.distributions["damage"]
    sd = math.sqrt(float(dist.variance)) / math.sqrt(N)
    assert abs(mean - float(dist.mean)) < 4.5 * sd


def test_ripostes_shift_the_odds_and_truncation_is_small() -> None:
    base = read_toml(EXAMPLES / "knight_vs_squire.toml")
    never = {**base, "defender": {**base["defender"], "riposte": "never"}}
    always = {**base, "defender": {**base["defender"], "riposte": "always"}}
    r_never = RULESET.odds(load(never))
    r_always = RULESET.odds(load(always))
    assert r_never.probabilities["p_riposte_wound"] == 0
    assert r_always.probabilities["p_riposte_wound"] > 0
    for r in (r_never, r_always):
        assert r.truncated_mass < Fraction(1, 10**9)
        total = sum(r.outcomes.values(), Fraction(0)) + r.truncated_mass
        assert total == 1
        assert r.distributions["damage"].p(0) + r.p_hit + r.truncated_mass == 1  # type: ignore[operator]


def test_odds_json_names_the_wound_distributions() -> None:
    report = RULESET.odds(load(read_toml(EXAMPLES / "knight_vs_squire.toml")))
    data = report.to_json()
    assert {"p_hit", "damage", "counter_damage", "p_defender_stunned", "p_defender_dead"} <= set(
        data
    )
    assert data["truncated_mass"] < 1e-9
    assert data["damage"][0]["value"] == 0


def test_fight_odds_are_the_first_exchange() -> None:
    fight = RULESET.odds(load(read_toml(EXAMPLES / "rolf_vs_lennox.toml")))
    assert "first exchange (Lennox attacks Rolf)" in fight.notes[0]
    assert fight.p_hit is not None and 0 < fight.p_hit < Fraction(1, 2)


def test_odds_equal_plain_enumeration_of_the_resolve_code() -> None:
    """With every die cut at one re-roll, enumerating ``run_exchange`` path by path (feasible
    for a fixed-difficulty shot) gives exactly the odds module's weights, mass left out too."""
    data = exchange(
        fighter("Archer", 12, 9, 9),
        fighter("Guard", 10, 10, 9, wounds=10, armour="leather"),
        missile={"weapon": "javelin", "range_feet": 12, "difficulty_rolled": False},
    )
    bout = load(data).bout
    shallow = {}

    def rolls(who: str, role: str, depth: int) -> Any:
        if role not in shallow:
            fn = lambda d: plus_minus(d, who, role)  # noqa: E731
            shallow[role] = enumerate_outcomes(fn, depth=Depth(1)).to_dist()
        return shallow[role]

    ours = exchange_odds(bout, rolls, eps=0).outcomes

    def resolve_key(d: Any) -> tuple[Any, ...]:
        o = run_exchange(d, bout).outcome
        return (o.result, o.damage, o.counter_damage, o.defender_status, o.attacker_status)

    plain = enumerate_outcomes(resolve_key, depth=Depth(1))
    assert ours.probabilities() == plain.probabilities()
    assert ours.truncated_mass == plain.truncated_mass
    assert plain.probability(lambda k: k[3] == "dead") > 0


def test_skipping_a_surely_too_loose_walk_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Aggressive parry leaves out too much at the first tail budget: the float estimate skips
    that exact walk, and the answer is the one the exact loop reaches by walking it."""
    from firefight.rulesets.dragonwarriors2 import odds

    bout = load(read_toml(EXAMPLES / "aggressive_parry.toml")).bout
    rolls = shared_roll_dists(bout.options.double_six_bonus)
    eps = bout.options.odds_tolerance / 2000
    assert odds._surely_too_loose(bout, rolls, eps)
    assert not odds._surely_too_loose(bout, rolls, eps / 10)
    skipped = exchange_odds(bout)
    monkeypatch.setattr(odds, "_surely_too_loose", lambda *_: False)
    walked = exchange_odds(bout)
    assert skipped.outcomes == walked.outcomes
    assert skipped.contests == walked.contests


# The chain walk against the plain one it replaced -------------------------------------------
def _plain_chain(bout: Any, rolls: Any, eps: float, floats: bool = False) -> Any:
    """The walk as it was first written: a dict of states, each state's window found by bisection
    and its products added one margin at a time, every reached margin judged one by one, and
    each level's terminals scaled to the last denominator one by one."""
    from bisect import bisect_left, bisect_right

    from firefight.rulesets.dragonwarriors2 import odds
    from firefight.rulesets.dragonwarriors2.attack import judge_contest

    score0, _ = bout.opening_attack()
    states: dict[int, Any] = {score0: 1.0 if floats else 1}
    den = 1
    per_level = []
    for level in range(bout.options.max_chain):
        att, dfn, _ = bout.sides(level)
        defence, _ = bout.defence_at(level)
        role = "attack" if level == 0 else ("riposte" if level == 1 else "counter-riposte")
        share = sum(states.values()) / den
        depth = next((d for d, c in odds._DEPTHS if c * share <= 5 * eps), odds.ROLL_DEPTH)
        z = rolls(att.name, role, depth)
        if bout.defence_rolled(level):
            z = z - rolls(dfn.name, "defence", depth)
        weights = [int(x) for x in z.weights.tolist()]
        shares = [w / z.total for w in weights]
        cum = [0.0, *np.cumsum(shares).tolist()]
        acc: dict[int, Any] = {}
        for score, w in states.items():
            share = w / den
            if share <= 0:
                continue
            i, j = 0, len(cum) - 1
            if eps > 0:
                cut = eps / share / 2
                i = max(bisect_left(cum, cut) - 1, 0)
                j = min(bisect_right(cum, cum[-1] - cut), len(cum) - 1)
            for k in range(i, j):
                margin = score - defence + z.lo + k
                acc[margin] = acc.get(margin, 0) + w * (shares[k] if floats else weights[k])
        nxt: dict[int, Any] = {}
        ends: dict[Any, Any] = {}
        for margin in sorted(acc):
            if not acc[margin]:
                continue
            step = judge_contest(bout, level, margin, explain=False)
            if step.kind == "riposte":
                nxt[step.next_score] = nxt.get(step.next_score, 0) + acc[margin]
            else:
                key = (step.victim or "none", step.wounds)
                ends[key] = ends.get(key, 0) + acc[margin]
        den *= 1 if floats else z.total
        per_level.append((den, ends))
        states = nxt
        if not states:
            break
    terminals: dict[Any, Any] = {}
    lengths = {}
    for n, (d, ends) in enumerate(per_level, start=1):
        for k, v in ends.items():
            terminals[k] = terminals.get(k, 0) + v * (den // d)
        if ends:
            lengths[n] = sum(ends.values()) * (den // d)
    return terminals, lengths, den


def _bout_of(name: str, **options: Any) -> Any:
    from dataclasses import replace

    situation = load(read_toml(EXAMPLES / name))
    bout = situation.bout if hasattr(situation, "bout") else situation.first_bout()
    return replace(bout, options=bout.options.model_copy(update=options))


@pytest.mark.parametrize(
    ("name", "max_chain", "eps"),
    [
        ("knight_vs_squire.toml", 3, 0.0),  # every tail kept, chains cut after 3 contests
        ("knight_vs_squire.toml", 80, 2.5e-13),  # tails cut, chains to their end
        ("aggressive_parry.toml", 7, 2.5e-14),  # tails cut and chains cut
        ("rolf_vs_lennox.toml", 80, 2.5e-13),  # riposte = "choose": verdicts by level
        ("full_parry.toml", 80, 1e-6),  # wide cuts: deep levels on shallower dice
        ("bow_shot.toml", 80, 2.5e-13),  # a missile: one contest
    ],
)
def test_chain_walk_equals_the_plain_walk(name: str, max_chain: int, eps: float) -> None:
    """The array walk gives the plain walk's exact weights, terminal for terminal and length
    for length (chains cut by max_chain and tails cut by eps included), and its float estimate
    the plain float walk's shares bit for bit."""
    from firefight.rulesets.dragonwarriors2.odds import chain_odds

    bout = _bout_of(name, max_chain=max_chain)
    rolls = shared_roll_dists(bout.options.double_six_bonus)
    terminals, lengths, total = _plain_chain(bout, rolls, eps)
    ours = chain_odds(bout, rolls, eps)
    assert ours.total == total
    assert ours.terminals == terminals
    assert list(ours.terminals) == list(terminals)  # in the order first reached
    assert ours.contests == lengths
    if max_chain < 80:
        assert max(lengths) == max_chain  # the cut is reached
    f_terminals, _, _ = _plain_chain(bout, rolls, eps, floats=True)
    assert chain_odds(bout, rolls, eps, floats=True).terminals == f_terminals


def test_a_mirrored_window_adds_what_the_plain_one_does() -> None:
    """Two rolls alike give margin weights that read the same backwards; every window (even,
    odd, lopsided, empty) then adds the same products as the plain one, each worked out once."""
    from dataclasses import replace

    from firefight.rulesets.dragonwarriors2.odds import _Margins

    rolls = shared_roll_dists(0)
    for depth in (1, 2):
        z = rolls("A", "attack", depth) - rolls("B", "defence", depth)
        for mz, odd in ((_Margins.of(z), 1), (_Margins.of(z + Dist.uniform(0, 1)), 0)):
            assert mz.mirrored
            assert len(mz.weights) % 2 == odd
            size = len(mz.weights)
            plain = replace(mz, mirrored=False)
            for i in range(size + 1):
                for j in range(i, size + 1):
                    ours = np.zeros(size + 3, dtype=object)
                    theirs = np.zeros(size + 3, dtype=object)
                    mz.add_window(ours, 2, 7**40, i, j)
                    plain.add_window(theirs, 2, 7**40, i, j)
                    assert ours.tolist() == theirs.tolist(), (i, j)
    assert not _Margins.of(rolls("A", "attack", 1) + Dist.from_mapping({0: 2, 1: 1})).mirrored


def test_margins_are_kept_by_the_rolls_they_come_from() -> None:
    """Rolls that differ by role (a double-six bonus on ripostes only) give those levels their
    own margins, and the walk still equals the plain one; rolls alike in every role share one
    set of margins per depth."""
    from firefight.rulesets.dragonwarriors2.odds import RollCache, chain_odds

    bout = _bout_of("knight_vs_squire.toml", max_chain=6)
    eps = 2.5e-13
    by_role = RollCache(lambda who, role, roll: 3 if role == "riposte" else 0)
    terminals, lengths, total = _plain_chain(bout, by_role, eps)
    ours = chain_odds(bout, by_role, eps)
    assert (ours.terminals, ours.contests, ours.total) == (terminals, lengths, total)
    alike = RollCache(None)
    assert chain_odds(bout, alike, eps).terminals == _plain_chain(bout, alike, eps)[0]
    assert len(alike.margins) == 1  # six levels, one depth: one set of margins
    assert len(by_role.margins) >= 3


def test_a_short_chain_skips_the_float_walk_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Table choices that run out end Rolf and Lennox's chain within four contests: the exact
    walk runs without the float walk first, and gives what it gives after one."""
    from firefight.rulesets.dragonwarriors2 import odds

    bout = _bout_of("rolf_vs_lennox.toml")
    assert odds._short_chain(bout)
    assert not odds._short_chain(_bout_of("knight_vs_squire.toml"))  # riposte by margin
    assert not odds._short_chain(_bout_of("aggressive_parry.toml"))  # riposte always
    walks: list[bool] = []
    real = odds.chain_odds

    def counted(*args: Any, **kwargs: Any) -> Any:
        walks.append(kwargs.get("floats", False))
        return real(*args, **kwargs)

    monkeypatch.setattr(odds, "chain_odds", counted)
    short = exchange_odds(bout)
    assert walks == [False]
    monkeypatch.setattr(odds, "_short_chain", lambda _: False)
    long = exchange_odds(bout)
    assert walks == [False, True, False]
    assert short.outcomes == long.outcomes
    assert short.contests == long.contests
