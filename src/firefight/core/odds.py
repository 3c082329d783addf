"""Odds reports: exact probabilities from enumerating a ruleset's own resolution code.

:func:`outcome_distribution` runs ``resolve`` on exact dice; a ruleset then reads its report off
that one distribution (marginals via ``Weighted.map`` / ``to_dist``), so odds can never drift from
the rules. The JSON shape is shared by every ruleset: ``p_hit``, ``outcomes`` (label -> "n/d"),
one ``[{"value", "p", "p_float"}]`` list per named distribution (``damage``, ``hits``, ...), one
mapping per named table (``check``), named probabilities, and the mass left out.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from firefight.dice import DiceSource, Dist, Weighted, enumerate_outcomes
from firefight.display import (
    Display,
    Grid,
    Shown,
    adds_up,
    outcome_groups,
    percent,
    probability,
    value_words,
    words,
)

T = TypeVar("T", bound=Hashable)


def fraction_text(p: Fraction) -> str:
    """An exact probability as ``"n/d"``, the form JSON output carries."""
    return f"{p.numerator}/{p.denominator}"


def dist_json(d: Dist) -> list[dict[str, Any]]:
    """A distribution as ``[{"value", "p", "p_float"}]``, ascending, with weight only."""
    return [{"value": v, "p": fraction_text(p), "p_float": float(p)} for v, p in d.probabilities()]


def outcome_distribution(
    resolve_outcome: Callable[[DiceSource], T], depth: int | None = None
) -> Weighted[T]:
    """Every outcome of a resolution with its exact probability."""
    return enumerate_outcomes(resolve_outcome, depth=depth)


@dataclass(frozen=True)
class OddsReport(Shown):
    """Exact odds of one situation, ready to render as tables (``firefight odds``, rich, a
    notebook), JSON or a plot."""

    ruleset: str
    title: str
    p_hit: Fraction | None
    outcomes: Mapping[str, Fraction]
    distributions: Mapping[str, Dist] = field(default_factory=dict)
    tables: Mapping[str, Mapping[str, Fraction]] = field(default_factory=dict)
    probabilities: Mapping[str, Fraction] = field(default_factory=dict)
    truncated_mass: Fraction = Fraction(0)
    notes: tuple[str, ...] = ()
    #: Names of a distribution's values where the text names them (quality levels 0..6 are
    #: Poor..Fantastic): tables and plots show the names, JSON keeps the numbers.
    value_names: Mapping[str, Mapping[int, str]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The shared JSON shape (see the module docstring); absent parts are left out."""
        out: dict[str, Any] = {"ruleset": self.ruleset, "title": self.title}
        if self.p_hit is not None:
            out["p_hit"] = fraction_text(self.p_hit)
            out["p_hit_float"] = float(self.p_hit)
        out["outcomes"] = {k: fraction_text(v) for k, v in self.outcomes.items()}
        for name, d in self.distributions.items():
            out[name] = dist_json(d)
        for name, table in self.tables.items():
            out[name] = {k: fraction_text(v) for k, v in table.items()}
        for name, p in self.probabilities.items():
            out[name] = fraction_text(p)
        out["truncated_mass"] = float(self.truncated_mass)
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def display(self) -> Display:
        """The tables ``firefight odds`` prints: outcomes (one table per target or combatant),
        events, named tables, distributions (each value and "or more"), then notes; keys in
        people's words (``--json`` keeps them)."""
        lines = []
        if self.p_hit is not None:
            lines.append(f"P(hit) = {percent(self.p_hit)}  ({probability(self.p_hit)})")
        grids = [
            Grid(
                f"outcomes: {who}" if who else "outcomes",
                ("outcome", "probability", "%"),
                tuple((label, probability(p), percent(p)) for label, p in rows.items()),
                adds_up(rows, self.truncated_mass),
                right=(1, 2),
            )
            for who, rows in outcome_groups(self.outcomes)
        ]
        if self.probabilities:
            grids.append(
                Grid(
                    "events",
                    ("event", "probability", "%"),
                    tuple(
                        (words(label), probability(p), percent(p))
                        for label, p in self.probabilities.items()
                    ),
                    "each event is a chance on its own; events overlap, so they do not add up",
                    right=(1, 2),
                )
            )
        for name, table in self.tables.items():
            rows = tuple((value_words(label), percent(p)) for label, p in table.items())
            grids.append(Grid(words(name), ("result", "%"), rows, adds_up(table), right=(1,)))
        for name, d in self.distributions.items():
            names = self.value_names.get(name, {})
            grids.append(d.grid(words(name), exact_column=False, names=names))
        after: tuple[str, ...] = ()
        if self.truncated_mass:
            after = (f"mass left out by depth limits: {float(self.truncated_mass):.3g}",)
        return Display(self.title, tuple(lines), tuple(grids), self.notes, after)
