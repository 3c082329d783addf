"""Dice: notation, exact distributions, and the three dice sources rule code runs on.

Typical use::

    from firefight.dice import parse, exact, SeededDice, ScriptedDice, enumerate_outcomes
    exact("abs(2d20-2d20)").at_most(10)
    ScriptedDice([1, 10, 4]).roll("d10x + 11").total   # -> -3 (graydawn G02)

Names are imported from their modules on first use (PEP 562), so ``firefight roll 2d20`` loads
the parser and the roller without the exact-distribution machinery.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from firefight.dice.depth import Depth
    from firefight.dice.dist import Dist, Weighted
    from firefight.dice.exact import exact, exact_sorted, exact_tagged
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

#: Public name -> the module that defines it.
_HOME = {
    "Dist": "dist",
    "Weighted": "dist",
    "Depth": "depth",
    "exact": "exact",
    "exact_sorted": "exact",
    "exact_tagged": "exact",
    "DOUBLE_SIX": "nodes",
    "NATURAL_ONE": "nodes",
    "Node": "nodes",
    "parse": "parse",
    "render_line": "render",
    "render_rolled": "render",
    "rolled_json": "render",
    "Rolled": "rolling",
    "roll_tree": "rolling",
    "sample": "sample",
    "DiceSource": "sources",
    "ExactDice": "sources",
    "Roll": "sources",
    "ScriptedDice": "sources",
    "SeededDice": "sources",
    "enumerate_outcomes": "sources",
}


class _Package(types.ModuleType):
    """Importing a submodule binds it on its package; three share a name with the function they
    define (``exact``, ``parse``, ``sample``): bind the function, as an eager import did."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _HOME.get(name) == name:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


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
