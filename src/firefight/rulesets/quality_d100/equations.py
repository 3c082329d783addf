"""Q08 (and the Q07 parry on its own): the combat equation summary as resolution functions.

A situation with ``kind = "equation"`` names one equation and its values; each function runs on
any dice and returns an :class:`EquationOutcome`, so odds come from the same code. "Roll under X"
on D100 is read as a roll at or under X, like every chance in this text (house rule
``roll_under_inclusive``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from firefight.core.house import house_events
from firefight.core.loading import validate
from firefight.core.transcript import Check, Note
from firefight.dice import DiceSource
from firefight.errors import InputError
from firefight.rulesets.quality_d100.house import QualityD100House
from firefight.rulesets.quality_d100.models import Strict
from firefight.rulesets.quality_d100.strike import roll_parry

EquationName = Literal[
    "engaged_initiative",
    "unengaged_initiative",
    "strike_chance",
    "restrain",
    "fumble",
    "withdraw",
    "repulse_charge",
    "stay_conscious",
    "stun_recovery",
    "parry",
]


@dataclass(frozen=True)
class EquationOutcome:
    """``result`` is the label odds count; ``value`` the number computed or rolled."""

    result: str
    value: int | None = None
    passed: bool | None = None


class EquationSituation(Strict):
    kind: Literal["equation"]
    title: str = ""
    equation: EquationName
    values: dict[str, int] = Field(default_factory=dict)


class EngagedInitiative(Strict):
    perception: int
    agility: int
    weapon_rank: int = Field(ge=0)
    warrior_rank: int = Field(0, ge=0)


class UnengagedInitiative(Strict):
    perception: int
    military_scientist: int = Field(0, ge=0)


class StrikeChance(Strict):
    base_chance: int
    manual_dexterity: int
    rank: int = Field(0, ge=0)
    magic: int = 0
    modifiers: int = 0


class Restrain(Strict):
    attacker_ps: int
    attacker_ag: int
    defender_ps: int
    defender_ag: int


class Fumble(Strict):
    initiative: int


class Withdraw(Strict):
    friendly_ps: int = Field(ge=0)
    hostile_ps: int = Field(ge=0)


class RepulseCharge(Strict):
    rank: int = Field(ge=0)


class StayConscious(Strict):
    endurance: int
    willpower: int = Field(ge=0)


class StunRecovery(Strict):
    willpower: int = Field(ge=0)
    fatigue: int


class Parry(Strict):
    evader_rank: int = Field(ge=0)
    attacker_rank: int = Field(ge=0)


def _under(dice: DiceSource, target: int, why: str, rule: str, house: QualityD100House) -> bool:
    r = dice.roll("d100", why=f"{why} (D100 under {target}, {rule})")
    passed = r.total <= target if house.roll_under_inclusive else r.total < target
    dice.record(Check(why, r.total, target, passed, rule))
    return passed


def engaged_initiative(
    v: EngagedInitiative, dice: DiceSource, h: QualityD100House
) -> EquationOutcome:
    total = v.perception + v.agility + v.weapon_rank + v.warrior_rank
    dice.record(
        Note(
            f"engaged initiative {v.perception} PC + {v.agility} AG + weapon rank "
            f"{v.weapon_rank} + warrior rank {v.warrior_rank} = {total}",
            "Q08",
        )
    )
    return EquationOutcome(f"initiative {total}", total)


def unengaged_initiative(
    v: UnengagedInitiative, dice: DiceSource, h: QualityD100House
) -> EquationOutcome:
    r = dice.roll("d10", why="unengaged initiative D10 (Q08)")
    ms = h.military_scientist_multiple * v.military_scientist
    total = r.total + v.perception + ms
    dice.record(
        Note(f"D10 {r.total} + PC {v.perception} + {ms} (Military Scientist) = {total}", "Q08")
    )
    return EquationOutcome(f"initiative {total}", total)


def strike_chance(v: StrikeChance, dice: DiceSource, h: QualityD100House) -> EquationOutcome:
    ranks = h.strike_rank_multiple * v.rank
    total = v.base_chance + v.manual_dexterity + ranks + v.magic + v.modifiers
    dice.record(
        Note(
            f"strike chance {v.base_chance} BC + {v.manual_dexterity} MD + {ranks} "
            f"(rank) + {v.magic} magic + {v.modifiers} modifiers = {total}",
            "Q08",
        )
    )
    return EquationOutcome(f"strike chance {total}", total)


def restrain(v: Restrain, dice: DiceSource, h: QualityD100House) -> EquationOutcome:
    chance = h.restrain_multiple * (
        (v.attacker_ps + v.attacker_ag) - (v.defender_ps + v.defender_ag)
    )
    dice.record(
        Note(
            f"restrain chance {h.restrain_multiple} x (({v.attacker_ps}+{v.attacker_ag})"
            f" - ({v.defender_ps}+{v.defender_ag})) = {chance}",
            "Q08",
        )
    )
    ok = _under(dice, chance, "restrain", "Q08 restrain", h)
    return EquationOutcome("restrained" if ok else "not restrained", chance, ok)


def fumble(v: Fumble, dice: DiceSource, h: QualityD100House) -> EquationOutcome:
    reduced = v.initiative - h.fumble_initiative_penalty
    dice.record(
        Note(f"initiative {v.initiative} - {h.fumble_initiative_penalty} = {reduced}", "Q08 fumble")
    )
    ok = _under(dice, reduced, "recover from fumble", "Q08 fumble", h)
    label = "recovered" if ok else "roll on the Fumble Table (52.4, not in the text)"
    return EquationOutcome(label, reduced, ok)


def withdraw(v: Withdraw, dice: DiceSource, h: QualityD100House) -> EquationOutcome:
    r = dice.roll("d10", why="withdraw from close combat D10 (Q08)")
    total = r.total + v.friendly_ps - v.hostile_ps
    ok = total >= h.withdraw_target
    dice.record(
        Check(
            "withdraw",
            total,
            h.withdraw_target,
            ok,
            "Q08 withdraw",
            f"D10 {r.total} + {v.friendly_ps} - {v.hostile_ps}",
        )
    )
    return EquationOutcome("withdraws" if ok else "stays engaged", total, ok)


def repulse_charge(v: RepulseCharge, dice: DiceSource, h: QualityD100House) -> EquationOutcome:
    r = dice.roll("d10", why="repulse a charge D10 (Q08)")
    ok = r.total >= v.rank
    dice.record(Check("repulse charge: D10 at least rank", r.total, v.rank, ok, "Q08 repulse"))
    return EquationOutcome("charge repulsed" if ok else "not repulsed", r.total, ok)


def stay_conscious(v: StayConscious, dice: DiceSource, h: QualityD100House) -> EquationOutcome:
    if v.endurance > h.stay_conscious_max_en:
        dice.record(Note(f"EN {v.endurance} > {h.stay_conscious_max_en}: no roll needed", "Q08"))
        return EquationOutcome("conscious", None, True)
    target = v.endurance * v.willpower
    ok = _under(dice, target, "stay conscious", "Q08 stay conscious", h)
    return EquationOutcome("conscious" if ok else "unconscious", target, ok)


def stun_recovery(v: StunRecovery, dice: DiceSource, h: QualityD100House) -> EquationOutcome:
    target = h.stun_recovery_wp_multiple * v.willpower + v.fatigue
    ok = _under(dice, target, "stun recovery", "Q08 stun recovery", h)
    return EquationOutcome("recovers" if ok else "still stunned", target, ok)


def parry(v: Parry, dice: DiceSource, h: QualityD100House) -> EquationOutcome:
    result = roll_parry(dice, v.evader_rank, v.attacker_rank, h)
    return EquationOutcome(result, None, None)


#: Each equation takes its own input model (hence Any: parameters are contravariant).
_Fn = Callable[[Any, DiceSource, QualityD100House], EquationOutcome]
EQUATIONS: dict[str, tuple[type[Strict], _Fn]] = {
    "engaged_initiative": (EngagedInitiative, engaged_initiative),
    "unengaged_initiative": (UnengagedInitiative, unengaged_initiative),
    "strike_chance": (StrikeChance, strike_chance),
    "restrain": (Restrain, restrain),
    "fumble": (Fumble, fumble),
    "withdraw": (Withdraw, withdraw),
    "repulse_charge": (RepulseCharge, repulse_charge),
    "stay_conscious": (StayConscious, stay_conscious),
    "stun_recovery": (StunRecovery, stun_recovery),
    "parry": (Parry, parry),
}


@dataclass(frozen=True)
class LoadedEquation:
    situation: EquationSituation
    values: Strict
    house: QualityD100House

    @property
    def kind(self) -> str:
        return "equation"

    def run(self, dice: DiceSource) -> EquationOutcome:
        return EQUATIONS[self.situation.equation][1](self.values, dice, self.house)


def load_equation(sit: EquationSituation, house: QualityD100House, source: str) -> LoadedEquation:
    model, _ = EQUATIONS[sit.equation]
    if not sit.values and model.model_fields:
        needed = ", ".join(n for n, f in model.model_fields.items() if f.is_required())
        raise InputError(
            f"{source}: field values: {sit.equation} needs values",
            tip=f"add [values] with {needed}",
        )
    values = validate(model, sit.values, f"{source} ({sit.equation})")
    return LoadedEquation(sit, values, house)


def load_equation_file(
    data: Mapping[str, Any], source: str, house: QualityD100House
) -> LoadedEquation:
    """An equation file (Q08)."""
    return load_equation(validate(EquationSituation, data, source), house, source)


def resolve_equation(eq: LoadedEquation, dice: DiceSource) -> EquationOutcome:
    """An equation as a file gives it: house rules, then the equation."""
    for event in house_events(eq.house):
        dice.record(event)
    return eq.run(dice)


def equation_summary(eq: LoadedEquation, out: EquationOutcome) -> dict[str, Any]:
    """Key figures of an equation for the CLI table and JSON."""
    summary: dict[str, Any] = {
        "equation": eq.situation.equation,
        "result": out.result,
        "value": out.value,
    }
    if out.passed is not None:
        summary["passed"] = out.passed
    return summary
