"""The attack worked out before any die is rolled: every modifier of G04-G05, G20, G24-G28,
G31-G39, named with its source and rule (S03), the range band and the fixed TN if any."""

from __future__ import annotations

import math
from dataclasses import dataclass

from firefight.core.transcript import Modifier, Note
from firefight.errors import InputError, present
from firefight.rulesets.graydawn.models import Combatant, wound_state
from firefight.rulesets.graydawn.ranges import CLOSE, LONG, MEDIUM, RangeBand, range_band
from firefight.rulesets.graydawn.situation import AttackSituation


def stat_penalty(stat: int, marks: int) -> int:
    """G20: serious -1; critical -max(1/3 of the stat, 2); none when light."""
    state = wound_state(marks)
    if state == "serious":
        return -1
    if state in ("critical", "mortal"):
        return -max(stat // 3, 2)
    return 0


def wounded_base(c: Combatant, other: str, bracing: bool) -> tuple[int, int]:
    """The blended stat of c (REF with CL/MA/BODY) before and after wound-state penalties."""
    s = c.stats
    marks = c.wounds.marks
    other_value = getattr(s, other)
    ref_pen = 0 if bracing else stat_penalty(s.REF, marks)  # G32: bracing ignores REF penalty
    other_pen = stat_penalty(other_value, marks) if other in ("CL",) else 0
    before = math.ceil((s.REF + other_value) / 2)
    after = math.ceil((s.REF + ref_pen + other_value + other_pen) / 2)
    return before, after


@dataclass(frozen=True)
class Plan:
    """The attack worked out from the situation before any die is rolled."""

    attack_base: int
    attack_mods: tuple[Modifier, ...]
    defence_base: int | None  # None: a fixed TN
    defence_mods: tuple[Modifier, ...]
    tn: int | None
    band: RangeBand | None
    rounds_at_target: int
    rounds_fired: int
    notes: tuple[Note, ...]


def _mod(name: str, value: int, target: str, source: str, rule: str) -> Modifier:
    return Modifier(name, value, target, source, rule)


def plan_attack(sit: AttackSituation) -> Plan:
    """All modifiers of G04-G05, G24-G28, G31, G36-G39, named with source and rule (S03)."""
    h = sit.house
    a, t, spec = sit.attacker, sit.target, sit.attack
    w = a.armed()
    mode = spec.mode
    am: list[Modifier] = []
    dm: list[Modifier] = []
    notes: list[Note] = []
    melee = mode == "melee"
    bracing = a.stance.bracing

    if mode == "aimed" and not (bracing or spec.close_quarters or spec.point_blank):
        raise InputError(
            "attack.mode: an aimed shot needs the attacker's bracing stance (G24)",
            tip="set attacker.stance.bracing = true, or use centre_of_mass",
        )
    band: RangeBand | None = None
    if not melee:
        band = range_band(
            w,
            spec.range_m,
            bracing=bracing,
            use_scope=spec.use_scope,
            point_blank=spec.point_blank,
            house=h,
        )
        notes.append(
            Note(
                f"range {spec.range_m:g} m vs listed {band.listed_m} m: {band.name}"
                + (f" (shifted {band.shift} by bracing/scope)" if band.shift else ""),
                "G39",
            )
        )

    # -- attacker side (G04, G01) --------------------------------------------------------------
    other = "BODY" if melee else "CL"
    before, after = wounded_base(a, other, bracing)
    attack_base = before
    if after != before:
        am.append(
            _mod(
                f"wound state ({wound_state(a.wounds.marks)})",
                after - before,
                "attack",
                a.name,
                "G20",
            )
        )
    skill = a.skill(w.skill)
    attack_base += skill
    rounds_fired = rounds_at = 1
    if mode == "burst":
        am.append(_mod("burst fire (instead of WA)", h.burst_bonus, "attack", w.name, "G27"))
        rounds_fired = rounds_at = h.burst_rounds
    elif w.wa:
        am.append(_mod("weapon accuracy (WA)", w.wa, "attack", w.name, "G41"))
    if mode == "full_auto":
        rounds_fired = spec.rounds or w.rof
        lost = h.full_auto_gap_rounds_per_m * spec.spread_m
        rounds_at = (rounds_fired - lost) // spec.spread_targets
        if rounds_at < 1:
            raise InputError(
                f"attack.spread_m: {rounds_fired} rounds over {spec.spread_targets} targets "
                f"{spec.spread_m} m apart leave none for each target (G28)",
                tip="fire more rounds or spread over fewer, closer targets",
            )
        if spec.spread_targets > 1 or spec.spread_m:
            notes.append(Note(f"{rounds_at} of {rounds_fired} rounds at this target", "G28"))
        band = present(band, "a ranged attack needs a range band")
        step = h.full_auto_rounds_per_step
        if band.effective == CLOSE:
            am.append(
                _mod(
                    f"full auto, {rounds_at} rounds at close range",
                    rounds_at // step,
                    "attack",
                    w.name,
                    "G28",
                )
            )
        elif not (spec.bipod and band.effective <= MEDIUM):
            am.append(
                _mod(
                    f"full-auto recoil, {rounds_fired} rounds",
                    -(rounds_fired // step),
                    "attack",
                    w.name,
                    "G28",
                )
            )
    if band is not None and not band.point_blank:
        if w.kind == "shotgun":
            bonus = h.shotgun_bonus[band.effective]
            am.append(_mod(f"shotgun spread at {band.name} range", bonus, "attack", w.name, "G26"))
        elif sit.attack.system == "opposed" and not t.mook:
            pen = h.range_penalties[band.effective]
            if pen:
                am.append(_mod(f"{band.name} range", pen, "attack", "range", "G39"))
    if mode == "aimed":
        helpless = t.stance.prone or t.stance.incapacitated
        value = h.aimed_penalty_helpless if helpless else h.aimed_penalty
        am.append(_mod(f"aimed shot at the {spec.aim_location}", value, "attack", a.name, "G24"))
    if mode == "centre_of_mass":
        am.append(_mod("centre-of-mass shot", h.centre_of_mass_penalty, "attack", a.name, "G24"))
    if spec.aim_rounds:
        cap = h.aim_rounds_max
        if band is not None and band.effective >= LONG:
            cap += spec.concentration
        rounds = min(spec.aim_rounds, cap)
        am.append(
            _mod(
                f"{rounds} round(s) aiming", rounds * h.aim_bonus_per_round, "attack", a.name, "G39"
            )
        )
    if spec.into_close_combat:
        am.append(
            _mod("firing into close combat", h.into_close_combat_penalty, "attack", a.name, "G37")
        )
    if spec.extra_actions:
        am.append(
            _mod(
                f"{spec.extra_actions} extra action(s)",
                spec.extra_actions * h.extra_action_penalty,
                "attack",
                a.name,
                "G31",
            )
        )
    if t.cover.effective and t.cover.position == "full" and not melee:
        am.append(
            _mod(
                f"target in full cover (level {t.cover.level})",
                -t.cover.level,
                "attack",
                t.name,
                "G07",
            )
        )
    for m in spec.modifiers:
        if m.applies_to == "attack":
            am.append(_mod(m.name, m.value, "attack", "situation", "S03"))

    # -- defence side (G04, G05, G34, G35, G38) ------------------------------------------------
    tn: int | None = None
    use_tn = spec.system == "tn" or t.mook
    dodges = spec.target_dodges if spec.target_dodges is not None else not t.mook
    if use_tn and not melee:
        band = present(band, "a ranged attack needs a range band")
        tn = h.range_tns[band.tn_index]
        notes.append(Note(f"range TN {tn} ({band.name})", "G05"))
        if t.stance.flanked or t.stance.ambushed or t.stance.suppressed:
            tn -= h.suppression.flanked_tn_reduction
            notes.append(Note(f"flanked/ambushed/suppressed target: TN {tn}", "G35"))
    defence_base: int | None = None
    if not use_tn or (dodges and not melee) or melee:
        d_other = "BODY" if melee else "MA"
        d_before, d_after = wounded_base(t, d_other, t.stance.bracing)
        defence_base = d_before
        if d_after != d_before:
            dm.append(
                _mod(
                    f"wound state ({wound_state(t.wounds.marks)})",
                    d_after - d_before,
                    "defence",
                    t.name,
                    "G20",
                )
            )
        dskill = spec.defence_skill or (
            (t.weapon.skill if t.weapon is not None and not t.weapon.is_firearm else "brawling")
            if melee
            else "dodge_cover"
        )
        lose = [
            why
            for why, flag in (
                ("bracing (G32)", t.stance.bracing and not melee),
                ("flanked (G35)", t.stance.flanked),
                ("ambushed (G35)", t.stance.ambushed),
                ("suppressed (G29)", t.stance.suppressed and not melee),
                ("prone (G06)", t.stance.prone),
            )
            if flag
        ]
        if lose:
            notes.append(Note(f"no {dskill} skill in defence: {', '.join(lose)}", "G32/G35"))
        else:
            defence_base += t.skill(dskill)
        if not melee:
            moves = t.stance.moves
            move_bonus = 0
            if moves == 2:
                move_bonus = math.ceil(t.stats.MA / 2)
            elif moves >= 3:
                move_bonus = t.stats.MA
            if move_bonus:
                if band is not None and band.scope_used:
                    move_bonus *= 2
                dm.append(
                    _mod(f"target moving ({moves} moves)", move_bonus, "defence", t.name, "G34/G39")
                )
            if use_tn:
                band = present(band, "a ranged attack needs a range band")
                if band.point_blank:
                    dm.append(
                        _mod("point-blank dodge", h.point_blank_dodge, "defence", "range", "G05")
                    )
                elif band.effective > CLOSE:
                    dm.append(
                        _mod(
                            f"dodging at {band.name} range",
                            band.effective * h.dodge_per_band_beyond_short,
                            "defence",
                            "range",
                            "G05",
                        )
                    )
            if spec.close_quarters:
                handling = w.close_quarters_handling
                idx = {"rifle": 0, "carbine": 1, "pistol": 2}.get(handling)
                if idx is not None:
                    dm.append(
                        _mod(
                            f"close quarters vs a {handling}",
                            h.close_quarters_dodge[idx],
                            "defence",
                            w.name,
                            "G38",
                        )
                    )
        for m in spec.modifiers:
            if m.applies_to == "defence":
                dm.append(_mod(m.name, m.value, "defence", "situation", "S03"))
    return Plan(
        attack_base=attack_base,
        attack_mods=tuple(am),
        defence_base=defence_base,
        defence_mods=tuple(dm),
        tn=tn,
        band=band,
        rounds_at_target=rounds_at,
        rounds_fired=rounds_fired,
        notes=tuple(notes),
    )
