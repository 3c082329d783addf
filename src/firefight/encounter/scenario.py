"""Scenario files: the common part every ruleset shares, validated at the edge.

```toml
ruleset = "warfare2d20"
title = "Marine against insurgent"
max_rounds = 50                # default 50
house = "house/strict.toml"    # or an inline [house] table; optional

[[sides]]
name = "marines"
policy = "aggressive"          # first, random, aggressive, cautious

[[combatants]]
name = "Cpl. Hicks"
side = "marines"
# ... the fields the ruleset's situation files use for a combatant

[battlefield]
range = "medium"               # between any two combatants (the ruleset's unit)
cover = { "Cpl. Hicks" = "brick wall" }
[[battlefield.pairs]]
between = ["Cpl. Hicks", "Insurgent"]
range = "close"
```

The ruleset validates its own part (combatant fields, range values, cover names) when the engine
asks it for its turn structure.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr

from firefight.core.house import HouseRules
from firefight.core.loading import apply_overrides, read_toml, validate
from firefight.core.paths import quote_name, removal_tip
from firefight.core.ruleset import AnyRuleset
from firefight.core.turns import Battlefield, CombatantEntry, ScenarioSpec, SideSpec, Turns
from firefight.errors import FirefightError, InputError
from firefight.rulesets import get_ruleset, is_scenario, rulesets_loading

DEFAULT_MAX_ROUNDS = 50
#: Keys the engine reads; any other top-level key must be one the ruleset declares.
ENGINE_KEYS = ("ruleset", "title", "max_rounds", "house", "sides", "combatants", "battlefield")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Distance = StrictInt | StrictFloat | StrictStr


class SideModel(_Strict):
    name: StrictStr = Field(min_length=1, max_length=80)
    policy: StrictStr = "first"


class PairModel(_Strict):
    between: tuple[StrictStr, StrictStr]
    range: Distance


class BattlefieldModel(_Strict):
    range: Distance | None = None
    pairs: tuple[PairModel, ...] = ()
    cover: dict[str, StrictStr] = Field(default_factory=dict)


class CommonModel(BaseModel):
    """The engine's part of a scenario; the ruleset's keys pass through unchecked here."""

    model_config = ConfigDict(extra="allow", frozen=True)

    ruleset: StrictStr
    title: StrictStr = "encounter"
    max_rounds: StrictInt = Field(DEFAULT_MAX_ROUNDS, ge=1, le=10_000)
    house: StrictStr | dict[str, Any] | None = None
    sides: tuple[SideModel, ...] = Field(min_length=2)
    combatants: tuple[dict[str, Any], ...] = Field(min_length=2)
    battlefield: BattlefieldModel = BattlefieldModel()


class DraftModel(CommonModel):
    """A scenario being built (the tracker's form): one side and one combatant will do."""

    sides: tuple[SideModel, ...] = Field(min_length=1)
    combatants: tuple[dict[str, Any], ...] = Field(min_length=1)


@dataclass(frozen=True)
class Scenario:
    """A validated scenario: the data as given (for the record) and the spec for the ruleset."""

    data: Mapping[str, Any]
    spec: ScenarioSpec
    ruleset: AnyRuleset
    max_rounds: int
    #: The ruleset's turn structure for this scenario (it validated the ruleset's part).
    turns: Turns

    @property
    def policies(self) -> dict[str, str]:
        return {s.name: s.policy for s in self.spec.sides}


def read_scenario(
    path: str | Path,
    overrides: list[str] | None = None,
    policies: Mapping[str, str] | None = None,
    max_rounds: int | None = None,
) -> Scenario:
    """Read a scenario file, apply ``--set`` (after a ``house = "file"`` is read, so that
    ``house.<key>`` can be set; ``--set house=FILE`` reads FILE, beside the scenario as the
    file's own would be), ``--policy`` and ``--max-rounds``, validate."""
    data = read_toml(path)
    if not is_scenario(data):
        raise _situation_file(data, str(path))
    data = _inline_house(data, Path(path))
    data = _inline_house(apply_overrides(data, overrides or []), Path(path))  # --set house=FILE
    if policies:
        data = with_policies(data, policies, str(path))
    if max_rounds is not None:
        data["max_rounds"] = max_rounds
    with removal_tip(overrides or []):
        return build_scenario(data, str(Path(path).resolve()))


def _situation_file(data: Mapping[str, Any], path: str) -> InputError:
    """The refusal of a file without a ruleset where a scenario belongs: a situation file (one
    attack) says so and which command resolves it."""
    found = rulesets_loading(data, path)
    scenario = (
        "a fight needs a scenario file: ruleset, [[sides]], [[combatants]] (docs/encounters.md)"
    )
    if not found:
        return InputError(
            f"{path}: is not a scenario (it names no ruleset)",
            tip=f"{scenario}; a situation file (one attack) goes to firefight attack or odds",
        )
    rid, verb = found[0]
    return InputError(
        f"{path}: is a {rid} situation file (for {verb} or odds), not a scenario",
        tip=f"resolve it with firefight {verb} {rid} {path}; {scenario}",
    )


def with_policies(data: dict[str, Any], policies: Mapping[str, str], source: str) -> dict[str, Any]:
    """A copy of ``data`` with some sides' policies replaced (``--policy SIDE=NAME``)."""
    out = copy.deepcopy(data)
    sides = out.get("sides")
    if not isinstance(sides, list):
        sides = []
    names = [s.get("name") for s in sides if isinstance(s, dict)]
    for side, policy in policies.items():
        if side not in names:
            raise InputError(
                f"--policy {side}={policy}: {source} has no side {side!r}",
                tip=f"sides: {', '.join(str(n) for n in names)}",
            )
        for s in sides:
            if isinstance(s, dict) and s.get("name") == side:
                s["policy"] = policy
    return out


def _inline_house(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """``house = "file.toml"`` becomes the file's table, so a record never depends on it."""
    house = data.get("house")
    if isinstance(house, str):
        file = Path(house) if Path(house).is_absolute() else path.parent / house
        data = {**data, "house": read_toml(file)}
    return data


def build_scenario(data: Mapping[str, Any], source: str, *, draft: bool = False) -> Scenario:
    """Validate scenario data (read from TOML or from a record) into a :class:`Scenario`; a
    ``draft`` (a scenario being built) may have one side and one combatant, and sides nobody
    is on yet, and is otherwise checked as a file is."""
    from firefight.encounter.policies import check_policy

    common = validate(DraftModel if draft else CommonModel, data, source)
    try:
        ruleset = get_ruleset(common.ruleset)
    except FirefightError as err:
        raise InputError(f"{source}: ruleset: {err.message}", tip=err.tip) from None
    if not ruleset.runs_encounters:
        ruleset.encounter(None)  # type: ignore[arg-type]  # raises the ruleset's own refusal
    extra = {k: v for k, v in data.items() if k not in ENGINE_KEYS}
    for key in extra:
        if key not in ruleset.scenario_keys:
            allowed = ", ".join((*ENGINE_KEYS, *ruleset.scenario_keys))
            raise InputError(f"{source}: unknown key {key!r}", tip=f"a scenario has: {allowed}")
    house = _house(ruleset, common.house, source)
    sides = tuple(SideSpec(s.name, s.policy) for s in common.sides)
    side_names = [s.name for s in sides]
    _no_duplicates(side_names, "sides", source)
    for i, s in enumerate(sides):
        check_policy(s.policy, f"{source}: sides[{i}].policy")
    entries = tuple(_entry(i, c, side_names, source) for i, c in enumerate(common.combatants))
    names = [e.name for e in entries]
    _no_duplicates(names, "combatants", source)
    used = {e.side for e in entries}
    for side in side_names:
        if side not in used and not draft:
            raise InputError(
                f"{source}: side {side!r} has nobody on it",
                tip="give it a combatant (side = ...) or remove the side",
            )
    battlefield = _battlefield(common.battlefield, names, source)
    spec = ScenarioSpec(
        ruleset=ruleset.id,
        title=common.title,
        source=source,
        sides=sides,
        combatants=entries,
        battlefield=battlefield,
        house=house,
        extra=extra,
        draft=draft,
    )
    return Scenario(dict(data), spec, ruleset, common.max_rounds, ruleset.encounter(spec))


def _house(ruleset: AnyRuleset, house: str | dict[str, Any] | None, source: str) -> HouseRules:
    if house is None:
        return ruleset.house_model()
    if isinstance(house, str):  # pragma: no cover - inlined by read_scenario
        raise InputError(f"{source}: house {house!r} was not read")
    return validate(ruleset.house_model, house, f"{source} (house rules)")


def _entry(i: int, raw: dict[str, Any], sides: list[str], source: str) -> CombatantEntry:
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError(
            f"{source}: combatants[{i}].name is missing or empty", tip="give it a name"
        )
    where = f"combatants.{quote_name(name)}"  # as --set addresses it
    side = raw.get("side")
    if side not in sides:
        raise InputError(
            f"{source}: {where}.side is {side!r}, not one of the sides",
            tip=f"sides: {', '.join(sides)}",
        )
    fields = {k: v for k, v in raw.items() if k not in ("side",)}
    return CombatantEntry(name=name, side=str(side), fields=fields, where=where)


def _no_duplicates(names: list[str], what: str, source: str) -> None:
    seen: set[str] = set()
    for n in names:
        if n != n.strip():
            raise InputError(
                f"{source}: {what[:-1]} name {n!r} has spaces at its start or end",
                tip=f"write it {n.strip()!r}: names that differ only there are hard to tell apart",
            )
        if n in seen:
            raise InputError(f"{source}: two {what} are called {n!r}", tip="names must differ")
        seen.add(n)


def _battlefield(model: BattlefieldModel, names: list[str], source: str) -> Battlefield:
    for i, pair in enumerate(model.pairs):
        a, b = pair.between
        for n in (a, b):
            if n not in names:
                raise InputError(
                    f"{source}: battlefield.pairs[{i}] names {n!r}, who is not a combatant",
                    tip=f"combatants: {', '.join(names)}",
                )
        if a == b:
            raise InputError(f"{source}: battlefield.pairs[{i}] names {a!r} twice")
    for n in model.cover:
        if n not in names:
            raise InputError(
                f"{source}: battlefield.cover names {n!r}, who is not a combatant",
                tip=f"combatants: {', '.join(names)}",
            )
    seen: dict[frozenset[str], int] = {}
    for i, pair in enumerate(model.pairs):
        key = frozenset(pair.between)
        if key in seen:
            a, b = pair.between
            raise InputError(
                f"{source}: battlefield.pairs[{i}] gives {a} and {b} a range again "
                f"(pairs[{seen[key]}] gave one)",
                tip="give each pair once",
            )
        seen[key] = i
    pairs = tuple((frozenset(p.between), p.range) for p in model.pairs)
    return Battlefield(range=model.range, pairs=pairs, cover=dict(model.cover))
