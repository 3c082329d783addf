"""A scenario's tactical_d20 part, validated at the edge: combatants, distances, cover.

A combatant is what the situation files already give for a creature, plus the weapons it carries:

```toml
[[combatants]]
name = "Vance"
side = "crew"
creature = "operator"              # a catalog name, or { use = "operator", hp = 12 }
weapons = ["smg", "knife"]         # catalog names or tables; the unarmed strike is always there
ammo = "standard"                  # standard, buckshot, birdshot, armour_piercing
loaded = { smg = 20 }              # rounds loaded at the start (default: a full magazine)
control = "player"                 # player / gm for initiative ties (default: the creature's)
```

``[battlefield]``: ``range`` and ``pairs`` in feet (default 30 ft), ``cover`` one of none,
concealment, light, heavy per combatant.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from firefight.core.catalog import from_catalog
from firefight.core.loading import validate
from firefight.core.turns import ScenarioSpec
from firefight.errors import FirefightError, InputError
from firefight.rulesets.tactical_d20 import gear
from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.models import (
    Ammo,
    Cover,
    Creature,
    Ref,
    Side,
    Weapon,
    _Strict,
)

#: The default distance between two creatures when the battlefield gives none, in feet.
DEFAULT_RANGE = 30
COVERS: tuple[Cover, ...] = ("none", "concealment", "light", "heavy")
#: Conditions a combatant may start with; the others need a partner or a map.
STARTING_CONDITIONS = ("stunned", "arm_wound", "leg_wound", "disarmed")


class CombatantFields(_Strict):
    """One combatant of a scenario (besides ``side``)."""

    name: str
    creature: Ref = from_catalog("creatures")
    weapons: tuple[Ref, ...] = from_catalog("weapons", ())
    ammo: Ammo = "standard"
    loaded: dict[str, int] = Field(default_factory=dict)
    control: Side | None = None


@dataclass(frozen=True)
class Combatant:
    """What does not change: the creature as the rules read it, and its weapons by name."""

    name: str
    side: str
    creature: Creature
    weapons: tuple[Weapon, ...]
    ammo: Ammo
    loaded: tuple[tuple[str, int], ...]
    cover: Cover

    def weapon(self, name: str) -> Weapon:
        return next(w for w in self.weapons if w.name == name)


def unarmed(house: TacticalD20House) -> Weapon:
    return Weapon(
        name="unarmed",
        kind="unarmed",
        damage=house.unarmed_damage,
        damage_type=house.unarmed_damage_type,
    )


def load_combatants(spec: ScenarioSpec, house: TacticalD20House) -> tuple[Combatant, ...]:
    catalogs = spec.extra.get("catalogs", ())
    if not isinstance(catalogs, (list, tuple)) or not all(isinstance(c, str) for c in catalogs):
        raise spec.fail("catalogs", "must be a list of file names", tip='catalogs = ["mine.toml"]')
    catalog = gear.catalog_for(tuple(catalogs), spec.source)
    covers = _cover(spec)
    out = []
    for entry in spec.combatants:
        where = f"{spec.source}: {entry.where}"
        fields = validate(CombatantFields, dict(entry.fields), where)
        ref = fields.creature
        table: dict[str, Any] = (
            {"use": ref, "name": entry.name}
            if isinstance(ref, str)
            else {**ref, "name": entry.name}
        )
        if fields.control is not None:
            table["side"] = fields.control
        creature = gear.creature(catalog, table, spec.source, f"{entry.where}.creature")
        bad = [c for c in creature.conditions if c not in STARTING_CONDITIONS]
        if bad:
            raise spec.fail(
                f"{entry.where}.creature.conditions",
                f"a fight cannot start with {', '.join(bad)}",
                tip=f"start with any of {', '.join(STARTING_CONDITIONS)}, or none",
            )
        weapons = [unarmed(house)]
        for i, w in enumerate(fields.weapons):
            found = gear.weapon(catalog, w, spec.source, f"{entry.where}.weapons[{i}]", house)
            if any(x.name == found.name for x in weapons):
                raise spec.fail(f"{entry.where}.weapons[{i}]", f"{found.name!r} is listed twice")
            weapons.append(found)
        ranged = [w for w in weapons if w.is_ranged]
        if fields.ammo != "standard" and not any(fields.ammo in w.ammo for w in ranged):
            raise spec.fail(
                f"{entry.where}.ammo",
                f"none of its weapons takes {fields.ammo} ammunition",
                tip='use ammo = "standard" or give it a weapon that takes it',
            )
        loaded = {w.name: w.magazine for w in ranged}
        for name, rounds in fields.loaded.items():
            if name not in loaded:
                close = difflib.get_close_matches(name, list(loaded), n=1)
                hint = f"did you mean {close[0]}?" if close else f"ranged: {', '.join(loaded)}"
                raise spec.fail(f"{entry.where}.loaded.{name}", "no such ranged weapon", tip=hint)
            magazine = next(w.magazine for w in ranged if w.name == name)
            if not 0 <= rounds <= magazine:
                raise spec.fail(
                    f"{entry.where}.loaded.{name}",
                    f"{rounds} rounds: the magazine holds 0 to {magazine}",
                )
            loaded[name] = rounds
        out.append(
            Combatant(
                name=entry.name,
                side=entry.side,
                creature=creature,
                weapons=tuple(weapons),
                ammo=fields.ammo,
                loaded=tuple(loaded.items()),
                cover=covers.get(entry.name, "none"),
            )
        )
    return tuple(out)


def _cover(spec: ScenarioSpec) -> dict[str, Cover]:
    out: dict[str, Cover] = {}
    for name, value in spec.battlefield.cover.items():
        if value not in COVERS:
            close = difflib.get_close_matches(str(value), COVERS, n=1)
            hint = f"did you mean {close[0]}?" if close else f"use one of: {', '.join(COVERS)}"
            raise spec.fail(f"battlefield.cover.{name}", f"unknown cover {value!r}", tip=hint)
        out[name] = value
    return out


def feet(spec: ScenarioSpec, value: Any, where: str) -> int:
    """A battlefield distance: whole feet, 0 or more."""
    if value is None:
        return DEFAULT_RANGE
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise spec.fail(
            where,
            f"{value!r} is not a distance in feet",
            tip="tactical_d20 distances are whole feet, e.g. range = 60",
        )
    if value < 0:
        raise spec.fail(where, f"{value} ft: a distance cannot be negative")
    return int(value)


def distances(
    spec: ScenarioSpec, names: tuple[str, ...]
) -> tuple[tuple[tuple[str, str], int], ...]:
    """Every pair's distance in feet from ``range`` and ``pairs``."""
    default = feet(spec, spec.battlefield.range, "battlefield.range")
    for i, (_, value) in enumerate(spec.battlefield.pairs):
        feet(spec, value, f"battlefield.pairs[{i}].range")
    out = []
    ordered = sorted(names)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            value = spec.battlefield.between(a, b)
            out.append(((a, b), default if value is None else feet(spec, value, "battlefield")))
    return tuple(out)


def rule_error_at(spec: ScenarioSpec, where: str, err: FirefightError) -> InputError:
    return spec.fail(where, err.message, tip=err.tip)
