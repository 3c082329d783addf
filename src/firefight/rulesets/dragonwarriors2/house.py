"""House rules (S04): every number the text fixes, with the text's value as the default."""

from __future__ import annotations

from pydantic import Field

from firefight.core.house import HouseRules


class DragonWarriors2House(HouseRules):
    """The numbers the text fixes (S04); defaults are the text's values."""

    #: The stun check is Toughness against Wounds plus this (D06).
    stun_target_bonus: int = 5
    #: A stun check failed by MORE than this knocks the character out (D06).
    knock_out_margin: int = 5
    #: Feet in a fathom: long-range missile difficulty is the range in fathoms (D09).
    feet_per_fathom: int = Field(6, ge=1)
    #: Aggressive parry adds Attack divided by this, rounded down (D08).
    aggressive_parry_divisor: int = Field(2, ge=1)
    #: Encounters (a reading: the text gives no distances for melee): two combatants this many
    #: feet apart or closer may fight hand to hand; beyond it only missiles reach.
    reach_feet: int = Field(6, ge=0)
    #: Encounters (a reading: the text gives no movement rate): feet a combatant who spends his
    #: turn closing on an enemy covers in the turn's six seconds.
    advance_feet: int = Field(30, ge=1)
