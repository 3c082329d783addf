"""The ``optimal`` policy: every decision the one ``firefight solve`` finds best.

The sides whose policy is ``optimal`` decide best together (against each other where there are
several, as ``solve --against optimal``), the rest by their own policies. The game is solved once
per scenario (its data, policies and ``max_rounds``) and process, on the first decision asked of
it or by :func:`prepare`, and kept (the last :data:`KEEP` scenarios); a fight the solver refuses
is refused in its one line. A state the solution has not met (the GM played a side by hand) is
solved from where it stands, once.

The encounter layer knows policies only by name: this module registers ``optimal`` there when
:mod:`firefight.analysis` is imported (the commands that play fights import it first), so the
engine never imports analysis.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

from firefight.core.turns import Action, FightState
from firefight.encounter.policies import register_policy

if TYPE_CHECKING:
    from firefight.analysis.solve import Solution
    from firefight.encounter.engine import Engine

#: The policy's name in scenarios and ``--policy SIDE=optimal``.
NAME = "optimal"
#: Solved scenarios kept per process.
KEEP = 8
_SOLVED: OrderedDict[str, Solution] = OrderedDict()


def optimal(engine: Engine, state: FightState, actions: tuple[Action, ...], rng: object) -> Action:
    """The best of ``actions`` for the side deciding at ``state``."""
    return solved(engine).best_action(state, actions)


def solved(engine: Engine, on_state: Callable[[int], None] | None = None) -> Solution:
    """The scenario's solution: its ``optimal`` sides deciding best, kept once worked out
    (``on_state`` sees the states met while it is worked out)."""
    key = _fingerprint(engine)
    found = _SOLVED.get(key)
    if found is None:
        from firefight.analysis.solve import Game, Solution, optimizing_sides

        found = Solution(Game(engine, on_state=on_state), optimizing_sides(engine))
        found.solve()
        found.game.on_state = None  # states met later (a GM's own moves) show no bar
        _SOLVED[key] = found
        while len(_SOLVED) > KEEP:
            _SOLVED.popitem(last=False)
    else:
        _SOLVED.move_to_end(key)
    return found


def prepare(engine: Engine, on_state: Callable[[int], None] | None = None) -> None:
    """Solve the scenario now if a side plays ``optimal``: a fight the solver refuses is refused
    before it starts, and the policy's first decision costs nothing more."""
    if plays_optimal(engine):
        solved(engine, on_state)


def plays_optimal(engine: Engine) -> bool:
    """Whether a side of the scenario plays ``optimal``."""
    return any(s.policy == NAME for s in engine.scenario.spec.sides)


def _fingerprint(engine: Engine) -> str:
    """The scenario as data (policies, house rules inlined) and the engine's round limit."""
    data = json.dumps(engine.scenario.data, sort_keys=True, default=str)
    return f"{engine.max_rounds}:{data}"


def register() -> None:
    register_policy(NAME, optimal)
