"""Situation files, one loader per kind: validate the file, then resolve catalog names into the
loaded situations of :mod:`.models`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from firefight.core.catalog import Catalog, load_catalog, lookup
from firefight.core.loading import validate
from firefight.core.validation import check_name, shown, suggest
from firefight.errors import InputError, UnknownNameError
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.models import (
    AIM_LEVELS,
    Attack,
    AttackFile,
    Combatant,
    Initiative,
    InitiativeFile,
    Mortar,
    MortarFile,
    Protection,
    Sight,
    Target,
    TargetSpec,
    Thrown,
    ThrownFile,
    Weapon,
)

PACKAGE = "firefight.rulesets.warfare2d20"

F = TypeVar("F", bound=BaseModel)


def _file(model: type[F], data: Mapping[str, Any], source: str) -> tuple[F, Catalog]:
    """The validated file and the catalog it sees (the shipped one plus its ``catalogs``)."""
    f = validate(model, data, source)
    extra = getattr(f, "catalogs", ())
    return f, load_catalog(PACKAGE, extra, relative_to=Path(source).parent)


def _entry(
    catalog: Catalog, section: str, value: Any, model: type[Any], source: str, field: str
) -> Any:
    if isinstance(value, dict):
        return validate(model, {"name": field, **value}, f"{source}: {field}")
    data = lookup(catalog, section, value, f"{source}: field {field}")
    return validate(model, data, f"{source}: {section} {value!r}")


def _cover(catalog: Catalog, value: Any, source: str, field: str) -> Protection | None:
    if value is None:
        return None
    cover: Protection = _entry(catalog, "cover", value, Protection, source, field)
    if cover.delta_c is None:
        raise InputError(
            f"{source}: field {field}: {cover.name} has no delta_c",
            tip="cover and shields need delta_c (W04)",
        )
    return cover


def _targets(
    catalog: Catalog, specs: tuple[TargetSpec, ...], source: str, one: bool = False
) -> tuple[Target, ...]:
    """The targets, their names resolved; ``one``: the file wrote a single ``[target]``, and
    errors name it so."""
    out = []
    for i, s in enumerate(specs):
        where = "target" if one else f"targets[{i}]"
        c: Combatant = _entry(
            catalog, "combatants", s.combatant, Combatant, source, f"{where}.combatant"
        )
        armour = None
        if s.armour is not None:
            armour = _entry(catalog, "armour", s.armour, Protection, source, f"{where}.armour")
        hp = c.hit_points if s.hit_points_left is None else s.hit_points_left
        stamina = c.stamina if s.stamina_left is None else s.stamina_left
        out.append(
            Target(
                s.name or c.name,
                c,
                armour,
                _cover(catalog, s.cover, source, f"{where}.cover"),
                s.visibility,
                s.action,
                hp,
                stamina,
                s.distance_m,
                s.modifiers,
            )
        )
    names = [t.name for t in out]
    if len(set(names)) < len(names):
        from dataclasses import replace

        out = [replace(t, name=f"{t.name} {i + 1}") for i, t in enumerate(out)]
    return tuple(out)


def _name(catalog: Catalog, value: Any, source: str, field: str, default: str) -> str:
    if value is None:
        return default
    c: Combatant = _entry(catalog, "combatants", value, Combatant, source, field)
    return c.name


def _attack(
    f: AttackFile, catalog: Catalog, source: str, house: Warfare2d20House, one: bool
) -> Attack:
    weapon: Weapon = _entry(catalog, "weapons", f.weapon, Weapon, source, "weapon")
    mode = f.fire_mode or next(iter(weapon.fire_modes))
    if mode not in weapon.fire_modes:
        raise InputError(
            f"{source}: field fire_mode: {weapon.name} has no fire mode {mode!r}",
            tip=f"choose one of: {', '.join(weapon.fire_modes)}",
        )
    if f.range is not None and f.range not in weapon.range_modifiers:
        raise InputError(
            f"{source}: field range: {weapon.name} has no range band {f.range!r}",
            tip=f"choose one of: {', '.join(weapon.range_modifiers)}",
        )
    level = f.aim
    if f.aim not in AIM_LEVELS:
        sight: Sight = _entry(catalog, "sights", f.aim, Sight, source, "aim")
        level = sight.aim
    return Attack(
        f.title,
        _name(catalog, f.attacker, source, "attacker", "attacker"),
        weapon,
        mode,
        f.aim,
        level,
        f.movement,
        f.range,
        f.attack_roll,
        f.modifiers,
        _targets(catalog, f.targets, source, one),
        house,
        f.kind,
    )


def _mortar(
    f: MortarFile, catalog: Catalog, source: str, house: Warfare2d20House, one: bool
) -> Mortar:
    shells = {k.lower(): k for k in house.mortar_shells}
    if f.shell.lower() not in shells:
        raise UnknownNameError(
            f"{source}: field shell: unknown shell {shown(f.shell)}",
            tip=suggest(f.shell, house.mortar_shells, "shells"),
        )
    targets = _targets(catalog, f.targets, source, one)
    for i, t in enumerate(targets):
        if t.distance_m is None:
            raise InputError(
                f"{source}: field {'target' if one else f'targets[{i}]'}.distance_m is missing",
                tip="give each blast target its distance from the blast in metres",
            )
    return Mortar(
        f.title, shells[f.shell.lower()], f.rounds, f.spot_roll, f.modifiers, targets, house
    )


def load_attack(data: Mapping[str, Any], source: str, house: Warfare2d20House) -> Attack:
    """An attack or suppression file (``kind = "attack"`` / ``"suppression"``)."""
    f, catalog = _file(AttackFile, data, source)
    return _attack(f, catalog, source, house, "target" in data)


def load_mortar(data: Mapping[str, Any], source: str, house: Warfare2d20House) -> Mortar:
    """A mortar file (W12)."""
    f, catalog = _file(MortarFile, data, source)
    return _mortar(f, catalog, source, house, "target" in data)


def load_thrown(data: Mapping[str, Any], source: str, house: Warfare2d20House) -> Thrown:
    """A thrown-object file (W13)."""
    f, catalog = _file(ThrownFile, data, source)
    return Thrown(
        f.title,
        _name(catalog, f.thrower, source, "thrower", "thrower"),
        f.item,
        f.movement,
        f.modifiers,
        house,
    )


def load_initiative(data: Mapping[str, Any], source: str, house: Warfare2d20House) -> Initiative:
    """An initiative file (W10)."""
    f, catalog = _file(InitiativeFile, data, source)
    people = tuple(
        _entry(catalog, "combatants", c, Combatant, source, f"combatants[{i}]")
        for i, c in enumerate(f.combatants)
    )
    names = {c.name for c in people}
    for name in f.ambushers:
        check_name(name, sorted(names), f"{source}: field ambushers", "combatant")
    return Initiative(f.title, people, f.ambushers, house)
