"""quality_d100 whole fights: pulses in initiative order, exchanges, and what lasts between them.

A round (the current rules' pulse) starts with initiative (Q08: engaged figures PC + AG +
weapon rank + warrior rank, unengaged ones D10 + PC + 2 x Military Scientist), highest first.
Each figure then takes one action. An attack is an exchange: the attacker declares it, the
defender decides (stand, evade, evade without the parry, repulse a charge), then one strike is
resolved by ``strike.strike`` on a situation built from the two states. What lasts: FT and EN
(FT damage past 0 runs into EN), stun until a recovery roll (2 x WP + current FT), knock-down
until the figure gets up, a disarm until it readies its weapon, the evader's given-up action,
the successful parry's passed action, a defensive withdrawal (+20) until the round's end.
Readings where the text is silent are in docs/rules/quality_d100.md ("Encounters").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from typing import Annotated, Any, ClassVar, Literal, NamedTuple, TypeVar

from pydantic import Field

from firefight.core.layout import Condition, ViewLayout, Vital
from firefight.core.transcript import Note, StateChange
from firefight.core.turns import (
    Action,
    FightState,
    GmField,
    ScenarioSpec,
    Turns,
    evolve,
    shift_round,
)
from firefight.core.validation import MAX_NUMBER
from firefight.dice import DiceSource, Weighted, enumerate_outcomes
from firefight.errors import present
from firefight.rulesets.quality_d100.encounter_actions import decisions, status_words, turn_actions
from firefight.rulesets.quality_d100.equations import (
    EngagedInitiative,
    RepulseCharge,
    StayConscious,
    StunRecovery,
    UnengagedInitiative,
    Withdraw,
    engaged_initiative,
    repulse_charge,
    stay_conscious,
    stun_recovery,
    unengaged_initiative,
    withdraw,
)
from firefight.rulesets.quality_d100.fighters import (
    CLOSE,
    ENGAGED,
    Board,
    Fighter,
    Pending,
    Profile,
    attacker,
    board_of,
    defender,
    engaged,
    initial_board,
    load_profiles,
)
from firefight.rulesets.quality_d100.house import QualityD100House
from firefight.rulesets.quality_d100.models import AttackSituation
from firefight.rulesets.quality_d100.plan import Plan, make_plan
from firefight.rulesets.quality_d100.strike import StrikeOutcome, record_plan, strike

T = TypeVar("T", bound=Hashable)


class Effect(NamedTuple):
    """What a strike does to the two states (exact odds branch on these, not on the qualities
    behind them, which the transcript shows)."""

    ft_damage: int
    en_damage: int
    special: str
    parry: str

    @classmethod
    def of(cls, out: StrikeOutcome) -> Effect:
        return cls(out.ft_damage, out.en_damage, out.special, out.parry)


_D = TypeVar("_D")
BETWEEN = "between rounds"


class QualityTurns(Turns):
    """The quality_d100 turn structure for one scenario (see the module docstring)."""

    state_types: ClassVar[tuple[type, ...]] = (Fighter, Board, Pending)
    public_keys: ClassVar[tuple[str, ...]] = ("status",)
    layout: ClassVar[ViewLayout] = ViewLayout(
        vital=(Vital("FT"), Vital("EN")),
        conditions=(Condition("status", named=False, items=True),),
    )

    def __init__(self, spec: ScenarioSpec) -> None:
        super().__init__(spec)
        if not isinstance(spec.house, QualityD100House):  # the engine loads the ruleset's model
            raise spec.fail("house", "not quality_d100 house rules")
        self.house: QualityD100House = spec.house
        self.profiles: dict[str, Profile] = load_profiles(spec, self.house)
        self.board = initial_board(spec)
        self.sheltered = frozenset(spec.battlefield.cover)
        self.index = {e.name: i for i, e in enumerate(spec.combatants)}
        self._plans: dict[tuple[Any, ...], Plan] = {}
        self._dists: dict[Hashable, Weighted[Any]] = {}

    # -- the protocol ------------------------------------------------------------------------
    def initial(self) -> FightState:
        fighters = tuple(
            Fighter(
                e.name,
                e.side,
                self.profiles[e.name].model.fatigue,
                self.profiles[e.name].model.endurance,
            )
            for e in self.spec.combatants
        )
        return FightState(0, BETWEEN, (), None, fighters, self.board)

    def start_round(self, state: FightState, dice: DiceSource) -> FightState:
        """Initiative (Q08) for every figure still fighting, highest first."""
        state = _replace(state, round=state.round + 1, phase="initiative")
        standing = [c for c in state.combatants if self.can_fight(c)]
        scores = {c.name: self._initiative(state, c, dice) for c in standing}
        counts = Counter(scores.values())
        tie: dict[str, int] = {}
        if self.house.initiative_ties == "d10":
            for c in standing:
                if counts[scores[c.name]] > 1:
                    why = f"{c.name} initiative tie D10 (house rule initiative_ties)"
                    tie[c.name] = dice.roll("d10", why=why).total
        order = tuple(sorted(scores, key=lambda n: (-scores[n], -tie.get(n, 0), self.index[n])))
        listed = ", ".join(f"{n} {scores[n]}" for n in order)
        dice.record(Note(f"order of action: {listed}", "Q08 initiative"))
        if any(k > 1 for k in counts.values()) and not tie:
            dice.record(Note("tied initiative keeps the scenario's order (reading)", "Q08"))
        return self._turn_from(_replace(state, order=order), 0, dice)

    def in_progress(self, state: FightState) -> bool:
        """An exchange waits on the defender's choice (or a riposte): previews follow it."""
        return board_of(state).pending is not None

    # -- the GM's hand ------------------------------------------------------------------------
    def gm_fields(self, state: FightState, name: str) -> Mapping[str, GmField]:
        """FT and EN (0 up to the figure's own), its status, the lasting conditions (stunned,
        knocked down, disarmed, evading, a parry's passed action, withdrawing) and the distance
        to each other figure (``range.NAME``: "engaged", "close" or hexes apart)."""
        m = self.profiles[name].model
        fields: dict[str, GmField] = {
            "ft": GmField(Annotated[int, Field(ge=0, le=m.fatigue)]),
            "en": GmField(Annotated[int, Field(ge=0, le=m.endurance)]),
            "status": GmField(Literal["ready", "unconscious", "dead"]),
        }
        for flag in ("stunned", "prone", "disarmed", "evading", "passes", "withdrawing"):
            fields[flag] = GmField(bool)
        band = Literal["engaged", "close"] | Annotated[int, Field(ge=1, le=MAX_NUMBER)]
        for other in state.names():
            if other != name:
                fields[f"range.{other}"] = GmField(band, _put_range(other))
        return fields

    def pass_turn(self, state: FightState, dice: DiceSource) -> FightState:
        """Its pulse passes without an action; the next figure in the order acts."""
        return self._next_turn(state, state.decider(), dice)

    def end_round(self, state: FightState, dice: DiceSource) -> FightState:
        """The round's end as the last action brings it: withdrawals step out (Q05)."""
        return self._end_round(state, dice)

    def joined(self, state: FightState, newcomer: Any, start: FightState) -> FightState:
        """The newcomer acts after everyone this round and rolls initiative with the rest at
        the next (Q08); its distances come from the battlefield."""
        rows = tuple(d for d in board_of(start).distances if newcomer.name in d[:2])
        board = board_of(state)
        joined = super().joined(state, newcomer, start)
        return evolve(joined, board=Board(board.distances + rows, board.pending))

    def legal_actions(self, state: FightState) -> tuple[Action, ...]:
        board = board_of(state)
        if board.pending is not None:
            return decisions(self, state, board.pending)
        me = present(state.acting, "no one is acting: start a pulse first")
        c = state.combatant(me)
        if c.evading:
            return (Action("pass", me, f"{me} spent this action evading", "wait"),)
        if c.passes:
            return (Action("pass", me, f"{me} passes this action (successful parry, Q07)", "wait"),)
        if c.stunned:
            label = f"{me} tries to shake off the stun (D100 under 2 x WP + FT)"
            return (Action("recover", me, label, "recover"),)
        if c.prone:
            return (Action("stand", me, f"{me} gets up", "stand"),)
        return tuple(turn_actions(self, state, c))

    def act(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        board = board_of(state)
        if board.pending is not None:
            return self._decide(state, board.pending, action, dice)
        me = action.actor
        c = state.combatant(me)
        if action.kind in ("attack", "charge", "shoot"):
            return self._declare(state, action, dice)
        if action.id == "pass":
            # one passed action each: the one given to evading first, then the parry's
            c = _replace(c, evading=False) if c.evading else _replace(c, passes=False)
            dice.record(Note(action.label))
        elif action.id == "recover":
            return self._recover(state, c, dice)
        elif action.id == "stand":
            c = self._change(c, "prone", False, "getting up takes the turn (reading)", dice)
        elif action.id == "ready":
            c = self._change(c, "disarmed", False, "readying takes the turn (reading)", dice)
        elif action.id == "withdraw:defensive":
            c = self._change(c, "withdrawing", True, "Q05 defensive withdrawal", dice)
        elif action.id == "withdraw:close":
            state = self._withdraw_close(state, c, dice)
            c = state.combatant(me)
        return self._next_turn(_put(state, c), me, dice)

    def shift_rounds(self, state: FightState, delta: int) -> FightState | None:
        """No rule reads the round number: every round is alike."""
        return shift_round(state, delta)

    def can_fight(self, combatant: Any) -> bool:
        return bool(combatant.status == "ready")

    def is_dead(self, combatant: Any) -> bool:
        return bool(combatant.status == "dead")

    def harm(self, combatant: Any) -> int:
        """FT and EN lost, in the text's points."""
        m = self.profiles[combatant.name].model
        return int(m.fatigue - combatant.ft + m.endurance - combatant.en)

    def is_hurt(self, combatant: Any) -> bool:
        return self.harm(combatant) > 0 or combatant.stunned or combatant.prone

    def conditions(self, combatant: Any) -> frozenset[str]:
        """What a special lasts as in a fight (Q08, E04): stunned, knocked down (prone),
        disarmed."""
        c = combatant
        return frozenset(
            word
            for word, has in (("stunned", c.stunned), ("prone", c.prone), ("disarmed", c.disarmed))
            if has
        )

    def view(self, combatant: Any) -> dict[str, Any]:
        m = self.profiles[combatant.name].model
        return {
            "FT": f"{combatant.ft}/{m.fatigue}",
            "EN": f"{combatant.en}/{m.endurance}",
            "status": status_words(combatant),
        }

    # -- round and turn ----------------------------------------------------------------------
    def _initiative(self, state: FightState, c: Fighter, dice: DiceSource) -> int:
        m, house = self.profiles[c.name].model, self.house
        if engaged(state, c.name):
            rank = 0 if c.disarmed else m.rank
            v = EngagedInitiative(
                perception=m.perception,
                agility=m.agility,
                weapon_rank=rank,
                warrior_rank=m.warrior_rank,
            )
            return int(engaged_initiative(v, dice, house).value or 0)
        u = UnengagedInitiative(perception=m.perception, military_scientist=m.military_scientist)
        return self._derive(
            dice,
            f"{c.name} initiative",
            ("initiative", c.name),
            lambda d: int(unengaged_initiative(u, d, house).value or 0),
        )

    def _turn_from(self, state: FightState, i: int, dice: DiceSource) -> FightState:
        for name in state.order[i:]:
            if not self.can_fight(state.combatant(name)):
                continue
            state = self._start_turn(state, name, dice)
            if self.can_fight(state.combatant(name)):
                return _replace(state, acting=name, phase="turns")
        return self._end_round(state, dice)

    def _next_turn(self, state: FightState, after: str, dice: DiceSource) -> FightState:
        return self._turn_from(state, state.order.index(after) + 1, dice)

    def _start_turn(self, state: FightState, name: str, dice: DiceSource) -> FightState:
        c = state.combatant(name)
        if self.house.stay_conscious_each_turn and c.en <= self.house.stay_conscious_max_en:
            dice.record(Note(f"{name} starts its turn at EN {c.en}", "Q08 stay conscious"))
            state = _put(state, self._stay_conscious(c, dice))
        return state

    def _end_round(self, state: FightState, dice: DiceSource) -> FightState:
        """Defensive withdrawals step out of engagement now (unless knocked down or stunned)."""
        board = board_of(state)
        for c in state.combatants:
            if not c.withdrawing:
                continue
            if self.can_fight(c) and not (c.prone or c.stunned):
                board = self._disengage(board, state, c.name)
                dice.record(Note(f"{c.name} withdraws out of engagement", "Q05 withdrawal"))
            state = _put(state, _replace(c, withdrawing=False))
        return _replace(state, board=board, acting=None, phase=BETWEEN)

    # -- exchanges ---------------------------------------------------------------------------
    def _declare(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        me, t = action.actor, str(action.target)
        board = board_of(state)
        charge = action.kind == "charge"
        if charge:
            board = board.with_distance(me, t, ENGAGED)
            dice.record(Note(f"{me} charges {t}: now engaged", "Q04 charge"))
            state = _replace(state, board=board)
        p = Pending(
            "defend",
            me,
            t,
            me,
            mode=str(action.param("mode", "melee")),
            special=action.param("special", "none"),
            charge=charge,
            withdraws=me if action.param("withdraws", False) else "",
        )
        return self._open(state, p, dice)

    def _open(self, state: FightState, p: Pending, dice: DiceSource) -> FightState:
        """The defender decides now, unless it cannot choose (stunned, already evading, close)."""
        t = state.combatant(p.target)
        if p.mode == "close" or t.stunned or t.evading:
            return self._exchange(state, p, "auto", dice)
        board = _replace(board_of(state), pending=p)
        return _replace(state, board=board, acting=p.target, phase="defence")

    def _decide(
        self, state: FightState, p: Pending, action: Action, dice: DiceSource
    ) -> FightState:
        state = _replace(state, board=_replace(board_of(state), pending=None))
        if p.kind == "riposte":
            if action.id == "riposte:decline":
                dice.record(Note(action.label, "Q07"))
                return self._after_exchange(state, p, dice)
            dice.record(Note(action.label, "Q07 riposte"))
            again = Pending("defend", p.attacker, p.target, p.turn_of, withdraws=p.withdraws)
            return self._open(state, again, dice)
        return self._exchange(state, p, action.id.removeprefix("defend:"), dice)

    def _exchange(self, state: FightState, p: Pending, choice: str, dice: DiceSource) -> FightState:
        t = state.combatant(p.target)
        if choice == "repulse":
            if self._repulse(t, dice):
                dice.record(Note(f"{t.name} repulses {p.attacker}'s charge: no strike", "Q08"))
                return self._after_exchange(state, p, dice)
            choice = "stand"
        # a stunned figure cannot evade (it keeps the stunned defence only)
        evading = (t.evading or choice.startswith("evade")) and not t.stunned
        if choice.startswith("evade") and self.house.evade_costs_next_action and not t.evading:
            t = _replace(t, evading=True)
            state = _put(state, t)
            dice.record(Note(f"{t.name} evades and gives up its next action", "Q07 evading"))
        key, plan = self._plan(state, p, evading, parry=choice != "evade:noparry")
        if not dice.is_exact:  # speed only: exact dice keep no transcript
            record_plan(plan, dice)
        out = self._derive(dice, "strike", key, lambda d: Effect.of(strike(plan, d)))
        state = self._apply(state, p, out, dice)
        rip, foe = state.combatant(p.target), state.combatant(p.attacker)
        # no riposte at an attacker the parry itself put out of the fight (its EN, Q07)
        riposte = self.can_fight(rip) and not rip.disarmed and self.can_fight(foe)
        if out.parry == "disarm + riposte" and riposte:
            again = Pending("riposte", p.target, p.attacker, p.turn_of, withdraws=p.withdraws)
            board = _replace(board_of(state), pending=again)
            return _replace(state, board=board, acting=p.target, phase="riposte")
        return self._after_exchange(state, p, dice)

    def _after_exchange(self, state: FightState, p: Pending, dice: DiceSource) -> FightState:
        w = p.withdraws and state.combatant(p.withdraws)
        if w and self.can_fight(w) and not (w.prone or w.stunned):
            board = self._disengage(board_of(state), state, w.name)
            dice.record(Note(f"{w.name} withdraws out of engagement", "Q04 offensive withdrawal"))
            state = _replace(state, board=board)
        return self._next_turn(state, p.turn_of, dice)

    def _plan(
        self, state: FightState, p: Pending, evading: bool, parry: bool
    ) -> tuple[tuple[Any, ...], Plan]:
        """The situation file the two states make, planned once (Q04/Q05 flags from the state);
        returned with a small key naming it."""
        a, t = state.combatant(p.attacker), state.combatant(p.target)
        hexes = board_of(state).between(a.name, t.name) if p.mode == "ranged" else 0
        key = (p, evading, parry, a.ft <= 0, t.ft <= 0, t.stunned, t.withdrawing, t.prone,
               t.disarmed, hexes)  # fmt: skip
        found = self._plans.get(key)
        if found is not None:
            return key, found
        pa, pt = self.profiles[a.name], self.profiles[t.name]
        mode = p.mode
        af: dict[str, Any] = {}
        df: dict[str, Any] = {"stunned": t.stunned}
        if mode in ("close", "melee"):
            af["no_fatigue"] = a.ft <= 0
            df["no_fatigue"] = t.ft <= 0
        if mode == "melee":
            af["offensive_withdrawal"] = p.withdraws == a.name
            if p.charge:
                pole = pa.weapon is not None and pa.weapon.pole
                af["charge"] = "pole_or_shield" if pole or pa.model.shield else "other"
            df["defensive_withdrawal"] = t.withdrawing
        if mode in ("melee", "ranged"):
            df["evading"] = evading
            df["kneeling_or_prone"] = t.prone
        if mode == "ranged":
            af["range_hexes"] = hexes
            df["sheltered_hex"] = t.name in self.sheltered
        sit = AttackSituation(
            mode=mode,
            special=p.special,
            attacker=attacker(pa.model, **af),
            defender=defender(
                pt.model,
                pt.weapon is not None and pt.weapon.two_handed,
                rank=0 if t.disarmed else pt.model.rank,
                parry=parry and not t.disarmed,
                **df,
            ),
        )
        plan = self._plans[key] = make_plan(sit, self.house, self.spec.source)
        return key, plan

    def _apply(self, state: FightState, p: Pending, out: Effect, dice: DiceSource) -> FightState:
        """The strike's outcome on the two states: damage, special effect, stun, parry."""
        t = state.combatant(p.target)
        if out.ft_damage or out.en_damage or out.special:
            t = self._damage(t, out.ft_damage, out.en_damage, dice)
            if out.special == "knocked out" and t.status == "ready":
                t = self._change(t, "status", "unconscious", "Q08 knockout", dice)
            elif out.special == "knocked down":
                t = self._change(t, "prone", True, f"Q08 {p.special.replace('_', ' ')}", dice)
            elif out.special == "disarmed":
                t = self._change(t, "disarmed", True, "Q08 disarm", dice)
            stuns = self.house.stun_on_endurance_hit and out.en_damage > 0
            if stuns and t.status == "ready" and not t.stunned:
                t = self._change(t, "stunned", True, "an EN hit stuns (reading)", dice)
        if out.parry == "parry":
            t = self._change(t, "passes", True, "Q07 parry", dice)
        state = _put(state, t)
        if out.parry in ("disarm", "disarm + riposte"):
            a = self._change(state.combatant(p.attacker), "disarmed", True, "Q07 parry", dice)
            state = _put(state, a)
            hurt = p.attacker if self.house.parry_en_damage_to == "attacker" else p.target
            state = _put(
                state, self._damage(state.combatant(hurt), 0, self.house.parry_en_damage, dice)
            )
        return state

    # -- lasting state -----------------------------------------------------------------------
    def _damage(self, f: Fighter, ft_dmg: int, en_dmg: int, dice: DiceSource) -> Fighter:
        """FT then EN; FT damage past 0 runs into EN (current rules); EN 3 or less: stay
        conscious (Q08); EN at the house's death line: dead."""
        h = self.house
        ft, en = f.ft, f.en
        if ft_dmg:
            new_ft = max(0, ft - ft_dmg)
            if new_ft != ft:
                dice.record(StateChange(f.name, "FT", ft, new_ft, "Q03"))
            over = ft_dmg - (ft - new_ft)
            if over and h.fatigue_overflow_to_en:
                dice.record(Note(f"{over} FT damage past 0 FT runs into EN", "Q03 current rules"))
                en_dmg += over
            ft = new_ft
        if en_dmg:
            dice.record(StateChange(f.name, "EN", en, en - en_dmg, "Q03"))
            en -= en_dmg
        f = _replace(f, ft=ft, en=en)
        if en_dmg and f.status == "ready":
            if en <= h.dead_at_endurance:
                f = self._change(f, "status", "dead", "EN 0 or less (reading)", dice)
            elif en <= h.stay_conscious_max_en:
                f = self._stay_conscious(f, dice)
        return f

    def _stay_conscious(self, f: Fighter, dice: DiceSource) -> Fighter:
        if f.status != "ready" or f.en <= self.house.dead_at_endurance:
            return f
        en, wp = f.en, self.profiles[f.name].model.willpower
        ok = self._derive(
            dice,
            f"{f.name} stays conscious",
            ("stay conscious", en, wp),
            lambda d: bool(
                stay_conscious(StayConscious(endurance=en, willpower=wp), d, self.house).passed
            ),
        )
        return f if ok else self._change(f, "status", "unconscious", "Q08 stay conscious", dice)

    def _recover(self, state: FightState, c: Fighter, dice: DiceSource) -> FightState:
        wp, ft = self.profiles[c.name].model.willpower, c.ft
        ok = self._derive(
            dice,
            f"{c.name} stun recovery",
            ("stun recovery", wp, ft),
            lambda d: bool(
                stun_recovery(StunRecovery(willpower=wp, fatigue=ft), d, self.house).passed
            ),
        )
        if not ok:
            return self._next_turn(state, c.name, dice)
        state = _put(state, self._change(c, "stunned", False, "Q08 stun recovery", dice))
        if self.house.stun_recovery_then_act:
            return state
        return self._next_turn(state, c.name, dice)

    def _repulse(self, t: Fighter, dice: DiceSource) -> bool:
        rank = self.profiles[t.name].model.rank
        return self._derive(
            dice,
            f"{t.name} repulses a charge",
            ("repulse", rank),
            lambda d: bool(repulse_charge(RepulseCharge(rank=rank), d, self.house).passed),
        )

    def _withdraw_close(self, state: FightState, c: Fighter, dice: DiceSource) -> FightState:
        """Q08: D10 + the PS of friends in the close combat - the PS of the foes in it >= 10."""
        foes = engaged(state, c.name, CLOSE)
        board = board_of(state)
        friends = {c.name} | {
            f.name
            for f in state.combatants
            if f.side == c.side
            and self.can_fight(f)
            and any(board.between(f.name, e) == CLOSE for e in foes if e != f.name)
        }
        ps = self.profiles
        v = Withdraw(
            friendly_ps=sum(ps[n].model.physical_strength for n in sorted(friends)),
            hostile_ps=sum(ps[n].model.physical_strength for n in foes),
        )
        ok = self._derive(
            dice,
            f"{c.name} withdraws",
            ("withdraw", v.friendly_ps, v.hostile_ps),
            lambda d: bool(withdraw(v, d, self.house).passed),
        )
        if ok:
            for e in foes:
                board = board.with_distance(c.name, e, ENGAGED)
            dice.record(Note(f"{c.name} is out of close combat, still engaged in melee", "Q08"))
        return _replace(state, board=board)

    # -- helpers -----------------------------------------------------------------------------
    def _derive(
        self, dice: DiceSource, why: str, key: Hashable, fn: Callable[[DiceSource], T]
    ) -> T:
        """A sub-rule on any dice; on exact dice its distribution is enumerated once a fight
        (keyed by the few numbers it depends on) and each replay branches on its results."""
        if not dice.is_exact:
            return fn(dice)
        found: Weighted[T] | None = self._dists.get(key)
        if found is None:
            found = self._dists[key] = enumerate_outcomes(fn)
        table = found
        return dice.derive(why, fn, key=key, exact=lambda: table)

    def _disengage(self, board: Board, state: FightState, name: str) -> Board:
        for e in engaged(state, name, ENGAGED):
            board = board.with_distance(name, e, 1)
        return board

    def _change(self, f: Fighter, field: str, value: Any, rule: str, dice: DiceSource) -> Fighter:
        dice.record(StateChange(f.name, field, getattr(f, field), value, rule))
        return _replace(f, **{field: value})


def _replace(obj: _D, **changes: Any) -> _D:
    """``dataclasses.replace`` without its per-field checks (exact odds call this a lot); a
    kept hash (``FightState._hash``) is not a field and is not copied."""
    fields = {k: v for k, v in obj.__dict__.items() if k != "_hash"}
    new: _D = type(obj)(**{**fields, **changes})
    return new


def _put(state: FightState, new: Fighter) -> FightState:
    """``state.with_combatant(new)``, quicker."""
    combatants = tuple(new if c.name == new.name else c for c in state.combatants)
    return _replace(state, combatants=combatants)


def _put_range(other: str) -> Callable[[FightState, str, Any], FightState]:
    def put(state: FightState, name: str, band: Any) -> FightState:
        return evolve(state, board=board_of(state).with_distance(name, other, band))

    return put
