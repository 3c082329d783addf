"""The ruleset protocol: the one small surface the CLI, engine and analysis use.

A ruleset subclasses :class:`Ruleset` ``[Situation, House]``, sets its ``ClassVar`` metadata and
declares its table of situation kinds (:class:`SituationKind`: per kind the file model, how to
load it, the rule code that resolves it, its exact odds and its summary). Loading, resolving and
odds then go through that table here, once, instead of a dispatcher on the kind in every ruleset;
the registry (``firefight.rulesets``) finds the ruleset by id. Nothing outside a ruleset tests
``if ruleset == "..."`` or ``if kind == "..."``.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar, cast

from pydantic import BaseModel

from firefight.core.house import HouseRules
from firefight.core.odds import OddsReport
from firefight.core.resolution import Resolution
from firefight.core.transcript import Transcript
from firefight.core.turns import ScenarioSpec, Turns
from firefight.core.validation import situation_kind
from firefight.dice import DiceSource
from firefight.errors import InputError

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from firefight.core.catalog import Catalog


class Kinded(Protocol):
    """A loaded situation: it names the row of its ruleset's kind table it belongs to."""

    @property
    def kind(self) -> str:
        """The kind's name, as in the file's ``kind = "..."``."""
        ...


S = TypeVar("S")
R = TypeVar("R")
H = TypeVar("H", bound=HouseRules)
Situation = TypeVar("Situation", bound=Kinded)
House = TypeVar("House", bound=HouseRules)

#: The CLI command that resolves a kind: ``firefight attack`` or ``firefight suppress``.
Command = Literal["attack", "suppress"]


@dataclass(frozen=True)
class SituationKind(Generic[S, R, H]):
    """One row of a ruleset's table: a kind of situation file and everything done with it.

    Typed per row (declare rows at module level, outside the table, so that mypy checks each on
    its own): a loader, its rule code, its odds and its summary must agree on the situation and
    record types they pass along.
    """

    #: The file's ``kind = "..."`` (the first row of a table is the default when it is absent).
    name: str
    #: The model a file of this kind validates into (what ``load`` checks the data against).
    model: type[BaseModel]
    #: File data (``--set`` applied), its source for messages, the house rules -> a loaded
    #: situation whose ``kind`` is ``name``; one clear :class:`~firefight.errors.InputError`
    #: line for a bad file.
    load: Callable[[Mapping[str, Any], str, H], S]
    #: The rule code on any dice source: what happened (recording its events on the dice).
    resolve: Callable[[S, DiceSource], R]
    #: Exact odds, from the same rule code run on exact dice.
    odds: Callable[[S], OddsReport]
    #: The key figures of one resolution (its transcript at hand), for the CLI and JSON.
    summary: Callable[[S, R, Transcript], Mapping[str, Any]]
    #: The resolution's outcome (hashable, what odds enumerate) when ``resolve`` returns a fuller
    #: record (fighters after the exchange, a finished Resolution); None: it is the outcome.
    outcome: Callable[[R], Hashable] | None = None
    #: Which command resolves it.
    command: Command = "attack"


class Ruleset(Generic[Situation, House]):
    """One rule text implemented: load situations, resolve them on any dice, compute odds.

    ``Situation`` is what its loaders return (each names its kind), ``House`` its house model.
    """

    #: Registry id, also the CLI argument (e.g. "warfare2d20").
    id: ClassVar[str]
    #: Human title.
    title: ClassVar[str]
    #: The house-rule model: the numbers this text fixes, with the text's values as defaults.
    house_model: ClassVar[type[HouseRules]] = HouseRules
    #: The kinds of situation file this ruleset resolves, in the order error messages list them;
    #: the first is the default when a file has no ``kind``.
    kinds: ClassVar[tuple[SituationKind[Any, Any, Any], ...]] = ()
    #: Top-level scenario keys of this ruleset's own, besides the engine's (e.g. ``catalogs``).
    scenario_keys: ClassVar[tuple[str, ...]] = ()
    #: The ruleset's own version (``firefight rulesets`` shows it); None: its package's version.
    version: ClassVar[str | None] = None
    #: The turn structure of whole fights, built per scenario by the default :meth:`encounter`
    #: (``turns(spec)``); None: the ruleset resolves single situations only, unless it
    #: overrides :meth:`encounter` itself.
    turns: ClassVar[type[Turns] | None] = None
    #: The folder of example files the ruleset ships, inside its package (the package of the
    #: module defining the class), e.g. ``"examples"``: situation files, scenarios (files naming
    #: the ruleset) and house-rule files under ``house/``. The tracker offers its scenarios and
    #: their combatants; the conformance kit checks every file loads. None: it ships none (the
    #: built-in rulesets' examples are the repository's ``examples/<ruleset>/`` folders).
    examples: ClassVar[str | None] = None

    @property
    def situation_kinds(self) -> tuple[str, ...]:
        """The names of :attr:`kinds`."""
        return tuple(k.name for k in self.kinds)

    def house(self, house: HouseRules) -> House:
        """``house`` if it is this ruleset's house model; another model is an error, never
        quietly replaced by the text's numbers."""
        if not isinstance(house, self.house_model):
            raise InputError(
                f"ruleset {self.id} takes {self.house_model.__name__} house rules, "
                f"not {type(house).__name__}",
                tip=f"load them with load_house({self.house_model.__name__}, FILE)",
            )
        return cast(House, house)

    def load_situation(
        self, data: Mapping[str, Any], *, source: str, house: HouseRules
    ) -> Situation:
        """Validate a situation (already read from TOML, ``--set`` applied) into a model.

        Raise :class:`~firefight.errors.InputError` / ``UnknownNameError`` with one clear line.
        """
        rules = self.house(house)
        name = situation_kind(data, self.situation_kinds, self.situation_kinds[0], source)
        situation: Situation = self.kind(name).load(data, source, rules)
        return situation

    def kind(self, situation: Kinded | str) -> SituationKind[Any, Any, Any]:
        """The row of :attr:`kinds` for a loaded situation (or a kind's name)."""
        name = situation if isinstance(situation, str) else situation.kind
        for row in self.kinds:
            if row.name == name:
                return row
        raise InputError(
            f"ruleset {self.id} has no situation kind {name!r}",
            tip=f"it resolves: {', '.join(self.situation_kinds)}",
        )

    def situation_kind(self, situation: Situation) -> str:
        """Which of :attr:`situation_kinds` a loaded situation is."""
        return self.kind(situation).name

    def resolve(self, situation: Situation, dice: DiceSource) -> Resolution:
        """Resolve the situation on the given dice, with a full transcript."""
        row = self.kind(situation)
        mark = len(dice.events)
        record = row.resolve(situation, dice)
        transcript = Transcript.since(dice.events, mark)
        outcome = record if row.outcome is None else row.outcome(record)
        return Resolution(self.id, outcome, transcript, row.summary(situation, record, transcript))

    def odds(self, situation: Situation) -> OddsReport:
        """Exact odds, computed by running :meth:`resolve`'s rule code on exact dice."""
        return self.kind(situation).odds(situation)

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
        """Whether whole fights run (``firefight fight``): :attr:`turns` is set or
        :meth:`encounter` is overridden."""
        return self.turns is not None or type(self).encounter is not Ruleset.encounter

    def encounter(self, spec: ScenarioSpec) -> Turns:
        """The ruleset's turn structure for one scenario (see :mod:`firefight.core.turns`):
        by default :attr:`turns` built on the scenario, which validates the ruleset's part."""
        if self.turns is not None:
            return self.turns(spec)
        raise InputError(
            f"ruleset {self.id} does not run whole fights yet",
            tip="`firefight rulesets` lists the rulesets with encounters",
        )

    def script_order(self) -> str:
        """How scripted ``--dice`` faces are consumed, for help text and errors."""
        return "in the order the transcript lists the rolls"

    def combatant_model(self) -> type[BaseModel] | None:
        """The model of one ``[[combatants]]`` table of a scenario (``side`` aside), or None
        (the default). The tracker's scenario form is drawn from its JSON schema: a field whose
        schema says ``"catalog": SECTION`` offers the names of that section of
        :meth:`catalog`. The scenario's own validation (``encounter``) still judges the table;
        the model only has to accept every table a scenario may hold. None: the form takes a
        combatant as TOML."""
        return None

    def catalog(self) -> Catalog:
        """The shipped catalog (weapons, armour, creatures...): section -> name -> entry. The
        default reads ``catalog.toml`` beside the ruleset's module, where there is one."""
        from firefight.core.catalog import load_catalog

        package = _package(type(self))
        shipped = package is not None and _resource(package, "catalog.toml").is_file()
        return load_catalog(package) if package is not None and shipped else {}

    def example_folder(self) -> Path | None:
        """The :attr:`examples` folder on disk, read through ``importlib.resources``; None when
        the ruleset declares none, or the folder is missing or not a folder on disk."""
        package = _package(type(self))
        if self.examples is None or package is None:
            return None
        folder = _resource(package, self.examples)
        return folder if isinstance(folder, Path) and folder.is_dir() else None


def _package(cls: type) -> str | None:
    """The package holding the module that defines ``cls`` (where its resources are)."""
    module = sys.modules.get(cls.__module__)
    return getattr(module, "__package__", None) or None


def _resource(package: str, name: str) -> Traversable:
    """``name`` inside ``package``, as ``importlib.resources`` finds it."""
    from importlib import resources

    return resources.files(package).joinpath(name)


#: Any ruleset, for code that serves every one of them (the registry, the CLI, the engine).
AnyRuleset = Ruleset[Any, Any]


#: What a ruleset id may be: it names files, URLs and database rows.
RULESET_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")


def protocol_problems(obj: object, expected_id: str | None = None) -> list[str]:
    """What keeps ``obj`` from serving as a ruleset (empty: nothing), in short phrases: checked
    when a plugin is loaded, so a broken one costs one line instead of a traceback later, and
    by the conformance kit (:mod:`firefight.testing`)."""
    if not isinstance(obj, Ruleset):
        return [f"its object is a {type(obj).__name__}, not a firefight.api.Ruleset"]
    out: list[str] = []
    rid = getattr(obj, "id", None)
    if not isinstance(rid, str) or not RULESET_ID.fullmatch(rid):
        out.append(f"id {rid!r} is not lower-case letters, digits and _ (at most 40)")
    elif expected_id is not None and rid != expected_id:
        out.append(f"its id is {rid!r}, not {expected_id!r} (the name it is registered under)")
    title = getattr(obj, "title", None)
    if not isinstance(title, str) or not title.strip():
        out.append("it has no title")
    version = obj.version
    if version is not None and not isinstance(version, str):
        out.append(f"version {version!r} is not text")
    examples = obj.examples
    if examples is not None and not (isinstance(examples, str) and examples.strip()):
        out.append(f"examples {examples!r} is not a folder's name")
    house = obj.house_model
    if not (isinstance(house, type) and issubclass(house, HouseRules)):
        out.append("house_model is not a HouseRules model")
    out.extend(_kind_problems(obj.kinds))
    turns = obj.turns
    if turns is not None:
        if not (isinstance(turns, type) and issubclass(turns, Turns)):
            out.append("turns is not a Turns class")
        elif inspect.isabstract(turns):
            missing = ", ".join(sorted(getattr(turns, "__abstractmethods__", ())))
            out.append(f"its Turns class {turns.__name__} lacks {missing}")
    return out


def _kind_problems(kinds: object) -> list[str]:
    if not isinstance(kinds, tuple) or not kinds:
        return ["it declares no situation kinds (kinds = (SituationKind(...), ...))"]
    out: list[str] = []
    names: list[str] = []
    for i, row in enumerate(kinds):
        if not isinstance(row, SituationKind):
            out.append(f"kinds[{i}] is a {type(row).__name__}, not a SituationKind")
            continue
        names.append(row.name)
        if not (isinstance(row.model, type) and issubclass(row.model, BaseModel)):
            out.append(f"kind {row.name!r}: model is not a pydantic model")
        for part in ("load", "resolve", "odds", "summary"):
            if not callable(getattr(row, part)):
                out.append(f"kind {row.name!r}: {part} is not callable")
    if len(set(names)) < len(names):
        out.append("two situation kinds share a name")
    return out
