"""warfare2d20's turn structure for the encounter engine: rounds, initiative, actions, state.

The text's round is ten seconds "simply a unit of time to measure character fatigue"; this module
reads it as follows (each reading is named in ``docs/rules/warfare2d20.md``, Encounters):

- **W10 initiative** is rolled when the confrontation starts (round 1), not every round (house
  ``initiative_each_round`` rolls it every round): 2d10 under mettle, ambushers first with no
  roll, then passes by lowest roll, then failures. A pass by 7 or more ("exceptionally well")
  gives one ``signal``: the combatant's allies take aim on his command, at no action of theirs.
- **W11 actions**: each combatant may take up to dexterity // 4 actions a round. They take them
  one at a time in initiative order, round and round, until everyone has used them up or stopped
  (``done``). At the round's end each combatant's heart rate comes from what it did (its
  movement that round and the number of actions it took, :func:`fatigue_round`); out of breath,
  the next round's rolls take the named ``out of breath`` delta modifier.
- **W05 suppression**: a shocked target that fails its mettle check takes cover (-6 delta t
  against it) and loses its remaining actions this round and every action of the next
  ``suppression_rounds`` (1) rounds; it lifts at the end of that round.
- **W03/W04 cover**: cover held (battlefield) gives its delta c and soak; ``move_to_cover``
  (defensive) is an action at the house pace (sprinting: the M249 example's +6), -2 delta t
  against the mover for the rest of the round, and the cover is reached at the round's end;
  ``take_cover`` (defensive) is -6 delta t until the combatant acts again, and ends its round.
- A burst at two enemies is one action with one shared attacker roll; a mortar round strikes
  everyone in its blast against one mortar roll. Both are resolved target by target as decision
  points of the firer (the board holds the shared roll), so an exact kernel stays small; an odds
  preview (``preview_act``) reads only the first target, with the shared roll summed out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from firefight.core.layout import Condition, ViewLayout, Vital
from firefight.core.transcript import Note, StateChange
from firefight.core.turns import Action, FightState, GmField, ScenarioSpec, Turns, Unread
from firefight.core.validation import field_type
from firefight.dice import DiceSource, ScriptedDice
from firefight.errors import present
from firefight.rulesets.warfare2d20.attack import TargetOutcome
from firefight.rulesets.warfare2d20.encounter_actions import (
    PACES,
    Actions,
    Soldier,
    Volley,
    put,
    updated,
)
from firefight.rulesets.warfare2d20.fatigue import (
    TEXTLESS,
    RoundFatigue,
    breath_limit,
    fatigue_round,
)
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.initiative import acting_order, roll_initiative
from firefight.rulesets.warfare2d20.models import Status
from firefight.rulesets.warfare2d20.roster import (
    FighterFields,
    catalog_for,
    check_ranges,
    load_fighters,
)

_SUPPRESSED = frozenset({"suppressed"})
_NO_CONDITIONS: frozenset[str] = frozenset()


class Warfare2d20Turns(Actions, Turns):
    state_types: ClassVar[tuple[type, ...]] = (Soldier, Volley, RoundFatigue)
    public_keys: ClassVar[tuple[str, ...]] = ("status", "suppressed", "stance", "cover")
    layout: ClassVar[ViewLayout] = ViewLayout(
        vital=(Vital("hit points"), Vital("stamina")),
        conditions=(
            Condition("status", named=False),
            Condition("suppressed"),
            Condition("stance", named=False),
            Condition("cover"),
            Condition("out of breath"),
            Condition("aiming"),
            Condition("smoke"),
        ),
    )
    #: Hit points: read by a shot only as the damage it takes off them, 0 or below a kill (W09);
    #: stamina: only up to the pain threshold (W08, :meth:`counter_cap`).
    counters: ClassVar[tuple[str, ...]] = ("hit_points", "stamina")

    def __init__(self, spec: ScenarioSpec) -> None:
        super().__init__(spec)
        house = spec.house
        if not isinstance(house, Warfare2d20House):  # the engine loads the ruleset's model
            raise spec.fail("house", "not warfare2d20 house rules")
        self.house = house
        self.fighters = {f.name: f for f in load_fighters(spec, catalog_for(spec), house)}
        self._situations = {}
        self._blasts = {}
        check_ranges(spec, tuple(self.fighters.values()))
        #: Each combatant as the fight starts (what ``Engine.masked`` sets unread fields to).
        self._first = self.initial().combatants
        sides = [c.side for c in self._first]
        self._alone = tuple(
            (i, ("initiative",)) for i, s in enumerate(sides) if sides.count(s) == 1
        )

    # -- the protocol ------------------------------------------------------------------------
    def initial(self) -> FightState:
        people = tuple(
            Soldier(
                f.name,
                f.side,
                f.hit_points,
                f.stamina,
                "unhurt" if f.hit_points == f.stats.hit_points else "wounded",
                cover=f.cover_start.name if f.cover_start else None,
                movement=f.movement,
                smoke_grenades=f.smoke_grenades,
                mortar_rounds=f.mortar_rounds,
            )
            for f in self.fighters.values()
        )
        return FightState(0, "start", (), None, people)

    def start_round(self, state: FightState, dice: DiceSource) -> FightState:
        r = state.round + 1
        people = tuple(
            updated(c, actions=0, done=False, movement=self._pace(c)) for c in state.combatants
        )
        order = state.order
        if r == 1 or self.house.initiative_each_round:
            people, order = self._initiative(people, r, dice)
        state = FightState(r, "actions", order, None, people)
        first = self._next(state, None)
        if first is None:
            return self._end_round(state, dice)
        return updated(state, acting=first)

    def legal_actions(self, state: FightState) -> tuple[Action, ...]:
        me = state.combatant(present(state.acting, "no one is acting: start a round first"))
        if isinstance(state.board, Volley):
            v = state.board
            nxt = v.targets[0]
            what = "the burst" if v.kind == "burst" else "the blast"
            label = f"{me.name}: {what} on {nxt} (same roll, {v.total})"
            return (Action(f"{v.kind}:{nxt}", me.name, label, "resolve", target=nxt),)
        f = self.fighters[me.name]
        gun = f.weapon
        enemies = self._enemies(state, me)
        acts: list[Action] = []
        for t in enemies:
            band = self._band(me.name, t.name)
            at = f" ({band} range)" if band else ""
            for mode in gun.fire_modes:
                acts.append(
                    Action(
                        f"fire:{t.name}:{mode}",
                        me.name,
                        f"{me.name} fires the {gun.name} ({mode}) at {t.name}{at}",
                        "attack",
                        target=t.name,
                        params=(("mode", mode),),
                    )
                )
        pair = self._burst_pair(me, enemies)
        for mode, fm in gun.fire_modes.items():
            if pair and fm.delta_s > 0:
                acts.append(
                    Action(
                        f"burst:{mode}",
                        me.name,
                        f"{me.name} sweeps {pair[0]} and {pair[1]} with the {gun.name} ({mode}): "
                        "one shared roll",
                        "attack",
                        target=pair[0],
                        params=(("mode", mode), ("targets", pair)),
                    )
                )
        if not me.aiming and f.aim_level != "none":
            acts.append(Action("aim", me.name, f"{me.name} takes aim ({f.aim})", "aim"))
        if me.initiative == "exceptionally well" and not me.signalled and self._allies(state, me):
            label = f"{me.name} signals his side to take aim and fire on his command"
            acts.append(Action("signal", me.name, label, "signal"))
        if me.smoke_grenades:
            for t in enemies:
                label = f"{me.name} throws a smoke grenade at {t.name}"
                acts.append(Action(f"smoke:{t.name}", me.name, label, "throw", target=t.name))
        if me.mortar_rounds and f.mortar:
            for t in enemies:
                label = f"{me.name} calls a {f.mortar} round on {t.name}"
                acts.append(Action(f"mortar:{t.name}", me.name, label, "mortar", target=t.name))
        nearby = f.cover_nearby
        if nearby and me.cover != nearby.name and me.stance != "moving to cover":
            label = f"{me.name} moves to cover behind the {nearby.name}"
            acts.append(Action("move_to_cover", me.name, label, "move", defensive=True))
        if me.stance != "taking cover":
            label = f"{me.name} takes cover and keeps his head down"
            acts.append(Action("take_cover", me.name, label, "defend", defensive=True))
        acts.append(Action("done", me.name, f"{me.name} takes no more actions this round", "wait"))
        return tuple(acts)

    def act(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        return self._act(state, action, dice, whole=True)

    def preview_act(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        """``act``, but a burst or mortar round that goes on to further targets stops at its
        first with the shared roll summed out (rolled inside that target's own roll, as for a
        lone target: the same distribution of its outcome, ~50 branches instead of ~2,000 pairs
        of roll and outcome); the board's volley keeps no roll (None)."""
        return self._act(state, action, dice, whole=False)

    def _act(self, state: FightState, action: Action, dice: DiceSource, whole: bool) -> FightState:
        me = state.combatant(action.actor)
        if isinstance(state.board, Volley):
            state = self._volley_step(state, dice)
            if state.board is not None:
                return state
            return self._pass_on(state, me.name, dice)
        kind = action.kind
        if kind == "wait":
            dice.record(Note(f"{me.name} takes no more actions this round ({me.actions})", "W11"))
            return self._pass_on(put(state, updated(me, done=True)), me.name, dice)
        used = _spent(me)
        if kind == "attack":
            state = self._fire(state, me, updated(used, aiming=False), action, dice, whole)
        elif kind == "aim":
            dice.record(Note(f"{me.name} takes aim: the next shot is aimed", "W02"))
            state = put(state, updated(used, aiming=True))
        elif kind == "signal":
            state = self._signal(state, updated(used, signalled=True), dice)
        elif kind == "throw":
            state = self._smoke(
                state, me, updated(used, smoke_grenades=me.smoke_grenades - 1), action, dice
            )
        elif kind == "mortar":
            state = self._mortar(
                state, me, updated(used, mortar_rounds=me.mortar_rounds - 1), action, dice, whole
            )
        elif kind == "move":
            pace = max(self.house.moving_to_cover_pace, me.movement, key=PACES.index)
            dice.record(
                Note(
                    f"{me.name} {pace} to cover: {self.house.moving_to_cover:+d} delta t "
                    "against him this round",
                    "W03",
                )
            )
            moving = updated(
                used, stance="moving to cover", cover=None, movement=pace, aiming=False
            )
            state = put(state, moving)
        else:  # "defend": take cover
            h = self.house.taking_cover
            dice.record(Note(f"{me.name} takes cover: {h:+d} delta t until he acts again", "W03"))
            state = put(state, updated(used, stance="taking cover", done=True))
        if isinstance(state.board, Volley):
            return state
        return self._pass_on(state, me.name, dice)

    def is_dead(self, combatant: Any) -> bool:
        return bool(combatant.status == "dead")

    def shift_rounds(self, state: FightState, delta: int) -> FightState | None:
        """Initiative is rolled from round 0 alone; suppression and smoke (ending with a round
        number, 0 for none) move with the round."""
        if state.round + delta < 1:
            return None
        people = tuple(_moved(c, delta) for c in state.combatants)
        board = state.board
        if isinstance(board, Volley):
            board = updated(board, shooter=_moved(board.shooter, delta))
        return updated(state, round=state.round + delta, combatants=people, board=board)

    def unread(self, state: FightState, action: Action) -> Unread | None:
        """Hit points and stamina are read only by an attack on their owner (W08, W09); a
        status only by ``can_fight`` unless its owner is attacked (any status of one still
        fighting answers the same); the W10 result only by ``legal_actions`` (the signal),
        and rewritten only where initiative is rolled each round. A burst or mortar round
        keeps its firer whole on the board: nothing promised there."""
        if state.board is not None or action.kind == "mortar" or action.param("targets"):
            return None
        each_round = self.house.initiative_each_round
        out = []
        for i, c in enumerate(state.combatants):
            names: tuple[str, ...] = () if each_round else ("initiative",)
            if c.name != action.target:
                names += ("hit_points", "stamina")
                if self.can_fight(c) and self.can_fight(self._first[i]):
                    names += ("status",)
            out.append((i, names))
        return tuple(out)

    def stand_in(self, state: FightState, action: Action) -> FightState | None:
        """A shot at one target reads the target's hit points and stamina only through the
        damage it takes off them (W08, W09): the same shot at him with hit points no hit can
        exhaust and stamina cut to his pain threshold (all a hit absorbs) draws the same
        stamina and hit points lost, the same endurance check and the same suppression. A
        target it would kill is put down by :meth:`carry` (the check is then not made; drawn
        in the stand-in's step, it changes nothing). Not for a burst or mortar round (several
        targets), nor where initiative is rolled each round (a round begun after a kill)."""
        if (
            action.kind != "attack"
            or action.param("targets")
            or state.board is not None
            or self.house.initiative_each_round
        ):
            return None
        t = state.combatant(str(action.target))
        threshold = self.fighters[t.name].stats.pain_threshold
        deep = updated(t, hit_points=_DEEP, stamina=min(t.stamina, threshold))
        return put(state, deep)

    def carry(
        self, state: FightState, action: Action, stand_in: FightState, after: FightState
    ) -> FightState:
        """The stand-in's outcome on the target's own hit points and stamina: the same losses;
        where they leave him none, the shot killed him (W09), and the turn passes on from
        there (the engine settles it: the fight or the round may end)."""
        name = str(action.target)
        i = next(k for k, c in enumerate(state.combatants) if c.name == name)
        own, was, hit = state.combatants[i], stand_in.combatants[i], after.combatants[i]
        hp_lost, stamina_lost = was.hit_points - hit.hit_points, was.stamina - hit.stamina
        if own.hit_points - hp_lost > 0:
            if hit is was:  # the shot left him as he was
                back = own
            else:
                back = updated(
                    hit, hit_points=own.hit_points - hp_lost, stamina=own.stamina - stamina_lost
                )
            people = after.combatants
            return updated(after, combatants=(*people[:i], back, *people[i + 1 :]))
        me = state.combatant(action.actor)
        quiet = ScriptedDice(())  # the rest rolls nothing: notes only
        killed = TargetOutcome(name, "hit", False, False, 0, stamina_lost, hp_lost, "dead")
        shot = self._apply(put(state, updated(_spent(me), aiming=False)), killed, quiet)
        return self._pass_on(shot, me.name, quiet)

    def counter_cap(self, combatant: Any, field: str) -> int | None:
        """Stamina: a hit absorbs at most the pain threshold of it (W08), so a shot reads it
        only up to that (the stand-in cuts it there); it is nobody's kill."""
        if field == "stamina":
            return int(self.fighters[combatant.name].stats.pain_threshold)
        return None

    def idle(self, state: FightState) -> Unread | None:
        """The W10 result of a combatant with no allies in the scenario: only the signal reads
        it, and the signal needs allies."""
        return self._alone or None

    def harm(self, combatant: Any) -> int:
        """Damage taken: stamina and hit points lost (W08)."""
        f = self.fighters[combatant.name]
        return int(f.stats.hit_points - combatant.hit_points + f.stats.stamina - combatant.stamina)

    def is_hurt(self, combatant: Any) -> bool:
        f = self.fighters[combatant.name]
        return bool(combatant.hit_points < f.stats.hit_points or combatant.suppressed_until)

    def conditions(self, combatant: Any) -> frozenset[str]:
        """W05: suppressed (a failed mettle check under fire)."""
        return _SUPPRESSED if combatant.suppressed_until else _NO_CONDITIONS

    def alike(self, state: FightState, first: Action, second: Action) -> str | None:
        """Two rates of fire at the same target (W03, W02, W05): what the second's delta t
        gains its recoil takes back, and its shock margin changes nothing here; or a burst at
        several targets, whose step strikes the first alone."""
        if first.kind != second.kind or first.target != second.target:
            return None
        later = [t for a in (first, second) for t in (a.param("targets") or ())[1:]]
        if later:  # a burst at several targets strikes them one step each
            return f"this step strikes {first.target} alone; {', '.join(later)} in the next"
        modes = self.fighters[first.actor].weapon.fire_modes
        one, two = modes.get(str(first.param("mode"))), modes.get(str(second.param("mode")))
        if one is None or two is None:
            return None
        gain = two.delta_t - one.delta_t
        if gain != two.recoil - one.recoil:
            return None
        said = (
            f"its {gain:+d} delta t is taken back by its {gain:+d} recoil"
            if gain
            else "no more delta t"
        )
        if two.delta_s != one.delta_s:
            said += f", and its delta s {two.delta_s} cannot shock anyone here"
        return said

    def decision_features(self, state: FightState) -> dict[str, Any]:
        """The range band to each enemy still standing (the battlefield's)."""
        me = state.combatant(state.decider())
        out: dict[str, Any] = {}
        for c in state.combatants:
            if c.side != me.side and self.can_fight(c):
                band = self._band(me.name, c.name)
                if band:
                    out[f"range to {c.name}"] = band
        return out

    def view(self, combatant: Any) -> dict[str, Any]:
        c: Soldier = combatant
        f = self.fighters[c.name]
        penalty = c.fatigue.next_round_penalty if c.fatigue else 0
        out: dict[str, Any] = {
            "hit points": f"{c.hit_points}/{f.stats.hit_points}",
            "stamina": f"{c.stamina}/{f.stats.stamina}",
            "status": c.status,
            "suppressed": bool(c.suppressed_until),
            "stance": c.stance,
            "cover": c.cover or "none",
            "actions": f"{c.actions}/{f.actions}",
            "movement": c.movement,
            "heart rate": c.fatigue.heart_rate_after_rest if c.fatigue else TEXTLESS.base["still"],
            "out of breath": f"+{penalty} delta" if penalty else "no",
            "aiming": c.aiming,
            "initiative": c.initiative or "-",
        }
        if c.suppressed_until:
            out["suppressed until"] = f"end of round {c.suppressed_until}"
        if c.smoked_until:
            out["smoke"] = f"until the end of round {c.smoked_until}"
        if f.smoke_grenades:
            out["smoke grenades"] = c.smoke_grenades
        if f.mortar:
            out["mortar rounds"] = c.mortar_rounds
        return out

    # -- the GM's hand ------------------------------------------------------------------------
    def gm_fields(self, state: FightState, name: str) -> Mapping[str, GmField]:
        """Hit points (1 up to the combatant's own; a GM who puts one down sets ``status``),
        stamina, the W09 status, stance and cover (the covers it knows: held at the start or
        reached by a move), suppression (until the end of a round), aim, grenades, rounds."""
        f = self.fighters[name]
        covers = tuple(p.name for p in (f.cover_start, f.cover_nearby) if p is not None)
        fields = {
            "hit_points": GmField(Annotated[int, Field(ge=1, le=f.stats.hit_points)]),
            "stamina": GmField(Annotated[int, Field(ge=0, le=f.stats.stamina)]),
            "status": GmField(Status),
            "stance": GmField(Literal["none", "moving to cover", "taking cover"]),
            "suppressed_until": GmField(Annotated[int, Field(ge=0, le=10_000)]),
            "aiming": GmField(bool),
            "smoke_grenades": GmField(field_type(FighterFields, "smoke_grenades")),
            "mortar_rounds": GmField(field_type(FighterFields, "mortar_rounds")),
        }
        if covers:
            fields["cover"] = GmField(Literal[covers] | None)
        return fields

    def busy(self, state: FightState) -> str | None:
        if isinstance(state.board, Volley):
            return f"{state.board.shooter.name}'s {state.board.kind} is resolved target by target"
        return None

    def pass_turn(self, state: FightState, dice: DiceSource) -> FightState:
        """As "done": the combatant takes no more actions this round (W11)."""
        me = state.combatant(state.decider())
        return self._pass_on(put(state, updated(me, done=True)), me.name, dice)

    def end_round(self, state: FightState, dice: DiceSource) -> FightState:
        """The round's end as the last action brings it: fatigue, cover reached, suppression
        and smoke lifted (W03, W05, W11, W13)."""
        return self._end_round(state, dice)

    # -- rounds ------------------------------------------------------------------------------
    def _initiative(
        self, people: tuple[Soldier, ...], r: int, dice: DiceSource
    ) -> tuple[tuple[Soldier, ...], tuple[str, ...]]:
        """W10 for everyone still in the fight; ambushers only when the confrontation starts."""
        results = []
        for c in people:
            if self.can_fight(c):
                f = self.fighters[c.name]
                results.append(roll_initiative(dice, f.stats, self.house, f.ambusher and r == 1))
        ranked = acting_order(results)
        by_name = {x.name: x for x in ranked}
        order = tuple(x.name for x in ranked) + tuple(
            c.name for c in people if c.name not in by_name
        )
        dice.record(Note("acting order: " + ", ".join(order), "W10"))
        new = []
        for c in people:
            x = by_name.get(c.name)
            if x is not None:
                word = "passed" if x.passed else "failed"
                if x.roll is None:
                    word = "ambush"
                elif x.exceptional:
                    word = "exceptionally well"
                c = updated(c, initiative=word)
                c = updated(c, signalled=False)
            new.append(c)
        return tuple(new), order

    def _pace(self, c: Soldier) -> str:
        """The round's movement: the combatant's pace, or still while pinned or down in cover."""
        if c.suppressed_until or c.stance == "taking cover":
            return "still"
        return self.fighters[c.name].movement

    def _may_act(self, c: Soldier) -> bool:
        return (
            self.can_fight(c)
            and not c.suppressed_until
            and not c.done
            and c.actions < self.fighters[c.name].actions
        )

    def _next(self, state: FightState, after: str | None) -> str | None:
        """The next combatant in initiative order who may still act this round (W10, W11)."""
        order = state.order
        start = 0 if after is None else order.index(after) + 1
        for k in range(len(order)):
            c = state.combatant(order[(start + k) % len(order)])
            if self._may_act(c):
                return str(c.name)
        return None

    def _pass_on(self, state: FightState, actor: str, dice: DiceSource) -> FightState:
        nxt = self._next(state, actor)
        if nxt is None:
            return self._end_round(state, dice)
        return updated(state, acting=nxt)

    def _end_round(self, state: FightState, dice: DiceSource) -> FightState:
        """Fatigue from what each did (W11); cover reached (W03); suppression, smoke lift."""
        r = state.round
        people = []
        for c in state.combatants:
            f = self.fighters[c.name]
            if self.can_fight(c):
                carried = c.fatigue.heart_rate_after_rest if c.fatigue else None
                fat = fatigue_round(f.stats, c.movement, c.actions, carried, "still")
                dice.record(
                    Note(
                        f"{c.name}: {c.actions} action(s), {c.movement}: heart rate "
                        f"{fat.heart_rate} (breath limit {breath_limit(f.stats)})",
                        "W11",
                    )
                )
                if fat.out_of_breath:
                    dice.record(
                        Note(
                            f"{c.name} is out of breath: "
                            f"+{fat.next_round_penalty} delta next round",
                            "W11",
                        )
                    )
                c = updated(c, fatigue=fat)
            if c.stance == "moving to cover" and f.cover_nearby is not None:
                dice.record(StateChange(c.name, "cover", "none", f.cover_nearby.name, "W04"))
                c = updated(c, stance="none", cover=f.cover_nearby.name)
            if c.suppressed_until and c.suppressed_until <= r:
                dice.record(StateChange(c.name, "suppressed", True, False, "W05"))
                c = updated(c, suppressed_until=0)
            if c.smoked_until and c.smoked_until <= r:
                dice.record(Note(f"the smoke on {c.name}'s position clears", "W13"))
                c = updated(c, smoked_until=0)
            people.append(c)
        return updated(state, combatants=tuple(people), acting=None, phase="end of round")


#: Hit points of a stand-in target (:meth:`Warfare2d20Turns.stand_in`): more than any hit takes.
_DEEP = 1 << 30


def _spent(me: Soldier) -> Soldier:
    """An action taken (W11): counted, and cover taken given up (W03)."""
    return updated(
        me, actions=me.actions + 1, stance="none" if me.stance == "taking cover" else me.stance
    )


def _moved(c: Soldier, delta: int) -> Soldier:
    """The soldier with its round numbers moved ``delta`` rounds on."""
    if not (c.suppressed_until or c.smoked_until):
        return c
    return updated(
        c,
        suppressed_until=c.suppressed_until and c.suppressed_until + delta,
        smoked_until=c.smoked_until and c.smoked_until + delta,
    )
