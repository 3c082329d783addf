"""A graydawn scenario's own part, validated at the edge: each combatant is the combatant of a
situation file (stats, skills, weapon, armour, wounds, luck...) plus a few fight fields; the
battlefield gives metres between combatants and catalog cover names.

Encounter fields of a combatant (all optional):

- ``fire = "suppressing" | "covering"`` with ``rounds = N`` or ``full_magazine = true``: the
  suppressing fire it declares by default each round (G09/G16/G29; the suppression files' own
  shooter fields);
- ``luck = { reroll = [...], boost = [...] }``: its standing orders for spending the luck pool
  (the ``[luck.attacker]`` / ``[luck.target]`` choices of an attack file, G17);
- ``spare_magazines`` (default 2): full magazines carried (G40);
- ``slung = true``: a long gun starts slung; shouldering it is an action (G39);
- ``cover_m``: metres to its battlefield cover when not yet behind it (default 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from firefight.core.catalog import from_catalog, load_catalog, lookup
from firefight.core.files import source_folder
from firefight.core.loading import validate
from firefight.core.turns import ScenarioSpec
from firefight.rulesets.graydawn.house import GraydawnHouse
from firefight.rulesets.graydawn.models import Combatant, Cover, Model, Stats, WoundTrack
from firefight.rulesets.graydawn.situation import LuckChoices, combatant_entry
from firefight.rulesets.graydawn.suppression import AUTOMATIC_KINDS, unsuitable_reason

ENCOUNTER_KEYS = ("fire", "rounds", "full_magazine", "luck", "spare_magazines", "slung", "cover_m")


class EncounterFields(Model):
    """The fight fields of a combatant (see the module docstring)."""

    fire: Literal["suppressing", "covering"] | None = None
    rounds: int | None = Field(None, ge=1)
    full_magazine: bool = False
    luck: LuckChoices = LuckChoices()
    spare_magazines: int = Field(2, ge=0, le=20)
    slung: bool = False
    cover_m: int = Field(0, ge=0, le=1000)


class ScenarioCombatant(EncounterFields):
    """A scenario's combatant table as a form offers it (``Ruleset.combatant_model``): a
    situation file's combatant, its weapon and armour by catalog name, plus the fight fields.
    :func:`read_entries` judges the table; this model accepts every table it takes."""

    name: str
    stats: Stats = Stats()
    skills: dict[str, int] = Field(default_factory=dict)
    weapon: str | dict[str, Any] = from_catalog("weapons")
    armour: str | list[str | dict[str, int]] | dict[str, int] | None = from_catalog("armour", None)
    luck_points: int | None = Field(None, ge=0, description="points left; default LUCK (G17)")
    uses_luck: bool = True
    mook: bool = False
    wounds: WoundTrack = WoundTrack()


#: G19: the medical skills a fight reads (stabilising, first aid), besides the rules' own.
MEDICAL_SKILLS = ("first_aid", "doctor")


class _Medical(Model):
    """``skills.first_aid`` and ``skills.doctor`` (levels 0-10)."""

    first_aid: int = Field(0, ge=0, le=10, alias="first_aid")
    doctor: int = Field(0, ge=0, le=10)


@dataclass(frozen=True)
class Entry:
    """What does not change for one combatant during the fight."""

    name: str
    side: str
    combatant: Combatant
    extra: EncounterFields
    cover: Cover | None

    @property
    def automatic(self) -> bool:
        w = self.combatant.weapon
        return w is not None and w.kind in AUTOMATIC_KINDS


def read_entries(spec: ScenarioSpec, house: GraydawnHouse) -> tuple[Entry, ...]:
    """Every combatant validated with the situation files' model; one line on the first error."""
    extra_files = spec.extra.get("catalogs", [])
    if not isinstance(extra_files, list) or not all(isinstance(x, str) for x in extra_files):
        raise spec.fail("catalogs", "must be a list of catalog file paths")
    folder = source_folder(spec.source)
    catalog = load_catalog("firefight.rulesets.graydawn", extra_files, folder)
    ambush = spec.extra.get("ambush")
    if ambush is not None and ambush not in {s.name for s in spec.sides}:
        raise spec.fail("ambush", f"{ambush!r} is not a side", tip="name the ambushing side (G35)")
    out = []
    for e in spec.combatants:
        raw = dict(e.fields)
        if "stance" in raw:
            raise spec.fail(
                e.where,
                "field stance: stances are chosen during the fight (G32)",
                tip="remove stance; cover goes in [battlefield] cover",
            )
        fight = {k: raw.pop(k) for k in ENCOUNTER_KEYS if k in raw}
        medical: dict[str, Any] = {}
        if isinstance(raw.get("skills"), dict):  # G19's skills, read only in a fight
            skills = dict(raw["skills"])
            medical = {k: skills.pop(k) for k in MEDICAL_SKILLS if k in skills}
            raw["skills"] = skills
        where = f"{spec.source}: {e.where}"
        prepared = combatant_entry(raw, catalog, where)
        # core validation: the strict pass refuses what pydantic would quietly convert
        # (BODY = true read as 1)
        combatant = validate(Combatant, prepared, where)
        extra = validate(EncounterFields, fight, where)
        care = validate(_Medical, medical, where)
        if medical:
            skills = {**combatant.skills, **care.model_dump(exclude_defaults=True)}
            combatant = combatant.model_copy(update={"skills": skills})
        if combatant.weapon is None:
            raise spec.fail(
                e.where,
                "field weapon: every combatant needs a weapon",
                tip='name a catalog weapon, e.g. weapon = "smg", or "punch" for bare hands',
            )
        w = combatant.weapon
        if extra.fire is not None:
            reason = unsuitable_reason(w, house.suppression)
            if reason is not None:
                raise spec.fail(e.where, f"field fire: {reason} (G09)")
            if extra.rounds is None and not extra.full_magazine:
                extra = extra.model_copy(
                    update={"rounds": w.rof if extra.fire == "covering" else 10}
                )
        cover = _cover(spec, e.name, catalog, combatant)
        out.append(Entry(e.name, e.side, combatant, extra, cover))
    return tuple(out)


def _cover(spec: ScenarioSpec, name: str, catalog: Any, c: Combatant) -> Cover | None:
    """The battlefield's cover for ``name`` (catalog name, active cover), else its own."""
    named = spec.battlefield.cover.get(name)
    if named is None:
        return c.cover if c.cover.level > 0 else None
    entry = lookup(catalog, "cover", named, f"{spec.source}: battlefield.cover.{name}")
    table = {k: v for k, v in entry.items() if k != "name"}
    table.setdefault("position", "active")
    return Cover.model_validate(table)


def read_distances(
    spec: ScenarioSpec, names: tuple[str, ...]
) -> tuple[tuple[str, str, float], ...]:
    """Metres between every pair (``range`` by default, ``pairs`` for two names)."""
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            value = spec.battlefield.between(a, b)
            where = "battlefield.range"
            if value is None:
                raise spec.fail(
                    where,
                    f"no distance between {a} and {b}",
                    tip="give range = metres, or a [[battlefield.pairs]] entry",
                )
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise spec.fail(
                    where,
                    f"{value!r} between {a} and {b} is not a distance in metres",
                    tip="graydawn battlefields give metres, e.g. range = 25",
                )
            x, y = sorted((a, b))
            rows.append((x, y, float(value)))
    return tuple(sorted(rows))
