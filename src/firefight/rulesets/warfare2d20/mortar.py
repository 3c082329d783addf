"""Mortar fire (W12): the mortar's 2d20 against the spot, blast bands by calibre, 2d10 blast
damage that armour does not stop.

Reading of the bands: the text gives each calibre a lethal radius and inner bands with a delta t
bonus ("60mm: 10 m +2 delta t"). A blast's delta t is the base plus the bonus at its centre; a
target further out has its delta raised by what it misses of that bonus (60mm: +2 beyond 10 m).
This is the same test as "delta t = base + the bonus of the target's own band", and it gives the
example's far targets their "modified delta 3" from a delta of 1. Outside the lethal radius the
blast does nothing.

Scripted order, round by round: mortar 2d20; then the GM's 2d20 for the spot ("group") or each
target's 2d20 in file order ("each", each followed by that target's damage); then blast damage
and checks target by target.
"""

from __future__ import annotations

from dataclasses import dataclass

from firefight.core.house import house_events, text_defaults
from firefight.core.identity import per_object
from firefight.core.transcript import Check, Modifier, Note
from firefight.dice import DiceSource, Weighted, exact
from firefight.dice.nodes import Dice
from firefight.rulesets.warfare2d20.attack import AttackOutcome, TargetOutcome
from firefight.rulesets.warfare2d20.checks import pool
from firefight.rulesets.warfare2d20.house import MortarShell, Warfare2d20House
from firefight.rulesets.warfare2d20.models import Mortar, Target
from firefight.rulesets.warfare2d20.wounds import Body, damage_through, take_damage


@dataclass(frozen=True)
class Zone:
    radius_m: float
    penalty: int  # added to delta for a target in this zone


def zones(shell: MortarShell) -> tuple[Zone, ...]:
    """Inner bands then the lethal radius, nearest first, with each one's delta penalty."""
    bands = sorted(shell.bands)
    top = max((bonus for _, bonus in bands), default=0)
    out = [Zone(r, top - bonus) for r, bonus in bands if r < shell.lethal_m]
    out.append(Zone(shell.lethal_m, top))
    return tuple(out)


def zone_of(zs: tuple[Zone, ...], distance: float) -> int | None:
    for i, z in enumerate(zs):
        if distance <= z.radius_m:
            return i
    return None


def reach(delta: int, delta_mod: int, delta_t: int, zs: tuple[Zone, ...]) -> int:
    """Index of the outermost zone the blast still strikes (-1: it strikes nobody)."""
    out = -1
    for i, z in enumerate(zs):
        if delta + delta_mod + z.penalty <= delta_t:
            out = i
    return out


@per_object
def _fire_plan(m: Mortar) -> tuple[MortarShell, tuple[Zone, ...], tuple[Modifier, ...], int, int]:
    """Shell, blast bands, modifiers (the blast centre's last), delta modifier and delta t: from
    the situation alone, so once per situation, not once per path of an exact enumeration."""
    h = m.house
    shell = h.mortar_shells[m.shell]
    zs = zones(shell)
    top = zs[-1].penalty
    mods = [Modifier(x.name, x.value, x.target, "situation", x.rule) for x in m.modifiers]
    delta_mod = sum(x.value for x in mods if x.target == "delta")
    delta_t = h.base_delta_t + top + sum(x.value for x in mods if x.target == "delta t")
    if top:
        mods.append(
            Modifier(
                f"{m.shell}: blast centre",
                top,
                "delta t",
                m.shell,
                "W12",
                house=shell != text_defaults(Warfare2d20House).mortar_shells.get(m.shell),
            )
        )
    return shell, zs, tuple(mods), delta_mod, delta_t


def roll_mortar(dice: DiceSource, house: Warfare2d20House) -> int:
    """The mortar's own 2d20 (W12), rolled once for every target of a round."""
    return dice.roll(pool(house.opposed_dice), why=f"mortar {house.opposed_dice} (W12)").total


def resolve_mortar(m: Mortar, dice: DiceSource, mortar_total: int | None = None) -> AttackOutcome:
    """Every round of ``m``; ``mortar_total`` is a mortar roll already made (an encounter
    resolves the targets of one round one by one against it), used for the first round."""
    h = m.house
    for e in house_events(h):
        dice.record(e)
    shell, zs, mods, delta_mod, delta_t = _fire_plan(m)
    for x in mods:
        dice.record(x)
    bodies = {t.name: Body(t.hit_points_left, t.stamina_left, t.status) for t in m.targets}
    struck = {t.name: False for t in m.targets}
    damage = {t.name: 0 for t in m.targets}

    def blast(t: Target) -> None:
        amount = blast_amount(dice, m, t)
        damage[t.name] += amount
        bodies[t.name] = take_damage(dice, t.name, t.combatant, bodies[t.name], amount, h)

    for r in range(1, m.rounds + 1):
        dice.record(Note(f"round {r} of {m.rounds}: {m.shell}, lethal {shell.lethal_m} m", "W12"))
        alive = [t for t in m.targets if bodies[t.name].status != "dead"]
        in_blast = [(t, zone_of(zs, t.distance_m or 0.0)) for t in alive]
        for t, z in in_blast:
            if z is None:
                dice.record(Note(f"{t.name} is outside the lethal radius", "W12"))
        inside = [(t, z) for t, z in in_blast if z is not None]
        if not inside:
            dice.record(Note("nobody in the blast radius: no rolls", "W12"))
            continue
        # Ask for what the rule needs: with one roll against the mortar's, the pair is one
        # derive (a few branches); only several rolls against one mortar roll need it apart.
        mortar = mortar_total if r == 1 else None
        if mortar is None and m.spot_roll == "each" and len(inside) > 1:
            mortar = roll_mortar(dice, h)
        if m.spot_roll == "group":
            far = _group_reach(dice, h.opposed_dice, mortar, delta_mod, delta_t, zs, inside)
            for t, z in inside:
                if z <= far:
                    struck[t.name] = True
                    blast(t)
        else:
            for t, z in inside:
                if _target_roll(
                    dice, h.opposed_dice, mortar, t, zs[z].penalty + delta_mod, delta_t
                ):
                    struck[t.name] = True
                    blast(t)
    out = []
    for t in m.targets:
        b = bodies[t.name]
        out.append(
            TargetOutcome(
                t.name,
                "hit" if struck[t.name] else "miss",
                False,
                False,
                damage[t.name],
                t.stamina_left - b.stamina_left,
                t.hit_points_left - b.hit_points_left,
                b.status,
            )
        )
    return AttackOutcome(tuple(out))


def blast_amount(dice: DiceSource, m: Mortar, t: Target) -> int:
    """The blast's damage on a struck target (W12: armour does not stop it, as the text has it)."""
    h = m.house
    if h.blast_ignores_armour or t.armour is None:
        return dice.roll(pool(h.blast_damage), why=f"blast damage on {t.name} (W12)").total
    return damage_through(dice, h.blast_damage, m.shell, (t.armour,))


def _mortar_roll(d: DiceSource, node: Dice, opposed: str, mortar: int | None) -> int:
    if mortar is not None:
        return mortar
    return d.roll(node, why=f"mortar {opposed} (W12)").total


def _group_reach(
    dice: DiceSource,
    opposed: str,
    mortar: int | None,
    delta_mod: int,
    delta_t: int,
    zs: tuple[Zone, ...],
    inside: list[tuple[Target, int]],
) -> int:
    """The GM's one roll for the spot: how far out the blast strikes (W12, the example)."""
    node = pool(opposed)

    def run(d: DiceSource) -> int:
        shell = _mortar_roll(d, node, opposed, mortar)
        spot = d.roll(node, why=f"GM's {opposed} for the spot (W12)").total
        delta = abs(shell - spot)
        d.record(Note(f"delta = |{shell} - {spot}| = {delta}", "W12"))
        for t, z in inside:
            pen = zs[z].penalty
            value = delta + delta_mod + pen
            steps = f" {delta_mod:+d}" if delta_mod else ""
            if pen and z > 0:
                steps += f" + {pen} (beyond {zs[z - 1].radius_m:g} m)"
            detail = f"modified delta = {delta}{steps} = {value}" if steps else f"delta {delta}"
            d.record(
                Check(
                    f"blast on {t.name} at {t.distance_m:g} m",
                    value,
                    delta_t,
                    value <= delta_t,
                    "W12",
                    detail,
                )
            )
        return reach(delta, delta_mod, delta_t, zs)

    def table() -> Weighted[int]:
        one = exact(node)
        deltas = (one - (one if mortar is None else mortar)).abs()
        out: dict[int, int] = {}
        for v, w in deltas.items():
            k = reach(v, delta_mod, delta_t, zs)
            out[k] = out.get(k, 0) + w
        return Weighted(out, deltas.total)

    key = ("blast reach", opposed, mortar, delta_mod, delta_t, zs)
    return dice.derive("blast reach", run, key, exact=table, keep=True)


def _target_roll(
    dice: DiceSource,
    opposed: str,
    mortar: int | None,
    t: Target,
    delta_mod: int,
    delta_t: int,
) -> bool:
    node = pool(opposed)

    def run(d: DiceSource) -> bool:
        shell = _mortar_roll(d, node, opposed, mortar)
        own = d.roll(node, why=f"{t.name} {opposed} in the blast (W12)").total
        delta = abs(shell - own)
        ok = delta + delta_mod <= delta_t
        d.record(
            Check(
                f"blast on {t.name} at {t.distance_m:g} m",
                delta + delta_mod,
                delta_t,
                ok,
                "W12",
                f"delta = |{shell} - {own}| = {delta}",
            )
        )
        return ok

    def table() -> Weighted[bool]:
        one = exact(node)
        deltas = (one - (one if mortar is None else mortar)).abs()
        out: dict[bool, int] = {}
        for v, w in deltas.items():
            k = v + delta_mod <= delta_t
            out[k] = out.get(k, 0) + w
        return Weighted(out, deltas.total)

    key = ("blast target", opposed, mortar, delta_mod, delta_t)
    return dice.derive("blast on target", run, key, exact=table, keep=True)
