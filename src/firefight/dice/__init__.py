"""Dice: notation, exact distributions, and the three dice sources rule code runs on.

Typical use::

    from firefight.dice import parse, exact, SeededDice, ScriptedDice, enumerate_outcomes
    exact("abs(2d20-2d20)").at_most(10)
    ScriptedDice([1, 10, 4]).roll("d10x + 11").total   # -> -3 (graydawn G02)
"""

from firefight.dice.dist import Dist, Weighted
from firefight.dice.exact import Depth, exact, exact_sorted, exact_tagged
from firefight.dice.nodes import DOUBLE_SIX, NATURAL_ONE, Node
from firefight.dice.parse import parse
from firefight.dice.render import render_line, render_rolled, rolled_json
from firefight.dice.rolling import Rolled, roll_tree
from firefight.dice.sample import sample
from firefight.dice.sources import (
    DiceSource,
    ExactDice,
    Roll,
    ScriptedDice,
    SeededDice,
    enumerate_outcomes,
)

__all__ = [
    "DOUBLE_SIX",
    "NATURAL_ONE",
    "Depth",
    "DiceSource",
    "Dist",
    "ExactDice",
    "Node",
    "Roll",
    "Rolled",
    "ScriptedDice",
    "SeededDice",
    "Weighted",
    "enumerate_outcomes",
    "exact",
    "exact_sorted",
    "exact_tagged",
    "parse",
    "render_line",
    "render_rolled",
    "roll_tree",
    "rolled_json",
    "sample",
]
