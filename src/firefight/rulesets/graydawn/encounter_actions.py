"""What a graydawn combatant may do when its initiative comes up (G31-G40), as actions.

A turn is declared whole and carried out (G31: "Determine what all your actions will be for the
round, and carry them out"), so one :class:`~firefight.core.turns.Action` is one turn's plan:
movement first, then the actions (G33: "move and shoot"), each at -3 per action past the first
(the first move is free, G34). In the suppressing-fire phase (G16) an action is a declaration.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from firefight.core.turns import Action, FightState
from firefight.errors import InputError
from firefight.rulesets.graydawn import encounter_fire as fire
from firefight.rulesets.graydawn.encounter_state import Fighter
from firefight.rulesets.graydawn.ranges import range_band
from firefight.rulesets.graydawn.suppression import AUTOMATIC_KINDS, unsuitable_reason

if TYPE_CHECKING:
    from firefight.rulesets.graydawn.encounter import GraydawnTurns

#: Long guns that start slung need shouldering (G39); pistols are drawn and fired freely.
SLUNG_KINDS = ("smg", "assault_rifle", "shotgun", "rifle", "sniper", "machine_gun")


def act_id(*parts: object) -> str:
    return ":".join(str(p) for p in parts)


def reach(t: GraydawnTurns, f: Fighter, metres: float, *, bracing: bool = False) -> bool:
    """Can ``f``'s weapon fire at ``metres`` (G39 bands; shotguns no extreme, G26)?"""
    w = t.entries[f.name].combatant.weapon
    if w is None or not w.is_firearm:
        return False
    key = (w.name, metres, bracing)
    found = t.reach_cache.get(key)
    if found is None:
        try:
            range_band(w, metres, bracing=bracing, use_scope=True, point_blank=False, house=t.house)
            found = True
        except InputError:
            found = False
        t.reach_cache[key] = found
    return found


def enemies(t: GraydawnTurns, state: FightState, f: Fighter) -> list[Fighter]:
    """Standing enemies, nearest first (scenario order on ties)."""
    board = state.board
    out = [c for c in state.combatants if c.side != f.side and not c.out]
    return sorted(out, key=lambda c: (board.distance(f.name, c.name), t.index[c.name]))


def can_shoot(t: GraydawnTurns, f: Fighter) -> bool:
    w = t.entries[f.name].combatant.weapon
    return (
        w is not None
        and w.is_firearm
        and w.kind != "grenade"
        and not f.jammed
        and not f.broken
        and f.ammo > 0
        and f.grappled_by is None
    )


def modes(t: GraydawnTurns, f: Fighter) -> list[str]:
    """Fire modes the gun and the magazine allow, heaviest first (G27/G28)."""
    w = t.entries[f.name].combatant.armed()
    out = []
    if w.full_auto and f.ammo >= t.house.full_auto_rounds_per_step:
        out.append("auto")
    if w.burst and f.ammo >= t.house.burst_rounds:
        out.append("burst")
    out.append("single")
    return out


def targetable(f: Fighter) -> bool:
    """G32: a combatant in full cover can only be fired at with covering fire."""
    return not (f.stance == "full_cover" and f.in_cover)


# ------------------------------------------------------------------------------------------------
# The suppressing-fire phase (G09, G16, G29)
# ------------------------------------------------------------------------------------------------
def can_suppress(t: GraydawnTurns, f: Fighter) -> bool:
    """G09/G15: a suitable, ready weapon with ammunition; not panicked, stunned or held."""
    w = t.entries[f.name].combatant.weapon
    return (
        f.status == "ready"
        and not f.panicked
        and f.ready
        and can_shoot(t, f)
        and w is not None
        and unsuitable_reason(w, t.house.suppression) is None
    )


def declarations(t: GraydawnTurns, state: FightState, f: Fighter) -> tuple[Action, ...]:
    """G16: targets and volume of fire; the combatant's own ``fire`` field comes first."""
    e = t.entries[f.name]
    w = e.combatant.armed()
    rules = t.house.suppression
    out: list[Action] = []
    for foe in enemies(t, state, f):
        metres = state.board.distance(f.name, foe.name)
        if not reach(t, f, metres):
            continue
        volumes: list[int] = []
        if w.kind == "shotgun":
            volumes = [w.rof]
        elif w.kind == "pistol":
            volumes = [n for n in (rules.pistol_shots_per_level,) if n < f.ammo] + [f.ammo]
        else:
            step = rules.automatic_shots_per_level
            volumes = [n for n in range(step, min(f.ammo, w.magazine) + 1, step)]
        for n in volumes:
            if n <= f.ammo:
                out.append(
                    Action(
                        act_id("suppress", foe.name, n),
                        f.name,
                        f"{f.name} lays suppressing fire on {foe.name}, {n} rounds",
                        "suppress",
                        target=foe.name,
                        params=(("fire", "suppressing"), ("rounds", n)),
                    )
                )
        covering = w.rof if w.kind != "pistol" or w.rof <= f.ammo else 0
        if 0 < covering <= f.ammo and _band_index(t, f, metres) < 3:
            out.append(
                Action(
                    act_id("cover_fire", foe.name),
                    f.name,
                    f"{f.name} lays covering fire on {foe.name} ({covering} rounds)",
                    "suppress",
                    target=foe.name,
                    params=(("fire", "covering"), ("rounds", covering)),
                )
            )
    none = Action("no_fire", f.name, f"{f.name} lays no suppressing fire", "wait")
    preferred = _preferred(e.extra.fire, e.extra.rounds, e.extra.full_magazine, f, out)
    if preferred is None:
        return (none, *out)
    return (preferred, none, *(a for a in out if a is not preferred))


def _preferred(
    fire: str | None, rounds: int | None, full: bool, f: Fighter, out: list[Action]
) -> Action | None:
    if fire is None:
        return None
    want = f.ammo if full else min(rounds or 0, f.ammo)
    for a in out:
        if a.param("fire") == fire and (fire == "covering" or a.param("rounds") == want):
            return a
    for a in out:
        if a.param("fire") == fire:
            return a
    return None


def _band_index(t: GraydawnTurns, f: Fighter, metres: float) -> int:
    w = t.entries[f.name].combatant.armed()
    band = range_band(w, metres, bracing=False, use_scope=False, point_blank=False, house=t.house)
    return band.effective


# ------------------------------------------------------------------------------------------------
# A turn (G31-G40)
# ------------------------------------------------------------------------------------------------
def turn_actions(t: GraydawnTurns, state: FightState, f: Fighter) -> tuple[Action, ...]:
    """Every plan open to ``f`` now; the sensible default first."""
    e = t.entries[f.name]
    w = e.combatant.armed()
    name = f.name
    out: list[Action] = []
    forced_full = f.check in ("fail", "fumble") and f.in_cover
    foes = enemies(t, state, f)
    shooting = can_shoot(t, f) and not forced_full
    if f.prone:  # G06, house stand_up = "action": getting up is the turn
        return (
            Action("stand_up", name, f"{name} gets up", "move"),
            Action("wait", name, f"{name} waits", "wait"),
        )
    hand = fire.in_hand(e, f)
    if f.grappled_by is not None:
        out.append(
            Action(
                "break_grapple",
                name,
                f"{name} breaks {f.grappled_by}'s grapple",
                "melee",
                target=f.grappled_by,
            )
        )
    if f.jammed:
        out.append(Action("clear_jam", name, f"{name} clears the jam", "reload"))
    if f.lodged:
        what = "its fist" if w.kind == "unarmed" or f.broken or not f.ready else f"the {w.name}"
        out.append(Action("free_weapon", name, f"{name} frees {what} from the scenery", "ready"))
    if w.kind == "melee" and not f.ready and not f.broken:
        out.append(Action("pick_up", name, f"{name} picks up the {w.name}", "ready"))
    if w.is_firearm and not f.jammed and not f.broken and f.ammo < w.magazine and f.spares > 0:
        out.append(Action("reload", name, f"{name} reloads (the round's only action)", "reload"))
    if shooting and not f.ready:
        for foe in foes:
            if targetable(foe) and reach(t, f, state.board.distance(name, foe.name)):
                out.append(
                    Action(
                        act_id("shoulder_fire", foe.name),
                        name,
                        f"{name} shoulders the {w.name} and fires at {foe.name} (-3)",
                        "attack",
                        target=foe.name,
                    )
                )
        out.append(Action("shoulder", name, f"{name} shoulders the {w.name}", "ready"))
    if shooting and f.ready:
        for foe in foes:
            metres = state.board.distance(name, foe.name)
            if not targetable(foe):
                continue
            if reach(t, f, metres):
                for mode in modes(t, f):
                    out.append(
                        Action(
                            act_id("fire", foe.name, mode),
                            name,
                            f"{name} fires {_mode_text(mode)} at {foe.name}",
                            "attack",
                            target=foe.name,
                            params=(("mode", mode),),
                        )
                    )
                for mode in ("burst", "single"):
                    need = 2 * (t.house.burst_rounds if mode == "burst" else 1)
                    if mode in modes(t, f) and f.ammo >= need and (mode == "burst" or w.rof >= 2):
                        out.append(
                            Action(
                                act_id("fire2", foe.name, mode),
                                name,
                                f"{name} fires twice {_mode_text(mode)} at {foe.name} (-3 each)",
                                "attack",
                                target=foe.name,
                                params=(("mode", mode),),
                            )
                        )
            if reach(t, f, metres, bracing=True) and not f.grappled_by:
                out.append(
                    Action(
                        act_id("brace", foe.name),
                        name,
                        f"{name} braces and fires at {foe.name}"
                        + (" through the scope" if w.scope else ""),
                        "attack",
                        target=foe.name,
                    )
                )
                out.append(
                    Action(
                        act_id("brace", foe.name, "head"),
                        name,
                        f"{name} braces and aims at {foe.name}'s head (-4)",
                        "attack",
                        target=foe.name,
                        params=(("aim", "head"),),
                    )
                )
            closer = max(1.0, metres - e.combatant.stats.MA)
            if metres > 1 and reach(t, f, closer):
                mode = modes(t, f)[0]
                out.append(
                    Action(
                        act_id("advance", foe.name, mode),
                        name,
                        f"{name} advances {e.combatant.stats.MA} m and fires "
                        f"{_mode_text(mode)} at {foe.name}",
                        "attack",
                        target=foe.name,
                        params=(("mode", mode),),
                    )
                )
            if (
                w.removable_magazine
                and f.ammo < w.magazine
                and f.spares > 0
                and reach(t, f, metres)
            ):
                out.append(
                    Action(
                        act_id("reload_fire", foe.name),
                        name,
                        f"{name} reloads and fires at {foe.name} (-3 each)",
                        "attack",
                        target=foe.name,
                    )
                )
    held = f.grappled_by is not None
    for foe in foes:
        metres = state.board.distance(name, foe.name)
        # G38: a hold stops a gun firing, not a blade or a fist (a held fighter cannot close in)
        reach_m = 1 if held else 1 + 3 * e.combatant.stats.MA
        if hand is not None and not f.lodged and metres <= reach_m:
            out.append(
                Action(
                    act_id("strike", foe.name),
                    name,
                    f"{name} attacks {foe.name} "
                    + (f"with the {hand.name}" if hand is w else "bare-handed")
                    + (" after closing in" if metres > 1 else ""),
                    "attack",
                    target=foe.name,
                )
            )
        if (
            not held
            and not f.lodged
            and metres <= 1 + 2 * e.combatant.stats.MA
            and foe.grappled_by != name
        ):
            out.append(
                Action(
                    act_id("grapple", foe.name),
                    name,
                    f"{name} grapples {foe.name}"
                    + (" and fires point-blank" if shooting and f.ready else ""),
                    "melee",
                    target=foe.name,
                )
            )
        if (
            foe.in_cover
            and (foe.stance == "full_cover" or foe.levels > 0)
            and name not in foe.flanked_by
            and f.grappled_by is None
            and not forced_full
        ):
            out.append(
                Action(
                    act_id("flank", foe.name),
                    name,
                    f"{name} runs to flank {foe.name}"
                    + (" and fires (-3)" if shooting and f.ready else ""),
                    "move",
                    target=foe.name,
                )
            )
    if e.cover is not None and f.cover_m > 0 and math.ceil(f.cover_m / e.combatant.stats.MA) <= 3:
        out.append(
            Action(
                "take_cover",
                name,
                f"{name} moves into cover ({f.cover_m} m)",
                "move",
                defensive=True,
            )
        )
    if f.in_cover and f.stance != "full_cover":
        out.append(Action("full_cover", name, f"{name} takes full cover", "stance", defensive=True))
    if f.levels > 0:
        out.append(Action("hunker", name, f"{name} hunkers down", "defend", defensive=True))
    for ally in state.combatants:
        if ally.side != f.side or ally.name == name or ally.status in ("dead", "stable"):
            continue
        if ally.status == "dying" or ally.marks > t.house.mortal_above:
            if e.combatant.skill("doctor") > 0:
                out.append(
                    Action(
                        act_id("stabilise", ally.name),
                        name,
                        f"{name} stabilises {ally.name} (doctor)",
                        "heal",
                        target=ally.name,
                    )
                )
            if e.combatant.skill("first_aid") > 0 and not ally.first_aid:
                out.append(
                    Action(
                        act_id("first_aid", ally.name),
                        name,
                        f"{name} gives {ally.name} first aid",
                        "heal",
                        target=ally.name,
                    )
                )
    out.append(Action("wait", name, f"{name} waits", "wait"))
    return tuple(_default_first(out, f, t))


def _mode_text(mode: str) -> str:
    return {"auto": "full auto", "burst": "a burst", "single": "a single shot"}[mode]


def _default_first(out: list[Action], f: Fighter, t: GraydawnTurns) -> list[Action]:
    """The sensible default first: clear a jam, reload an empty gun, free or pick up the
    weapon (G06), get out of the open into reachable cover, break a hold that keeps the gun
    from firing (G38; held, a blade still strikes), else attack the nearest enemy with the
    heaviest mode; defensive moves only when nothing else is open."""
    hand = fire.in_hand(t.entries[f.name], f)
    armed = hand is not None and hand.kind == "melee" and not f.lodged

    def rank(a: Action) -> int:
        if a.id in ("clear_jam", "free_weapon", "pick_up") or (a.id == "reload" and f.ammo == 0):
            return 0
        if a.id == "take_cover" and f.stance == "open":  # G34: no strolling in the open
            return 1
        if a.id == "break_grapple":
            return 3 if armed else 1
        if a.kind == "attack" and a.id.split(":")[0] in ("fire", "shoulder_fire", "strike"):
            return 2
        if a.kind in ("attack", "melee"):
            return 3
        if a.id == "take_cover":
            return 4
        return 5

    return sorted(out, key=rank)


def automatic(t: GraydawnTurns, f: Fighter) -> bool:
    w = t.entries[f.name].combatant.weapon
    return w is not None and w.kind in AUTOMATIC_KINDS


def pending_action(f: Fighter) -> Action:
    """The next committed action of a declared turn (G31)."""
    _, target, mode, _ = f.pending[0].split(":")
    return Action(
        f.pending[0],
        f.name,
        f"{f.name} fires {_mode_text(mode)} at {target} (declared, -3; G31)",
        "attack",
        target=target,
        params=(("mode", mode),),
    )
