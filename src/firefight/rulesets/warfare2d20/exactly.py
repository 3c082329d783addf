"""A derive whose exact branches come from a table built by the same rule code in one pass.

``dice.derive`` in exact mode enumerates its sub-rule path by path. For a sub-rule that is a pure
function of dice whose exact distribution the dice core already knows (sorted pools, sums), the
ruleset can build the same outcome table in one numpy pass with the same rule function and hand
it to the exact source. Seeded and scripted dice always run the sub-rule itself (with its
transcript).

The core has no public hook for handing a table to :class:`~firefight.dice.ExactDice` yet, so
:func:`derive_table` seeds the source's derive cache for ``key``; see the ruleset notes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

from firefight.dice import DiceSource, ExactDice, Weighted

T = TypeVar("T", bound=Hashable)


def derive_table(
    dice: DiceSource,
    why: str,
    fn: Callable[[DiceSource], T],
    key: Hashable,
    table: Callable[[], Weighted[T]],
) -> T:
    """``dice.derive(why, fn, key)``, with ``table()`` as the exact branches for ``key``."""
    if isinstance(dice, ExactDice):
        derived = dice._shared.derived
        if key not in derived:
            w = table()
            items = list(w.items())
            derived[key] = (
                tuple((k, frozenset()) for k, _ in items),
                tuple(x for _, x in items),
                w.total,
            )
    return dice.derive(why, fn, key)
