"""graydawn's turn structure for the encounter engine (G13, G15-G19, G31-G35).

A round, in the text's order of operations (G16):

1. initiative (G33): REF + 1d10x (+3 with a pistol, +3 for an ambushing side in round 1): once
   for the fight (the handout's streamlined system, default) or every round (house
   ``initiative = "traditional"``); a total <= 0 misses the round and rolls again;
2. the suppressing-fire phase: each combatant who can, in reverse initiative order, declares
   targets and volume or declines (a decision each); then the suppressing attacks vs the range
   TN (G09) and covering fire (G29), levels applied and the targets' suppression checks (G10),
   with what a failure forces (G32 full cover, a beeline for cover, panic, G35 flushing);
3. everyone else acts in initiative order: one decision per turn, the whole turn's plan
   (:mod:`.encounter_actions`, resolved in :mod:`.encounter_turn`); a stunned combatant rolls
   its stun save instead (G18), a panicked one flees (G15); when a combatant's actions are done
   its suppression lifts (G13);
4. end of round: a turn (10 rounds) in mortal condition bleeds a mark and needs a death save;
   a dying combatant dies when its turn is up unless stabilised (G19).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import partial
from typing import Any, ClassVar

from firefight.core.layout import Condition, ViewLayout, Vital
from firefight.core.transcript import Note, StateChange
from firefight.core.turns import (
    Action,
    FightState,
    GmField,
    ScenarioSpec,
    Stage,
    Turns,
    Unread,
    evolve,
)
from firefight.dice import DiceSource
from firefight.rulesets.graydawn import encounter_fire as fire
from firefight.rulesets.graydawn import encounter_gm as gm
from firefight.rulesets.graydawn import tactics
from firefight.rulesets.graydawn.checks import roll_under
from firefight.rulesets.graydawn.contest import luck_use
from firefight.rulesets.graydawn.damage import save_penalty
from firefight.rulesets.graydawn.encounter_actions import (
    can_suppress,
    declarations,
    pending_action,
    turn_actions,
)
from firefight.rulesets.graydawn.encounter_plans import after_fight_lines, resolve_turn
from firefight.rulesets.graydawn.encounter_setup import Entry, read_distances, read_entries
from firefight.rulesets.graydawn.encounter_state import (
    STATE_TYPES,
    Board,
    Declared,
    Fighter,
    put,
)
from firefight.rulesets.graydawn.encounter_turn import (
    automatic_turn,
    end_turn,
    suppressing_fire,
    suppression_check,
)
from firefight.rulesets.graydawn.house import GraydawnHouse
from firefight.rulesets.graydawn.models import content_key
from firefight.rulesets.graydawn.plan import stat_penalty
from firefight.rulesets.graydawn.suppression import unsuitable_reason

#: Most round starts :meth:`GraydawnTurns._round_reset` keeps before it starts over.
RESET_CACHE = 4096


class GraydawnTurns(Turns):
    """One scenario's fights (see the module docstring)."""

    state_types: ClassVar[tuple[type, ...]] = STATE_TYPES
    public_keys: ClassVar[tuple[str, ...]] = ("status", "wound state", "stance")
    #: The wound track drawn to 13 marks, where G20's mortal wounds begin.
    layout: ClassVar[ViewLayout] = ViewLayout(
        vital=(Vital("wound track", most=13, taken=True),),
        conditions=(
            Condition("status", named=False),
            Condition("wound state", named=False),
            Condition("stance", named=False),
            Condition("suppression levels"),
            Condition("grappled by"),
            Condition("crippled", items=True),
            Condition("severed", items=True),
            Condition("weapon", words=("broken", "dropped", "lodged")),
            Condition("ammunition", words=("jammed", "broken", "slung")),
        ),
    )

    def __init__(self, spec: ScenarioSpec) -> None:
        super().__init__(spec)
        house = spec.house
        if not isinstance(house, GraydawnHouse):  # the engine loads the ruleset's model
            raise spec.fail("house", "not graydawn house rules")
        self.house = house
        entries = read_entries(spec, self.house)
        self.entries: dict[str, Entry] = {e.name: e for e in entries}
        self.index = {e.name: i for i, e in enumerate(entries)}
        self.distances = read_distances(spec, tuple(self.entries))
        self.ambush: str | None = spec.extra.get("ambush")
        self.sits = fire.Situations(self.entries, self.house)
        self.reach_cache: dict[Any, bool] = {}
        #: :meth:`_fewest_levels` by what :func:`_levels_read` reads of a fighter.
        self._fewest: dict[tuple[Any, ...], int] = {}
        #: :meth:`_round_reset` by state, on exact dice.
        self._resets: dict[FightState, Any] = {}
        #: This scenario by content (house, combatants, their fight fields and cover, the
        #: distances, the ambush): in the keys of its kept sub-rules (a shot), so equal
        #: scenarios share them and no other scenario ever meets them.
        self.token = repr(
            (
                content_key(self.house),
                tuple(
                    (e.name, e.side, content_key(e.combatant), content_key(e.extra), e.cover)
                    for e in entries
                ),
                self.distances,
                self.ambush,
            )
        )
        #: Traditional initiative and nobody able to lay suppressing fire: no rule reads a
        #: score again after the order is set (no fumble's "initiative - levels", no panic
        #: re-roll "keeping the lower"), so the state keeps only the order (ranks), and exact
        #: chains do not multiply by every pair of scores.
        self.rank_only = self.house.initiative == "traditional" and not any(
            e.combatant.weapon is not None
            and unsuitable_reason(e.combatant.weapon, self.house.suppression) is None
            for e in entries
        )

    # -- the state ---------------------------------------------------------------------------
    def initial(self) -> FightState:
        fighters = []
        for e in self.entries.values():
            c, w = e.combatant, e.combatant.armed()
            has_cover = e.cover is not None
            cover_m = e.extra.cover_m if has_cover else -1
            fighters.append(
                Fighter(
                    name=e.name,
                    side=e.side,
                    minor=c.wounds.minor,
                    wounding=c.wounds.wounding,
                    crippling=c.wounds.crippling,
                    stun_marks=c.wounds.stun,
                    crippled=tuple(c.wounds.crippled),
                    severed=tuple(c.wounds.severed),
                    luck=c.luck_available,
                    ammo=w.magazine if w.is_firearm else 0,
                    spares=e.extra.spare_magazines,
                    ready=not (e.extra.slung and w.kind in _slung_kinds()),
                    stance="active_cover" if has_cover and cover_m == 0 else "open",
                    cover_m=cover_m,
                    ambushed=self.ambush is not None and e.side != self.ambush,
                )
            )
        return FightState(0, "initiative", (), None, tuple(fighters), Board(self.distances))

    # -- G33 initiative ----------------------------------------------------------------------
    def start_round(self, state: FightState, dice: DiceSource) -> FightState:
        rnd, fighters, rollers = self._round_reset(state, dice.is_exact)
        if rollers:
            key = ("initiative", self.rank_only, tuple(r[:3] for r in rollers))
            scores = dice.derive(
                "initiative (G33)", partial(_roll_all, rollers, self.rank_only), key, keep=True
            )
            new = dict(zip((r[0] for r in rollers), scores, strict=True))
            fighters = [
                evolve(f, initiative=new[f.name], reroll=False) if f.name in new else f
                for f in fighters
            ]
        state = evolve(
            state, round=rnd, combatants=tuple(fighters), board=Board(state.board.distances)
        )
        order = self.order(state)
        for name in order:
            f = state.combatant(name)
            if f.initiative <= 0:
                dice.record(Note(f"{name}: initiative {f.initiative}, misses the round", "G33"))
                state = put(state, evolve(f, acted=True, reroll=True))
        dice.record(Note("order: " + ", ".join(order), "G33"))
        state = evolve(state, order=order, phase="declare", acting=None)
        return self.advance(state, dice)

    def _round_reset(
        self, state: FightState, keep: bool
    ) -> tuple[int, list[Fighter], tuple[tuple[str, int, int, int], ...]]:
        """The round's start before its dice (G33): each fighter's round fields reset, and who
        rolls initiative with what. Kept per state on exact dice, which replay the round's start
        once per initiative outcome (a copy of the list is handed out)."""
        found = self._resets.get(state) if keep else None
        if found is None:
            found = self._reset_round(state)
            if keep:
                if len(self._resets) > RESET_CACHE:
                    self._resets.clear()
                self._resets[state] = found
        rnd, fighters, rollers = found
        return rnd, list(fighters), rollers

    def _reset_round(
        self, state: FightState
    ) -> tuple[int, tuple[Fighter, ...], tuple[tuple[str, int, int, int], ...]]:
        rnd = state.round + 1
        fighters = []
        rollers: list[tuple[str, int, int, int]] = []
        for f in state.combatants:
            f = evolve(f, acted=f.out, **_ROUND_FIELDS)
            if self._rolls(f, rnd):
                rollers.append((f.name, *self.initiative_base(f), f.initiative))
            fighters.append(f)
        return rnd, tuple(fighters), tuple(rollers)

    def _rolls(self, f: Fighter, rnd: int) -> bool:
        """G33: whether ``f`` rolls initiative as round ``rnd`` starts: in the fight, and in
        round 1, after a total <= 0 or a lost action, or every round (traditional)."""
        return not f.out and (rnd == 1 or f.reroll or self.house.initiative == "traditional")

    def round_start_stand_in(self, state: FightState) -> FightState | None:
        """What the round's start (:meth:`start_round`) sets before reading it, at fixed
        values: each fighter's round fields (:data:`_ROUND_FIELDS`, ``acted``), the order, the
        declarations, and the score of each fighter who rolls initiative again (his re-roll
        mark kept true, so he still does). A knife duel's rounds end in states that differ
        mostly in the last round's scores and order."""
        rnd = state.round + 1
        people = []
        for f in state.combatants:
            score = {"initiative": 0, "reroll": True} if self._rolls(f, rnd) else {}
            people.append(evolve(f, acted=False, **_ROUND_FIELDS, **score))
        return evolve(state, order=(), combatants=tuple(people), board=Board(state.board.distances))

    def initiative_base(self, f: Fighter) -> tuple[int, int]:
        """G33: REF (less the G20 wound penalty) and the modifiers (+3 with a pistol)."""
        e = self.entries[f.name]
        s, w = e.combatant.stats, e.combatant.weapon
        ref = s.REF + stat_penalty(s.REF, f.marks)
        mods = tactics.initiative_modifiers(
            pistol=w is not None and w.kind == "pistol", rules=self.house.suppression
        )
        return ref, mods

    def order(self, state: FightState) -> tuple[str, ...]:
        """Highest initiative first; ties: higher REF, then the scenario's order (reading).
        Round 1 of an ambush: the ambushers +3 and the first of them takes the first shot."""
        first = None
        if self.ambush is not None and state.round == 1:
            first = next(e.name for e in self.entries.values() if e.side == self.ambush)

        def key(f: Fighter) -> tuple[int, int, int, int]:
            score = f.initiative + self.order_bonus(state, f)
            ref = self.entries[f.name].combatant.stats.REF
            return (0 if f.name == first else 1, -score, -ref, self.index[f.name])

        alive = [f for f in state.combatants if not f.out]
        return tuple(f.name for f in sorted(alive, key=key))

    def order_bonus(self, state: FightState, f: Fighter) -> int:
        """What :meth:`order` adds to ``f``'s score: the ambush bonus in round 1 (G33)."""
        if self.ambush is not None and state.round == 1 and f.side == self.ambush:
            return self.house.suppression.ambush_initiative_bonus
        return 0

    # -- the round's flow ---------------------------------------------------------------------
    def advance(self, state: FightState, dice: DiceSource, brief: bool = False) -> FightState:
        """Everything automatic up to the next decision, or the round's end (acting None)."""
        while not _settled(state):
            state = self._advance_step(state, dice, brief)
        return state

    def _advance_step(self, state: FightState, dice: DiceSource, brief: bool = False) -> FightState:
        """One part of :meth:`advance`: the next declarer asked, the suppressing fire, its
        checks, one combatant's turn or the round's end (a settled state is left as it is).
        Written once for both routes: rolling dice run the parts in a loop, an exact preview
        runs each part over the distinct states the one before left (:meth:`preview_stages`),
        ``brief`` (:func:`.encounter_turn.brief_wound`)."""
        if _settled(state):
            return state
        if state.phase == "declare":
            board = state.board
            for name in reversed(state.order):  # G16: reverse initiative order
                f = state.combatant(name)
                if name in board.asked or f.out:
                    continue
                if can_suppress(self, f) and len(declarations(self, state, f)) > 1:
                    return evolve(state, acting=name)
            return suppressing_fire(self, state, dice, brief)
        if state.phase == "checks":
            return suppression_check(self, state, dice, brief)
        up = next((n for n in state.order if not state.combatant(n).acted), None)
        if up is None:
            return self._end_round(state, dice)
        return self._turn(state, up, dice, brief)

    def _turn(
        self, state: FightState, name: str, dice: DiceSource, brief: bool = False
    ) -> FightState:
        """``name``'s turn up to its decision (acting set) or, a turn nobody chooses, done."""
        f = self._turn_starts(state.combatant(name))
        if f.prone and self.house.stand_up == "free_move" and not f.out:
            dice.record(StateChange(name, "prone", True, False, "G06; up with the free move, G34"))
            f = evolve(f, prone=False)
        state = put(state, f)
        if f.out or f.suppressing:
            return end_turn(self, state, name, dice)
        if f.status == "stunned":
            f = self._stun_save(f, dice)
            state = put(state, f)
            if f.status == "stunned":
                return end_turn(self, state, name, dice)
        state, done = automatic_turn(self, state, f, dice, brief)
        if done:
            return end_turn(self, state, name, dice)
        return evolve(state, acting=name)

    def _turn_starts(self, f: Fighter) -> Fighter:
        """G34/G35: its movement bonus ends and a flanker's advantage is gone (it may shift);
        an ambushed combatant has now had its chance to act."""
        if f.moves or f.flanked_by or f.ambushed:
            return evolve(f, moves=0, flanked_by=(), ambushed=False)
        return f

    def _stun_save(self, f: Fighter, dice: DiceSource) -> Fighter:
        """G18: a stunned combatant rolls a stun save when its initiative comes up; a success
        ends the stun and it acts now (reading)."""
        e = self.entries[f.name]
        luck = luck_use(e.combatant, e.extra.luck, "stun_save", self.house, f.luck)
        passed, left = roll_under(
            dice,
            name=f"{f.name} stun save to recover",
            stat=e.combatant.stats.BODY,
            modifier=save_penalty(f.marks, self.house),
            rule="G18",
            luck=luck,
        )
        new = evolve(f, luck=left, status="ready" if passed else "stunned")
        fire.record_status(dice, f, new)
        return new

    def _end_round(self, state: FightState, dice: DiceSource) -> FightState:
        fighters = []
        for f in state.combatants:
            if f.levels:
                f = evolve(f, levels=0, check="none", fired_at=0, hits_taken=0)
            fighters.append(fire.end_of_round(dice, f, self.entries[f.name], self.house))
        return evolve(state, combatants=tuple(fighters), phase="end", acting=None)

    # -- decisions ----------------------------------------------------------------------------
    def legal_actions(self, state: FightState) -> tuple[Action, ...]:
        f = state.combatant(state.decider())
        if state.phase == "declare":
            return declarations(self, state, f)
        if f.pending:
            return (pending_action(f),)
        return turn_actions(self, state, f)

    def act(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        for stage in self._stages(state, action):
            state = stage(state, dice)
        return state

    def preview_act(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        """``act`` with the wounds taken in the automatic turns that follow the action told
        briefly (:func:`.encounter_turn.brief_wound`): the same preview, fewer branches."""
        for stage in self._stages(state, action, brief=True):
            state = stage(state, dice)
        return state

    def preview_stages(self, state: FightState, action: Action) -> tuple[Stage, ...] | None:
        """A declaration's parts (:meth:`_stages`, as :meth:`preview_act` runs them): the last
        one plays the suppressing fire, its checks and the turns nobody chooses, so a preview
        merges equal states between them. A turn's plan previews path by path (``None``): its
        outcomes are already merged by kept sub-rules and what follows is mostly the next
        decision, so parts would only add their bookkeeping (about a third more time)."""
        return self._stages(state, action, brief=True) if state.phase == "declare" else None

    def preview_idle(self, state: FightState) -> Unread | None:
        """Once the checks are made the turns' order is set: the initiative scores and the
        re-roll mark are only read when the next round starts (G33)."""
        if state.phase not in ("turns", "end"):
            return None
        return tuple((i, _SCORES) for i in range(len(state.combatants)))

    def preview_stand_in(self, state: FightState) -> FightState | None:
        """Once the checks are made, a fighter still to take its turn is read by its levels
        only as whether it is suppressed and as the penalty its automatic turn may take (G10,
        G12, G15: hunkering or fleeing in the open, :func:`_levels_read`); its turn's end lifts
        them (G13). So its levels stand at the fewest read alike, and a volley's every level
        count does not carry a state of its own into the turns."""
        if state.phase != "turns":
            return None
        people = list(state.combatants)
        for i, f in enumerate(people):
            if f.acted or f.levels <= 1:
                continue
            levels = self._fewest_levels(f)
            if levels != f.levels:
                people[i] = evolve(f, levels=levels)
        if people == list(state.combatants):
            return None
        return evolve(state, combatants=tuple(people))

    def _fewest_levels(self, f: Fighter) -> int:
        """The fewest levels :func:`_levels_read` reads as ``f``'s, kept by what it reads (a
        volley's preview asks it of thousands of states)."""
        key = (f.levels, f.lost_action, f.in_cover, f.panicked, f.check, f.stance)
        found = self._fewest.get(key)
        if found is None:
            read = _levels_read(f, self.house)
            found = f.levels
            while found > 1 and _levels_read(evolve(f, levels=found - 1), self.house) == read:
                found -= 1
            self._fewest[key] = found
        return found

    def preview_carry(
        self, state: FightState
    ) -> tuple[FightState, tuple[tuple[int, Fraction], ...]] | None:
        """The marks' means that fighters told briefly carry (:class:`.encounter_turn.
        BriefFighter`), taken out: nothing in the round reads them, only the preview's harm."""
        apart = tuple(
            (i, f.carried) for i, f in enumerate(state.combatants) if getattr(f, "carried", 0)
        )
        if not apart:
            return None
        people = list(state.combatants)
        for i, _ in apart:
            people[i] = evolve(people[i], carried=Fraction(0))
        return evolve(state, combatants=tuple(people)), apart

    def _stages(self, state: FightState, action: Action, brief: bool = False) -> tuple[Stage, ...]:
        """The action's parts; ``brief`` for a preview (:meth:`preview_act`)."""
        state.decider()  # someone is acting, or one line saying the state is damaged
        if state.phase == "declare":
            first: Stage = partial(self._declared, action)
        else:
            first = partial(self._resolved, action, brief=brief)
        # the next declarer or the fire, a check each (at most) and the new order, a turn each
        # still to come, the round's end
        to_come = sum(not f.acted for f in state.combatants)
        parts = to_come + (to_come + 3 if state.phase == "declare" else 1)
        step: Stage = partial(self._advance_step, brief=True) if brief else self._advance_step
        rest: Stage = partial(self.advance, brief=True) if brief else self.advance
        return (first, *(step,) * parts, rest)

    def _declared(self, action: Action, state: FightState, dice: DiceSource) -> FightState:
        return self._declare(state, action, dice)

    def _resolved(
        self, action: Action, state: FightState, dice: DiceSource, brief: bool = False
    ) -> FightState:
        """The turn's plan (``brief``: a preview's, :func:`.encounter_plans.resolve_turn`);
        the rest of the turn is a decision of its own (acting kept), else the turn is over."""
        state = resolve_turn(self, state, action, dice, brief)
        after = state.combatant(action.actor)
        if after.pending and not after.out and after.status == "ready":
            return evolve(state, acting=action.actor)  # the rest of its turn
        return evolve(end_turn(self, state, action.actor, dice), acting=None)

    def _declare(self, state: FightState, action: Action, dice: DiceSource) -> FightState:
        board = state.board
        f = state.combatant(action.actor)
        asked = (*board.asked, f.name)
        declared = board.declared
        if action.kind == "suppress":
            d = Declared(f.name, str(action.target), action.param("fire"), action.param("rounds"))
            declared = (*declared, d)
            new = evolve(f, suppressing=True, ammo=f.ammo - d.rounds)
            dice.record(StateChange(f.name, "rounds in magazine", f.ammo, new.ammo, "G09/G16"))
            state = put(state, new)
        board = Board(board.distances, asked, declared)
        return evolve(state, board=board, acting=None)

    # -- the GM's hand (encounter_gm) ---------------------------------------------------------
    def gm_fields(self, state: FightState, name: str) -> Mapping[str, GmField]:
        return gm.gm_fields(self, state, name)

    def busy(self, state: FightState) -> str | None:
        return gm.busy(state) or super().busy(state)

    def pass_turn(self, state: FightState, dice: DiceSource) -> FightState:
        return gm.pass_turn(self, state, dice)

    def end_round(self, state: FightState, dice: DiceSource) -> FightState:
        return gm.end_round(self, state, dice)

    def joined(self, state: FightState, newcomer: Any, start: FightState) -> FightState:
        return gm.joined(state, newcomer, start)

    def left(self, state: FightState, name: str) -> FightState:
        return gm.left(state, name)

    # -- what the engine reads -----------------------------------------------------------------
    def can_fight(self, combatant: Any) -> bool:
        return not combatant.out

    def is_dead(self, combatant: Any) -> bool:
        return bool(combatant.status == "dead")

    def harm(self, combatant: Any) -> int:
        """Marks on the wound track (G21), the text's unit of harm (in a preview, plus the
        exact mean a fighter told briefly carries, :class:`.encounter_turn.BriefFighter`)."""
        carried = getattr(combatant, "carried", 0)
        return int(combatant.marks) + carried if carried else int(combatant.marks)

    def conditions(self, combatant: Any) -> frozenset[str]:
        """G18 stunned; G10-G15 suppressed (levels on it), pinned (a lost action), panicked;
        G06/G40 disarmed (its weapon broken, or a melee weapon dropped), jammed, prone. What a
        brief preview merges (the track's boxes, crippled limbs) is left out."""
        f: Fighter = combatant
        melee = self.entries[f.name].combatant.armed().kind == "melee"
        return frozenset(
            word
            for word, has in (
                ("stunned", f.status == "stunned"),
                ("suppressed", f.levels > 0),
                ("pinned", f.lost_action),
                ("panicked", f.panicked),
                ("disarmed", f.broken or (melee and not f.ready)),
                ("jammed", f.jammed),
                ("prone", f.prone),
            )
            if has
        )

    def is_hurt(self, combatant: Any) -> bool:
        return bool(
            combatant.marks > 0
            or combatant.levels > 0
            or combatant.panicked
            or combatant.status != "ready"
        )

    def decision_features(self, state: FightState) -> dict[str, Any]:
        """Whether the decider's weapon is in hand (the view shows it for firearms only), and
        the metres to each enemy still able to fight."""
        me: Fighter = state.combatant(state.decider())
        board: Board = state.board
        out: dict[str, Any] = {"weapon in hand": me.ready}
        for c in state.combatants:
            if c.side != me.side and self.can_fight(c):
                out[f"metres to {c.name}"] = board.distance(me.name, c.name)
        return out

    def view(self, combatant: Any) -> dict[str, Any]:
        f: Fighter = combatant
        e = self.entries[f.name]
        w = e.combatant.armed()
        gun = "-"
        if w.is_firearm:
            gun = f"{f.ammo}/{w.magazine} (+{f.spares} magazines)"
            gun += " jammed" if f.jammed else ""
            gun += " broken" if f.broken else ""
            gun += "" if f.ready else " slung"
        weapon = w.name
        if w.kind == "melee":  # G06: what a fumble left of it
            weapon += " broken" if f.broken else ("" if f.ready else " dropped")
        weapon += " lodged" if f.lodged else ""
        weapon += " (next attack -3)" if f.overextended else ""
        return {
            "status": f.status + (" (panicked)" if f.panicked else ""),
            "wound track": f"{f.marks} marks",
            "wound state": f.wound_state,
            "marks": f"{f.minor} minor, {f.wounding} wounding, {f.crippling} crippling, "
            f"{f.stun_marks} stun",
            "crippled": ", ".join(f.crippled) or "-",
            "severed": ", ".join(f.severed) or "-",
            "luck points": f.luck,
            "weapon": weapon,
            "ammunition": gun,
            "initiative": f.initiative,
            "stance": f.stance.replace("_", " ") + (" (prone)" if f.prone else ""),
            "cover": "behind it"
            if f.cover_m == 0
            else ("none" if f.cover_m < 0 else f"{f.cover_m} m away"),
            "suppression levels": f.levels,
            "grappled by": f.grappled_by or "-",
        }

    def after_fight(self, state: FightState) -> list[str]:
        return after_fight_lines(self, state)


#: The fields a round's start sets afresh on every fighter (G10-G16: this round's suppression,
#: declarations and lost action), beside ``acted`` (whether he is out).
_ROUND_FIELDS: dict[str, Any] = {
    "suppressing": False,
    "lost_action": False,
    "levels": 0,
    "check": "none",
    "fired_at": 0,
    "hits_taken": 0,
}
#: What :meth:`GraydawnTurns.preview_idle` sets aside.
_SCORES = ("initiative", "reroll")


def _levels_read(f: Fighter, house: GraydawnHouse) -> tuple[bool, int]:
    """What the rest of a round reads of a fighter's levels before its turn ends (G13): whether
    it is suppressed, and the penalty (G10/G11) if its automatic turn may take one: hunkering
    in the open after a lost action (G12), or a panic (G15: hunkering in the open, or the dodge
    check through automatic fire)."""
    lost_in_open = f.lost_action and not f.in_cover
    pen = fire.penalty(f, True, house) if lost_in_open or f.panicked else 0
    return f.levels > 0, pen


def _settled(state: FightState) -> bool:
    """Someone decides now, or the round is over: :meth:`GraydawnTurns.advance` stops here."""
    return state.acting is not None or state.phase == "end"


def _roll_all(
    rollers: Sequence[tuple[str, int, int, int]], rank_only: bool, dice: DiceSource
) -> tuple[int, ...]:
    """G33: REF + 1d10x + modifiers for each roller, as one sub-rule. A score of 0 or less only
    says "misses the round and rolls again" (kept as 0, so exact dice branch on it once); with
    ``rank_only`` the scores become their ranks (1 = lowest, ties kept)."""
    scores = []
    for name, ref, mods, before in rollers:
        score = tactics.roll_initiative(dice, ref, mods, name)
        dice.record(StateChange(name, "initiative", before, score, "G33"))
        scores.append(max(score, 0))
    if rank_only:
        ranks = {v: i + 1 for i, v in enumerate(sorted({v for v in scores if v > 0}))}
        return tuple(ranks.get(v, 0) for v in scores)
    return tuple(scores)


def _slung_kinds() -> tuple[str, ...]:
    from firefight.rulesets.graydawn.encounter_actions import SLUNG_KINDS

    return SLUNG_KINDS
