"""House rules (S04): every number a text fixes can be changed from a TOML file.

A ruleset declares its fixed numbers as a pydantic model whose defaults are the text's values
(e.g. ``base_delta_t: int = 10``). ``--house FILE`` loads overrides into that model, unknown keys
are refused, and :func:`house_events` lists the changed values so the transcript says when a
house rule applied.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

from firefight.core.identity import per_object
from firefight.core.loading import read_toml, validate
from firefight.core.transcript import HouseRule

H = TypeVar("H", bound="HouseRules")


class HouseRules(BaseModel):
    """Base for a ruleset's table of fixed numbers; defaults are the text's values."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def load_house(model: type[H], path: str | Path | None) -> H:
    """The text's numbers, with a house-rule file's overrides if one is given."""
    if path is None:
        return model()
    return validate(model, read_toml(path), f"{path} (house rules)")


@cache
def text_defaults(model: type[H]) -> H:
    """The text's numbers for a house-rule model, built once (the models are frozen)."""
    return model()


def house_events(rules: HouseRules, prefix: str = "") -> list[HouseRule]:
    """One event per number that differs from the text; a nested table of house rules (e.g.
    graydawn's ``suppression``) is listed field by field as ``table.field``."""
    return list(_events(rules, prefix))


@per_object
def _events(rules: HouseRules, prefix: str) -> tuple[HouseRule, ...]:
    """Once per rules object: exact odds replay a rule (and this call) on every path."""
    return tuple(_house_events(rules, prefix))


def _house_events(rules: HouseRules, prefix: str) -> list[HouseRule]:
    defaults = text_defaults(type(rules))
    out = []
    for name in type(rules).model_fields:
        value: Any = getattr(rules, name)
        default: Any = getattr(defaults, name)
        if value == default:
            continue
        if isinstance(value, HouseRules):
            out.extend(_house_events(value, f"{prefix}{name}."))
        else:
            out.append(HouseRule(f"{prefix}{name}", value, default))
    return out
