"""An encounter's cast: the scenario's combatants and battlefield validated into what does not
change during the fight (fighters with their gear, missile weapons, starting distances).

A combatant takes the fields of a situation file's ``[attacker]`` / ``[defender]`` (see
:class:`.models.CombatantSpec`), plus ``missile`` (a bow, crossbow or throwable weapon it may
shoot or throw) and ``ammunition`` (missiles carried; unlimited if not given). The scenario may
carry ``options`` and ``catalogs`` as a situation file does. Distances are in feet.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field

from firefight.core.catalog import Catalog, from_catalog, load_catalog, lookup
from firefight.core.loading import validate
from firefight.core.turns import ScenarioSpec
from firefight.rulesets.dragonwarriors2.gear import Fighter, Missile, fighter, missile
from firefight.rulesets.dragonwarriors2.house import DragonWarriors2House
from firefight.rulesets.dragonwarriors2.models import (
    CombatantSpec,
    MissileSpec,
    Options,
    _Model,
)

PACKAGE = "firefight.rulesets.dragonwarriors2"


class EncounterCombatant(CombatantSpec):
    """A situation file's combatant, plus what it may shoot or throw."""

    #: Catalog weapon shot or thrown at enemies beyond reach (D09).
    missile: str | None = from_catalog("weapon", None)
    #: Missiles carried; None: not counted.
    ammunition: int | None = Field(None, ge=0)


class ScenarioExtra(_Model):
    """The scenario's own top-level keys, as in a situation file."""

    options: Options = Options()
    catalogs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Cast:
    """Everything static about one scenario's fight."""

    options: Options
    house: DragonWarriors2House
    catalog: Catalog
    #: name -> the combatant's Fighter at the start (scores, gear, riposte policy, stance).
    fighters: dict[str, Fighter]
    models: dict[str, EncounterCombatant]
    sides: dict[str, str]
    #: name -> the missile weapon's catalog name, for those who have one.
    missiles: dict[str, str]
    #: Starting distances in feet, for pairs not 0 apart: (first name, second name, feet) in
    #: scenario order.
    distances: tuple[tuple[str, str, int], ...]


def build_cast(spec: ScenarioSpec) -> Cast:
    """Validate the ruleset's part of a scenario; every error is one line naming the field."""
    extra = validate(ScenarioExtra, dict(spec.extra), spec.source)
    house = spec.house
    if not isinstance(
        house, DragonWarriors2House
    ):  # pragma: no cover - the engine validates the house model
        raise spec.fail("house", "not dragonwarriors2 house rules")
    base = Path(spec.source).parent if spec.source else None
    catalog = load_catalog(PACKAGE, extra.catalogs, base)
    fighters: dict[str, Fighter] = {}
    models: dict[str, EncounterCombatant] = {}
    missiles: dict[str, str] = {}
    for e in spec.combatants:
        where = f"{spec.source}: {e.where}"
        model = validate(EncounterCombatant, dict(e.fields), where)
        for flag in ("knocked_out", "dead"):
            if getattr(model, flag):
                raise spec.fail(
                    f"{e.where}.{flag}",
                    f"{e.name} cannot start a fight {flag.replace('_', ' ')}",
                    tip=f"set {flag} = false or leave {e.name} out",
                )
        for section in ("weapon", "shield", "armour"):
            name = getattr(model, section)
            if name:
                lookup(catalog, section, name, f"{where}.{section}")
        if model.missile:
            lookup(catalog, "weapon", model.missile, f"{where}.missile")
            missile(
                MissileSpec(weapon=model.missile, range_feet=0),
                catalog,
                f"{where}.missile",
                house.feet_per_fathom,
            )
            missiles[e.name] = model.missile
        elif model.ammunition is not None:
            raise spec.fail(
                f"{e.where}.ammunition",
                "ammunition without a missile weapon",
                tip='add missile = "bow" (or a throwable weapon) or remove ammunition',
            )
        fighters[e.name] = fighter(model, catalog, where)
        models[e.name] = model
    return Cast(
        options=extra.options,
        house=house,
        catalog=catalog,
        fighters=fighters,
        models=models,
        sides={e.name: e.side for e in spec.combatants},
        missiles=missiles,
        distances=_distances(spec),
    )


def _feet(spec: ScenarioSpec, where: str, value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise spec.fail(
            where,
            f"{value!r} is not a distance in feet",
            tip="give a whole number of feet, 0 or more (six feet to the fathom)",
        )
    return value


def _distances(spec: ScenarioSpec) -> tuple[tuple[str, str, int], ...]:
    bf = spec.battlefield
    if bf.cover:
        name = next(iter(bf.cover))
        raise spec.fail(
            f"battlefield.cover.{name}",
            "the text has no cover rules",
            tip="leave cover out; a missile's difficulty grows with range (D09)",
        )
    _feet(spec, "battlefield.range", bf.range)
    for i, (_, value) in enumerate(bf.pairs):
        _feet(spec, f"battlefield.pairs[{i}].range", value)
    names = [e.name for e in spec.combatants]
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            feet = _feet(spec, "battlefield", bf.between(a, b))
            if feet:
                out.append((a, b, feet))
    return tuple(out)


def shot(cast: Cast, shooter: str, feet: int) -> Missile:
    """The shooter's missile at ``feet``: difficulty in feet or fathoms by the weapon (D09)."""
    spec = MissileSpec(weapon=cast.missiles[shooter], range_feet=feet)
    return missile(spec, cast.catalog, shooter, cast.house.feet_per_fathom)
