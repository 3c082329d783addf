"""firefight: tactical tabletop-RPG combat rules, resolved on any dice and computed exactly.

Layers (imports point one way): ``dice`` <- ``core`` <- ``rulesets`` <- ``encounter`` <-
``analysis`` <- ``web`` <- ``cli`` (``tests/core/test_layers.py`` holds the line and refuses any
top-level folder it does not name). The package import is kept light so ``firefight --help``
starts fast: the library's functions (:mod:`firefight.library`: ``load_situation``,
``resolve``, ``odds``, ``load_scenario``, ``fight``, ``simulate``, ``exact``, ``sweep``,
``dist``, ``rulesets``) are reachable as ``firefight.<name>`` and imported on first use.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

#: The library's names, loaded from :mod:`firefight.library` on first use.
_LIBRARY = frozenset(
    {
        "load_situation",
        "resolve",
        "odds",
        "load_scenario",
        "fight",
        "simulate",
        "exact",
        "sweep",
        "dist",
        "rulesets",
        "Situation",
        "FightLog",
        "FightReport",
        "SweepTable",
    }
)


def __getattr__(name: str) -> Any:
    """``firefight.fight`` and the library's other names, imported when first asked for."""
    if name in _LIBRARY:
        from firefight import library

        return getattr(library, name)
    raise AttributeError(f"module 'firefight' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_LIBRARY])
