"""The state of a warfare2d20 encounter and what its actions do, by the ruleset's own rule code.

:class:`Soldier` is one combatant's changing state, :class:`Volley` a burst or mortar round being
resolved target by target; :class:`Actions` builds the rule code's plain frozen situations
(``Attack``, ``Target``, ``Mortar``, ``Thrown``) from them, with no validation in the loop, and
applies the outcomes. The turn structure itself is :mod:`.encounter`.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from firefight.core.house import house_events
from firefight.core.transcript import Note
from firefight.core.turns import Action, FightState, ScenarioSpec
from firefight.dice import DiceSource
from firefight.errors import present
from firefight.rulesets.warfare2d20.attack import TargetOutcome, open_attack, resolve_target
from firefight.rulesets.warfare2d20.fatigue import RoundFatigue, breath_modifier
from firefight.rulesets.warfare2d20.house import Warfare2d20House
from firefight.rulesets.warfare2d20.models import Attack, Mortar, Status, Target, Thrown
from firefight.rulesets.warfare2d20.mortar import resolve_mortar, roll_mortar, zone_of, zones
from firefight.rulesets.warfare2d20.roster import Fighter
from firefight.rulesets.warfare2d20.thrown import resolve_throw
from firefight.rulesets.warfare2d20.wounds import STATUSES

OUT = ("unconscious", "dead")
#: Built situations one encounter keeps (see ``Actions._situation``) before it starts over.
SITUATIONS_KEPT = 4096
T = TypeVar("T")


_PLAIN: dict[type, bool] = {}


def updated(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` without running ``__init__`` again: the states are plain frozen
    records, and an exact preview replaces them thousands of times. A type with slots or a
    ``__post_init__`` (not these) goes through ``dataclasses.replace``."""
    kind = type(obj)
    plain = _PLAIN.get(kind)
    if plain is None:
        plain = _PLAIN[kind] = hasattr(obj, "__dict__") and not hasattr(obj, "__post_init__")
    if not plain:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    new = object.__new__(kind)
    d = new.__dict__
    d.update(obj.__dict__, **changes)
    d.pop("_hash", None)  # a cached hash belongs to the old values
    return new


def put(state: FightState, c: Soldier) -> FightState:
    """``state.with_combatant(c)`` by :func:`updated`."""
    return updated(state, combatants=tuple(c if x.name == c.name else x for x in state.combatants))


PACES = ("still", "walking", "running", "sprinting")


@dataclass(frozen=True)
class Soldier:
    """One combatant's changing state (the rest is its :class:`Fighter`)."""

    name: str
    side: str
    hit_points: int
    stamina: int
    status: Status = "unhurt"
    #: W10: "ambush", "passed", "failed" or "exceptionally well" ("" before the first roll).
    #: The roll itself is in the transcript; keeping only what the rules use keeps the exact
    #: chain small (the order is the state's ``order``).
    initiative: str = ""
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

    def __hash__(self) -> int:
        """The fields' hash, kept once worked out: exact enumeration and the Markov chain hash
        the same states over and over (:func:`updated` drops it from a changed copy)."""
        h: int | None = self.__dict__.get("_hash")
        if h is None:
            h = hash(_soldier_values(self.__dict__))
            self.__dict__["_hash"] = h
        return h

    def __getstate__(self) -> dict[str, Any]:
        """The fields without the kept hash (another process salts string hashes anew)."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}


_SOLDIER_FIELDS = tuple(f.name for f in dataclasses.fields(Soldier))
#: The fields' values of a Soldier's ``__dict__``, as one tuple (one C call).
_soldier_values = operator.itemgetter(*_SOLDIER_FIELDS)


@dataclass(frozen=True)
class Volley:
    """A burst or mortar round being resolved target by target against one shared roll."""

    kind: str  # "burst" or "mortar"
    #: The firer as it fired (aim, movement, breath as they were then).
    shooter: Soldier
    #: The shared roll (None only in a preview's state, ``preview_act``: summed out).
    total: int | None
    targets: tuple[str, ...]
    mode: str = ""
    distances: tuple[float, ...] = ()


class Actions:
    """Who stands where, the situations the rule code needs, and what each action does."""

    spec: ScenarioSpec
    house: Warfare2d20House
    fighters: dict[str, Fighter]
    #: (shooter, targets, round, mode) -> the rule code's targets and attack (see _situation).
    _situations: dict[tuple[Any, ...], tuple[tuple[Target, ...], Attack]]
    #: (shooter, target, distance) -> the one-target mortar situation (see _strike).
    _blasts: dict[tuple[Any, ...], Mortar]

    def can_fight(self, combatant: Any) -> bool:
        return combatant.status not in OUT

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
            t.status,
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

    def _situation(
        self, shooter: Soldier, people: tuple[Soldier, ...], r: int, mode: str
    ) -> tuple[tuple[Target, ...], Attack]:
        """The targets and attack for ``shooter`` firing at ``people`` in round ``r``: built once
        per distinct state (an exact preview replays the same shot on every path, and the same
        objects let the rule code's per-situation caches serve it)."""
        key = (shooter, people, r, mode)
        found = self._situations.get(key)
        if found is None:
            targets = tuple(self._target(t, shooter, r) for t in people)
            found = (targets, self._attack(shooter, targets, mode))
            if len(self._situations) >= SITUATIONS_KEPT:
                self._situations.clear()
            self._situations[key] = found
        return found

    # -- actions -----------------------------------------------------------------------------
    def _apply(self, state: FightState, o: TargetOutcome, dice: DiceSource) -> FightState:
        """An attack's outcome on its target: stamina, hit points, status (W08, W09), and
        suppression (W05): takes cover, loses its actions until the end of a later round."""
        t = state.combatant(o.name)
        status = max(t.status, o.status, key=STATUSES.index)
        new = updated(
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
            new = updated(new, suppressed_until=until, stance="taking cover", done=True)
        return put(state, new)

    def _fire(
        self,
        state: FightState,
        me: Soldier,
        used: Soldier,
        action: Action,
        dice: DiceSource,
        whole: bool = True,
    ) -> FightState:
        """A shot, or a burst's first target (its shared roll kept on the board for the rest;
        not ``whole``, a preview's: summed out, the board's roll None)."""
        mode = str(action.param("mode"))
        names: tuple[str, ...] = action.param("targets") or (str(action.target),)
        people = tuple(state.combatant(n) for n in names)
        total, outcome = _opened(
            dice,
            f"{me.name} fires",
            ("warfare2d20 fire", me, people, state.round, mode),
            partial(self._shoot, me, people, state.round, mode),
            partial(self._shoot_alone, me, people, state.round, mode),
            whole or len(names) == 1,
        )
        if len(names) > 1 and whole:
            total = present(total, "a shared attacker roll was not made (W01)")
        state = put(state, used)
        if len(names) > 1:
            state = updated(state, board=Volley("burst", me, total, names[1:], mode))
        return self._apply(state, outcome, dice)

    def _shoot_alone(
        self, me: Soldier, people: tuple[Soldier, ...], r: int, mode: str, dice: DiceSource
    ) -> TargetOutcome:
        """The first target's outcome with the shared roll made inside its hit test (the roll
        is independent of the defender's, so this is its distribution summed over the roll)."""
        targets, attack = self._situation(me, people, r, mode)
        for e in house_events(attack.house):
            dice.record(e)
        return resolve_target(dice, attack, targets[0], None)

    def _shoot(
        self, me: Soldier, people: tuple[Soldier, ...], r: int, mode: str, dice: DiceSource
    ) -> tuple[int | None, TargetOutcome]:
        """The attacker's shared roll (if any) and the first target's outcome (W01-W09)."""
        targets, attack = self._situation(me, people, r, mode)
        total = open_attack(attack, dice)
        return total, resolve_target(dice, attack, targets[0], total)

    def _volley_step(self, state: FightState, dice: DiceSource) -> FightState:
        """The next target of a burst or mortar round, against the same shared roll."""
        v: Volley = state.board
        name, rest = v.targets[0], v.targets[1:]
        board = updated(v, targets=rest, distances=v.distances[1:]) if rest else None
        state = updated(state, board=board)
        t = state.combatant(name)
        if not self.can_fight(t):  # pragma: no cover - a volley's targets are struck once each
            return state
        total = present(v.total, "a preview's volley keeps no shared roll to go on with")
        if v.kind == "burst":
            (target,), attack = self._situation(v.shooter, (t,), state.round, v.mode)
            return self._apply(state, resolve_target(dice, attack, target, total), dice)
        return self._blast(state, v.shooter, t, v.distances[0], total, dice)

    def _blast(
        self,
        state: FightState,
        shooter: Soldier,
        t: Soldier,
        distance: float,
        total: int,
        dice: DiceSource,
    ) -> FightState:
        # one derive (per enumeration): exact mode branches over the blast's outcomes
        key = ("warfare2d20 blast", shooter.name, t, distance, total)
        strike = partial(self._strike, shooter.name, t, distance, total)
        return self._apply(state, dice.derive(f"blast on {t.name}", strike, key), dice)

    def _strike(
        self, shooter: str, t: Soldier, distance: float, total: int | None, dice: DiceSource
    ) -> TargetOutcome:
        """One target of a mortar round against the mortar's roll ``total`` (W12; None: the
        mortar's roll made inside the target's own, as for a lone target)."""
        key = ("mortar", shooter, t, distance)
        m: Mortar | None = self._blasts.get(key)
        if m is None:  # built once per state: an exact preview strikes on every path
            shell = present(self.fighters[shooter].mortar, f"{shooter} has no mortar (W12)")
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
                t.status,
            )
            m = Mortar(f"{shell} on {t.name}", shell, 1, "each", (), (target,), self.house)
            if len(self._blasts) >= SITUATIONS_KEPT:
                self._blasts.clear()
            self._blasts[key] = m
        return resolve_mortar(m, dice, mortar_total=total).targets[0]

    def _mortar(
        self,
        state: FightState,
        me: Soldier,
        used: Soldier,
        action: Action,
        dice: DiceSource,
        whole: bool = True,
    ) -> FightState:
        """W12: the shell falls on the target; its side's others stand ``mortar_spacing_m``
        apart from it, in file order (reading); everyone in the lethal radius is struck. Not
        ``whole`` (``preview_act``): the first target's outcome with the mortar's roll summed
        out (made inside its own blast roll), and no board for the rest."""
        f = self.fighters[me.name]
        mortar = present(f.mortar, f"{me.name} has no mortar (W12)")
        zs = zones(self.house.mortar_shells[mortar])
        target = state.combatant(present(action.target, f"action {action.id} names no target"))
        others = [
            c
            for c in state.combatants
            if c.side == target.side and c.name != target.name and self.can_fight(c)
        ]
        placed = [(target, 0.0)] + [(c, f.mortar_spacing_m * (k + 1)) for k, c in enumerate(others)]
        inside = [(c, d) for c, d in placed if zone_of(zs, d) is not None]
        dice.record(Note(f"{me.name} calls a {mortar} round on {target.name}", "W12"))

        def first(d: DiceSource) -> tuple[int, TargetOutcome]:
            total = roll_mortar(d, self.house)
            return total, self._strike(me.name, target, 0.0, total, d)

        total, outcome = _opened(
            dice,
            f"{mortar} round on {target.name}",
            ("warfare2d20 mortar round", me.name, target),
            first,
            partial(self._strike, me.name, target, 0.0, None),
            whole,
        )
        state = put(state, used)
        if len(inside) > 1:
            rest = tuple(c.name for c, _ in inside[1:])
            far = tuple(d for _, d in inside[1:])
            state = updated(state, board=Volley("mortar", me, total, rest, "", far))
        return self._apply(state, outcome, dice)

    def _smoke(
        self, state: FightState, me: Soldier, used: Soldier, action: Action, dice: DiceSource
    ) -> FightState:
        """W13: a smoke grenade that lands screens the target's position (hardly visible, both
        ways) until the end of a later round (reading); a miss drifts off and screens nothing."""
        target = present(action.target, f"action {action.id} names no target")
        throw = Thrown(
            f"smoke on {target}",
            me.name,
            "smoke grenade",
            me.movement,
            (),
            self.house,
            named=self._breath(me),
        )
        state = put(state, used)
        # one derive (per enumeration): the encounter reads only whether it lands, so exact mode
        # branches over that, not over every scatter distance and direction of a miss
        lands = partial(_lands, throw)
        if dice.derive(f"{me.name} throws smoke", lands, ("warfare2d20 smoke", me, target)):
            t = state.combatant(target)
            until = max(t.smoked_until, state.round + self.house.smoke_rounds)
            dice.record(Note(f"smoke screens {t.name} until the end of round {until}", "W13"))
            state = put(state, updated(t, smoked_until=until))
        return state

    def _signal(self, state: FightState, me: Soldier, dice: DiceSource) -> FightState:
        """W10 "exceptionally well": in total control, he has his men take aim on his command."""
        state = put(state, me)
        for c in self._allies(state, me):
            state = put(state, updated(c, aiming=True))
        dice.record(Note(f"{me.name} signals: his side takes aim and waits for his command", "W10"))
        return state


def _opened(
    dice: DiceSource,
    why: str,
    key: tuple[Any, ...],
    both: Callable[[DiceSource], tuple[int | None, TargetOutcome]],
    alone: Callable[[DiceSource], TargetOutcome],
    whole: bool,
) -> tuple[int | None, TargetOutcome]:
    """A shot's or mortar round's shared roll and first target's outcome, one derive (per
    enumeration): exact mode branches over their distinct pairs, not over every die behind
    them; not ``whole`` (a preview's), over the outcome ``alone``, the roll summed out (None)."""
    if whole:
        return dice.derive(why, both, key)
    return None, dice.derive(why, alone, (*key, "alone"))


def _lands(throw: Thrown, dice: DiceSource) -> bool:
    """Whether a thrown grenade lands where it was meant to (W13)."""
    return resolve_throw(throw, dice).lands
