"""The public surface for ruleset authors: a plugin imports from here and nowhere else in firefight
(its tests may also use :mod:`firefight.testing`).

Everything here is typed and kept stable; ``docs/authoring.md`` walks through a ruleset built on
it. In short:

- **a ruleset** subclasses :class:`Ruleset`, sets ``id``, ``title`` and its situation ``kinds``
  (:class:`SituationKind` rows, or :func:`simple_kind` for a model and its rule code), and
  optionally ``house_model`` (:class:`HouseRules`), ``version`` and ``turns``;
- **rule code** is ordinary Python against a :class:`DiceSource` (``dice.roll("2d6", why=...)``,
  ``dice.derive(...)``, ``dice.record(Note(...))``), so it runs on seeded dice, on the faces a
  table rolled, and exactly;
- **whole fights** come from a :class:`Turns` subclass (or :class:`SimpleTurns` with its
  defaults) over frozen, hashable combatant states inside a :class:`FightState`; the fields a
  GM may set are :class:`GmField` values (``Turns.gm_fields``), typed with :func:`field_type`;
- **errors** a user can fix are :class:`InputError` / :class:`RuleError` with a ``tip``.

Layer: this module sits with ``core`` (it imports only ``dice``, ``core`` and ``errors``), so
importing it loads no ruleset and none of the engine.
"""

from __future__ import annotations

from firefight.core.house import HouseRules, house_events
from firefight.core.minimal import SimpleTurns, outcome_odds, simple_kind
from firefight.core.odds import OddsReport, fraction_text, outcome_distribution
from firefight.core.resolution import Resolution
from firefight.core.ruleset import (
    Command,
    Kinded,
    Ruleset,
    SituationKind,
    protocol_problems,
)
from firefight.core.transcript import Check, HouseRule, Modifier, Note, StateChange, Transcript
from firefight.core.turns import (
    Action,
    Battlefield,
    CombatantEntry,
    FightState,
    GmField,
    ScenarioSpec,
    SideSpec,
    Turns,
    evolve,
    shift_round,
    state_from_json,
    state_to_json,
)
from firefight.core.validation import field_type, validate
from firefight.dice.dist import Dist, Weighted
from firefight.dice.sources import (
    DiceSource,
    Roll,
    ScriptedDice,
    SeededDice,
    derived_distribution,
    enumerate_outcomes,
)
from firefight.errors import DiceError, FirefightError, InputError, RuleError, UnknownNameError

#: The version of this surface: raised when a name here changes in a way a plugin would notice.
API_VERSION = 1

__all__ = [
    "API_VERSION",
    "Action",
    "Battlefield",
    "Check",
    "CombatantEntry",
    "Command",
    "DiceError",
    "DiceSource",
    "Dist",
    "FightState",
    "FirefightError",
    "GmField",
    "HouseRule",
    "HouseRules",
    "InputError",
    "Kinded",
    "Modifier",
    "Note",
    "OddsReport",
    "Resolution",
    "Roll",
    "RuleError",
    "Ruleset",
    "ScenarioSpec",
    "ScriptedDice",
    "SeededDice",
    "SideSpec",
    "SimpleTurns",
    "SituationKind",
    "StateChange",
    "Transcript",
    "Turns",
    "UnknownNameError",
    "Weighted",
    "derived_distribution",
    "enumerate_outcomes",
    "evolve",
    "field_type",
    "fraction_text",
    "house_events",
    "outcome_distribution",
    "outcome_odds",
    "protocol_problems",
    "shift_round",
    "simple_kind",
    "state_from_json",
    "state_to_json",
    "validate",
]
