"""Situation files, one loader per kind: an exchange (one attack and its riposte chain) or a fight
(combatants and planned turns), validated and their catalog names resolved."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from firefight.core.catalog import Catalog, load_catalog
from firefight.core.loading import validate
from firefight.core.validation import shown, suggest
from firefight.errors import InputError
from firefight.rulesets.dragonwarriors2.attack import Bout
from firefight.rulesets.dragonwarriors2.fight import PlannedExchange, PlannedTurn
from firefight.rulesets.dragonwarriors2.gear import Fighter, fighter, missile
from firefight.rulesets.dragonwarriors2.house import DragonWarriors2House
from firefight.rulesets.dragonwarriors2.models import (
    CombatantSpec,
    ExchangeSituation,
    FightSituation,
)

PACKAGE = "firefight.rulesets.dragonwarriors2"


class Exchange:
    """A loaded exchange situation: the bout ready for the rules."""

    def __init__(self, model: ExchangeSituation, bout: Bout) -> None:
        self.model = model
        self.bout = bout
        #: "exchange" or "attack", as the file says (the two name the same rules).
        self.kind: str = model.kind


class Fight:
    """A loaded fight: fighters and planned turns."""

    kind = "fight"

    def __init__(
        self,
        model: FightSituation,
        fighters: list[Fighter],
        turns: tuple[PlannedTurn, ...],
        house: DragonWarriors2House,
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


def load_exchange(data: Mapping[str, Any], source: str, house: DragonWarriors2House) -> Exchange:
    """An exchange file (``kind = "exchange"``, or ``"attack"``): one attack and its chain."""
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
    shot = missile(model.missile, catalog, source, house.feet_per_fathom) if model.missile else None
    return Exchange(model, Bout(att, dfn, model.options, house, shot))


def load_fight(data: Mapping[str, Any], source: str, house: DragonWarriors2House) -> Fight:
    """A fight file (``kind = "fight"``): combatants and planned turns."""
    model = validate(FightSituation, data, source)
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
                missile(ex.missile, catalog, source, house.feet_per_fathom) if ex.missile else None
            )
            planned.append(PlannedExchange(ex.attacker, ex.defender, ex.defender_stance, shot))
        turns.append(PlannedTurn(turn.initiative, tuple(planned)))
    return Fight(model, fighters, tuple(turns), house)
