"""The table's dice asked for in people's words: who rolls the next group, what for, its rule.

:func:`firefight.dice.asking.ask` says which dice the rule needs next and the roll's own words
(its ``why``); this module adds who throws them and renders the question for the command line
(a prompt) and for the API and the GM's page (JSON). Who rolls is read off the roll's words:
the combatant they name (the longest name where several start at the same place, so "Andre's
opponent" wins over "Andre"), "the GM" for the GM's roll, the target for a defence-like roll
(defence, dodge, parry, soak, ...), else whoever acts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from firefight.dice.asking import Asked, Group

#: Words that make a roll the target's when it names nobody (graydawn "defence roll (G04)",
#: quality_d100 "evader's parry D10 (Q07)", warfare2d20 "soak body armour 3d10 (W06)").
_TARGET_WORDS = re.compile(
    r"\b(defen[cs]e|defender|defends?|resists?|dodges?|parry|avoids?|evader|soak)\b", re.I
)
_GM_WORDS = re.compile(r"\bGM'?s?\b")


@dataclass(frozen=True)
class People:
    """Who may roll: the combatants' names, whoever acts and whom the action is aimed at."""

    names: tuple[str, ...] = ()
    actor: str = ""
    target: str = ""

    def who_rolls(self, why: str) -> str:
        """Who throws the dice of a roll with these words ("" when nobody is known)."""
        found: tuple[int, int, str] | None = None
        for name in self.names:
            at = why.find(name)
            if at >= 0 and (found is None or (at, -len(name)) < (found[0], -found[1])):
                found = (at, len(name), name)
        if found is not None:
            return found[2]
        if _GM_WORDS.search(why):
            return "the GM"
        if self.target and _TARGET_WORDS.search(why):
            return self.target
        return self.actor


def people_in_situation(data: Mapping[str, Any]) -> People:
    """The people a situation file names: its attacker (or first shooter, thrower), its target
    (or defender) and every ``name`` in it."""
    names: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, Mapping):
            for key, inner in value.items():
                if key == "name" and isinstance(inner, str):
                    names.append(inner)
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(data)
    actor = _named(data.get("attacker")) or _named(_first(data.get("shooters")))
    actor = actor or _named(data.get("thrower"))
    target = _named(data.get("target")) or _named(data.get("defender"))
    target = target or _named(_first(data.get("targets")))
    return People(tuple(dict.fromkeys(n for n in (*names, actor, target) if n)), actor, target)


def _first(value: Any) -> Any:
    return value[0] if isinstance(value, list) and value else None


def _named(value: Any) -> str:
    """A person given as a name or as a table with a ``name``."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("name"), str):
        return str(value["name"])
    return ""


def group_words(group: Group, people: People) -> str:
    """The question for one group, e.g. ``insurgent: attacker insurgent 2d20 (W01): roll 2d20``."""
    who = people.who_rolls(group.why)
    why = group.why or "a roll"
    if group.rule and group.rule not in why:
        why = f"{why} ({group.rule})"
    head = why if not who or who in group.why else f"{who}: {why}"
    note = f", {group.note}" if group.note else ""
    return f"{head}: roll {group.dice}{note}"


def group_json(group: Group, people: People, number: int) -> dict[str, Any]:
    """One group as the API gives it: its number in the resolution, who, the dice, what for."""
    return {
        "group": number,
        "who": people.who_rolls(group.why),
        "dice": group.dice,
        "sides": group.sides,
        "count": group.count,
        "kind": group.kind,
        "for": group.why,
        "rule": group.rule,
        "note": group.note,
        "first_face": group.start + 1,
        "words": group_words(group, people),
    }


def asked_json(asked: Asked[Any], people: People, lines: Iterable[str] = ()) -> dict[str, Any]:
    """What the table's dice answered so far and what comes next (or that it is complete, with
    the transcript ``lines``), for the API and ``firefight encounter dice --json``."""
    answered = [
        {**group_json(replace(g, count=len(faces)), people, i), "faces": list(faces)}
        for i, (g, faces) in enumerate(asked.answered, start=1)
    ]
    out: dict[str, Any] = {
        "complete": asked.complete,
        "faces_so_far": list(asked.faces),
        "answered": answered,
    }
    if asked.next is None:
        out["transcript"] = list(lines)
    else:
        number = len(answered) + (0 if asked.next.given else 1)
        out["next"] = group_json(asked.next, people, number)
    return out
