"""The registry of rulesets: id -> the module that defines it, imported only when asked for.

Each ruleset subpackage exposes ``RULESET``, an instance of
:class:`firefight.core.ruleset.Ruleset`.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from typing import Any

from firefight.core.ruleset import AnyRuleset
from firefight.errors import UnknownNameError

#: Every ruleset firefight knows, by id (the ids of ``shared/rules/README.md``).
REGISTRY: dict[str, str] = {
    "warfare2d20": "firefight.rulesets.warfare2d20",
    "dragonwarriors2": "firefight.rulesets.dragonwarriors2",
    "graydawn": "firefight.rulesets.graydawn",
    "tactical_d20": "firefight.rulesets.tactical_d20",
    "quality_d100": "firefight.rulesets.quality_d100",
}


def available() -> list[str]:
    """Ids whose subpackage is installed."""
    return [rid for rid, mod in REGISTRY.items() if importlib.util.find_spec(mod) is not None]


def get_ruleset(ruleset_id: str) -> AnyRuleset:
    """The ruleset registered under ``ruleset_id``."""
    key = ruleset_id
    if key not in REGISTRY or key not in available():
        near = str(ruleset_id).strip().lower()
        hint = f"did you mean {near!r}? " if near in available() else ""
        raise UnknownNameError(
            f"unknown ruleset {ruleset_id!r}",
            tip=f"{hint}choose one of: {', '.join(available())}",
        )
    module = importlib.import_module(REGISTRY[key])
    ruleset: AnyRuleset = module.RULESET
    return ruleset


def is_scenario(data: Mapping[str, Any]) -> bool:
    """Whether TOML data is a scenario (``fight``, ``simulate``, ``encounter``): a scenario
    names its ruleset, a situation (``attack``, ``odds``) never does."""
    return "ruleset" in data


def rulesets_loading(data: Mapping[str, Any], source: str, but: str = "") -> list[tuple[str, str]]:
    """The rulesets (other than ``but``) whose situation files ``data`` is valid as, each with
    the command that resolves it: asked only once a file is refused, to say "this is a
    warfare2d20 file"."""
    found: list[tuple[str, str]] = []
    for rid in available():
        if rid == but:
            continue
        ruleset = get_ruleset(rid)
        try:
            situation = ruleset.load_situation(data, source=source, house=ruleset.house_model())
        except Exception:  # a probe: any refusal means "not this ruleset's file"
            continue
        found.append((rid, ruleset.kind(situation).command))
    return found
