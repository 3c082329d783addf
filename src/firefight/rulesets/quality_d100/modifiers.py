"""Q04-Q06 and the Q05/Q08 formulas: strike chance, defence and die modifiers, each named.

Every flag of a situation maps to one line of the 57.1 / 57.2 tables (values from the house
rules). Flags that mean nothing in the chosen mode are refused, so a typo cannot pass silently.
Visibility: only the worst condition counts; everything else adds up.
"""

from __future__ import annotations

from dataclasses import dataclass

from firefight.core.transcript import Modifier
from firefight.errors import InputError
from firefight.rulesets.quality_d100.house import QualityD100House
from firefight.rulesets.quality_d100.models import Attacker, AttackSituation

SC = "strike chance"
DEF = "defence"
DIE = "die roll"

#: (side, field, modes where it means something) for the boolean flags.
_FLAG_MODES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("attacker", "no_fatigue", ("close", "melee")),
    ("attacker", "offensive_withdrawal", ("melee",)),
    ("attacker", "kneeling", ("ranged",)),
    ("attacker", "aim", ("ranged",)),
    ("attacker", "snapshot", ("ranged",)),
    ("defender", "no_fatigue", ("close", "melee")),
    ("defender", "defensive_withdrawal", ("melee",)),
    ("defender", "evading", ("melee", "ranged")),
    ("defender", "moving", ("ranged",)),
    ("defender", "kneeling_or_prone", ("melee", "ranged")),
    ("defender", "sheltered_hex", ("ranged",)),
)

_VISIBILITY: dict[str, tuple[str, str]] = {
    "starry_night": ("visibility_starry_night", "starry night"),
    "shadowy_interior": ("visibility_starry_night", "shadowy interior"),
    "cloudy_night": ("visibility_cloudy_night", "cloudy night"),
    "cave": ("visibility_cave", "cave"),
    "unlit_interior": ("visibility_cave", "unlit interior"),
    "pitch_black": ("visibility_pitch_black", "pitch blackness"),
    "cannot_see": ("visibility_cannot_see", "attacker cannot see defender"),
}


def check_flags(sit: AttackSituation, source: str) -> None:
    """Refuse a flag that has no modifier in this mode (one clear line)."""
    for side, field, modes in _FLAG_MODES:
        who = sit.attacker if side == "attacker" else sit.defender
        if getattr(who, field) and sit.mode not in modes:
            raise InputError(
                f"{source}: field {side}.{field} has no modifier in {sit.mode} combat",
                tip=f"it applies to mode = {' or '.join(repr(m) for m in modes)}; remove it",
            )
    a = sit.attacker
    if a.charge != "none" and sit.mode != "melee":
        raise InputError(f"{source}: field attacker.charge applies to melee only")
    if a.range_hexes and sit.mode != "ranged":
        raise InputError(f"{source}: field attacker.range_hexes applies to ranged attacks only")


def _m(name: str, value: int, target: str, source: str, rule: str) -> Modifier:
    return Modifier(name, value, target, source, rule)


def _house_value(house: QualityD100House, key: str) -> int:
    value = getattr(house, key)
    if not isinstance(value, int):
        raise InputError(f"house rule {key} is {value!r}, not a whole number")
    return value


@dataclass(frozen=True)
class Weapon:
    name: str
    base_chance: int
    damage: str | None
    weapon_class: str
    pole: bool
    two_handed: bool
    example: bool = False


@dataclass(frozen=True)
class FlagLine:
    """One line of the 57.1 / 57.2 tables that a yes/no field of the situation switches on."""

    side: str
    field: str
    label: str
    #: the house-rules number holding the line's value (the text's value by default)
    house_key: str
    target: str
    rule: str


def _lines(target: str, rule: str, *rows: tuple[str, str, str, str]) -> tuple[FlagLine, ...]:
    return tuple(
        FlagLine(side, field, label, key, target, rule) for side, field, label, key in rows
    )


# The tables in the text's order: (side, field, label, house number).
_STRIKE_CLOSE = _lines(
    SC,
    "Q04 close",
    ("attacker", "no_fatigue", "attacker has no Fatigue", "close_attacker_no_fatigue"),
)
_STRIKE_MELEE = _lines(
    SC,
    "Q04 melee",
    ("attacker", "no_fatigue", "attacker has no Fatigue", "melee_attacker_no_fatigue"),
    ("attacker", "offensive_withdrawal", "offensive withdrawal", "melee_offensive_withdrawal"),
)
_STRIKE_MELEE_TARGET = _lines(
    SC,
    "Q04 melee",
    (
        "defender",
        "kneeling_or_prone",
        "defender kneeling or prone",
        "melee_defender_kneeling_or_prone",
    ),
)
_STRIKE_RANGED = (
    *_lines(
        SC,
        "Q04 ranged",
        ("attacker", "kneeling", "attacker is kneeling", "ranged_attacker_kneeling"),
    ),
    *_lines(SC, "Q04 ranged, Q06", ("attacker", "aim", "aim", "ranged_aim")),
    *_lines(SC, "Q04 ranged", ("attacker", "snapshot", "snapshot", "ranged_snapshot")),
)
_STRIKE_MISC = _lines(
    SC,
    "Q04 misc",
    ("attacker", "secondary_hand", "weapon in secondary hand", "secondary_hand"),
    ("attacker", "multiple_strike", "multiple strike", "multiple_strike"),
    (
        "attacker",
        "multi_hex_b_class",
        "multi-hex strike with B class two-handed weapon",
        "multi_hex_b_class",
    ),
    ("attacker", "airborne", "attacker is airborne", "attacker_airborne"),
)
_DEFENCE_CLOSE = _lines(
    DEF,
    "Q05 close",
    ("defender", "no_fatigue", "defender has no Fatigue", "close_defender_no_fatigue"),
    ("defender", "stunned", "defender is stunned", "close_defender_stunned"),
)
_DEFENCE_MELEE = _lines(
    DEF,
    "Q05 melee",
    ("defender", "no_fatigue", "defender has no Fatigue", "melee_defender_no_fatigue"),
    ("defender", "stunned", "defender is stunned", "melee_defender_stunned"),
    ("defender", "defensive_withdrawal", "defensive withdrawal", "melee_defensive_withdrawal"),
    ("defender", "evading", "defender is evading", "melee_evading"),
)
_DEFENCE_RANGED = _lines(
    DEF,
    "Q05 ranged",
    ("defender", "stunned", "defender is stunned", "ranged_defender_stunned"),
    ("defender", "moving", "defender is moving", "ranged_defender_moving"),
    (
        "defender",
        "kneeling_or_prone",
        "defender kneeling or prone",
        "ranged_defender_kneeling_or_prone",
    ),
    ("defender", "evading", "defender is evading", "ranged_evading"),
    ("defender", "sheltered_hex", "sheltered hex", "ranged_sheltered_hex"),
)
_DEFENCE_MISC = _lines(
    DEF, "Q05 misc", ("defender", "airborne", "defender is airborne", "defender_airborne")
)


def _flags(
    sit: AttackSituation, house: QualityD100House, lines: tuple[FlagLine, ...]
) -> list[Modifier]:
    """The lines whose field is set, in table order."""
    out = []
    for line in lines:
        who = sit.attacker if line.side == "attacker" else sit.defender
        if getattr(who, line.field):
            value = _house_value(house, line.house_key)
            out.append(_m(line.label, value, line.target, f"{line.side}.{line.field}", line.rule))
    return out


def _hex(sit: AttackSituation, house: QualityD100House, mode: str) -> list[Modifier]:
    """Attacking a flank or rear hex (57.1, melee and ranged)."""
    d = sit.defender
    if d.hex == "front":
        return []
    value = _house_value(house, f"{mode}_{d.hex}_hex")
    return [_m(f"attacking a {d.hex} hex", value, SC, "defender.hex", f"Q04 {mode}")]


_CHARGES = {
    "pole_or_shield": ("charging with pole weapon or shield", "melee_charge_pole_or_shield"),
    "other": ("charging with non-pole weapon", "melee_charge_other"),
}


def strike_modifiers(
    sit: AttackSituation, weapon: Weapon | None, house: QualityD100House
) -> list[Modifier]:
    """The 57.1 modifiers that apply, in table order (Q04)."""
    a, mode, h = sit.attacker, sit.mode, house
    out: list[Modifier] = []
    if mode == "close":
        if a.physical_strength:
            value = a.physical_strength * h.close_per_attacker_ps
            out.append(_m("attacker's PS", value, SC, "attacker.physical_strength", "Q04 close"))
        out += _flags(sit, h, _STRIKE_CLOSE)
    if mode == "melee":
        out += _flags(sit, h, _STRIKE_MELEE)
        if a.charge in _CHARGES:
            label, key = _CHARGES[a.charge]
            out.append(_m(label, _house_value(h, key), SC, "attacker.charge", "Q04 melee"))
        out += _hex(sit, h, "melee")
        out += _flags(sit, h, _STRIKE_MELEE_TARGET)
    if mode == "ranged":
        out += _hex(sit, h, "ranged")
        out += _flags(sit, h, _STRIKE_RANGED)
        out += _range_modifiers(a, weapon, h)
    out += _visibility(a, h)
    out += _flags(sit, h, _STRIKE_MISC)
    if sit.special == "disarm":
        out.append(_m("disarm attempt", h.disarm_strike_penalty, SC, "special", "Q08 disarm"))
    for extra in a.modifiers:
        out.append(_m(extra.name, extra.value, SC, "attacker.modifiers", "current rules"))
    return out


def _range_modifiers(a: Attacker, weapon: Weapon | None, h: QualityD100House) -> list[Modifier]:
    if not a.range_hexes:
        return []
    kind = weapon.weapon_class if weapon is not None else "missile"
    if kind == "thrown":
        value = a.range_hexes * h.ranged_thrown_per_hex
        return [
            _m(f"thrown {a.range_hexes} hexes", value, SC, "attacker.range_hexes", "Q04 ranged")
        ]
    beyond = max(0, a.range_hexes - h.missile_free_hexes)
    bands = -(-beyond // h.missile_band_hexes)
    if not bands:
        return []
    return [
        _m(
            f"missile {a.range_hexes} hexes ({bands} x {h.missile_band_hexes} hexes or part "
            f"after the first {h.missile_free_hexes})",
            bands * h.ranged_missile_per_band,
            SC,
            "attacker.range_hexes",
            "Q04 ranged",
        )
    ]


def _visibility(a: Attacker, h: QualityD100House) -> list[Modifier]:
    if not a.visibility:
        return []
    options = [(_house_value(h, _VISIBILITY[v][0]), _VISIBILITY[v][1]) for v in a.visibility]
    value, label = min(options)
    worst = "only the worst visibility applies; " if len(options) > 1 else ""
    return [_m(f"visibility: {label}", value, SC, "attacker.visibility", f"Q04 ({worst}57.1)")]


def defence_modifiers(sit: AttackSituation, house: QualityD100House) -> list[Modifier]:
    """The defence formula (Q05) as named parts, then the 57.2 modifiers that apply."""
    d, mode, h = sit.defender, sit.mode, house
    out: list[Modifier] = []
    if d.defence is not None:
        out.append(_m("defence as given", d.defence, DEF, "defender.defence", "Q05"))
    else:
        form = "stunned" if d.stunned else ("front" if d.hex == "front" else "rear/flank")
        rule = f"Q05 {form} formula"
        if not d.stunned:
            out.append(_m("modified AG", d.agility, DEF, "defender.agility", rule))
        if form == "front":
            if h.front_defence_adds_pc:
                out.append(_m("PC (57.3 reading)", d.perception, DEF, "defender.perception", rule))
            out.append(_m("shield", d.shield, DEF, "defender.shield", rule))
        out.append(_m("magical defence", d.magic_defence, DEF, "defender.magic_defence", rule))
    if mode == "close":
        if d.physical_strength:
            value = d.physical_strength * h.close_per_defender_ps
            out.append(_m("defender's PS", value, DEF, "defender.physical_strength", "Q05 close"))
        out += _flags(sit, h, _DEFENCE_CLOSE)
    if mode == "melee":
        out += _flags(sit, h, _DEFENCE_MELEE)
        if d.evading and d.rank:
            out.append(
                _m(
                    f"evading with prepared weapon, rank {d.rank}",
                    d.rank * h.melee_evading_per_rank,
                    DEF,
                    "defender.rank",
                    "Q05 melee",
                )
            )
    if mode == "ranged":
        out += _flags(sit, h, _DEFENCE_RANGED)
    out += _flags(sit, h, _DEFENCE_MISC)
    for extra in d.modifiers:
        out.append(_m(extra.name, extra.value, DEF, "defender.modifiers", "current rules"))
    return out


def die_modifiers(sit: AttackSituation, house: QualityD100House) -> list[Modifier]:
    """Q06: aiming and assassin ranks move the attacker's D100 roll."""
    a, h = sit.attacker, house
    out: list[Modifier] = []
    if a.aim:
        out.append(_m("aim", h.aim_die_modifier, DIE, "attacker.aim", "Q06"))
    if a.assassin_rank:
        approach = a.assassin_approach or ("behind" if sit.defender.hex == "rear" else "front")
        if approach == "surprise":
            value = a.assassin_rank * h.assassin_surprise_per_rank
        elif approach == "behind":
            value = a.assassin_rank * h.assassin_behind_per_rank
        else:
            value = -(a.assassin_rank // h.assassin_front_ranks_per_point)
        if value:
            out.append(
                _m(
                    f"assassin rank {a.assassin_rank}, {approach}",
                    value,
                    DIE,
                    "attacker.assassin_rank",
                    "Q06",
                )
            )
    return out
