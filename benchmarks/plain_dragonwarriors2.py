"""A plain direct solver of a dragonwarriors2 duel to first blood, written from the text
(D01-D05, D10) and docs/rules/dragonwarriors2.md, for ``bench_exact.py`` to race against
``firefight simulate --exact``: no firefight code, floats, identical states merged after every
roll.

What it covers (and refuses otherwise): two combatants, each side's policy ``first`` (the
scenario's own choices: the usual stance, the riposte rule), a house ``stun_target_bonus`` so large
that any wound knocks its taker out (the first blood ends the fight), melee at reach, wounds
taken before the fight no more than Toughness (no death check).

The fight: each turn, initiative (Reflexes + plus-minus roll - armour, best first; ties to the
higher Reflexes, then the order listed, D03); the first in the queue attacks the other, who has
not acted and so answers with his usual stance (a parry adds to his Defence against the first
contest and gives up his attack, D08); a contest (Attack + weapon Attack +
roll against Defence + shield + roll, D04) hits for margin + weapon damage - armour wounds, or
the defender, winning by m, ripostes with Attack m + his weapon's Attack when his rule says so
(D05), and so on up to the chain's cut; then the other attacks (no stance: he has acted). A
turn leaves nobody hurt or ends the fight, so one turn's outcome serves every turn.
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

CATALOG = (
    Path(__file__).resolve().parents[1] / "src/firefight/rulesets/dragonwarriors2/catalog.toml"
)
#: Re-rolls an open-ended die may take: the depth firefight's dice core picks for pm6 (the mass
#: left out of a roll below 2e-14).
DEPTH = 17
#: The chain is cut after this many contests (the text's options.max_chain default).
MAX_CHAIN = 80
#: Mass still riposting below this ends the chain as no wound (far below the 1e-12 asked).
NEGLIGIBLE = 1e-18


def open_die() -> dict[int, float]:
    """One open-ended d6 (a six adds another roll), to DEPTH re-rolls; the rest is left out."""
    out: dict[int, float] = {}
    for sixes in range(DEPTH + 1):
        for face in range(1, 6):
            out[6 * sixes + face] = (1 / 6) ** (sixes + 1)
    return out


def plus_minus() -> dict[int, float]:
    """The plus-minus roll: an open-ended plus die minus an open-ended minus die (D01)."""
    die = open_die()
    out: dict[int, float] = {}
    for a, pa in die.items():
        for b, pb in die.items():
            out[a - b] = out.get(a - b, 0.0) + pa * pb
    return out


def difference(pm: dict[int, float]) -> dict[int, float]:
    """Attacker's roll minus defender's."""
    out: dict[int, float] = {}
    for a, pa in pm.items():
        for b, pb in pm.items():
            out[a - b] = out.get(a - b, 0.0) + pa * pb
    return out


class Fighter:
    def __init__(self, spec: dict, catalog: dict) -> None:
        self.name = spec["name"]
        self.attack, self.defence = spec["attack"], spec["defence"]
        self.reflexes = spec["reflexes"]
        weapon = catalog["weapon"][spec["weapon"]] if spec.get("weapon") else {}
        self.weapon_attack = weapon.get("attack", 0)
        self.damage = weapon.get("damage", 0)
        shield = catalog["shield"][spec["shield"]] if spec.get("shield") else {}
        self.shield = shield.get("defence", 0)
        armour = catalog["armour"][spec["armour"]] if spec.get("armour") else {}
        self.armour = armour.get("reduction", 0)
        self.rule = spec.get("riposte", "margin")
        self.margin = spec.get("riposte_margin", 3)
        #: The usual stance (D08): a parrying fighter parries on his turn and when attacked
        #: before he has acted, and never attacks.
        self.stance = spec.get("stance", "normal")
        self.wounds = spec.get("wounds", 0)
        if self.wounds > spec["toughness"]:
            raise SystemExit(f"{self.name}: a death check would be due (D07)")

    def parry_bonus(self) -> int:
        """What the stance adds to Defence against the first contest (D08)."""
        if self.stance == "full parry":
            return self.attack
        if self.stance == "aggressive parry":
            return self.attack // 2
        return 0

    def ripostes(self, won_by: int) -> bool:
        return self.rule == "always" or (self.rule == "margin" and won_by >= self.margin)


def exchange(
    att: Fighter, dfn: Fighter, diff: dict[int, float]
) -> tuple[dict[tuple[str, int], float], float]:
    """An attack and its riposte chain: {(victim, wounds): p} and P(nobody hurt)."""
    hurt: dict[tuple[str, int], float] = {}
    calm = 0.0
    # contests in play: Attack score -> probability, for the level's attacker and defender
    scores = {att.attack + att.weapon_attack: 1.0}
    sides = (att, dfn)
    for level in range(MAX_CHAIN):
        a, d = sides[level % 2], sides[1 - level % 2]
        defence = d.defence + d.shield + (d.parry_bonus() if level == 0 else 0)
        no_riposte = level == 0 and d.stance == "full parry"
        nxt: dict[int, float] = {}
        for score, p in scores.items():
            for roll, q in diff.items():
                margin = score - defence + roll
                pq = p * q
                if margin > 0:
                    wounds = margin + a.damage - d.armour
                    if wounds > 0:
                        key = (d.name, wounds)
                        hurt[key] = hurt.get(key, 0.0) + pq
                    else:
                        calm += pq
                elif margin < 0 and not no_riposte and d.ripostes(-margin):
                    s = -margin + (d.weapon_attack if d.weapon_attack else 0)
                    nxt[s] = nxt.get(s, 0.0) + pq
                else:
                    calm += pq
        # the chain's cut, or the mass still riposting too small to show at 1e-12
        if not nxt:
            break
        if level + 1 >= MAX_CHAIN or sum(nxt.values()) < NEGLIGIBLE:
            calm += sum(nxt.values())
            break
        scores = nxt
    return hurt, calm


def initiative(first: Fighter, second: Fighter, pm: dict[int, float]) -> tuple[float, float]:
    """P(the first listed acts first), P(the second does) (D03)."""
    p1 = p2 = 0.0
    for a, pa in pm.items():
        ta = first.reflexes + a - first.armour
        for b, pb in pm.items():
            tb = second.reflexes + b - second.armour
            if ta > tb or (ta == tb and first.reflexes >= second.reflexes):
                p1 += pa * pb
            else:
                p2 += pa * pb
    return p1, p2


def solve(path: Path) -> dict:
    scenario = tomllib.loads(path.read_text())
    catalog = tomllib.loads(CATALOG.read_text())
    if scenario.get("house", {}).get("stun_target_bonus", 5) < 100:
        raise SystemExit("only duels to first blood (a house stun_target_bonus of 100 or more)")
    x, y = (Fighter(c, catalog) for c in scenario["combatants"])
    pm = plus_minus()
    diff = difference(pm)
    # one turn in each order: the first attacks, then (nobody hurt) the other
    turn: dict[tuple[str, int], float] = {}
    calm = 0.0
    for p_order, (one, two) in zip(initiative(x, y, pm), ((x, y), (y, x)), strict=True):
        # a parrying fighter gives up his attack: the other's is then the turn's only one
        first, second = (two, one) if one.stance != "normal" else (one, two)
        hurt1, calm1 = exchange(first, second, diff)
        hurt2, calm2 = exchange(second, first, diff) if second.stance == "normal" else ({}, 1.0)
        for key, p in hurt1.items():
            turn[key] = turn.get(key, 0.0) + p_order * p
        for key, p in hurt2.items():
            turn[key] = turn.get(key, 0.0) + p_order * calm1 * p
        calm += p_order * calm1 * calm2
    rounds = scenario["max_rounds"]
    wins = {x.name: 0.0, y.name: 0.0}
    harm = {x.name: 0.0, y.name: 0.0}
    by_round = []
    alive = 1.0
    for _ in range(rounds):
        ended = 0.0
        for (victim, wounds), p in turn.items():
            winner = y.name if victim == x.name else x.name
            wins[winner] += alive * p
            harm[victim] += alive * p * wounds
            ended += alive * p
        by_round.append(ended)
        alive *= calm
    total = sum(wins.values()) + alive
    return {
        "wins": {k: v / total for k, v in wins.items()},
        "truncated": alive / total,
        "rounds": [p / total for p in by_round],
        "taken": {k: v / total for k, v in harm.items()},
    }


if __name__ == "__main__":
    print(json.dumps(solve(Path(sys.argv[1]))))
