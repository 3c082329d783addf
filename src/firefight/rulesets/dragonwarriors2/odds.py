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

A level is a few array operations around one loop over its states: each state adds its weight
times its window of the contest's margin weights into one array by margin (numpy object arrays:
the products run in C, one state at a time), then the margins map to next Attack scores and
terminals through arrays of :func:`.attack.judge_contest`'s verdicts (:class:`Verdicts`, each
margin judged once per kind of level); every level's terminal weights are put over the last
level's denominator at the end, by halves (:func:`_fold`).

The exact walk is bound by big-integer arithmetic (its weights grow by ~150 bits a contest), so a
walk that would only be thrown away for leaving out too much is not run: the same walk on float
shares (a few milliseconds) tells, with a wide margin, when the first tail budget is too loose. A
chain the riposte policies end within a few contests skips that float walk (its exact walk costs
about as little), and every level whose rolls are alike shares one set of margin weights.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from operator import itemgetter
from typing import Any

import numpy as np

from firefight.core.odds import OddsReport
from firefight.dice import Depth, DiceSource, Dist, Weighted, enumerate_outcomes
from firefight.rulesets.dragonwarriors2.attack import Bout, judge_contest
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
        self.margins: dict[tuple[int, int], _Kept] = {}

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
    #: The weights read the same backwards (two rolls alike, one taken from the other): a
    #: product with margin ``lo + k`` is also the one with ``hi - k``, so it is worked out once.
    mirrored: bool

    @classmethod
    def of(cls, d: Dist) -> _Margins:
        listed = [int(x) for x in d.weights.tolist()]
        w = np.array(listed, dtype=object)
        shares = np.array([x / d.total for x in listed], dtype=np.float64)
        cum = np.concatenate([[0.0], np.cumsum(shares)])
        mirrored = listed == listed[::-1]
        return cls(d.lo, w, [float(x) for x in cum], d.total, shares, mirrored)

    def add_window(self, acc: np.ndarray[Any, Any], at: int, w: int, i: int, j: int) -> None:
        """Add ``w`` times the weights ``i`` to ``j - 1`` into ``acc`` from ``at + i`` on; on
        mirrored weights each product is computed once for margin ``k`` and its mirror."""
        if i >= j:
            return
        weights = self.weights
        if not self.mirrored:
            acc[at + i : at + j] += w * weights[i:j]
            return
        size = len(weights)
        half = (size + 1) // 2  # k and size - 1 - k share the product of the lower of the two
        upto, since = min(j, half), max(i, half)  # k below upto: their own; k from since: mirrored
        own, flipped = i < half, j > half
        a = min(i if own else size, size - j if flipped else size)
        b = max(upto if own else 0, size - since if flipped else 0)
        products = w * weights[a:b]
        if own:
            acc[at + i : at + upto] += products[i - a : upto - a]
        if flipped:
            acc[at + since : at + j] += products[size - j - a : size - since - a][::-1]

    def windows(
        self, shares: np.ndarray[Any, Any], eps: float
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Each share's index range of the weights whose two tails each hold less than
        ``eps / 2`` of the whole (in shares of the state): its tails are cut."""
        last = len(self.cumulative) - 1
        if eps <= 0:
            starts = np.zeros(len(shares), dtype=np.int64)
            stops = np.full(len(shares), last, dtype=np.int64)
        else:
            cum = np.array(self.cumulative)
            with np.errstate(divide="ignore"):
                cut = eps / shares / 2
            starts = np.maximum(np.searchsorted(cum, cut, side="left") - 1, 0)
            stops = np.minimum(np.searchsorted(cum, cum[-1] - cut, side="right"), last)
        dead = shares <= 0
        starts[dead] = 0
        stops[dead] = 0
        return starts, stops


#: A contest's margins with the attacking and defending roll distributions they come from.
_Kept = tuple[Dist, Dist | None, _Margins]

Terminal = tuple[str, int]  # ("defender" | "attacker" | "none", wounds)

#: One level of a walk: its factor of the denominator, its terminal weights by terminal id, and
#: the ids it reached in order.
_Level = tuple[int, np.ndarray[Any, Any], np.ndarray[Any, Any]]
#: A margin whose verdict is no riposte, in :class:`Verdicts`' next-score tables.
_NO_RIPOSTE = -(2**62)


@dataclass(frozen=True)
class ChainOdds:
    """Terminal weights of a chain over ``total``; ``contests`` counts contests run."""

    terminals: dict[Terminal, int]
    contests: dict[int, int]
    total: int


@dataclass
class Verdicts:
    """:func:`.attack.judge_contest`'s verdicts per kind of level, as arrays over a range of
    margins: a level's margins map to next Attack scores and terminals in a few array operations,
    and each margin is judged once a kind (shared by the walks of one exchange)."""

    #: Terminals by id, in the order they were first judged.
    terminals: list[Terminal] = field(default_factory=list)
    ids: dict[Terminal, int] = field(default_factory=dict)
    #: Level key -> (first margin, next score or _NO_RIPOSTE, terminal id or -1), per margin.
    tables: dict[object, tuple[int, np.ndarray[Any, Any], np.ndarray[Any, Any]]] = field(
        default_factory=dict
    )

    def table(
        self, bout: Bout, level: int, key: object, lo: int, hi: int
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Next scores and terminal ids of margins ``lo`` to ``hi - 1`` at ``level``."""
        found = self.tables.get(key)
        if found is None:
            found = (lo, *self._judge(bout, level, lo, hi))
        else:
            a, nxt, end = found
            b = a + len(nxt)
            if lo < a or hi > b:
                head = self._judge(bout, level, lo, a) if lo < a else (nxt[:0], end[:0])
                tail = self._judge(bout, level, b, hi) if hi > b else (nxt[:0], end[:0])
                found = (
                    min(lo, a),
                    np.concatenate([head[0], nxt, tail[0]]),
                    np.concatenate([head[1], end, tail[1]]),
                )
        self.tables[key] = found
        first, nxt, end = found
        return nxt[lo - first : hi - first], end[lo - first : hi - first]

    def _judge(
        self, bout: Bout, level: int, lo: int, hi: int
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        nxt = np.full(hi - lo, _NO_RIPOSTE, dtype=np.int64)
        end = np.full(hi - lo, -1, dtype=np.int64)
        for k, margin in enumerate(range(lo, hi)):
            step = judge_contest(bout, level, margin, explain=False)
            if step.kind == "riposte":
                nxt[k] = step.next_score
                continue
            term: Terminal = (step.victim or "none", step.wounds)
            if term not in self.ids:
                self.ids[term] = len(self.terminals)
                self.terminals.append(term)
            end[k] = self.ids[term]
        return nxt, end


def chain_odds(
    bout: Bout,
    rolls: RollDists,
    eps: float,
    *,
    floats: bool = False,
    judged: Verdicts | None = None,
) -> ChainOdds:
    """Exact weights of how the attack and its riposte chain end (D04, D05, D08, D09).

    ``floats``: the same walk on float shares (weights over a total of 1), for a quick estimate
    of the mass it leaves out; its windows and depths are those of the exact walk up to rounding.
    ``judged``: the verdicts of :func:`.attack.judge_contest`, shared by the walks of one
    exchange (the float walk judges most margins the exact walk meets).
    """
    score0, _ = bout.opening_attack()
    scores = np.array([score0], dtype=np.int64)
    weights: list[Any] = [1.0 if floats else 1]  # exact ints (float shares in the estimate)
    den = 1
    per_level: list[_Level] = []
    uses_choice = "choose" in (bout.attacker.policy.rule, bout.defender.policy.rule)
    verdicts = Verdicts() if judged is None else judged
    margins: dict[tuple[int, int], _Kept] = getattr(rolls, "margins", {})
    for level in range(bout.options.max_chain):
        att, dfn, _ = bout.sides(level)
        defence, _ = bout.defence_at(level)
        a_role = "attack" if level == 0 else ("riposte" if level == 1 else "counter-riposte")
        share = sum(weights) / den
        depth = next((d for d, cost in _DEPTHS if cost * share <= 5 * eps), ROLL_DEPTH)
        # by the roll distributions themselves: rolls alike in every role (no double-six hook)
        # give every level the same margins, worked out once
        za = rolls(att.name, a_role, depth)
        zd = rolls(dfn.name, "defence", depth) if bout.defence_rolled(level) else None
        found = margins.get((id(za), id(zd)))
        if found is None or found[0] is not za or found[1] is not zd:  # an id may be reused
            found = (za, zd, _Margins.of(za if zd is None else za - zd))
            margins[(id(za), id(zd))] = found
        mz = found[2]
        # margin = score - defence + roll difference; gather weights by margin first
        low = int(scores.min())
        base = low - defence + mz.lo
        size = int(scores.max()) - low + len(mz.weights)
        at = scores - low
        if floats:
            held = np.array(weights)
            starts, stops = mz.windows(held, eps)
            acc = _float_level(mz.shares, held, at, starts, stops, size)
        else:
            starts, stops = mz.windows(np.array([w / den for w in weights]), eps)
            acc = np.zeros(size, dtype=object)
            for o, w, i, j in zip(
                at.tolist(), weights, starts.tolist(), stops.tolist(), strict=True
            ):
                mz.add_window(acc, o, w, i, j)
        level_key: object = level if uses_choice else (level == 0, level % 2)
        reached = np.flatnonzero(acc != 0)
        first = int(reached[0]) if len(reached) else 0
        last = int(reached[-1]) + 1 if len(reached) else 0
        acc = acc[first:last]  # only margins the level reaches are judged
        nxt, end = verdicts.table(bout, level, level_key, base + first, base + last)
        live = acc != 0
        going = np.flatnonzero(live & (nxt != _NO_RIPOSTE))
        ending = np.flatnonzero(live & (end >= 0))
        ids = end[ending]
        ends = np.zeros(len(verdicts.terminals), dtype=np.float64 if floats else object)
        np.add.at(ends, ids, acc[ending])
        factor = 1 if floats else mz.total
        den *= factor
        per_level.append((factor, ends, ids))
        scores, weights = _merge(nxt[going], acc[going].tolist())
        if not weights:
            break
    return _totals(per_level, verdicts.terminals, floats)


def _float_level(
    shares: np.ndarray[Any, Any],
    weights: np.ndarray[Any, Any],
    at: np.ndarray[Any, Any],
    starts: np.ndarray[Any, Any],
    stops: np.ndarray[Any, Any],
    size: int,
) -> np.ndarray[Any, Any]:
    """One level of the float walk in array operations: each state's window of the margin
    shares times its weight, added up by margin in the order the states come (the exact walk's
    order, so the sums round alike)."""
    live = starts < stops
    if not live.any():
        return np.zeros(size)
    k = np.arange(int(starts[live].min()), int(stops[live].max()))
    inside = (k >= starts[:, None]) & (k < stops[:, None])
    terms = np.where(inside, weights[:, None] * shares[k][None, :], 0.0)
    return np.bincount((at[:, None] + k).ravel(), weights=terms.ravel(), minlength=size)


def _merge(
    scores: np.ndarray[Any, Any], weights: list[Any]
) -> tuple[np.ndarray[Any, Any], list[Any]]:
    """The next level's states: riposte margins give distinct scores (``won_by`` and a fixed
    bonus), so they are the states as they come; equal scores are added up, first come first."""
    listed = scores.tolist()
    if len(set(listed)) == len(listed):
        return scores, weights
    merged: dict[int, Any] = {}
    for s, w in zip(listed, weights, strict=True):
        merged[s] = merged.get(s, 0) + w
    return np.array(list(merged), dtype=np.int64), list(merged.values())


def _totals(per_level: list[_Level], names: list[Terminal], floats: bool) -> ChainOdds:
    """Every level's terminal weights over the last level's denominator, summed, and the
    weight of each chain length; terminals in the order the walk first reached them."""
    parts: list[tuple[np.ndarray[Any, Any], int]] = []
    order: dict[int, None] = {}
    for factor, ends, ids in per_level:
        order.update(dict.fromkeys(ids.tolist()))
        full = np.zeros(len(names), dtype=ends.dtype)
        full[: len(ends)] = ends
        parts.append((full, factor))
    if floats:  # factors of 1: added level by level, in order (no halves to round apart)
        sums = parts[0][0]
        for full, _ in parts[1:]:
            sums = sums + full
        total = 1
    else:
        sums, total = _fold(parts)
    lengths: dict[int, Any] = {}
    scale = 1
    for n in range(len(per_level), 0, -1):
        full, factor = parts[n - 1]
        if len(per_level[n - 1][2]):
            lengths[n] = sum(full.tolist()) * scale
        scale *= factor
    held = sums.tolist()  # Python ints (floats in the estimate)
    terminals = {names[i]: held[i] for i in order}
    return ChainOdds(terminals, dict(sorted(lengths.items())), total)


def _fold(parts: list[tuple[np.ndarray[Any, Any], int]]) -> tuple[np.ndarray[Any, Any], int]:
    """``sum(E_n * t_(n+1) * ... * t_last)`` and ``t_1 * ... * t_last`` of the parts (E_n, t_n),
    by halves: few products of long integers instead of one per level and terminal. The
    factors are powers of 6 (a die's faces), so their powers of 2 are shifts."""
    if len(parts) == 1:
        return parts[0]
    mid = len(parts) // 2
    (left, p), (right, q) = _fold(parts[:mid]), _fold(parts[mid:])
    twos = (q & -q).bit_length() - 1
    return ((left * (q >> twos)) << twos) + right, p * q


#: How far the float estimate must be past the tolerance before an exact walk is skipped: far
#: more than rounding or a window that rounding tips (one tail, at most ``eps``, 1/2000 of it).
_SURE = 1.05
#: Tolerances too small for a float estimate of the mass left out to be trusted.
_FLOAT_FLOOR = 1e-11


def _surely_too_loose(
    bout: Bout, rolls: RollDists, eps: float, judged: Verdicts | None = None
) -> bool:
    """True when the float walk leaves out clearly more than ``odds_tolerance``: the exact walk at
    this ``eps`` would be tightened anyway, so it need not run (the answer is unchanged)."""
    tol = bout.options.odds_tolerance
    if tol < _FLOAT_FLOOR:
        return False
    chain = chain_odds(bout, rolls, eps, floats=True, judged=judged)
    return bool(1 - math.fsum(chain.terminals.values()) > tol * _SURE)


#: Chains the riposte policies end within this many contests skip the float walk: their exact
#: walk is short, so the float walk costs about as much as the exact walk it might save.
_SHORT_CHAIN = 6
#: A margin won by more than any roll can give (the riposte policies ask only "at least").
_ANY_MARGIN = 10**9


def _short_chain(bout: Bout) -> bool:
    """True when the riposte policies end the chain within :data:`_SHORT_CHAIN` contests: at
    some level its defender will not riposte whatever he wins by (no table choice left, a
    choice of no, "never"), as :meth:`.gear.RipostePolicy.decide` answers for that chance."""
    for level in range(min(_SHORT_CHAIN, bout.options.max_chain)):
        _, dfn, _ = bout.sides(level)
        riposte, _ = dfn.policy.decide(_ANY_MARGIN, bout.choice_index(level))
        if not riposte:
            return True
    return False


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
    judged = Verdicts()
    if not fixed and not _short_chain(bout) and _surely_too_loose(bout, rolls, eps, judged):
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
    # one pass a marginal (hundreds of outcomes), each share a fraction once
    kinds = w.map(itemgetter(0)).probabilities()
    statuses = {idx: w.map(itemgetter(idx)).probabilities() for idx in (3, 4)}
    zero = Fraction(0)
    p_hit = kinds.get("defender wounded", zero)
    outcomes = {
        f"{d} wounded": p_hit,
        f"{a} wounded by a riposte": kinds.get("attacker wounded", zero),
        "no wound": kinds.get("no wound", zero),
    }
    probs: dict[str, Fraction] = {}
    for role, idx in (("defender", 3), ("attacker", 4)):
        for status in ("stunned", "knocked out", "dead"):
            key = f"p_{role}_{status.replace(' ', '_')}"
            probs[key] = statuses[idx].get(status, zero)
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
            "defender_status": _status_table(statuses[3]),
            "attacker_status": _status_table(statuses[4]),
        },
        probabilities=probs,
        truncated_mass=w.truncated_mass,
        notes=tuple(notes),
    )


def _status_table(shares: dict[str, Fraction]) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for status in ("unhurt", "wounded", "stunned", "knocked out", "dead"):
        p = shares.get(status)
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
