"""What a quality_d100 figure may do: its turn's actions and the choices an exchange waits for.

Stable ids: ``attack:T`` (``:trip``, ``:shield_rush``, ``:knockout``, ``:disarm``, ``:close``),
``withdraw:offensive:T``, ``withdraw:defensive``, ``withdraw:close``, ``charge:T``,
``shoot:T``, ``ready``, ``stand``, ``recover``, ``pass``; the defender's ``defend:stand``,
``defend:evade``, ``defend:evade:noparry``, ``defend:repulse``; ``riposte:T`` and
``riposte:decline``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from firefight.core.turns import Action, FightState
from firefight.rulesets.quality_d100.fighters import (
    CLOSE,
    ENGAGED,
    Fighter,
    Pending,
    board_of,
    enemies,
    engaged,
)

if TYPE_CHECKING:
    from firefight.rulesets.quality_d100.encounter import QualityTurns

SPECIAL_WORDS = {
    "trip": "a trip",
    "shield_rush": "a shield rush",
    "knockout": "a knockout blow",
    "disarm": "a disarm",
}


def turn_actions(turns: QualityTurns, state: FightState, c: Fighter) -> list[Action]:
    """What a figure may do on its own turn, the sensible default first (strike the first
    enemy engaged with it, else charge or shoot the first one standing)."""
    me, prof = c.name, turns.profiles[c.name]
    close = engaged(state, me, CLOSE)
    melee = engaged(state, me, ENGAGED)
    out: list[Action] = []
    if c.disarmed:
        out.append(Action("ready", me, f"{me} readies a weapon again", "ready"))
    elif close:
        for t in close:
            label = f"{me} strikes {t} in close combat"
            out.append(Action(f"attack:{t}:close", me, label, "attack", t, params=_p("close")))
    elif melee and not prof.ranged:
        for t in melee:
            out.append(Action(f"attack:{t}", me, f"{me} strikes {t}", "attack", t, params=_p()))
        for t in melee:
            for sp in prof.specials:
                if sp == "disarm" and state.combatant(t).disarmed:
                    continue
                label = f"{me} tries {SPECIAL_WORDS[sp]} on {t}"
                out.append(Action(f"attack:{t}:{sp}", me, label, "attack", t, params=_p(sp=sp)))
        for t in melee:
            label = f"{me} strikes {t} in an offensive withdrawal (-20)"
            params = _p(withdraws=True)
            out.append(Action(f"withdraw:offensive:{t}", me, label, "attack", t, params=params))
    elif not melee:
        board = board_of(state)
        targets = [e for e in enemies(state, me)]
        if prof.ranged:
            for t in targets:
                hexes = board.between(me, t)
                label = f"{me} shoots at {t} ({hexes} hexes)"
                out.append(Action(f"shoot:{t}", me, label, "shoot", t, params=_p("ranged")))
        else:
            for t in targets:
                out.append(Action(f"charge:{t}", me, f"{me} charges {t}", "charge", t, params=_p()))
    if close:
        label = f"{me} tries to withdraw from close combat (D10 + PS)"
        out.append(Action("withdraw:close", me, label, "withdraw", defensive=True))
    elif melee:
        label = f"{me} makes a defensive withdrawal (+20 defence, out at the round's end)"
        out.append(Action("withdraw:defensive", me, label, "withdraw", defensive=True))
    out.append(Action("pass", me, f"{me} passes", "wait"))
    return out


def decisions(turns: QualityTurns, state: FightState, p: Pending) -> tuple[Action, ...]:
    """The choice an exchange waits for: the defender's (stand first), or the riposte's."""
    if p.kind == "riposte":
        me, t = p.attacker, p.target
        return (
            Action(f"riposte:{t}", me, f"{me} ripostes against {t} (Q07)", "attack", t),
            Action("riposte:decline", me, f"{me} lets the riposte go", "wait"),
        )
    me, a = p.target, p.attacker
    c, prof = state.combatant(me), turns.profiles[me]
    # the attacker's blow lands in the defender's step: its harm is credited to the attacker
    label = f"{me} stands and defends against {a}"
    out = [Action("defend:stand", me, label, "defend", a, credit=a)]
    words = "evades (+10 and +4 per rank" if p.mode == "melee" else "evades (+20"
    cost = ", gives up its next action)" if turns.house.evade_costs_next_action else ")"
    out.append(
        Action("defend:evade", me, f"{me} {words}{cost}", "defend", a, defensive=True, credit=a)
    )
    if p.mode == "melee" and not c.disarmed:
        label = f"{me} evades but will not parry"
        out.append(Action("defend:evade:noparry", me, label, "defend", a, defensive=True, credit=a))
    if p.charge and not c.disarmed and not prof.ranged and prof.model.rank >= 1:
        label = f"{me} tries to repulse the charge (D10 at least rank {prof.model.rank})"
        out.append(Action("defend:repulse", me, label, "defend", a, defensive=True, credit=a))
    return tuple(out)


def _p(
    mode: str = "melee", sp: str = "none", withdraws: bool = False
) -> tuple[tuple[str, Any], ...]:
    out: list[tuple[str, Any]] = [("mode", mode)]
    if sp != "none":
        out.append(("special", sp))
    if withdraws:
        out.append(("withdraws", True))
    return tuple(out)


def status_words(c: Fighter) -> str:
    """The figure's condition in the text's words ("ready" when nothing lasts)."""
    if c.status != "ready":
        return str(c.status)
    words = [
        w
        for w, on in (
            ("stunned", c.stunned),
            ("knocked down", c.prone),
            ("disarmed", c.disarmed),
            ("evading", c.evading),
            ("must pass", c.passes),
            ("withdrawing", c.withdrawing),
        )
        if on
    ]
    return ", ".join(words) or "ready"
