"""What changes during a graydawn fight: one frozen :class:`Fighter` per combatant and the shared
:class:`Board` (distances, suppression declared this round). Static data (stats, skills, weapon,
armour) stays on the turn structure (:mod:`.encounter`).

Kept small and hashable so exact kernels cache well and the JSON round trip is exact.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any

from firefight.core.turns import FightState
from firefight.rulesets.graydawn.models import WoundTrack, wound_state
from firefight.rulesets.graydawn.suppression import CheckResult

#: Fighter.status values: "ready" acts; "stunned" rolls a stun save at its initiative (G18);
#: "unconscious" is out of the fight (a failed stun save in mortal condition, G19); "dying"
#: failed a death save and dies after a turn (10 rounds) unless a doctor stabilises it (G19);
#: "stable" was stabilised (out of the fight, alive); "dead".
STATUSES = ("ready", "stunned", "unconscious", "dying", "stable", "dead")
OUT = ("unconscious", "dying", "stable", "dead")
#: Fighter.stance values (G32): active cover, full cover, bracing, in the open ("open" after
#: moving: the text's moving stance lasts while it is still in the open).
STANCES = ("active_cover", "full_cover", "bracing", "open")


@dataclass(frozen=True)
class Fighter:
    """One combatant's changing state (G17-G22 wounds and luck, G06/G40 the gun, G10-G15
    suppression, G32-G35 stance, movement and position)."""

    name: str
    side: str
    # -- the wound track (G21/G22) -----------------------------------------------------------
    minor: int = 0
    wounding: int = 0
    crippling: int = 0
    stun_marks: int = 0
    crippled: tuple[str, ...] = ()
    severed: tuple[str, ...] = ()
    status: str = "ready"
    #: G19: rounds spent in mortal condition since the last bleeding mark and death save.
    mortal_rounds: int = 0
    #: G19: rounds since a failed death save (dies when a turn of 10 is up, unless stabilised).
    dying_rounds: int = 0
    #: G19: first aid bought 1d6 more minutes (the dying clock runs past the fight).
    first_aid: bool = False
    # -- luck (G17): the pool lasts the fight ------------------------------------------------
    luck: int = 0
    # -- the weapon (G06, G39, G40) ----------------------------------------------------------
    ammo: int = 0
    spares: int = 0
    jammed: bool = False
    #: Gone for the fight (G06): a gun's critical weapon failure, a melee weapon's failed
    #: reliability roll.
    broken: bool = False
    #: A long gun shouldered (G39); a melee weapon in hand, not dropped (G06).
    ready: bool = True
    #: G06: the weapon (or a fist) stuck in the scenery: an action frees it.
    lodged: bool = False
    #: G06: an unarmed fumble's overextension: the next attack roll at -3.
    overextended: bool = False
    # -- initiative (G33) --------------------------------------------------------------------
    initiative: int = 0
    #: Roll initiative again at the next round's start (G33: a total <= 0, a lost action).
    reroll: bool = False
    # -- stance and position (G32, G34, G35) -------------------------------------------------
    stance: str = "active_cover"
    #: Metres to its cover (0: behind it; -1: it has none).
    cover_m: int = -1
    #: Movement actions in its last turn: the defence bonus lasts until its next turn (G34).
    moves: int = 0
    flanked_by: tuple[str, ...] = ()
    #: G06: fell down fumbling an unarmed attack: no dodge/cover skill in defence until it
    #: gets up.
    prone: bool = False
    ambushed: bool = False
    grappled_by: str | None = None
    # -- this round (G10-G16) ----------------------------------------------------------------
    acted: bool = False
    suppressing: bool = False
    levels: int = 0
    check: CheckResult = "none"
    fired_at: int = 0
    hits_taken: int = 0
    lost_action: bool = False
    panicked: bool = False
    #: The rest of a declared turn, one decision each (G31: committed, cannot be taken back).
    pending: tuple[str, ...] = ()

    @property
    def track(self) -> WoundTrack:
        return WoundTrack.model_construct(
            minor=self.minor,
            wounding=self.wounding,
            crippling=self.crippling,
            stun=self.stun_marks,
            crippled=self.crippled,  # type: ignore[arg-type]
            severed=self.severed,  # type: ignore[arg-type]
        )

    @property
    def marks(self) -> int:
        return self.minor + self.wounding + self.crippling + self.stun_marks

    @property
    def wound_state(self) -> str:
        return wound_state(self.marks)

    @property
    def out(self) -> bool:
        return self.status in OUT

    @property
    def in_cover(self) -> bool:
        return self.cover_m == 0 and self.stance != "open"

    def __hash__(self) -> int:
        """The fields' hash, kept once worked out: an exact preview hashes each fighter of
        every state it merges, thousands of times over (35 fields each). ``evolve`` drops it
        with the old values; pickling leaves it out (another process salts string hashes
        anew). A subclass (a preview's stand-in) hashes its own fields, uncached."""
        h: int | None = self.__dict__.get("_hash")
        if h is None:
            h = self.__dict__["_hash"] = hash(_VALUES(self))
        return h

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}


#: :class:`Fighter`'s field values, in order (what its hash hashes).
_VALUES = attrgetter(*(f.name for f in fields(Fighter)))


@dataclass(frozen=True)
class Declared:
    """G09/G16/G29: suppressing fire declared this round: who, at whom, how, how many rounds."""

    shooter: str
    target: str
    fire: str
    rounds: int


@dataclass(frozen=True)
class Board:
    """Shared changing state: distances in metres between pairs (sorted names), who has been
    asked to declare suppressing fire this round, and what was declared."""

    distances: tuple[tuple[str, str, float], ...] = ()
    asked: tuple[str, ...] = ()
    declared: tuple[Declared, ...] = ()

    def distance(self, a: str, b: str) -> float:
        x, y = sorted((a, b))
        for p, q, m in self.distances:
            if p == x and q == y:
                return m
        raise KeyError((a, b))

    def with_distance(self, a: str, b: str, metres: float) -> Board:
        x, y = sorted((a, b))
        rows = tuple((p, q, metres if (p, q) == (x, y) else m) for p, q, m in self.distances)
        return Board(rows, self.asked, self.declared)

    def fire_at(self, target: str) -> tuple[Declared, ...]:
        return tuple(d for d in self.declared if d.target == target)


STATE_TYPES: tuple[type, ...] = (Fighter, Board, Declared)


def put(state: FightState, new: Fighter) -> FightState:
    """``state.with_combatant(new)``, short for the many steps that write one fighter back."""
    return state.with_combatant(new)
