"""What the start page's scenario form needs: the rulesets, each one's combatant form and
catalog, and a scenario checked as a file is.

The form is drawn from the ruleset's own model (``Ruleset.combatant_model``'s JSON schema) and
catalog, and offers the combatants of the example scenarios (the bundled folder's and those the
ruleset ships, :mod:`firefight.encounter.examples`) as ready-made ones. The page
writes the scenario as TOML text and the server judges that text with the scenario files' own
validation (``build_scenario``), so a scenario built on the page and the file it downloads are
the same scenario, refused in the same one line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firefight.core.loading import parse_toml_text
from firefight.encounter.examples import of_ruleset
from firefight.encounter.policies import POLICIES
from firefight.encounter.scenario import Scenario, build_scenario
from firefight.errors import FirefightError, InputError
from firefight.rulesets import available, get_ruleset


def rulesets() -> dict[str, Any]:
    """The rulesets that run whole fights (id and title), and the policies a side may use."""
    found = []
    for rid in available():
        try:
            ruleset = get_ruleset(rid)
        except FirefightError:  # a plugin that fails to load is left out of the list
            continue
        if ruleset.runs_encounters:
            found.append({"id": ruleset.id, "title": ruleset.title})
    return {"rulesets": found, "policies": list(POLICIES)}


def ruleset_form(ruleset_id: str, examples: Path | None) -> dict[str, Any]:
    """One ruleset's form: the JSON schema of its combatant table (None: the form takes TOML),
    its shipped catalog, and the combatants of its example scenarios."""
    ruleset = get_ruleset(ruleset_id)
    if not ruleset.runs_encounters:
        ruleset.encounter(None)  # type: ignore[arg-type]  # raises the ruleset's own refusal
    model = ruleset.combatant_model()
    return {
        "id": ruleset.id,
        "title": ruleset.title,
        "schema": model.model_json_schema() if model is not None else None,
        "catalog": ruleset.catalog(),
        "examples": _example_combatants(ruleset.id, examples),
    }


def _example_combatants(ruleset_id: str, examples: Path | None) -> list[dict[str, Any]]:
    """Each combatant of the ruleset's example scenarios (the bundled folder's, then its own):
    its table (``side`` aside), the example it comes from, and that example's battlefield cover
    for it."""
    out: list[dict[str, Any]] = []
    for example in of_ruleset(ruleset_id, examples):
        data = example.data
        if data.get("ruleset") != ruleset_id or data.get("catalogs"):
            continue  # another ruleset's, or one needing catalog files beside it
        cover = data.get("battlefield", {}).get("cover", {})
        for table in data.get("combatants", []):
            entry = {k: v for k, v in table.items() if k != "side"}
            name = entry.get("name")
            out.append(
                {
                    "name": name,
                    "example": example.path.stem,
                    "table": entry,
                    "cover": cover.get(name),
                }
            )
    return out


def scenario_from_text(text: str, *, draft: bool = False) -> Scenario:
    """Scenario TOML text sent to the server, judged as a file is (a ``draft`` may have one
    side and one combatant); one line saying what is wrong otherwise."""
    data = parse_toml_text(text, "scenario")
    if isinstance(data.get("house"), str):
        raise InputError(
            f"scenario: house = {data['house']!r} names a file the server cannot read",
            tip="write the house rules inline as a [house] table",
        )
    return build_scenario(data, "scenario", draft=draft)


def check_scenario(text: str, *, draft: bool = False) -> dict[str, Any]:
    """:func:`scenario_from_text` for the form: the scenario's data as the server read it."""
    return {"scenario": dict(scenario_from_text(text, draft=draft).data)}
