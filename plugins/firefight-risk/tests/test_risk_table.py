"""The whole-battle table: P(the attacker takes the territory) for 1..10 attacking armies (not
counting the one left behind) against 1..10 defending armies, exact, from firefight's exact
fight odds on the plugin's rule code.

What each value is checked against:

- every cell, as a fraction, against an independent computation here (:func:`one_roll`
  enumerates every ordering of the dice; :func:`takes` is a plain recursion over armies): this
  is the check that can find a wrong rule;
- every cell, rounded to three places, against :data:`OSBORNE_TABLE_3`, the table of J. A.
  Osborne, "Markov Chains for the RISK Board Game Revisited", Mathematics Magazine 76(2), 2003
  (table 3: rows the attacker's armies, columns the defender's). Those 100 figures were typed
  from memory, not copied from the paper, which was not at hand: that they equal the rounded
  independent values shows they are the correct table, not that each is the figure printed.
  Where a printed cell could differ: a figure within a few millionths of a rounding boundary
  (3 against 8 is 0.0535023, 4 against 6 is 0.2525027) prints otherwise from any computation
  less exact than that, and 1.000 and 0.000 (8-10 against 1, 1 against 6-10) may be printed in
  another form (the values are 0.99962-0.99996 and 0.0000019-0.00045);
- three cells against literal values (two fractions and a float) recorded with the table and,
  like it, not checked against a source here: they hold the independent computation itself.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path

import firefight

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "firefight_risk" / "examples"
BATTLE = EXAMPLES / "battle.toml"

OSBORNE_TABLE_3 = """
0.417 0.106 0.027 0.007 0.002 0.000 0.000 0.000 0.000 0.000
0.754 0.363 0.206 0.091 0.049 0.021 0.011 0.005 0.003 0.001
0.916 0.656 0.470 0.315 0.206 0.134 0.084 0.054 0.033 0.021
0.972 0.785 0.642 0.477 0.359 0.253 0.181 0.123 0.086 0.057
0.990 0.890 0.769 0.638 0.506 0.397 0.297 0.224 0.162 0.118
0.997 0.934 0.857 0.745 0.638 0.521 0.423 0.329 0.258 0.193
0.999 0.967 0.910 0.834 0.736 0.640 0.536 0.446 0.357 0.287
1.000 0.980 0.947 0.888 0.818 0.730 0.643 0.547 0.464 0.380
1.000 0.990 0.967 0.930 0.873 0.808 0.726 0.646 0.558 0.480
1.000 0.994 0.981 0.954 0.916 0.861 0.800 0.724 0.650 0.568
"""
TYPED = [line.split() for line in OSBORNE_TABLE_3.strip().splitlines()]


@cache
def one_roll(attacking: int, defending: int) -> dict[tuple[int, int], Fraction]:
    """(attacker's losses, defender's losses) -> probability, over every ordering of the dice."""
    counts: dict[tuple[int, int], int] = {}
    for faces in product(range(1, 7), repeat=attacking + defending):
        mine = sorted(faces[:attacking], reverse=True)
        theirs = sorted(faces[attacking:], reverse=True)
        pairs = list(zip(mine, theirs, strict=False))
        lost = (sum(a <= d for a, d in pairs), sum(a > d for a, d in pairs))
        counts[lost] = counts.get(lost, 0) + 1
    return {k: Fraction(v, 6 ** (attacking + defending)) for k, v in counts.items()}


@cache
def takes(attackers: int, defenders: int) -> Fraction:
    """P(the attacker wins) attacking with as many dice as allowed until one side is gone."""
    if defenders == 0:
        return Fraction(1)
    if attackers == 0:
        return Fraction(0)
    roll = one_roll(min(3, attackers), min(2, defenders))
    return sum(
        (p * takes(attackers - la, defenders - ld) for (la, ld), p in roll.items()), Fraction(0)
    )


def battle(attackers: int, defenders: int) -> dict:
    data = tomllib.loads(BATTLE.read_text(encoding="utf-8"))
    data["combatants"][0]["armies"] = attackers
    data["combatants"][1]["armies"] = defenders
    return data


def test_the_exact_table_is_the_independent_one_and_osbornes() -> None:
    for a in range(1, 11):
        for d in range(1, 11):
            report = firefight.exact(battle(a, d))
            p = report.p_win("Attacker")
            assert isinstance(p, Fraction), (a, d)
            assert p == takes(a, d), (a, d)
            assert report.p_win("Defender") == 1 - p
            assert f"{float(p):.3f}" == TYPED[a - 1][d - 1], (a, d, float(p))


def test_cells_held_as_literals() -> None:
    assert takes(2, 3) == Fraction(692225, 3359232)
    assert takes(2, 4) == Fraction(5520775, 60466176)
    assert abs(float(takes(9, 10)) - 0.47993525647768026) < 1e-15


def test_the_independent_rolls_are_the_classic_figures() -> None:
    """The one-roll figures every RISK analysis starts from (Osborne's table 2)."""
    assert one_roll(1, 1) == {(1, 0): Fraction(21, 36), (0, 1): Fraction(15, 36)}
    assert one_roll(3, 1)[(0, 1)] == Fraction(855, 1296)
    assert one_roll(3, 2) == {
        (0, 2): Fraction(2890, 7776),
        (1, 1): Fraction(2611, 7776),
        (2, 0): Fraction(2275, 7776),
    }
