"""How results look to people: number formats, keys in words, and titled tables, drawn by rich
in a terminal and as HTML in a notebook.

Shared by every layer (like :mod:`firefight.errors`) and importing nothing of firefight: a
result builds :class:`Grid` values from its own data (``Dist``, ``OddsReport``, the library's
fight reports), and :class:`Shown` gives it ``__rich__`` (``rich.print(x)``, the terminal) and
``_repr_html_`` (Jupyter shows it as tables) from them. rich is imported only to draw.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


def percent(p: Fraction | float) -> str:
    """One number format for every table (``dist`` and ``odds``): a percentage with two
    decimals, and two significant digits below 0.01% so a rare event does not read as 0."""
    value = 100 * float(p)
    if value == 0 or abs(value) >= 0.01:
        return f"{value:.2f}%"
    if abs(value) < 1e-10:
        return "<0.0000000001%"
    decimals = 1 - math.floor(math.log10(abs(value)))
    return f"{value:.{decimals}f}%"


#: The longest exact fraction ("n/d") a table shows; longer ones stay in the JSON.
FRACTION_WIDTH = 24


def probability(p: Fraction, limit: int = FRACTION_WIDTH) -> str:
    """Exact "n/d" when it is short enough to read; deep chains have 1,000-digit denominators,
    so those show as a float in the table (``--json`` always keeps the exact fraction)."""
    if p.denominator == 1:
        return str(p.numerator)
    text = f"{p.numerator}/{p.denominator}"
    return text if len(text) <= limit else f"~{float(p):.6g}"


#: Abbreviations the rule texts write in capitals.
_CAPITALS = frozenset({"hp", "ft", "en", "sp", "dr", "tn", "ma", "ref", "gm"})


def words(key: object) -> str:
    """A key as people read it, the same in every ruleset's tables: ``p_death_save_needed`` ->
    "death save needed", ``hp_damage`` -> "HP damage", ``left_arm`` -> "left arm",
    ``scatter_m`` -> "scatter (m)", ``p_killed_outright_head`` -> "killed outright (head)".
    ``--json`` keeps the keys."""
    text = str(key)
    if "_" not in text:
        return text
    parts = text.removeprefix("p_").split("_")
    if len(parts) > 1 and parts[-1] == "m":
        parts[-2:] = [f"{parts[-2]} (m)"]
    elif len(parts) > 2 and parts[-1] in ("head", "torso"):  # p_killed_outright_head
        parts[-1] = f"({parts[-1]})"
    return " ".join(p.upper() if p in _CAPITALS else p for p in parts)


def plural(count: int, noun: str) -> str:
    """``1 step``, ``2 steps``, ``1,000 fights``."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def value_words(value: object) -> str:
    """A value for people: true/false as yes/no, tables as ``key value`` pairs, lists
    comma-separated, snake_case words (``right_leg``) spaced."""
    if isinstance(value, dict):
        return ", ".join(f"{words(k)} {value_words(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(value_words(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and re.fullmatch(r"[a-z]+(?:_[a-z]+)+", value):
        return value.replace("_", " ")
    return str(value)


def outcome_groups(outcomes: Mapping[str, Fraction]) -> list[tuple[str, dict[str, Fraction]]]:
    """Outcomes split by their ``who: `` prefix (one group per target or combatant)."""
    groups: dict[str, dict[str, Fraction]] = {}
    for label, p in outcomes.items():
        who, sep, rest = label.partition(": ")
        key = who if sep else ""
        groups.setdefault(key, {})[rest if sep else label] = p
    if len(groups) == 1 or "" in groups:
        return [("", dict(outcomes))]
    return list(groups.items())


def adds_up(rows: Mapping[str, Fraction], left_out: Fraction = Fraction(0)) -> str:
    """What the rows of a table add up to, so nobody adds overlapping chances."""
    total = sum(rows.values(), Fraction(0))
    slack = left_out + Fraction(1, 10**9)
    if abs(total - 1) <= slack:
        return "exactly one row happens: the rows add up to 100%"
    if total < 1:
        return f"at most one row happens; none of them: {percent(1 - total)}"
    return "each row is a chance on its own: rows overlap and do not add up"


@dataclass(frozen=True)
class Grid:
    """A titled table of text: its columns (``right``: the indices aligned right, numbers),
    rows, and a caption saying how to read it."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""
    right: tuple[int, ...] = ()

    def rich(self) -> Any:
        """A ``rich.table.Table`` of it; every text printed as written (never read as markup or
        emoji codes, whatever the console)."""
        from rich.table import Table
        from rich.text import Text

        table = Table(
            title=Text(self.title) if self.title else None,
            title_justify="left",
            caption=Text(self.caption) if self.caption else None,
            caption_justify="left",
        )
        for i, column in enumerate(self.columns):
            table.add_column(Text(column), justify="right" if i in self.right else "left")
        for row in self.rows:
            table.add_row(*(Text(cell) for cell in row))
        return table

    def html(self) -> str:
        """An HTML ``<table>`` of it (cells escaped)."""
        e = html.escape

        def cell(tag: str, i: int, text: str) -> str:
            align = ' style="text-align:right"' if i in self.right else ""
            return f"<{tag}{align}>{e(text)}</{tag}>"

        head = "".join(cell("th", i, c) for i, c in enumerate(self.columns))
        body = "".join(
            "<tr>" + "".join(cell("td", i, v) for i, v in enumerate(row)) + "</tr>"
            for row in self.rows
        )
        title = f"<caption><b>{e(self.title)}</b></caption>" if self.title else ""
        note = f"<p><small>{e(self.caption)}</small></p>" if self.caption else ""
        return f"<table>{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{note}"


@dataclass(frozen=True)
class Display:
    """What a result shows, in order: a heading, lines of text, tables, notes (dimmed), and
    lines after."""

    heading: str
    lines: tuple[str, ...] = ()
    grids: tuple[Grid, ...] = ()
    notes: tuple[str, ...] = ()
    after: tuple[str, ...] = ()

    def parts(self) -> list[Any]:
        """rich renderables, one a line or table, in order."""
        from rich.text import Text

        parts: list[Any] = [Text(self.heading, style="bold")] if self.heading else []
        parts.extend(Text(line) for line in self.lines)
        parts.extend(g.rich() for g in self.grids)
        parts.extend(Text(note, style="dim") for note in self.notes)
        parts.extend(Text(line) for line in self.after)
        return parts

    def rich(self) -> Any:
        """One rich renderable of it all."""
        from rich.console import Group

        return Group(*self.parts())

    def html(self) -> str:
        """The same as HTML, for a notebook."""
        e = html.escape
        out = [f"<p><b>{e(self.heading)}</b></p>"] if self.heading else []
        out.extend(f"<p>{e(line)}</p>" for line in self.lines)
        out.extend(g.html() for g in self.grids)
        out.extend(f"<p><small>{e(note)}</small></p>" for note in self.notes)
        out.extend(f"<p>{e(line)}</p>" for line in self.after)
        return "<div>" + "".join(out) + "</div>"


class Shown:
    """A result people look at: it says what it shows (:meth:`display`), and rich and Jupyter
    draw that."""

    __slots__ = ()

    def display(self) -> Display:  # pragma: no cover - every subclass says
        raise NotImplementedError

    def __rich__(self) -> Any:
        return self.display().rich()

    def _repr_html_(self) -> str:
        return self.display().html()


def grid_rows(rows: Sequence[Sequence[object]]) -> tuple[tuple[str, ...], ...]:
    """Rows of values as rows of text."""
    return tuple(tuple(str(v) for v in row) for row in rows)
