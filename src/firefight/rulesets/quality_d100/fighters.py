"""Encounter data for quality_d100: a scenario's combatants validated, and the frozen fight state.

A combatant carries the fields a situation file gives its attacker and its defender (weapon,
MD, rank, AG, shield, armour ...) plus what only a whole fight needs: current FT and EN, WP
(stay conscious, stun recovery), and the initiative stats (PC, warrior rank, Military
Scientist). Catalog names are looked up once here, so a typo fails with the catalog's "did you
mean" line naming the scenario, the combatant and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field

from firefight.core.catalog import Catalog, from_catalog, load_catalog, lookup
from firefight.core.loading import validate
from firefight.core.turns import FightState, ScenarioSpec
from firefight.errors import InputError
from firefight.rulesets.quality_d100.house import QualityD100House
from firefight.rulesets.quality_d100.models import (
    ArmourSpec,
    Attacker,
    AttackSituation,
    Defender,
    Extra,
    Special,
    Strict,
    Visibility,
    WeaponSpec,
)
from firefight.rulesets.quality_d100.modifiers import Weapon
from firefight.rulesets.quality_d100.plan import PACKAGE, dice_maximum, make_plan

#: Distances on the board: grappling, engaged in melee, or a number of hexes apart.
CLOSE = "close"
ENGAGED = "engaged"
Distance = str | int

#: Special attacks a turn may choose (Q08); entangle, restrain and trample have no lasting
#: state in the text (see the docs).
TURN_SPECIALS: tuple[Special, ...] = ("trip", "shield_rush", "knockout", "disarm")


class CombatantModel(Strict):
    """One combatant of a scenario (the situation file's attacker and defender fields)."""

    name: str
    weapon: str | WeaponSpec | None = from_catalog("weapon", None)
    damage: str | None = None
    strike_chance: int | None = None
    manual_dexterity: int = 0
    rank: int = Field(0, ge=0)
    magic: int = 0
    physical_strength: int = Field(0, ge=0)
    secondary_hand: bool = False
    visibility: tuple[Visibility, ...] = ()
    strike_modifiers: tuple[Extra, ...] = ()
    defence: int | None = None
    agility: int = 0
    perception: int = 0
    shield: int = Field(0, ge=0)
    magic_defence: int = 0
    armour: str | ArmourSpec | None = from_catalog("armour", None)
    dr: int = Field(0, ge=0)
    defence_modifiers: tuple[Extra, ...] = ()
    fatigue: int = Field(ge=0)
    endurance: int = Field(ge=1)
    willpower: int = Field(ge=0)
    warrior_rank: int = Field(0, ge=0)
    military_scientist: int = Field(0, ge=0)


@dataclass(frozen=True)
class Profile:
    """What does not change during the fight: the validated fields and the weapon looked up."""

    model: CombatantModel
    weapon: Weapon | None
    armour: ArmourSpec | None
    specials: tuple[Special, ...]

    @property
    def ranged(self) -> bool:
        return self.weapon is not None and self.weapon.weapon_class != "melee"


@dataclass(frozen=True)
class Fighter:
    """A combatant's changing state (the text's FT and EN, and the lasting conditions)."""

    name: str
    side: str
    ft: int
    en: int
    #: "ready", "unconscious" or "dead".
    status: str = "ready"
    stunned: bool = False
    prone: bool = False
    disarmed: bool = False
    #: Gave its next action to evade: evades every attack until that action comes.
    evading: bool = False
    #: A successful parry: must pass its next action (Q07).
    passes: bool = False
    #: Defensive withdrawal under way: +20 defence, out of engagement at the round's end.
    withdrawing: bool = False


@dataclass(frozen=True)
class Pending:
    """An exchange waiting for a decision: the defender's (kind "defend") or a riposte's."""

    kind: str
    attacker: str
    target: str
    #: Whose turn the exchange belongs to (the turn passes on from them afterwards).
    turn_of: str
    mode: str = "melee"
    special: Special = "none"
    charge: bool = False
    #: Who steps out of engagement once the exchange is over (an offensive withdrawal).
    withdraws: str = ""


@dataclass(frozen=True)
class Board:
    """Distances between pairs (names sorted) and the exchange in progress."""

    distances: tuple[tuple[str, str, Distance], ...]
    pending: Pending | None = None

    def between(self, a: str, b: str) -> Distance:
        x, y = sorted((a, b))
        for p, q, d in self.distances:
            if (p, q) == (x, y):
                return d
        raise KeyError((a, b))  # pragma: no cover - every pair is on the board

    def with_distance(self, a: str, b: str, d: Distance) -> Board:
        x, y = sorted((a, b))
        rows = tuple((p, q, d if (p, q) == (x, y) else old) for p, q, old in self.distances)
        return Board(rows, self.pending)


def board_of(state: FightState) -> Board:
    board = state.board
    if not isinstance(board, Board):
        raise InputError(
            "the fight state holds no quality_d100 board", tip="start it with its own scenario"
        )
    return board


def enemies(state: FightState, name: str) -> list[str]:
    """Enemies of ``name`` still in the fight, in the scenario's order."""
    side = state.combatant(name).side
    return [c.name for c in state.combatants if c.side != side and c.status == "ready"]


def engaged(state: FightState, name: str, *kinds: str) -> list[str]:
    """Standing enemies in close combat or melee with ``name`` (or of the given kinds)."""
    board, kinds = board_of(state), kinds or (CLOSE, ENGAGED)
    return [e for e in enemies(state, name) if board.between(name, e) in kinds]


def _distance(value: Any, where: str, spec: ScenarioSpec) -> Distance:
    if value is None:
        return ENGAGED
    if value in (CLOSE, ENGAGED):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    raise spec.fail(
        where,
        f"range {value!r} is not a quality_d100 distance",
        tip='use "engaged" (melee), "close" (close combat) or a whole number of hexes apart',
    )


def initial_board(spec: ScenarioSpec) -> Board:
    """Every pair's distance from the battlefield (default: engaged in melee)."""
    bf = spec.battlefield
    _distance(bf.range, "battlefield.range", spec)
    for i, (_, value) in enumerate(bf.pairs):
        _distance(value, f"battlefield.pairs[{i}].range", spec)
    for name, cover in bf.cover.items():
        if cover != "sheltered":
            raise spec.fail(
                f"battlefield.cover.{name}",
                f"cover {cover!r} is not a quality_d100 cover",
                tip='the text has one: "sheltered" (a sheltered hex, +20 defence vs missiles)',
            )
    names = sorted(e.name for e in spec.combatants)
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            rows.append((a, b, _distance(bf.between(a, b), "battlefield", spec)))
    return Board(tuple(rows))


def _named(catalog: Catalog, section: str, value: Any, model: type[Strict], where: str) -> Any:
    if isinstance(value, str):
        return validate(model, lookup(catalog, section, value, where), f"{where} ({value})")
    return value


def load_profiles(spec: ScenarioSpec, house: QualityD100House) -> dict[str, Profile]:
    """Validate every combatant; names, dice and stats fail with one line naming the field."""
    catalogs = spec.extra.get("catalogs", [])
    if not isinstance(catalogs, list) or not all(isinstance(c, str) for c in catalogs):
        raise spec.fail("catalogs", "must be a list of catalog file names")
    catalog = load_catalog(PACKAGE, catalogs, Path(spec.source).parent)
    out: dict[str, Profile] = {}
    for entry in spec.combatants:
        where = f"{spec.source}: {entry.where}"
        model = validate(CombatantModel, dict(entry.fields), where)
        weapon_spec = _named(catalog, "weapon", model.weapon, WeaponSpec, f"{where}.weapon")
        armour = _named(catalog, "armour", model.armour, ArmourSpec, f"{where}.armour")
        model = model.model_copy(update={"weapon": weapon_spec, "armour": armour})
        _check_attack(model, where)
        specials: list[Special] = []
        probe = make_plan(_probe(model, "none"), house, where)
        for special in TURN_SPECIALS:
            if special == "shield_rush" and not model.shield:
                continue
            try:
                make_plan(_probe(model, special), house, where)
            except InputError:
                continue  # e.g. trip needs a weapon's Base Chance
            specials.append(special)
        out[entry.name] = Profile(model, probe.weapon, armour, tuple(specials))
    return out


def _check_attack(model: CombatantModel, where: str) -> None:
    if model.weapon is None and model.strike_chance is None:
        raise InputError(
            f"{where}: field weapon: give a weapon or a strike_chance",
            tip='e.g. weapon = "broadsword" (a catalog name) or strike_chance = 55',
        )
    expr = model.damage or (model.weapon.damage if isinstance(model.weapon, WeaponSpec) else None)
    if expr is None:
        raise InputError(f"{where}: field damage: no damage dice", tip='e.g. damage = "d10+2"')
    dice_maximum(expr, "damage", where)


def _probe(model: CombatantModel, special: Special) -> AttackSituation:
    return AttackSituation(
        special=special,
        attacker=attacker(model),
        defender=Defender(armour=model.armour),
    )


def attacker(model: CombatantModel, **flags: Any) -> Attacker:
    """The situation file's attacker for this combatant, with the fight's flags."""
    return Attacker(
        name=model.name,
        strike_chance=model.strike_chance,
        weapon=model.weapon,
        damage=model.damage,
        manual_dexterity=model.manual_dexterity,
        rank=model.rank,
        magic=model.magic,
        physical_strength=model.physical_strength,
        secondary_hand=model.secondary_hand,
        visibility=model.visibility,
        modifiers=model.strike_modifiers,
        **flags,
    )


def defender(model: CombatantModel, two_handed: bool, **flags: Any) -> Defender:
    """The situation file's defender for this combatant, with the fight's flags."""
    return Defender(
        name=model.name,
        defence=model.defence,
        agility=model.agility,
        perception=model.perception,
        shield=model.shield,
        magic_defence=model.magic_defence,
        physical_strength=model.physical_strength,
        manual_dexterity=model.manual_dexterity,
        two_handed=two_handed,
        armour=model.armour,
        dr=model.dr,
        modifiers=model.defence_modifiers,
        **flags,
    )
