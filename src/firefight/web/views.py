"""What each page of the tracker may see of an encounter.

The GM sees everything (the same JSON as ``firefight encounter show --json``). The players' page
sees its own side in full and the other sides only as the GM allows: ``"status"`` gives each
enemy's name, whether it is out, and the fields its ruleset declares public
(:attr:`~firefight.core.turns.Turns.public_keys`: wound state, stance, suppression...), never hit
points, stamina or stats; ``"names"`` gives names only. The players' log holds each step's label
and what changed in what they may see, never the transcript (whose lines name the enemies'
remaining hit points); a GM's edit shows as its kind and who it touched, never a value set.
"""

from __future__ import annotations

from typing import Any, Literal

from firefight.core.layout import ViewLayout
from firefight.core.turns import FightState
from firefight.encounter.fight import combatant_entry
from firefight.encounter.record import Encounter, Step

EnemyDetail = Literal["status", "names"]
ENEMY_DETAILS: tuple[EnemyDetail, ...] = ("status", "names")


def visible_combatants(
    enc: Encounter, state: FightState, side: str, enemy_detail: EnemyDetail
) -> dict[str, dict[str, Any]]:
    """Every combatant as the players of ``side`` may see it in ``state``."""
    engine = enc.engine
    public = engine.turns.public_keys
    out: dict[str, dict[str, Any]] = {}
    for c in state.combatants:
        if c.side == side:
            out[c.name] = combatant_entry(engine, c)
        elif enemy_detail == "names":
            out[c.name] = {"side": c.side}
        else:
            view = engine.turns.view(c)
            out[c.name] = {
                "side": c.side,
                "out": not engine.turns.can_fight(c),
                **{k: view[k] for k in public if k in view},
            }
    return out


def player_log(enc: Encounter, side: str, enemy_detail: EnemyDetail) -> list[dict[str, Any]]:
    """Each step's round, actor and label, and the visible fields it changed."""
    log = []
    before = visible_combatants(enc, enc.states[0], side, enemy_detail)
    for step, state in zip(enc.steps, enc.states[1:], strict=True):
        after = visible_combatants(enc, state, side, enemy_detail)
        changes = _changes(before, after)
        log.append(
            {
                "round": step.round,
                "actor": step.actor,
                "label": _label(step, bool(changes)),
                "changes": changes,
            }
        )
        before = after
    return log


def _label(step: Step, seen: bool) -> str:
    """An action's label, or an edit's words for the players: a field the GM set shows as
    who was changed, and only where the change is one they may see."""
    if step.edit is None:
        return step.label
    if step.edit.get("kind") == "set" and not seen:
        return "GM: an adjustment the players do not see"
    return step.public or step.label


def _changes(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> list[str]:
    lines = []
    for name, now in after.items():
        was = before.get(name, {})
        for key, value in now.items():
            if key != "side" and was.get(key) != value:
                lines.append(f"{name}: {key} {_shown(was.get(key))} -> {_shown(value)}")
    return lines


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) or "none"
    return "-" if value is None else str(value)


#: The engine's keys of a combatant's entry (``combatant_entry``), beside the ruleset's view.
ENGINE_KEYS = ("side", "out", "dead", "harm")


def cards(layout: ViewLayout, combatants: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each combatant's card (:meth:`ViewLayout.card`) from what a page may see of it."""
    return {
        name: layout.card({k: v for k, v in entry.items() if k not in ENGINE_KEYS})
        for name, entry in combatants.items()
    }


def player_view(enc: Encounter, side: str, enemy_detail: EnemyDetail) -> dict[str, Any]:
    """The players' page: order, whose turn, the log, their side in full, enemies as allowed."""
    state = enc.state
    spec = enc.engine.scenario.spec
    seen = visible_combatants(enc, state, side, enemy_detail)
    return {
        "title": spec.title,
        "ruleset": spec.ruleset,
        "side": side,
        "enemy_detail": enemy_detail,
        "round": state.round,
        "phase": state.phase,
        "order": list(state.order),
        "turn": state.acting,
        "ending": state.ending,
        "winner": state.winner,
        "combatants": seen,
        "cards": cards(enc.engine.turns.layout, seen),
        "log": player_log(enc, side, enemy_detail),
    }
