"""Q04-Q06 and the Q05/Q08 formulas: strike chance, defence and die modifiers, each named.

Every flag of a situation maps to one line of the 57.1 / 57.2 tables (values from the house
rules). Flags that mean nothing in the chosen mode are refused, so a typo cannot pass silently.
Visibility: only the worst condition counts; everything else adds up.
"""

from __future__ import annotations

from dataclasses import dataclass

from firefight.core.transcript import Modifier
from firefight.errors import InputError
from firefight.rulesets.quality_d100.house import QualityHouse
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


def _house_value(house: QualityHouse, key: str) -> int:
    value = getattr(house, key)
    assert isinstance(value, int)
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


def strike_modifiers(
    sit: AttackSituation, weapon: Weapon | None, house: QualityHouse
) -> list[Modifier]:
    """The 57.1 modifiers that apply, in table order (Q04)."""
    a, d, mode = sit.attacker, sit.defender, sit.mode
    h = house
    out: list[Modifier] = []
    if mode == "close":
        if a.physical_strength:
            value = a.physical_strength * h.close_per_attacker_ps
            out.append(_m("attacker's PS", value, SC, "attacker.physical_strength", "Q04 close"))
        if a.no_fatigue:
            out.append(
                _m(
                    "attacker has no Fatigue",
                    h.close_attacker_no_fatigue,
                    SC,
                    "attacker.no_fatigue",
                    "Q04 close",
                )
            )
    if mode == "melee":
        if a.no_fatigue:
            out.append(
                _m(
                    "attacker has no Fatigue",
                    h.melee_attacker_no_fatigue,
                    SC,
                    "attacker.no_fatigue",
                    "Q04 melee",
                )
            )
        if a.offensive_withdrawal:
            out.append(
                _m(
                    "offensive withdrawal",
                    h.melee_offensive_withdrawal,
                    SC,
                    "attacker.offensive_withdrawal",
                    "Q04 melee",
                )
            )
        if a.charge == "pole_or_shield":
            out.append(
                _m(
                    "charging with pole weapon or shield",
                    h.melee_charge_pole_or_shield,
                    SC,
                    "attacker.charge",
                    "Q04 melee",
                )
            )
        elif a.charge == "other":
            out.append(
                _m(
                    "charging with non-pole weapon",
                    h.melee_charge_other,
                    SC,
                    "attacker.charge",
                    "Q04 melee",
                )
            )
        if d.hex != "front":
            key = f"melee_{d.hex}_hex"
            out.append(
                _m(
                    f"attacking a {d.hex} hex",
                    _house_value(h, key),
                    SC,
                    "defender.hex",
                    "Q04 melee",
                )
            )
        if d.kneeling_or_prone:
            out.append(
                _m(
                    "defender kneeling or prone",
                    h.melee_defender_kneeling_or_prone,
                    SC,
                    "defender.kneeling_or_prone",
                    "Q04 melee",
                )
            )
    if mode == "ranged":
        if d.hex != "front":
            key = f"ranged_{d.hex}_hex"
            out.append(
                _m(
                    f"attacking a {d.hex} hex",
                    _house_value(h, key),
                    SC,
                    "defender.hex",
                    "Q04 ranged",
                )
            )
        if a.kneeling:
            out.append(
                _m(
                    "attacker is kneeling",
                    h.ranged_attacker_kneeling,
                    SC,
                    "attacker.kneeling",
                    "Q04 ranged",
                )
            )
        if a.aim:
            out.append(_m("aim", h.ranged_aim, SC, "attacker.aim", "Q04 ranged, Q06"))
        if a.snapshot:
            out.append(_m("snapshot", h.ranged_snapshot, SC, "attacker.snapshot", "Q04 ranged"))
        out.extend(_range_modifiers(a, weapon, h))
    out.extend(_visibility(a, h))
    if a.secondary_hand:
        out.append(
            _m(
                "weapon in secondary hand",
                h.secondary_hand,
                SC,
                "attacker.secondary_hand",
                "Q04 misc",
            )
        )
    if a.multiple_strike:
        out.append(
            _m("multiple strike", h.multiple_strike, SC, "attacker.multiple_strike", "Q04 misc")
        )
    if a.multi_hex_b_class:
        out.append(
            _m(
                "multi-hex strike with B class two-handed weapon",
                h.multi_hex_b_class,
                SC,
                "attacker.multi_hex_b_class",
                "Q04 misc",
            )
        )
    if a.airborne:
        out.append(
            _m("attacker is airborne", h.attacker_airborne, SC, "attacker.airborne", "Q04 misc")
        )
    if sit.special == "disarm":
        out.append(_m("disarm attempt", h.disarm_strike_penalty, SC, "special", "Q08 disarm"))
    for extra in a.modifiers:
        out.append(_m(extra.name, extra.value, SC, "attacker.modifiers", "current rules"))
    return out


def _range_modifiers(a: Attacker, weapon: Weapon | None, h: QualityHouse) -> list[Modifier]:
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


def _visibility(a: Attacker, h: QualityHouse) -> list[Modifier]:
    if not a.visibility:
        return []
    options = [(_house_value(h, _VISIBILITY[v][0]), _VISIBILITY[v][1]) for v in a.visibility]
    value, label = min(options)
    worst = "only the worst visibility applies; " if len(options) > 1 else ""
    return [_m(f"visibility: {label}", value, SC, "attacker.visibility", f"Q04 ({worst}57.1)")]


def defence_modifiers(sit: AttackSituation, house: QualityHouse) -> list[Modifier]:
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
        if d.no_fatigue:
            out.append(
                _m(
                    "defender has no Fatigue",
                    h.close_defender_no_fatigue,
                    DEF,
                    "defender.no_fatigue",
                    "Q05 close",
                )
            )
        if d.stunned:
            out.append(
                _m(
                    "defender is stunned",
                    h.close_defender_stunned,
                    DEF,
                    "defender.stunned",
                    "Q05 close",
                )
            )
    if mode == "melee":
        if d.no_fatigue:
            out.append(
                _m(
                    "defender has no Fatigue",
                    h.melee_defender_no_fatigue,
                    DEF,
                    "defender.no_fatigue",
                    "Q05 melee",
                )
            )
        if d.stunned:
            out.append(
                _m(
                    "defender is stunned",
                    h.melee_defender_stunned,
                    DEF,
                    "defender.stunned",
                    "Q05 melee",
                )
            )
        if d.defensive_withdrawal:
            out.append(
                _m(
                    "defensive withdrawal",
                    h.melee_defensive_withdrawal,
                    DEF,
                    "defender.defensive_withdrawal",
                    "Q05 melee",
                )
            )
        if d.evading:
            out.append(
                _m("defender is evading", h.melee_evading, DEF, "defender.evading", "Q05 melee")
            )
            if d.rank:
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
        if d.stunned:
            out.append(
                _m(
                    "defender is stunned",
                    h.ranged_defender_stunned,
                    DEF,
                    "defender.stunned",
                    "Q05 ranged",
                )
            )
        if d.moving:
            out.append(
                _m(
                    "defender is moving",
                    h.ranged_defender_moving,
                    DEF,
                    "defender.moving",
                    "Q05 ranged",
                )
            )
        if d.kneeling_or_prone:
            out.append(
                _m(
                    "defender kneeling or prone",
                    h.ranged_defender_kneeling_or_prone,
                    DEF,
                    "defender.kneeling_or_prone",
                    "Q05 ranged",
                )
            )
        if d.evading:
            out.append(
                _m("defender is evading", h.ranged_evading, DEF, "defender.evading", "Q05 ranged")
            )
        if d.sheltered_hex:
            out.append(
                _m(
                    "sheltered hex",
                    h.ranged_sheltered_hex,
                    DEF,
                    "defender.sheltered_hex",
                    "Q05 ranged",
                )
            )
    if d.airborne:
        out.append(
            _m("defender is airborne", h.defender_airborne, DEF, "defender.airborne", "Q05 misc")
        )
    for extra in d.modifiers:
        out.append(_m(extra.name, extra.value, DEF, "defender.modifiers", "current rules"))
    return out


def die_modifiers(sit: AttackSituation, house: QualityHouse) -> list[Modifier]:
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
