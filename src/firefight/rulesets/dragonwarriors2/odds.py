"""Exact odds of one exchange, from the rule code of :mod:`.attack`, :mod:`.contests` and
:mod:`.injury`.

A riposte chain is open-ended (a flurry can in principle go on for ever) and each contest's
margin takes hundreds of values, so enumerating whole paths is hopeless (hundreds to the power
of the chain's length). The chain is a Markov chain instead: its state between contests is the
next Attack score, and the rules' own pieces are reused exactly:

- every die the rules roll comes from enumerating :func:`.contests.plus_minus` (the same function
  resolve calls, double-six hook included) with :func:`firefight.dice.enumerate_outcomes`;
- every decision is the same pure function resolve uses (:func:`.attack.judge_contest`,
  :func:`.injury.judge_death`, :func:`.injury.judge_stun`), memoised by margin;
- a contest's margin is (attacker's score + his roll) - (defender's score + his roll), so its
  distribution is the two rolls' exact difference shifted by the scores.

The driver walks the chain level by level with exact integer weights. Mass is left out in three
places, each added to ``truncated_mass``: the depth limit of the open-ended dice (14 re-rolls a
die, about 4e-12 a roll; 11 or 8 at deep levels of the chain whose whole share is small enough
that the cut stays within budget, which keeps the big integers shorter), the tails of each chain
state's contest (at most ``odds_tolerance / 2000`` a state; tightened and recomputed if the total
passes ``odds_tolerance``), and any chain still running after ``max_chain`` contests.

The exact walk is bound by big-integer arithmetic (its weights grow by ~150 bits a contest), so a
walk that would only be thrown away for leaving out too much is not run: the same walk on float
shares (a few milliseconds) tells, with a wide margin, when the first tail budget is too loose.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from firefight.core.odds import OddsReport
from firefight.dice import Depth, DiceSource, Dist, Weighted, enumerate_outcomes
from firefight.rulesets.dragonwarriors2.attack import Bout, Step, judge_contest
from firefight.rulesets.dragonwarriors2.contests import DoubleSixHook, bonus_hook, plus_minus
from firefight.rulesets.dragonwarriors2.gear import Fighter
from firefight.rulesets.dragonwarriors2.injury import (
    Status,
    death_check_due,
    judge_death,
    judge_stun,
)
from firefight.rulesets.dragonwarriors2.situation import Exchange, Fight

RollDists = Callable[[str, str, int], Dist]

#: Re-rolls one die of a plus-minus roll may take in the odds: the mass beyond is about 4e-12 a
#: roll (two dice), well inside the tolerance, and shorter weights keep the chain's sums small.
ROLL_DEPTH = 14
#: Shallower cuts for the chain's deep levels, whose whole share is small: (depth, largest level
#: share it may serve per unit of budget), from 4 * 6^-(depth + 1) (two dice cut at depth).
_DEPTHS = ((8, 4 * 6.0**-9), (11, 4 * 6.0**-12))


class RollCache:
    """Exact distribution of each (who, role) plus-minus roll, enumerated from the rule code,
    and of each contest's roll difference, memoised."""

    def __init__(self, hook: DoubleSixHook | None) -> None:
        self.hook = hook
        self.dists: dict[tuple[str, str, int], Dist] = {}
        self.margins: dict[tuple[str, str, str, bool, int], _Margins] = {}

    def __call__(self, who: str, role: str, depth: int = ROLL_DEPTH) -> Dist:
        key = (who, role, depth) if self.hook is not None else ("", "", depth)
        if key not in self.dists:
            hook = self.hook

            def one(d: DiceSource) -> int:
                return plus_minus(d, who, role, hook)

            self.dists[key] = enumerate_outcomes(one, depth=Depth(depth)).to_dist()
        return self.dists[key]


def roll_dists(hook: DoubleSixHook | None) -> RollDists:
    """A fresh :class:`RollCache` for ``hook``."""
    return RollCache(hook)


_SHARED: dict[int, RollDists] = {}


def shared_roll_dists(bonus: int) -> RollDists:
    """Roll distributions for the ``double_six_bonus`` option, kept between calls."""
    if bonus not in _SHARED:
        _SHARED[bonus] = roll_dists(bonus_hook(bonus))
    return _SHARED[bonus]


@dataclass(frozen=True)
class _Margins:
    """A contest's roll difference as dense exact weights, with float cumulative shares."""

    lo: int
    weights: np.ndarray[Any, np.dtype[np.object_]]
    cumulative: list[float]
    total: int
    #: The weights as float shares of the total (for :func:`_surely_too_loose`).
    shares: np.ndarray[Any, np.dtype[np.float64]]

    @classmethod
    def of(cls, d: Dist) -> _Margins:
        w = np.array([int(x) for x in d.weights.tolist()], dtype=object)
        shares = np.array([int(x) / d.total for x in w.tolist()], dtype=np.float64)
        cum = np.concatenate([[0.0], np.cumsum(shares)])
        return cls(d.lo, w, [float(x) for x in cum], d.total, shares)

    def window(self, share: float, eps: float) -> tuple[int, int]:
        """Index range whose two tails each hold less than ``eps / 2`` of the whole."""
        if share <= 0:
            return 0, 0
        if eps <= 0:
            return 0, len(self.cumulative) - 1
        cut = eps / share / 2
        cum = self.cumulative
        i = bisect_left(cum, cut) - 1
        j = bisect_right(cum, cum[-1] - cut)
        return max(i, 0), min(j, len(cum) - 1)


Terminal = tuple[str, int]  # ("defender" | "attacker" | "none", wounds)


@dataclass(frozen=True)
class ChainOdds:
    """Terminal weights of a chain over ``total``; ``contests`` counts contests run."""

    terminals: dict[Terminal, int]
    contests: dict[int, int]
    total: int


Judged = dict[tuple[object, int], Step]


def chain_odds(
    bout: Bout,
    rolls: RollDists,
    eps: float,
    *,
    floats: bool = False,
    judged: Judged | None = None,
) -> ChainOdds:
    """Exact weights of how the attack and its riposte chain end (D04, D05, D08, D09).

    ``floats``: the same walk on float shares (weights over a total of 1), for a quick estimate
    of the mass it leaves out; its windows and depths are those of the exact walk up to rounding.
    ``judged``: :func:`.attack.judge_contest`'s verdicts by (level key, margin), shared by the
    walks of one exchange (the float walk judges most margins the exact walk meets).
    """
    score0, _ = bout.opening_attack()
    states: dict[int, Any] = {score0: 1}
    den = 1
    per_level: list[tuple[int, dict[Terminal, int]]] = []
    uses_choice = "choose" in (bout.attacker.policy.rule, bout.defender.policy.rule)
    judged = {} if judged is None else judged
    margins: dict[tuple[str, str, str, bool, int], _Margins] = getattr(rolls, "margins", {})
    for level in range(bout.options.max_chain):
        att, dfn, _ = bout.sides(level)
        defence, _ = bout.defence_at(level)
        a_role = "attack" if level == 0 else ("riposte" if level == 1 else "counter-riposte")
        share = sum(states.values()) / den
        depth = next((d for d, cost in _DEPTHS if cost * share <= 5 * eps), ROLL_DEPTH)
        zkey = (att.name, a_role, dfn.name, bout.defence_rolled(level), depth)
        if zkey not in margins:
            z = rolls(att.name, a_role, depth)
            if zkey[3]:
                z = z - rolls(dfn.name, "defence", depth)
            margins[zkey] = _Margins.of(z)
        mz = margins[zkey]
        weights: np.ndarray[Any, Any] = mz.shares if floats else mz.weights
        # margin = score - defence + roll difference; gather weights by margin first
        base = min(states) - defence + mz.lo
        acc = np.zeros(max(states) - min(states) + len(weights), dtype=weights.dtype)
        for score, w in states.items():
            i, j = mz.window(w / den, eps)
            if i < j:
                at = score - defence + mz.lo - base
                acc[at + i : at + j] += w * weights[i:j]
        level_key: object = level if uses_choice else (level == 0, level % 2)
        nxt: dict[int, Any] = {}  # exact ints (float shares in the estimate)
        ends: dict[Terminal, Any] = {}
        for idx in np.flatnonzero(acc != 0).tolist():
            margin = base + idx
            ww: Any = float(acc[idx]) if floats else int(acc[idx])
            step = judged.get((level_key, margin))
            if step is None:
                step = judge_contest(bout, level, margin, explain=False)
                judged[(level_key, margin)] = step
            if step.kind == "riposte":
                nxt[step.next_score] = nxt.get(step.next_score, 0) + ww
            else:
                key: Terminal = (step.victim or "none", step.wounds)
                ends[key] = ends.get(key, 0) + ww
        den *= 1 if floats else mz.total
        per_level.append((den, ends))
        states = nxt
        if not states:
            break
    total = den
    terminals: dict[Terminal, int] = {}
    lengths: dict[int, int] = {}
    for n, (d, ends) in enumerate(per_level, start=1):
        scale = total // d
        for k, v in ends.items():
            terminals[k] = terminals.get(k, 0) + v * scale
        if ends:
            lengths[n] = sum(ends.values()) * scale
    return ChainOdds(terminals, lengths, total)


#: How far the float estimate must be past the tolerance before an exact walk is skipped: far
#: more than rounding or a window that rounding tips (one tail, at most ``eps``, 1/2000 of it).
_SURE = 1.05
#: Tolerances too small for a float estimate of the mass left out to be trusted.
_FLOAT_FLOOR = 1e-11


def _surely_too_loose(
    bout: Bout, rolls: RollDists, eps: float, judged: Judged | None = None
) -> bool:
    """True when the float walk leaves out clearly more than ``odds_tolerance``: the exact walk at
    this ``eps`` would be tightened anyway, so it need not run (the answer is unchanged)."""
    tol = bout.options.odds_tolerance
    if tol < _FLOAT_FLOOR:
        return False
    chain = chain_odds(bout, rolls, eps, floats=True, judged=judged)
    return bool(1 - math.fsum(chain.terminals.values()) > tol * _SURE)


def stun_weights(
    bout: Bout, victim: Fighter, totals: list[int], rolls: RollDists
) -> dict[int, dict[Status, int]]:
    """Exact stun-check weights (D06) for each wounds total in ``totals``, over the roll's total.

    A passive check (D02) depends only on how far Toughness + roll is from Wounds, so
    :func:`.injury.judge_stun` is asked once per distance; its results form runs, and each wounds
    total adds up the roll's weights run by run (prefix sums).
    """
    stun = rolls(victim.name, "stun check", ROLL_DEPTH)
    t = victim.toughness
    prefix = [0]
    for w in stun.weights.tolist():
        prefix.append(prefix[-1] + int(w))
    lo, hi = stun.lo, stun.hi
    d_lo, d_hi = t + lo - max(totals), t + hi - min(totals)
    runs: list[tuple[int, int, Status]] = []  # (first distance, last distance, result)
    for dist in range(d_lo, d_hi + 1):
        result = judge_stun(bout.house, t, t - dist, 0)[0]  # a roll of 0 at that distance
        if runs and runs[-1][2] == result:
            runs[-1] = (runs[-1][0], dist, result)
        else:
            runs.append((dist, dist, result))
    out: dict[int, dict[Status, int]] = {}
    for after in totals:
        shift = t - after  # distance = roll + shift
        weights: dict[Status, int] = {}
        for first, last, result in runs:
            a = max(first - shift, lo) - lo
            b = min(last - shift, hi) - lo + 1
            if a < b:
                weights[result] = weights.get(result, 0) + prefix[b] - prefix[a]
        out[after] = weights
    return out


def injury_weights(
    bout: Bout,
    victim: Fighter,
    new_wounds: int,
    rolls: RollDists,
    stun: dict[Status, int] | None = None,
) -> tuple[dict[Status, int], int]:
    """Exact weights of the victim's status after a wound (D06, D07), and their total."""
    death = rolls(victim.name, "death check", ROLL_DEPTH)
    stun_total = rolls(victim.name, "stun check", ROLL_DEPTH).total
    total = death.total * stun_total
    after = victim.wounds + new_wounds
    t = victim.toughness
    stun_w = stun if stun is not None else stun_weights(bout, victim, [after], rolls)[after]
    if not death_check_due(victim.wounds, t):
        return {k: v * death.total for k, v in stun_w.items()}, total
    alive = dead = 0
    for roll, w in death.items():
        survives, _, _ = judge_death(bout.options, t, after, roll)
        if survives:
            alive += w
        else:
            dead += w
    out: dict[Status, int] = {k: v * alive for k, v in stun_w.items()}
    if dead:
        out["dead"] = dead * stun_total
    return out, total


OddsKey = tuple[str, int, int, Status, Status]


@dataclass(frozen=True)
class ExchangeOdds:
    """Exchange outcomes (result, damage, counter damage, defender's, attacker's status)."""

    outcomes: Weighted[OddsKey]
    contests: Weighted[int]


def exchange_odds(
    bout: Bout, rolls: RollDists | None = None, eps: float | None = None
) -> ExchangeOdds:
    """Exact odds of one exchange: the chain, then the injury checks of whoever is hit.

    ``rolls`` and ``eps`` are for tests: other roll distributions (e.g. a shallower cut) and a
    fixed tail budget per chain state (0 keeps every tail).
    """
    fixed = eps is not None
    if rolls is None:
        rolls = shared_roll_dists(bout.options.double_six_bonus)
    if eps is None:
        eps = bout.options.odds_tolerance / 2000  # each state of the chain may lose up to eps
    tightened = 0
    judged: Judged = {}
    if not fixed and _surely_too_loose(bout, rolls, eps, judged):
        eps /= 10  # the exact walk at this eps would be thrown away: skip it
        tightened = 1
    chain = chain_odds(bout, rolls, eps, judged=judged)
    for _ in range(0 if fixed else 3 - tightened):  # a long flurry visits many states: tighten
        left = 1 - Fraction(sum(chain.terminals.values()), chain.total)
        if left < bout.options.odds_tolerance:
            break
        eps /= 10
        chain = chain_odds(bout, rolls, eps, judged=judged)
    injuries: dict[Terminal, tuple[dict[Status, int], int]] = {}
    for role, who in (("defender", bout.defender), ("attacker", bout.attacker)):
        hits = [w for v, w in chain.terminals if v == role]
        if not hits:
            continue
        stuns = stun_weights(bout, who, [who.wounds + w for w in hits], rolls)
        for w in hits:
            stun = stuns[who.wounds + w]
            injuries[(role, w)] = injury_weights(bout, who, w, rolls, stun)
    check_total = max((t for _, t in injuries.values()), default=1)
    out: dict[OddsKey, int] = {}
    for (victim, wounds), w in chain.terminals.items():
        if victim == "none":
            key: OddsKey = ("no wound", 0, 0, "unhurt", "unhurt")
            out[key] = out.get(key, 0) + w * check_total
            continue
        statuses, t = injuries[(victim, wounds)]
        scale = check_total // t
        for status, sw in statuses.items():
            if victim == "defender":
                key = ("defender wounded", wounds, 0, status, "unhurt")
            else:
                key = ("attacker wounded", 0, wounds, "unhurt", status)
            out[key] = out.get(key, 0) + w * sw * scale
    outcomes = Weighted(out, chain.total * check_total)
    return ExchangeOdds(outcomes, Weighted(chain.contests, chain.total))


def probability(w: Weighted[OddsKey], pred: Callable[[OddsKey], bool]) -> Fraction:
    return w.probability(pred)


#: The ruleset id the reports carry.
RULESET_ID = "dragonwarriors2"


def exchange_report(situation: Exchange) -> OddsReport:
    """Exact odds of an exchange file's exchange."""
    return _report(situation.bout, situation.model.title, [])


def fight_report(situation: Fight) -> OddsReport:
    """Exact odds of a fight's first exchange on the starting states."""
    bout = situation.first_bout()
    notes = [
        f"odds of the fight's first exchange ({bout.attacker.name} attacks "
        f"{bout.defender.name}) on the starting states; a whole fight is not enumerated"
    ]
    return _report(bout, situation.model.title, notes)


def _report(bout: Bout, title: str | None, notes: list[str]) -> OddsReport:
    ex = exchange_odds(bout)
    w = ex.outcomes
    a, d = bout.attacker.name, bout.defender.name
    p_hit = w.probability(lambda k: k[0] == "defender wounded")
    outcomes = {
        f"{d} wounded": p_hit,
        f"{a} wounded by a riposte": w.probability(lambda k: k[0] == "attacker wounded"),
        "no wound": w.probability(lambda k: k[0] == "no wound"),
    }
    probs: dict[str, Fraction] = {}
    for role, idx in (("defender", 3), ("attacker", 4)):
        for status in ("stunned", "knocked out", "dead"):
            key = f"p_{role}_{status.replace(' ', '_')}"
            probs[key] = _p_status(w, idx, status)
    probs["p_riposte_wound"] = outcomes[f"{a} wounded by a riposte"]
    title = title or f"{a} attacks {d}"
    pol = {f.name: _policy_text(f) for f in (bout.attacker, bout.defender)}
    notes.append("riposte policy: " + "; ".join(f"{n}: {p}" for n, p in pol.items()))
    return OddsReport(
        ruleset=RULESET_ID,
        title=title,
        p_hit=p_hit,
        outcomes=outcomes,
        distributions={
            "damage": w.to_dist(lambda k: k[1]),
            "counter_damage": w.to_dist(lambda k: k[2]),
            "contests": ex.contests.to_dist(),
        },
        tables={
            "defender_status": _status_table(w, 3),
            "attacker_status": _status_table(w, 4),
        },
        probabilities=probs,
        truncated_mass=w.truncated_mass,
        notes=tuple(notes),
    )


def _p_status(w: Weighted[OddsKey], idx: int, status: str) -> Fraction:
    return w.probability(lambda k: k[idx] == status)


def _status_table(w: Weighted[OddsKey], idx: int) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for status in ("unhurt", "wounded", "stunned", "knocked out", "dead"):
        p = _p_status(w, idx, status)
        if p:
            out[status] = p
    return out


def _policy_text(f: Fighter) -> str:
    p = f.policy
    if p.rule == "margin":
        return f"riposte when the margin is at least {p.margin}"
    if p.rule == "choose":
        return f"table choices {list(p.choices)}, then no riposte"
    return p.rule
