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
class OddsReport:
    """Exact odds of one situation, ready to render as a table, JSON or a plot."""

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
