"""The opposed roll (G02, G04, G05) with the caller's luck (G17), and critical failures (G06).

The contest is a sub-rule returning only what the rest of the attack needs: the margin clipped to
what matters (miss, 0, 1, ... up to the full-auto cap) or the critical-failure step, and the luck
points left. On exact dice without luck choices it is computed from the two d10x distributions
directly (the same comparison, integer weights).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from firefight.core.transcript import Check, Note, StateChange
from firefight.dice import NATURAL_ONE, DiceSource, Weighted, exact, exact_tagged
from firefight.errors import present
from firefight.rulesets.graydawn.checks import D10X, LuckUse
from firefight.rulesets.graydawn.house import GraydawnHouse
from firefight.rulesets.graydawn.models import Combatant, DamageType, Location, content_key
from firefight.rulesets.graydawn.plan import Plan
from firefight.rulesets.graydawn.situation import AttackSituation, LuckChoices

#: G06 critical failure consequences, mildest first; severity = how far the total fell below 1.
#: The fight applies the ones its state can hold (:func:`.encounter_fire.attacker_left`) and
#: :func:`own_hit` says which hurt the attacker himself.
SHOOTS_HIMSELF = "shoots himself (normal damage)"
FIREARM_FUMBLES = (
    "simply misses",
    "dumps the magazine",
    "critical weapon failure (repairs after the fight)",
    SHOOTS_HIMSELF,
    "shoots at an ally (as suppressing fire)",
    "wrong fire selection / cook-off",
)
DROPS = "drops the weapon"
SLIPS = "the weapon slips: 1d3 damage to the attacker's hands"
HITS_HIMSELF = "swings wild and hits himself (full damage + BTM bonus)"
LODGED = "the weapon lodges in the scenery"
MELEE_FUMBLES = (DROPS, SLIPS, HITS_HIMSELF, "swings wild and hits a nearby ally", LODGED)
OVEREXTENDS = "overextends: next attack at -3"
FALLS = "falls down (no dodge/cover while prone)"
SCENERY = "hits the scenery: punch/kick damage to the own limb"
STUCK = "a fist or leg is stuck in the scenery"
UNARMED_FUMBLES = (OVEREXTENDS, FALLS, SCENERY, "swings wild and hits a nearby ally", STUCK)
RELIABILITY = ("very_reliable", "standard", "unreliable")


@dataclass(frozen=True)
class Contest:
    """The part of the attack and defence rolls the rest of the rule needs."""

    #: attack - defence, clipped to -1 (miss) .. cap; 0 for 1 too where only "barely" is read
    margin: int
    critical: int | None  # severity step when the attack total is 0 or less (G06)
    attack_total: int | None  # kept only when allies in a melee must dodge it (G37)
    attacker_luck: int
    target_luck: int


def luck_use(
    c: Combatant, choices: LuckChoices, what: str, h: GraydawnHouse, points: int | None = None
) -> LuckUse:
    return LuckUse(
        c.name,
        c.luck_available if points is None else points,
        reroll=what in choices.reroll,
        boost=what in choices.boost,
        reroll_cost=h.luck_reroll_cost,
        point_bonus=h.luck_point_bonus,
    )


ContestParts = tuple[Any, Callable[[DiceSource], Contest], Callable[[], Weighted[Contest]] | None]


def contest(
    dice: DiceSource,
    sit: AttackSituation,
    plan: Plan,
    cap: int,
    keep_total: bool,
    cache: dict[Any, Any],
    miss_floor: int = -1,
    barely_only: bool = False,
) -> Contest:
    """The opposed roll; a miss is margin -1 unless ``miss_floor`` asks for how far it missed
    (down to that floor: an encounter needs it for the hits an exposed, suppressed attacker
    takes per full 5 points missed, G11). ``barely_only``: the caller reads no more of a hit's
    margin than whether it was a barely hit (0 or 1, G25), so a 1 is returned as 0 (one branch
    for both on exact dice, not two that lead to the same wounds)."""
    parts: ContestParts | None = cache.get(("contest", miss_floor, barely_only))
    if parts is None:
        parts = cache[("contest", miss_floor, barely_only)] = _contest_parts(
            sit, plan, cap, keep_total, miss_floor, barely_only
        )
    key, run, weighted = parts
    return dice.derive("attack vs defence", run, key, exact=weighted, keep=True)


def _contest_parts(
    sit: AttackSituation,
    plan: Plan,
    cap: int,
    keep_total: bool,
    floor: int = -1,
    barely_only: bool = False,
) -> ContestParts:
    """The opposed roll as a sub-rule: its key, its rolling form and its vectorised form."""
    h = sit.house
    a, t = sit.attacker, sit.target
    la, lt = sit.luck.attacker, sit.luck.target
    a_mod = sum(m.value for m in plan.attack_mods)
    d_mod = sum(m.value for m in plan.defence_mods)
    a_base = plan.attack_base + a_mod
    rolled_defence = plan.defence_base is not None
    d_base = (plan.defence_base or 0) + d_mod
    tn = plan.tn

    def run(d: DiceSource) -> Contest:
        ap, tp = a.luck_available, t.luck_available
        roll = d.roll(D10X, why="attack roll (G02/G04)")
        attack = a_base + roll.total
        natural = NATURAL_ONE in roll.tags
        defence = 0
        if rolled_defence:
            defence = d_base + d.roll(D10X, why="defence roll (G04)").total
            if tn is not None and not h.tn_dodge_replaces_tn:
                defence = max(defence, tn)
        else:
            defence = present(tn, "a defence without a roll needs a target number")
        log = not d.is_exact
        if log:
            d.record(
                Check(
                    "attack vs defence",
                    attack,
                    defence,
                    attack >= defence and attack > 0,
                    "G04" if tn is None else "G05",
                    f"{a_base} + d10x" + (f" vs {d_base} + d10x" if rolled_defence else ""),
                )
            )
        # G17 luck, in the order: attacker re-roll, target re-roll, attacker +2s, target +2s.
        if attacker_rerolls(attack, defence, natural, ap):
            d.record(StateChange(a.name, "luck points", ap, ap - cost, "G17 (re-roll attack)"))
            ap -= cost
            attack = a_base + d.roll(D10X, why="attack re-rolled with luck (G17)").total
            d.record(Check("attack (re-roll)", attack, defence, attack >= defence, "G17"))
        if target_rerolls(attack, defence, tp):
            d.record(StateChange(t.name, "luck points", tp, tp - cost, "G17 (re-roll defence)"))
            tp -= cost
            defence = d_base + d.roll(D10X, why="defence re-rolled with luck (G17)").total
            d.record(
                Check("attack vs defence (re-roll)", attack, defence, attack >= defence, "G17")
            )
        attack, new_ap = attacker_boost(attack, defence, ap)
        if new_ap != ap:
            d.record(StateChange(a.name, "luck points", ap, new_ap, "G17 (+2 each)"))
        defence, new_tp = target_boost(attack, defence, tp)
        if new_tp != tp:
            d.record(StateChange(t.name, "luck points", tp, new_tp, "G17 (+2 each)"))
        return classify(attack, defence, new_ap, new_tp)

    # -- the steps of run() as pure functions, shared with the vectorised routes -------------
    cost = h.luck_reroll_cost
    bonus = h.luck_point_bonus

    def attacker_rerolls(attack: int, defence: int, natural: bool, ap: int) -> bool:
        wants = ("attack" in la.reroll and attack < defence) or (
            "fumble" in la.reroll and natural and attack <= 0
        )
        return wants and ap >= cost and a.uses_luck

    def target_rerolls(attack: int, defence: int, tp: int) -> bool:
        return (
            rolled_defence
            and "defence" in lt.reroll
            and attack >= defence
            and attack > 0
            and tp >= cost
            and t.uses_luck
        )

    def attacker_boost(attack: int, defence: int, ap: int) -> tuple[int, int]:
        if "attack" in la.boost and attack < defence and a.uses_luck:
            need = math.ceil((max(defence, 1) - attack) / bonus)
            if 0 < need <= ap:
                return attack + need * bonus, ap - need
        return attack, ap

    def target_boost(attack: int, defence: int, tp: int) -> tuple[int, int]:
        if rolled_defence and "defence" in lt.boost and attack >= defence and t.uses_luck:
            need = math.ceil((attack - defence + 1) / bonus)
            if 0 < need <= tp:
                return defence + need * bonus, tp - need
        return defence, tp

    def clip(margin: int) -> int:
        """A hit's margin as far as the caller reads it (up to ``cap``; 0 for 1 if
        ``barely_only``)."""
        margin = max(floor, min(margin, cap))
        return 0 if barely_only and margin == 1 else margin

    def classify(attack: int, defence: int, ap: int, tp: int) -> Contest:
        total = attack if keep_total else None
        if attack <= 0:
            return Contest(max(floor, min(attack - defence, -1)), (-attack) // 5, total, ap, tp)
        return Contest(clip(attack - defence), None, total, ap, tp)

    def weighted_luck() -> Weighted[Contest]:
        """With luck choices: the same steps over states (attack, defence, points), each re-roll
        replacing one side's value by its whole distribution (grouped, so ~n^2 work)."""
        groups = exact_tagged(D10X)
        big_t = groups[0][1].total
        a_items = [(v, w, NATURAL_ONE in tags) for tags, dist in groups for v, w in dist.items()]
        merged = exact(D10X)
        d_items = list(merged.items()) if rolled_defence else [(0, 1)]
        d_total = big_t if rolled_defence else 1
        spare = big_t**2  # room for up to two re-rolls: each uses one factor of the total
        ap0, tp0 = a.luck_available, t.luck_available

        def defence_of(v: int) -> int:
            if not rolled_defence:
                return present(tn, "a defence without a roll needs a target number")
            value = d_base + v
            return max(value, tn) if tn is not None and not h.tn_dodge_replaces_tn else value

        states: dict[tuple[int, bool, int, int, int], int] = {}
        for va, wa, nat in a_items:
            for vd, wd in d_items:
                key = (a_base + va, nat, defence_of(vd), ap0, tp0)
                states[key] = states.get(key, 0) + wa * wd * spare
        # attacker re-roll: the attack is replaced; group the re-rolled states by what stays
        after: dict[tuple[int, bool, int, int, int], int] = {}
        regroup: dict[tuple[int, int, int], int] = {}
        for (atk, nat, dfc, ap, tp), w in states.items():
            if attacker_rerolls(atk, dfc, nat, ap):
                k = (dfc, ap - cost, tp)
                regroup[k] = regroup.get(k, 0) + w // big_t
            else:
                after[(atk, nat, dfc, ap, tp)] = after.get((atk, nat, dfc, ap, tp), 0) + w
        for (dfc, ap, tp), w in regroup.items():
            for va, wa, _ in a_items:
                k2 = (a_base + va, False, dfc, ap, tp)
                after[k2] = after.get(k2, 0) + w * wa
        # target re-roll: the defence is replaced
        final: dict[tuple[int, int, int, int], int] = {}
        regroup_t: dict[tuple[int, int, int], int] = {}
        for (atk, _, dfc, ap, tp), w in after.items():
            if target_rerolls(atk, dfc, tp):
                k3 = (atk, ap, tp - cost)
                regroup_t[k3] = regroup_t.get(k3, 0) + w // big_t
            else:
                final[(atk, dfc, ap, tp)] = final.get((atk, dfc, ap, tp), 0) + w
        for (atk, ap, tp), w in regroup_t.items():
            for vd, wd in d_items:
                k4 = (atk, defence_of(vd), ap, tp)
                final[k4] = final.get(k4, 0) + w * wd
        acc: dict[Contest, int] = {}
        for (atk, dfc, ap, tp), w in final.items():
            atk, ap = attacker_boost(atk, dfc, ap)
            dfc, tp = target_boost(atk, dfc, tp)
            c = classify(atk, dfc, ap, tp)
            acc[c] = acc.get(c, 0) + w
        return Weighted(acc, big_t * d_total * spare)

    plain = (
        not keep_total
        and not ({"attack", "fumble"} & set(la.reroll))
        and "attack" not in la.boost
        and "defence" not in lt.reroll
        and "defence" not in lt.boost
    )

    def weighted() -> Weighted[Contest]:
        """Without luck choices: the same comparison over both d10x distributions at once."""
        dist = exact(D10X)
        items = list(dist.items())
        ap, tp = a.luck_available, t.luck_available
        # (margin, critical step) -> weight: the rest of each Contest is the same here, and a
        # pair of numbers hashes in C (a Contest calls its dataclass __hash__ each time)
        acc: dict[tuple[int, int | None], int] = {}
        d_total = dist.total if rolled_defence else 1
        hit_keys: dict[int, tuple[int, int | None]] = {
            m: (clip(m), None) for m in range(floor, cap + 1)
        }
        key: tuple[int, int | None]
        # the defence totals, ascending, with the weight at or below each: a margin outside
        # [floor, cap] is clamped, so each attack total reads two tails and the few margins
        # between (not every pair of faces)
        defences: dict[int, int] = {}
        for vd, wd in items:
            defence = d_base + vd
            if tn is not None and not h.tn_dodge_replaces_tn:
                defence = max(defence, tn)
            defences[defence] = defences.get(defence, 0) + wd
        d_values = sorted(defences)
        below = list(accumulate((defences[v] for v in d_values), initial=0))

        def margins(attack: int) -> list[tuple[int, int]]:
            """(margin, defence weight) for ``attack``, highest margin first (the order the
            ascending defence totals meet them)."""
            out = []
            capped = below[bisect_right(d_values, attack - cap)]  # defence <= attack - cap
            if capped:
                out.append((cap, capped))
            for m in range(cap - 1, floor, -1):
                w = defences.get(attack - m, 0)
                if w:
                    out.append((m, w))
            floored = below[-1] - below[bisect_left(d_values, attack - floor)]
            if floored:
                out.append((floor, floored))
            return out

        for va, wa in items:
            attack = a_base + va
            if attack <= 0 and (floor < -1 and rolled_defence):
                sev = (-attack) // 5
                for vd, wd in items:
                    defence = d_base + vd
                    if tn is not None and not h.tn_dodge_replaces_tn:
                        defence = max(defence, tn)
                    key = (max(floor, min(attack - defence, -1)), sev)
                    acc[key] = acc.get(key, 0) + wa * wd
                continue
            if attack <= 0:
                m0 = max(floor, min(attack - tn, -1)) if tn is not None else -1
                key = (m0, (-attack) // 5)
                # the defence is rolled all the same: only its kept mass counts
                acc[key] = acc.get(key, 0) + wa * (dist.kept if rolled_defence else 1)
                continue
            if not rolled_defence:
                fixed = present(tn, "a defence without a roll needs a target number")
                key = (clip(attack - fixed), None)
                acc[key] = acc.get(key, 0) + wa
                continue
            for m, wd in margins(attack):
                key = hit_keys[m]
                acc[key] = acc.get(key, 0) + wa * wd
        contests = {Contest(m, sev, None, ap, tp): w for (m, sev), w in acc.items()}
        return Weighted(contests, dist.total * d_total)

    # plain values only (the luck choices by content): exact odds hash this key on every
    # replay, and a tuple of strings and numbers hashes in C
    key = (
        "contest",
        content_key(sit),
        a_base,
        d_base if rolled_defence else None,
        tn,
        cap,
        keep_total,
        a.luck_available,
        t.luck_available,
        content_key(la),
        content_key(lt),
        floor,
        barely_only,
        a.uses_luck,
        t.uses_luck,
    )
    if plain:
        return key, run, weighted
    return key, run, (None if keep_total else weighted_luck)


def critical_failure(dice: DiceSource, sit: AttackSituation, severity: int) -> tuple[str, bool]:
    """G06: reliability roll and the consequence (severity steps down the weapon's list)."""
    h = sit.house
    w = sit.attacker.armed()
    if w.kind == "unarmed":
        table: tuple[str, ...] = UNARMED_FUMBLES
    elif w.kind == "melee":
        table = MELEE_FUMBLES
    else:
        table = FIREARM_FUMBLES if (w.full_auto or w.burst) else FIREARM_FUMBLES[:-1]
    consequence = table[min(severity, len(table) - 1)]
    jammed = False
    if w.kind != "unarmed":
        fails_on = h.reliability_fails_on[RELIABILITY.index(w.reliability)]

        def run(d: DiceSource) -> bool:
            face = d.roll("d10", why=f"reliability ({w.reliability}) (G06)").total
            failed = face >= fails_on
            if not d.is_exact:
                d.record(
                    Check("reliability", face, fails_on, not failed, "G06", f"fails on {fails_on}+")
                )
            return failed

        jammed = dice.derive("reliability", run, ("reliability", fails_on), keep=True)
        # no transcript to build on each of exact odds' replays
        if jammed and not dice.is_exact:
            what = "jams" if w.is_firearm else "breaks"
            dice.record(Note(f"{w.name} {what}", "G06"))
            if w.is_firearm:
                dice.record(
                    Note(
                        f"clearing: an action and weaponsmith {h.jam_clear_weaponsmith_tn} "
                        f"or weapon skill {h.jam_clear_skill_tn}; 1d3 rounds lost",
                        "G06",
                    )
                )
    if not dice.is_exact:
        dice.record(Note(f"critical failure: {consequence}", "G06"))
    return consequence, jammed


@dataclass(frozen=True)
class OwnHit:
    """What a critical failure does to the attacker's own body (G06), as the text gives it: one
    wound, resolved as any hit is (:func:`.attack.fumbled`)."""

    #: Where it lands: fixed (the hands, the striking limb) or None, rolled on the d10 table.
    location: Location | None
    dice: int
    die: int
    bonus: int
    damage_type: DamageType
    #: Armour on the location counts (the hands are bare: none of the catalog's armour covers
    #: them).
    armour: bool
    #: A graze roll may lessen it (G25); the text's "full damage" never is.
    graze: bool
    #: The attacker's BTM is added to the damage instead of taken off (house ``own_blow_btm``).
    btm_added: bool


def own_hit(sit: AttackSituation, consequence: str) -> OwnHit | None:
    """The wound a critical failure's ``consequence`` deals the attacker (G06), or None:
    a shot into himself rolls as normal (location, armour, graze); a wild swing into himself is
    the weapon's full damage (no graze) with his BTM as a bonus; a slipping weapon is 1d3 to the
    hands, a punch into scenery the punch's damage to the arm (bare: no armour, no graze)."""
    w, h = sit.attacker.armed(), sit.house
    kind = w.damage_type
    if consequence == SHOOTS_HIMSELF:
        return OwnHit(None, w.damage_dice, w.damage_die, w.damage_bonus, kind, True, True, False)
    if consequence == HITS_HIMSELF:
        added = h.own_blow_btm == "added"
        return OwnHit(None, w.damage_dice, w.damage_die, w.damage_bonus, kind, True, False, added)
    if consequence == SLIPS:
        return OwnHit(h.fumble_hand, 1, 3, 0, kind, False, False, False)
    if consequence == SCENERY:
        hand = h.fumble_hand
        return OwnHit(hand, w.damage_dice, w.damage_die, w.damage_bonus, kind, False, False, False)
    return None
