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
- **W03/W04 cover**: cover held (battlefield) gives its delta c and soak; ``move to cover``
  (defensive) is an action at the house pace (sprinting: the M249 example's +6), -2 delta t
  against the mover for the rest of the round, and the cover is reached at the round's end;
  ``take cover`` (defensive) is -6 delta t until the combatant acts again, and ends its round.
- A burst at two enemies is one action with one shared attacker roll; a mortar round strikes
  everyone in its blast against one mortar roll. Both are resolved target by target as decision
  points of the firer (the board holds the shared roll), so an exact preview stays small.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from firefight.core.transcript import Note, StateChange
from firefight.core.turns import Action, FightState, ScenarioSpec, Turns
from firefight.dice import DiceSource
from firefight.rulesets.warfare2d20.attack import TargetOutcome, open_attack, resolve_target
from firefight.rulesets.warfare2d20.fatigue import (
    TEXTLESS,
    RoundFatigue,
    breath_limit,
    breath_modifier,
    fatigue_round,
)
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.initiative import acting_order, roll_initiative
from firefight.rulesets.warfare2d20.mortar import resolve_mortar, roll_mortar, zone_of, zones
from firefight.rulesets.warfare2d20.roster import (
    catalog_for,
    check_ranges,
    load_fighters,
)
from firefight.rulesets.warfare2d20.situation import Attack, Mortar, Target, Thrown
from firefight.rulesets.warfare2d20.thrown import resolve_throw
from firefight.rulesets.warfare2d20.wounds import STATUSES

OUT = ("unconscious", "dead")
T = TypeVar("T")


def _set(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` without running ``__init__`` again: the states are plain frozen
    records, and an exact preview replaces them thousands of times."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__, **changes)
    return new


def _put(state: FightState, c: Soldier) -> FightState:
    """``state.with_combatant(c)`` by :func:`_set`."""
    return _set(state, combatants=tuple(c if x.name == c.name else x for x in state.combatants))


PACES = ("still", "walking", "running", "sprinting")


@dataclass(frozen=True)
class Soldier:
    """One combatant's changing state (the rest is its :class:`Fighter`)."""

    name: str
    side: str
    hit_points: int
    stamina: int
    status: str = "unhurt"
    #: W10: the initiative roll (None: ambusher or not rolled yet), passed, exceptionally well.
    initiative: int | None = None
    passed: bool = False
    exceptional: bool = False
    signalled: bool = False
    #: W11, this round: actions taken, stopped acting, movement.
    actions: int = 0
    done: bool = False
    movement: str = "still"
    #: W03: "none", "moving to cover", "taking cover"; W04: the cover held (its name).
    stance: str = "none"
    cover: str | None = None
    #: W02: took aim; the next shot takes the sight's modifier.
    aiming: bool = False
    #: W05: suppressed until the end of this round (0: not suppressed).
    suppressed_until: int = 0
    #: W13: a smoke screen on this combatant's position until the end of this round (0: none).
    smoked_until: int = 0
    #: W11: last round's fatigue (heart rate carried, out-of-breath penalty for this round).
    fatigue: RoundFatigue | None = None
    smoke_grenades: int = 0
    mortar_rounds: int = 0


@dataclass(frozen=True)
class Volley:
    """A burst or mortar round being resolved target by target against one shared roll."""

    kind: str  # "burst" or "mortar"
    #: The firer as it fired (aim, movement, breath as they were then).
    shooter: Soldier
    total: int
    targets: tuple[str, ...]
    mode: str = ""
    distances: tuple[float, ...] = ()


class Warfare2d20Turns(Turns):
    state_types: ClassVar[tuple[type, ...]] = (Soldier, Volley, RoundFatigue)
    public_keys: ClassVar[tuple[str, ...]] = ("status", "suppressed", "stance", "cover")

    def __init__(self, spec: ScenarioSpec) -> None:
        super().__init__(spec)
        house = spec.house
        assert isinstance(house, Warfare2d20House)
        self.house = house
        self.fighters = {f.name: f for f in load_fighters(spec, catalog_for(spec), house)}
        check_ranges(spec, tuple(self.fighters.values()))

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
            _set(c, actions=0, done=False, movement=self._pace(c)) for c in state.combatants
        )
        order = state.order
        if r == 1 or self.house.initiative_each_round:
            people, order = self._initiative(people, r, dice)
        state = FightState(r, "actions", order, None, people)
        first = self._next(state, None)
        if first is None:
            return self._end_round(state, dice)
        return _set(state, acting=first)

    def legal_actions(self, state: FightState) -> tuple[Action, ...]:
        assert state.acting is not None
        me = state.combatant(state.acting)
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
        if me.exceptional and not me.signalled and self._allies(state, me):
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
            acts.append(Action("move to cover", me.name, label, "move", defensive=True))
        if me.stance != "taking cover":
            label = f"{me.name} takes cover and keeps his head down"
            acts.append(Action("take cover", me.name, label, "defend", defensive=True))
        acts.append(Action("done", me.name, f"{me.name} takes no more actions this round", "wait"))
        return tuple(acts)

    def act(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        me = state.combatant(action.actor)
        if isinstance(state.board, Volley):
            state = self._volley_step(state, dice)
            if state.board is not None:
                return state
            return self._pass_on(state, me.name, dice)
        kind = action.kind
        if kind == "wait":
            dice.record(Note(f"{me.name} takes no more actions this round ({me.actions})", "W11"))
            return self._pass_on(_put(state, _set(me, done=True)), me.name, dice)
        used = _set(
            me,
            actions=me.actions + 1,
            stance="none" if me.stance == "taking cover" else me.stance,
        )
        if kind == "attack":
            state = self._fire(state, me, _set(used, aiming=False), action, dice)
        elif kind == "aim":
            dice.record(Note(f"{me.name} takes aim: the next shot is aimed", "W02"))
            state = _put(state, _set(used, aiming=True))
        elif kind == "signal":
            state = self._signal(state, _set(used, signalled=True), dice)
        elif kind == "throw":
            state = self._smoke(
                state, me, _set(used, smoke_grenades=me.smoke_grenades - 1), action, dice
            )
        elif kind == "mortar":
            state = self._mortar(
                state, me, _set(used, mortar_rounds=me.mortar_rounds - 1), action, dice
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
            moving = _set(used, stance="moving to cover", cover=None, movement=pace, aiming=False)
            state = _put(state, moving)
        else:  # "defend": take cover
            h = self.house.taking_cover
            dice.record(Note(f"{me.name} takes cover: {h:+d} delta t until he acts again", "W03"))
            state = _put(state, _set(used, stance="taking cover", done=True))
        if isinstance(state.board, Volley):
            return state
        return self._pass_on(state, me.name, dice)

    def can_fight(self, combatant: Any) -> bool:
        return combatant.status not in OUT

    def is_dead(self, combatant: Any) -> bool:
        return bool(combatant.status == "dead")

    def harm(self, combatant: Any) -> int:
        """Damage taken: stamina and hit points lost (W08)."""
        f = self.fighters[combatant.name]
        return int(f.stats.hit_points - combatant.hit_points + f.stats.stamina - combatant.stamina)

    def is_hurt(self, combatant: Any) -> bool:
        f = self.fighters[combatant.name]
        return bool(combatant.hit_points < f.stats.hit_points or combatant.suppressed_until)

    def view(self, combatant: Any) -> dict[str, Any]:
        c: Soldier = combatant
        f = self.fighters[c.name]
        penalty = c.fatigue.next_round_penalty if c.fatigue else 0
        if c.initiative is None:
            init = "ambush" if f.ambusher and c.passed else "-"
        else:
            init = f"{c.initiative} {'passed' if c.passed else 'failed'}"
            init += ", exceptionally well" if c.exceptional else ""
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
            "initiative": init,
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
                c = _set(c, initiative=x.roll, passed=x.passed, exceptional=x.exceptional)
                c = _set(c, signalled=False)
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
        return _set(state, acting=nxt)

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
                c = _set(c, fatigue=fat)
            if c.stance == "moving to cover" and f.cover_nearby is not None:
                dice.record(StateChange(c.name, "cover", "none", f.cover_nearby.name, "W04"))
                c = _set(c, stance="none", cover=f.cover_nearby.name)
            if c.suppressed_until and c.suppressed_until <= r:
                dice.record(StateChange(c.name, "suppressed", True, False, "W05"))
                c = _set(c, suppressed_until=0)
            if c.smoked_until and c.smoked_until <= r:
                dice.record(Note(f"the smoke on {c.name}'s position clears", "W13"))
                c = _set(c, smoked_until=0)
            people.append(c)
        return _set(state, combatants=tuple(people), acting=None, phase="end of round")

    # -- who and where -----------------------------------------------------------------------
    def _band(self, a: str, b: str) -> str | None:
        band = self.spec.battlefield.between(a, b)
        return band if isinstance(band, str) else None

    def _enemies(self, state: FightState, me: Soldier) -> list[Soldier]:
        """Standing enemies, nearest first (the shooter's range modifier), then file order."""
        gun = self.fighters[me.name].weapon
        found = [c for c in state.combatants if c.side != me.side and self.can_fight(c)]

        def rank(c: Soldier) -> tuple[int, int]:
            band = self._band(me.name, c.name)
            near = gun.range_modifiers.get(band, 0) if band else 0
            return (near, self.fighters[c.name].index)

        return sorted(found, key=rank)

    def _allies(self, state: FightState, me: Soldier) -> list[Soldier]:
        return [
            c
            for c in state.combatants
            if c.side == me.side
            and c.name != me.name
            and self.can_fight(c)
            and not c.suppressed_until
        ]

    def _burst_pair(self, me: Soldier, enemies: list[Soldier]) -> tuple[str, str] | None:
        """The two nearest standing enemies, if they are at the same range (one range band)."""
        if len(enemies) < 2:
            return None
        a, b = enemies[0], enemies[1]
        if self._band(me.name, a.name) != self._band(me.name, b.name):
            return None
        return (a.name, b.name)

    # -- building the rule code's situations ---------------------------------------------------
    def _breath(self, c: Soldier) -> tuple[Any, ...]:
        if c.fatigue is None:
            return ()
        m = breath_modifier(self.fighters[c.name].stats, c.fatigue)
        return (m,) if m is not None else ()

    def _target(self, t: Soldier, shooter: Soldier, r: int) -> Target:
        g = self.fighters[t.name]
        smoke = t.smoked_until >= r or shooter.smoked_until >= r
        cover = None
        if t.cover is not None:
            cover = next(
                p for p in (g.cover_start, g.cover_nearby) if p is not None and p.name == t.cover
            )
        action = "taking cover" if t.suppressed_until else t.stance
        return Target(
            t.name,
            g.stats,
            g.armour,
            cover,
            "hardly visible" if smoke else g.visibility,
            action,
            t.hit_points,
            t.stamina,
            None,
            (),
        )

    def _attack(self, shooter: Soldier, targets: tuple[Target, ...], mode: str) -> Attack:
        f = self.fighters[shooter.name]
        aim, level = (f.aim, f.aim_level) if shooter.aiming else ("none", "none")
        return Attack(
            "attack",
            shooter.name,
            f.weapon,
            mode,
            aim,
            level,
            shooter.movement,
            self._band(shooter.name, targets[0].name),
            "shared" if len(targets) > 1 else "each",
            f.modifiers,
            targets,
            self.house,
            named=self._breath(shooter),
        )

    # -- actions -----------------------------------------------------------------------------
    def _apply(self, state: FightState, o: TargetOutcome, dice: DiceSource) -> FightState:
        """An attack's outcome on its target: stamina, hit points, status (W08, W09), and
        suppression (W05): takes cover, loses its actions until the end of a later round."""
        t = state.combatant(o.name)
        status = max(t.status, o.status, key=STATUSES.index)
        new = _set(
            t,
            hit_points=t.hit_points - o.hp_lost,
            stamina=t.stamina - o.stamina_lost,
            status=status,
        )
        if o.suppressed:
            until = max(t.suppressed_until, state.round + self.house.suppression_rounds)
            dice.record(
                Note(
                    f"{t.name} takes cover and loses his actions until the end of round {until}",
                    "W05",
                )
            )
            new = _set(new, suppressed_until=until, stance="taking cover", done=True)
        return _put(state, new)

    def _fire(
        self, state: FightState, me: Soldier, used: Soldier, action: Action, dice: DiceSource
    ) -> FightState:
        mode = str(action.param("mode"))
        names: tuple[str, ...] = action.param("targets") or (str(action.target),)
        targets = tuple(self._target(state.combatant(n), me, state.round) for n in names)
        attack = self._attack(me, targets, mode)
        total = open_attack(attack, dice)
        state = _put(state, used)
        if len(targets) > 1:
            assert total is not None
            rest = tuple(names[1:])
            state = _set(state, board=Volley("burst", me, total, rest, mode))
        outcome = resolve_target(dice, attack, targets[0], total)
        return self._apply(state, outcome, dice)

    def _volley_step(self, state: FightState, dice: DiceSource) -> FightState:
        """The next target of a burst or mortar round, against the same shared roll."""
        v: Volley = state.board
        name, rest = v.targets[0], v.targets[1:]
        board = _set(v, targets=rest, distances=v.distances[1:]) if rest else None
        state = _set(state, board=board)
        t = state.combatant(name)
        if not self.can_fight(t):  # pragma: no cover - a volley's targets are struck once each
            return state
        if v.kind == "burst":
            target = self._target(t, v.shooter, state.round)
            attack = self._attack(v.shooter, (target,), v.mode)
            return self._apply(state, resolve_target(dice, attack, target, v.total), dice)
        return self._blast(state, v.shooter, t, v.distances[0], v.total, dice)

    def _blast(
        self,
        state: FightState,
        shooter: Soldier,
        t: Soldier,
        distance: float,
        total: int,
        dice: DiceSource,
    ) -> FightState:
        shell = self.fighters[shooter.name].mortar
        assert shell is not None
        g = self.fighters[t.name]
        target = Target(
            t.name,
            g.stats,
            g.armour,
            None,
            g.visibility,
            "none",
            t.hit_points,
            t.stamina,
            distance,
            (),
        )
        m = Mortar(f"{shell} on {t.name}", shell, 1, "each", (), (target,), self.house)
        outcome = resolve_mortar(m, dice, mortar_total=total)
        return self._apply(state, outcome.targets[0], dice)

    def _mortar(
        self, state: FightState, me: Soldier, used: Soldier, action: Action, dice: DiceSource
    ) -> FightState:
        """W12: the shell falls on the target; its side's others stand ``mortar_spacing_m``
        apart from it, in file order (reading); everyone in the lethal radius is struck."""
        f = self.fighters[me.name]
        assert f.mortar is not None and action.target is not None
        zs = zones(self.house.mortar_shells[f.mortar])
        target = state.combatant(action.target)
        others = [
            c
            for c in state.combatants
            if c.side == target.side and c.name != target.name and self.can_fight(c)
        ]
        placed = [(target, 0.0)] + [(c, f.mortar_spacing_m * (k + 1)) for k, c in enumerate(others)]
        inside = [(c, d) for c, d in placed if zone_of(zs, d) is not None]
        dice.record(Note(f"{me.name} calls a {f.mortar} round on {target.name}", "W12"))
        total = roll_mortar(dice, self.house)
        state = _put(state, used)
        if len(inside) > 1:
            rest = tuple(c.name for c, _ in inside[1:])
            far = tuple(d for _, d in inside[1:])
            state = _set(state, board=Volley("mortar", me, total, rest, "", far))
        return self._blast(state, me, target, 0.0, total, dice)

    def _smoke(
        self, state: FightState, me: Soldier, used: Soldier, action: Action, dice: DiceSource
    ) -> FightState:
        """W13: a smoke grenade that lands screens the target's position (hardly visible, both
        ways) until the end of a later round (reading); a miss drifts off and screens nothing."""
        assert action.target is not None
        throw = Thrown(
            f"smoke on {action.target}",
            me.name,
            "smoke grenade",
            me.movement,
            (),
            self.house,
            named=self._breath(me),
        )
        state = _put(state, used)
        if resolve_throw(throw, dice).lands:
            t = state.combatant(action.target)
            until = max(t.smoked_until, state.round + self.house.smoke_rounds)
            dice.record(Note(f"smoke screens {t.name} until the end of round {until}", "W13"))
            state = _put(state, _set(t, smoked_until=until))
        return state

    def _signal(self, state: FightState, me: Soldier, dice: DiceSource) -> FightState:
        """W10 "exceptionally well": in total control, he has his men take aim on his command."""
        state = _put(state, me)
        for c in self._allies(state, me):
            state = _put(state, _set(c, aiming=True))
        dice.record(Note(f"{me.name} signals: his side takes aim and waits for his command", "W10"))
        return state
