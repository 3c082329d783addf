"""The ruleset protocol: the one small surface the CLI, engine and analysis use.

A ruleset subclasses :class:`Ruleset`, sets its ``ClassVar`` metadata and implements three
methods; the registry (``firefight.rulesets``) finds it by id. Nothing outside a ruleset tests
``if ruleset == "..."``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from firefight.core.house import HouseRules
from firefight.core.odds import OddsReport
from firefight.core.resolution import Resolution
from firefight.core.turns import ScenarioSpec, Turns
from firefight.dice import DiceSource
from firefight.errors import InputError


class Ruleset(ABC):
    """One rule text implemented: load situations, resolve them on any dice, compute odds."""

    #: Registry id, also the CLI argument (e.g. "warfare2d20").
    id: ClassVar[str]
    #: Human title.
    title: ClassVar[str]
    #: The house-rule model: the numbers this text fixes, with the text's values as defaults.
    house_model: ClassVar[type[HouseRules]] = HouseRules
    #: Kinds of situation file this ruleset resolves (``kind = "..."`` in the file; first is the
    #: default). ``firefight suppress`` asks for "suppression".
    situation_kinds: ClassVar[tuple[str, ...]] = ("attack",)
    #: Top-level scenario keys of this ruleset's own, besides the engine's (e.g. ``catalogs``).
    scenario_keys: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def load_situation(self, data: Mapping[str, Any], *, source: str, house: HouseRules) -> Any:
        """Validate a situation (already read from TOML, ``--set`` applied) into a model.

        Raise :class:`~firefight.errors.InputError` / ``UnknownNameError`` with one clear line.
        """

    @abstractmethod
    def resolve(self, situation: Any, dice: DiceSource) -> Resolution:
        """Resolve the situation on the given dice, with a full transcript."""

    @abstractmethod
    def odds(self, situation: Any) -> OddsReport:
        """Exact odds, computed by running :meth:`resolve`'s rule code on exact dice."""

    def situation_kind(self, situation: Any) -> str:
        """Which of ``situation_kinds`` a loaded situation is (default: the first)."""
        return str(getattr(situation, "kind", self.situation_kinds[0]))

    def table(
        self, rows: tuple[int, int] | None, printed: bool, house: HouseRules
    ) -> tuple[list[str], list[list[str]]]:
        """A rule table rendered from the rules (``firefight table``): headers and rows.

        ``rows`` limits the rows shown (inclusive), ``printed`` asks for the text's printed reading
        where it differs from the rules, ``house`` holds the numbers in force (``--house``).
        Rulesets without a table keep this default.
        """
        raise InputError(f"ruleset {self.id} has no rule table", tip="try quality_d100")

    @property
    def runs_encounters(self) -> bool:
        """Whether :meth:`encounter` is implemented (whole fights, ``firefight fight``)."""
        return type(self).encounter is not Ruleset.encounter

    def encounter(self, spec: ScenarioSpec) -> Turns:
        """The ruleset's turn structure for one scenario (see :mod:`firefight.core.turns`)."""
        raise InputError(
            f"ruleset {self.id} does not run whole fights yet",
            tip="`firefight rulesets` lists the rulesets with encounters",
        )

    def script_order(self) -> str:
        """How scripted ``--dice`` faces are consumed, for help text and errors."""
        return "in the order the transcript lists the rolls"
