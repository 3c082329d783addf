"""What a tactical_d20 creature may do now: the legal actions, listed from the rule modules.

:class:`TacticalBase` holds what does not change in a fight (the roster, the house rules) and
lists actions; every attack it lists is one ``prepare_attack`` allows (a refused one is left
out), so the list never offers what the rules forbid. The turn structure that resolves them is
:class:`~firefight.rulesets.tactical_d20.encounter.TacticalTurns`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from firefight.core.layout import Condition, ViewLayout, Vital
from firefight.core.turns import Action, FightState, ScenarioSpec, Turns
from firefight.dice import Weighted
from firefight.errors import RuleError, present
from firefight.rulesets.tactical_d20.attack import AttackOutcome, prepare_attack
from firefight.rulesets.tactical_d20.encounter_setup import (
    Combatant,
    distances,
    load_combatants,
)
from firefight.rulesets.tactical_d20.encounter_state import (
    Board,
    Fighter,
    Lasting,
    Pending,
    Zone,
)
from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.models import (
    AttackFields,
    Creature,
    Weapon,
)
from firefight.rulesets.tactical_d20.suppression import (
    check_suppressing_fire,
)
from firefight.rulesets.tactical_d20.turn import TurnBudget, move_distance

REGIONS = ("torso", "head", "arms", "legs")
MODES = ("burst", "single", "double_burst")


class TacticalBase(Turns):
    """The roster, the house rules and the legal actions (see the module docstring)."""

    state_types: ClassVar[tuple[type, ...]] = (Fighter, Lasting, Board, Zone, Pending)
    public_keys: ClassVar[tuple[str, ...]] = ("status", "conditions")
    layout: ClassVar[ViewLayout] = ViewLayout(
        vital=(Vital("hit points"),),
        conditions=(
            Condition("status", named=False),
            Condition("conditions", named=False, items=True),
            Condition("cover"),
        ),
    )

    def __init__(self, spec: ScenarioSpec) -> None:
        super().__init__(spec)
        house = spec.house
        if not isinstance(house, TacticalD20House):  # the engine loads the ruleset's model
            raise spec.fail("house", "not tactical_d20 house rules")
        self.house: TacticalD20House = house
        self.roster: dict[str, Combatant] = {c.name: c for c in load_combatants(spec, self.house)}
        self.distances = distances(spec, tuple(self.roster))
        #: Small caches keyed by frozen states (pure functions of them): previews and the
        #: aggressive policy ask for the same creatures and action lists many times.
        self._creatures: dict[tuple[Fighter, bool], Creature] = {}
        self._legal: dict[FightState, tuple[Action, ...]] = {}
        self._attacks: dict[Any, Weighted[AttackOutcome]] = {}
        self._prepared_attacks: dict[Any, Any] = {}

    def creature(self, f: Fighter, board: Board) -> Creature:
        """The creature as the rule modules read it now: hit points and conditions."""
        grouped = bool(board.group_of(f.name))
        found = self._creatures.get((f, grouped))
        if found is None:
            conds = [e.condition for e in f.effects]
            if f.disarmed:
                conds.append("disarmed")
            if grouped:
                conds.append("grappled")
            base = self.roster[f.name].creature
            found = base.model_copy(update={"hp": f.hp, "conditions": tuple(conds)})
            remember(self._creatures, (f, grouped), found)
        return found

    # -- what may be done -----------------------------------------------------------------------
    def legal_actions(self, state: FightState) -> tuple[Action, ...]:
        acting = present(state.acting, "no one is acting: start a round first")
        found = self._legal.get(state)
        if found is not None:
            return found
        board: Board = state.board
        if board.pending is not None:
            found = self._reaction_options(state, board.pending)
        else:
            end = Action("end_turn", acting, f"{acting} ends the turn", "wait")
            main, tail = self._option_lists(state, acting)
            found = (*main, end, *tail)
        remember(self._legal, state, found)
        return found

    def _has_option(self, state: FightState, name: str) -> bool:
        """Whether anything but "end turn" is left (cheap where the answer is plain)."""
        me = state.combatant(name)
        board: Board = state.board
        if me.closed_on:
            return bool(self._options(state, name))
        if me.actions >= self.house.move_actions and me.actions > 0:
            if board.group_of(name):
                if me.actions >= self.house.exit_grapple_actions:
                    return True
            elif self._enemies(state, name):
                return True  # falling back is always open
        if me.actions == 0:
            return False
        return bool(self._options(state, name))

    def _weapons(self, f: Fighter) -> tuple[Weapon, ...]:
        ws = self.roster[f.name].weapons
        return ws[:1] if f.disarmed else ws

    def _enemies(self, state: FightState, name: str) -> list[Fighter]:
        board: Board = state.board
        me = state.combatant(name)
        foes = [c for c in state.combatants if c.side != me.side and c.hp > 0]
        return sorted(foes, key=lambda c: (board.distance(name, c.name), c.name))

    def _attack_fields(
        self, state: FightState, me: Fighter, targets: tuple[str, ...], weapon: Weapon, **kw: Any
    ) -> AttackFields:
        board: Board = state.board
        group = board.group_of(me.name)
        dist = min(board.distance(me.name, t) for t in targets)
        cover = "none"
        if weapon.is_ranged and len(targets) == 1 and not group:
            target = state.combatant(targets[0])
            if target.in_cover:
                cover = self.roster[targets[0]].cover
        key = "targets" if len(targets) > 1 else "target"
        value: Any = targets if len(targets) > 1 else targets[0]
        return AttackFields(
            **{key: value},
            weapon=weapon.name,
            ammo=self.roster[me.name].ammo if weapon.is_ranged else "standard",
            loaded=me.loaded(weapon.name) if weapon.is_ranged else None,
            distance=dist,
            cover=cover,
            grappling=tuple(n for n in group if n != me.name),
            **kw,
        )

    def _prepared(
        self, state: FightState, me: Fighter, targets: tuple[str, ...], weapon: Weapon, **kw: Any
    ) -> Any:
        """The rule module's prepared attack, or None if the rules forbid it."""
        board: Board = state.board
        them = tuple(state.combatant(t) for t in targets)
        # what the prepared attack depends on (not the Actions left, which change every step)
        key = (
            me.name,
            me.effects,
            me.disarmed,
            me.loaded(weapon.name),
            tuple((t.name, t.hp, t.effects, t.in_cover) for t in them),
            weapon.name,
            tuple(sorted(kw.items())),
            board.group_of(me.name),
            tuple(bool(board.group_of(t)) for t in targets),
            min(board.distance(me.name, t) for t in targets),
        )
        if key in self._prepared_attacks:
            return self._prepared_attacks[key]
        fields = self._attack_fields(state, me, targets, weapon, **kw)
        if weapon.is_ranged and fields.ammo not in weapon.ammo:
            fields = fields.model_copy(update={"ammo": "standard"})
        who = tuple(self.creature(t, board) for t in them)
        try:
            found = prepare_attack(self.creature(me, board), who, weapon, fields, self.house)
        except RuleError:
            found = None
        remember(self._prepared_attacks, key, found)
        return found

    def _attack_actions(
        self, state: FightState, me: Fighter, *, free_on: str = "", reaction_on: str = ""
    ) -> list[Action]:
        board: Board = state.board
        out: list[Action] = []
        mine = board.group_of(me.name)
        seen_groups: set[tuple[str, ...]] = set()
        only = free_on or reaction_on
        for foe in self._enemies(state, me.name):
            if only and foe.name != only:
                continue
            group = board.group_of(foe.name)
            near = board.distance(me.name, foe.name) <= self.house.melee_reach
            for weapon in sorted(self._weapons(me), key=lambda w: _weapon_rank(w, near)):
                melee = not weapon.is_ranged
                if only and not melee:
                    continue
                if weapon.is_ranged and group and group != mine:
                    if group in seen_groups:
                        continue
                    targets = group
                else:
                    targets = (foe.name,)
                for mode in MODES if weapon.is_ranged else ("single",):
                    for region in REGIONS:
                        p = self._prepared(
                            state,
                            me,
                            targets,
                            weapon,
                            mode=mode,
                            region=region,
                            free=bool(free_on),
                        )
                        if p is None:
                            continue
                        out.append(
                            self._attack_action(me, targets, weapon, p, free_on, reaction_on)
                        )
            if group and group != mine:
                seen_groups.add(group)
        return out

    def _attack_action(
        self,
        me: Fighter,
        targets: tuple[str, ...],
        weapon: Weapon,
        p: Any,
        free_on: str,
        reaction_on: str,
    ) -> Action:
        f = p.fields
        who = " / ".join(targets) if len(targets) > 1 else targets[0]
        what = "the Grapple" if len(targets) == 2 else "the Melee"
        shown = f"{what} of {who}" if len(targets) > 1 else who
        mode = "" if not weapon.is_ranged else f", {f.mode.replace('_', ' ')}"
        if free_on:
            kind, head, cost = "free", "free", "a Free Action"
        elif reaction_on:
            kind, head, cost = "reaction", "reaction", "its Reaction"
        else:
            kind, head, cost = "attack", "attack", f"{self.house.attack_actions} Actions"
        ammo = f", {f.ammo}" if f.ammo != "standard" else ""
        label = (
            f"{me.name} attacks {shown} with the {weapon.name}{mode}{ammo} "
            f"at the {f.region} ({cost})"
        )
        params = (
            ("targets", targets),
            ("weapon", weapon.name),
            ("mode", f.mode),
            ("region", f.region),
        )
        aid = f"{head}:{'+'.join(targets)}:{weapon.name}:{f.mode}:{f.region}"
        return Action(aid, me.name, label, kind, target=targets[0], params=params)

    def _options(self, state: FightState, name: str) -> tuple[Action, ...]:
        """Everything but "end turn" (the turn ends by itself when this is empty)."""
        main, tail = self._option_lists(state, name)
        return (*main, *tail)

    def _option_lists(self, state: FightState, name: str) -> tuple[list[Action], list[Action]]:
        """(listed before "end turn", after it). The default first: a free attack, a cone over
        two or more enemies, an attack on the nearest enemy, a move toward it; attacks whose
        Grapple or Melee holds a friend, leaving a group and falling back come last."""
        me = state.combatant(name)
        board: Board = state.board
        budget = TurnBudget(self.house, me.actions, me.reaction)
        grouped = bool(board.group_of(name))
        free: list[Action] = []
        if me.closed_on and board.distance(name, me.closed_on) <= self.house.melee_reach:
            target = state.combatant(me.closed_on)
            if target.hp > 0:
                free = self._attack_actions(state, me, free_on=me.closed_on)
        attacks: list[Action] = []
        if budget.can_spend(self.house.attack_actions):
            attacks = self._attack_actions(state, me)
        friends = {c.name for c in state.combatants if c.side == me.side}
        risky = [a for a in attacks if friends & set(a.param("targets"))]
        safe = [a for a in attacks if a not in risky]
        cones: list[Action] = []
        if (
            budget.can_spend(self.house.suppress_actions)
            and me.actions == self.house.actions_per_turn
            and me.reaction
            and not grouped
        ):
            cones = self._suppress_actions(state, me)
        wide = [a for a in cones if a.param("enemies", 0) >= 2]
        out: list[Action] = [*free, *wide, *safe, *(a for a in cones if a not in wide)]
        move = self.house.move_actions
        creature = self.creature(me, board)
        if budget.can_spend(move) and not grouped:
            feet = move_distance(creature, self.house)
            for foe in self._enemies(state, name):
                if board.distance(name, foe.name) > self.house.melee_reach and feet > 0:
                    out.append(
                        Action(
                            f"close:{foe.name}",
                            name,
                            f"{name} moves up to {feet} ft toward {foe.name} (1 Action)",
                            "move",
                            target=foe.name,
                        )
                    )
        if budget.can_spend(self.house.melee_action_actions):
            for foe in self._enemies(state, name):
                if board.distance(name, foe.name) > self.house.melee_reach:
                    continue
                if foe.disarmed or len(self.roster[foe.name].weapons) == 1:
                    continue
                out.append(
                    Action(
                        f"disarm:{foe.name}",
                        name,
                        f"{name} tries to disarm {foe.name} (Athletics contest, 2 Actions)",
                        "disarm",
                        target=foe.name,
                    )
                )
        if budget.can_spend(self.house.body_check_actions):
            for e in me.effects:
                if e.turns == 0 and e.condition in ("arm_wound", "leg_wound"):
                    out.append(
                        Action(
                            f"body_check:{e.condition}",
                            name,
                            f"{name} makes a DC {self.house.body_check_dc} Body check to shake "
                            f"off the {e.condition.replace('_', ' ')} (1 Action)",
                            "recover",
                            defensive=True,
                            params=(("condition", e.condition),),
                        )
                    )
        out += risky
        tail: list[Action] = []
        if grouped and budget.can_spend(self.house.exit_grapple_actions):
            group = board.group_of(name)
            what = "Grapple" if len(group) == 2 else "Melee"
            tail.append(
                Action(
                    "exit",
                    name,
                    f"{name} leaves the {what} (1 Action)",
                    "exit",
                    defensive=True,
                )
            )
        if budget.can_spend(move) and not grouped:
            foes = self._enemies(state, name)
            if foes:
                feet = move_distance(creature, self.house)
                tail.append(
                    Action(
                        f"fall_back:{foes[0].name}",
                        name,
                        f"{name} falls back up to {feet} ft from {foes[0].name} (1 Action)",
                        "move",
                        target=foes[0].name,
                        # defensive (the cautious policy's choice) only out of an enemy's reach
                        defensive=board.distance(name, foes[0].name) <= self.house.melee_reach,
                    )
                )
        return out, tail

    def _suppress_actions(self, state: FightState, me: Fighter) -> list[Action]:
        board: Board = state.board
        out = []
        for weapon in self._weapons(me):
            if not weapon.is_ranged:
                continue
            try:
                check_suppressing_fire(weapon, me.loaded(weapon.name), self.house)
            except RuleError:
                continue
            for foe in self._enemies(state, me.name):
                if board.distance(me.name, foe.name) > weapon.ranges[0]:
                    continue
                covers = self._cone(state, me.name, foe.name, weapon)
                enemies = sum(1 for n in covers if state.combatant(n).side != me.side)
                out.append(
                    Action(
                        f"suppress:{foe.name}:{weapon.name}",
                        me.name,
                        f"{me.name} lays suppressing fire with the {weapon.name} at {foe.name} "
                        f"(cone over {', '.join(covers)}; 4 Actions and the Reaction)",
                        "suppress",
                        target=foe.name,
                        params=(("weapon", weapon.name), ("enemies", enemies)),
                    )
                )
        return out

    def _cone(self, state: FightState, shooter: str, aim: str, weapon: Weapon) -> tuple[str, ...]:
        """Who the cone covers (reading): the creature aimed at and everyone within reach of it,
        up to the weapon's first range threshold."""
        board: Board = state.board
        return tuple(
            c.name
            for c in state.combatants
            if c.name != shooter
            and c.hp > 0
            and board.distance(aim, c.name) <= self.house.melee_reach
            and board.distance(shooter, c.name) <= weapon.ranges[0]
        )

    def _reaction_options(self, state: FightState, pending: Pending) -> tuple[Action, ...]:
        me = state.combatant(pending.reactor)
        attacks = self._attack_actions(state, me, reaction_on=pending.mover)
        let_go = Action(
            "let_go", me.name, f"{me.name} lets {pending.mover} go (keeps its Reaction)", "wait"
        )
        return (*attacks, let_go)

    # -- doing it -------------------------------------------------------------------------------


def _weapon_rank(weapon: Weapon, near: bool) -> int:
    """Default order of weapons: a melee weapon in reach, else a ranged one; fists last."""
    if weapon.kind == "unarmed":
        return 3
    if not weapon.is_ranged:
        return 0 if near else 2
    return 1


#: Entries kept per cache before the oldest go.
CACHE_SIZE = 4096


def remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    if len(cache) >= CACHE_SIZE:
        del cache[next(iter(cache))]
    cache[key] = value
