"""tactical_d20 fights on the encounter engine: rounds, the 4-Action turn and the Reaction.

Round 1 rolls Initiative (T01, ``initiative.roll_initiative``); every later round repeats the
order. A creature's turn: its Reaction comes back, its suppression cones lift, a stunned creature
loses the turn, a creature inside an enemy's cone makes its Willpower check; then it spends its 4
Actions one step at a time (``turn.TurnBudget``): attacks (2), moves (1 each, up to its speed,
halved by a leg wound), suppressing fire (4 and the Reaction), leaving a Grapple or Melee (1),
disarm (2), a Body check (1), a free melee attack after moving into reach, or "end turn". The turn
ends by itself when nothing but "end turn" is left. Leaving a Grapple hands the decision to the
other creature for its Reaction attack. Each attack, check and contest is the rule module's own
code (``roll_attack``, ``check_in_cone``, ``roll_contest``) run through ``dice.derive``.

The legal actions are listed in ``encounter_actions`` (the base class), the state is
``encounter_state``, the scenario's own fields ``encounter_setup``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import partial
from typing import Any

from firefight.core.transcript import Note, StateChange
from firefight.core.turns import Action, FightState, GmField, shift_round
from firefight.dice import DiceSource, Weighted, enumerate_outcomes
from firefight.errors import present
from firefight.rulesets.tactical_d20 import encounter_gm as gm
from firefight.rulesets.tactical_d20.attack import AttackOutcome, roll_attack
from firefight.rulesets.tactical_d20.contests import prepare_contest, roll_contest
from firefight.rulesets.tactical_d20.encounter_actions import TacticalBase, remember
from firefight.rulesets.tactical_d20.encounter_state import (
    Board,
    Fighter,
    Lasting,
    Pending,
    Zone,
)
from firefight.rulesets.tactical_d20.initiative import UNRESOLVED, roll_initiative
from firefight.rulesets.tactical_d20.models import (
    SuppressionSituation,
)
from firefight.rulesets.tactical_d20.suppression import (
    PreparedCone,
    check_in_cone,
)
from firefight.rulesets.tactical_d20.turn import TurnBudget, move_distance


class TacticalTurns(TacticalBase):
    """The turn structure of one tactical_d20 scenario (see the module docstring)."""

    def initial(self) -> FightState:
        fighters = []
        for c in self.roster.values():
            f = Fighter(
                name=c.name,
                side=c.side,
                hp=c.creature.hp,
                rounds=c.loaded,
                in_cover=c.cover != "none",
            )
            for cond in c.creature.conditions:
                if cond == "disarmed":
                    f = dataclasses.replace(f, disarmed=True)
                else:  # a wound the fight starts with lasts until a Body check; stun one turn
                    f = f.with_effect(Lasting(cond, 1 if cond == "stunned" else 0))
            fighters.append(f)
        return FightState(0, "start", (), None, tuple(fighters), Board(self.distances))

    def shift_rounds(self, state: FightState, delta: int) -> FightState | None:
        """Rounds after the first are alike (durations count turns, not round numbers)."""
        return shift_round(state, delta)

    def can_fight(self, combatant: Any) -> bool:
        return bool(combatant.hp > 0)

    def harm(self, combatant: Any) -> int:
        return int(self.roster[combatant.name].creature.hp - combatant.hp)

    def conditions(self, combatant: Any) -> frozenset[str]:
        """T05's wound effects (stunned, arm wound, leg wound) and T10's disarmed; a grapple
        and suppression live on the board, which a preview does not read."""
        found = frozenset(e.condition.replace("_", " ") for e in combatant.effects)
        return found | {"disarmed"} if combatant.disarmed else found

    def is_hurt(self, combatant: Any) -> bool:
        return self.harm(combatant) > 0 or bool(combatant.effects)

    def decision_features(self, state: FightState) -> dict[str, Any]:
        """The feet to each enemy still standing."""
        me = state.combatant(state.decider())
        board: Board = state.board
        return {
            f"feet to {c.name}": board.distance(me.name, c.name)
            for c in state.combatants
            if c.side != me.side and self.can_fight(c)
        }

    def view(self, combatant: Any) -> dict[str, Any]:
        f: Fighter = combatant
        c = self.roster[f.name]
        if f.hp <= 0:
            status = "down"
        elif f.has("stunned"):
            status = "stunned"
        else:
            status = "wounded" if f.hp < c.creature.hp or f.effects else "unhurt"
        out: dict[str, Any] = {
            "hit points": f"{f.hp}/{c.creature.hp}",
            "status": status,
            "conditions": ", ".join(e.label() for e in f.effects) or "none",
            "actions left": f.actions,
            "reaction": "ready" if f.reaction else "used",
            "rounds": ", ".join(f"{w} {n}" for w, n in f.rounds) or "none",
            "cover": c.cover if f.in_cover else "none",
        }
        if f.disarmed:
            out["conditions"] = ", ".join(x for x in ("disarmed", out["conditions"]) if x != "none")
        return out

    # -- the GM's hand (encounter_gm) -------------------------------------------------------------
    def gm_fields(self, state: FightState, name: str) -> Mapping[str, GmField]:
        return gm.gm_fields(self, state, name)

    def busy(self, state: FightState) -> str | None:
        return gm.busy(state)

    def pass_turn(self, state: FightState, dice: DiceSource) -> FightState:
        return gm.pass_turn(self, state, dice)

    def end_round(self, state: FightState, dice: DiceSource) -> FightState:
        return gm.end_round(self, state, dice)

    def joined(self, state: FightState, newcomer: Any, start: FightState) -> FightState:
        return gm.joined(state, newcomer, start)

    def left(self, state: FightState, name: str) -> FightState:
        return gm.left(self, state, name)

    # -- rounds and turns -----------------------------------------------------------------------
    def start_round(self, state: FightState, dice: DiceSource) -> FightState:
        order = state.order
        if state.round == 0:
            fighting = [self.roster[c.name].creature for c in state.combatants if c.hp > 0]
            order = roll_initiative(fighting, dice, self.house)
            if order == UNRESOLVED:
                # exact odds only: a same-side tie still unbroken after EXACT_REROLL_DEPTH
                # re-rolls is left out, as the text's other cut-off mass is (truncated)
                return dataclasses.replace(state, round=1, ending="truncated", winner=None)
        else:
            dice.record(Note("the round repeats the Initiative order: " + " > ".join(order), "T01"))
        state = dataclasses.replace(
            state, round=state.round + 1, order=order, phase="turns", acting=None
        )
        if self.house.reaction_returns == "round":
            fresh = tuple(dataclasses.replace(c, reaction=True) for c in state.combatants)
            state = dataclasses.replace(state, combatants=fresh)
        return self._next_turn(state, None, dice)

    def _next_turn(self, state: FightState, after: str | None, dice: DiceSource) -> FightState:
        """Begin the turn of the next creature in order that can act, or end the round."""
        start = 0 if after is None else state.order.index(after) + 1
        for name in state.order[start:]:
            if state.combatant(name).hp <= 0:
                continue
            state = self._begin_turn(state, name, dice)
            if state.acting == name:
                return state
        return dataclasses.replace(state, acting=None, phase="end of round")

    def _begin_turn(self, state: FightState, name: str, dice: DiceSource) -> FightState:
        board: Board = state.board
        lifted = tuple(z for z in board.zones if z.shooter == name)
        if lifted:
            dice.record(Note(f"{name}'s suppressing fire ends: its next turn has come", "T08"))
            board = dataclasses.replace(
                board, zones=tuple(z for z in board.zones if z.shooter != name)
            )
        me = state.combatant(name)
        back = me.reaction or self.house.reaction_returns == "own_turn"
        me = dataclasses.replace(me, actions=self.house.actions_per_turn, reaction=back)
        state = dataclasses.replace(state.with_combatant(me), board=board, acting=name)
        dice.record(Note(f"{name}'s turn: {me.actions} Actions", "T02"))
        if me.has("stunned"):
            dice.record(Note(f"{name} is stunned: no Actions this turn", "T05"))
            return self._end_turn(state, name, dice, pass_on=False)
        for i in range(len(board.zones)):
            zone = state.board.zones[i]  # as the checks before it left it (a move out)
            if name in zone.covers and state.combatant(zone.shooter).hp > 0:
                state, lost = self._cone_check(state, zone, name, dice)
                if lost:
                    return self._end_turn(state, name, dice, pass_on=False)
        return state

    def _end_turn(
        self, state: FightState, name: str, dice: DiceSource, *, pass_on: bool = True
    ) -> FightState:
        me = state.combatant(name)
        done = me.turn_ended()
        for e in me.effects:
            if e not in done.effects and e.condition not in {x.condition for x in done.effects}:
                dice.record(StateChange(name, "condition", e.label(), "-", "T05"))
        state = dataclasses.replace(state.with_combatant(done), acting=None)
        return self._next_turn(state, name, dice) if pass_on else state

    def _cone_check(
        self, state: FightState, zone: Zone, name: str, dice: DiceSource
    ) -> tuple[FightState, bool]:
        """T08 at the start of a turn inside the cone: (state, the turn is lost)."""
        me = state.combatant(name)
        board: Board = state.board
        shooter = self.roster[zone.shooter]
        weapon = shooter.weapon(zone.weapon)
        c = self.roster[name]
        protected = me.in_cover and c.cover in ("light", "heavy")
        situation = SuppressionSituation(
            shooter=zone.shooter,
            weapon=zone.weapon,
            creature=name,
            position="in_area" if protected else "starts_turn_inside",
            distance=min(board.distance(zone.shooter, name), weapon.ranges[0]),
            protected=protected,
        )
        cone = PreparedCone(
            shooter=shooter.creature,
            weapon=weapon,
            creature=self.creature(me, board),
            situation=situation,
            cone_length=weapon.ranges[0],
            dc=self.house.suppress_dc_base + shooter.creature.skill(weapon.proficiency),
            loaded=0,
            house=self.house,
        )
        where = "behind cover" if protected else "unprotected"
        dice.record(Note(f"{name} starts its turn inside {zone.shooter}'s cone, {where}", "T08"))
        key = ("tactical_d20 cone", zone.shooter, zone.weapon, name, protected)
        out = dice.derive(f"{name} in the cone", partial(check_in_cone, cone), key=key)
        if out.result == "partial":
            me = dataclasses.replace(me, hp=me.hp - out.damage)
            state = state.with_combatant(me)
            if me.hp <= 0:
                dice.record(Note(f"{name} is down at {me.hp} hit points", "T08"))
                state = dataclasses.replace(state, board=board.drop(name))
                return self._tidy_groups(state), True
        if out.result != "fail":
            return state, False
        if protected:
            dice.record(Note(f"{name} is pinned: no Actions inside the cone this turn", "T08"))
            return state, True
        me = dataclasses.replace(me, actions=me.actions - self.house.move_actions)
        dice.record(Note(f"{name} spends a move getting out of the cone", "T08"))
        state = dataclasses.replace(state.with_combatant(me), board=board.out_of_zones(name))
        return state, False

    # -- what may be done -----------------------------------------------------------------------
    def act(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        board: Board = state.board
        owner = board.pending.mover if board.pending is not None else action.actor
        if action.kind in ("reaction", "wait") and board.pending is not None:
            return self._resolve_reaction(state, action, dice)
        if action.id == "end_turn":
            return self._end_turn(state, action.actor, dice)
        me = state.combatant(action.actor)
        if action.kind in ("attack", "free"):
            state = self._attack(state, me, action, owner, dice)
        elif action.kind == "move":
            state = self._move(state, me, action, dice)
        elif action.kind == "suppress":
            state = self._suppress(state, me, action, dice)
        elif action.kind == "exit":
            state = self._exit(state, me, dice)
        elif action.kind == "disarm":
            state = self._disarm(state, me, action, dice)
        elif action.kind == "recover":
            state = self._body_check(state, me, action, dice)
        return self._after(state, owner, dice)

    def _spend(self, me: Fighter, cost: int, what: str, dice: DiceSource) -> Fighter:
        budget = TurnBudget(self.house, me.actions, me.reaction).spend(cost, what)
        dice.record(Note(f"{me.name}: {what}, {cost} Action(s), {budget.actions} left", "T02"))
        return dataclasses.replace(me, actions=budget.actions)

    def _after(self, state: FightState, owner: str, dice: DiceSource) -> FightState:
        """Pass the turn on when its owner is down, stunned (a Reaction attack in its own turn)
        or has nothing left but "end turn"."""
        state = self._tidy_groups(state)
        board: Board = state.board
        if board.pending is not None:
            return dataclasses.replace(state, acting=board.pending.reactor, phase="reaction")
        state = dataclasses.replace(state, acting=owner, phase="turns")
        if len({c.side for c in state.combatants if c.hp > 0}) <= 1:
            return state
        me = state.combatant(owner)
        if me.hp <= 0 or me.has("stunned") or not self._has_option(state, owner):
            return self._end_turn(state, owner, dice)
        return state

    def _tidy_groups(self, state: FightState) -> FightState:
        """A Grapple or Melee left with no enemies in it (the last one went down or left) breaks
        up: its members are free again, where they stand (reading; the text pairs foes)."""
        board: Board = state.board
        keep = tuple(g for g in board.groups if len({state.combatant(n).side for n in g}) > 1)
        if keep == board.groups:
            return state
        return dataclasses.replace(state, board=dataclasses.replace(board, groups=keep))

    def _attack(
        self, state: FightState, me: Fighter, action: Action, owner: str, dice: DiceSource
    ) -> FightState:
        board: Board = state.board
        weapon = self.roster[me.name].weapon(action.param("weapon"))
        targets: tuple[str, ...] = action.param("targets")
        free = action.kind == "free"
        reaction = action.kind == "reaction"
        p = self._prepared(
            state,
            me,
            targets,
            weapon,
            mode=action.param("mode"),
            region=action.param("region"),
            free=free,
        )
        p = present(p, f"action {action.id} is not an attack this creature can make now")
        if free:
            dice.record(Note(f"{me.name}: melee attack as a Free Action after moving", "T09"))
            me = dataclasses.replace(me, closed_on="")
        elif reaction:
            dice.record(Note(f"{me.name} uses its Reaction to attack", "T09"))
            me = dataclasses.replace(me, reaction=False)
        else:
            me = self._spend(me, self.house.attack_actions, "attack", dice)
        f = p.fields
        key = (
            "tactical_d20 attack",
            me.name,
            targets,
            weapon.name,
            f.mode,
            f.ammo,
            f.region,
            f.distance,
            f.cover,
            tuple(m.value for m in p.modifiers),
            p.dodge,
        )
        out: AttackOutcome = dice.derive(
            action.label,
            partial(roll_attack, p),
            key=key,
            exact=partial(self._exact_attack, key, p),
        )
        if p.rounds:
            me = me.with_rounds(weapon.name, me.loaded(weapon.name) - p.rounds)
        state = state.with_combatant(me)
        if not weapon.is_ranged:
            target = targets[0]
            if board.group_of(me.name) != board.group_of(target) or not board.group_of(target):
                board = board.join(me.name, target)
                group = board.group_of(me.name)
                if len(group) > 2:
                    dice.record(Note(f"a Melee of {', '.join(group)}", "T09"))
                for n in (me.name, target):
                    state = state.with_combatant(
                        dataclasses.replace(state.combatant(n), in_cover=False)
                    )
                me = state.combatant(me.name)
                if me.closed_on == target:
                    state = state.with_combatant(dataclasses.replace(me, closed_on=""))
        if out.hit and not out.stopped:
            hit = state.combatant(out.member)
            hit = dataclasses.replace(hit, hp=hit.hp - out.damage)
            for e in out.effects:
                own = hit.name == owner and self.house.own_turn_effects_last == "next_turn"
                turns = 0 if "Body check" in e.until else (2 if own else 1)
                hit = hit.with_effect(Lasting(e.condition, turns))
            state = state.with_combatant(hit)
            if hit.hp <= 0:
                dice.record(Note(f"{hit.name} is down at {hit.hp} hit points", "T03"))
                board = board.drop(hit.name)
        return dataclasses.replace(state, board=board)

    def _exact_attack(self, key: Any, p: Any) -> Weighted[AttackOutcome]:
        """The attack's exact outcomes, kept across previews (the key holds all it depends on)."""
        found = self._attacks.get(key)
        if found is None:
            found = enumerate_outcomes(partial(roll_attack, p))
            remember(self._attacks, key, found)
        return found

    def _move(self, state: FightState, me: Fighter, action: Action, dice: DiceSource) -> FightState:
        board: Board = state.board
        target = present(action.target, f"action {action.id} names no target")
        feet = move_distance(self.creature(me, board), self.house)
        me = self._spend(me, self.house.move_actions, "move", dice)
        old = board.distance(me.name, target)
        closing = action.id.startswith("close:")
        new = max(self.house.melee_reach, old - feet) if closing else old + feet
        board = board.moved(me.name, target, new).out_of_zones(me.name)
        verb = "closes on" if closing else "falls back from"
        dice.record(Note(f"{me.name} {verb} {target}: {old} ft -> {new} ft", "T04"))
        if me.in_cover and self.roster[me.name].cover != "none":
            dice.record(StateChange(me.name, "cover", self.roster[me.name].cover, "none", "T11"))
        me = dataclasses.replace(me, in_cover=False)
        if closing and new <= self.house.melee_reach < old:
            me = dataclasses.replace(me, closed_on=target)
            dice.record(Note(f"{me.name} is within reach of {target}: a free melee attack", "T09"))
        elif not closing:
            me = dataclasses.replace(me, closed_on="")
        return dataclasses.replace(state.with_combatant(me), board=board)

    def _suppress(
        self, state: FightState, me: Fighter, action: Action, dice: DiceSource
    ) -> FightState:
        board: Board = state.board
        weapon = self.roster[me.name].weapon(action.param("weapon"))
        target = present(action.target, f"action {action.id} names no target")
        covers = self._cone(state, me.name, target, weapon)
        me = self._spend(me, self.house.suppress_actions, "suppressing fire", dice)
        left = me.loaded(weapon.name) - self.house.suppress_rounds
        dice.record(StateChange(weapon.name, "rounds loaded", me.loaded(weapon.name), left, "T08"))
        dice.record(Note(f"{me.name} uses its Reaction for the suppressing fire", "T08"))
        dice.record(
            Note(
                f"the cone reaches {weapon.ranges[0]} ft and covers {', '.join(covers)} "
                f"until {me.name}'s next turn",
                "T08",
            )
        )
        me = dataclasses.replace(me.with_rounds(weapon.name, left), reaction=False, closed_on="")
        zone = Zone(me.name, weapon.name, covers)
        board = dataclasses.replace(board, zones=(*board.zones, zone))
        return dataclasses.replace(state.with_combatant(me), board=board)

    def _exit(self, state: FightState, me: Fighter, dice: DiceSource) -> FightState:
        board: Board = state.board
        group = board.group_of(me.name)
        me = self._spend(me, self.house.exit_grapple_actions, "leave the group", dice)
        state = state.with_combatant(me)
        if len(group) == 2:
            other = state.combatant(next(n for n in group if n != me.name))
            dice.record(
                Note(f"{me.name} leaves the Grapple: {other.name} may attack as a Reaction", "T09")
            )
            if other.reaction and not other.has("stunned") and other.hp > 0:
                pending = Pending(other.name, me.name)
                return dataclasses.replace(state, board=dataclasses.replace(board, pending=pending))
            dice.record(Note(f"{other.name} has no Reaction to use", "T09"))
        else:
            dice.record(Note(f"{me.name} leaves the Melee: no opportunity attack", "T09"))
        board = board.leave(me.name, self.house.melee_reach)
        return dataclasses.replace(state, board=board)

    def _resolve_reaction(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        board: Board = state.board
        pending = present(board.pending, "no move is waiting for a reaction (T09)")
        mover = pending.mover
        if action.kind == "reaction":
            state = self._attack(state, state.combatant(action.actor), action, mover, dice)
            board = state.board
        else:
            dice.record(Note(f"{action.actor} lets {mover} go", "T09"))
        board = dataclasses.replace(board, pending=None)
        if state.combatant(mover).hp > 0:
            board = board.leave(mover, self.house.melee_reach)
        state = dataclasses.replace(state, board=board)
        return self._after(state, mover, dice)

    def _disarm(
        self, state: FightState, me: Fighter, action: Action, dice: DiceSource
    ) -> FightState:
        board: Board = state.board
        foe = state.combatant(present(action.target, f"action {action.id} names no target"))
        contest = prepare_contest(
            "disarm",
            self.creature(me, board),
            self.creature(foe, board),
            board.distance(me.name, foe.name),
            self.house,
        )
        me = self._spend(me, self.house.melee_action_actions, "disarm", dice)
        state = state.with_combatant(me)
        key = ("tactical_d20 contest", "disarm", me.name, foe.name)
        won = dice.derive(action.label, partial(roll_contest, contest), key=key).success
        if won:
            state = state.with_combatant(dataclasses.replace(foe, disarmed=True))
        return state

    def _body_check(
        self, state: FightState, me: Fighter, action: Action, dice: DiceSource
    ) -> FightState:
        board: Board = state.board
        condition = action.param("condition")
        contest = prepare_contest("body_check", self.creature(me, board), None, 0, self.house)
        me = self._spend(me, self.house.body_check_actions, "Body check", dice)
        key = ("tactical_d20 contest", "body_check", me.name)
        if dice.derive(action.label, partial(roll_contest, contest), key=key).success:
            dice.record(StateChange(me.name, "condition", condition, "-", "T05"))
            me = me.without(condition)
        return state.with_combatant(me)
