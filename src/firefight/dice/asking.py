"""The table's dice, asked for roll by roll: the rule code itself says what it needs next.

:class:`AskingDice` runs a rule on the faces the table has given so far, exactly as
:class:`~firefight.dice.sources.ScriptedDice` would, and stops at the first die those faces do
not cover (:class:`DiceNeeded`), naming the group of dice the table throws next. Every question
comes from the rule code's own requests in the rule code's own order, and the dice of one
expression in the order :func:`~firefight.dice.rolling.roll_tree` rolls them (it tells which
die it asks for, :class:`~firefight.dice.rolling.DieCall`): nothing here holds a second copy of
any roll order. Given every face, the run is the scripted one, so the faces, transcript and
result are those ``--dice`` gives.

A *group* is what the table throws at once:

- the dice of a plain term (``2d20``, ``4d6kh3``, ``sort(3d12)``, ``d100``), or those of them
  still missing;
- one die of an exploding (``d10x``) or open-ended plus-minus (``pm6``) term: a plus-minus roll
  asks for its plus die, then its minus die;
- the extra die a face calls for ("the 6 explodes: one more d6").

The program may roll the next group, or all the rest, for the table (``fill``): its faces join
the faces so far, so a record keeps every face whoever rolled it. A die the program rolls rolls
its extra dice too.

:func:`ask` answers, for faces so far, either the next group (and the groups the faces
answered) or that the resolution is complete (its result and transcript); it commits nothing,
so it costs one run of the rule.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from firefight.dice.nodes import Exploding, Node, PlusMinus
from firefight.dice.parse import as_node
from firefight.dice.rolling import DieCall, FaceSupplier
from firefight.dice.sources import DiceSource, ScriptedDice
from firefight.errors import ScriptError

T = TypeVar("T")

#: How the table throws a group: plain dice, a CP2020 exploding die, a Dragon Warriors
#: open-ended plus-minus die, or a D100 (read as one number, 1-100).
Kind = Literal["plain", "exploding", "plus-minus", "d100"]

#: A rule ID in a roll's words: a capital and two digits, e.g. ``W01``, ``G24``, in the
#: parentheses the words end their rules in ("(G02/G04)", "(D100 vs 26, Q01)"), so that a
#: weapon called "M16" is not read as one.
_RULE_ID = re.compile(r"\b[A-Z][0-9]{2}\b")
_BRACKETS = re.compile(r"\(([^()]*)\)")
#: The rule a special die's notation comes from (``dice/nodes.py``), named when the roll's
#: words name none (a Dragon Warriors contest says only "Rolf: attack").
_NOTATION_RULE: dict[Kind, str] = {"exploding": "G02", "plus-minus": "D01"}


@dataclass(frozen=True)
class Group:
    """One group of dice the table throws at once, and what it is for."""

    #: Where its first face goes among the resolution's faces (0-based, transcript order).
    start: int
    #: Dice in the group (what is still missing, for a plain group partly given).
    count: int
    sides: int
    kind: Kind
    #: The roll it belongs to, as the rule asked for it ("d10x + 11") and in its words.
    expr: str
    why: str
    #: The die's place in its term and the dice the term throws (notes "die 2 of 3").
    index: int = 0
    of: int = 1
    #: The face that called for this extra die (0: one of the term's own dice).
    after: int = 0
    #: -1: the die is subtracted (a minus die, a CP2020 1's re-roll).
    sign: int = 1
    #: Faces of the group the table gave already (the rest of a plain group is asked).
    given: int = 0

    @property
    def dice(self) -> str:
        """The group in notation, e.g. ``2d20``."""
        return f"{self.count}d{self.sides}"

    @property
    def rule(self) -> str:
        """The rule IDs the roll's words name (``G02/G04``), else the special die's own."""
        inside = " ".join(_BRACKETS.findall(self.why))
        found = list(dict.fromkeys(_RULE_ID.findall(inside)))
        if found:
            return "/".join(found)
        return _NOTATION_RULE.get(self.kind, "")

    @property
    def note(self) -> str:
        """Which die of the roll this is, in words ("" for a whole plain group)."""
        die = f"d{self.sides}"
        if self.after:
            what = die
            if self.kind == "plus-minus":
                what = "plus die" if self.sign > 0 else "minus die"
            if self.kind == "exploding" and self.after == 1:
                return f"the 1 does not count: one more {die}, subtracted"
            minus = ", subtracted" if self.sign < 0 and self.kind == "exploding" else ""
            return f"the {self.after} explodes: one more {what}{minus}"
        if self.kind == "plus-minus":
            return "the plus die" if self.sign > 0 else "the minus die"
        if self.given:
            return f"{self.given} of its {self.of} dice given"
        if self.count == 1 and self.of > 1:
            return f"die {self.index + 1} of {self.of}"
        return ""


class DiceNeeded(Exception):
    """The faces ran out: ``group`` is what the table throws next. Not a
    :class:`~firefight.errors.FirefightError`: it is a question, not a refusal."""

    def __init__(self, group: Group) -> None:
        super().__init__(f"{group.dice} for {group.why!r}")
        self.group = group


class AskingDice(ScriptedDice):
    """Scripted dice that stop at the first die the faces do not cover (:class:`DiceNeeded`),
    keeping every group the rule asked for. With ``fill``, the program rolls what is missing:
    ``fill_groups`` groups of it (a die's extra dice with it), or all of it (None)."""

    def __init__(
        self,
        faces: Sequence[int],
        fill: FaceSupplier | None = None,
        fill_groups: int | None = None,
    ) -> None:
        super().__init__(faces)
        #: Every group the rule asked for, in order (the last one may be the one missing).
        self.groups: list[Group] = []
        self._fill = fill
        self._fill_groups = fill_groups
        #: Indices (in ``groups``) of the groups the program rolled.
        self._filled: set[int] = set()
        self._expr = ""

    def roll(self, expr: str | Node, why: str = "") -> Any:
        """As scripted dice roll, remembering the request the groups belong to."""
        node = as_node(expr)
        self._expr = str(node)
        return super().roll(node, why)

    def _tell(self, call: DieCall) -> None:
        """A die is about to be asked: note the group it starts, if it starts one."""
        term = call.term
        count: int = getattr(term, "count", 1)
        alone = bool(call.after) or isinstance(term, (Exploding, PlusMinus))
        if not alone and call.index:
            return  # the rest of a plain group
        self.groups.append(
            Group(
                start=self.used,
                count=1 if alone else count,
                sides=getattr(term, "sides", 0),
                kind=_kind(term),
                expr=self._expr,
                why=self._pending_why,
                index=call.index,
                of=count,
                after=call.after,
                sign=call.sign,
            )
        )

    def _face(self, sides: int) -> int:
        if self.used >= len(self.faces):
            at = len(self.groups) - 1
            group = self.groups[at]
            if self._fill is None or not self._may_fill(at, group):
                given = self.used - group.start
                missing = dataclasses.replace(
                    group, start=self.used, count=group.count - given, given=given
                )
                raise DiceNeeded(missing)
            self._filled.add(at)
            self.faces.append(self._fill(sides))
        return super()._face(sides)

    def _may_fill(self, at: int, group: Group) -> bool:
        """Whether the program rolls this group: an extra die of a die it rolled, or one of the
        ``fill_groups`` groups it was asked to roll."""
        if at in self._filled or (group.after and at - 1 in self._filled):
            return True
        if self._fill_groups is None:
            return True
        extras = {i for i in self._filled if self.groups[i].after and i - 1 in self._filled}
        return len(self._filled - extras) < self._fill_groups


def _kind(term: Node) -> Kind:
    if isinstance(term, Exploding):
        return "exploding"
    if isinstance(term, PlusMinus):
        return "plus-minus"
    return "d100" if getattr(term, "sides", 0) == 100 else "plain"


@dataclass(frozen=True)
class Asked(Generic[T]):
    """What the table's dice have answered so far, and what is needed next (or that the
    resolution is complete)."""

    #: Every face so far, the program's included, in transcript order.
    faces: tuple[int, ...]
    #: The groups those faces answered, each with its faces (the last may be part of ``next``'s
    #: group, when ``next`` is the rest of it).
    answered: tuple[tuple[Group, tuple[int, ...]], ...]
    #: The group the table throws next; None: the resolution is complete.
    next: Group | None
    #: The rule's result once complete.
    result: T | None
    #: The transcript events so far (all of them once complete).
    events: tuple[Any, ...]

    @property
    def complete(self) -> bool:
        """True once the rule needs no more faces (``result`` holds its result)."""
        return self.next is None

    def without_last(self) -> list[int]:
        """The faces without the last group answered ("back"); none answered: none."""
        if not self.answered:
            return []
        return list(self.faces[: self.answered[-1][0].start])


#: What the program rolls for the table: the next group, or all the rest.
Program = Literal["group", "rest"]


def ask(
    run: Callable[[DiceSource], T],
    faces: Sequence[int],
    *,
    program: Program | None = None,
    seed: int | None = None,
) -> Asked[T]:
    """Run ``run`` on the faces so far and say what it needs next, or that it is complete.

    ``program``: the program rolls the next group (a die's extra dice with it) or all the rest,
    on seeded dice (``seed``; None: fresh). Faces left over once the rule is complete, or
    impossible on their die, are refused (:class:`~firefight.errors.ScriptError`) as scripted
    dice refuse them."""
    fill = None
    if program is not None:
        from firefight.dice.sources import SeededDice

        fill = SeededDice(seed).face
    source = AskingDice(faces, fill, 1 if program == "group" else None)
    missing: Group | None = None
    result: T | None = None
    try:
        result = run(source)
    except DiceNeeded as need:
        missing = need.group
    else:
        source.check_all_used()
    used = source.faces[: source.used]
    groups = source.groups if missing is None or missing.given else source.groups[:-1]
    ends = [g.start for g in groups[1:]] + [len(used)] * bool(groups)
    answered = tuple((g, tuple(used[g.start : end])) for g, end in zip(groups, ends, strict=True))
    return Asked(tuple(used), answered, missing, result, tuple(source.events))


# ----------------------------------------------------------------------------------------------
# Too few faces: what the rest of the resolution needs
# ----------------------------------------------------------------------------------------------
#: Most runs of the rule spent finding out how many faces a resolution needs in all (about
#: 0.4 s of a warfare2d20 attack): past them, the refusal names the next group and an example
#: of the rest instead of the count.
NEEDS_PATHS = 2000
#: Process seconds after which that search stops however few runs it made (a rule whose one
#: run takes milliseconds, a graydawn volley).
NEEDS_SECONDS = 2.0


class _OutOfTime(Exception):
    pass


class _Open(Exception):
    """The faces stop inside an open-ended roll: how many more it takes has no bound."""


#: One roll the rest of a resolution asks for: its dice, its words, how many faces it takes
#: (None: open-ended).
Request = tuple[str, str, int | None]


@dataclass(frozen=True)
class Needs:
    """What a resolution needs beyond the faces given: the next group (certain), how many faces
    it needs in all, and the rolls after the faces when they are the same whatever the faces."""

    given: int
    next: Group
    #: Fewest and most faces in all (most None: open-ended dice, no bound); None when not
    #: worked out within :data:`NEEDS_PATHS`.
    counts: tuple[int, int | None] | None
    #: The rolls after the faces given, when every branch asks for the same ones (None: they
    #: depend on the faces, or were not worked out in time).
    rest: tuple[Request, ...] | None
    #: The missing groups if the rest showed the program's dice (an example).
    example: tuple[Group, ...]

    def words(self, field: str) -> str:
        """The refusal, e.g. ``--dice gave 4 faces; this resolution needs 12: ...``."""
        if self.counts is None:
            how_many = "more"
        elif self.counts[1] is None:
            how_many = f"{self.counts[0]} or more in all (open-ended dice)"
        elif self.counts[0] == self.counts[1]:
            how_many = f"{self.counts[0]} in all"
        else:
            how_many = f"{self.counts[0]} to {self.counts[1]} in all, depending on what they show"
        if self.rest is not None:
            rolls, position = [], self.given + 1
            for expr, why, count in self.rest:
                span = _span(position, count)
                rolls.append(f"{span} {_shown(expr)} for {why!r}")
                position += count or 1
            listed = ", ".join(rolls)
        else:
            head = self.next
            listed = f"next {_listed(head)}"
            later = [g for g in self.example if g.start > head.start]
            if later:
                listed += ", then for example " + ", ".join(_listed(g) for g in later)
        gave = f"{self.given} face{'' if self.given == 1 else 's'}"
        return f"{field} gave {gave}; this resolution needs {how_many}: {listed}"


@contextmanager
def too_few_faces_explained(
    run: Callable[[DiceSource], Any], faces: Sequence[int], field: str, tip: str
) -> Iterator[None]:
    """Within, the table's dice running short (:class:`DiceNeeded`, from :class:`AskingDice`
    given ``faces``) become one refusal naming ``field``: how many faces ``run`` needs and what
    each missing die is for (:class:`Needs`). ``run`` is the resolution without side effects
    (a step tried, not recorded)."""
    try:
        yield
    except DiceNeeded:
        found = needs(run, faces)
        if found is None:  # pragma: no cover - the faces did run out
            raise ScriptError(f"{field} gave too few faces", tip=tip) from None
        raise ScriptError(found.words(field), tip=tip) from None


def _listed(group: Group) -> str:
    """A missing group in a refusal: ``5-7 3d12 for 'damage ...'`` and which die it is."""
    note = f" ({group.note})" if group.note else ""
    return f"{_span(group.start + 1, group.count)} {group.dice} for {group.why!r}{note}"


def _span(first: int, count: int | None) -> str:
    """Face positions: ``5``, ``5-7``, ``5...`` (open-ended)."""
    if count is None:
        return f"{first}..."
    return str(first) if count == 1 else f"{first}-{first + count - 1}"


def _shown(expr: str) -> str:
    """A roll's notation as the table throws it (``sort(3d12)`` is thrown as ``3d12``)."""
    return re.sub(r"sort\((\w+)\)", r"\1", expr)


def needs(run: Callable[[DiceSource], Any], faces: Sequence[int], seed: int = 0) -> Needs | None:
    """What ``run`` needs beyond ``faces``, or None when they are enough.

    How many faces in all, and whether the rolls after the faces are always the same ones, is
    found by running the rule over every branch of the missing rolls (exact dice, each path's
    requests after the faces kept), within :data:`NEEDS_PATHS`; the example is one run with
    the program's dice (``seed``) for the rest."""
    first = ask(run, faces)
    if first.next is None:
        return None
    example = ask(run, faces, program="rest", seed=seed)
    missing = []
    for g, shown in example.answered:
        end = g.start + len(shown)
        if end > len(faces):
            begin = max(g.start, len(faces))
            missing.append(dataclasses.replace(g, start=begin, count=end - begin))
    counts, rest = _rest(run, faces)
    return Needs(len(faces), first.next, counts, rest, tuple(missing))


def _rest(
    run: Callable[[DiceSource], Any], faces: Sequence[int]
) -> tuple[tuple[int, int | None] | None, tuple[Request, ...] | None]:
    """Fewest and most faces the rule takes with ``faces`` first, over every branch of the
    rest, and the rolls of the rest when every branch asks for the same ones."""
    import time

    from firefight.dice.sources import enumerate_outcomes

    deadline = time.process_time() + NEEDS_SECONDS
    try:
        found = enumerate_outcomes(
            lambda exact: _Rest(faces, exact, deadline).run(run), max_paths=NEEDS_PATHS
        )
    except _Open:
        return (len(faces) + 1, None), None
    except Exception:  # out of time, or a rule that reads what exact dice do not give
        return None, None
    outcomes = [o for o, _ in found.items()]
    totals = [t for t, _ in outcomes]
    rest = outcomes[0][1] if len(outcomes) == 1 else None
    known = [t for t in totals if t is not None]
    fewest = min(known, default=len(faces) + 1)
    return (fewest, None if None in totals else max(known)), rest


class _Rest:
    """The faces given, as scripted dice roll them, then every branch of what is missing
    (``exact``): one path's faces in all (None: open-ended dice among them) and its rolls after
    the faces. It keeps a transcript, as rolling dice do: a resolution's summary reads it."""

    is_exact = False

    def __init__(self, faces: Sequence[int], exact: DiceSource, deadline: float) -> None:
        self.given = AskingDice(faces)
        self.exact = exact
        self.deadline = deadline
        self.total: int | None = len(faces)
        self.requests: list[Request] = []
        self.past = False
        self.events: list[Any] = self.given.events

    def run(self, rule: Callable[[DiceSource], Any]) -> tuple[int | None, tuple[Request, ...]]:
        rule(self)
        return self.total, tuple(self.requests)

    def record(self, event: Any) -> None:
        self.events.append(event)

    def derive(self, why: str, fn: Callable[[Any], T], key: Any = None, **_: Any) -> T:
        return fn(self)

    def roll(self, expr: str | Node, why: str = "") -> Any:
        import time

        from firefight.dice.nodes import dice_count, walk
        from firefight.dice.rolling import roll_tree
        from firefight.dice.sources import Roll

        if time.process_time() > self.deadline:
            raise _OutOfTime
        if not self.past:
            start = self.given.used
            try:
                return self.given.roll(expr, why)
            except DiceNeeded as need:
                self.past = True
                if need.group.kind in ("exploding", "plus-minus"):
                    raise _Open from None
                # the rest of the roll the faces stop in: each missing die a branch
                node = as_node(expr)
                faces = iter(self.given.faces[start:])

                def face(sides: int) -> int:
                    known = next(faces, None)
                    return known if known is not None else self.exact.roll(f"1d{sides}").total

                self._add(need.group.dice, why, need.group.count)
                rolled = roll_tree(node, face)
                result = Roll(str(node), why, rolled.value, rolled.tags, rolled)
                self.events.append(result)
                return result
        node = as_node(expr)
        open_ended = any(isinstance(n, (Exploding, PlusMinus)) for n in walk(node))
        self._add(str(node), why, None if open_ended else dice_count(node))
        branch = self.exact.roll(expr, why)
        self.events.append(branch)
        return branch

    def _add(self, expr: str, why: str, count: int | None) -> None:
        self.requests.append((expr, why, count))
        self.total = None if count is None or self.total is None else self.total + count
