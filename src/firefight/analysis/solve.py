"""The best decision at every point of a fight: the exact chain's states as a game.

A fight's states (``Engine.kernel`` steps them, exactly) form a game of perfect information with
chance nodes: at each state one combatant decides (its side's), then the dice decide the next
state. A side that *optimizes* takes, at each of its decisions, the legal action that maximizes
its side's chance of winning the fight; every other side keeps its scenario policy (its
``mixture``, as the exact chain reads it). Backward induction gives every state's value, the
chance of each side winning from it, and each optimizing decision:

    V(s) = one-hot of the winner (or nothing: a draw, a truncated fight)   if s has ended
    Q(s, a) = sum over next states t of P(t | s, a) * V(t)
    V(s) = Q(s, best(s))                              if the decider's side optimizes
    V(s) = sum over a of policy(a | s) * Q(s, a)      otherwise

States carry the round, so the game has no cycles and each value is worked out once, after the
states it leads to (depth first, from the start). Ties are settled the same way everywhere:
among the actions within :data:`TIE` of the best chance for the decider's side, the one that
leaves the other sides the least chance of winning between them, and among those the first in
the ruleset's order (its sensible default). With more than two sides each decider maximizes its
own side's chance: the answer is a subgame-perfect equilibrium, one of possibly several.

A :class:`Game` holds the states and kernels met, shared by every :class:`Solution` of it (one
per set of optimizing sides), so solving each side in turn enumerates each kernel once.
Arithmetic is in floats: kernels of open-ended dice have denominators far past exact use.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable

from firefight.analysis.exact import MAX_START_PATHS, MAX_STATES, MAX_STEP_PATHS
from firefight.core.turns import Action, FightState
from firefight.dice import enumerate_outcomes
from firefight.dice.sources import TooManyPaths
from firefight.encounter.engine import Engine
from firefight.encounter.policies import mixture
from firefight.errors import InputError

#: Two chances closer than this are equal (the float error of a long chain is far below it).
TIE = 1e-12
#: The policy name of a side that optimizes (a scenario's ``policy = "optimal"``).
OPTIMAL = "optimal"

#: Next states of one step: (state id, probability).
Outcomes = Iterable[tuple[int, float]]
#: A kernel as kept: the next states' ids and their probabilities, in two compact arrays (a
#: contest's kernel has hundreds of outcomes, and a game tens of thousands of kernels).
_Kept = tuple["array[int]", "array[float]"]
#: A chance for each side, in the scenario's order of sides.
Chances = tuple[float, ...]


class Game:
    """The states a fight reaches, numbered, with each one's legal actions, the kernels of the
    actions some solution needed, and the scenario policy's choice, each worked out once.

    States are interned as :meth:`Engine.lumped` gives them (fields nothing reads any more set
    aside), so a policy asked about a lumped state (the fast path's) finds it, and without what
    only the ruleset's report of ended fights reads (:meth:`Turns.unreported`: a dragonwarriors2
    chain cut, kept to the end, would otherwise double every state after it)."""

    def __init__(
        self,
        engine: Engine,
        max_states: int | None = None,
        on_state: Callable[[int], None] | None = None,
    ) -> None:
        self.engine = engine
        self.max_states = MAX_STATES if max_states is None else max_states
        self.on_state = on_state
        spec = engine.scenario.spec
        self.sides: tuple[str, ...] = tuple(s.name for s in spec.sides)
        self.policy_names = {s.name: s.policy for s in spec.sides}
        self.states: list[FightState] = []
        self.ids: dict[FightState, int] = {}
        #: The side index of each state's decider; -1 for an ended state.
        self.decider: list[int] = []
        #: Each state's value if it has ended (the winner's one-hot), else None.
        self.final: list[Chances | None] = []
        self._actions: dict[int, tuple[Action, ...]] = {}
        self._kernels: dict[tuple[int, int], _Kept] = {}
        self._mixtures: dict[int, list[tuple[int, float]]] = {}
        self._start: list[tuple[int, float]] | None = None
        self._index = {name: i for i, name in enumerate(self.sides)}

    # -- states --------------------------------------------------------------------------------
    def intern(self, state: FightState) -> int:
        state = self.engine.turns.unreported(self.engine.lumped(state))
        found = self.ids.get(state)
        if found is not None:
            return found
        if len(self.states) >= self.max_states:
            raise InputError(
                f"the fight reaches more than {self.max_states:,} states with every decision "
                "open: too many to solve",
                tip="make the fight smaller (--max-rounds, or --set a smaller fight)",
            )
        found = self.ids[state] = len(self.states)
        self.states.append(state)
        if state.ending is not None:
            self.decider.append(-1)
            won = self._index.get(state.winner or "")
            self.final.append(tuple(1.0 if i == won else 0.0 for i in range(len(self.sides))))
        else:
            self.decider.append(self._index[self.engine.side_of(state.decider())])
            self.final.append(None)
        if self.on_state is not None:
            self.on_state(len(self.states))
        return found

    def start(self) -> list[tuple[int, float]]:
        """Round 1's initiative: the states the fight starts from, with their chances."""
        if self._start is None:
            try:
                dist = enumerate_outcomes(self.engine.start, max_paths=MAX_START_PATHS)
            except TooManyPaths:
                raise InputError(
                    f"round 1's initiative alone has over {MAX_START_PATHS:,} branches: too "
                    "many to solve",
                    tip="make the fight smaller",
                ) from None
            self._start = [(self.intern(s), w / dist.total) for s, w in dist.items()]
        return self._start

    def actions(self, sid: int) -> tuple[Action, ...]:
        found = self._actions.get(sid)
        if found is None:
            found = self._actions[sid] = self.engine.legal_actions(self.states[sid])
        return found

    def outcomes(self, sid: int, i: int) -> Outcomes:
        """The next states of the state's ``i``-th legal action, with their chances."""
        key = (sid, i)
        found = self._kernels.get(key)
        if found is None:
            found = self._kernels[key] = self._kernel(sid, i)
        return zip(*found, strict=True)

    def _kernel(self, sid: int, i: int) -> _Kept:
        action = self.actions(sid)[i]
        try:
            dist = self.engine.kernel(self.states[sid], action, max_paths=MAX_STEP_PATHS)
        except TooManyPaths:
            raise InputError(
                f"a step of this fight ({action.label}) has over {MAX_STEP_PATHS:,} "
                "branches: too many to solve",
                tip="make the fight smaller",
            ) from None
        total = dist.total
        ids, probs = array("q"), array("d")
        for t, w in dist.items():
            ids.append(self.intern(t))
            probs.append(w / total)
        return ids, probs

    def policy(self, sid: int) -> list[tuple[int, float]]:
        """The decider's scenario policy as (action index, probability)."""
        found = self._mixtures.get(sid)
        if found is None:
            state = self.states[sid]
            side = self.sides[self.decider[sid]]
            name = self.policy_names[side]
            actions = self.actions(sid)
            mixed = mixture(name, self.engine, state, actions)
            if mixed is None:
                raise InputError(
                    f"policy {name!r} of {side} chooses at random without a known mixture",
                    tip="use first, aggressive, cautious, random or optimal with solve",
                )
            where = {a.id: i for i, a in enumerate(actions)}
            found = self._mixtures[sid] = [(where[a.id], float(q)) for a, q in mixed]
        return found

    def kinds(self) -> set[str]:
        """The kinds of action offered at the decisions met so far."""
        return {a.kind for actions in self._actions.values() for a in actions}

    @property
    def kernels(self) -> int:
        """Kernels enumerated so far (one per state and action some solution needed)."""
        return len(self._kernels)


class Solution:
    """Every state's chances with ``optimizing`` sides deciding best, the others by policy."""

    def __init__(
        self, game: Game, optimizing: Iterable[str], kinds: Iterable[str] | None = None
    ) -> None:
        self.game = game
        self.optimizing = frozenset(optimizing)
        #: Only decisions offering an action of one of these kinds are optimized (None: all);
        #: the rest follow the decider's scenario policy.
        self.kinds = None if kinds is None else frozenset(kinds)
        self._optimizes: dict[int, bool] = {}
        unknown = self.optimizing - set(game.sides)
        if unknown:
            raise InputError(
                f"no side {sorted(unknown)[0]!r} in this scenario",
                tip=f"sides: {', '.join(game.sides)}",
            )
        self._mine = [side in self.optimizing for side in game.sides]
        #: State id -> each side's chance of winning from it.
        self.value: dict[int, Chances] = {}
        #: State id (an optimizing side's decision) -> the index of the best legal action.
        self.choice: dict[int, int] = {}
        #: State id (an optimizing side's decision) -> each legal action's chances.
        self.q: dict[int, list[Chances]] = {}
        #: States in the order their values were worked out (every state after its next ones).
        self.order: list[int] = []

    # -- solving -------------------------------------------------------------------------------
    def solve(self) -> Chances:
        """Each side's chance of winning the fight from its start."""
        start = self.game.start()
        for sid, _ in start:
            self.evaluate(sid)
        return self._expect(start)

    def optimizes(self, sid: int) -> bool:
        """Whether the state is a decision this solution optimizes."""
        found = self._optimizes.get(sid)
        if found is None:
            side = self.game.decider[sid]
            found = side >= 0 and self._mine[side]
            if found and self.kinds is not None:
                found = any(a.kind in self.kinds for a in self.game.actions(sid))
            self._optimizes[sid] = found
        return found

    def evaluate(self, root: int) -> Chances:
        """The state's chances, after those of every state it leads to (depth first, without
        recursion: a fight is hundreds of steps deep)."""
        if root in self.value:
            return self.value[root]
        game, value = self.game, self.value
        open_: set[int] = set()  # expanded, waiting for the states they lead to
        stack: list[tuple[int, bool]] = [(root, False)]
        while stack:
            sid, back = stack.pop()
            if back:
                self._back_up(sid)
                open_.discard(sid)
                continue
            if sid in value or sid in open_:
                continue
            final = game.final[sid]
            if final is not None:
                value[sid] = final
                self.order.append(sid)
                continue
            open_.add(sid)
            stack.append((sid, True))
            for i in self._needed(sid):
                for child, _ in game.outcomes(sid, i):
                    if child in open_:
                        raise InputError(
                            "this fight can come back to a state it has left: solve needs "
                            "every step to move it on",
                            tip="simulate it instead (firefight simulate -n)",
                        )
                    if child not in value:
                        stack.append((child, False))
        return value[root]

    def _needed(self, sid: int) -> Iterable[int]:
        """The actions whose kernels the state's value reads."""
        if self.optimizes(sid):
            return range(len(self.game.actions(sid)))
        return [i for i, _ in self.game.policy(sid)]

    def _back_up(self, sid: int) -> None:
        game = self.game
        if not self.optimizes(sid):
            sides = len(game.sides)
            total = [0.0] * sides
            for i, p in game.policy(sid):
                q = self._expect(game.outcomes(sid, i))
                for k in range(sides):
                    total[k] += p * q[k]
            self.value[sid] = tuple(total)
        else:
            qs = [self._expect(game.outcomes(sid, i)) for i in range(len(game.actions(sid)))]
            best = best_of(qs, game.decider[sid])
            self.q[sid] = qs
            self.choice[sid] = best
            self.value[sid] = qs[best]
        self.order.append(sid)

    def _expect(self, outcomes: Outcomes) -> Chances:
        sides = len(self.game.sides)
        total = [0.0] * sides
        value = self.value
        for child, p in outcomes:
            v = value[child]
            for k in range(sides):
                total[k] += p * v[k]
        return tuple(total)

    # -- reading it ----------------------------------------------------------------------------
    def best_action(self, state: FightState, actions: tuple[Action, ...]) -> Action:
        """The best of ``actions`` (the legal actions of ``state``) for its decider; a state
        this solution has not met is solved from where it stands first."""
        sid = self.game.intern(state)
        self.evaluate(sid)
        if sid not in self.choice:
            raise InputError(
                f"{state.decider()} does not decide by the optimal policy here",
                tip='give that side policy = "optimal"',
            )
        chosen = self.game.actions(sid)[self.choice[sid]]
        for a in actions:
            if a.id == chosen.id:
                return a
        raise InputError(f"{chosen.id} is not among the legal actions given")  # pragma: no cover

    def reach(self) -> dict[int, float]:
        """The chance that the fight passes through each state (from the start, each decision
        by this solution), for the states met with any chance."""
        game = self.game
        mass: dict[int, float] = {}
        for sid, p in game.start():
            mass[sid] = mass.get(sid, 0.0) + p
        passed: dict[int, float] = {}
        for sid in reversed(self.order):  # every state before the states it leads to
            m = mass.pop(sid, 0.0)
            if not m:
                continue
            passed[sid] = m
            if game.final[sid] is not None:
                continue
            moves = [(self.choice[sid], 1.0)] if self.optimizes(sid) else game.policy(sid)
            for i, q in moves:
                for child, p in game.outcomes(sid, i):
                    mass[child] = mass.get(child, 0.0) + m * q * p
        return passed


def best_of(qs: list[Chances], side: int) -> int:
    """The index of the best chances for ``side``: the highest chance for it; within
    :data:`TIE`, the least for the other sides together; then the first."""
    best = 0
    for i in range(1, len(qs)):
        gain = qs[i][side] - qs[best][side]
        if gain > TIE or (gain >= -TIE and _others(qs[i], side) < _others(qs[best], side) - TIE):
            best = i
    return best


def _others(chances: Chances, side: int) -> float:
    return sum(chances) - chances[side]


def optimizing_sides(engine: Engine, also: Iterable[str] = ()) -> frozenset[str]:
    """The sides whose scenario policy is :data:`OPTIMAL`, and ``also``."""
    own = {s.name for s in engine.scenario.spec.sides if s.policy == OPTIMAL}
    return frozenset(own | set(also))
