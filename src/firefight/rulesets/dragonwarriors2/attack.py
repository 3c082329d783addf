"""Roll to hit (D04) and the riposte chain (D05), with defensive stances (D08) and missiles
(D09): one exchange, then the injury checks of whoever was hit (:mod:`.injury`).

Each step is written as a dice request followed by a pure decision, so the same code serves
three uses: :func:`run_exchange` plays it on seeded or scripted dice, and the odds module
enumerates the dice requests exactly and reuses the very same decisions
(:func:`judge_contest`, :func:`.injury.judge_death`, :func:`.injury.judge_stun`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Literal

from firefight.core.house import house_events
from firefight.core.transcript import Check, Modifier, Note
from firefight.dice import DiceSource, Weighted
from firefight.rulesets.dragonwarriors2.contests import DoubleSixHook, Role, bonus_hook, plus_minus
from firefight.rulesets.dragonwarriors2.gear import Fighter, Missile, Weapon
from firefight.rulesets.dragonwarriors2.house import DragonWarriors2House
from firefight.rulesets.dragonwarriors2.injury import Status, injure
from firefight.rulesets.dragonwarriors2.models import Options

#: How an exchange ended (D04-D06).
ExchangeResult = Literal["no wound", "cut", "defender wounded", "attacker wounded"]


# ----------------------------------------------------------------------------------------------
# One exchange: who attacks whom, with what
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Bout:
    """Everything one exchange needs; levels count contests (0 = the attack, 1 = the riposte)."""

    attacker: Fighter
    defender: Fighter
    options: Options
    house: DragonWarriors2House
    missile: Missile | None = None
    #: Table choices each side already used earlier in a fight (riposte = "choose").
    choices_used: tuple[int, int] = (0, 0)

    def sides(self, level: int) -> tuple[Fighter, Fighter, Role]:
        """(attacking, defending, original role of the defender) at a level of the chain."""
        if level % 2 == 0:
            return self.attacker, self.defender, "defender"
        return self.defender, self.attacker, "attacker"

    def weapon_of(self, f: Fighter) -> Weapon | None:
        if self.missile is not None and f is self.attacker:
            return self.missile.weapon
        return f.weapon

    def opening_attack(self) -> tuple[int, list[Modifier]]:
        """The attacker's Attack score for the first contest (D04, D10); worked out once a
        bout (exact enumeration asks on every path), so the list is shared: read it only."""
        found: tuple[int, list[Modifier]] | None = self.__dict__.get("_opening")
        if found is None:
            found = self.__dict__["_opening"] = self._opening_attack()
        return found

    def _opening_attack(self) -> tuple[int, list[Modifier]]:
        a = self.attacker
        mods = []
        weapon = self.weapon_of(a)
        if weapon is not None and weapon.attack:
            mods.append(
                Modifier(
                    weapon.weapon_class, weapon.attack, f"{a.name}'s Attack", weapon.name, "D10"
                )
            )
        return a.attack_score + sum(m.value for m in mods), mods

    def defence_at(self, level: int) -> tuple[int, list[Modifier]]:
        """The defending side's Defence (or difficulty) at a level of the chain (D04, D08, D09);
        kept per kind of level like :meth:`opening_attack` (the list is shared: read it only)."""
        kind = (level == 0, level % 2)
        kept: dict[tuple[bool, int], tuple[int, list[Modifier]]] = self.__dict__.setdefault(
            "_defences", {}
        )
        found = kept.get(kind)
        if found is None:
            found = kept[kind] = self._defence_at(level)
        return found

    def _defence_at(self, level: int) -> tuple[int, list[Modifier]]:
        _, d, _ = self.sides(level)
        mods: list[Modifier] = []
        if level == 0 and self.missile is not None:
            m = self.missile
            target = f"difficulty against {d.name}"
            base = m.range_value
            for name, value in m.modifiers:
                mods.append(Modifier(name, value, target, "situation", "D09"))
            if d.shield_bonus:
                mods.append(Modifier("shield", d.shield_bonus, target, d.shield or "shield", "D09"))
            return base + sum(x.value for x in mods), mods
        target = f"{d.name}'s Defence"
        if d.shield_bonus:
            mods.append(Modifier("shield", d.shield_bonus, target, d.shield or "shield", "D10"))
        if level == 0 and d.stance in ("full parry", "aggressive parry"):
            attack = d.attack_score  # the sheet's ATT (reading), unless the option says more
            if self.options.weapon_bonus_on_parry and d.weapon is not None and not d.stunned:
                attack += d.weapon.attack
            if d.stance == "full parry":
                mods.append(Modifier("full parry: + Attack", attack, target, "stance", "D08"))
            else:
                half = attack // self.house.aggressive_parry_divisor
                what = "aggressive parry: + half Attack"
                mods.append(Modifier(what, half, target, "stance", "D08"))
        return d.defence_score + sum(x.value for x in mods), mods

    def defence_rolled(self, level: int) -> bool:
        return not (level == 0 and self.missile is not None and not self.missile.rolled)

    def choice_index(self, level: int) -> int:
        """How many riposte choices the level's defender has used before this one."""
        offset = self.choices_used[1] if level % 2 == 0 else self.choices_used[0]
        return offset + level // 2


@dataclass(frozen=True)
class Step:
    """What a contest's margin means: a hit, no wound, or a riposte with a new Attack score."""

    kind: Literal["hit", "no wound", "riposte"]
    victim: Role | None = None
    wounds: int = 0
    next_score: int = 0
    #: True when the level's defender had a chance to riposte and decided (D05).
    decided: bool = False
    events: tuple[Any, ...] = field(default=(), compare=False)


def judge_contest(bout: Bout, level: int, margin: int, explain: bool = True) -> Step:
    """The decision after a contest (D04, D05, D08, D09): pure, so odds reuse it exactly.

    ``explain=False`` skips building the transcript events (the odds need only the decision).
    """
    att, dfn, victim = bout.sides(level)
    events: list[Any] = []
    if margin > 0:
        weapon = bout.weapon_of(att)
        dmg = weapon.damage if weapon is not None else 0
        wounds = max(0, margin + dmg - dfn.armour_reduction)
        if explain:
            if weapon is not None and dmg:
                events.append(Modifier(weapon.weapon_class, dmg, "damage", weapon.name, "D10"))
            if dfn.armour_reduction:
                events.append(
                    Modifier(
                        "armour", -dfn.armour_reduction, "damage", dfn.armour or "armour", "D10"
                    )
                )
        if wounds == 0:
            if explain:
                events.append(Note(f"{att.name} wins by {margin} but the blow does no harm", "D04"))
            return Step("no wound", events=tuple(events))
        if explain:
            events.append(
                Note(f"{att.name} wins by {margin}: {wounds} wounds to {dfn.name}", "D04")
            )
        return Step("hit", victim, wounds, events=tuple(events))
    if margin == 0:
        if explain:
            events.append(Note("a tie: no damage and no riposte (reading)", "D02"))
        return Step("no wound", events=tuple(events))
    won_by = -margin
    if level == 0 and bout.missile is not None:
        if explain:
            events.append(
                Note(f"{dfn.name} is not hit (missed by {won_by}); no riposte to a missile", "D09")
            )
        return Step("no wound", events=tuple(events))
    if level == 0 and dfn.stance == "full parry":
        if explain:
            events.append(Note(f"{dfn.name} wins by {won_by}; full parry allows no riposte", "D08"))
        return Step("no wound", events=tuple(events))
    yes, why = dfn.policy.decide(won_by, bout.choice_index(level))
    if not yes:
        if explain:
            events.append(Note(f"{dfn.name} wins by {won_by} and does not riposte ({why})", "D05"))
        return Step("no wound", decided=True, events=tuple(events))
    score = won_by
    weapon = dfn.weapon
    bonus = bout.options.weapon_bonus_on_riposte and weapon is not None and weapon.attack
    if bonus and weapon is not None:
        score += weapon.attack
    if explain:
        word = "ripostes" if level == 0 else "counter-ripostes"
        events.append(
            Note(f"{dfn.name} wins by {won_by} and {word} with Attack {score} ({why})", "D05")
        )
        if bonus and weapon is not None:
            events.append(
                Modifier(
                    weapon.weapon_class, weapon.attack, f"{dfn.name}'s riposte", weapon.name, "D10"
                )
            )
    return Step("riposte", next_score=score, decided=True, events=tuple(events))


@dataclass(frozen=True)
class ChainEnd:
    """How a riposte chain ended: the hit (if any), the contests run, choices used per side."""

    step: Step
    contests: int
    cut: bool = False
    choices: tuple[int, int] = (0, 0)


def run_contest(
    dice: DiceSource,
    bout: Bout,
    level: int,
    score: int,
    hook: DoubleSixHook | None = None,
    table: Callable[[], Weighted[int]] | None = None,
    key: Hashable = None,
) -> int:
    """One contest of the chain (D04, D09): the margin of ``score`` + roll against the level's
    Defence (or difficulty) + roll. The attacker rolls first, then the defender.

    With ``table`` (the exact distribution of the two rolls' difference, see
    :func:`.encounter_exact.contest_table`) the two rolls are one derived request under ``key``,
    so exact enumeration branches over margins instead of over pairs of rolls.
    """
    att, dfn, _ = bout.sides(level)
    defence, dmods = bout.defence_at(level)
    for m in dmods:
        dice.record(m)
    a_role = "attack" if level == 0 else ("riposte" if level == 1 else "counter-riposte")
    rolled = bout.defence_rolled(level)

    def rolls(d: DiceSource) -> int:
        a_roll = plus_minus(d, att.name, a_role, hook)
        d_roll = plus_minus(d, dfn.name, "defence", hook) if rolled else 0
        a_total, d_total = score + a_roll, defence + d_roll
        margin = a_total - d_total
        d.record(
            Check(
                f"{att.name} {a_role} vs {dfn.name}",
                a_total,
                d_total,
                margin > 0,
                "D04",
                f"margin {margin:+d}",
            )
        )
        return a_roll - d_roll

    if table is None:
        diff = rolls(dice)
    else:
        diff = dice.derive(f"{att.name} {a_role} vs {dfn.name}", rolls, key, exact=table)
    return score - defence + diff


def run_chain(dice: DiceSource, bout: Bout, hook: DoubleSixHook | None = None) -> ChainEnd:
    """The attack and its riposte chain on real (seeded or scripted) dice (D04, D05)."""
    for f in (bout.attacker, bout.defender):
        if f.stunned:
            dice.record(Note(f"{f.name} is stunned: Attack and Defence count as 0", "D06"))
    score, mods = bout.opening_attack()
    for m in mods:
        dice.record(m)
    level = 0
    used = [0, 0]
    while True:
        _, dfn, _ = bout.sides(level)
        margin = run_contest(dice, bout, level, score, hook)
        step = judge_contest(bout, level, margin)
        for e in step.events:
            dice.record(e)
        if step.decided and dfn.policy.rule == "choose":
            used[(level + 1) % 2] += 1
        if step.kind != "riposte":
            return ChainEnd(step, level + 1, choices=(used[0], used[1]))
        if level + 1 >= bout.options.max_chain:
            dice.record(Note(f"chain cut after {level + 1} contests (options.max_chain)", "D05"))
            return ChainEnd(Step("no wound"), level + 1, cut=True, choices=(used[0], used[1]))
        score = step.next_score
        level += 1


@dataclass(frozen=True)
class ExchangeOutcome:
    """What one exchange did (hashable: odds enumerate it)."""

    result: ExchangeResult
    #: The defender's new wounds and the attacker's (through a riposte).
    damage: int
    counter_damage: int
    defender_status: Status
    attacker_status: Status
    contests: int


@dataclass(frozen=True)
class ExchangeRecord:
    outcome: ExchangeOutcome
    attacker: Fighter
    defender: Fighter
    choices: tuple[int, int]


def run_exchange(dice: DiceSource, bout: Bout, hook: DoubleSixHook | None = None) -> ExchangeRecord:
    """A whole exchange: the chain, then the injury checks of whoever was hit."""
    end = run_chain(dice, bout, hook)
    a, d = bout.attacker, bout.defender
    step = end.step
    if step.kind != "hit":
        result: ExchangeResult = "cut" if end.cut else "no wound"
        outcome = ExchangeOutcome(result, 0, 0, "unhurt", "unhurt", end.contests)
        return ExchangeRecord(outcome, a, d, end.choices)
    if step.victim == "defender":
        d, status = injure(dice, d, step.wounds, bout.options, bout.house, hook)
        outcome = ExchangeOutcome(
            "defender wounded", step.wounds, 0, status, "unhurt", end.contests
        )
    else:
        a, status = injure(dice, a, step.wounds, bout.options, bout.house, hook)
        outcome = ExchangeOutcome(
            "attacker wounded", 0, step.wounds, "unhurt", status, end.contests
        )
    return ExchangeRecord(outcome, a, d, end.choices)


def resolve_bout(bout: Bout, dice: DiceSource) -> ExchangeRecord:
    """An exchange as a situation file gives it: the house rules in force, then the exchange."""
    for ev in house_events(bout.house):
        dice.record(ev)
    dice.record(Note(f"{bout.attacker.name} attacks {bout.defender.name}", "D04"))
    return run_exchange(dice, bout, bonus_hook(bout.options.double_six_bonus))


def fighter_state(f: Fighter) -> dict[str, Any]:
    """A fighter's wounds and conditions, for summaries."""
    return {
        "wounds": f.wounds,
        "stunned": f.stunned,
        "knocked_out": f.knocked_out,
        "dead": f.dead,
    }


def exchange_summary(bout: Bout, rec: ExchangeRecord) -> dict[str, Any]:
    """Key figures of one exchange for the CLI table and JSON."""
    o = rec.outcome
    return {
        "result": o.result,
        "damage": o.damage,
        "counter_damage": o.counter_damage,
        "contests": o.contests,
        bout.attacker.name: fighter_state(rec.attacker),
        bout.defender.name: fighter_state(rec.defender),
    }
