"""Dice sources: one protocol, three kinds. Rule code never touches a random generator.

A rule asks ``dice.roll("2d20", why="attacker")`` and gets a :class:`Roll`. The same rule runs on

- :class:`SeededDice`: a numpy ``Generator`` (same seed, same rolls on every machine);
- :class:`ScriptedDice`: the faces a table rolled, in order (every worked-example test);
- :class:`ExactDice`, through :func:`enumerate_outcomes`: every branch over the *distinct values*
  of each request, with its probability, so odds come from the very code that resolves.

``dice.derive(why, fn, key=...)`` runs a sub-rule: on seeded/scripted dice it simply calls
``fn(dice)``; in exact mode it enumerates ``fn`` once (memoised by ``key`` for the whole top-level
enumeration, nested derives included) and branches over its distinct results. Ask for the
quantity the rule needs and enumeration stays small.

``derive(..., exact=table)`` hands exact mode the sub-rule's distribution computed another way
(e.g. one numpy pass of the same pure rule steps over the dice distributions) instead of replaying
``fn`` path by path. ``table`` is a callable, called only by exact dice and only at the default
explosion depth (``Depth()``, the depth the core's exact distributions use); at any other depth,
or inside :func:`path_by_path`, ``fn`` is enumerated instead. The table must equal
``enumerate_outcomes(fn)``; every ruleset that uses it holds the two routes to identical
fractions in a test (:func:`path_by_path` gives the plain route).

Sub-rule caching, ``derive(..., keep=True)``: the scope, in full.

- *Which keys*: only derives that pass ``keep=True``, whose ``key`` names the sub-rule **by
  content**: every value ``fn`` (and its table) reads is in the key or is a constant. Never an
  object id: ids are reused once an object dies. Other keys stay per enumeration, as above.
- *What is kept*: the exact distribution (from the table, or from enumerating ``fn``), under
  ``(key, depth, tables on/off, route)``, so a depth or :func:`path_by_path` never meets a
  result computed another way.
- *How long*: for the process, shared by every enumeration (a sub-rule nested in a wound nested
  in an attack is enumerated once, not once per parent); :func:`clear_derived` forgets them all.
- *Bounded memory*: at most :data:`KEPT_LIMIT` entries; when full the cache starts over.
- *Path budget*: a kept sub-rule not yet known is enumerated inside the current enumeration, so
  its paths count against ``enumerate_outcomes(max_paths=...)`` like any nested derive (a
  :class:`TooManyPaths` leaves nothing half-kept). Tables are not paths and are not counted; a
  known sub-rule costs nothing, so the budget measures the work an enumeration really does, and
  one that failed cold may fit once its sub-rules are known (a graydawn preview can turn exact).

:func:`derived_distribution` reads the same cache outside an enumeration (a table built from
other sub-rules' distributions).

``dice.record(event)`` appends a transcript event; rolls are recorded automatically. Exact dice
record nothing (there is no single transcript of all branches).

Long work can be stopped from inside: within :func:`checked`, every exact enumeration calls the
check once per path and seeded dice once per roll, and the check raises to stop the work (its
time is up, or its answer is no longer wanted). Outside it nothing is called.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast, runtime_checkable

from firefight.dice.depth import Depth, resolve_depth
from firefight.dice.nodes import Node, Sorted
from firefight.dice.parse import as_node
from firefight.dice.rolling import DieTeller, Rolled, Value, roll_tree
from firefight.errors import DiceError, ScriptError

if TYPE_CHECKING:
    import numpy as np

    from firefight.dice.dist import Weighted

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True)
class Roll:
    """One answered roll request: what was asked, why, and what came up."""

    expr: str
    why: str
    value: Value
    tags: frozenset[str] = frozenset()
    #: Every die, on seeded and scripted dice; None in exact mode (only the value is known).
    rolled: Rolled | None = None

    @property
    def total(self) -> int:
        """The value as a number (a :class:`DiceError` for a tuple of faces, e.g. ``sort()``)."""
        if not isinstance(self.value, int):
            raise DiceError(f"{self.expr} is a tuple of faces, not a number")
        return self.value

    @property
    def faces(self) -> tuple[int, ...]:
        """The faces that were shown, in rolled order (empty in exact mode)."""
        return tuple(f.face for f in self.rolled.all_faces()) if self.rolled else ()

    def __int__(self) -> int:
        """``int(roll)`` is :attr:`total`."""
        return self.total


@runtime_checkable
class DiceSource(Protocol):
    """What rule code may ask of its dice."""

    @property
    def is_exact(self) -> bool:
        """True on exact dice: no transcript is kept, so a rule may skip building its events."""
        ...

    @property
    def events(self) -> list[Any]:
        """The transcript so far (rolls and recorded events); always empty on exact dice."""
        ...

    def roll(self, expr: str | Node, why: str = "") -> Roll:
        """Roll ``expr`` (notation or a syntax tree); ``why`` names the roll in transcripts and
        in a scripted-dice error."""
        ...

    def derive(
        self,
        why: str,
        fn: Callable[[DiceSource], T],
        key: Hashable = None,
        *,
        exact: Callable[[], Weighted[T]] | None = None,
        keep: bool = False,
    ) -> T:
        """Run the sub-rule ``fn`` and return its result: on rolling dice ``fn(self)``; on exact
        dice one branch per distinct result. ``key`` memoises it per enumeration; ``exact`` is
        its distribution computed another way (called on exact dice only, at the default
        depth); ``keep`` says ``key`` names it by content, so its distribution is kept for the
        process (scope: the module docstring)."""
        ...

    def record(self, event: Any) -> None:
        """Append a transcript event (exact dice keep none)."""
        ...


#: The check of :func:`checked`, or None: no check.
_CHECK: ContextVar[Callable[[], None] | None] = ContextVar("firefight_check", default=None)


@contextmanager
def checked(check: Callable[[], None]) -> Iterator[None]:
    """Within (in this thread or task): ``check()`` is called once per path of every exact
    enumeration and once per roll of every seeded dice source made inside; it stops the work
    by raising. A check should be cheap: it is called thousands of times a second."""
    token = _CHECK.set(check)
    try:
        yield
    finally:
        _CHECK.reset(token)


class _RollingDice:
    """Shared body of the sources that roll real faces (seeded and scripted)."""

    #: Called once per roll (seeded dice made within :func:`checked`); None: nothing.
    _check: Callable[[], None] | None = None
    #: Told of each die before its face is asked (the table's dice asked roll by roll); None:
    #: nobody listens.
    _tell: DieTeller | None = None

    def __init__(self) -> None:
        self._events: list[Any] = []
        self._pending_why = ""
        #: Every face shown, in the order drawn: replayed as scripted dice, they give the same
        #: rolls (the encounter record keeps them).
        self.tape: list[int] = []

    @property
    def is_exact(self) -> bool:
        """False: real faces, with a transcript."""
        return False

    @property
    def events(self) -> list[Any]:
        """Every roll and recorded event, in order."""
        return self._events

    def _face(self, sides: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def _taped(self, sides: int) -> int:
        face = self._face(sides)
        self.tape.append(face)
        return face

    def roll(self, expr: str | Node, why: str = "") -> Roll:
        """Roll every die of ``expr``, tape its faces and record the roll."""
        if self._check is not None:
            self._check()
        node = as_node(expr)
        self._pending_why = why
        rolled = roll_tree(node, self._taped, self._tell)
        result = Roll(str(node), why, rolled.value, rolled.tags, rolled)
        self._events.append(result)
        return result

    def derive(
        self,
        why: str,
        fn: Callable[[DiceSource], T],
        key: Hashable = None,
        *,
        exact: Callable[[], Weighted[T]] | None = None,
        keep: bool = False,
    ) -> T:
        """Rolling dice run the sub-rule itself: its rolls and events join this transcript."""
        return fn(self)

    def record(self, event: Any) -> None:
        """Append ``event`` to the transcript."""
        self._events.append(event)


class SeededDice(_RollingDice):
    """Random faces from a numpy ``Generator`` (or a seed): reproducible on every machine."""

    def __init__(self, rng: np.random.Generator | int | None = None) -> None:
        import numpy as np  # here: exact odds and scripted dice never need numpy

        super().__init__()
        self.rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        self._check = _CHECK.get()

    def _face(self, sides: int) -> int:
        return int(self.rng.integers(1, sides + 1))

    def face(self, sides: int) -> int:
        """One face of a d``sides``, untaped (the program's die for a group the table leaves to
        it)."""
        return self._face(sides)


class ScriptedDice(_RollingDice):
    """The faces a table rolled by hand, consumed in order."""

    def __init__(self, faces: Sequence[int]) -> None:
        super().__init__()
        self.faces = [int(f) for f in faces]
        self.used = 0

    @property
    def unused(self) -> list[int]:
        """The faces not yet consumed."""
        return self.faces[self.used :]

    def _face(self, sides: int) -> int:
        position = self.used + 1
        why = f" for {self._pending_why!r}" if self._pending_why else ""
        if self.used >= len(self.faces):
            raise ScriptError(
                f"the table's dice ran out: die {position} (a d{sides}{why}) has no face",
                tip=f"give at least {position} faces, in transcript order",
            )
        face = self.faces[self.used]
        if not 1 <= face <= sides:
            raise ScriptError(
                f"the table's die {position} shows {face}, which a d{sides}{why} cannot show",
                tip=f"a d{sides} shows 1..{sides}",
            )
        self.used += 1
        return face

    def check_all_used(self) -> None:
        """Raise if faces are left over: a mistyped script should not pass silently."""
        if self.unused:
            raise ScriptError(
                f"{len(self.unused)} of the table's faces left unused: {self.unused}",
                tip="remove the extra faces or check their order",
            )


# ----------------------------------------------------------------------------------------------
# Exact enumeration
# ----------------------------------------------------------------------------------------------
Branches = tuple[tuple[tuple[Any, frozenset[str]], ...], tuple[int, ...], int]


@lru_cache(maxsize=1024)
def _branches(node: Node, depth: Depth) -> Branches:
    """Distinct (value, tags) of a request, their weights and the denominator."""
    from firefight.dice.exact import exact_sorted, tagged

    if isinstance(node, Sorted):
        w = exact_sorted(node)
        items = list(w.items())
        return tuple((v, frozenset()) for v, _ in items), tuple(x for _, x in items), w.total
    groups = tagged(node, resolve_depth(node, depth))
    keys: list[tuple[Any, frozenset[str]]] = []
    weights: list[int] = []
    for tags, d in groups:
        for v, x in d.items():
            keys.append((v, tags))
            weights.append(x)
    return tuple(keys), tuple(weights), groups[0][1].total


#: Off inside :func:`path_by_path`: every derive enumerates its ``fn``, ignoring tables.
_TABLES: ContextVar[bool] = ContextVar("firefight_derive_tables", default=True)
#: Most kept sub-rules (``derive(..., keep=True)``) before the cache starts over.
KEPT_LIMIT = 200_000


class _Kept:
    """A kept sub-rule's distribution, and its branches once an enumeration asks for them (a
    table read only through :func:`derived_distribution` never needs them)."""

    __slots__ = ("_branches", "weighted")

    def __init__(self, weighted: Weighted[Any]) -> None:
        self.weighted = weighted
        self._branches: Branches | None = None

    @property
    def branches(self) -> Branches:
        found = self._branches
        if found is None:
            found = self._branches = _as_branches(self.weighted)
        return found


_KEPT: dict[Hashable, _Kept] = {}
_DEFAULT_DEPTH = Depth()


@dataclass
class _Shared:
    depth: Depth
    branches: dict[Any, Branches] = field(default_factory=dict)
    derived: dict[Hashable, Branches] = field(default_factory=dict)
    #: Most paths (nested derives included) before :class:`TooManyPaths`; None: no limit.
    max_paths: int | None = None
    walked: int = 0
    #: Tables (``derive(..., exact=)``) are used: the default depth, outside path_by_path.
    tables: bool = True

    #: (depth, tables) as a small int, for cheap kept-cache keys.
    route: int = 0

    def __post_init__(self) -> None:
        self.tables = _TABLES.get() and self.depth == Depth()
        self.route = _route(self.depth, self.tables)


_ROUTES: dict[tuple[Depth, bool], int] = {}


def _route(depth: Depth, tables: bool) -> int:
    found = _ROUTES.get((depth, tables))
    if found is None:
        found = _ROUTES[(depth, tables)] = len(_ROUTES)
    return found


def _as_branches(sub: Weighted[Any]) -> Branches:
    items = list(sub.items())
    return tuple((k, frozenset()) for k, _ in items), tuple(w for _, w in items), sub.total


def _kept(
    key: Hashable,
    fn: Callable[[DiceSource], Any],
    exact: Callable[[], Weighted[Any]] | None,
    shared: _Shared | None,
) -> _Kept:
    """A kept sub-rule's distribution: from the process-wide cache, else computed (its paths
    counted in ``shared``'s budget; None: a fresh enumeration at the default depth) and kept.
    Cached under (key, depth and tables as one int, table or paths)."""
    if shared is None:
        tables = _TABLES.get()
        route = _route(_DEFAULT_DEPTH, tables)
    else:
        tables, route = shared.tables, shared.route
    use_table = exact is not None and tables
    full = (key, route, use_table)
    found = _KEPT.get(full)
    if found is None:
        if use_table and exact is not None:
            sub = exact()
        else:
            sub = _enumerate(fn, shared if shared is not None else _Shared(_DEFAULT_DEPTH))
        found = _Kept(sub)
        if len(_KEPT) >= KEPT_LIMIT:
            _KEPT.clear()
        _KEPT[full] = found
    return found


def derived_distribution(
    fn: Callable[[DiceSource], T],
    key: Hashable,
    *,
    exact: Callable[[], Weighted[T]] | None = None,
) -> Weighted[T]:
    """The distribution ``dice.derive(why, fn, key, exact=exact, keep=True)`` branches over at the
    default depth, from (or into) the same process-wide cache: for a table built out of other
    sub-rules' distributions. ``key`` must name the sub-rule by content."""
    return _kept(key, fn, exact, None).weighted


#: Values a rule builds out of kept sub-rules (:func:`kept_value`), by (key, route).
_VALUES: dict[Hashable, Any] = {}


def kept_value(key: Hashable, build: Callable[[], T]) -> T:
    """``build()``, kept process-wide beside the kept sub-rules it is made of: under the same
    route (depth, tables or path by path), bounded as they are, and forgotten with them by
    :func:`clear_derived`. ``key`` must name the value by content."""
    full = (key, _route(_DEFAULT_DEPTH, _TABLES.get()))
    found = _VALUES.get(full, _VALUES)
    if found is _VALUES:
        found = build()
        if len(_VALUES) >= KEPT_LIMIT:
            _VALUES.clear()
        _VALUES[full] = found
    return cast(T, found)


def clear_derived() -> None:
    """Forget every kept sub-rule and value (for cold timings, and between the two routes in
    tests)."""
    _KEPT.clear()
    _VALUES.clear()


@contextmanager
def path_by_path() -> Iterator[None]:
    """Within: exact enumerations ignore every ``exact=`` table and enumerate each sub-rule's
    ``fn`` path by path (kept apart from table results), for tests that hold both routes to
    identical fractions."""
    token = _TABLES.set(False)
    try:
        yield
    finally:
        _TABLES.reset(token)


class TooManyPaths(DiceError):
    """An enumeration that would walk more paths than its caller allowed."""


class ExactDice:
    """One replay of a rule along a path of branch choices (see :func:`enumerate_outcomes`)."""

    def __init__(self, path: list[int], shared: _Shared) -> None:
        self._path = path
        self._sizes: list[int] = []
        self._shared = shared
        self._num = 1
        self._den = 1

    @property
    def is_exact(self) -> bool:
        """True: branches, not faces; no transcript."""
        return True

    @property
    def events(self) -> list[Any]:
        """Always empty: there is no single transcript of all branches."""
        return []

    def record(self, event: Any) -> None:
        """Exact mode keeps no transcript."""

    def _choose(self, branches: Branches) -> tuple[Any, frozenset[str]]:
        keys, weights, total = branches
        i = len(self._sizes)
        if i == len(self._path):
            self._path.append(0)
        choice = self._path[i]
        self._sizes.append(len(keys))
        self._num *= weights[choice]
        self._den *= total
        return keys[choice]

    def roll(self, expr: str | Node, why: str = "") -> Roll:
        """This path's branch of ``expr``'s distinct values (value and tags, no faces)."""
        cache = self._shared.branches
        branches = cache.get(expr)
        if branches is None:
            node = as_node(expr)
            branches = _branches(node, self._shared.depth)
            cache[expr] = branches
        value, tags = self._choose(branches)
        return Roll(str(expr), why, value, tags)

    @property
    def depth(self) -> Depth:
        """The explosion depth this enumeration runs at."""
        return self._shared.depth

    def derive(
        self,
        why: str,
        fn: Callable[[DiceSource], T],
        key: Hashable = None,
        *,
        exact: Callable[[], Weighted[T]] | None = None,
        keep: bool = False,
    ) -> T:
        """This path's branch of the sub-rule's distribution: per enumeration by ``key``, kept
        for the process with ``keep`` (scope: the module docstring), from ``exact`` where the
        tables serve (the default depth, outside :func:`path_by_path`), else enumerated inside
        this enumeration (its paths counted in the budget)."""
        shared = self._shared
        derived = shared.derived
        branches = derived.get(key) if key is not None else None
        if branches is None:
            if keep and key is not None:
                branches = _kept(key, fn, exact, shared).branches
            else:
                # a sub-enumeration shares this enumeration's caches, so a derive nested inside
                # another derive's sub-rule is enumerated once per top-level enumeration
                use_table = exact is not None and shared.tables
                sub = exact() if use_table and exact is not None else _enumerate(fn, shared)
                branches = _as_branches(sub)
            if key is not None:
                derived[key] = branches
        value, _ = self._choose(branches)
        return value  # type: ignore[no-any-return]


def enumerate_outcomes(
    fn: Callable[[DiceSource], T],
    *,
    depth: Depth | int | None = None,
    max_paths: int | None = None,
) -> Weighted[T]:
    """Run ``fn`` on every branch of its dice and gather its results with exact weights.

    Depth-first replay: each run follows a path of branch indices, extending it with the first
    branch of any new request; then the last index that can advance is advanced. Mass that open-
    ended dice leave out stays out and shows as ``truncated_mass``. Past ``max_paths`` runs of
    ``fn`` (nested derives counted), :class:`TooManyPaths` is raised: a guard for callers that
    would rather do without an exact answer than wait for it.
    """
    shared = _Shared(depth if isinstance(depth, Depth) else Depth(depth), max_paths=max_paths)
    return _enumerate(fn, shared)


def enumerate_counted(
    fn: Callable[[DiceSource], T], *, max_paths: int | None = None
) -> tuple[Weighted[T], int]:
    """:func:`enumerate_outcomes` at the default depth, and the paths it walked (nested derives
    counted): for callers that share one budget between several enumerations."""
    shared = _Shared(Depth(), max_paths=max_paths)
    return _enumerate(fn, shared), shared.walked


def _enumerate(fn: Callable[[DiceSource], T], shared: _Shared) -> Weighted[T]:
    # outcome -> {path denominator: summed numerators}: integer sums, no Fraction per path
    acc: dict[T, dict[int, int]] = {}
    path: list[int] = []
    check = _CHECK.get()
    while True:
        if check is not None:
            check()
        shared.walked += 1
        if shared.max_paths is not None and shared.walked > shared.max_paths:
            raise TooManyPaths(f"more than {shared.max_paths:,} paths to enumerate")
        source = ExactDice(path, shared)
        outcome = fn(source)
        slot = acc.get(outcome)
        if slot is None:
            slot = acc[outcome] = {}
        den = source._den
        slot[den] = slot.get(den, 0) + source._num
        sizes = source._sizes
        del path[len(sizes) :]
        while path and path[-1] + 1 >= sizes[len(path) - 1]:
            path.pop()
        if not path:
            break
        path[-1] += 1
    return gathered(acc)


def spread_last(
    first: Weighted[Any],
    rest: Callable[[Any], tuple[Weighted[Any], Callable[[Any], T]] | None],
) -> Weighted[T]:
    """The enumeration of a rule whose every path ends in one sub-rule, without replaying the
    rule once per branch of that sub-rule (a replay costs the whole rule; a long burst's last
    sub-rule has hundreds of branches behind each of a few dozen earlier paths).

    ``first``: the enumerated distribution of what the rule settles before that sub-rule;
    ``rest(x)``: None where ``x`` is already the outcome, else the distribution the sub-rule's
    derive branches over and how its result makes the outcome. The paths' weights over their
    least common multiple, reduced, in the order an enumeration meets the outcomes: the
    identical Weighted (one denominator per earlier value, so no per-outcome slots)."""
    total = first.total
    groups: list[tuple[Iterable[tuple[T, int]], int, int]] = []
    for x, w in first.items():
        tail = rest(x)
        if tail is None:
            groups.append((((x, 1),), w, total))
        else:
            table, finish = tail
            groups.append((_finished(table, finish), w, total * table.total))
    weights, common = mixed_weights(groups)
    return reduced(list(weights), list(weights.values()), common)


def _finished(table: Weighted[Any], finish: Callable[[Any], T]) -> Iterator[tuple[T, int]]:
    """A sub-rule's table as the outcomes its results make, weights kept (made as mixed)."""
    for result, w in table.items():
        yield finish(result), w


def mixed_weights(
    groups: Iterable[tuple[Iterable[tuple[T, int]], int, int]],
) -> tuple[dict[T, int], int]:
    """``[(outcomes with weights, group weight, group denominator)]`` -> the weights over the
    least common multiple of the denominators, and that multiple (exact integers, not
    reduced): how tables whose branches come in groups sharing a denominator add up, each
    group scaled once, outcomes in the order first met."""
    groups = list(groups)
    common = math.lcm(*{den for _, _, den in groups})
    scales: dict[int, int] = {}
    weights: dict[T, int] = {}
    for pairs, weight, den in groups:
        scale = scales.get(den)
        if scale is None:
            scale = scales[den] = common // den
        factor = weight * scale
        # most outcomes are new: setdefault hashes one once (an outcome's hash is often a
        # Python call); a second lookup only to add to one already met
        size = len(weights)
        for outcome, w in pairs:
            add = factor * w
            seen = weights.setdefault(outcome, add)
            if len(weights) == size:
                weights[outcome] = seen + add
            else:
                size += 1
    return weights, common


def gathered(acc: dict[T, dict[int, int]]) -> Weighted[T]:
    """``{outcome: {path denominator: summed numerators}}`` (paths of different dice have
    different totals) as one Weighted over their least common multiple, reduced: how an
    enumeration, or a staged one (``Engine``'s previews), adds up its paths exactly."""
    dens = {den for slot in acc.values() for den in slot}
    common = math.lcm(*dens)
    scale = {den: common // den for den in dens}  # once per denominator, not per outcome
    values = []
    for slot in acc.values():
        if len(slot) == 1:  # most outcomes: one kind of path
            for den, num in slot.items():
                values.append(num * scale[den])
        else:
            values.append(sum(num * scale[den] for den, num in slot.items()))
    return reduced(list(acc), values, common)


def reduced(outcomes: list[T], values: list[int], common: int) -> Weighted[T]:
    """Weights over ``common`` with their common factor taken out (one gcd over all, in C):
    the one form every exact route of a rule gives alike."""
    from firefight.dice.dist import Weighted

    if sum(values) > common:  # pragma: no cover - would be a bug in the branch weights
        raise DiceError("exact enumeration produced more than certainty")
    g = math.gcd(common, *values)
    if g > 1:
        values = [v // g for v in values]
    return Weighted.adopt(dict(zip(outcomes, values, strict=True)), common // g)
