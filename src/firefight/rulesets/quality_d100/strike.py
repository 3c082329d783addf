"""Q03 (with Q07, Q08 specials, Q10): one strike, attack quality against defence quality.

Result quality = attack quality - defence quality; at or below 0 the strike is blocked. The
result table picks the damage: rolled or maximum weapon damage, less FT or EN armour (none at 5
and 6), less DR always, never below 0. At 4+ a "possible specific grievous injury" is raised;
its chance and effect are configurable because the text leaves that table out (Q10).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from firefight.core.house import house_events
from firefight.core.transcript import Check, Note, StateChange
from firefight.dice import DiceSource
from firefight.rulesets.quality_d100.house import QualityD100House
from firefight.rulesets.quality_d100.plan import Armour, Plan
from firefight.rulesets.quality_d100.quality import BEST, NAMES, name, roll_quality

#: Table 2 descriptions by result level.
DESCRIPTIONS: tuple[str, ...] = (
    "blocked",
    "Fatigue",
    "maximum Fatigue",
    "Endurance",
    "Endurance & possible specific grievous",
    "maximum Endurance & possible specific grievous",
    "maximum Endurance + 10 & possible specific grievous",
)
GRIEVOUS_FROM = 4
#: Evading parry (Q07): "" (none) or one of :data:`PARRY_RESULTS`.
Parry = Literal["", "parry", "disarm", "disarm + riposte"]
PARRY_RESULTS: tuple[Parry, ...] = ("parry", "disarm", "disarm + riposte")
#: Special attack effect (Q08), "" for none.
Special = Literal["", "knocked out", "disarmed", "knocked down", "entangled", "avoided"]


@dataclass(frozen=True)
class StrikeOutcome:
    """What one strike did; the unit exact odds count."""

    attack_quality: int
    defence_quality: int
    result_quality: int
    ft_damage: int = 0
    en_damage: int = 0
    possible_grievous: bool = False
    grievous: bool = False
    #: Special attack effect (Q08): "knocked out", "disarmed", "knocked down", "entangled",
    #: "avoided", or "" for none.
    special: Special = ""
    #: Evading parry (Q07): "" (none), "parry", "disarm", "disarm + riposte".
    parry: Parry = ""

    @property
    def hit(self) -> bool:
        return self.result_quality >= 1

    @property
    def damage(self) -> int:
        return self.ft_damage + self.en_damage

    @property
    def result_name(self) -> str:
        return NAMES[self.result_quality]


def parry_result(total: int, house: QualityD100House) -> Parry:
    """Q07: D10 + evader's rank - attacker's rank read on the parry table."""
    if total <= house.parry_max_parry:
        return PARRY_RESULTS[0]
    if total <= house.parry_max_disarm:
        return PARRY_RESULTS[1]
    return PARRY_RESULTS[2]


def roll_parry(
    dice: DiceSource, evader_rank: int, attacker_rank: int, house: QualityD100House
) -> Parry:
    r = dice.roll("d10", why="evader's parry D10 (Q07)")
    total = r.total + evader_rank - attacker_rank
    result = parry_result(total, house)
    dice.record(
        Note(
            f"parry: D10 {r.total} + rank {evader_rank} - rank {attacker_rank} = {total}: {result}",
            "Q07",
        )
    )
    return result


def avoid_check(dice: DiceSource, target: int, what: str, rule: str) -> bool:
    """The defender rolls D100 at or under ``target`` to avoid an effect (Q08)."""

    def check(d: DiceSource) -> bool:
        r = d.roll("d100", why=f"defender avoids {what} (D100 vs {target}, {rule})")
        passed = r.total <= target
        d.record(Check(f"avoid {what}", r.total, target, passed, rule))
        return passed

    return dice.derive(f"avoid {what}", check, key=("avoid", target))


def percent_check(dice: DiceSource, chance: int, why: str, rule: str) -> bool:
    r = dice.roll("d100", why=f"{why} (D100 vs {chance}, {rule})")
    passed = r.total <= chance
    dice.record(Check(why, r.total, chance, passed, rule))
    return passed


def _damage_taken(dice: DiceSource, plan: Plan, level: int) -> tuple[int, int]:
    """(FT, EN) damage of a hit of ``level`` from the result table (Q03)."""
    if plan.damage is None:
        dice.record(Note("this special attack does no damage", "Q08"))
        return 0, 0
    armour, house = plan.armour, plan.house
    maximum = level in (2, 5, 6)
    if maximum:
        base = plan.max_damage + (house.fantastic_extra_damage if level == BEST else 0)
        extra = f" + {house.fantastic_extra_damage}" if level == BEST else ""
        dice.record(Note(f"maximum damage of {plan.damage}: {plan.max_damage}{extra}", "Q03"))
    else:
        base = dice.roll(plan.damage, why="weapon damage (Q03)").total
    if level <= 2:
        soak, which = armour.ft, "FT"
    elif level <= 4:
        soak, which = armour.en, "EN"
    else:
        soak, which = 0, "no"
    taken = max(0, base - soak - armour.dr)
    dice.record(
        Note(
            f"{base} - {which} armour {soak} - DR {armour.dr} = {taken} "
            f"{'FT' if level <= 2 else 'EN'} damage ({armour.name})",
            "Q03",
        )
    )
    return (taken, 0) if level <= 2 else (0, taken)


def _special(dice: DiceSource, plan: Plan, level: int) -> Special:
    """Q08 special attacks, decided after a hit."""
    sit, house = plan.situation, plan.house
    d = sit.defender
    avoid_ag = house.avoid_agility_multiple * d.agility
    if sit.special == "knockout":
        out = level >= house.knockout_min_result
        dice.record(Check("knockout", level, house.knockout_min_result, out, "Q08 knockout"))
        return "knocked out" if out else ""
    if sit.special == "disarm":
        md = 2 * d.manual_dexterity if d.two_handed else d.manual_dexterity
        return "avoided" if avoid_check(dice, md + d.rank, "disarm", "Q08 disarm") else "disarmed"
    if sit.special in ("shield_rush", "trip"):
        rule = f"Q08 {sit.special.replace('_', ' ')}"
        return "avoided" if avoid_check(dice, avoid_ag, "knockdown", rule) else "knocked down"
    if sit.special == "entangle":
        avoided = avoid_check(dice, avoid_ag, "entangle", "Q08 entangle")
        return "avoided" if avoided else "entangled"
    if sit.special == "trample":
        dice.record(Note("trample: automatic knockdown", "Q08 trample"))
        return "knocked down"
    return ""


def _grievous(dice: DiceSource, plan: Plan) -> tuple[bool, int]:
    g = plan.situation.grievous
    dice.record(Note(f"possible {g.effect}", "Q10"))
    if g.chance is None:
        return False, 0
    happens = dice.derive(
        "grievous injury",
        lambda d: percent_check(d, g.chance or 0, "grievous injury happens", "Q10"),
        key=("grievous", g.chance),
    )
    if not happens:
        return False, 0
    extra = dice.roll(g.extra_damage, why="grievous extra damage, no armour (Q10)").total
    dice.record(Note(f"{g.effect}: +{extra} EN, no FT/EN armour or DR", "Q10"))
    return True, max(0, extra)


def strike(plan: Plan, dice: DiceSource) -> StrikeOutcome:
    """Resolve one strike on any dice (the rule code odds enumerate)."""
    sit, house = plan.situation, plan.house
    chance, defence, die_mod = plan.strike_chance, plan.defence, plan.die_modifier
    aq = dice.derive(
        "attack quality",
        lambda d: roll_quality(d, chance, die_mod, house, sit.attacker.name, "strike chance"),
        key=("attack quality", chance, die_mod, house),
    )
    dq = dice.derive(
        "defence quality",
        lambda d: roll_quality(d, defence, 0, house, sit.defender.name, "defence"),
        key=("defence quality", defence, house),
    )
    raw = aq - dq
    level = max(0, raw)
    dice.record(
        Note(f"result quality {aq} - {dq} = {raw}: {name(level)}, {DESCRIPTIONS[level]}", "Q03")
    )
    parry: Parry = ""
    d = sit.defender
    if sit.mode == "melee" and d.evading and d.parry and dq - aq >= house.parry_margin:
        dice.record(Note(f"evader's defence quality {dq} is {dq - aq} over the attack", "Q07"))
        parry = dice.derive(
            "parry",
            lambda dd: roll_parry(dd, d.rank, sit.attacker.rank, house),
            key=("parry", d.rank - sit.attacker.rank, house),
        )
    if level == 0:
        return StrikeOutcome(aq, dq, 0, parry=parry)
    special = _special(dice, plan, level)
    ft, en = _damage_taken(dice, plan, level)
    possible = level >= GRIEVOUS_FROM
    grievous = False
    if possible:
        grievous, extra = _grievous(dice, plan)
        en += extra
    return StrikeOutcome(aq, dq, level, ft, en, possible, grievous, special, parry)


def armour_text(armour: Armour) -> str:
    return f"{armour.name}: FT {armour.ft}, EN {armour.en}, DR {armour.dr}"


def record_plan(plan: Plan, dice: DiceSource) -> None:
    """The plan's modifiers, chances, weapon, damage and armour, as transcript lines."""
    for m in plan.strike_mods:
        dice.record(m)
    dice.record(Note(f"strike chance = {plan.strike_chance}", "Q04/Q08"))
    for m in plan.die_mods:
        dice.record(m)
    for m in plan.defence_mods:
        dice.record(m)
    dice.record(Note(f"defence = {plan.defence}", "Q05"))
    w = plan.weapon
    if w is not None:
        label = " (EXAMPLE catalog entry, not from the text)" if w.example else ""
        dice.record(Note(f"weapon {w.name}{label}: BC {w.base_chance}, damage {w.damage}", "Q09"))
    if plan.damage is not None:
        dice.record(Note(f"damage {plan.damage}, maximum {plan.max_damage}", "Q03"))
    label = " (EXAMPLE catalog entry, not from the text)" if plan.armour.example else ""
    dice.record(Note(f"armour {armour_text(plan.armour)}{label}", "Q03, Q09"))


def state_changes(plan: Plan, out: StrikeOutcome, dice: DiceSource) -> None:
    """What a strike did to the defender's FT and EN, and a parry's EN cost (Q03, Q07)."""
    d, house = plan.situation.defender, plan.house
    if d.fatigue is not None and out.ft_damage:
        dice.record(StateChange(d.name, "FT", d.fatigue, d.fatigue - out.ft_damage, "Q03"))
    if d.endurance is not None and out.en_damage:
        dice.record(StateChange(d.name, "EN", d.endurance, d.endurance - out.en_damage, "Q03"))
    if out.parry in PARRY_RESULTS[1:]:
        who = plan.situation.attacker.name if house.parry_en_damage_to == "attacker" else d.name
        dice.record(Note(f"parry {out.parry}: {who} takes {house.parry_en_damage} EN", "Q07"))


def strike_summary(plan: Plan, out: StrikeOutcome) -> dict[str, Any]:
    """Key figures of one strike for the CLI table and JSON."""
    return {
        "strike_chance": plan.strike_chance,
        "die_modifier": plan.die_modifier,
        "defence": plan.defence,
        "attack_quality": name(out.attack_quality),
        "defence_quality": name(out.defence_quality),
        "result_quality": name(out.result_quality),
        "result": DESCRIPTIONS[out.result_quality],
        "hit": out.hit,
        "ft_damage": out.ft_damage,
        "en_damage": out.en_damage,
        "damage": out.damage,
        "possible_grievous": out.possible_grievous,
        "grievous": out.grievous,
        "special": out.special or "none",
        "parry": out.parry or "none",
    }


def resolve_strike(plan: Plan, dice: DiceSource) -> StrikeOutcome:
    """A strike as a file gives it: house rules, the plan's modifiers, the strike, its effects."""
    for event in house_events(plan.house):
        dice.record(event)
    record_plan(plan, dice)
    out = strike(plan, dice)
    state_changes(plan, out, dice)
    return out
