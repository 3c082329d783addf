"""Exact fight odds: the absorbing Markov chain over the states a fight can reach.

From the settled start (its own distribution: round 1's initiative), probability mass moves one
step at a time: each state's policy choice (one action, or the random policy's uniform mixture)
and that action's exact transition kernel (``Engine.kernel``) spread its mass over next states;
mass reaching an ended state (terminated or truncated at ``max_rounds``) is absorbed into the
tally. States carry the round, so mass always moves on; a chain that can loop inside a round
(riposte after riposte) loses geometrically less each pass, and whatever is still in play after
:data:`MAX_STEPS` passes is reported as ``mass_left``. What the open-ended dice's depth leaves
out of the kernels is reported as ``truncated_mass``, never spread over the kept states.

Arithmetic is exact (``Fraction``) while the kernels' denominators stay small; open-ended dice
(depth-truncated explosions) make them huge, and then the chain runs in floats. Fractions move
pass by pass (a pass's denominators decide the switch to floats, so it is taken on the same
fights whatever the order); floats expand every state first and then move each state's mass
once, in topological order (:func:`_run_ordered`), which adds the same terms in another order:
float answers agree with the pass-by-pass ones to ~1e-13, not to the last bit.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from firefight.analysis.reference import new_tally
from firefight.analysis.report import Tally
from firefight.core.turns import Action, FightState
from firefight.dice import Weighted, enumerate_outcomes
from firefight.dice.sources import TooManyPaths
from firefight.encounter.engine import Engine
from firefight.encounter.policies import mixture
from firefight.errors import InputError

#: Most distinct states the chain may visit before it refuses.
MAX_STATES = 50_000
#: Most enumeration paths of round 1's initiative.
MAX_START_PATHS = 200_000
#: Most enumeration paths of one step's kernel.
MAX_STEP_PATHS = 500_000
#: Most passes (steps of the fight) before the remaining mass is reported as left over.
MAX_STEPS = 5_000
#: CPU seconds into the chain at which its states are estimated (:meth:`_Chain.estimate`), and
#: the fight refused if the estimate passes the limit: a fight too big is refused within a few
#: seconds, not after reaching the limit minutes later.
ESTIMATE_AT = (1.0, 2.0, 3.0, 4.0)
#: Kernels with a denominator above this run the chain in floats.
EXACT_DENOMINATOR = 10**18
#: Masses whose denominators outgrow this many bits switch the chain to floats.
EXACT_BITS = 160


def solve_exact(
    engine: Engine,
    max_states: int = MAX_STATES,
    on_pass: Callable[[int, int], None] | None = None,
) -> tuple[Tally, str]:
    """The tally of the whole chain, and the arithmetic used ("fraction" or "float")."""
    chain = _Chain(engine)  # shared: floats start again from what fractions worked out
    try:
        return _solve(chain, max_states, True, on_pass), "fraction"
    except _TooBig:
        return _solve(chain, max_states, False, on_pass), "float"


class _TooBig(Exception):
    """A denominator outgrew exact arithmetic: start again in floats."""


#: One policy choice from a state: the action's striker, its probability, and the kernel's next
#: states (ids) with their weights (over the kernel's total), round, harm dealt and who fell.
_Choice = tuple[str, Fraction, int, list[tuple[int, int, int, int, tuple[str, ...]]]]
#: The same in the chain's arithmetic: striker, probability, (next state id, probability,
#: harm dealt, (who fell, in which round)).
_Move = tuple[str, Any, list[tuple[int, Any, int, tuple[tuple[str, int], ...]]]]


class _Chain:
    """The states met so far, numbered (the passes move mass between ids: no state is hashed
    twice), and each state's policy choice and kernels, worked out once."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.states: list[FightState] = []
        self.ids: dict[FightState, int] = {}
        self.ended: list[bool] = []
        #: States met that are still in play: each will be expanded (kernels enumerated) on
        #: the next pass, so once they pass the limit the fight is refused without that work.
        self.live = 0
        #: Round -> states in play met in it, and those of them not expanded yet.
        self.by_round: dict[int, int] = {}
        self.waiting: dict[int, int] = {}
        self.choices: dict[int, list[_Choice]] = {}
        self.policy_names = {s.name: s.policy for s in engine.scenario.spec.sides}
        #: When the chain started (CPU), and the estimates still to make (:data:`ESTIMATE_AT`).
        self.started = time.process_time()
        self.estimates = list(ESTIMATE_AT)

    def intern(self, state: FightState) -> int:
        found = self.ids.get(state)
        if found is None:
            found = self.ids[state] = len(self.states)
            self.states.append(state)
            self.ended.append(state.ending is not None)
            if state.ending is None:
                self.live += 1
                r = state.round
                self.by_round[r] = self.by_round.get(r, 0) + 1
                self.waiting[r] = self.waiting.get(r, 0) + 1
        return found

    def choice(self, sid: int) -> list[_Choice]:
        found = self.choices.get(sid)
        if found is None:
            found = self.choices[sid] = self._choose(self.states[sid])
            self.waiting[self.states[sid].round] -= 1
        return found

    def estimate(self) -> tuple[int, int]:
        """The states in play the whole chain will meet, estimated from those met so far, and
        the rounds fully expanded it rests on. Rounds the chain has not finished count at
        least as many states as the most any round has shown so far (later rounds add
        wounds, spent ammunition and shifted ranges to the situations of the first, rarely
        fewer), rounds it finished what they hold."""
        finished = 0
        for r in sorted(self.by_round):
            if self.waiting.get(r, 0) > 0:
                break
            finished = r
        total = peak = 0
        for r in range(0, self.engine.max_rounds + 1):
            n = self.by_round.get(r, 0)
            if r > finished:
                n = max(n, peak)
            peak = max(peak, n)
            total += n
        return total, finished

    def _choose(self, state: FightState) -> list[_Choice]:
        engine = self.engine
        turns = engine.turns
        actor = state.decider()
        name = self.policy_names[engine.side_of(actor)]
        mixed = mixture(name, engine, state, engine.legal_actions(state))
        if mixed is None:
            raise InputError(
                f"policy {name!r} chooses at random without a known mixture",
                tip="use first, aggressive, cautious or random with --exact",
            )
        before = state.combatants
        able = [turns.can_fight(c) for c in before]
        harm = [turns.harm(c) for c in before]
        out: list[_Choice] = []
        for action, q in mixed:
            kernel = _kernel(engine, state, action)
            mine = engine.side_of(action.striker)
            outcomes = []
            for after, w in kernel.items():
                fell: tuple[str, ...] = ()
                dealt = 0
                for i, new in enumerate(after.combatants):
                    if new is before[i]:
                        continue
                    if able[i] and not turns.can_fight(new):
                        fell = (*fell, new.name)
                    if new.side != mine:  # harm to the striker's enemies (harm_dealt)
                        dealt += turns.harm(new) - harm[i]
                outcomes.append((self.intern(after), w, after.round, dealt, fell))
            out.append((action.striker, q, kernel.total, outcomes))
        return out


def _solve(
    chain: _Chain,
    max_states: int,
    exact: bool,
    on_pass: Callable[[int, int], None] | None,
) -> Tally:
    engine = chain.engine
    turns = engine.turns
    tally = new_tally(engine)
    initial = engine.initial()
    one: Any = Fraction(1) if exact else 1.0
    frontier: dict[int, Any] = {}
    try:
        start = enumerate_outcomes(engine.start, max_paths=MAX_START_PATHS)
    except TooManyPaths:
        raise InputError(
            f"round 1's initiative alone has over {MAX_START_PATHS:,} branches: too many for "
            "--exact",
            tip=_TIP,
        ) from None
    except KeyboardInterrupt:  # Ctrl-C before the chain's first pass: all of it still in play
        tally.mass_left = one
        tally.interrupted = True
        return tally
    for state, p in _probabilities(start, exact):
        sid = chain.intern(state)
        frontier[sid] = frontier.get(sid, 0) + p * one
    frontier = _run(chain, tally, frontier, max_states=max_states, exact=exact, on_pass=on_pass)
    for sid, mass in frontier.items():
        if chain.ended[sid]:
            tally.add(turns, chain.states[sid], mass, initial)
        else:
            tally.mass_left += mass
    # what the kernels' open-ended dice left out (their weights sum to less than their totals)
    tally.truncated_mass = max(one - tally.total - tally.mass_left, 0 * one)
    return tally


def _run(
    chain: _Chain,
    tally: Tally,
    frontier: dict[int, Any],
    *,
    max_states: int,
    exact: bool,
    on_pass: Callable[[int, int], None] | None,
) -> dict[int, Any]:
    """Move the mass; returns what is still in play (frontier). Floats move each state once,
    in an order where all its mass has arrived (:func:`_run_ordered`), where the states met
    allow one; fractions, and a fight whose states can loop, pass by pass
    (:func:`_run_passes`)."""
    #: Each state's moves in this arithmetic: the same state is reached on several passes.
    moves: dict[int, list[_Move]] = {}
    if not exact:
        try:
            order = _expand(chain, frontier, moves, max_states, on_pass)
        except KeyboardInterrupt:
            tally.interrupted = True
            return frontier
        if order is not None:
            return _run_ordered(chain, tally, frontier, moves, order)
    return _run_passes(chain, tally, frontier, moves, max_states, exact, on_pass)


def _expand(
    chain: _Chain,
    frontier: dict[int, Any],
    moves: dict[int, list[_Move]],
    max_states: int,
    on_pass: Callable[[int, int], None] | None,
) -> list[int] | None:
    """Every state in play the frontier leads to, expanded (floats) breadth first (round by
    round, as the passes meet them, so the early estimate sees the same rounds), refused as
    the passes refuse it; then the states in an order where each comes after every state that
    moves mass into it (Kahn's), or None where the states can loop or a path is longer than
    :data:`MAX_STEPS` passes (the passes then report what is left)."""
    ended = chain.ended
    queue = [sid for sid in frontier if not ended[sid]]
    seen = set(queue)
    head = 0
    while head < len(queue):
        sid = queue[head]
        head += 1
        _within(chain, max_states)
        rows = moves[sid] = _moves(chain.choice(sid), False)
        # the moves in floats are all the chain reads of it from now on (every state is expanded
        # once here, and the passes, if they follow, read these): its weights as big integers go
        del chain.choices[sid]
        for _, _, outcomes in rows:
            for after, _, _, _ in outcomes:
                if after not in seen and not ended[after]:
                    seen.add(after)
                    queue.append(after)
        if on_pass is not None and head % 256 == 0:
            on_pass(head, chain.live)
    # Kahn's order over the states in play, and each one's longest path from the frontier
    into = dict.fromkeys(queue, 0)
    for sid in queue:
        for _, _, outcomes in moves[sid]:
            for after, _, _, _ in outcomes:
                if after in into:
                    into[after] += 1
    ready = [sid for sid in queue if not into[sid]]
    depth = dict.fromkeys(queue, 0)
    order: list[int] = []
    while ready:
        sid = ready.pop()
        order.append(sid)
        d = depth[sid] + 1
        if d >= MAX_STEPS:
            return None
        for _, _, outcomes in moves[sid]:
            for after, _, _, _ in outcomes:
                if after in into:
                    if depth[after] < d:
                        depth[after] = d
                    into[after] -= 1
                    if not into[after]:
                        ready.append(after)
    return order if len(order) == len(queue) else None


def _run_ordered(
    chain: _Chain,
    tally: Tally,
    frontier: dict[int, Any],
    moves: dict[int, list[_Move]],
    order: list[int],
) -> dict[int, Any]:
    """Move each state's mass once, in ``order`` (all of it has arrived by then): the work
    grows with the transitions, not with the passes a state is reached on. Mass reaching an
    ended state is gathered by state and tallied once. Ctrl-C leaves the mass as it was."""
    engine = chain.engine
    ended = chain.ended
    mass: list[Any] = [0.0] * len(chain.states)
    absorbed: dict[int, Any] = {}
    for sid, m in frontier.items():
        if ended[sid]:
            absorbed[sid] = absorbed.get(sid, 0) + m
        else:
            mass[sid] += m
    # harm dealt and falls are summed per state, then those sums with math.fsum: one running
    # sum of every transition's share would lose ~1e-12 over a long fight
    gained: dict[str, list[float]] = {}
    fell_at: dict[tuple[str, int], list[float]] = {}
    get = absorbed.get
    try:
        for sid in order:
            here = mass[sid]
            dealt_here: dict[str, float] = {}
            fell_here: dict[tuple[str, int], float] = {}
            for striker, q, outcomes in moves[sid]:
                share = here * q
                for after, p, dealt, fell in outcomes:
                    weight = share * p
                    if ended[after]:
                        absorbed[after] = get(after, 0) + weight
                    else:
                        mass[after] += weight
                    if dealt:
                        dealt_here[striker] = dealt_here.get(striker, 0) + weight * dealt
                    for key in fell:
                        fell_here[key] = fell_here.get(key, 0) + weight
            for name, x in dealt_here.items():
                gained.setdefault(name, []).append(x)
            for key, x in fell_here.items():
                fell_at.setdefault(key, []).append(x)
    except KeyboardInterrupt:
        tally.interrupted = True
        return frontier
    step = new_tally(engine)
    step.dealt.update({name: math.fsum(xs) for name, xs in gained.items()})
    step.fell_at.update({key: math.fsum(xs) for key, xs in fell_at.items()})
    tally.merge(step)
    initial = engine.initial()
    for sid, m in absorbed.items():
        tally.add(engine.turns, chain.states[sid], m, initial)
    return {}


def _run_passes(
    chain: _Chain,
    tally: Tally,
    frontier: dict[int, Any],
    moves: dict[int, list[_Move]],
    max_states: int,
    exact: bool,
    on_pass: Callable[[int, int], None] | None,
) -> dict[int, Any]:
    """Move the mass pass by pass; returns what is still in play (frontier). Mass reaching an
    ended state is gathered by state and tallied once at the end (the same ending is reached
    on many passes)."""
    engine = chain.engine
    passes = 0
    absorbed: dict[int, Any] = {}
    ended_flags = chain.ended
    try:
        while frontier and passes < MAX_STEPS:
            passes += 1
            nxt: dict[int, Any] = {}
            # a pass is tallied apart and merged whole, so Ctrl-C never leaves half a pass counted
            step = new_tally(engine)
            # the step's sums, added in the order the loop meets them (floats: the same bits)
            gained, fell_at, get = step.dealt, step.fell_at, nxt.get
            ended: dict[int, Any] = {}
            for sid, mass in frontier.items():
                if ended_flags[sid]:
                    ended[sid] = mass
                    continue
                rows = moves.get(sid)
                if rows is None:
                    _within(chain, max_states)
                    rows = moves[sid] = _moves(chain.choice(sid), exact)
                for striker, q, outcomes in rows:
                    share = mass * q
                    for after, p, dealt, fell in outcomes:
                        weight = share * p
                        nxt[after] = get(after, 0) + weight
                        if dealt:
                            gained[striker] = gained.get(striker, 0) + weight * dealt
                        for key in fell:
                            fell_at[key] = fell_at.get(key, 0) + weight
            if exact and any(m.denominator.bit_length() > EXACT_BITS for m in nxt.values()):
                raise _TooBig
            tally.merge(step)
            for sid, mass in ended.items():
                absorbed[sid] = absorbed.get(sid, 0) + mass
            frontier = nxt
            if on_pass is not None:
                on_pass(passes, chain.live)
    except KeyboardInterrupt:
        tally.interrupted = True
    initial = engine.initial()
    for sid, mass in absorbed.items():
        tally.add(engine.turns, chain.states[sid], mass, initial)
    return frontier


def _within(chain: _Chain, max_states: int) -> None:
    """Refuse a fight once the states it has met still in play pass ``max_states``: each of
    them is expanded before the chain ends, so the count is the one expanding them all would
    reach, known a pass or more sooner (tactical_d20's ``brawl_melee.toml``: 22 s instead of
    93 s). Before that, at the CPU times of :data:`ESTIMATE_AT`, the states the whole chain
    will meet are estimated (:meth:`_Chain.estimate`) and a fight estimated past the limit is
    refused then, with the estimate."""
    if chain.live > max_states:
        raise InputError(
            f"the fight reaches more than {max_states:,} states: too many for --exact",
            tip=_TIP,
        )
    if not chain.estimates:
        return
    spent = time.process_time() - chain.started
    if spent < chain.estimates[0]:
        return
    while chain.estimates and spent >= chain.estimates[0]:
        chain.estimates.pop(0)
    estimate, finished = chain.estimate()
    if estimate > max_states:
        basis = (
            f"{finished} of {chain.engine.max_rounds} rounds worked out"
            if finished
            else f"round 1 not worked out yet, {chain.live:,} states met"
        )
        raise InputError(
            f"the fight reaches about {_about(estimate)} states (an estimate after "
            f"{spent:.1f} s: {basis}), more than the {max_states:,} --exact allows",
            tip=_TIP,
        )


#: How a refused fight can still be answered.
_TIP = "simulate it instead (drop --exact; -n 100000 for a close estimate), or make it smaller"


def _about(n: int) -> str:
    """``n`` to two significant figures, with thousands separators (an estimate, not a count)."""
    digits = len(str(n))
    rounded = round(n, 2 - digits) if digits > 2 else n
    return f"{rounded:,}"


def _moves(choices: list[_Choice], exact: bool) -> list[_Move]:
    """The choices in fractions (:class:`_TooBig` past :data:`EXACT_DENOMINATOR`) or floats."""
    rows: list[_Move] = []
    for striker, q, total, outcomes in choices:
        if exact and total > EXACT_DENOMINATOR:
            raise _TooBig
        rows.append(
            (
                striker,
                q if exact else float(q),
                [
                    (
                        after,
                        Fraction(w, total) if exact else w / total,
                        dealt,
                        tuple((name, round_) for name in fell),
                    )
                    for after, w, round_, dealt, fell in outcomes
                ],
            )
        )
    return rows


def _kernel(engine: Engine, state: FightState, action: Action) -> Weighted[FightState]:
    try:
        return engine.kernel(state, action, max_paths=MAX_STEP_PATHS)
    except TooManyPaths:
        raise InputError(
            f"a step of this fight ({action.label}) has over {MAX_STEP_PATHS:,} branches: too "
            "many for --exact",
            tip=_TIP,
        ) from None


def _probabilities(dist: Weighted[FightState], exact: bool) -> list[tuple[FightState, Any]]:
    if exact:
        if dist.total > EXACT_DENOMINATOR:
            raise _TooBig
        return [(s, Fraction(w, dist.total)) for s, w in dist.items()]
    return [(s, w / dist.total) for s, w in dist.items()]
