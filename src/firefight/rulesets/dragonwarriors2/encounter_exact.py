"""Exact tables for the encounter's derived dice requests, from the rules' own pieces.

A plus-minus roll has 213 distinct results at the engine's depth, so a contest replayed path by
path is 45,369 paths and a round's initiative 213^n. An encounter step therefore asks for each
sub-rule as one derived request (``dice.derive(..., exact=table)``): the contest's roll
difference, the injury checks' verdict, the initiative order. Each table is computed from the
exact distribution of :func:`.contests.plus_minus` (the function resolve calls) with the same pure
decisions (:func:`.injury.judge_death`, :func:`.injury.judge_stun`, the sort of
:func:`.fight.roll_initiative`), memoised across enumerations. Tests hold every table to the
path-by-path replay of the sub-rule, fraction for fraction.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from itertools import permutations

from firefight.dice import DiceSource, Weighted, enumerate_outcomes
from firefight.rulesets.dragonwarriors2.contests import bonus_hook, plus_minus
from firefight.rulesets.dragonwarriors2.house import DragonWarriors2House
from firefight.rulesets.dragonwarriors2.injury import death_check_due, judge_death, judge_stun
from firefight.rulesets.dragonwarriors2.models import Options

#: Most combatants whose initiative order gets an exact table (n! orders are summed); beyond
#: it the derived request is enumerated path by path, which only an exact kernel would ask for.
MAX_EXACT_INITIATIVE = 5


@lru_cache(maxsize=8)
def roll_weights(bonus: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """(result, weight) pairs of one plus-minus roll with the double-six bonus, and the total."""
    hook = bonus_hook(bonus)

    def one(d: DiceSource) -> int:
        return plus_minus(d, "", "", hook)

    w = enumerate_outcomes(one)
    return tuple(sorted(w.items())), w.total


@lru_cache(maxsize=16)
def contest_table(bonus: int, rolled: bool) -> Weighted[int]:
    """The attacker's roll minus the defender's (0 for a fixed difficulty), exactly."""
    pairs, total = roll_weights(bonus)
    if not rolled:
        return Weighted(dict(pairs), total)
    out: dict[int, int] = {}
    for a, wa in pairs:
        for b, wb in pairs:
            out[a - b] = out.get(a - b, 0) + wa * wb
    return Weighted(out, total * total)


@lru_cache(maxsize=4096)
def injury_table(
    toughness: int, before: int, new: int, options: Options, house: DragonWarriors2House, bonus: int
) -> Weighted[str]:
    """The verdict of :func:`.injury.injure`'s checks: dead, knocked out, stunned or wounded."""
    pairs, total = roll_weights(bonus)
    after = before + new
    stun = dict(_stun_weights(toughness, after, house, bonus))
    if not death_check_due(before, toughness):
        return Weighted(stun, total)
    survive = _survive_weight(toughness, after, options, bonus)
    die = sum(w for _, w in pairs) - survive
    out = {status: survive * w for status, w in stun.items()}
    out["dead"] = die * total
    return Weighted(out, total * total)


#: Distances (Toughness + roll - Wounds) over which the stun check's verdicts are kept as runs.
_SPAN = 1024


@lru_cache(maxsize=4096)
def _stun_weights(
    toughness: int, after: int, house: DragonWarriors2House, bonus: int
) -> tuple[tuple[str, int], ...]:
    """The stun check's verdicts (D06) at ``after`` wounds. A passive check depends only on how
    far Toughness + roll is from Wounds, so :func:`.injury.judge_stun` is asked once per distance
    (:func:`_stun_runs`) and each run of equal verdicts adds up its rolls' weights at once."""
    pairs = roll_weights(bonus)[0]
    shift = toughness - after
    stun: dict[str, int] = {}
    if pairs[0][0] + shift >= -_SPAN and pairs[-1][0] + shift <= _SPAN:
        values, prefix = _roll_prefix(bonus)
        for first, last, status in _stun_runs(house):
            a = bisect_left(values, first - shift)
            b = bisect_right(values, last - shift)
            if a < b:
                stun[status] = stun.get(status, 0) + prefix[b] - prefix[a]
        return tuple(stun.items())
    for roll, w in pairs:  # pragma: no cover - wounds hundreds past Toughness
        status = judge_stun(house, toughness, after, roll)[0]
        stun[status] = stun.get(status, 0) + w
    return tuple(stun.items())


@lru_cache(maxsize=16)
def _stun_runs(house: DragonWarriors2House) -> tuple[tuple[int, int, str], ...]:
    """(first distance, last distance, verdict) runs of the stun check over +-:data:`_SPAN`."""
    runs: list[tuple[int, int, str]] = []
    for dist in range(-_SPAN, _SPAN + 1):
        status = judge_stun(house, dist, 0, 0)[0]  # Toughness + roll = dist against 0 Wounds
        if runs and runs[-1][2] == status:
            runs[-1] = (runs[-1][0], dist, status)
        else:
            runs.append((dist, dist, status))
    return tuple(runs)


@lru_cache(maxsize=8)
def _roll_prefix(bonus: int) -> tuple[list[int], list[int]]:
    """A plus-minus roll's results in order and the prefix sums of their weights."""
    values, prefix = [], [0]
    for roll, w in roll_weights(bonus)[0]:
        values.append(roll)
        prefix.append(prefix[-1] + w)
    return values, prefix


@lru_cache(maxsize=4096)
def _survive_weight(toughness: int, after: int, options: Options, bonus: int) -> int:
    """Weight of the rolls that pass the death check (D07) at ``after`` wounds."""
    pairs = roll_weights(bonus)[0]
    return sum(w for roll, w in pairs if judge_death(options, toughness, after, roll)[0])


@lru_cache(maxsize=256)
def initiative_table(
    fighters: tuple[tuple[str, int, int], ...], bonus: int
) -> Weighted[tuple[str, ...]] | None:
    """Exact distribution of the initiative order of ``(name, reflexes, armour)`` in file order.

    Order as :func:`.fight.roll_initiative` sorts: higher total first, then higher Reflexes,
    then file order; so each combatant's result maps to a distinct rank key and an order's
    weight is a chain of prefix sums. None beyond :data:`MAX_EXACT_INITIATIVE` combatants.
    """
    n = len(fighters)
    if n > MAX_EXACT_INITIATIVE:
        return None
    pairs, total = roll_weights(bonus)
    keys: set[tuple[int, int, int]] = set()
    per: list[dict[tuple[int, int, int], int]] = []
    for i, (_, reflexes, armour) in enumerate(fighters):
        d = {(reflexes + r - armour, reflexes, -i): w for r, w in pairs}
        per.append(d)
        keys.update(d)
    ranked = sorted(keys)  # ascending: the first acts last
    weights = [[d.get(k, 0) for k in ranked] for d in per]
    out: dict[tuple[str, ...], int] = {}
    for perm in permutations(range(n)):
        # perm[0] acts first: h over ranks for the last, then each earlier one above it
        h = weights[perm[-1]]
        for j in reversed(perm[:-1]):
            below = 0
            nxt = []
            for x, w in zip(h, weights[j], strict=True):
                nxt.append(w * below)
                below += x
            h = nxt
        p = sum(h)
        if p:
            out[tuple(fighters[i][0] for i in perm)] = p
    return Weighted(out, total**n)
