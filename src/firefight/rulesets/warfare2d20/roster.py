"""The static side of a warfare2d20 encounter: each combatant's validated data, ranges, cover.

A scenario's ``[[combatants]]`` entry takes the fields the situation files already use for a
shooter and a target (catalog names or inline tables), plus what only a fight needs:

```toml
[[combatants]]
name = "Cpl. Hicks"
side = "marines"
combatant = "marine"          # stats: catalog name or inline table (mettle, endurance, ...)
weapon = "M4"                 # catalog name or inline table
aim = "ACOG"                  # what taking aim gives: "aiming" (default), "scope", a sight...
movement = "still"            # the pace kept every round: still, walking, running, sprinting
armour = "body armour"        # optional
visibility = "clearly visible"
cover_nearby = "tree"         # optional: the cover a "move to cover" action reaches
ambusher = true               # optional: automatic initiative (W10)
smoke_grenades = 1            # optional (W13)
mortar = "60mm HE"            # optional: can call in this shell (W12)
mortar_rounds = 2
```

Everything is validated here, once, with one line naming the file, the combatant and the field;
``act`` then builds the rule code's plain frozen situations without validating again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field

from firefight.core.catalog import Catalog, from_catalog, load_catalog, lookup
from firefight.core.loading import validate
from firefight.core.turns import ScenarioSpec
from firefight.errors import InputError, UnknownNameError
from firefight.rulesets.warfare2d20.fatigue import action_limit
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.models import (
    AIM_LEVELS,
    Combatant,
    ExtraModifier,
    Movement,
    Named,
    Protection,
    Sight,
    Visibility,
    Weapon,
    _Model,
)
from firefight.rulesets.warfare2d20.situation import PACKAGE


class FighterFields(_Model):
    """One ``[[combatants]]`` entry of a warfare2d20 scenario (``side`` taken off)."""

    name: str
    combatant: Named = from_catalog("combatants")
    weapon: Named = from_catalog("weapons")
    aim: str = from_catalog("sights", "aiming")
    #: The pace kept every round (W02, W11): sets the heart rate's base and the delta of shots.
    movement: Movement = "still"
    armour: Named | None = from_catalog("armour", None, examples=["body armour"])
    visibility: Visibility = "clearly visible"
    hit_points_left: int | None = Field(None, gt=0)
    stamina_left: int | None = Field(None, ge=0)
    cover_nearby: Named | None = from_catalog("cover", None)
    ambusher: bool = False
    smoke_grenades: int = Field(0, ge=0, le=20)
    mortar: str | None = None
    mortar_rounds: int = Field(2, ge=0, le=20)
    #: Metres between the members of a group a mortar falls on ("some 6 to 8 meters apart").
    mortar_spacing_m: float = Field(8.0, gt=0)
    modifiers: tuple[ExtraModifier, ...] = ()


@dataclass(frozen=True)
class Fighter:
    """What does not change during the fight for one combatant."""

    name: str
    side: str
    index: int
    stats: Combatant
    weapon: Weapon
    aim: str
    aim_level: str
    movement: str
    armour: Protection | None
    visibility: str
    hit_points: int
    stamina: int
    #: Cover held at the start (battlefield) and the cover a move reaches (``cover_nearby``).
    cover_start: Protection | None
    cover_nearby: Protection | None
    ambusher: bool
    smoke_grenades: int
    mortar: str | None
    mortar_rounds: int
    mortar_spacing_m: float
    modifiers: tuple[ExtraModifier, ...]
    #: The most actions in a round (W11 model: dexterity // 4, at least 1).
    actions: int


def catalog_for(spec: ScenarioSpec) -> Catalog:
    """The shipped catalog plus the scenario's ``catalogs = [...]`` files."""
    extra = spec.extra.get("catalogs", ())
    if not isinstance(extra, (list, tuple)) or not all(isinstance(x, str) for x in extra):
        raise spec.fail("catalogs", "must be a list of file paths", tip='catalogs = ["mine.toml"]')
    return load_catalog(PACKAGE, extra, relative_to=Path(spec.source).parent)


def _entry(
    catalog: Catalog, section: str, value: Any, model: type[Any], where: str, name: str
) -> Any:
    """A catalog name or an inline table (named ``name`` unless it names itself)."""
    if isinstance(value, dict):
        return validate(model, {"name": name, **value}, where)
    data = lookup(catalog, section, str(value), where)
    return validate(model, data, f"{where}: {section} {value!r}")


def cover_entry(catalog: Catalog, value: Any, where: str) -> Protection:
    cover: Protection = _entry(catalog, "cover", value, Protection, where, "cover")
    if cover.delta_c is None:
        raise InputError(f"{where}: {cover.name} has no delta_c", tip="cover needs delta_c (W04)")
    return cover


def load_fighters(
    spec: ScenarioSpec, catalog: Catalog, house: Warfare2d20House
) -> tuple[Fighter, ...]:
    held = load_cover(spec, catalog)
    out = []
    for i, entry in enumerate(spec.combatants):
        where = f"{spec.source}: {entry.where}"
        f = validate(FighterFields, dict(entry.fields), where)
        stats: Combatant = _entry(
            catalog, "combatants", f.combatant, Combatant, f"{where}.combatant", entry.name
        )
        stats = stats.model_copy(update={"name": entry.name})
        weapon: Weapon = _entry(catalog, "weapons", f.weapon, Weapon, f"{where}.weapon", "weapon")
        armour = None
        if f.armour is not None:
            armour = _entry(catalog, "armour", f.armour, Protection, f"{where}.armour", "armour")
        level = f.aim
        if f.aim not in AIM_LEVELS:
            sight: Sight = _entry(catalog, "sights", f.aim, Sight, f"{where}.aim", "sight")
            level = sight.aim
        nearby = None
        if f.cover_nearby is not None:
            nearby = cover_entry(catalog, f.cover_nearby, f"{where}.cover_nearby")
        shell = None
        if f.mortar is not None:
            shells = {k.lower(): k for k in house.mortar_shells}
            if f.mortar.lower() not in shells:
                raise UnknownNameError(
                    f"{where}: field mortar: unknown shell {f.mortar!r}",
                    tip=f"known: {', '.join(house.mortar_shells)}",
                )
            shell = shells[f.mortar.lower()]
        hp = _left(f.hit_points_left, stats.hit_points, where, "hit_points")
        stamina = _left(f.stamina_left, stats.stamina, where, "stamina")
        out.append(
            Fighter(
                entry.name,
                entry.side,
                i,
                stats,
                weapon,
                f.aim,
                level,
                f.movement,
                armour,
                f.visibility,
                hp,
                stamina,
                held.get(entry.name),
                nearby,
                f.ambusher,
                f.smoke_grenades,
                shell,
                f.mortar_rounds if shell else 0,
                f.mortar_spacing_m,
                f.modifiers,
                action_limit(stats),
            )
        )
    return tuple(out)


def _left(value: int | None, total: int, where: str, field: str) -> int:
    if value is None:
        return total
    if value > total:
        raise InputError(
            f"{where}: field {field}_left: {value} is above the total {total}",
            tip=f"give at most the combatant's {field}",
        )
    return value


def load_cover(spec: ScenarioSpec, catalog: Catalog) -> dict[str, Protection]:
    """Cover held at the start (``[battlefield] cover = { NAME = "brick wall" }``)."""
    return {
        name: cover_entry(catalog, value, f"{spec.source}: battlefield.cover.{name}")
        for name, value in spec.battlefield.cover.items()
    }


def check_ranges(spec: ScenarioSpec, fighters: tuple[Fighter, ...]) -> None:
    """Every range between two enemies is a band both their weapons know (W02)."""
    for a in fighters:
        for b in fighters:
            if a.side == b.side:
                continue
            band = spec.battlefield.between(a.name, b.name)
            if band is None:
                continue
            where = "battlefield.range" if band == spec.battlefield.range else "battlefield.pairs"
            if not isinstance(band, str):
                raise spec.fail(
                    where,
                    f"range {band!r} between {a.name} and {b.name} is not a range band",
                    tip='warfare2d20 ranges are bands: "close", "medium", "long", "extreme"',
                )
            if band not in a.weapon.range_modifiers:
                raise spec.fail(
                    where,
                    f"{a.name}'s {a.weapon.name} has no range band {band!r} (to {b.name})",
                    tip=f"choose one of: {', '.join(a.weapon.range_modifiers)}",
                )
