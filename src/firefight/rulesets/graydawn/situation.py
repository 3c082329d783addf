"""The attack situation file (``kind = "attack"``): who shoots whom, how, and what luck they spend.

Validated at the edge: names of weapons, armour and cover are looked up in the catalog (G41) and
every option the text names is a field here (S03). See docs/rules/graydawn.md for the format.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field, model_validator

from firefight.core.catalog import Catalog, load_catalog, lookup
from firefight.core.files import source_folder
from firefight.core.loading import validate
from firefight.core.validation import check_name, shown
from firefight.errors import InputError
from firefight.rulesets.graydawn.house import GraydawnHouse
from firefight.rulesets.graydawn.models import LOCATIONS, Combatant, Location, Model

FireMode = Literal[
    "single", "aimed", "centre_of_mass", "burst", "full_auto", "melee", "explosion", "reload"
]
HitLocationModel = Literal["d10", "d8", "single_only", "cinematic"]
RerollWhat = Literal[
    "attack", "fumble", "defence", "hit_location_head", "graze", "stun_save", "death_save", "sever"
]
BoostWhat = Literal["attack", "defence", "graze", "stun_save", "death_save", "sever", "reload"]


class LuckChoices(Model):
    """G17 choices the caller makes for one side: what to re-roll (2 points, once each, when it
    went badly) and what to boost (+2 per point after a failure, only if enough points remain to
    turn it into a success)."""

    reroll: tuple[RerollWhat, ...] = ()
    boost: tuple[BoostWhat, ...] = ()


class Luck(Model):
    attacker: LuckChoices = LuckChoices()
    target: LuckChoices = LuckChoices()


class NamedModifier(Model):
    """An extra modifier the text leaves to the Ref (darkness, off-hand, wounds...)."""

    name: str
    value: int
    applies_to: Literal["attack", "defence"] = "attack"


class ReloadSpec(Model):
    """G40: how the reload is attempted."""

    method: Literal["only_action", "extra_action", "single_shell", "shells"] = "only_action"
    actions: int = Field(1, ge=1, le=6, description="combat actions declared this round")


class AttackSpec(Model):
    """How the attack is made. Every option the text names (S03)."""

    mode: FireMode = "single"
    system: Literal["opposed", "tn"] = Field(
        "opposed", description="G04 opposed rolls, or G05 range TNs (always TN vs a mook)"
    )
    range_m: float = Field(10.0, ge=0)
    aim_location: Location | None = Field(None, description="G24: the location an aimed shot takes")
    aim_rounds: int = Field(0, ge=0, description="G39: full rounds spent aiming, +1 each")
    concentration: int = Field(0, ge=0, description="G39: concentration perk raises the aim cap")
    rounds: int | None = Field(None, ge=1, description="G28: rounds fired (default: the ROF)")
    spread_targets: int = Field(1, ge=1, description="G28: targets sharing the full-auto burst")
    spread_m: int = Field(0, ge=0, description="G28: metres bridged between them (5 rounds each)")
    bipod: bool = Field(False, description="G28: bipod/mount: no recoil penalty out to medium")
    use_scope: bool = Field(True, description="G39: use the weapon's scope when bracing")
    point_blank: bool = Field(False, description="G36: follow-up shot after a successful grapple")
    armour_stops_point_blank: bool = Field(
        False, description="G36: the target's armour makes point-blank shots roll damage"
    )
    into_close_combat: bool = Field(False, description="G37: firing into a melee (-3)")
    allies_in_melee: tuple[Combatant, ...] = Field(
        (), description="G37: others in the fight who must dodge if the shot misses"
    )
    close_quarters: bool = Field(False, description="G38: the target is grappling the shooter")
    extra_actions: int = Field(0, ge=0, le=5, description="G31: -3 per action past the first")
    hit_locations: HitLocationModel = Field("d10", description="G24 hit-location option")
    target_dodges: bool | None = Field(
        None, description="G05 TN system: the target makes a dodge roll (default: not a mook)"
    )
    defence_skill: str | None = Field(
        None, description="skill in the defence roll (default dodge_cover; melee: the CQB skill)"
    )
    modifiers: tuple[NamedModifier, ...] = ()
    reload: ReloadSpec = ReloadSpec()


class AttackSituation(Model):
    kind: Literal["attack"] = "attack"
    attacker: Combatant
    target: Combatant = Combatant(name="target")
    attack: AttackSpec = AttackSpec()
    luck: Luck = Luck()
    catalogs: tuple[str, ...] = ()
    house: GraydawnHouse = GraydawnHouse()

    @model_validator(mode="after")
    def _consistent(self) -> AttackSituation:
        a, w = self.attack, self.attacker.weapon
        if w is None:
            raise ValueError("attacker.weapon: the attacker needs a weapon (name or table)")
        if a.mode == "aimed" and a.aim_location is None:
            raise ValueError("attack.aim_location: an aimed shot needs a location")
        if a.mode == "burst" and not w.burst:
            raise ValueError(f"attack.mode: {w.name} has no burst mode (G27)")
        if a.mode == "full_auto":
            if not w.full_auto:
                raise ValueError(f"attack.mode: {w.name} has no full-auto mode (G28)")
            if (a.rounds or w.rof) > w.rof:
                raise ValueError(f"attack.rounds: more than the ROF {w.rof} of {w.name}")
            if (a.rounds or w.rof) > w.magazine:
                raise ValueError(f"attack.rounds: more than the magazine ({w.magazine})")
        if a.mode in ("aimed", "centre_of_mass") and not w.is_firearm:
            raise ValueError("attack.mode: aimed shots are for firearms")
        if a.mode == "melee" and w.is_firearm:
            raise ValueError("attack.mode: melee needs a melee weapon or unarmed attack")
        if a.mode == "explosion" and w.kind != "grenade":
            raise ValueError("attack.mode: explosion damage needs a grenade (or other AoE)")
        if a.mode in ("single", "aimed", "centre_of_mass", "burst", "full_auto") and (
            not w.is_firearm
        ):
            raise ValueError(f"attack.mode: {a.mode} needs a firearm, {w.name} is {w.kind}")
        return self


def _armour_table(raw: Any, catalog: Catalog, source: str) -> dict[str, int]:
    """A list of catalog names and/or inline tables -> the best SP per location."""
    pieces = raw if isinstance(raw, list) else [raw]
    best: dict[str, int] = dict.fromkeys(LOCATIONS, 0)
    for piece in pieces:
        entry = lookup(catalog, "armour", piece, source) if isinstance(piece, str) else piece
        if not isinstance(entry, dict):
            raise InputError(
                f"{source}: armour entries are names or tables of SP by location",
                tip='e.g. armour = ["kevlar vest", { head = 10 }]',
            )
        for key, value in entry.items():
            if key == "name":
                continue
            if key not in best:
                raise InputError(
                    f"{source}: armour location {key!r} is unknown",
                    tip=f"use {', '.join(LOCATIONS)}",
                )
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000:
                raise InputError(
                    f"{source}: armour {key} must be a whole number of SP",
                    tip="give 0 to 1000, e.g. torso = 14",
                )
            best[key] = max(best[key], value)
    return best


def _named(section: str, raw: Any, catalog: Catalog, source: str) -> Any:
    """A catalog name, or a table whose ``name`` is in the catalog (its fields override)."""
    if isinstance(raw, dict) and "name" in raw and not isinstance(raw["name"], str):
        raise InputError(
            f"{source}: {section} name must be text, not {shown(raw['name'])}",
            tip='write the name in quotes, e.g. name = "..."',
        )
    if isinstance(raw, str):
        return lookup(catalog, section, raw, source)
    if isinstance(raw, dict) and isinstance(raw.get("name"), str):
        known = catalog.get(section, {}).get(raw["name"].lower())
        if known is not None:
            merged = dict(known)
            for k, v in raw.items():
                if isinstance(v, dict) and isinstance(merged.get(k), dict):
                    merged[k] = {**merged[k], **v}
                else:
                    merged[k] = v
            return merged
        if section == "cover" and set(raw) <= {"name", "position", "intersects"}:
            lookup(catalog, section, raw["name"], source)  # unknown name: clear error
    return raw


#: Skills the rules themselves name (defence, close combat, movement, jam clearing); weapon
#: skills come from the weapons of the catalog in use (G01, G04, G37, G40).
RULE_SKILLS = frozenset({"dodge_cover", "brawling", "melee", "athletics", "weaponsmith"})


def known_skills(catalog: Catalog, *weapons: Any) -> set[str]:
    """Every skill name a combatant may list: the rules' own and every weapon's ``skill``."""
    names = set(RULE_SKILLS)
    for entry in [*catalog.get("weapons", {}).values(), *weapons]:
        if isinstance(entry, dict) and isinstance(entry.get("skill"), str):
            names.add(entry["skill"])
    return names


def _check_skills(out: dict[str, Any], catalog: Catalog, source: str) -> None:
    """A misspelt skill would count as skill 0 and quietly change the odds: refuse it."""
    skills = out.get("skills")
    if not isinstance(skills, dict):
        return
    known = known_skills(catalog, out.get("weapon"))
    for name in skills:
        check_name(str(name), sorted(known), f"{source}: field skills", "skill")


def combatant_entry(raw: Any, catalog: Catalog, source: str) -> Any:
    """A combatant table with its weapon, armour and cover names replaced by catalog tables
    (inline tables pass through), ready for pydantic; shared by attack and suppression files.
    Skill names are checked against the rules' skills and the catalog's weapon skills."""
    if not isinstance(raw, dict):
        return raw
    out = dict(raw)
    if "weapon" in out:
        out["weapon"] = _named("weapons", out["weapon"], catalog, source)
    _check_skills(out, catalog, source)
    if "armour" in out:
        out["armour"] = _armour_table(out["armour"], catalog, source)
    if "cover" in out:
        cover = _named("cover", out["cover"], catalog, source)
        if isinstance(cover, dict):
            cover = {k: v for k, v in cover.items() if k != "name"}
            cover.setdefault("position", "active")
        out["cover"] = cover
    return out


def file_catalog(data: Mapping[str, Any], source: str) -> Catalog:
    """The package catalog (G41) plus a file's ``catalogs = [...]`` (paths relative to it)."""
    extra = data.get("catalogs", ())
    if not isinstance(extra, list | tuple) or not all(isinstance(x, str) for x in extra):
        raise InputError(
            f"{source}: field catalogs: must be a list of file paths",
            tip='e.g. catalogs = ["my_guns.toml"]',
        )
    relative = source_folder(source)
    return load_catalog("firefight.rulesets.graydawn", extra, relative)


def load_attack(data: Mapping[str, Any], source: str, house: GraydawnHouse) -> AttackSituation:
    """Validate an attack situation; catalog names become full tables first."""
    if "house" in data:
        raise InputError(
            f"{source}: field house: house rules come from a separate file",
            tip="move them to a TOML file and pass --house FILE",
        )
    catalog = file_catalog(data, source)
    prepared = dict(data)
    for side in ("attacker", "target"):
        if side in prepared:
            prepared[side] = combatant_entry(prepared[side], catalog, f"{source}: {side}")
    attack = prepared.get("attack")
    if isinstance(attack, dict) and isinstance(attack.get("allies_in_melee"), list):
        attack = dict(attack)
        attack["allies_in_melee"] = [
            combatant_entry(a, catalog, f"{source}: attack.allies_in_melee")
            for a in attack["allies_in_melee"]
        ]
        prepared["attack"] = attack
    prepared["house"] = house
    situation = validate(AttackSituation, prepared, source)
    dskill = situation.attack.defence_skill
    if dskill is not None:
        weapons = [prepared.get(side, {}).get("weapon") for side in ("attacker", "target")]
        known = known_skills(catalog, *[w for w in weapons if isinstance(w, dict)])
        check_name(dskill, sorted(known), f"{source}: field attack.defence_skill", "skill")
    return situation
