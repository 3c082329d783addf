"""``firefight solve``'s report: each side's chance of winning with its scenario policy and with
its every decision the best, the decisions as tables, and the whole policy for JSON.

``against="policies"``: each side in turn decides best while the others keep their scenario
policies (one :class:`~firefight.analysis.solve.Solution` per side, on one shared
:class:`~firefight.analysis.solve.Game`, so a kernel is enumerated once for all of them).
``against="optimal"``: every side decides best at once (one solution). Either way the baseline is
the scenario's own policies, solved on the same game, so the two columns differ only by the
decisions.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from firefight.analysis.decisions import Decision, Table, decisions, tables
from firefight.analysis.solve import Chances, Game, Solution, optimizing_sides
from firefight.core.turns import state_to_json
from firefight.encounter.engine import Engine
from firefight.errors import InputError

Against = Literal["policies", "optimal"]
AGAINST: tuple[str, ...] = ("policies", "optimal")


@dataclass
class Solved:
    """One solution's part of the report: whose decisions are the best, and what they are."""

    #: The sides whose decisions this part shows.
    sides: tuple[str, ...]
    solution: Solution
    chances: Chances
    decisions: list[Decision]
    tables: list[Table]


@dataclass
class SolveReport:
    scenario: str
    title: str
    against: str
    sides: tuple[str, ...]
    #: Each side's chance of winning with every side on its scenario policy.
    policies: Chances
    #: Side -> its chance of winning when it decides best (against the others as asked).
    best: dict[str, float]
    parts: list[Solved]
    game: Game
    cpu_seconds: float
    kinds: frozenset[str] | None = None

    def left_on_table(self, side: str) -> float:
        return self.best[side] - self.policies[self.sides.index(side)]

    def to_json(self) -> dict[str, Any]:
        sides = {
            name: {
                "policy": self.game.policy_names[name],
                "win_with_policies": self.policies[i],
                **(
                    {"win_best": self.best[name], "left_on_table": self.left_on_table(name)}
                    if name in self.best
                    else {}
                ),
            }
            for i, name in enumerate(self.sides)
        }
        return {
            "scenario": self.scenario,
            "title": self.title,
            "against": self.against,
            "decide": sorted(self.kinds) if self.kinds is not None else None,
            "sides": sides,
            "solutions": [self._part_json(p) for p in self.parts],
            "cost": {
                "states": len(self.game.states),
                "kernels": self.game.kernels,
                "cpu_seconds": round(self.cpu_seconds, 3),
            },
        }

    def _part_json(self, part: Solved) -> dict[str, Any]:
        game, solution = self.game, part.solution
        return {
            "deciding_best": part.sides,
            "win": dict(zip(self.sides, part.chances, strict=True)),
            "tables": [t.to_json() for t in part.tables],
            "policy": [_decision_json(game, solution, sid) for sid in _theirs(part)],
        }


def _theirs(part: Solved) -> list[int]:
    """Every decision of the part's sides the solution worked out (met or not)."""
    game = part.solution.game
    names = set(part.sides)
    return [sid for sid in part.solution.choice if game.sides[game.decider[sid]] in names]


def _decision_json(game: Game, solution: Solution, sid: int) -> dict[str, Any]:
    from firefight.analysis.decisions import features

    state = game.states[sid]
    side = game.decider[sid]
    actions = game.actions(sid)
    return {
        "decider": state.decider(),
        "round": state.round,
        "features": {k: _plain(v) for k, v in features(game.engine, state).items()},
        "best": actions[solution.choice[sid]].id,
        "win_by_action": {a.id: q[side] for a, q in zip(actions, solution.q[sid], strict=True)},
        "state": state_to_json(state),
    }


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def solve_scenario(
    engine: Engine,
    *,
    side: str | None = None,
    against: str = "policies",
    kinds: Iterable[str] | None = None,
    on_state: Callable[[int], None] | None = None,
    scenario: str = "",
    max_states: int | None = None,
) -> SolveReport:
    """Solve the fight as ``firefight solve`` reports it (see the module docstring)."""
    if against not in AGAINST:
        raise InputError(f"--against {against!r} is not one of {', '.join(AGAINST)}")
    spec = engine.scenario.spec
    names = tuple(s.name for s in spec.sides)
    if side is not None and side not in names:
        raise InputError(f"--side {side!r} is not a side", tip=f"sides: {', '.join(names)}")
    wanted = (side,) if side is not None else names
    chosen = None if kinds is None else frozenset(kinds)
    started = time.process_time()
    if max_states is not None and max_states < 1:
        raise InputError(f"--max-states {max_states} is below 1", tip="give 1 or more")
    game = Game(engine, max_states, on_state)
    base = Solution(game, optimizing_sides(engine))
    policies = base.solve()
    parts: list[Solved] = []
    best: dict[str, float] = {}
    if against == "optimal":
        solution = Solution(game, names, chosen)
        chances = solution.solve()
        parts.append(_part(wanted, solution, chances))
        best = {name: chances[names.index(name)] for name in wanted}
    else:
        for name in wanted:
            solution = Solution(game, optimizing_sides(engine, [name]), chosen)
            chances = solution.solve()
            parts.append(_part((name,), solution, chances))
            best[name] = chances[names.index(name)]
    if chosen is not None and not chosen & game.kinds():
        raise InputError(
            f"--decide {', '.join(sorted(chosen))}: no decision of this fight offers it",
            tip=f"kinds of action offered: {', '.join(sorted(game.kinds()))}",
        )
    return SolveReport(
        scenario,
        spec.title,
        against,
        names,
        policies,
        best,
        parts,
        game,
        time.process_time() - started,
        chosen,
    )


def _part(sides: tuple[str, ...], solution: Solution, chances: Chances) -> Solved:
    found = [d for d in decisions(solution, solution.reach()) if _side_of(solution, d) in sides]
    return Solved(sides, solution, chances, found, tables(found))


def _side_of(solution: Solution, d: Decision) -> str:
    game = solution.game
    return game.sides[game.decider[d.state]]
