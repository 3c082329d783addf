"""The encounter engine: rounds, the ending, steps on any dice, previews and the exact kernel.

The ruleset's :class:`~firefight.core.turns.Turns` resolves; the engine decides when a round
starts (and that ``max_rounds`` truncates the fight), when the fight is over, and what a step
consumed. One step is: the acting combatant's action, then everything automatic up to the next
decision (the turn passed on, the round's end, the next round's initiative). So a step's faces,
replayed as scripted dice, give the same step again.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from operator import attrgetter
from typing import Any

from firefight.core.stats import wilson
from firefight.core.transcript import Note
from firefight.core.turns import Action, FightState, Stage, Turns, Unread, action_key, evolve
from firefight.dice import DiceSource, Weighted, enumerate_outcomes
from firefight.dice.sources import TooManyPaths, enumerate_counted, gathered
from firefight.encounter.scenario import Scenario
from firefight.errors import InputError

#: Most enumeration paths of one action's exact preview (a graydawn suppression phase with
#: several shooters can reach millions).
PREVIEW_PATHS = 50_000
#: Most step kernels kept by one engine (a round-1 kernel serves its situation in every round).
KERNEL_CACHE = 16_384
#: Plays on seeded dice that estimate a preview refused for too many branches (``estimate``):
#: ~0.5 s of a graydawn volley, a 95% interval about +-3 points wide at 50%.
ESTIMATE_PLAYS = 1000
#: The seed of those plays: the same state and action always show the same estimate, and every
#: action of a state is played on the same stream (fairer to compare than independent ones).
ESTIMATE_SEED = 20_261_128


class TooManyBranches(InputError):
    """An action too big to enumerate exactly; it still resolves on rolling dice."""


@dataclass(frozen=True)
class Preview:
    """Exact odds of one action, read off the distribution of the states it leads to."""

    action: Action
    #: Combatant -> P(out of the fight after the action).
    p_out: dict[str, Fraction]
    #: Combatant -> expected harm added by the action (the ruleset's units).
    harm: dict[str, Fraction]
    #: P(the action changes anybody's state).
    p_effect: Fraction
    truncated_mass: Fraction
    #: False when the action has too many branches to enumerate: the figures are then an
    #: estimate from ``samples`` plays, or (none) nothing is known.
    exact: bool = True
    note: str = ""
    #: Plays on seeded dice the figures were counted from (0: exact, or nothing known).
    samples: int = 0
    #: P(the action changes a combatant of another side than the actor's in what a preview
    #: reads: harm, out of the fight, a condition): the chance it hits, or succeeds at all.
    p_success: Fraction = Fraction(0)
    #: Combatant -> condition -> P(the action leaves it newly so): the ruleset's conditions
    #: (:meth:`Turns.conditions`: stunned, pinned, suppressed, ...) and "dead".
    conditions: dict[str, dict[str, Fraction]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = {
            "exact": self.exact,
            **({"note": self.note} if self.note else {}),
            "p_effect": float(self.p_effect),
            "p_success": float(self.p_success),
            "p_out": {k: float(v) for k, v in self.p_out.items()},
            "conditions": {
                k: {c: float(p) for c, p in v.items()} for k, v in self.conditions.items()
            },
            "expected_harm": {k: float(v) for k, v in self.harm.items()},
            "truncated_mass": float(self.truncated_mass),
        }
        if self.samples:
            out["samples"] = self.samples
            out["ci95"] = {
                "p_effect": self._interval(self.p_effect),
                "p_success": self._interval(self.p_success),
                "p_out": {k: self._interval(v) for k, v in self.p_out.items()},
                "conditions": {
                    k: {c: self._interval(p) for c, p in v.items()}
                    for k, v in self.conditions.items()
                },
            }
        return out

    def _interval(self, p: Fraction) -> list[float]:
        """Wilson's 95% interval of an estimated probability (``p`` is a count over samples)."""
        return list(wilson(int(p * self.samples), self.samples))


class Engine:
    """One scenario's fights: ``start``, ``legal_actions``, ``step``, ``preview``, ``kernel``."""

    def __init__(
        self,
        scenario: Scenario,
        *,
        cache_size: int = 4096,
        share_rounds: bool = True,
        merge_settling: bool = True,
    ) -> None:
        self.scenario = scenario
        self.turns: Turns = scenario.turns
        self.max_rounds = scenario.max_rounds
        self._sides = {c.name: c.side for c in scenario.spec.combatants}
        #: Exact distributions of actions (states, or a preview's combatants), by key.
        self._acts: OrderedDict[Hashable, Weighted[Any]] = OrderedDict()
        self._cache_size = cache_size
        #: Enumerate one kernel for a situation in every round (see :meth:`kernel`); off only to
        #: check that sharing changes nothing.
        self.share_rounds = share_rounds
        #: Settle the states an action leaves by their round-start stand-ins (see
        #: :meth:`settled`); off only to check that merging them changes nothing.
        self.merge_settling = merge_settling
        #: (state, action) -> its kernel and the path budget it was enumerated under.
        self._kernels: OrderedDict[tuple[FightState, Action, bool], _Budgeted] = OrderedDict()
        #: A state an action left (or its round-start stand-in) -> what settling it makes of it.
        self._settled: OrderedDict[FightState, Weighted[FightState]] = OrderedDict()
        #: The state before round 1: what :meth:`masked` sets unread fields to.
        self._first = self.turns.initial()
        #: (combatant index, field names) -> a getter of those fields and their initial values.
        self._initial_fields: dict[tuple[int, tuple[str, ...]], tuple[Any, Any]] = {}

    # -- the fight ---------------------------------------------------------------------------
    def initial(self) -> FightState:
        return self.turns.initial()

    def start(self, dice: DiceSource) -> FightState:
        """The initial state, settled to the first decision (round 1's initiative rolled)."""
        return self.settle(self.turns.initial(), dice)

    def settle(self, state: FightState, dice: DiceSource) -> FightState:
        """Start rounds until someone must decide, or the fight is over."""
        state = self.judge(state)
        while state.ending is None and state.acting is None:
            if state.round >= self.max_rounds:
                return dataclasses.replace(state, ending="truncated", winner=None)
            dice.record(Note(f"round {state.round + 1}"))
            state = self.judge(self.turns.start_round(state, dice))
        return state

    def judge(self, state: FightState) -> FightState:
        """Mark the fight terminated once at most one side can still fight."""
        if state.ending is not None:
            return state
        standing = {c.side for c in state.combatants if self.turns.can_fight(c)}
        if len(standing) <= 1:
            winner = next(iter(standing)) if standing else None
            return dataclasses.replace(state, ending="terminated", winner=winner, acting=None)
        return state

    def legal_actions(self, state: FightState) -> tuple[Action, ...]:
        if state.ending is not None:
            raise InputError(
                f"the fight is over ({state.ending})", tip="undo a step or start a new encounter"
            )
        state.decider()  # settle never leaves a state where nobody decides
        return self.turns.legal_actions(state)

    def find_action(self, state: FightState, action_id: str) -> Action:
        """The legal action with this id, or one line listing the ids there are."""
        actions = self.legal_actions(state)
        key = action_key(action_id)
        for a in actions:
            if a.id == key:
                return a
        ids = ", ".join(a.id for a in actions[:12]) + (" ..." if len(actions) > 12 else "")
        raise InputError(
            f"{state.acting} has no action {action_id!r} now",
            tip=f"legal ids: {ids} (see `firefight encounter actions`)",
        )

    def step(self, state: FightState, action: Action | str, dice: DiceSource) -> FightState:
        """Resolve one action on ``dice`` and settle to the next decision."""
        chosen = self.find_action(state, action) if isinstance(action, str) else action
        return self.settle(self.turns.act(state, chosen, dice), dice)

    # -- exact -------------------------------------------------------------------------------
    def act_distribution(self, state: FightState, action: Action) -> Weighted[FightState]:
        """Every state the action leads to (before the next round starts), exactly; an action
        left in progress is followed through on each decider's first legal action. Refused
        (:class:`TooManyBranches`) past :data:`PREVIEW_PATHS` paths."""
        return self._enumerated(
            (state, action), action, lambda d: self._act_through(state, action, d)
        )

    def _people_distribution(
        self, state: FightState, action: Action, max_paths: int | None = None
    ) -> Weighted[Any]:
        """The combatants after the action, each with the indices of those a staged preview
        knows changed in fields it set aside and the harm it carried apart (mean per index),
        exactly: all a preview reads. By the ruleset's
        parts (:meth:`Turns.preview_stages`) where it gives them, else by
        :meth:`Turns.preview_act` path by path (what only later steps read may be summed out).
        Refused past ``max_paths`` paths (:data:`PREVIEW_PATHS` by default) of the whole
        action either way."""
        max_paths = PREVIEW_PATHS if max_paths is None else max_paths
        key = (state, action, "combatants")
        stages = self.turns.preview_stages(state, action)
        if stages is not None:
            found = self._acts.get(key)
            if found is None:
                found = self._remember(key, self._staged(state, action, stages, max_paths))
            else:
                self._acts.move_to_end(key)
            return found
        return self._enumerated(
            key,
            action,
            lambda d: (self._act_through(state, action, d, preview=True).combatants, _NONE, ()),
            max_paths,
        )

    def _staged(
        self,
        state: FightState,
        action: Action,
        stages: tuple[Stage, ...],
        max_paths: int | None = None,
    ) -> Weighted[Any]:
        """The combatants after ``stages`` (:meth:`Turns.preview_stages`), exactly: each stage
        enumerated once per distinct state the one before left, the states it leads to merged
        (weights over a common denominator), so the work grows with the states met part-way.

        Each state also carries how many paths of the whole action lead to it (its paths times
        the stage's paths from it): once the paths through a stage pass ``max_paths``,
        the action path by path would have walked more, and it is refused as it was then, but
        after the few states that show it rather than after all those paths.

        Harm a state carries apart (:meth:`Turns.preview_carry`) is taken out of it and added
        up beside it (the chance of each path times the harm, exactly), so states that differ
        only there merge; each outcome's key ends with the mean of it per combatant (index,
        mean), which the preview adds to the harm; ``max_paths``: :data:`PREVIEW_PATHS` by
        default."""
        max_paths = PREVIEW_PATHS if max_paths is None else max_paths
        current: dict[Any, tuple[int, int]] = {(state, _NONE): (1, 1)}  # weight, paths
        #: state -> combatant index -> the sum over its paths of chance x harm carried apart
        carried: dict[Any, dict[int, Fraction]] = {}
        total = 1
        last = len(stages) - 1
        #: states the stage before left as they were without dice (its fixed points)
        unmoved: set[Any] = set()
        for i, stage in enumerate(stages):
            runs = _Runs(stage)
            acc: dict[Any, dict[int, int]] = {}
            paths: dict[Any, int] = {}
            carrying: dict[Any, dict[int, Fraction]] = {}
            walked = 0
            again = i > 0 and stage is stages[i - 1]
            left: set[Any] = set()
            for key, (w, n) in current.items():
                s, flagged = key
                # each run of the stage from s stands for n paths of the whole action: past
                # the runs the budget has left for them, it is refused, without running the rest
                runs.start(s, (max_paths - walked) // n)
                try:
                    # a stage is a function of the state and the dice: one that left s as it
                    # was without dice leaves it so again (graydawn's turns, once someone
                    # decides: a dozen parts of a volley's preview run through unchanged)
                    sub = runs.unchanged() if again and key in unmoved else _without_dice(runs)
                    if sub is not None and sub[0][0] is s:
                        left.add(key)
                    if sub is None:
                        found = enumerate_outcomes(runs, max_paths=max_paths)
                        sub, den = list(found.items()), total * found.total
                    else:
                        den = total
                except (TooManyPaths, _OverBudget):
                    raise self._too_many(action, max_paths) from None
                walked += n * runs.count
                before = carried.get(key)
                for raw, x in sub:
                    after, apart = (raw, ()) if raw is s else self._carried_apart(raw)
                    if i == last:
                        out: Any = (self.judge(after).combatants, flagged)
                    elif after is s:
                        out = key
                    else:
                        out = self._set_aside(state, after, flagged)
                    slot = acc.get(out)
                    if slot is None:
                        slot = acc[out] = {}
                    slot[den] = slot.get(den, 0) + w * x
                    paths[out] = paths.get(out, 0) + n * runs.tally[raw]
                    if before or apart:
                        _carry(carrying, out, before, Fraction(x * total, den), apart, w * x, den)
            unmoved = left
            merged = gathered(acc)
            total = merged.total
            current = {out: (x, paths[out]) for out, x in merged.items()}
            carried = carrying
        return Weighted(
            {(*out, _means(carried.get(out), x, total)): x for out, (x, _) in current.items()},
            total,
        )

    def _carried_apart(self, state: FightState) -> tuple[FightState, tuple[Any, ...]]:
        """``state`` without the harm it carries apart (:meth:`Turns.preview_carry`), and it."""
        found = self.turns.preview_carry(state)
        return (state, ()) if found is None else found

    def _set_aside(
        self, start: FightState, state: FightState, flagged: frozenset[int]
    ) -> tuple[FightState, frozenset[int]]:
        """``state`` with the fields the rest of the stages leave alone
        (:meth:`Turns.preview_idle`) given ``start``'s values, and the combatants whose values
        there told them apart from ``start`` (they are changed by the action, whatever the
        rest does): states that differ only there merge. A stand-in the ruleset gives
        (:meth:`Turns.preview_stand_in`) is carried instead of ``state``."""
        state = self.turns.preview_stand_in(state) or state
        idle = self.turns.preview_idle(state)
        if not idle:
            return state, flagged
        people = list(state.combatants)
        changed = False
        for i, names in idle:
            before, now = start.combatants[i], people[i]
            if now is before:
                continue
            read = _getter(names)
            values = read(before)
            if read(now) != values:
                people[i] = evolve(now, **dict(zip(names, values, strict=True)))
                flagged = flagged | {i}
                changed = True
        if not changed:
            return state, flagged
        return evolve(state, combatants=tuple(people)), flagged

    def _too_many(self, action: Action, max_paths: int) -> TooManyBranches:
        return TooManyBranches(
            f"{action.label}: over {max_paths:,} branches, too many to enumerate exactly",
            tip="the action still resolves; only its exact preview is left out",
        )

    def _enumerated(
        self,
        key: Hashable,
        action: Action,
        fn: Callable[[DiceSource], Any],
        max_paths: int | None = None,
    ) -> Weighted[Any]:
        """``fn`` enumerated under ``max_paths`` (:data:`PREVIEW_PATHS` by default), cached by
        ``key``."""
        max_paths = PREVIEW_PATHS if max_paths is None else max_paths
        found = self._acts.get(key)
        if found is None:
            try:
                found = enumerate_outcomes(fn, max_paths=max_paths)
            except TooManyPaths:
                raise self._too_many(action, max_paths) from None
            self._remember(key, found)
        else:
            self._acts.move_to_end(key)
        return found

    def _remember(self, key: Hashable, found: Weighted[Any]) -> Weighted[Any]:
        self._acts[key] = found
        if len(self._acts) > self._cache_size:
            self._acts.popitem(last=False)
        return found

    def _act_through(
        self, state: FightState, action: Action, dice: DiceSource, preview: bool = False
    ) -> FightState:
        """``act`` (``preview_act`` for a preview), and if it only declared (asked no dice) and
        left a decision pending, that decision on its first legal action: a declared attack
        previews the blow it leads to. Only one decision is followed: a riposte chain followed
        on multiplies every contest's branches (140,000 paths for two dragonwarriors2 contests)."""
        counted = _CountingDice(dice)
        act = self.turns.preview_act if preview else self.turns.act
        after = self.judge(act(state, action, counted))
        if (
            counted.asked == 0
            and after.ending is None
            and after.acting is not None
            and self.turns.in_progress(after)
        ):
            after = self.judge(self.turns.act(after, self.turns.legal_actions(after)[0], dice))
        return after

    def kernel(
        self,
        state: FightState,
        action: Action,
        max_paths: int | None = None,
        *,
        staged: bool = True,
    ) -> Weighted[FightState]:
        """The transition kernel: every settled state one step leads to, exactly (past
        ``max_paths`` enumeration paths, :class:`~firefight.dice.sources.TooManyPaths`).

        ``staged`` (the default): the step as its two stages, the action (``Turns.act``) and
        the settling after it (the next round's initiative), each distinct state the action
        leaves settled once for the whole engine (:meth:`settled`), so the paths counted are
        the action's and those of each new settling; the same distribution, in the same order,
        as the step enumerated path by path (``staged=False``, whose paths the fast path's
        budget counts: which kernels it builds, and so its draws, stay as they were).

        Where the ruleset moves states between rounds (:meth:`Turns.shift_rounds`), a state of
        round r takes the kernel of its round-1 twin moved r - 1 rounds on, so a situation is
        enumerated once, not once per round. A moved kernel is used only if none of its paths
        would meet ``max_rounds`` (every next state in round <= ``max_rounds``, none truncated):
        otherwise the state's own kernel is enumerated, so truncation stays exact."""
        twin = self.round_one(state)
        if twin is None or twin is state:
            return self._kernel(state, action, max_paths, staged)
        moved = self._move(self._kernel(twin, action, max_paths, staged), state.round - 1)
        return moved if moved is not None else self._kernel(state, action, max_paths, staged)

    def round_one(self, state: FightState) -> FightState | None:
        """The same situation in round 1 (``state`` itself there), or None: not shared."""
        if state.round == 1:
            return state
        if not self.share_rounds or state.round < 1:
            return None
        return self.turns.shift_rounds(state, 1 - state.round)

    def _move(self, dist: Weighted[FightState], delta: int) -> Weighted[FightState] | None:
        """``dist`` moved ``delta`` rounds on, or None where a path would meet ``max_rounds``."""
        limit = self.max_rounds - delta
        shift = self.turns.shift_rounds
        out: dict[FightState, int] = {}
        for s, w in dist.items():
            if s.round > limit or s.ending == "truncated":
                return None
            moved = shift(s, delta)
            if moved is None:
                return None
            out[moved] = w
        return Weighted.adopt(out, dist.total)  # weights from a Weighted: not hashed again

    def masked(self, state: FightState, action: Action) -> tuple[FightState, Unread] | None:
        """The state with the fields the step does not read (:meth:`Turns.unread`) set to
        their initial values, and those fields; None where the ruleset promises nothing. Its
        kernel, each outcome given back the fields (:meth:`unmask`), is the state's own."""
        unread = self.turns.unread(state, action)
        if not unread:
            return None
        return self._reset(state, unread), unread

    def lumped(self, state: FightState) -> FightState:
        """The state with the fields nothing reads any more (:meth:`Turns.idle`) set to their
        initial values: the fight goes on from it as from ``state``."""
        idle = self.turns.idle(state)
        return self._reset(state, idle) if idle else state

    def _reset(self, state: FightState, fields: Unread) -> FightState:
        people = list(state.combatants)
        changed = False
        for i, names in fields:
            found = self._initial_fields.get((i, names))
            if found is None:
                get = _getter(names)
                found = self._initial_fields[i, names] = (get, get(self._first.combatants[i]))
            get, initial = found
            if get(people[i]) != initial:
                people[i] = evolve(people[i], **dict(zip(names, initial, strict=True)))
                changed = True
        if not changed:  # the state itself, its kept hash with it
            return state
        reset: FightState = evolve(state, combatants=tuple(people))
        return reset

    def unmask(
        self, state: FightState, masked: FightState, unread: Unread, after: FightState
    ) -> FightState:
        """``after`` (a step from ``masked``) with ``state``'s own values of the unread fields
        back; a combatant the step left alone is ``state``'s own."""
        people = list(after.combatants)
        for i, names in unread:
            if people[i] is masked.combatants[i] or people[i] == masked.combatants[i]:
                people[i] = state.combatants[i]
            else:
                own = state.combatants[i]
                people[i] = evolve(people[i], **{n: getattr(own, n) for n in names})
        moved: FightState = evolve(after, combatants=tuple(people))
        return moved

    def _cached(
        self, state: FightState, action: Action, max_paths: int | None, staged: bool = False
    ) -> Weighted[FightState] | None:
        """The state's own kernel if cached; one found under a larger budget than
        ``max_paths`` does not count (its path count is not kept), nor one enumerated the other
        way (the two count their paths apart)."""
        key = (state, action, staged)
        found = self._kernels.get(key)
        if found is not None:
            dist, budget = found
            if max_paths is None or (budget is not None and budget <= max_paths):
                self._kernels.move_to_end(key)
                return dist
        return None

    def _kernel(
        self, state: FightState, action: Action, max_paths: int | None, staged: bool = False
    ) -> Weighted[FightState]:
        """The state's own kernel, cached."""
        dist = self._cached(state, action, max_paths, staged)
        if dist is not None:
            return dist
        key = (state, action, staged)
        if staged:
            dist = self._staged_step(state, action, max_paths)
        else:
            dist = enumerate_outcomes(lambda d: self.step(state, action, d), max_paths=max_paths)
        self._kernels[key] = (dist, max_paths)
        if len(self._kernels) > KERNEL_CACHE:
            self._kernels.popitem(last=False)
        return dist

    def _staged_step(
        self, state: FightState, action: Action, max_paths: int | None
    ) -> Weighted[FightState]:
        """The step's kernel by its stages: the action enumerated, then each distinct state it
        leaves settled (:meth:`settled`), the weights multiplied and gathered over one
        denominator. The outcomes come in the order the step's own enumeration meets them: it
        walks the action's paths in order, each followed by its settling's, and a state the
        action left before adds no outcome not met already."""
        acts, walked = enumerate_counted(
            lambda d: self.turns.act(state, action, d), max_paths=max_paths
        )
        acc: dict[FightState, dict[int, int]] = {}
        for after, w in acts.items():
            settled, paths = self.settled(after, None if max_paths is None else max_paths - walked)
            walked += paths
            den = acts.total * settled.total
            for out, x in settled.items():
                slot = acc.get(out)
                if slot is None:
                    slot = acc[out] = {}
                slot[den] = slot.get(den, 0) + w * x
        return gathered(acc)

    def settled(
        self, after: FightState, max_paths: int | None = None
    ) -> tuple[Weighted[FightState], int]:
        """What :meth:`settle` makes of ``after`` (a state an action left), exactly, and the
        paths this call's enumeration walked. A state that needs no dice to settle is its only
        outcome. Others are kept for the engine, by the state the next round's start reads
        alike (:meth:`Turns.round_start_stand_in`, in a round before ``max_rounds``): states
        an action leaves are nearly all new, but many differ only in what the round's start
        sets afresh (graydawn's initiative scores), and those settle once, none of their paths
        counted again."""
        ready = self.judge(after)
        if ready.ending is not None or ready.acting is not None:
            return Weighted.adopt({ready: 1}, 1), 0
        key = after
        if self.merge_settling and after.round < self.max_rounds:
            key = self.turns.round_start_stand_in(after) or after
        found = self._settled.get(key)
        if found is not None:
            self._settled.move_to_end(key)
            return found, 0
        found, paths = enumerate_counted(lambda d: self.settle(key, d), max_paths=max_paths)
        self._settled[key] = found
        if len(self._settled) > KERNEL_CACHE:
            self._settled.popitem(last=False)
        return found, paths

    def preview(
        self,
        state: FightState,
        action: Action,
        *,
        estimate: int = 0,
        max_paths: int | None = None,
    ) -> Preview:
        """Exact odds of ``action`` from ``state``, by the rule code that will resolve it. Past
        ``max_paths`` paths (:data:`PREVIEW_PATHS` by default): with ``estimate``, that many
        plays of the action on seeded dice (the same rule code) counted instead, marked not
        exact; without, an empty preview marked not exact (policies score such an action 0,
        as they always have)."""
        # the round-1 twin previews the same (the ruleset promises its step is the same, moved)
        state = self.round_one(state) or state
        try:
            people = self._people_distribution(state, action, max_paths)
        except TooManyBranches as err:
            if not estimate:
                return Preview(action, {}, {}, Fraction(0), Fraction(0), False, err.message)
            return self._estimated(state, action, estimate, err)
        return self._read(state, action, people.items(), people.total, people.truncated_mass)

    def play(self, state: FightState, action: Action, dice: DiceSource) -> Hashable:
        """One play of ``action`` on ``dice`` as an estimated preview counts it (the combatants
        it leaves): :meth:`estimated` reads a count of these."""
        return (self._act_through(state, action, dice).combatants, _NONE, ())

    def estimated(
        self, state: FightState, action: Action, counts: Counter[Hashable], note: str
    ) -> Preview:
        """The preview counted over plays of the action on seeded dice (``counts`` of
        :meth:`play`'s outcomes from ``state``), marked not exact, with ``note``."""
        plays = sum(counts.values())
        preview = self._read(state, action, counts.items(), plays, Fraction(0))
        return dataclasses.replace(preview, exact=False, note=note, samples=plays)

    def _estimated(
        self, state: FightState, action: Action, plays: int, refused: TooManyBranches
    ) -> Preview:
        """The preview counted over ``plays`` plays of the action on seeded dice (the steps the
        exact preview would weigh, each by how often it came), for an action refused exactly."""
        import numpy as np  # only an estimate needs it

        from firefight.dice import SeededDice

        rng = np.random.default_rng(ESTIMATE_SEED)
        counts: Counter[Hashable] = Counter()
        for _ in range(plays):
            counts[self.play(state, action, SeededDice(rng))] += 1
        note = f"estimated from {plays:,} plays on seeded dice ({refused.message})"
        return self.estimated(state, action, counts, note)

    def _read(
        self,
        state: FightState,
        action: Action,
        people: Iterable[tuple[Any, int]],
        total: int,
        truncated_mass: Fraction,
    ) -> Preview:
        """A preview read off the combatants an action leaves, each ``(combatants, flagged,
        apart)`` with its weight of ``total`` (see :meth:`_people_distribution`)."""
        turns = self.turns
        p_out: dict[str, int] = {}
        harm: dict[str, int] = {}
        became: dict[str, dict[str, int]] = {}
        p_effect = p_success = 0
        before = {c.name: c for c in state.combatants}
        had = {c.name: self.conditions(c) for c in state.combatants}
        mine = self.side_of(action.actor)
        for (combatants, flagged, apart), w in people:
            changed = bool(flagged)
            landed = False
            for i, mean in apart:  # harm carried apart (a staged preview's merged outcomes)
                name = combatants[i].name
                harm[name] = harm.get(name, 0) + w * mean
            for c in combatants:
                old = before[c.name]
                if c == old:
                    continue
                changed = True
                touched = False
                if turns.can_fight(old) and not turns.can_fight(c):
                    p_out[c.name] = p_out.get(c.name, 0) + w
                    touched = True
                added = turns.harm(c) - turns.harm(old)
                if added:
                    harm[c.name] = harm.get(c.name, 0) + w * added
                    touched = True
                new = self.conditions(c) - had[c.name]
                if new:
                    mark = became.setdefault(c.name, {})
                    for what in new:
                        mark[what] = mark.get(what, 0) + w
                    touched = True
                landed = landed or (touched and c.side != mine)
            if changed:
                p_effect += w
            if landed:
                p_success += w
        return Preview(
            action,
            {k: Fraction(v, total) for k, v in p_out.items()},
            {k: Fraction(v, total) for k, v in harm.items()},
            Fraction(p_effect, total),
            truncated_mass,
            p_success=Fraction(p_success, total),
            conditions={
                k: {c: Fraction(x, total) for c, x in sorted(v.items())} for k, v in became.items()
            },
        )

    def conditions(self, combatant: Any) -> frozenset[str]:
        """The combatant's conditions as a preview reports them: the ruleset's
        (:meth:`Turns.conditions`) and "dead" (:meth:`Turns.is_dead`)."""
        own = self.turns.conditions(combatant)
        return own | _DEAD if self.turns.is_dead(combatant) else own

    def side_of(self, name: str) -> str:
        return self._sides[name]


#: A kernel and the path budget it was enumerated under (None: none).
_Budgeted = tuple[Weighted[FightState], int | None]


#: No combatant flagged changed (see :meth:`Engine._set_aside`).
_NONE: frozenset[int] = frozenset()
_DEAD = frozenset({"dead"})


def _carry(
    carrying: dict[Any, dict[int, Fraction]],
    out: Any,
    before: dict[int, Fraction] | None,
    share: Fraction,
    apart: tuple[tuple[int, Fraction], ...],
    num: int,
    den: int,
) -> None:
    """Add to ``out``'s harm carried apart: what its state before carried, times the share of
    it that leads to ``out``, and what this step took out of it (``apart``) times the chance
    of the step (``num / den``)."""
    sums = carrying.get(out)
    if sums is None:
        sums = carrying[out] = {}
    if before:
        for i, h in before.items():
            sums[i] = sums.get(i, 0) + h * share
    for i, h in apart:
        sums[i] = sums.get(i, 0) + h * Fraction(num, den)


def _means(
    sums: dict[int, Fraction] | None, weight: int, total: int
) -> tuple[tuple[int, Fraction], ...]:
    """The mean harm carried apart per combatant, given the outcome (its chance ``weight /
    total``), from the sums of chance x harm."""
    if not sums:
        return ()
    chance = Fraction(weight, total)
    return tuple((i, h / chance) for i, h in sorted(sums.items()) if h)


@lru_cache(maxsize=64)
def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A getter of the fields ``names`` of a record, answering their values as a tuple."""
    return attrgetter(*names) if len(names) > 1 else _one_getter(names)


class _OverBudget(Exception):
    """A stage's runs from one state passed the runs the preview's budget left them."""


class _Runs:
    """A stage run on one state: its paths counted, by the state each ends in, at most
    ``budget`` of them (:class:`_OverBudget` on the next)."""

    def __init__(self, stage: Stage) -> None:
        self.stage = stage
        self.state: FightState | None = None
        self.count = 0
        self.budget = 0
        self.tally: dict[FightState, int] = {}

    def start(self, state: FightState, budget: int) -> None:
        self.state, self.count, self.budget, self.tally = state, 0, budget, {}

    def unchanged(self) -> list[tuple[FightState, int]]:
        """The state as its only outcome, counted as the one run that finds it so (a stage
        that left it as it was without dice, :meth:`Engine._staged`)."""
        assert self.state is not None
        if self.count >= self.budget:
            raise _OverBudget
        self.count += 1
        self.tally[self.state] = self.tally.get(self.state, 0) + 1
        return [(self.state, 1)]

    def __call__(self, dice: DiceSource) -> FightState:
        assert self.state is not None
        if self.count >= self.budget:
            raise _OverBudget
        after = self.stage(self.state, dice)
        self.count += 1
        self.tally[after] = self.tally.get(after, 0) + 1
        return after


class _DiceAsked(Exception):
    """A stage run by :func:`_without_dice` asked for dice."""


class _NoDice:
    """Dice that answer nothing: a stage that runs on them through asks none (a state a part
    has nothing to do for), and one run gives its only outcome."""

    is_exact = True

    @property
    def events(self) -> list[Any]:
        return []

    def roll(self, expr: Any, why: str = "") -> Any:
        raise _DiceAsked

    def derive(self, why: str, fn: Any, key: Hashable = None, **kw: Any) -> Any:
        raise _DiceAsked

    def record(self, event: Any) -> None:
        pass


_NO_DICE = _NoDice()


def _without_dice(runs: _Runs) -> list[tuple[FightState, int]] | None:
    """The stage's only outcome, certain, when it asks no dice from this state; else None
    (enumerated then): most parts have nothing to do for most states, and an enumeration's
    setting up costs more than such a run."""
    try:
        after = runs(_NO_DICE)
    except _DiceAsked:
        runs.start(runs.state, runs.budget)  # type: ignore[arg-type]
        return None
    return [(after, 1)]


class _CountingDice:
    """A dice source that counts what was asked of the one it wraps."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.asked = 0

    @property
    def is_exact(self) -> bool:
        return self.inner.is_exact

    @property
    def events(self) -> list[Any]:
        return self.inner.events

    def roll(self, expr: Any, why: str = "") -> Any:
        self.asked += 1
        return self.inner.roll(expr, why)

    def derive(
        self, why: str, fn: Any, key: Hashable = None, *, exact: Any = None, keep: bool = False
    ) -> Any:
        self.asked += 1
        return self.inner.derive(why, fn, key, exact=exact, keep=keep)

    def record(self, event: Any) -> None:
        self.inner.record(event)


def _one_getter(names: tuple[str, ...]) -> Any:
    """A getter of one field that answers a 1-tuple, as ``attrgetter`` of several does."""
    get = attrgetter(*names)
    return lambda obj: (get(obj),)
