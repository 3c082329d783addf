"""The Dragon Warriors II ruleset behind the shared protocol: load, resolve, odds."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

from firefight.core.catalog import Catalog, load_catalog
from firefight.core.house import HouseRules, house_events
from firefight.core.loading import validate
from firefight.core.odds import OddsReport
from firefight.core.resolution import Resolution
from firefight.core.ruleset import Ruleset
from firefight.core.transcript import Note, Transcript
from firefight.core.turns import ScenarioSpec, Turns
from firefight.core.validation import shown, situation_kind, suggest
from firefight.dice import DiceSource, Weighted
from firefight.errors import InputError
from firefight.rulesets.dragonwarriors2.fight import PlannedExchange, PlannedTurn, run_fight
from firefight.rulesets.dragonwarriors2.gear import Fighter, fighter, missile
from firefight.rulesets.dragonwarriors2.models import (
    CombatantSpec,
    DW2House,
    ExchangeSituation,
    FightSituation,
)
from firefight.rulesets.dragonwarriors2.odds import OddsKey, exchange_odds
from firefight.rulesets.dragonwarriors2.rules import Bout, bonus_hook, run_exchange

PACKAGE = "firefight.rulesets.dragonwarriors2"


class Exchange:
    """A loaded exchange situation: the bout ready for the rules."""

    kind = "exchange"

    def __init__(self, model: ExchangeSituation, bout: Bout) -> None:
        self.model = model
        self.bout = bout


class Fight:
    """A loaded fight: fighters and planned turns."""

    kind = "fight"

    def __init__(
        self,
        model: FightSituation,
        fighters: list[Fighter],
        turns: tuple[PlannedTurn, ...],
        house: DW2House,
    ) -> None:
        self.model = model
        self.fighters = fighters
        self.turns = turns
        self.house = house

    def first_bout(self) -> Bout:
        """The fight's first exchange on the starting states (what ``odds`` reports)."""
        for turn in self.turns:
            for ex in turn.exchanges:
                by = {f.name: f for f in self.fighters}
                att, dfn = by[ex.attacker], by[ex.defender]
                if ex.defender_stance is not None:
                    from dataclasses import replace

                    dfn = replace(dfn, stance=ex.defender_stance)
                return Bout(att, dfn, self.model.options, self.house, ex.missile)
        raise InputError("the fight has no exchanges", tip="add [[turns.exchanges]] entries")


def _catalog(catalogs: tuple[str, ...], source: str) -> Catalog:
    base = Path(source).parent if source else None
    return load_catalog(PACKAGE, catalogs, base)


def _check_attacker(f: Fighter, source: str, where: str) -> None:
    if f.stance != "normal":
        raise InputError(
            f"{source}: {where}: {f.name} is in {f.stance} and gives up his own attack (D08)",
            tip='give the attacker stance = "normal"',
        )


def _check_able(spec: CombatantSpec, source: str, where: str) -> None:
    if spec.dead or spec.knocked_out:
        state = "dead" if spec.dead else "knocked out"
        raise InputError(
            f"{source}: {where} {spec.name} is {state} and cannot fight",
            tip=f"set {where}.{'dead' if spec.dead else 'knocked_out'} = false",
        )


class DragonWarriors2(Ruleset):
    id: ClassVar[str] = "dragonwarriors2"
    title: ClassVar[str] = "Dragon Warriors II: open-ended contests and riposte chains"
    house_model: ClassVar[type[HouseRules]] = DW2House
    situation_kinds: ClassVar[tuple[str, ...]] = ("attack", "exchange", "fight")
    scenario_keys: ClassVar[tuple[str, ...]] = ("options", "catalogs")

    def encounter(self, spec: ScenarioSpec) -> Turns:
        """Whole fights: see :mod:`.encounter` (imported here: the engine asks only then)."""
        from firefight.rulesets.dragonwarriors2.encounter import DW2Turns

        return DW2Turns(spec)

    def load_situation(self, data: Mapping[str, Any], *, source: str, house: HouseRules) -> Any:
        assert isinstance(house, DW2House)
        kind = situation_kind(data, ("exchange", "attack", "fight"), "exchange", source)
        if kind == "fight":
            fmodel = validate(FightSituation, data, source)
            return self._load_fight(fmodel, source, house)
        model = validate(ExchangeSituation, data, source)
        if model.attacker.name == model.defender.name:
            raise InputError(
                f"{source}: field defender.name: attacker and defender are both "
                f"{model.attacker.name!r}",
                tip="give the two combatants different names",
            )
        catalog = _catalog(model.catalogs, source)
        _check_able(model.attacker, source, "attacker")
        _check_able(model.defender, source, "defender")
        att = fighter(model.attacker, catalog, source)
        dfn = fighter(model.defender, catalog, source)
        _check_attacker(att, source, "attacker")
        shot = (
            missile(model.missile, catalog, source, house.feet_per_fathom)
            if model.missile
            else None
        )
        return Exchange(model, Bout(att, dfn, model.options, house, shot))

    def _load_fight(self, model: FightSituation, source: str, house: DW2House) -> Fight:
        catalog = _catalog(model.catalogs, source)
        names = [c.name for c in model.combatants]
        if len(set(names)) != len(names):
            raise InputError(
                f"{source}: field combatants: two combatants share a name",
                tip="give every combatant its own name",
            )
        fighters = [fighter(c, catalog, source) for c in model.combatants]
        by = {f.name: f for f in fighters}
        turns = []
        for t, turn in enumerate(model.turns):
            planned = []
            for e, ex in enumerate(turn.exchanges):
                where = f"turns[{t}].exchanges[{e}]"
                for role in ("attacker", "defender"):
                    name = getattr(ex, role)
                    if name not in by:
                        raise InputError(
                            f"{source}: field {where}.{role}: no combatant {shown(name)}",
                            tip=suggest(name, by, "combatants"),
                        )
                if ex.attacker == ex.defender:
                    raise InputError(
                        f"{source}: field {where}: a combatant attacks himself",
                        tip="name two different combatants",
                    )
                _check_attacker(by[ex.attacker], source, where)
                shot = (
                    missile(ex.missile, catalog, source, house.feet_per_fathom)
                    if ex.missile
                    else None
                )
                planned.append(PlannedExchange(ex.attacker, ex.defender, ex.defender_stance, shot))
            turns.append(PlannedTurn(turn.initiative, tuple(planned)))
        return Fight(model, fighters, tuple(turns), house)

    def situation_kind(self, situation: Any) -> str:
        return "attack"

    def script_order(self) -> str:
        return (
            "each plus-minus roll takes the plus die and its re-rolls on sixes, then the minus "
            "die and its re-rolls; rolls in transcript order: initiative, attacker before "
            "defender in every contest, then the death and stun checks"
        )

    def resolve(self, situation: Any, dice: DiceSource) -> Resolution:
        mark = len(dice.events)
        if isinstance(situation, Fight):
            opts, house = situation.model.options, situation.house
            for ev in house_events(house):
                dice.record(ev)
            res = run_fight(
                dice,
                situation.fighters,
                situation.turns,
                opts,
                house,
                bonus_hook(opts.double_six_bonus),
            )
            summary: dict[str, Any] = {f.name: _state(f) for f in res.fighters}
            summary["exchanges"] = [o.result for o in res.exchanges]
            outcome = tuple(
                (f.name, f.wounds, f.stunned, f.knocked_out, f.dead) for f in res.fighters
            )
            return Resolution(self.id, outcome, Transcript.since(dice.events, mark), summary)
        bout: Bout = situation.bout
        for ev in house_events(bout.house):
            dice.record(ev)
        dice.record(Note(f"{bout.attacker.name} attacks {bout.defender.name}", "D04"))
        rec = run_exchange(dice, bout, bonus_hook(bout.options.double_six_bonus))
        o = rec.outcome
        summary = {
            "result": o.result,
            "damage": o.damage,
            "counter_damage": o.counter_damage,
            "contests": o.contests,
            bout.attacker.name: _state(rec.attacker),
            bout.defender.name: _state(rec.defender),
        }
        return Resolution(self.id, o, Transcript.since(dice.events, mark), summary)

    def odds(self, situation: Any) -> OddsReport:
        notes: list[str] = []
        if isinstance(situation, Fight):
            bout = situation.first_bout()
            notes.append(
                f"odds of the fight's first exchange ({bout.attacker.name} attacks "
                f"{bout.defender.name}) on the starting states; a whole fight is not enumerated"
            )
        else:
            bout = situation.bout
        ex = exchange_odds(bout)
        w = ex.outcomes
        a, d = bout.attacker.name, bout.defender.name
        p_hit = w.probability(lambda k: k[0] == "defender wounded")
        outcomes = {
            f"{d} wounded": p_hit,
            f"{a} wounded by a riposte": w.probability(lambda k: k[0] == "attacker wounded"),
            "no wound": w.probability(lambda k: k[0] == "no wound"),
        }
        probs: dict[str, Fraction] = {}
        for role, idx in (("defender", 3), ("attacker", 4)):
            for status in ("stunned", "knocked out", "dead"):
                key = f"p_{role}_{status.replace(' ', '_')}"
                probs[key] = _p_status(w, idx, status)
        probs["p_riposte_wound"] = outcomes[f"{a} wounded by a riposte"]
        title = situation.model.title or f"{a} attacks {d}"
        pol = {f.name: _policy_text(f) for f in (bout.attacker, bout.defender)}
        notes.append("riposte policy: " + "; ".join(f"{n}: {p}" for n, p in pol.items()))
        return OddsReport(
            ruleset=self.id,
            title=title,
            p_hit=p_hit,
            outcomes=outcomes,
            distributions={
                "damage": w.to_dist(lambda k: k[1]),
                "counter_damage": w.to_dist(lambda k: k[2]),
                "contests": ex.contests.to_dist(),
            },
            tables={
                "defender_status": _status_table(w, 3),
                "attacker_status": _status_table(w, 4),
            },
            probabilities=probs,
            truncated_mass=w.truncated_mass,
            notes=tuple(notes),
        )


def _p_status(w: Weighted[OddsKey], idx: int, status: str) -> Fraction:
    return w.probability(lambda k: k[idx] == status)


def _status_table(w: Weighted[OddsKey], idx: int) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for status in ("unhurt", "wounded", "stunned", "knocked out", "dead"):
        p = _p_status(w, idx, status)
        if p:
            out[status] = p
    return out


def _policy_text(f: Fighter) -> str:
    p = f.policy
    if p.rule == "margin":
        return f"riposte when the margin is at least {p.margin}"
    if p.rule == "choose":
        return f"table choices {list(p.choices)}, then no riposte"
    return p.rule


def _state(f: Fighter) -> dict[str, Any]:
    return {
        "wounds": f.wounds,
        "stunned": f.stunned,
        "knocked_out": f.knocked_out,
        "dead": f.dead,
    }
