"""Catalogs of named equipment (weapons, armour, cover...) as TOML tables.

A ruleset ships ``catalog.toml`` inside its package; a situation may list more catalog files
(``catalogs = ["my_guns.toml"]``, paths relative to the situation file) whose entries add to or
replace the shipped ones. Lookups of unknown names fail with the closest known names as a tip.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from firefight.core.loading import read_toml
from firefight.core.validation import clip, shown, suggest
from firefight.errors import InputError, UnknownNameError

Catalog = dict[str, dict[str, dict[str, Any]]]


def _merge_into(base: Catalog, data: Mapping[str, Any], source: str) -> None:
    for section, entries in data.items():
        if not isinstance(entries, dict):
            raise InputError(
                f"{source}: [{clip(section)}] must be a table of named entries",
                tip=f"write entries as [{clip(section)}.NAME] tables",
            )
        slot = base.setdefault(section, {})
        for name, entry in entries.items():
            if not isinstance(entry, dict):
                raise InputError(
                    f"{source}: {clip(section)}.{clip(name)} must be a table",
                    tip=f"write it as [{clip(section)}.{clip(name)}] with its fields",
                )
            slot[name.lower()] = {"name": name, **entry}


def from_catalog(section: str, default: Any = ..., **field: Any) -> Any:
    """A model field that names an entry of the catalog's ``section``: its JSON schema says
    ``"catalog": section``, so a form offers that section's names (``Ruleset.combatant_model``);
    ``field`` goes to pydantic's ``Field`` (``examples``...)."""
    from pydantic import Field

    return Field(default, json_schema_extra={"catalog": section}, **field)


def load_catalog(
    package: str, extra: Iterable[str | Path] = (), relative_to: Path | None = None
) -> Catalog:
    """The shipped ``catalog.toml`` of ``package`` plus any extra catalog files."""
    import tomllib

    catalog: Catalog = {}
    shipped = resources.files(package).joinpath("catalog.toml")
    _merge_into(catalog, tomllib.loads(shipped.read_text(encoding="utf-8")), f"{package} catalog")
    for path in extra:
        p = Path(path)
        if relative_to is not None and not p.is_absolute():
            p = relative_to / p
        _merge_into(catalog, read_toml(p), str(p))
    return catalog


def lookup(catalog: Catalog, section: str, name: str, source: str = "input") -> dict[str, Any]:
    """The catalog entry ``section.name`` (case-insensitive) or one clear line with suggestions."""
    if not isinstance(name, str):
        raise InputError(
            f"{source}: a {section} name must be text, not {shown(name)}",
            tip=f'write the name in quotes, e.g. "{_first(catalog, section)}"',
        )
    entries = catalog.get(section, {})
    entry = entries.get(name.lower())
    if entry is None:
        known = [str(e["name"]) for e in entries.values()]
        hint = suggest(name, known, section, cutoff=0.5)
        raise UnknownNameError(f"{source}: unknown {section} {shown(name)}", tip=hint)
    return dict(entry)


def _first(catalog: Catalog, section: str) -> str:
    names = sorted(str(e["name"]) for e in catalog.get(section, {}).values())
    return names[0] if names else "name"
