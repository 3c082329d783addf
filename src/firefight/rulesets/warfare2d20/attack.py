"""One attack, W01-W09: opposed 2d20, delta and delta t with their modifiers, cover (delta c),
shock (delta s) and the mettle check, damage through soak, stamina, hit points, endurance.

Scripted dice are read in this order, target by target: attacker 2d20 (once, before the first
target, when the roll is shared), defender 2d20, damage dice, cover soak dice (if the cover was
struck), armour soak dice (if any damage die is still going), then checks (mettle on a shock,
endurance after a heavy hit).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Literal

from firefight.core.house import house_events
from firefight.core.identity import per_object
from firefight.core.transcript import Check, Modifier, Note, StateChange
from firefight.dice import DiceSource, Weighted, exact
from firefight.dice.sources import derived_distribution
from firefight.rulesets.warfare2d20.checks import house_modifier, pool, roll_under
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.models import Attack, Protection, Status, Target, Weapon
from firefight.rulesets.warfare2d20.wounds import Body, damage_through, take_damage

AIM_FIELDS = {"aiming": "aiming", "scope": "scope", "high-power scope": "high_power_scope"}
MOVEMENT_FIELDS = {"walking": "walking", "running": "running", "sprinting": "sprinting"}
VISIBILITY_FIELDS = {"vaguely visible": "vaguely_visible", "hardly visible": "hardly_visible"}
#: What the opposed roll decided for a target (W01, W05).
HitResult = Literal["hit", "shock", "miss"]

ACTION_FIELDS = {"moving to cover": "moving_to_cover", "taking cover": "taking_cover"}


@dataclass(frozen=True)
class HitTest:
    """What the opposed roll decided for one target (all the rest of the rule needs)."""

    result: HitResult
    cover_struck: bool = False


@dataclass(frozen=True)
class TargetOutcome:
    """Everything an attack did to one target: what odds count and the tracker applies."""

    name: str
    result: HitResult
    cover_struck: bool
    suppressed: bool
    damage: int  # through all soak, before stamina
    stamina_lost: int
    hp_lost: int
    status: Status


@dataclass(frozen=True)
class AttackOutcome:
    targets: tuple[TargetOutcome, ...]


@dataclass(frozen=True)
class Thresholds:
    """The sums of the modifiers: delta's modifier, delta t, delta s, delta c (None: no cover)."""

    delta_mod: int
    delta_t: int
    delta_s: int
    delta_c: int | None


def modifiers(a: Attack, t: Target) -> list[Modifier]:
    """Every modifier that applies to this shot at this target, named, with source and rule."""
    h = a.house
    out: list[Modifier] = []
    if a.aim_level != "none":
        label = a.aim if a.aim == a.aim_level else f"{a.aim} ({a.aim_level})"
        out.append(
            house_modifier(h, AIM_FIELDS[a.aim_level], f"aim: {label}", "delta", a.attacker, "W02")
        )
    if a.movement != "still":
        out.append(
            house_modifier(
                h, MOVEMENT_FIELDS[a.movement], f"shooter {a.movement}", "delta", a.attacker, "W02"
            )
        )
    w = a.weapon
    if a.range is not None and w.range_modifiers[a.range]:
        value = w.range_modifiers[a.range]
        out.append(Modifier(f"range: {a.range}", value, "delta", w.name, "W02"))
    mode = w.fire_modes[a.fire_mode]
    if mode.recoil:
        out.append(Modifier(f"recoil: {a.fire_mode}", mode.recoil, "delta", w.name, "W02"))
    if mode.delta_t:
        out.append(Modifier(f"rate of fire: {a.fire_mode}", mode.delta_t, "delta t", w.name, "W03"))
    if t.visibility in VISIBILITY_FIELDS:
        out.append(
            house_modifier(
                h, VISIBILITY_FIELDS[t.visibility], t.visibility, "delta t", t.name, "W03"
            )
        )
    if t.action in ACTION_FIELDS:
        out.append(
            house_modifier(
                h, ACTION_FIELDS[t.action], f"target {t.action}", "delta t", t.name, "W03"
            )
        )
    if mode.delta_s:
        out.append(Modifier(f"shock: {a.fire_mode}", mode.delta_s, "delta s", w.name, "W05"))
    if t.cover is not None:
        out.append(
            Modifier(f"cover: {t.cover.name}", t.cover.delta_c or 0, "delta c", t.cover.name, "W04")
        )
    for m in (*a.modifiers, *t.modifiers):
        out.append(Modifier(m.name, m.value, m.target, "situation", m.rule))
    out.extend(a.named)
    return out


def thresholds(base_delta_t: int, mods: list[Modifier], has_cover: bool) -> Thresholds:
    def total(target: str) -> int:
        return sum(m.value for m in mods if m.target == target)

    return Thresholds(
        total("delta"),
        base_delta_t + total("delta t"),
        total("delta s"),
        total("delta c") if has_cover else None,
    )


def classify(delta: int, th: Thresholds) -> HitTest:
    """W01/W04/W05: hit if the modified delta is within delta t (the cover takes it first when
    the modified delta is delta c or more); a miss within delta t + delta s is a shock."""
    modified = delta + th.delta_mod
    if modified <= th.delta_t:
        return HitTest("hit", th.delta_c is not None and modified >= th.delta_c)
    if modified <= th.delta_t + th.delta_s:
        return HitTest("shock")
    return HitTest("miss")


def hit_test(
    dice: DiceSource, a: Attack, t: Target, shared_total: int | None, th: Thresholds
) -> HitTest:
    """The opposed roll for one target, as a derive: exact mode branches over <= 3 results."""
    key, run, table = _hit_test_rule(a, t, shared_total, th)
    return dice.derive("hit test", run, key, exact=table, keep=True)


def hit_test_odds(a: Attack, t: Target, shared_total: int | None) -> Weighted[HitTest]:
    """The distribution :func:`hit_test` branches over (the same kept sub-rule): all that
    :func:`resolve_target` reads of the shared roll, so rolls alike in it resolve alike."""
    _, th, _ = _shot(a, t)
    key, run, table = _hit_test_rule(a, t, shared_total, th)
    return derived_distribution(run, key, exact=table)


def _hit_test_rule(
    a: Attack, t: Target, shared_total: int | None, th: Thresholds
) -> tuple[Hashable, Callable[[DiceSource], HitTest], Callable[[], Weighted[HitTest]]]:
    """The hit test's content key, its rule and its one-pass table."""
    opposed = a.house.opposed_dice
    node = pool(opposed)

    def run(d: DiceSource) -> HitTest:
        if shared_total is None:
            at = d.roll(node, why=f"attacker {a.attacker} {opposed} (W01)").total
        else:
            at = shared_total
        df = d.roll(node, why=f"defender {t.name} {opposed} (W01)").total
        delta = abs(at - df)
        result = classify(delta, th)
        modified = delta + th.delta_mod
        d.record(Note(f"delta = |{at} - {df}| = {delta}", "W01"))
        if th.delta_mod:
            d.record(Note(f"modified delta = {delta} {th.delta_mod:+d} = {modified}", "W02"))
        d.record(Check("delta vs delta t", modified, th.delta_t, result.result == "hit", "W01"))
        if result.result == "hit" and th.delta_c is not None:
            d.record(
                Check(
                    "delta vs delta c",
                    modified,
                    th.delta_c,
                    result.cover_struck,
                    "W04",
                    "cover struck first" if result.cover_struck else "clear of the cover",
                )
            )
        if result.result != "hit" and th.delta_s:
            d.record(
                Check(
                    "delta vs delta t + delta s",
                    modified,
                    th.delta_t + th.delta_s,
                    result.result == "shock",
                    "W05",
                )
            )
        return result

    def table() -> Weighted[HitTest]:
        one = exact(node)
        deltas = (one - shared_total if shared_total is not None else one - one).abs()
        out: dict[HitTest, int] = {}
        for v, w in deltas.items():
            r = classify(v, th)
            out[r] = out.get(r, 0) + w
        return Weighted(out, deltas.total)

    return ("hit test", opposed, shared_total, th), run, table


@per_object
def _shot(a: Attack, t: Target) -> tuple[tuple[Modifier, ...], Thresholds, Note]:
    """The shot's modifiers, their sums and the delta t line: from the situation alone, so once
    per attack and target, not once per path of an exact enumeration."""
    h = a.house
    mods = modifiers(a, t)
    th = thresholds(h.base_delta_t, mods, t.cover is not None)
    parts = "".join(f" {m.value:+d}" for m in mods if m.target == "delta t")
    sums = f"{h.base_delta_t}{parts} = {th.delta_t}" if parts else f"{th.delta_t}"
    return tuple(mods), th, Note(f"{t.name}: delta t = {sums}", "W01")


def resolve_target(
    dice: DiceSource, a: Attack, t: Target, shared_total: int | None
) -> TargetOutcome:
    mods, th, delta_t_note = _shot(a, t)
    for m in mods:
        dice.record(m)
    dice.record(delta_t_note)
    return after_hit_test(dice, a, t, hit_test(dice, a, t, shared_total, th))


def after_hit_test(dice: DiceSource, a: Attack, t: Target, ht: HitTest) -> TargetOutcome:
    """What the hit test ``ht`` leads to for target ``t`` (W05-W09): the rest of
    :func:`resolve_target`, which reads nothing else of the opposed roll (so odds can enumerate
    it once per verdict rather than once per shared roll)."""
    h = a.house
    body = Body(t.hit_points_left, t.stamina_left, t.status)
    if ht.result == "miss":
        dice.record(Note(f"{t.name}: miss", "W01"))
        return TargetOutcome(t.name, "miss", False, False, 0, 0, 0, body.status)
    if ht.result == "shock":
        dice.record(Note(f"{t.name}: shocked, mettle check to keep cool", "W05"))
        cool = roll_under(
            dice, "mettle check", h.mettle_check_dice, t.combatant.mettle, "W05", t.name
        )
        if not cool:
            dice.record(StateChange(t.name, "suppressed", False, True, "W05"))
        return TargetOutcome(t.name, "shock", False, not cool, 0, 0, 0, body.status)
    layers = tuple(p for p in ((t.cover if ht.cover_struck else None), t.armour) if p is not None)
    damage, after = wound(dice, a.weapon, layers, t, body, h)
    return TargetOutcome(
        t.name,
        "hit",
        ht.cover_struck,
        False,
        damage,
        body.stamina_left - after.stamina_left,
        body.hit_points_left - after.hit_points_left,
        after.status,
    )


def wound(
    dice: DiceSource,
    weapon: Weapon,
    layers: tuple[Protection, ...],
    t: Target,
    body: Body,
    h: Warfare2d20House,
) -> tuple[int, Body]:
    """A hit's damage through soak and what it does to the body (W06-W09), as one derive kept
    by content: exact mode branches over its few (damage, body) results, and a preview or an
    odds table that meets the same hit again (another shared roll, another action at the same
    target) reuses it instead of replaying every damage die and check path by path."""

    def run(d: DiceSource) -> tuple[int, Body]:
        damage = damage_through(d, weapon.damage, weapon.name, layers)
        return damage, take_damage(d, t.name, t.combatant, body, damage, h)

    c = t.combatant
    key = (
        "warfare2d20 wound",
        weapon.damage,
        tuple(p.soak for p in layers),
        (c.pain_threshold, c.hit_points, c.endurance),  # all take_damage reads of the character
        body,
        h.endurance_threshold_percent,
        h.endurance_check_dice,
    )
    return dice.derive("damage and wound", run, key, keep=True)


def open_attack(a: Attack, dice: DiceSource) -> int | None:
    """The house rules in force, then the shared attacker roll if there is one (W15 d).

    A shared roll against one target is that target's own roll: it stays inside the hit test's
    derive (same dice order, fewer exact branches), so there is none to return.
    """
    for e in house_events(a.house):
        dice.record(e)
    if a.attack_roll == "shared" and len(a.targets) > 1:
        opposed = a.house.opposed_dice
        why = f"attacker {a.attacker} {opposed}, shared (W01)"
        return dice.roll(pool(opposed), why=why).total
    return None


def resolve_attack(a: Attack, dice: DiceSource) -> AttackOutcome:
    """The whole attack, every target in file order."""
    total = open_attack(a, dice)
    return AttackOutcome(tuple(resolve_target(dice, a, t, total) for t in a.targets))


def summary(outcome: AttackOutcome) -> dict[str, object]:
    """Key figures for the CLI table and JSON (prefixed by target name when there are several)."""
    out: dict[str, object] = {}
    many = len(outcome.targets) > 1
    for o in outcome.targets:
        p = f"{o.name}: " if many else ""
        out[f"{p}result"] = o.result
        if o.result == "hit":
            out[f"{p}cover struck"] = o.cover_struck
            out[f"{p}damage"] = o.damage
            out[f"{p}stamina lost"] = o.stamina_lost
            out[f"{p}hit points lost"] = o.hp_lost
            out[f"{p}status"] = o.status
        if o.result == "shock":
            out[f"{p}suppressed"] = o.suppressed
    return out
