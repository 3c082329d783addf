"""The numbers the RISK rules fix, with the rules' values as defaults (``--house FILE``)."""

from __future__ import annotations

from firefight.api import HouseRules
from pydantic import Field


class RiskHouse(HouseRules):
    """RISK's fixed numbers: the most dice each side may roll, and the dice's sides."""

    #: R02: the attacker rolls at most 3 dice.
    attacker_dice: int = Field(3, ge=1, le=4)
    #: R03: the defender rolls at most 2 dice.
    defender_dice: int = Field(2, ge=1, le=3)
    #: R04: six-sided dice.
    sides: int = Field(6, ge=2, le=12)
