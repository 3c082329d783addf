"""Attacks (T03) with regions (T05), fire modes (T06-T07), Grapples and Melees (T09), unarmed
strikes (T10) and cover (T11).

:func:`prepare_attack` checks everything that needs no dice and refuses what the rules forbid
(:class:`RuleError`); :func:`roll_attack` is the one rule that runs seeded, scripted and exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from firefight.core.transcript import Check, Modifier, Note, StateChange, Transcript
from firefight.dice import DiceSource, Weighted, exact
from firefight.errors import RuleError
from firefight.rulesets.tactical_d20.damage import (
    CoverEffect,
    cover_effect,
    extra_die_size,
    weapon_dice,
)
from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.models import AttackFields, Creature, Weapon

ROUNDS_RULE = "T06"
#: The conditions a hit can leave (T05).
Condition = Literal["stunned", "arm_wound", "leg_wound"]


@dataclass(frozen=True)
class Effect:
    """A condition a hit leaves on its target, and how long it lasts (T05)."""

    condition: Condition
    until: str

    def label(self) -> str:
        return f"{self.condition} until {self.until}"


@dataclass(frozen=True)
class AttackOutcome:
    """What one attack did; small and hashable so exact odds can enumerate it."""

    hit: bool
    critical: bool = False
    #: Who the hit landed on ("" on a miss).
    member: str = ""
    #: Cover took the whole hit (T11).
    stopped: bool = False
    #: Hit points lost, after damage thresholds.
    damage: int = 0
    #: The damage dice rolled, before thresholds.
    rolled: int = 0
    effects: tuple[Effect, ...] = ()

    @property
    def label(self) -> str:
        if not self.hit:
            return "miss"
        if self.stopped:
            return "stopped by cover"
        return "critical hit" if self.critical else "hit"


@dataclass(frozen=True)
class PreparedAttack:
    """An attack the rules allow, with every modifier that needs no dice."""

    attacker: Creature
    targets: tuple[Creature, ...]
    weapon: Weapon
    fields: AttackFields
    modifiers: tuple[Modifier, ...]
    dodge: int
    rounds: int
    loaded: int
    cover: CoverEffect
    extra_dice: tuple[str, ...]
    house: TacticalD20House

    @property
    def is_group(self) -> bool:
        return len(self.targets) > 1


def rounds_for(mode: str, house: TacticalD20House) -> int:
    return {
        "single": house.single_rounds,
        "burst": house.burst_rounds,
        "double_burst": house.double_burst_rounds,
    }[mode]


def check_can_act(creature: Creature, what: str) -> None:
    """Stunned (reading), restrained and restraining creatures take no Actions (T05, T10)."""
    for condition, rule in (("stunned", "T05"), ("restrained", "T10"), ("restraining", "T10")):
        if creature.has(condition):
            raise RuleError(
                f"{creature.name} is {condition} and cannot {what} ({rule})",
                tip=f"remove {condition!r} from its conditions",
            )


def _check_fire_mode(weapon: Weapon, f: AttackFields, house: TacticalD20House) -> None:
    if f.mode == "burst" and weapon.fire not in ("semi", "auto"):
        raise RuleError(
            f"{weapon.name} fires {weapon.fire} only: a burst needs a semi-automatic or "
            "automatic weapon (T07)",
            tip='use mode = "single"',
        )
    if f.mode == "double_burst" and weapon.fire != "auto":
        raise RuleError(
            f"{weapon.name} is {weapon.fire}: only automatic weapons fire a double burst (T07)",
            tip='use mode = "burst" or "single"',
        )
    if f.mode != "single" and f.distance > weapon.ranges[0]:
        raise RuleError(
            f"a {f.mode.replace('_', ' ')} reaches only the first range threshold: "
            f"{f.distance} ft is beyond {weapon.name}'s {weapon.ranges[0]} ft (T07)",
            tip='close in or use mode = "single"',
        )


def _check_ranged(weapon: Weapon, f: AttackFields, house: TacticalD20House) -> tuple[int, int]:
    """(rounds used, rounds loaded) after checking range, fire mode and ammunition."""
    if f.distance > weapon.ranges[-1]:
        raise RuleError(
            f"{f.distance} ft is beyond {weapon.name}'s longest range {weapon.ranges[-1]} ft (T06)"
        )
    _check_fire_mode(weapon, f, house)
    if f.ammo not in weapon.ammo:
        raise RuleError(
            f"{weapon.name} does not take {f.ammo} ammunition",
            tip=f"it takes: {', '.join(weapon.ammo)}",
        )
    if f.ammo in ("buckshot", "birdshot") and f.region != "torso":
        raise RuleError(f"{f.ammo} can only target the torso (T05)", tip='use region = "torso"')
    rounds = rounds_for(f.mode, house)
    loaded = weapon.magazine if f.loaded is None else f.loaded
    if loaded < rounds:
        raise RuleError(
            f"a {f.mode.replace('_', ' ')} uses {rounds} round(s) but {weapon.name} has "
            f"{loaded} loaded (T06, T07)",
            tip="reload, or pick a mode that uses fewer rounds",
        )
    return rounds, loaded


def _check_melee(weapon: Weapon, f: AttackFields, house: TacticalD20House) -> None:
    if f.distance > house.melee_reach:
        raise RuleError(
            f"a melee attack needs the target within {house.melee_reach} ft, not {f.distance} (T09)"
        )
    if f.mode != "single" or f.ammo != "standard":
        raise RuleError(f"{weapon.name} is a melee weapon: no fire modes or ammunition (T09)")


def prepare_attack(
    attacker: Creature,
    targets: tuple[Creature, ...],
    weapon: Weapon,
    f: AttackFields,
    house: TacticalD20House,
) -> PreparedAttack:
    """Check the attack against the rules and gather its modifiers (no dice)."""
    check_can_act(attacker, "attack")
    if attacker.has("disarmed") and weapon.kind != "unarmed":
        raise RuleError(
            f"{attacker.name} is disarmed: no {weapon.name} in hand (T06, T10)",
            tip='use weapon = "unarmed" or remove "disarmed" from its conditions',
        )
    group = len(targets) > 1
    if f.grappling:
        names = {t.name for t in targets}
        if group or not names <= set(f.grappling):
            raise RuleError(
                f"{attacker.name} is in a Grapple/Melee and may only attack "
                f"{', '.join(f.grappling)} (T09)",
                tip="target one creature of the Grapple, or exit it first (1 Action)",
            )
    if weapon.is_ranged:
        rounds, loaded = _check_ranged(weapon, f, house)
    else:
        _check_melee(weapon, f, house)
        rounds, loaded = 0, 0
        if group:
            raise RuleError(
                "a melee attack targets one creature; ranged attacks target a Grapple as a whole",
                tip="give target = one member",
            )
    if weapon.is_ranged and not group and targets[0].has("grappled") and not f.grappling:
        raise RuleError(
            f"{targets[0].name} is in a Grapple: ranged attacks treat the Grapple as one "
            "target (T09)",
            tip="list every creature of the Grapple in targets = [...]",
        )
    if f.free and weapon.is_ranged:
        raise RuleError("only a melee attack after moving into reach is a Free Action (T09)")
    if f.cover == "concealment":
        if not f.knows_position:
            raise RuleError(
                "a target behind concealment can be attacked only if its position is known (T11)"
            )
        if f.region != "torso":
            raise RuleError(
                "no targeted attacks against a concealed creature (T11)", tip='use region = "torso"'
            )

    mods: list[Modifier] = []
    skill = weapon.proficiency
    mods.append(
        Modifier(f"{skill} modifier", attacker.skill(skill), "attack roll", attacker.name, "T03")
    )
    if f.mode == "burst":
        mods.append(Modifier("burst bonus", house.burst_bonus, "attack roll", weapon.name, "T07"))
    elif f.mode == "double_burst":
        mods.append(
            Modifier(
                "double burst bonus", house.double_burst_bonus, "attack roll", weapon.name, "T07"
            )
        )
    if f.ammo == "buckshot":
        mods.append(
            Modifier("buckshot bonus", house.buckshot_bonus, "attack roll", "buckshot", "T12")
        )
    if weapon.is_ranged:
        bands = sum(1 for r in weapon.ranges if f.distance > r)
        if bands:
            mods.append(
                Modifier(
                    f"extended range penalty ({f.distance} ft, band {bands + 1})",
                    bands * house.range_band_penalty,
                    "attack roll",
                    weapon.name,
                    "T06",
                )
            )
    region_penalty = {
        "head": house.head_penalty,
        "arms": house.arms_penalty,
        "legs": house.legs_penalty,
    }.get(f.region, 0)
    if region_penalty:
        mods.append(
            Modifier(f"{f.region} target penalty", region_penalty, "attack roll", f.region, "T05")
        )
    near = f.distance <= house.melee_reach
    if (
        weapon.kind == "firearm"
        and near
        and not set(weapon.properties) & {"compact", "concealable"}
    ):
        mods.append(
            Modifier(
                "firearm without Compact/Concealable within 5 ft",
                house.point_blank_penalty,
                "attack roll",
                weapon.name,
                "T09",
            )
        )
    if not group and targets[0].has("restrained"):
        mods.append(
            Modifier(
                "target restrained",
                house.restrained_attack_bonus,
                "attack roll",
                targets[0].name,
                "T10",
            )
        )
    if attacker.has("arm_wound"):
        mods.append(
            Modifier(
                "arm wound", house.wounded_arm_attack_penalty, "attack roll", attacker.name, "T05"
            )
        )
    for extra in f.modifiers:
        mods.append(Modifier(extra.name, extra.value, "attack roll", "situation", "GM"))

    extra_dice = []
    if f.mode in ("burst", "double_burst"):
        extra_dice.append(f"{f.mode.replace('_', ' ')} die")
    if f.ammo == "buckshot":
        extra_dice.append("buckshot die")
    dodge = house.group_dodge if group else targets[0].dodge
    return PreparedAttack(
        attacker=attacker,
        targets=targets,
        weapon=weapon,
        fields=f,
        modifiers=tuple(mods),
        dodge=dodge,
        rounds=rounds,
        loaded=loaded,
        cover=cover_effect(weapon, f.ammo, f.cover, house),
        extra_dice=tuple(extra_dice),
        house=house,
    )


def _effects(region: str, critical: bool, house: TacticalD20House) -> tuple[Effect, ...]:
    lasting = f"a DC {house.body_check_dc} Body check (1 Action)"
    if region == "head":
        return (Effect("stunned", "the end of its next turn"),) if critical else ()
    if region == "arms":
        return (Effect("arm_wound", lasting if critical else "the end of its next turn"),)
    if region == "legs":
        return (Effect("leg_wound", lasting if critical else "the end of its next turn"),)
    return ()


def attack_roll(
    dice: DiceSource, modifier: int, dodge: int, house: TacticalD20House
) -> tuple[bool, bool]:
    """T03: d20 + modifiers against Dodge, a natural critical; (hit, critical). One derived
    request: exact mode branches over the two verdicts, not the twenty faces."""

    def run(d: DiceSource) -> tuple[bool, bool]:
        natural = d.roll("1d20", why="attack d20 (T03)").total
        total = natural + modifier
        critical = natural >= house.critical_natural
        hit = total >= dodge or (critical and house.natural_critical_always_hits)
        detail = f"natural {natural}" + (", critical hit" if critical and hit else "")
        d.record(Check("attack roll", total, dodge, hit, "T03", detail))
        return hit, critical

    key = (
        "tactical_d20 attack roll",
        modifier,
        dodge,
        house.critical_natural,
        house.natural_critical_always_hits,
    )
    return dice.derive("attack roll (T03)", run, key, keep=True)


def damage_roll(
    dice: DiceSource, count: int, size: int, why: str, extras: tuple[tuple[str, int], ...]
) -> int:
    """T03, T07, T12: the weapon dice and any extra dice (label, size), summed. One derived
    request, its table the exact sum: exact mode branches over the totals, not each die."""

    def run(d: DiceSource) -> int:
        raw = d.roll(f"{count}d{size}", why=f"{why} (T03, T05)").total
        for label, extra in extras:
            raw += d.roll(f"1d{extra}", why=f"{label} (T07, T12)").total
        return raw

    def table() -> Weighted[int]:
        total = exact("+".join([f"{count}d{size}", *(f"1d{e}" for _, e in extras)]))
        return Weighted(dict(total.items()), total.total)

    key = ("tactical_d20 damage roll", count, size, tuple(e for _, e in extras))
    return dice.derive("damage roll", run, key, exact=table, keep=True)


def roll_attack(
    p: PreparedAttack, dice: DiceSource, hp: dict[str, int] | None = None
) -> AttackOutcome:
    """Roll the attack: d20 + modifiers vs Dodge, then member, cover, damage and effects.

    ``hp`` holds current hit points by name when earlier steps hurt the target (transcript only).
    """
    house, f, weapon = p.house, p.fields, p.weapon
    for m in p.modifiers:
        dice.record(m)
    if p.is_group:
        dice.record(
            Note(f"a Grapple/Melee is one target with Dodge {p.dodge}", "T09"),
        )
    if p.rounds:
        dice.record(StateChange(weapon.name, "rounds loaded", p.loaded, p.loaded - p.rounds, "T06"))
    if not weapon.is_ranged and not f.grappling:
        for who in (p.attacker.name, p.targets[0].name):
            dice.record(StateChange(who, "condition", "-", "grappled", "T09"))
    hit, critical = attack_roll(dice, sum(m.value for m in p.modifiers), p.dodge, house)
    if not hit:
        return AttackOutcome(hit=False)
    target = p.targets[0]
    if p.is_group:
        n = len(p.targets)
        target = p.targets[
            dice.roll(f"1d{n}", why=f"which of {n} creatures is hit (T09)").total - 1
        ]
        dice.record(Note(f"the hit lands on {target.name}", "T09"))
    if p.cover.stops:
        dice.record(Note(f"{f.cover} cover: {p.cover.reason}; no damage", "T11"))
        return AttackOutcome(hit=True, critical=critical, member=target.name, stopped=True)
    if p.cover.reason:
        dice.record(Note(f"{f.cover}: {p.cover.reason}", "T11"))

    doubled = (f.region == "head" and house.head_doubles_damage_dice) or (
        f.region == "torso" and critical
    )
    count, size = weapon_dice(weapon, doubled)
    why = "weapon damage dice" + (" (doubled)" if doubled else "")
    extras = tuple(
        (label, extra_die_size(weapon, doubled, critical, house, region=f.region))
        for label in p.extra_dice
    )
    raw = damage_roll(dice, count, size, why, extras)
    threshold = target.threshold(weapon.damage_type)
    if threshold:
        dice.record(
            Modifier(
                f"damage threshold ({weapon.damage_type})", -threshold, "damage", target.name, "T03"
            )
        )
    if p.cover.extra_threshold:
        dice.record(
            Modifier("light cover threshold", -p.cover.extra_threshold, "damage", f.cover, "T11")
        )
    damage = max(0, raw - threshold - p.cover.extra_threshold)
    dice.record(Note(f"damage {raw} rolled, {damage} hit points lost", "T03"))
    before = target.hp if hp is None else hp.get(target.name, target.hp)
    dice.record(StateChange(target.name, "hp", before, before - damage, "T03"))
    effects = (
        () if (house.effects_need_damage and damage == 0) else _effects(f.region, critical, house)
    )
    for e in effects:
        dice.record(StateChange(target.name, "condition", "-", e.label(), "T05"))
    return AttackOutcome(
        hit=True, critical=critical, member=target.name, damage=damage, rolled=raw, effects=effects
    )


def summary(o: AttackOutcome, t: Transcript, p: PreparedAttack) -> dict[str, Any]:
    """Key figures of one attack for the CLI table and JSON (the roll is read off the
    transcript)."""
    check = next(e for e in t.of_type(Check) if e.name == "attack roll")
    out: dict[str, Any] = {"attack roll": check.value, "dodge": check.target, "result": o.label}
    if o.hit:
        out["target"] = o.member
    if o.hit and not o.stopped:
        out["damage rolled"] = o.rolled
        out["hp lost"] = o.damage
        out["effects"] = ", ".join(e.label() for e in o.effects) or "none"
    if p.rounds:
        out["rounds left"] = p.loaded - p.rounds
    return out
