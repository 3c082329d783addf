"""Dragon Warriors II fights on the encounter engine: turns of six seconds (D03), exchanges whose
riposte chains run contest by contest (D04, D05), stances (D08), stuns that last until the same
point of the next turn (D06), death (D07), and missiles whose difficulty follows the range as
combatants close (D09).

One turn (a round of the engine): everyone able rolls initiative (:func:`.fight.roll_initiative`)
and the queue is worked from the top. Whoever's turn it is may attack an enemy within reach,
shoot or throw at one beyond it, close on one, take a parry stance for the turn, or delay (move
behind the next combatant in the queue). Decisions that belong to someone else are their own
decision points: a defender attacked before he has acted picks his stance for the turn (a parry
gives up his own attack, D08), and whoever wins a contest as defender chooses to riposte or not
(D05). So one step rolls at most one contest and its injury checks, which keeps an exact step
small (the chain as a whole is open-ended).

The stun clock (D06): the turn's actions are counted (a delay is not an action); a stun taken
during the k-th action of turn r lasts until the k-th action of turn r + 1 begins.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from firefight.core.layout import Condition, ViewLayout, Vital
from firefight.core.transcript import Modifier, Note, StateChange
from firefight.core.turns import Action, FightState, GmField, ScenarioSpec, Turns, evolve
from firefight.core.validation import MAX_NUMBER, field_type
from firefight.dice import DiceSource
from firefight.errors import present
from firefight.rulesets.dragonwarriors2.attack import Bout, judge_contest, run_contest
from firefight.rulesets.dragonwarriors2.contests import bonus_hook
from firefight.rulesets.dragonwarriors2.encounter_exact import (
    contest_table,
    initiative_table,
    injury_table,
)
from firefight.rulesets.dragonwarriors2.encounter_setup import (
    Cast,
    EncounterCombatant,
    build_cast,
    shot,
)
from firefight.rulesets.dragonwarriors2.encounter_state import (
    STANCES,
    START_STUN,
    Board,
    Exchange,
    Warrior,
    moved,
    swap,
)
from firefight.rulesets.dragonwarriors2.fight import roll_initiative
from firefight.rulesets.dragonwarriors2.gear import Fighter, Missile, RipostePolicy
from firefight.rulesets.dragonwarriors2.injury import injure

#: Whoever defends a contest may riposte: the decision is his own decision point.
OFFER = RipostePolicy("always")
#: Most fighters and bouts kept between calls (exact enumeration builds the same ones often).
CACHE_SIZE = 4096
#: Action kinds that may roll a contest (and nothing before it).
_CONTESTED = frozenset({"attack", "shoot", "stance", "riposte", "hold"})
#: An action's work before its dice: a state (no contest), or (state, bout, level, Attack).
_Opening = FightState | tuple[FightState, Bout, int, int]


_STUNNED = frozenset({"stunned"})


class DW2Turns(Turns):
    """The turn structure of one scenario (see the module docstring)."""

    state_types: ClassVar[tuple[type, ...]] = (Warrior, Exchange, Board)
    layout: ClassVar[ViewLayout] = ViewLayout(
        vital=(Vital("wounds", most="toughness", taken=True),),
        conditions=(
            Condition("status", named=False),
            Condition("stunned until"),
            Condition("stance", named=False),
            Condition("death check"),
        ),
    )

    def __init__(self, spec: ScenarioSpec) -> None:
        super().__init__(spec)
        self.cast: Cast = build_cast(spec)
        self.index = {e.name: i for i, e in enumerate(spec.combatants)}
        self.bonus = self.cast.options.double_six_bonus
        self.hook = bonus_hook(self.bonus)
        self._shots: dict[tuple[str, int], Missile] = {}
        self._fighters: dict[Warrior, Fighter] = {}
        opts, house = self.cast.options, self.cast.house
        #: Everything besides the numbers that the injury checks' verdict depends on.
        self._readings = (
            opts.death_check,
            house.stun_target_bonus,
            house.knock_out_margin,
            self.bonus,
        )
        self._bouts: dict[tuple[Warrior, Warrior, Missile | None], Bout] = {}
        self._openings: dict[tuple[FightState, Action], _Opening] = {}
        self._legal: dict[FightState, tuple[Action, ...]] = {}

    # -- state ---------------------------------------------------------------------------------
    def initial(self) -> FightState:
        out = []
        for e in self.spec.combatants:
            m = self.cast.models[e.name]
            out.append(
                Warrior(
                    e.name,
                    e.side,
                    wounds=m.wounds,
                    stunned_until=START_STUN if m.stunned else None,
                    ammunition=m.ammunition,
                )
            )
        board = Board(distances=self.cast.distances)
        return FightState(0, "before the fight", (), None, tuple(out), board)

    def fighter(self, c: Warrior) -> Fighter:
        """The combatant as the rules see him now (scores, gear, state, stance)."""
        found = self._fighters.get(c)
        if found is None:
            if len(self._fighters) > CACHE_SIZE:
                self._fighters.clear()
            found = self._fighters[c] = dataclasses.replace(
                self.cast.fighters[c.name],
                wounds=c.wounds,
                stunned=c.stunned,
                knocked_out=c.knocked_out,
                dead=c.dead,
                stance=c.stance,
            )
        return found

    def distance(self, board: Board, a: str, b: str) -> int:
        for x, y, feet in board.distances:
            if {x, y} == {a, b}:
                return feet
        return 0

    def _with_distance(self, board: Board, a: str, b: str, feet: int) -> Board:
        x, y = sorted((a, b), key=self.index.__getitem__)
        rest = tuple(d for d in board.distances if {d[0], d[1]} != {a, b})
        new = rest + (((x, y, feet),) if feet else ())
        order = {n: i for i, n in enumerate(self.index)}
        return dataclasses.replace(
            board, distances=tuple(sorted(new, key=lambda d: (order[d[0]], order[d[1]])))
        )

    # -- the turn ------------------------------------------------------------------------------
    def start_round(self, state: FightState, dice: DiceSource) -> FightState:
        """Initiative (D03): Reflexes + roll - armour, best first; stances end with the turn."""
        turn = state.round + 1
        people = tuple(dataclasses.replace(c, stance="normal") for c in state.combatants)
        able = [self.fighter(c) for c in people if self.can_fight(c)]
        key = ("dw2 initiative", tuple((f.name, f.reflexes, f.armour_reduction) for f in able))
        table = initiative_table(key[1], self.bonus)

        def rolls(d: DiceSource) -> tuple[str, ...]:
            return tuple(i.name for i in roll_initiative(d, able, self.hook))

        order = dice.derive(
            "initiative",
            rolls,
            (key, self.bonus),
            exact=(lambda: table) if table is not None else None,
        )
        board = dataclasses.replace(state.board, done=(), delayed=(), actions=0, exchange=None)
        state = dataclasses.replace(
            state, round=turn, phase="turns", order=order, combatants=people, board=board
        )
        return self._advance(state, dice)

    def _advance(self, state: FightState, dice: DiceSource) -> FightState:
        """Hand the turn to the next in the queue who has not acted, or end the turn."""
        board: Board = state.board
        for name in state.order:
            if name in board.done or not self.can_fight(state.combatant(name)):
                continue
            clock = (state.round, board.actions + 1)
            people = state.combatants
            for c in people:
                if c.stunned_until is not None and c.stunned_until <= clock:
                    dice.record(StateChange(c.name, "stunned", True, False, "D06"))
                    people = swap(people, dataclasses.replace(c, stunned_until=None))
            return moved(state, name, "turns", board, people)
        return moved(state, None, "end of turn", board)

    def _finish(self, state: FightState, owner: str, dice: DiceSource) -> FightState:
        """The owner's action is over: count it on the stun clock and pass the turn on."""
        board: Board = state.board
        done = board.done if owner in board.done else (*board.done, owner)
        board = Board(
            board.distances, done, board.delayed, board.actions + 1, None, board.chain_cut
        )
        return self._advance(moved(state, state.acting, state.phase, board), dice)

    def _delay_behind(self, state: FightState, me: str) -> str | None:
        """Who a delay puts ``me`` behind: the next in the queue still to act who has not
        delayed himself (so delays always end: a delayer only passes those who hold)."""
        board: Board = state.board
        after = state.order[state.order.index(me) + 1 :]
        for name in after:
            if name in board.done or name in board.delayed:
                continue
            if self.can_fight(state.combatant(name)):
                return name
        return None

    # -- actions -------------------------------------------------------------------------------
    def legal_actions(self, state: FightState) -> tuple[Action, ...]:
        """Kept per state: a preview asks them of the same declared attack on every path."""
        found = self._legal.get(state)
        if found is None:
            if len(self._legal) > CACHE_SIZE:
                self._legal.clear()
            found = self._legal[state] = self._legal_actions(state)
        return found

    def _legal_actions(self, state: FightState) -> tuple[Action, ...]:
        me = present(state.acting, "no one is acting: start a turn first")
        ex: Exchange | None = state.board.exchange
        if ex is not None and ex.asking == "stance":
            return self._stance_actions(state, me, ex)
        if ex is not None:
            return self._riposte_actions(state, me, ex)
        return self._turn_actions(state, me)

    def in_progress(self, state: FightState) -> bool:
        """An exchange waits on a stance or a riposte decision."""
        return state.board.exchange is not None

    # -- the GM's hand ---------------------------------------------------------------------------
    def gm_fields(self, state: FightState, name: str) -> Mapping[str, GmField]:
        """Wounds, knocked out, dead, stunned (until the same point of the next turn, D06),
        the turn's stance, missiles left (for one who carries them) and the feet to each
        other combatant (``range.NAME``)."""
        me = state.combatant(name)
        fields = {
            "wounds": GmField(field_type(EncounterCombatant, "wounds")),
            "knocked_out": GmField(bool),
            "dead": GmField(bool),
            "stunned": GmField(bool, self._put_stunned),
            "stance": GmField(Literal[STANCES]),
        }
        if me.ammunition is not None:
            fields["ammunition"] = GmField(field_type(EncounterCombatant, "ammunition"))
        feet = Annotated[int, Field(ge=0, le=MAX_NUMBER)]
        for other in state.names():
            if other != name:
                fields[f"range.{other}"] = GmField(feet, self._put_range(other))
        return fields

    def _put_stunned(self, state: FightState, name: str, stunned: bool) -> FightState:
        """Stunned now, until the same action of the next turn (D06); or no longer."""
        me = state.combatant(name)
        until = (state.round + 1, state.board.actions + 1) if stunned else None
        if me.stunned == stunned:
            return state
        return state.with_combatant(dataclasses.replace(me, stunned_until=until))

    def _put_range(self, other: str) -> Any:
        def put(state: FightState, name: str, feet: int) -> FightState:
            board = self._with_distance(state.board, name, other, feet)
            return dataclasses.replace(state, board=board)

        return put

    def pass_turn(self, state: FightState, dice: DiceSource) -> FightState:
        """The turn passes as after an action: counted on the stun clock (D06)."""
        return self._finish(state, state.decider(), dice)

    def joined(self, state: FightState, newcomer: Any, start: FightState) -> FightState:
        """The newcomer's distances come from the battlefield, as at the start."""
        joined = super().joined(state, newcomer, start)
        rows = tuple(d for d in start.board.distances if newcomer.name in d[:2])
        order = {n: i for i, n in enumerate(self.index)}
        distances = tuple(
            sorted(state.board.distances + rows, key=lambda d: (order[d[0]], order[d[1]]))
        )
        return dataclasses.replace(
            joined, board=dataclasses.replace(state.board, distances=distances)
        )

    def _stance_actions(self, state: FightState, me: str, ex: Exchange) -> tuple[Action, ...]:
        usual = self.cast.fighters[me].stance
        out = []
        for stance in sorted(STANCES, key=lambda s: s != usual):
            what = "fights on normally" if stance == "normal" else f"takes {_a(stance)}"
            cost = "" if stance == "normal" else " (and does not attack this turn)"
            out.append(
                Action(
                    f"stance:{stance.replace(' ', '-')}",
                    me,
                    f"{me} {what} against {ex.attacker}'s attack{cost}",
                    "stance",
                    target=ex.attacker,
                    defensive=stance != "normal",
                    params=(("stance", stance),),
                    credit=ex.attacker,
                )
            )
        return tuple(out)

    def _riposte_actions(self, state: FightState, me: str, ex: Exchange) -> tuple[Action, ...]:
        other = ex.defender if me == ex.attacker else ex.attacker
        c = state.combatant(me)
        word = "ripostes" if ex.level == 1 else "counter-ripostes"
        go = Action(
            f"riposte:{other}",
            me,
            f"{me} {word} against {other} with Attack {ex.score} (won by {ex.won_by})",
            "riposte",
            target=other,
        )
        hold = Action("hold", me, f"{me} lets the chance go (no riposte)", "hold", defensive=True)
        yes, _ = self.cast.fighters[me].policy.decide(ex.won_by, c.choices_used)
        return (go, hold) if yes else (hold, go)

    def _turn_actions(self, state: FightState, me: str) -> tuple[Action, ...]:
        board: Board = state.board
        reach = self.cast.house.reach_feet
        mine = state.combatant(me)
        f = self.cast.fighters[me]
        enemies = sorted(
            (c for c in state.combatants if c.side != mine.side and self.can_fight(c)),
            key=lambda c: (self.distance(board, me, c.name), self.index[c.name]),
        )
        attacks: list[Action] = []
        shots: list[Action] = []
        long_shots: list[Action] = []
        moves: list[Action] = []
        weapon = f"the {f.weapon.name}" if f.weapon else "bare-handed"
        for c in enemies:
            feet = self.distance(board, me, c.name)
            if feet <= reach:
                attacks.append(
                    Action(
                        f"attack:{c.name}",
                        me,
                        f"{me} attacks {c.name} ({weapon})",
                        "attack",
                        target=c.name,
                    )
                )
                continue
            if me in self.cast.missiles and mine.ammunition != 0:
                m = self._shot(me, feet)
                bout = self._bout(state, me, c.name, m)
                difficulty, attack = bout.defence_at(0)[0], bout.opening_attack()[0]
                # the sensible default: an archer shoots rather than close; a thrower closes
                # until the odds of a throw are about even
                good = m.unit == "fathoms" or difficulty <= attack
                (shots if good else long_shots).append(
                    Action(
                        f"shoot:{c.name}",
                        me,
                        f"{me} shoots at {c.name} with the {m.weapon.name} ({feet} ft: "
                        f"difficulty {difficulty} against Attack {attack})",
                        "shoot",
                        target=c.name,
                    )
                )
            new = max(0, feet - self.cast.house.advance_feet)
            moves.append(
                Action(
                    f"close:{c.name}",
                    me,
                    f"{me} closes on {c.name} ({feet} ft -> {new} ft)",
                    "move",
                    target=c.name,
                )
            )
        parries = [
            Action(
                f"parry:{s.split()[0]}",
                me,
                f"{me} takes {_a(s)} for the turn (and does not attack)",
                "defend",
                defensive=True,
                params=(("stance", s),),
            )
            for s in STANCES[1:]
        ]
        if f.stance != "normal":
            parries.sort(key=lambda a: a.param("stance") != f.stance)
            out = [*parries, *attacks, *shots, *moves, *long_shots]
        else:
            out = [*attacks, *shots, *moves, *long_shots, *parries]
        behind = self._delay_behind(state, me)
        if behind is not None:
            out.append(Action("delay", me, f"{me} delays until after {behind}", "delay"))
        return tuple(out)

    def _shot(self, shooter: str, feet: int) -> Missile:
        key = (shooter, feet)
        found = self._shots.get(key)
        if found is None:
            found = self._shots[key] = shot(self.cast, shooter, feet)
        return found

    def act(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        me = action.actor
        board: Board = state.board
        kind = action.kind
        if kind in _CONTESTED:
            found = self._opening(state, action, dice)
            if isinstance(found, FightState):
                return found
            pre, bout, level, score = found
            return self._contest(pre, bout, level, score, dice)
        if kind == "defend":
            state = self._take_stance(state, me, str(action.param("stance")), dice)
            return self._finish(state, me, dice)
        if kind == "move":
            state = dataclasses.replace(state, board=self._close(state, me, _target(action), dice))
            return self._finish(state, me, dice)
        if kind == "delay":
            behind = present(
                self._delay_behind(state, me), f"{me} has no one to delay behind (D03)"
            )
            dice.record(Note(f"{me} delays the action until after {behind}", "D03"))
            order = [n for n in state.order if n != me]
            order.insert(order.index(behind) + 1, me)
            delayed = board.delayed if me in board.delayed else (*board.delayed, me)
            board = dataclasses.replace(board, delayed=delayed)
            return self._advance(dataclasses.replace(state, order=tuple(order), board=board), dice)
        raise AssertionError(f"unknown action kind {kind!r}")  # pragma: no cover

    def _opening(self, state: FightState, action: Action, dice: DiceSource) -> _Opening:
        """What an action that may lead to a contest does before its dice: a state (no contest,
        e.g. the defender is asked for a stance) or the contest to roll. It asks no dice, so
        under exact enumeration, which replays the action once per outcome, it is worked out
        once per (state, action) and the paths share it (and its state, whose hash is kept)."""
        if not dice.is_exact:
            return self._before_contest(state, action, dice)
        key = (state, action)
        found = self._openings.get(key)
        if found is None:
            if len(self._openings) > CACHE_SIZE:
                self._openings.clear()
            found = self._openings[key] = self._before_contest(state, action, dice)
        return found

    def _before_contest(self, state: FightState, action: Action, dice: DiceSource) -> _Opening:
        me = action.actor
        kind = action.kind
        if kind == "attack":
            return self._attack(state, me, _target(action), dice)
        if kind == "shoot":
            return self._shoot(state, me, _target(action), dice)
        if kind == "stance":
            ex = present(state.board.exchange, "no exchange is under way to take a stance in (D08)")
            stance = str(action.param("stance"))
            if stance != "normal":
                state = self._take_stance(state, me, stance, dice)
            return self._open(state, ex.attacker, ex.defender, dice)
        return self._decide(state, me, kind == "riposte", dice)

    def _close(self, state: FightState, me: str, target: str, dice: DiceSource) -> Board:
        """Close on ``target`` by ``advance_feet`` (a reading: distances are pairwise, with no
        map; the mover comes as much nearer to everyone standing within reach of the target)."""
        board: Board = state.board
        step = self.cast.house.advance_feet
        reach = self.cast.house.reach_feet
        group = [target] + [
            c.name
            for c in state.combatants
            if c.name not in (me, target) and self.distance(board, target, c.name) <= reach
        ]
        for name in group:
            feet = self.distance(board, me, name)
            new = max(0, feet - step)
            if new != feet:
                dice.record(StateChange(me, f"distance to {name} (feet)", feet, new, "D09"))
                board = self._with_distance(board, me, name, new)
        return board

    def _take_stance(self, state: FightState, me: str, stance: str, dice: DiceSource) -> FightState:
        dice.record(Note(f"{me} takes {_a(stance)} for the turn and does not attack", "D08"))
        c = state.combatant(me)
        b: Board = state.board
        done = b.done if me in b.done else (*b.done, me)
        people = swap(state.combatants, evolve(c, stance=stance))
        return moved(state, state.acting, state.phase, evolve(b, done=done), people)

    # -- exchanges -----------------------------------------------------------------------------
    def _attack(self, state: FightState, me: str, target: str, dice: DiceSource) -> _Opening:
        dice.record(Note(f"{me} attacks {target}", "D04"))
        d = state.combatant(target)
        board: Board = state.board
        if target not in board.done and d.stance == "normal" and not d.stunned:
            ask = Exchange(me, target, "stance")
            return moved(state, target, "exchange", evolve(board, exchange=ask))
        return self._open(state, me, target, dice)

    def _open(self, state: FightState, att: str, dfn: str, dice: DiceSource) -> _Opening:
        """The exchange's first contest (D04), with the Attack of the attacker's weapon."""
        bout = self._bout(state, att, dfn)
        for f in (bout.attacker, bout.defender):
            if f.stunned:
                dice.record(Note(f"{f.name} is stunned: Attack and Defence count as 0", "D06"))
        score, mods = bout.opening_attack()
        for m in mods:
            dice.record(m)
        return state, bout, 0, score

    def _shoot(self, state: FightState, me: str, target: str, dice: DiceSource) -> _Opening:
        """A missile (D09): the difficulty (range in feet or fathoms, shield) replaces Defence."""
        feet = self.distance(state.board, me, target)
        m = self._shot(me, feet)
        dice.record(Note(f"{me} shoots at {target} with the {m.weapon.name} ({feet} ft)", "D09"))
        c = state.combatant(me)
        if c.ammunition is not None:
            left = c.ammunition - 1
            dice.record(StateChange(me, "ammunition", c.ammunition, left, "D09"))
            state = state.with_combatant(dataclasses.replace(c, ammunition=left))
        bout = self._bout(state, me, target, m)
        score, mods = bout.opening_attack()
        for mod in mods:
            dice.record(mod)
        return state, bout, 0, score

    def _bout(self, state: FightState, att: str, dfn: str, m: Missile | None = None) -> Bout:
        """The exchange's Bout on the current states; whoever defends a contest may riposte
        (the decision itself is his own decision point, so the policy here is "always")."""
        key = (state.combatant(att), state.combatant(dfn), m)
        found = self._bouts.get(key)
        if found is None:
            if len(self._bouts) > CACHE_SIZE:
                self._bouts.clear()
            a = dataclasses.replace(self.fighter(key[0]), policy=OFFER)
            d = dataclasses.replace(self.fighter(key[1]), policy=OFFER)
            found = self._bouts[key] = Bout(a, d, self.cast.options, self.cast.house, m)
        return found

    def _contest(
        self, state: FightState, bout: Bout, level: int, score: int, dice: DiceSource
    ) -> FightState:
        """One contest of the chain (D04, D05) and what it leads to."""
        rolled = bout.defence_rolled(level)
        margin = run_contest(
            dice,
            bout,
            level,
            score,
            self.hook,
            table=lambda: contest_table(self.bonus, rolled),
            key=("dw2 contest", self.bonus, rolled),
        )
        step = judge_contest(bout, level, margin, explain=not dice.is_exact)
        att, dfn = bout.attacker.name, bout.defender.name
        board: Board = state.board
        if step.kind == "riposte":
            _, winner, _ = bout.sides(level)
            if level + 1 >= self.cast.options.max_chain:  # the exchange ends, nobody hurt
                dice.record(
                    Note(f"chain cut after {level + 1} contests (options.max_chain)", "D05")
                )
                cut = dataclasses.replace(board, chain_cut=True)
                return self._finish(moved(state, state.acting, state.phase, cut), att, dice)
            dice.record(
                Note(
                    f"{winner.name} wins by {-margin} and may riposte (Attack {step.next_score})",
                    "D05",
                )
            )
            ask = Exchange(att, dfn, "riposte", level + 1, step.next_score, -margin)
            board = dataclasses.replace(board, exchange=ask)
            return moved(state, winner.name, "exchange", board)
        for e in step.events:
            dice.record(e)
        if step.kind == "hit":
            victim = dfn if step.victim == "defender" else att
            state = self._injure(state, victim, step.wounds, dice)
        return self._finish(state, att, dice)

    def _decide(self, state: FightState, me: str, go: bool, dice: DiceSource) -> _Opening:
        """The winner's choice (D05): riposte with his margin as Attack, or let it go."""
        ex = present(state.board.exchange, "no contest was won to riposte from (D05)")
        c = state.combatant(me)
        if self.cast.fighters[me].policy.rule == "choose":
            state = state.with_combatant(dataclasses.replace(c, choices_used=c.choices_used + 1))
        if not go:
            dice.record(Note(f"{me} wins by {ex.won_by} and does not riposte (a choice)", "D05"))
            return self._finish(state, ex.attacker, dice)
        word = "ripostes" if ex.level == 1 else "counter-ripostes"
        dice.record(
            Note(f"{me} wins by {ex.won_by} and {word} with Attack {ex.score} (a choice)", "D05")
        )
        weapon = self.cast.fighters[me].weapon
        if ex.score != ex.won_by and weapon is not None:
            dice.record(
                Modifier(weapon.weapon_class, weapon.attack, f"{me}'s riposte", weapon.name, "D10")
            )
        bout = self._bout(state, ex.attacker, ex.defender)
        b: Board = state.board
        state = moved(state, me, state.phase, dataclasses.replace(b, exchange=None))
        return state, bout, ex.level, ex.score

    def _injure(self, state: FightState, name: str, new: int, dice: DiceSource) -> FightState:
        """Wounds, then the death check if due (D07) and the stun check (D06), by
        :func:`.injury.injure`; a stun lasts until this point of the next turn."""
        c = state.combatant(name)
        f = self.fighter(c)
        opts, house = self.cast.options, self.cast.house

        def checks(d: DiceSource) -> str:
            return injure(d, f, new, opts, house, self.hook)[1]

        status = dice.derive(
            f"{name}'s injury checks",
            checks,
            ("dw2 injury", f.toughness, c.wounds, new, self._readings),
            exact=lambda: injury_table(f.toughness, c.wounds, new, opts, house, self.bonus),
            keep=True,  # the key names the checks by content: met again across kernels
        )
        until = c.stunned_until
        if status == "stunned":
            now = (state.round + 1, state.board.actions + 1)
            until = now if until is None else max(until, now)
        elif status != "wounded":
            until = None
        after = Warrior(
            c.name,
            c.side,
            c.wounds + new,
            until,
            status == "knocked out",
            status == "dead",
            c.stance,
            c.choices_used,
            c.ammunition,
        )
        return moved(state, state.acting, state.phase, state.board, swap(state.combatants, after))

    # -- what the engine reads -----------------------------------------------------------------
    def shift_rounds(self, state: FightState, delta: int) -> FightState | None:
        """Turns are alike; a stun's clock (turn, action) moves with the turn."""
        if state.round + delta < 1:
            return None
        people = state.combatants
        if any(c.stunned_until is not None for c in people):
            people = tuple(c if c.stunned_until is None else _stun_moved(c, delta) for c in people)
        # evolve, not FightState(...): a frozen record's __init__ costs most of a moved kernel
        return evolve(state, round=state.round + delta, combatants=people)

    def decision_features(self, state: FightState) -> dict[str, Any]:
        """A riposte decision's margin and the contest it would be (1 the riposte, 2 the
        counter-riposte, ...); whether the decider, and each enemy, has had his action this
        turn; the feet to each enemy still apart."""
        out: dict[str, Any] = {}
        board: Board = state.board
        ex = board.exchange
        if ex is not None and ex.asking == "riposte":
            out["margin"] = ex.won_by
            out["contest"] = ex.level
        me = state.decider()
        out["acted this turn"] = me in board.done
        mine = state.combatant(me)
        for c in state.combatants:
            if c.side != mine.side and self.can_fight(c):
                out[f"{c.name} acted this turn"] = c.name in board.done
                feet = self.distance(board, me, c.name)
                if feet:
                    out[f"feet to {c.name}"] = feet
        return out

    def can_fight(self, combatant: Any) -> bool:
        return not (combatant.knocked_out or combatant.dead)

    def is_dead(self, combatant: Any) -> bool:
        return bool(combatant.dead)

    def harm(self, combatant: Any) -> int:
        """Wounds taken in this fight (the text's unit)."""
        return int(combatant.wounds) - self.cast.models[combatant.name].wounds

    def is_hurt(self, combatant: Any) -> bool:
        return bool(combatant.wounds > 0 or combatant.stunned)

    def conditions(self, combatant: Any) -> frozenset[str]:
        """D06: stunned."""
        return _STUNNED if combatant.stunned else frozenset()

    def status(self, c: Warrior) -> str:
        if c.dead:
            return "dead"
        if c.knocked_out:
            return "knocked out"
        if c.stunned:
            return "stunned"
        return "wounded" if c.wounds else "unhurt"

    def reported(self, state: FightState) -> tuple[str, ...]:
        """D05: a fight in which an exchange was cut at ``options.max_chain`` (the option
        table promises it is reported)."""
        return ("exchanges cut at options.max_chain",) if state.board.chain_cut else ()

    def unreported(self, state: FightState) -> FightState:
        """The cut flag set aside: a fight goes on from a cut exactly as without one."""
        board: Board = state.board
        if not board.chain_cut:
            return state
        return moved(state, state.acting, state.phase, dataclasses.replace(board, chain_cut=False))

    def view(self, combatant: Any) -> dict[str, Any]:
        c: Warrior = combatant
        f = self.cast.fighters[c.name]
        out: dict[str, Any] = {
            "wounds": c.wounds,
            "toughness": f.toughness,
            "status": self.status(c),
        }
        if c.stunned_until is not None:
            turn, action = c.stunned_until
            out["stunned until"] = f"turn {turn}, action {action}"
        if c.stance != "normal":
            out["stance"] = c.stance
        if c.ammunition is not None:
            out["ammunition"] = c.ammunition
        if c.wounds > f.toughness and self.can_fight(c):
            out["death check"] = "due on the next wound (D07)"
        return out


def _stun_moved(c: Warrior, delta: int) -> Warrior:
    turn, action = present(c.stunned_until, f"{c.name} is not stunned")
    return dataclasses.replace(c, stunned_until=(turn + delta, action))


def _a(stance: str) -> str:
    return f"an {stance}" if stance[0] in "aeiou" else f"a {stance}"


def _target(action: Action) -> str:
    """The action's target: attack, shoot and move name one."""
    return present(action.target, f"action {action.id} names no target")
