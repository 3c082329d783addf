"""The best decisions of a solved fight as tables a person reads.

Every decision an optimizing side meets (with any chance, every decision the best) is a row of
facts: who decides, the kinds of action on offer, the state's *features*, and the choice. The
features are generic: what the ruleset declares a decision may turn on
(:meth:`~firefight.core.turns.Turns.decision_features`: a riposte's margin, the range), every
combatant's :meth:`~firefight.core.turns.Turns.view` (the decider's own fields by their names,
the others' prefixed with their names) and the round. A choice is named by the action's kind and
the parameters that tell the actions on offer apart (``attack: burst``), never by its label, which
carries the state's numbers.

Decisions are grouped by decider and kind of decision (kinds of action that are offered together
are one kind of decision: a turn's attack, parry and delay; a riposte or not). In each group the
features that change the choice are picked greedily: each time the one that leaves the fewest
decisions disagreeing with the usual choice of decisions alike in the features picked so far,
until none disagree (or no feature helps, or :data:`MAX_FEATURES` are picked), then any picked
feature the rest do without is dropped. Rows are the distinct values of those features (a run of
whole numbers with the same choice shown as one range), each with its choice, or the shares of
its choices where the features picked do not settle it. Decisions on which nothing rides (every
action gives every side the same chances, as often near the round limit) are left out and
counted.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from firefight.analysis.solve import TIE, Solution
from firefight.core.turns import Action, FightState
from firefight.encounter.engine import Engine

#: Most features a table is split by (more make tables nobody reads).
MAX_FEATURES = 5
#: Most features tried together when none helps alone, and most such sets tried at once.
LOOK_AHEAD = 3
MAX_COMBOS = 2000


@dataclass(frozen=True)
class Decision:
    """One decision of an optimizing side, as the tables read it."""

    state: int
    decider: str
    kinds: frozenset[str]
    features: dict[str, Any]
    #: The best action's id, and its name in the table (kind and distinguishing parameters).
    action_id: str
    choice: str
    #: The chance the fight meets this decision (every decision the best).
    reach: float
    #: How much better the best action is than the next best, for the decider's side.
    edge: float
    #: False where every action gives every side the same chances: nothing rides on it.
    matters: bool = True


@dataclass(frozen=True)
class Span:
    """A run of whole numbers (the last feature of rows merged by :func:`_ranges`)."""

    low: int
    high: int

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low} to {self.high}"


@dataclass
class Row:
    """Decisions alike in the table's features: a value each (the last may be a :class:`Span`)."""

    values: list[Any]
    choices: Counter[str] = field(default_factory=Counter)
    states: int = 0
    #: Decisions of this row a fight meets on average (the chances of meeting each summed).
    per_fight: float = 0.0
    #: The best action's advantage over the next best, weighted by the chance of meeting it.
    edge_sum: float = 0.0

    @property
    def choice(self) -> str:
        """The choice, or each choice with its share of the row's decisions."""
        if len(self.choices) == 1:
            return next(iter(self.choices))
        return " / ".join(
            f"{c} {100 * n / self.states:.0f}%" for c, n in self.choices.most_common()
        )

    @property
    def edge(self) -> float:
        return self.edge_sum / self.per_fight if self.per_fight else 0.0

    def matches(self, features: dict[str, Any], names: Sequence[str]) -> bool:
        for name, value in zip(names, self.values, strict=True):
            got = features.get(name)
            if isinstance(value, Span):
                if not (isinstance(got, int) and value.low <= got <= value.high):
                    return False
            elif got != value:
                return False
        return True


@dataclass
class Table:
    """The decisions of one decider and one kind of decision."""

    decider: str
    kinds: tuple[str, ...]
    features: list[str]
    rows: list[Row]
    #: Decisions left out because nothing rides on them (every action, the same chances).
    idle: int = 0

    @property
    def title(self) -> str:
        """``Rolf: hold or riposte``."""
        kinds = list(self.kinds)
        return f"{self.decider}: " + (
            f"{', '.join(kinds[:-1])} or {kinds[-1]}" if len(kinds) > 1 else kinds[0]
        )

    @property
    def per_fight(self) -> float:
        """Decisions of this table a fight meets on average."""
        return sum(r.per_fight for r in self.rows)

    def row_for(self, features: dict[str, Any]) -> Row | None:
        """The row a decision with these features falls in."""
        for row in self.rows:
            if row.matches(features, self.features):
                return row
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "decider": self.decider,
            "kinds": list(self.kinds),
            "features": self.features,
            "idle": self.idle,
            "rows": [
                {
                    "values": dict(
                        zip(self.features, (_jsonable(v) for v in r.values), strict=True)
                    ),
                    "choice": r.choice,
                    "choices": dict(r.choices),
                    "states": r.states,
                    "per_fight": r.per_fight,
                    "edge": r.edge,
                }
                for r in self.rows
            ],
        }


# ----------------------------------------------------------------------------------------------
# decisions
# ----------------------------------------------------------------------------------------------
def decisions(solution: Solution, reach: dict[int, float]) -> list[Decision]:
    """Every decision of an optimizing side that the fight meets with any chance."""
    game = solution.game
    engine = game.engine
    out: list[Decision] = []
    for sid, chosen in solution.choice.items():
        p = reach.get(sid, 0.0)
        if p <= 0:
            continue
        state = game.states[sid]
        actions = game.actions(sid)
        side = game.decider[sid]
        qs = solution.q[sid]
        others = [q[side] for i, q in enumerate(qs) if i != chosen]
        edge = qs[chosen][side] - max(others) if others else 0.0
        matters = any(abs(a - b) > TIE for q in qs for a, b in zip(q, qs[chosen], strict=True))
        out.append(
            Decision(
                sid,
                state.decider(),
                frozenset(a.kind for a in actions),
                features(engine, state),
                actions[chosen].id,
                "",
                p,
                edge,
                matters,
            )
        )
    return _named(out, solution)


def features(engine: Engine, state: FightState) -> dict[str, Any]:
    """The state as a decision may read it: the ruleset's declared features, the decider's
    view, the others' views (prefixed with their names), the round."""
    turns = engine.turns
    me = state.decider()
    out: dict[str, Any] = {k: _hashable(v) for k, v in turns.decision_features(state).items()}
    own = state.combatant(me)
    for k, v in turns.view(own).items():
        out.setdefault(k, _hashable(v))
    for c in state.combatants:
        if c.name != me:
            for k, v in turns.view(c).items():
                out[f"{c.name} {k}"] = _hashable(v)
    out["round"] = state.round
    return out


def _named(found: list[Decision], solution: Solution) -> list[Decision]:
    """The decisions with their choices named (:meth:`Telling.describe`), by the actions
    offered in their group."""
    game = solution.game
    out: list[Decision] = []
    for group in _groups(found):
        telling = Telling.of([game.actions(d.state) for d in group])
        for d in group:
            chosen = next(a for a in game.actions(d.state) if a.id == d.action_id)
            out.append(dataclasses.replace(d, choice=telling.describe(chosen)))
    return out


@dataclass(frozen=True)
class Telling:
    """What tells the actions offered in a group apart: targets and parameters, or (names that
    two actions of one state would share) their ids."""

    by_target: bool
    keys: tuple[str, ...]
    by_id: frozenset[str] = frozenset()

    @classmethod
    def of(cls, offers: list[tuple[Action, ...]]) -> Telling:
        targets: dict[str, set[Any]] = {}
        params: dict[tuple[str, str], set[Any]] = {}
        for actions in offers:
            for a in actions:
                targets.setdefault(a.kind, set()).add(a.target)
                for k, v in a.params:
                    params.setdefault((a.kind, k), set()).add(v)
        by_target = any(len(t) > 1 for t in targets.values())
        keys = tuple(dict.fromkeys(k for (_, k), vs in params.items() if len(vs) > 1))
        plain = cls(by_target, keys)
        shared: set[str] = set()
        for actions in dict.fromkeys(offers):
            names = Counter(plain.describe(a) for a in actions)
            shared |= {name for name, n in names.items() if n > 1}
        return cls(by_target, keys, frozenset(shared))

    def describe(self, action: Action) -> str:
        """The action's kind, and its target and parameters where they tell it from the
        others (``attack: burst``); its id where two actions of a state would share that
        (``defend:evade``)."""
        parts = [action.target] if self.by_target and action.target else []
        parts += [_word(k, v) for k, v in action.params if k in self.keys]
        name = f"{action.kind}: {', '.join(parts)}" if parts else action.kind
        return action.id if name in self.by_id else name


def _word(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return key if value else f"no {key}"
    if isinstance(value, tuple):
        return "+".join(str(v) for v in value)
    return str(value)


def _groups(found: list[Decision]) -> list[list[Decision]]:
    """Decisions by decider, kinds of action that are ever offered together in one group."""
    out: list[list[Decision]] = []
    by_decider: dict[str, list[Decision]] = {}
    for d in found:
        by_decider.setdefault(d.decider, []).append(d)
    for ds in by_decider.values():
        sets: list[set[str]] = []
        for kinds in dict.fromkeys(d.kinds for d in ds):
            joined = set(kinds)
            for s in [s for s in sets if s & joined]:
                joined |= s
                sets.remove(s)
            sets.append(joined)
        for s in sets:
            out.append([d for d in ds if d.kinds <= s])
    return out


# ----------------------------------------------------------------------------------------------
# tables
# ----------------------------------------------------------------------------------------------
def tables(found: list[Decision]) -> list[Table]:
    """One table per decider and kind of decision, the most met first."""
    out = []
    for group in _groups(found):
        kinds = tuple(sorted(set().union(*(d.kinds for d in group))))
        matter = [d for d in group if d.matters]
        chosen = select_features(matter)
        rows = _rows(matter, chosen)
        out.append(Table(group[0].decider, kinds, chosen, rows, len(group) - len(matter)))
    out.sort(key=lambda t: -t.per_fight)
    return out


def select_features(group: list[Decision]) -> list[str]:
    """The few features that settle the group's choices (see the module docstring)."""
    candidates = _distinct_features(group)
    chosen: list[str] = []
    worst = _disagreeing(group, chosen)
    while worst and candidates and len(chosen) < MAX_FEATURES:
        step = _best_step(group, chosen, candidates, worst)
        if step is None:
            break
        chosen += step
        candidates = [c for c in candidates if c not in step]
        worst = _disagreeing(group, chosen)
    for name in list(chosen):
        fewer = [c for c in chosen if c != name]
        if _disagreeing(group, fewer) <= worst:
            chosen = fewer
    return sorted(chosen, key=lambda name: _numbers(group, name))


def _numbers(group: list[Decision], name: str) -> int:
    """How many whole numbers the feature takes (0 if any value is not one): the feature
    with the most goes last, where runs of rows merge into ranges."""
    values = {d.features.get(name) for d in group}
    return len(values) if all(_whole(v) for v in values) else 0


def _distinct_features(group: list[Decision]) -> list[str]:
    """The features that vary in the group, in their order, each that splits the decisions as
    an earlier one does left out (a status word that follows the wounds)."""
    out: list[str] = []
    seen: set[tuple[int, ...]] = set()
    for name in dict.fromkeys(k for d in group for k in d.features):
        ids: dict[Any, int] = {}
        split = tuple(ids.setdefault(d.features.get(name), len(ids)) for d in group)
        if len(ids) > 1 and split not in seen:
            seen.add(split)
            out.append(name)
    return out


def _best_step(
    group: list[Decision], chosen: list[str], candidates: list[str], worst: int
) -> list[str] | None:
    """The feature that most lessens the disagreement, or if none does on its own, the pair or
    three that do (features can settle together what none settles alone: a riposte turns on
    the margin, the contest and whether the decider has still to act); None if none does."""
    for size in range(1, min(LOOK_AHEAD, MAX_FEATURES - len(chosen)) + 1):
        combos = list(itertools.islice(itertools.combinations(candidates, size), MAX_COMBOS))
        if not combos:
            return None
        best, step = min(
            ((_disagreeing(group, [*chosen, *c]), list(c)) for c in combos), key=lambda x: x[0]
        )
        if best < worst:
            return step
    return None


def _disagreeing(group: list[Decision], names: list[str]) -> int:
    """Decisions whose choice is not the usual one among those alike in ``names``."""
    cells: dict[tuple[Any, ...], Counter[str]] = {}
    for d in group:
        key = tuple(d.features.get(n) for n in names)
        cells.setdefault(key, Counter())[d.choice] += 1
    return sum(sum(c.values()) - c.most_common(1)[0][1] for c in cells.values())


def _rows(group: list[Decision], names: list[str]) -> list[Row]:
    cells: dict[tuple[Any, ...], Row] = {}
    for d in group:
        key = tuple(d.features.get(n) for n in names)
        row = cells.get(key)
        if row is None:
            row = cells[key] = Row(list(key))
        row.choices[d.choice] += 1
        row.states += 1
        row.per_fight += d.reach
        row.edge_sum += d.reach * d.edge
    rows = [cells[k] for k in sorted(cells, key=lambda k: tuple(_natural(v) for v in k))]
    return _ranges(rows)


def _ranges(rows: list[Row]) -> list[Row]:
    """Runs of rows alike but in the last feature, a whole number, and with one same choice,
    merged into one row over its range (low, high)."""
    out: list[Row] = []
    for row in rows:
        last = out[-1] if out else None
        if (
            last is not None
            and row.values
            and _whole(row.values[-1])
            and last.values[:-1] == row.values[:-1]
            and len(last.choices) == 1
            and last.choices.keys() == row.choices.keys()
        ):
            low = last.values[-1]
            low = low.low if isinstance(low, Span) else low
            if _whole(low):
                last.values[-1] = Span(low, row.values[-1])
                last.choices.update(row.choices)
                last.states += row.states
                last.per_fight += row.per_fight
                last.edge_sum += row.edge_sum
                continue
        out.append(row)
    return out


def show(value: Any) -> str:
    """A feature's value as a cell."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _natural(value: Any) -> tuple[Any, ...]:
    """A sort key: numbers by value, text with numbers in it by those numbers, then the rest."""
    if isinstance(value, bool) or value is None:
        return (0, str(value))
    if isinstance(value, (int, float)):
        return (1, value)
    parts = re.split(r"(-?\d+)", str(value))
    return (2, tuple((0, int(p), "") if re.fullmatch(r"-?\d+", p) else (1, 0, p) for p in parts))


def _hashable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, default=str)
    return value


def _jsonable(value: Any) -> Any:
    if isinstance(value, Span):
        return {"from": value.low, "to": value.high}
    if isinstance(value, tuple):
        return list(value)
    return value
