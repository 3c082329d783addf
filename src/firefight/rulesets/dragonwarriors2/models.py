"""Situation files for Dragon Warriors II, validated at the edge (pydantic).

Two kinds of situation:

- ``kind = "exchange"`` (the default; ``"attack"`` is accepted too): one attack and its whole
  riposte chain, with the injury checks that follow. Exact odds are computed for this kind.
- ``kind = "fight"``: combatants and a list of turns, each with optional initiative (D03) and
  the exchanges in the order they happen (the Rolf vs Lennox example is one).

Names follow the text: ATT, DEF, TOU and REF are ``attack``, ``defence``, ``toughness`` and
``reflexes``; wounds are cumulative.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from firefight.core.catalog import from_catalog

Stance = Literal["normal", "full parry", "aggressive parry"]
RiposteRule = Literal["always", "never", "margin", "choose"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


#: Highest score a file may give: the text's scores run to about 25 at high rank; far above that
#: the odds' riposte chains only grow longer (a Defence of 2**63 never finished).
MAX_SCORE = 100


class CombatantSpec(_Model):
    """One combatant: the text's four scores, current state, gear, stance and riposte policy."""

    name: str = Field(min_length=1)
    attack: int = Field(ge=0, le=MAX_SCORE)
    defence: int = Field(ge=0, le=MAX_SCORE)
    toughness: int = Field(ge=0, le=MAX_SCORE)
    reflexes: int = Field(0, ge=-MAX_SCORE, le=MAX_SCORE)
    #: Cumulative wounds already taken.
    wounds: int = Field(0, ge=0, le=MAX_SCORE)
    stunned: bool = False
    knocked_out: bool = False
    dead: bool = False
    #: Catalog names; no weapon means no weapon modifiers (as in the text's example).
    weapon: str | None = from_catalog("weapon", None)
    shield: str | None = from_catalog("shield", None)
    armour: str | None = from_catalog("armour", None, examples=["leather"])
    stance: Stance = "normal"
    #: When this combatant ripostes after winning as defender (D05).
    riposte: RiposteRule = "margin"
    #: With ``riposte = "margin"``: riposte when the winning margin is at least this.
    riposte_margin: int = Field(3, ge=1)
    #: With ``riposte = "choose"``: the table's decisions, one per chance to riposte, in order.
    riposte_choices: tuple[bool, ...] = ()


class NamedModifier(_Model):
    name: str = Field(min_length=1)
    value: int = Field(ge=-MAX_SCORE, le=MAX_SCORE)


class WeaponEntry(_Model):
    """A ``[weapon.NAME]`` catalog entry (D10, D09): the shipped catalog's keys."""

    name: str = Field(min_length=1)
    weapon_class: str | None = Field(None, alias="class")
    attack: int = Field(0, ge=-MAX_SCORE, le=MAX_SCORE)
    damage: int = Field(0, ge=-MAX_SCORE, le=MAX_SCORE)
    hands: int = Field(1, ge=0, le=2)
    thrown: bool = False
    missile: Literal["fathoms"] | None = None
    concealable: bool = False


class ShieldEntry(_Model):
    """A ``[shield.NAME]`` catalog entry: its bonus to Defence."""

    name: str = Field(min_length=1)
    defence: int = Field(0, ge=0, le=MAX_SCORE)


class ArmourEntry(_Model):
    """An ``[armour.NAME]`` catalog entry: what it takes off damage and initiative."""

    name: str = Field(min_length=1)
    reduction: int = Field(0, ge=0, le=MAX_SCORE)


class MissileSpec(_Model):
    """A missile attack (D09): a difficulty rating takes the place of the target's Defence."""

    #: Catalog weapon: a bow or crossbow (range in fathoms) or a thrown weapon (range in feet).
    weapon: str
    range_feet: int | None = Field(None, ge=0)
    range_fathoms: int | None = Field(None, ge=0)
    #: Other modifiers to the difficulty rating ("plus other modifiers"), each named.
    modifiers: tuple[NamedModifier, ...] = ()
    #: Reading: the difficulty is rolled like a Defence (the text: missile combat takes the
    #: same form as melee). False makes it a fixed number (a passive contest, D02).
    difficulty_rolled: bool = True

    @model_validator(mode="after")
    def _one_range(self) -> MissileSpec:
        if (self.range_feet is None) == (self.range_fathoms is None):
            raise ValueError("give exactly one of range_feet or range_fathoms")
        return self


class Options(_Model):
    """Readings and options of one situation (S03)."""

    #: Reading: a riposte's Attack score is the margin plus the riposter's weapon Attack bonus.
    weapon_bonus_on_riposte: bool = True
    #: Reading: a parry (D08) adds the defender's Attack score, the sheet's ATT; true adds his
    #: weapon's Attack bonus (D10) as well.
    weapon_bonus_on_parry: bool = False
    #: The text leaves the double six's effect open; this adds a bonus to the roller's total
    #: (0 = the event is only recorded).
    double_six_bonus: int = Field(0, ge=-MAX_SCORE, le=MAX_SCORE)
    #: Who rolls in the death check (D07): the victim's Toughness against his Wounds, or his
    #: Wounds against his Toughness. Both give the same odds (the roll is symmetric).
    death_check: Literal["toughness roll", "wounds roll"] = "toughness roll"
    #: Most contests one exchange may run (attack, riposte, counter-riposte, ...).
    max_chain: int = Field(80, ge=1, le=1000)
    #: Odds: probability mass the riposte chain may leave out (reported as truncated mass).
    #: At least 1e-15: smaller asks for riposte chains so long the odds would run for minutes.
    odds_tolerance: float = Field(5e-10, ge=1e-15, lt=1e-3)


class ExchangeSituation(_Model):
    """One attack with its riposte chain (D04-D09)."""

    kind: Literal["exchange", "attack"] = "exchange"
    title: str = ""
    attacker: CombatantSpec
    defender: CombatantSpec
    missile: MissileSpec | None = None
    options: Options = Options()
    catalogs: tuple[str, ...] = ()


class ExchangeStep(_Model):
    """One exchange of a fight: who attacks whom, and how the defender stands."""

    attacker: str
    defender: str
    defender_stance: Stance | None = None
    missile: MissileSpec | None = None


class TurnSpec(_Model):
    """One turn (about 6 seconds): initiative rolls (D03) and the exchanges in order."""

    #: Roll initiative at the start of the turn (the text's example shows it on turn 1 only).
    initiative: bool = True
    exchanges: tuple[ExchangeStep, ...] = ()


class FightSituation(_Model):
    """Several turns between named combatants (D03, D11)."""

    kind: Literal["fight"]
    title: str = ""
    combatants: tuple[CombatantSpec, ...] = Field(min_length=2)
    turns: tuple[TurnSpec, ...] = Field(min_length=1)
    options: Options = Options()
    catalogs: tuple[str, ...] = ()
