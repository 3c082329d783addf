"""Every choice of a turn, evaluated in time for the turn and refined while the GM thinks.

For each legal action of the acting combatant, three answers, each exact where it finishes in
the CPU time it is given and an estimate with its 95% interval otherwise:

- **odds** (:class:`OddsWork`): the engine's preview of what the action does now
  (``Engine.preview``: the chance it lands, each combatant out, each condition, expected harm);
- **risk** (:class:`RiskWork`): the chance the actor is hurt before his next turn, the sides'
  policies playing on, so defensive choices (a parry, cover, hunkering) show what they buy;
- **win** (:class:`WinWork`): each side's chance of winning the fight if the action is taken
  now and the policies play on to the end: the chain (:mod:`.horizon`) where the fight is small
  enough, else whole fights by the fast path (``fast.run_from``) with Wilson intervals.

:class:`Evaluation` schedules them: :meth:`~Evaluation.first_answers` gives every action its
first answer within the list's budget (exact where it finishes in its share, else counted from
plays of the same rule code); :meth:`~Evaluation.refine` then spends one slice at a time on the
answer that most needs it (more plays, then the exact answer, each action to a ceiling), in the
order a GM reads the list. All of it stops at once when the state is left (``cancel``).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from firefight.analysis import horizon
from firefight.analysis.budget import Stop, attempt, cpu, limited
from firefight.core.stats import wilson
from firefight.core.turns import Action, FightState, state_to_json
from firefight.dice import SeededDice, Weighted
from firefight.dice.sources import TooManyPaths
from firefight.encounter.engine import ESTIMATE_SEED, Engine, Preview
from firefight.encounter.policies import preview_effect

#: CPU seconds for the first answers of a whole list, by default.
BUDGET = 1.0
#: CPU seconds, by default, of an action's longest exact attempt at its odds, and of the
#: refinement of its risk and of its win chance each.
CEILING = 10.0
#: Plays an estimated preview gathers before the exact answer is tried again.
PLAYS = 1000
#: CPU seconds of one refinement slice (an exact attempt may take longer: it cannot be cut).
SLICE = 0.1
#: The first exact attempt after the plays, and the factor each next one grows by.
FIRST_EXACT, GROWTH = 0.25, 4.0
#: Half-widths of the 95% intervals at which a win chance and a risk are close enough.
WIN_CLOSE, RISK_CLOSE = 0.02, 0.03
#: CPU seconds the chain of a win chance or a risk may take within a first answer, and later.
CHAIN_FIRST, CHAIN_LATER = 0.05, 1.0
#: Most paths of an action's kernel (its after-states, where rollouts start) worth listing.
KERNEL_PATHS = 20_000
#: Paths no exact preview of a refinement is refused for: its time is its limit.
UNLIMITED = 10**12
#: The share of the budget the first answers leave unplanned: what a last check or play may run
#: past its deadline.
MARGIN = 0.03
#: Fights or plays per rollout batch, at least and at most, and the first batch's.
BATCH = (1, 2048)
FIRST_BATCH = 4
#: Most classes of counters (``fast.KernelSampler.classes``) for which fights are played by the
#: fast path: past them its tables cost more than it saves.
FAST_CLASSES = 256
#: Most states a kept sampler may hold before it starts over (a tracker keeps one for a fight).
SAMPLER_KEPT = 200_000


@dataclass
class Shared:
    """What the answers of one engine share: the chain's moves and the fast path's sampler
    (dropped when a stop may have cut it half-way), and the sides' policies. A tracker keeps
    it from one state to the next of the same engine."""

    engine: Engine
    moves: horizon.Moves = field(init=False)
    _sampler: Any = None
    #: Kinds of answer (class names) whose chain ran out of time for one action of the state
    #: evaluated: the others' chains, through the same states, are not tried again.
    hopeless: set[str] = field(default_factory=set)
    #: Whether whole fights go by the fast path (:meth:`sampler`).
    fast: bool = True

    def __post_init__(self) -> None:
        self.moves = horizon.Moves(self.engine)
        self.policies = horizon.policies_of(self.engine)

    def sampler(self) -> Any:
        """The fast path's sampler, or None where the fight's counters split its states into
        more classes than :data:`FAST_CLASSES` (its tables grow with them: a fire team's
        40,000 take seconds and hundreds of megabytes to lay out)."""
        from firefight.analysis.fast import KernelSampler, classes

        if self._sampler is not None and len(self._sampler.states) > SAMPLER_KEPT:
            self._sampler = None  # a long fight's: start over
        if self._sampler is None and self.fast:
            self.fast = classes(self.engine) <= FAST_CLASSES
            self._sampler = KernelSampler(self.engine, start_paths=0) if self.fast else None
        return self._sampler

    def drop_sampler(self) -> None:
        self._sampler = None


class _Work:
    """One answer of one action: the CPU spent on it, and whether it is final."""

    def __init__(self, engine: Engine, state: FightState, action: Action, ceiling: float):
        self.engine = engine
        self.state = state
        self.action = action
        self.ceiling = ceiling
        self.spent = 0.0
        self.done = False

    @property
    def final(self) -> bool:
        return self.done or self.spent >= self.ceiling

    def refine(self) -> None:
        """One slice more of work on the answer (nothing once it is final)."""
        raise NotImplementedError

    def timed(self, work: Callable[[], None]) -> None:
        """``work()``, its CPU (stopped or not) added to :attr:`spent`."""
        start = cpu()
        try:
            work()
        finally:
            self.spent += cpu() - start


class OddsWork(_Work):
    """An action's preview: exact, or counted from plays on seeded dice (the same stream for
    every action of a state, so they compare fairly)."""

    def __init__(self, engine: Engine, state: FightState, action: Action, ceiling: float):
        super().__init__(engine, engine.round_one(state) or state, action, ceiling)
        self.preview: Preview | None = None
        self.counts: Counter[Hashable] = Counter()
        self.rng = np.random.default_rng(ESTIMATE_SEED)
        self.tried = 0.0

    @property
    def exact(self) -> bool:
        return self.preview is not None and self.preview.exact

    def first(self, seconds: float) -> None:
        self.timed(lambda: self._exact(seconds))

    def more(self, seconds: float) -> None:
        """Plays for ``seconds`` (an estimate), if not exact."""
        if not self.exact:
            self.timed(lambda: self._plays(seconds))

    @property
    def final(self) -> bool:
        """Exact, or its exact answer tried for the whole ceiling in vain (no ceiling: the
        first answer is final)."""
        return self.done or self.ceiling <= 0

    def refine(self) -> None:
        """More plays up to :data:`PLAYS`, then exact attempts of growing length, the last of
        the whole ceiling: an exact answer that takes up to the ceiling is found."""
        if self.final:
            return
        if sum(self.counts.values()) < PLAYS:
            self.more(SLICE)
            return
        cap = min(max(self.tried * GROWTH, FIRST_EXACT), self.ceiling)
        self.timed(lambda: self._exact(cap))
        if not self.exact and cap >= self.ceiling:
            self.done = True

    def _exact(self, seconds: float) -> None:
        self.tried = max(self.tried, seconds)
        found = attempt(
            seconds,
            lambda: self.engine.preview(self.state, self.action, max_paths=UNLIMITED),
        )
        if found is not None and found.exact:
            self.preview, self.done = found, True

    def _plays(self, seconds: float) -> None:
        """Plays for ``seconds``; the first play of all whatever its time (a first answer)."""
        engine, state, action = self.engine, self.state, self.action
        if not self.counts:
            self.counts[engine.play(state, action, SeededDice(self.rng))] += 1
        try:
            with limited(seconds) as limit:
                while limit.left() > 0:
                    self.counts[engine.play(state, action, SeededDice(self.rng))] += 1
        except Stop as stop:
            if stop.cancelled:
                raise
        if self.counts:
            plays = sum(self.counts.values())
            note = (
                f"estimated from {plays:,} play{'s' if plays > 1 else ''} on seeded dice, refining"
            )
            self.preview = engine.estimated(state, action, self.counts, note)


class _AfterWork(_Work):
    """An answer about what follows the action (risk, win): the states it leaves, exactly
    where its kernel is small (a chain's start, and where rollouts start), else each rollout
    steps it on its own dice; the chain tried first, then fights counted."""

    #: The chain's stopping rule and the answer it counts.
    close = WIN_CLOSE

    def __init__(self, shared: Shared, state: FightState, action: Action, ceiling: float):
        super().__init__(shared.engine, state, action, ceiling)
        self.shared = shared
        self.kernel: Weighted[FightState] | None = None
        self.kernel_refused = False
        self.chain_tried = 0.0
        self.chain_refused = False
        #: The chain's answer (answer -> probability), once it finished.
        self.chained: dict[Hashable, float] | None = None
        self.counts: Counter[Hashable] = Counter()
        self.cost = 0.0  # CPU per fight of the last batch
        self.rng = np.random.default_rng([ESTIMATE_SEED, self.seed_kind])

    seed_kind = 0

    @property
    def runs(self) -> int:
        return sum(self.counts.values())

    @property
    def exact(self) -> bool:
        return self.chained is not None

    def stop_rule(self) -> horizon.Stopping:
        raise NotImplementedError

    def half_width(self) -> float:
        """The widest 95% half-width of the counted answers (1 with none)."""
        raise NotImplementedError

    def first(self, seconds: float) -> None:
        start = cpu()
        self.timed(lambda: self._chain(min(seconds, CHAIN_FIRST)))
        left = seconds - (cpu() - start)
        if not self.exact and left > 0:
            self.timed(lambda: self._batch(left))

    def more(self, seconds: float) -> None:
        """Fights counted for about ``seconds``, if not exact."""
        if not self.exact:
            self.timed(lambda: self._batch(seconds))

    def refine(self) -> None:
        if self.final:
            return
        if not self.exact and not self.runs:
            self.first(SLICE)
        elif self._chain_worth_trying():
            cap = min(CHAIN_LATER, self.ceiling / 4, self.ceiling - self.spent)
            self.timed(lambda: self._chain(cap))
            if not self.exact and not self.chain_refused:
                # out of time: the other actions' chains (through the same states) would be too
                self.shared.hopeless.add(type(self).__name__)
        else:
            self.timed(lambda: self._batch(SLICE))
        if self.runs and self.half_width() <= self.close:
            self.done = True

    def _chain_worth_trying(self) -> bool:
        return (
            not self.chain_refused
            and self.chain_tried < CHAIN_LATER
            and type(self).__name__ not in self.shared.hopeless
        )

    def _after(self) -> Weighted[FightState] | None:
        """The action's kernel, if small (tried once)."""
        if self.kernel is None and not self.kernel_refused:
            try:
                self.kernel = self.engine.kernel(self.state, self.action, max_paths=KERNEL_PATHS)
            except TooManyPaths:
                self.kernel_refused = True
        return self.kernel

    def _chain(self, seconds: float) -> None:
        self.chain_tried = max(self.chain_tried, seconds)

        def run() -> tuple[dict[Hashable, float], float] | None:
            after = self._after()
            if after is None:
                return None
            start = {s: w / after.total for s, w in after.items()}
            return horizon.absorb(self.shared.moves, start, self.action.actor, self.stop_rule())

        try:
            found = attempt(seconds, run)
        except horizon.TooBig:
            self.chain_refused = True
            return
        if self.kernel_refused:
            self.chain_refused = True
        if found is not None and found[1] < 1e-9:
            self.chained, self.done = found[0], True

    def _starts(self, n: int) -> list[FightState]:
        """``n`` states the action leaves: drawn from its kernel, or stepped on seeded dice."""
        after = self.kernel
        if after is not None:
            from firefight.core.sampling import AliasTable

            table = AliasTable.build(after)
            return [table.outcomes[i] for i in table.sample(n, self.rng).tolist()]
        dice = SeededDice(self.rng)
        return [self.engine.step(self.state, self.action, dice) for _ in range(n)]

    def _size(self, seconds: float) -> int:
        """Fights that fit in ``seconds`` at the last batch's cost per fight (a first batch:
        :data:`FIRST_BATCH`, a big fight's take tens of milliseconds each)."""
        low, high = BATCH
        if self.cost <= 0:
            return FIRST_BATCH
        return max(low, min(high, int(seconds / self.cost)))

    def _batch(self, seconds: float) -> None:
        """Fights counted for about ``seconds`` (a batch sized by the last one's cost)."""
        n = self._size(seconds)
        start = cpu()
        self._count(n)
        self.cost = (cpu() - start) / n

    def _count(self, n: int) -> None:
        raise NotImplementedError


class WinWork(_AfterWork):
    """Each side's chance of winning if the action is taken now and the policies play on."""

    seed_kind = 1

    def stop_rule(self) -> horizon.Stopping:
        return horizon.winner

    def half_width(self) -> float:
        n = self.runs
        if not n:
            return 1.0
        widest = 0.0
        for side in self.sides():
            lo, hi = wilson(self.counts.get(side, 0), n)
            widest = max(widest, (hi - lo) / 2)
        return widest

    def sides(self) -> list[str]:
        return [s.name for s in self.engine.scenario.spec.sides]

    def _count(self, n: int) -> None:
        from firefight.analysis.fast import run_from

        starts = self._starts(n)
        sampler = self.shared.sampler()
        if sampler is None:  # fights whose fast path costs more than it saves: one by one
            engine, actor, policies = self.engine, self.action.actor, self.shared.policies
            for state in starts:
                self.counts[
                    horizon.play_until(engine, state, actor, horizon.winner, self.rng, policies)
                ] += 1
            return
        try:
            tally = run_from(sampler, starts, self.rng)
        except BaseException:
            self.shared.drop_sampler()  # a stop may have cut it half-way through a transition
            raise
        for side, wins in tally.wins.items():
            self.counts[side] += int(wins)
        self.counts[""] += int(tally.draws)
        self.counts["unfinished"] += int(tally.truncated)

    def to_json(self) -> dict[str, Any] | None:
        """``p`` and ``ci95`` per side, ``exact``, ``fights`` (0 from the chain); None: none."""
        sides = self.sides()
        if self.chained is not None:
            p = {s: self.chained.get(s, 0.0) for s in sides}
            return {"p": p, "ci95": {s: [v, v] for s, v in p.items()}, "exact": True, "fights": 0}
        n = self.runs
        if not n:
            return None
        return {
            "p": {s: self.counts.get(s, 0) / n for s in sides},
            "ci95": {s: list(wilson(self.counts.get(s, 0), n)) for s in sides},
            "exact": False,
            "fights": n,
        }


class RiskWork(_AfterWork):
    """The chance the actor is hurt (harm taken, or out of the fight) before his next turn."""

    close = RISK_CLOSE
    seed_kind = 2

    def __init__(self, shared: Shared, state: FightState, action: Action, ceiling: float):
        super().__init__(shared, state, action, ceiling)
        self._rule = horizon.hurt_before_next_turn(self.engine, state, action.actor)

    def stop_rule(self) -> horizon.Stopping:
        return self._rule

    def half_width(self) -> float:
        lo, hi = wilson(self.counts.get("hurt", 0), self.runs)
        return (hi - lo) / 2

    def _count(self, n: int) -> None:
        engine, actor, policies = self.engine, self.action.actor, self.shared.policies
        for state in self._starts(n):
            answer = horizon.play_until(engine, state, actor, self._rule, self.rng, policies)
            self.counts[answer] += 1

    def p(self) -> tuple[float, float, float] | None:
        """The chance and its 95% interval, or None: not known yet."""
        if self.chained is not None:
            p = self.chained.get("hurt", 0.0)
            return p, p, p
        n = self.runs
        if not n:
            return None
        k = self.counts.get("hurt", 0)
        lo, hi = wilson(k, n)
        return k / n, lo, hi

    def to_json(self) -> dict[str, Any] | None:
        found = self.p()
        if found is None:
            return None
        p, lo, hi = found
        return {"p": p, "ci95": [lo, hi], "exact": self.exact, "plays": self.runs}


@dataclass
class Choice:
    """One action and its answers."""

    action: Action
    odds: OddsWork | None
    risk: RiskWork | None
    win: WinWork | None

    def works(self) -> list[_Work]:
        return [w for w in (self.odds, self.risk, self.win) if w is not None]


class Evaluation:
    """The acting combatant's choices in ``state``, each with its odds, risk and win chance as
    asked (``odds``, ``risk``, ``win``), under a CPU ``budget`` for the first answers of the
    whole list and a ``ceiling`` per answer; ``cancel`` stops it all at once (the state was
    left: :class:`~firefight.analysis.budget.Stop` raised from whatever runs)."""

    def __init__(
        self,
        engine: Engine,
        state: FightState,
        *,
        budget: float = BUDGET,
        ceiling: float = CEILING,
        odds: bool = True,
        risk: bool = True,
        win: bool = False,
        cancel: threading.Event | None = None,
        shared: Shared | None = None,
    ) -> None:
        self.engine = engine
        self.state = state
        self.budget = budget
        self.ceiling = ceiling
        self.cancel = cancel or threading.Event()
        self.shared = shared if shared is not None and shared.engine is engine else Shared(engine)
        self.shared.hopeless.clear()  # a new state: its chains may be smaller
        self.actions = engine.legal_actions(state)
        self.choices = [
            Choice(
                a,
                OddsWork(engine, state, a, ceiling) if odds else None,
                RiskWork(self.shared, state, a, ceiling) if risk else None,
                WinWork(self.shared, state, a, ceiling) if win else None,
            )
            for a in self.actions
        ]
        #: Whether every action has its first answer.
        self.answered = False
        #: CPU the first answers took.
        self.first_cpu = 0.0

    # -- the work ------------------------------------------------------------------------------
    def first_answers(self) -> None:
        """Every action's first answer within the budget: its odds (or, without odds, its win
        chance), exact where that finishes in half its share, the rest of the time in plays
        shared among those that did not."""
        start = cpu()
        with limited(None, self.cancel) as limit:
            works: list[Any] = [c.odds or c.win for c in self.choices]
            works = [w for w in works if w is not None]
            deadline = start + self.budget * (1 - MARGIN)
            for i, work in enumerate(works):
                share = (deadline - cpu()) / (len(works) - i)
                work.first(max(share, 0.0) / 2)
            waiting = [w for w in works if not w.exact]
            for i, work in enumerate(waiting):
                share = (deadline - cpu()) / (len(waiting) - i)
                work.more(max(share, 0.0))
            limit.left()  # a cancellation while the last one finished
        self.answered = True
        self.first_cpu = cpu() - start

    def refine(self) -> Action | None:
        """One slice of refinement on the answer that most needs it; the action whose answer
        changed, or None once every answer is final."""
        work = self._next()
        if work is None:
            return None
        with limited(None, self.cancel):
            work.refine()
        return work.action

    def finished(self) -> bool:
        return self._next() is None

    def _next(self) -> _Work | None:
        """The answer to refine next: first every win chance and risk without an answer, then
        the odds not exact, then win chances and risks still wide, each tier in the order the
        GM reads the list, the least refined first."""
        tiers: list[list[_Work]] = [[], [], [], []]
        for c in self.choices:
            for w in c.works():
                if w.final:
                    continue
                fresh = isinstance(w, _AfterWork) and not w.exact and not w.runs
                if fresh:
                    tiers[0 if isinstance(w, WinWork) else 1].append(w)
                elif isinstance(w, OddsWork):
                    tiers[2].append(w)
                else:
                    tiers[3].append(w)
        for tier in tiers:
            if tier:
                return min(tier, key=lambda w: w.spent)
        return None

    # -- the answers ---------------------------------------------------------------------------
    def rows(self) -> list[dict[str, Any]]:
        """Each action's answers so far, as JSON (see :meth:`row`)."""
        same = self._same_odds()
        riskiest = self._riskiest()
        return [self.row(c, same.get(c.action.id), riskiest) for c in self.choices]

    def row(
        self,
        choice: Choice,
        same: tuple[str, str | None] | None = None,
        riskiest: tuple[str, float] | None = None,
    ) -> dict[str, Any]:
        a = choice.action
        out = action_json(a)
        if choice.odds is not None:
            odds = _odds_json(choice.odds)
            if same is not None:
                odds["same_as"], why = same
                if why:
                    odds["same_why"] = why
            if choice.risk is not None:
                risk = choice.risk.to_json()
                if risk is not None:
                    odds["risk"] = risk
                    if riskiest is not None and riskiest[0] != a.id:
                        less = riskiest[1] - risk["p"]
                        odds["defence"] = {"p_less": less, "against": riskiest[0]}
            out["odds"] = odds
        if choice.win is not None:
            out["win"] = choice.win.to_json()
        return out

    def row_of(self, action_id: str) -> dict[str, Any]:
        """The row of one action (its "same odds" and defence read against the whole list)."""
        for row in self.rows():
            if row["id"] == action_id:
                return row
        raise KeyError(action_id)

    def _same_odds(self) -> dict[str, tuple[str, str | None]]:
        """Actions whose exact previews came out the same as an earlier one's, with some effect
        on someone: that one's id and the ruleset's phrase for why (``Turns.alike``)."""
        seen: dict[str, Action] = {}
        out: dict[str, tuple[str, str | None]] = {}
        for c in self.choices:
            odds = c.odds
            if odds is None or not odds.exact or odds.preview is None:
                continue
            found = odds.preview
            if not (found.p_out or found.harm or found.conditions):
                continue  # doing nothing to anyone now: not worth a line
            key = repr(sorted(odds.preview.to_json().items()))
            first = seen.setdefault(key, c.action)
            if first is not c.action:
                out[c.action.id] = (first.id, self.engine.turns.alike(self.state, first, c.action))
        return out

    def _riskiest(self) -> tuple[str, float] | None:
        """The action that leaves the actor most likely hurt before his next turn, and that
        chance (what a defensive choice's value is read against)."""
        best: tuple[str, float] | None = None
        for c in self.choices:
            found = c.risk.p() if c.risk is not None else None
            if found is not None and (best is None or found[0] > best[1]):
                best = (c.action.id, found[0])
        return best

    def progress(self) -> dict[str, Any]:
        """How far along the answers are: actions, exact odds, estimated odds, win chances
        exact or close (within +-2 points), whether refinement goes on."""
        odds = [c.odds for c in self.choices if c.odds is not None]
        wins = [c.win for c in self.choices if c.win is not None]
        out: dict[str, Any] = {
            "actions": len(self.choices),
            "answered": self.answered,
            "refining": self.answered and not self.finished(),
        }
        if odds:
            out["exact"] = sum(o.exact for o in odds)
            out["estimated"] = sum(o.preview is not None and not o.exact for o in odds)
        if wins:
            out["win_exact"] = sum(w.exact for w in wins)
            out["win_close"] = sum(
                not w.exact and w.runs > 0 and w.half_width() <= WIN_CLOSE for w in wins
            )
            out["win_rough"] = sum(not w.exact and w.runs > 0 for w in wins) - out["win_close"]
        return out


def progress_text(progress: dict[str, Any]) -> str:
    """The progress in words: "exact for 31 of 45; the rest estimated, refining"."""
    n = progress["actions"]
    parts = []
    if "exact" in progress:
        exact = progress["exact"]
        if exact == n:
            parts.append(f"exact for all {n}")
        elif exact:
            parts.append(f"exact for {exact} of {n}; the rest estimated")
        else:
            parts.append(f"estimated for all {n}")
    if "win_exact" in progress:
        counts = [
            (progress["win_exact"], "exact"),
            (progress["win_close"], "within 2 points"),
            (progress["win_rough"], "rough"),
        ]
        shown = [f"{k} {what}" for k, what in counts if k]
        parts.append("win chances: " + (", ".join(shown) if shown else "to come"))
    text = "; ".join(parts)
    if not progress["answered"]:
        return text + ", working out the first answers"
    return text + (", refining" if progress["refining"] else "")


def action_json(action: Action) -> dict[str, Any]:
    """An action as a list gives it: ``defensive`` and the ruleset's own ``params`` (weapon,
    mode, region...) let a page group actions by kind and target and choose among them."""
    return {
        "id": action.id,
        "label": action.label,
        "kind": action.kind,
        "target": action.target,
        "actor": action.actor,
        "defensive": action.defensive,
        "params": {key: state_to_json(value) for key, value in action.params},
    }


def _odds_json(work: OddsWork) -> dict[str, Any]:
    """The preview as JSON with its ``effect``, or an empty one not exact while none is
    known."""
    if work.preview is None:
        return {"exact": False, "note": "not worked out yet"}
    out = work.preview.to_json()
    # the aggressive policy's score of it: what a page ranks by before any win chance is known
    out["effect"] = float(preview_effect(work.engine, work.preview, work.action.actor))
    if work.final and not work.exact and "note" in out:
        out["note"] = out["note"].replace(", refining", "")
    return out
