"""What a batch of fights comes to: win chances with intervals, rounds, who falls, harm.

A :class:`Tally` adds up ended fights, each with a weight: 1 per simulated fight, or the exact
probability of an ending state. The same tally gives the report in both cases, so simulated and
exact answers have one shape (``ci95`` is the Wilson interval for counts, ``[p, p]`` when exact).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from firefight.core.stats import wilson
from firefight.core.turns import FightState, Turns

Weight = int | float | Fraction


@dataclass
class Tally:
    """Weighted counts of fight endings (see the module docstring)."""

    sides: tuple[str, ...]
    names: tuple[str, ...]
    max_rounds: int
    total: Weight = 0
    wins: dict[str, Weight] = field(default_factory=dict)
    draws: Weight = 0
    truncated: Weight = 0
    #: (winner or "" for a draw, rounds) -> weight: "by round r" and the rounds distribution.
    ended_at: dict[tuple[str, int], Weight] = field(default_factory=dict)
    out: dict[str, Weight] = field(default_factory=dict)
    dead: dict[str, Weight] = field(default_factory=dict)
    #: Summed harm dealt by each combatant's steps to the other side, and taken.
    dealt: dict[str, Weight] = field(default_factory=dict)
    taken: dict[str, Weight] = field(default_factory=dict)
    #: (name, round) -> weight of fights in which the combatant fell out of the fight that round.
    fell_at: dict[tuple[str, int], Weight] = field(default_factory=dict)
    #: Exact mode: probability mass still in play at the step limit.
    mass_left: Weight = 0
    #: Exact mode: probability mass the open-ended dice's depth left out (never spread over
    #: the kept outcomes: docs/dice.md).
    truncated_mass: Weight = 0
    #: What the ruleset reports of ended fights (``Turns.reported``) -> weight of fights.
    reported: dict[str, Weight] = field(default_factory=dict)
    #: Stopped by Ctrl-C: the tally holds what was done.
    interrupted: bool = False

    def add(self, turns: Turns, state: FightState, weight: Weight, start: FightState) -> None:
        """One ending state (or ``weight`` fights that ended in it)."""
        self.total += weight
        if state.ending == "truncated":
            self.truncated += weight
        elif state.winner is None:
            self.draws += weight
        else:
            self.wins[state.winner] = self.wins.get(state.winner, 0) + weight
        if state.ending == "terminated":
            key = (state.winner or "", state.round)
            self.ended_at[key] = self.ended_at.get(key, 0) + weight
        before = {c.name: c for c in start.combatants}
        for c in state.combatants:
            if not turns.can_fight(c):
                self.out[c.name] = self.out.get(c.name, 0) + weight
            if turns.is_dead(c):
                self.dead[c.name] = self.dead.get(c.name, 0) + weight
            lost = turns.harm(c) - turns.harm(before[c.name])
            self.taken[c.name] = self.taken.get(c.name, 0) + weight * lost
        for what in turns.reported(state):
            self.reported[what] = self.reported.get(what, 0) + weight

    def add_dealt(self, name: str, amount: Weight) -> None:
        self.dealt[name] = self.dealt.get(name, 0) + amount

    def add_fell(self, name: str, round_: int, weight: Weight) -> None:
        key = (name, round_)
        self.fell_at[key] = self.fell_at.get(key, 0) + weight

    def merge(self, other: Tally) -> None:
        """Add another tally of the same scenario (a chunk done elsewhere)."""
        self.total += other.total
        self.draws += other.draws
        self.truncated += other.truncated
        self.mass_left += other.mass_left
        self.truncated_mass += other.truncated_mass
        self.interrupted = self.interrupted or other.interrupted
        for k, v in other.wins.items():
            self.wins[k] = self.wins.get(k, 0) + v
        for key, v in other.ended_at.items():
            self.ended_at[key] = self.ended_at.get(key, 0) + v
        for key, v in other.fell_at.items():
            self.fell_at[key] = self.fell_at.get(key, 0) + v
        for mine, theirs in (
            (self.out, other.out),
            (self.dead, other.dead),
            (self.dealt, other.dealt),
            (self.taken, other.taken),
            (self.reported, other.reported),
        ):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v


def _p(weight: Weight, total: Weight) -> float:
    return float(weight) / float(total) if total else 0.0


def _share(weight: Weight, total: Weight, exact: bool) -> dict[str, Any]:
    p = _p(weight, total)
    if exact:
        out: dict[str, Any] = {"p": p, "ci95": [p, p]}
        if not weight:
            out["fraction"] = "0"
        elif isinstance(weight, Fraction) and isinstance(total, (int, Fraction)):
            exact_p = Fraction(weight) / Fraction(total)
            if len(str(exact_p.denominator)) <= 40:
                out["fraction"] = f"{exact_p.numerator}/{exact_p.denominator}"
        return out
    lo, hi = wilson(int(weight), int(total))
    return {"p": p, "ci95": [lo, hi]}


def report_json(
    tally: Tally,
    *,
    scenario: str,
    n: int | None,
    seed: int | None,
    exact: bool,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The documented ``simulate --json`` shape (more keys follow the required ones)."""
    # exact: probabilities are of the whole fight (mass still in play and mass the dice's
    # depth left out are reported apart, never spread over the rest)
    t = tally.total + tally.mass_left + tally.truncated_mass if exact else tally.total
    rounds_dist: dict[int, Weight] = {}
    for (_, r), w in tally.ended_at.items():
        rounds_dist[r] = rounds_dist.get(r, 0) + w
    if tally.truncated:
        rounds_dist[tally.max_rounds] = rounds_dist.get(tally.max_rounds, 0) + tally.truncated
    mean_rounds = sum(float(w) * r for r, w in rounds_dist.items()) / float(t) if t else 0.0
    by_round = {}
    for side in tally.sides:
        running = 0.0
        series = []
        for r in range(1, tally.max_rounds + 1):
            running += _p(tally.ended_at.get((side, r), 0), t)
            series.append(running)
        by_round[side] = series
    standing = {}
    for name in tally.names:
        fallen = 0.0
        series = []
        for r in range(1, tally.max_rounds + 1):
            fallen += _p(tally.fell_at.get((name, r), 0), t)
            series.append(1.0 - fallen)
        standing[name] = series
    out: dict[str, Any] = {
        "scenario": scenario,
        "n": n,
        "seed": seed,
        "exact": exact,
        "sides": {s: {"win": _share(tally.wins.get(s, 0), t, exact)} for s in tally.sides},
        "truncated": _share(tally.truncated, t, exact),
        "draw": _share(tally.draws, t, exact),
        "rounds": {
            "mean": mean_rounds,
            "dist": [{"rounds": r, "p": _p(w, t)} for r, w in sorted(rounds_dist.items())],
        },
        "combatants": {
            name: {
                "p_out": _p(tally.out.get(name, 0), t),
                "p_dead": _p(tally.dead.get(name, 0), t),
                "mean_dealt": _p(tally.dealt.get(name, 0), t),
                "mean_taken": _p(tally.taken.get(name, 0), t),
            }
            for name in tally.names
        },
        "by_round": by_round,
        "standing_by_round": standing,
    }
    if tally.reported:
        out["reported"] = {what: _share(w, t, exact) for what, w in sorted(tally.reported.items())}
    if exact:
        out["mass_left"] = float(tally.mass_left)
        out["truncated_mass"] = float(tally.truncated_mass)
    if extra:
        out.update(extra)
    return out
