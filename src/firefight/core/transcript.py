"""Transcript events: typed, frozen records of what a resolution did, in order.

Rolls come from the dice source (:class:`firefight.dice.Roll`, recorded automatically); rule code
records the rest with ``dice.record(...)``: modifiers with their source and rule ID, checks,
notes, state changes, and house rules in force. Renderers (text, JSON) live here too; nothing
prints inside a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from firefight.dice import Roll
from firefight.dice.render import render_line, rolled_json


@dataclass(frozen=True)
class Modifier:
    """A named modifier: ``value`` added to ``target`` (e.g. "delta", "delta t") by ``source``."""

    name: str
    value: int
    target: str
    source: str
    rule: str
    house: bool = False

    def text(self) -> str:
        """The transcript line: the target, the signed value, then where it came from."""
        sign = f"{self.value:+d}"
        house = " [house rule]" if self.house else ""
        return f"{self.target} {sign}  {self.name} ({self.source}; {self.rule}){house}"


@dataclass(frozen=True)
class Check:
    """A comparison a rule made: ``value`` against ``target``, passed or not."""

    name: str
    value: int
    target: int
    passed: bool
    rule: str
    detail: str = ""

    def text(self) -> str:
        """The transcript line: value against target, the verdict and the rule."""
        verdict = "passed" if self.passed else "failed"
        detail = f": {self.detail}" if self.detail else ""
        return f"{self.name}: {self.value} vs {self.target} -> {verdict} ({self.rule}){detail}"


@dataclass(frozen=True)
class Note:
    """A step of the rule in words, e.g. "delta 3 <= delta t 10: hit"."""

    message: str
    rule: str = ""

    def text(self) -> str:
        """The transcript line: the message, with its rule when it names one."""
        return f"{self.message} ({self.rule})" if self.rule else self.message


def words(value: Any) -> str:
    """A value as a transcript says it to a person: "yes" or "no" for a flag, else as it is."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@dataclass(frozen=True)
class StateChange:
    """A change to a combatant: ``who``'s ``field`` from ``before`` to ``after``."""

    who: str
    field: str
    before: Any
    after: Any
    rule: str

    def text(self) -> str:
        """The transcript line: who, what changed from what to what, and the rule."""
        before, after = words(self.before), words(self.after)
        return f"{self.who}: {self.field} {before} -> {after} ({self.rule})"


@dataclass(frozen=True)
class HouseRule:
    """A number the text fixes that a house-rule file changed for this resolution."""

    key: str
    value: Any
    default: Any

    def text(self) -> str:
        """The transcript line, with the text's own value beside the house one."""
        value, default = words(self.value), words(self.default)
        return f"house rule: {self.key} = {value} (the text says {default})"


class RuleEvent(Protocol):
    """An event a ruleset defines for itself (dragonwarriors2's double six): like the core's
    own, a frozen dataclass that says in one line what happened."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    def text(self) -> str:
        """The transcript line."""
        ...


#: Anything a transcript holds: a roll the dice source recorded, or what rule code recorded.
Event = Roll | Modifier | Check | Note | StateChange | HouseRule | RuleEvent

E = TypeVar("E")


def event_text(event: Event) -> str:
    """One transcript line: a roll shows every die, any other event says itself."""
    if isinstance(event, Roll):
        body = render_line(event.rolled) if event.rolled else f"{event.expr} = {event.value}"
        return f"roll {event.why}: {body}" if event.why else f"roll: {body}"
    return event.text()


def event_json(event: Event) -> dict[str, Any]:
    """A JSON-ready record of one event: ``{"event": kind, ...fields}``, a roll with its dice."""
    if isinstance(event, Roll):
        out: dict[str, Any] = {"event": "roll", "why": event.why}
        if event.rolled:
            out.update(rolled_json(event.rolled))
        else:
            out.update({"expr": event.expr, "value": event.value, "tags": sorted(event.tags)})
        return out
    kind = type(event).__name__
    data = {k: v for k, v in vars(event).items()} if hasattr(event, "__dict__") else {}
    if not data and hasattr(event, "__dataclass_fields__"):
        data = {k: getattr(event, k) for k in event.__dataclass_fields__}
    return {"event": _snake(kind), **{k: _plain(v) for k, v in data.items()}}


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


def _plain(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


@dataclass(frozen=True)
class Transcript:
    """The ordered events of one resolution."""

    events: tuple[Event, ...]

    @classmethod
    def since(cls, events: Sequence[Event], mark: int) -> Transcript:
        """What a dice source recorded after ``mark`` (its event count before the resolution)."""
        return cls(tuple(events[mark:]))

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def rolls(self) -> list[Roll]:
        """Every roll, in the order the dice were asked."""
        return [e for e in self.events if isinstance(e, Roll)]

    def of_type(self, kind: type[E]) -> list[E]:
        """The events of one kind (``Check``, ``Note``, ...), in order, typed as that kind."""
        return [e for e in self.events if isinstance(e, kind)]

    def lines(self) -> list[str]:
        """The transcript as text, one line per event."""
        return [event_text(e) for e in self.events]

    def to_json(self) -> list[dict[str, Any]]:
        """The transcript as JSON-ready records, one per event."""
        return [event_json(e) for e in self.events]


def modifiers_total(mods: Iterable[Modifier]) -> int:
    """The sum the modifiers add to their target."""
    return sum(m.value for m in mods)
