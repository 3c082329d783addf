"""How a page shows a combatant: which fields of a ruleset's view are vital, which conditions.

A ruleset's :meth:`~firefight.core.turns.Turns.view` says a combatant's state in the text's own
words, a flat table of fields. Its turn structure declares a :class:`ViewLayout` over those
fields (``Turns.layout``): the *vital* tracks a page draws as bars (hit points and stamina, a
wound track, FT and EN, wounds against toughness), the *conditions* it shows as chips (stunned,
pinned, suppression levels, prone, grappled, jammed), and every other field is a *detail*, shown
folded. :meth:`ViewLayout.card` turns a view into that card; the tracker's pages draw cards and
know no ruleset. The default layout has no bars and shows ``status`` as a chip, so a ruleset that
declares nothing still gets cards.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Values that say a condition is not there (it shows no chip).
QUIET: tuple[Any, ...] = ("", "none", "no", "-", "normal")
#: A track's value as text: its number, and its most after a slash ("14/20", "3 marks").
_AMOUNT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)(?:\s*/\s*(\d+(?:\.\d+)?))?")


@dataclass(frozen=True)
class Vital:
    """A view field drawn as a bar: its value is a number, or text that starts with one
    ("3 marks"), or reads "N/M" ("14/20": N of most M)."""

    key: str
    #: The most the track holds where the value does not say it: another view field's name
    #: (wounds against ``"toughness"``) or a number (a wound track's 13 marks).
    most: str | int | None = None
    #: The value counts harm taken (wounds, marks), so a full bar is bad; else what is left.
    taken: bool = False


@dataclass(frozen=True)
class Condition:
    """A view field shown as chips while it is set (not false, 0, "none", "no", "-" or
    "normal")."""

    key: str
    #: The chip says the field's name before its value ("suppression levels 2", "grappled by
    #: Jax"; a flag that is on: its name alone); else the value alone ("taking cover").
    named: bool = True
    #: The value lists several, separated by commas ("stunned, prone"): a chip each.
    items: bool = False
    #: Only these words of the value are chips ("jammed" in "12/30 (+1 magazines) jammed"),
    #: and the field stays a detail too; empty: the value as it reads.
    words: tuple[str, ...] = ()

    def chips(self, value: Any) -> list[str]:
        """The chips ``value`` makes: none while the condition is not there."""
        if isinstance(value, bool):
            return [self.key] if value else []
        if value is None or (isinstance(value, int | float) and value == 0) or value in QUIET:
            return []
        text = str(value)
        if self.words:
            return [w for w in self.words if re.search(rf"\b{re.escape(w)}\b", text)]
        parts = [p.strip() for p in text.split(",")] if self.items else [text]
        return [f"{self.key} {p}" if self.named else p for p in parts if p not in QUIET]


@dataclass(frozen=True)
class ViewLayout:
    """Which fields of a ruleset's view are vital tracks and which conditions; every other
    field is a detail."""

    vital: tuple[Vital, ...] = ()
    conditions: tuple[Condition, ...] = (Condition("status", named=False),)

    def card(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """``view`` (a combatant's, or what a page may see of it: a field it lacks is left
        out) as a card: ``vital`` tracks as numbers for a bar and the words beside it,
        ``conditions`` as chips (each with the field it came from), ``details`` the names of
        the remaining fields in the view's order. A vital field whose value has no number
        is a detail."""
        vital = []
        used: set[str] = set()
        for track in self.vital:
            drawn = _track(track, view)
            if drawn is not None:
                vital.append(drawn)
                used.add(track.key)
                if isinstance(track.most, str):
                    used.add(track.most)
        chips = []
        for condition in self.conditions:
            if condition.key in view:
                if not condition.words:
                    used.add(condition.key)
                chips += [
                    {"key": condition.key, "text": t} for t in condition.chips(view[condition.key])
                ]
        details = [k for k in view if k not in used]
        return {"vital": vital, "conditions": chips, "details": details}


def _track(track: Vital, view: Mapping[str, Any]) -> dict[str, Any] | None:
    """One vital track's numbers and words, or None where the view lacks it or its number."""
    if track.key not in view:
        return None
    value = view[track.key]
    read = _AMOUNT.match(str(value)) if not isinstance(value, bool) else None
    if read is None:
        return None
    amount = float(read.group(1))
    text = f"{track.key}: {value}"
    most: float | None = float(read.group(2)) if read.group(2) is not None else None
    if most is None and isinstance(track.most, str) and track.most in view:
        other = _AMOUNT.match(str(view[track.most]))
        most = float(other.group(1)) if other else None
        text += f" of {track.most} {view[track.most]}"
    elif most is None and isinstance(track.most, int):
        most = float(track.most)
        text += f" of {track.most}"
    if most is None or most <= 0:
        return None
    return {
        "key": track.key,
        "value": _number(amount),
        "most": _number(most),
        "taken": track.taken,
        "text": text,
    }


def _number(x: float) -> int | float:
    return int(x) if x == int(x) else x
