"""House rules (S04): every number the text fixes, with the text's value as the default.

A ``--house FILE`` changes any of them; the transcript then says so (a ``house rule`` line, and
modifiers that came from a changed number are marked ``[house rule]``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from firefight.core.house import HouseRules
from firefight.rulesets.warfare2d20.models import DicePool


class MortarShell(BaseModel):
    """One calibre of the blast table (W12): lethal radius and the inner bands' delta t bonus."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    lethal_m: int = Field(gt=0, description="blast radius in metres inside which it can kill")
    #: ``[[radius_m, delta_t_bonus], ...]``: within ``radius_m`` of the blast the bonus applies.
    bands: tuple[tuple[int, int], ...] = ()


def _text_shells() -> dict[str, MortarShell]:
    return {
        "60mm HE": MortarShell(lethal_m=20, bands=((10, 2),)),
        "81mm HE": MortarShell(lethal_m=34, bands=((15, 2),)),
        "107mm HE": MortarShell(lethal_m=40, bands=((20, 2),)),
        "120mm HE": MortarShell(lethal_m=60, bands=((20, 4), (40, 2))),
    }


class Warfare2d20House(HouseRules):
    """The numbers of warfare2d20.txt. Defaults are the text's; rule IDs in brackets."""

    opposed_dice: DicePool = "2d20"  # [W01] each side's roll
    base_delta_t: int = 10  # [W01]
    # [W02] aiming (delta)
    aiming: int = -2
    scope: int = -3
    high_power_scope: int = -4
    # [W02] shooter movement (delta)
    walking: int = 2
    running: int = 4
    sprinting: int = 6
    # [W03] target visibility and action (delta t); the action values come from the examples
    vaguely_visible: int = -2
    hardly_visible: int = -4
    moving_to_cover: int = -2
    taking_cover: int = -6
    mettle_check_dice: DicePool = "2d10"  # [W05] roll-under mettle
    endurance_check_dice: DicePool = "2d10"  # [W09] roll-under endurance
    endurance_threshold_percent: int = 25  # [W09] a hit doing MORE than this share of HP
    initiative_dice: DicePool = "2d10"  # [W10] roll-under mettle
    exceptional_initiative_margin: int = 7  # [W10] reading: margin that counts as "exceptional"
    blast_damage: DicePool = "2d10"  # [W12] from the mortar example
    blast_ignores_armour: bool = True  # [W12] from the mortar example
    mortar_shells: dict[str, MortarShell] = Field(default_factory=_text_shells)  # [W12]
    # Encounters (readings of the turn structure; see docs/rules/warfare2d20.md, Encounters)
    initiative_each_round: bool = False  # [W10] the text: rolled when a confrontation starts
    suppression_rounds: int = Field(1, ge=0, le=10)  # [W05] full rounds pinned after this one
    smoke_rounds: int = Field(1, ge=0, le=10)  # [W13] full rounds a smoke screen lasts after
    moving_to_cover_pace: Literal["walking", "running", "sprinting"] = "sprinting"  # [W02/W03]
