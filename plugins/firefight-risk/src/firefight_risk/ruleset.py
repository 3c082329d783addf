"""The RISK ruleset: one roll as a situation file (``firefight attack|odds risk FILE``), whole
battles as scenarios (``fight``, ``encounter``, ``simulate``, ``sweep``, the tracker)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from firefight.api import (
    DiceSource,
    HouseRules,
    InputError,
    OddsReport,
    Ruleset,
    SituationKind,
    Transcript,
    outcome_odds,
    validate,
)
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from firefight_risk.battle import Losses, attacker_dice, defender_dice, roll
from firefight_risk.house import RiskHouse
from firefight_risk.turns import MOST_ARMIES, RiskTurns


class RollFile(BaseModel):
    """A roll file: the armies on each side (the attacker's that may attack, R01)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["roll"] = "roll"
    title: str = "RISK roll"
    attacker: StrictInt = Field(ge=1, le=MOST_ARMIES)
    defender: StrictInt = Field(ge=1, le=MOST_ARMIES)
    #: Roll fewer dice than allowed (R02); none: as many as allowed.
    attacker_dice: StrictInt | None = Field(None, ge=1)


@dataclass(frozen=True)
class Roll:
    """A loaded roll: the dice each side rolls."""

    title: str
    attacking: int
    defending: int
    house: RiskHouse
    kind: str = "roll"


def load_roll(data: Mapping[str, Any], source: str, house: RiskHouse) -> Roll:
    model = validate(RollFile, data, source)
    most = attacker_dice(model.attacker, house)
    asked = model.attacker_dice
    if asked is not None and asked > most:
        raise InputError(
            f"{source}: field attacker_dice: {asked} is more than the {most} "
            f"{model.attacker} armies may roll (R02)",
            tip=f"give 1 to {most}, or leave it out to roll {most}",
        )
    mine = most if asked is None else asked
    return Roll(model.title, mine, defender_dice(model.defender, house), house)


def resolve_roll(situation: Roll, dice: DiceSource) -> Losses:
    return roll(dice, situation.attacking, situation.defending, situation.house)


def roll_odds(situation: Roll) -> OddsReport:
    title = f"{situation.title}: {situation.attacking} dice against {situation.defending}"
    return outcome_odds(
        Risk.id, title, lambda dice: resolve_roll(situation, dice), lambda lost: lost.label()
    )


def roll_summary(situation: Roll, lost: Losses, _transcript: Transcript) -> Mapping[str, Any]:
    return {
        "dice": f"{situation.attacking} against {situation.defending}",
        "attacker loses": lost.attacker,
        "defender loses": lost.defender,
    }


ROLL: SituationKind[Roll, Losses, RiskHouse] = SituationKind(
    "roll", RollFile, load_roll, resolve_roll, roll_odds, roll_summary
)


class Risk(Ruleset[Roll, RiskHouse]):
    """RISK battles: up to 3 dice against up to 2, highest against highest, ties to the
    defender, one army left behind."""

    id: ClassVar[str] = "risk"
    title: ClassVar[str] = "RISK battles (3 dice against 2, ties to the defender)"
    house_model: ClassVar[type[HouseRules]] = RiskHouse
    kinds: ClassVar[tuple[SituationKind[Any, Any, Any], ...]] = (ROLL,)
    turns = RiskTurns
    #: ``firefight_risk/examples``: a roll, two battles and a house rule, shipped with the
    #: package (the tracker offers the battles).
    examples: ClassVar[str | None] = "examples"
