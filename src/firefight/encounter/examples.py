"""The example scenarios a GM is offered (the tracker's start page and its scenario form).

Two sources: a folder of bundled examples laid out ``<ruleset>/encounters/NAME.toml`` (the
repository's ``examples/``, or ``firefight serve --examples FOLDER``), and the scenarios each
registered ruleset ships in its own examples folder (``Ruleset.examples``, a folder inside its
package). An example's id is ``ruleset/NAME``; where both sources have one id, the bundled file
is offered. A file that is no TOML is left out (the conformance kit reports it to the ruleset's
author).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firefight.errors import FirefightError
from firefight.rulesets import available, get_ruleset, is_scenario


@dataclass(frozen=True)
class Example:
    """One example scenario: its id (``ruleset/NAME``), ruleset, file and TOML data."""

    id: str
    ruleset: str
    path: Path
    data: Mapping[str, Any]

    @property
    def title(self) -> str:
        """The scenario's ``title``, else its file's name."""
        return str(self.data.get("title", self.path.stem))


def offered(bundled: Path | None) -> list[Example]:
    """Every example scenario: the bundled folder's (by path), then the ones each registered
    ruleset ships (in the order ``firefight rulesets`` lists them)."""
    return _merged(_bundled(bundled), available())


def of_ruleset(ruleset_id: str, bundled: Path | None) -> list[Example]:
    """The example scenarios of one ruleset: the bundled folder's, then its own."""
    return _merged(_bundled(bundled, ruleset_id), [ruleset_id])


def _merged(bundled: Iterator[Example], rulesets: Iterable[str]) -> list[Example]:
    """``bundled``, then what ``rulesets`` ship under ids the bundled folder does not take."""
    found = {e.id: e for e in bundled}
    for rid in rulesets:
        for example in shipped(rid):
            found.setdefault(example.id, example)
    return list(found.values())


def shipped(ruleset_id: str) -> list[Example]:
    """The scenarios naming ``ruleset_id`` in that ruleset's own examples folder (any depth,
    ``house/`` folders aside), by path; none for a ruleset that cannot be loaded or runs no
    fights."""
    try:
        ruleset = get_ruleset(ruleset_id)
    except FirefightError:  # a broken plugin offers nothing; `firefight rulesets` says why
        return []
    folder = ruleset.example_folder()
    if folder is None or not ruleset.runs_encounters:
        return []
    out = []
    for path in sorted(folder.rglob("*.toml")):
        if "house" in path.relative_to(folder).parts[:-1]:
            continue
        data = _read(path)
        if data is not None and is_scenario(data) and data["ruleset"] == ruleset_id:
            out.append(Example(f"{ruleset_id}/{path.stem}", ruleset_id, path, data))
    return out


def _bundled(folder: Path | None, ruleset_id: str = "*") -> Iterator[Example]:
    if folder is None or not folder.is_dir():
        return
    for path in sorted(folder.glob(f"{ruleset_id}/encounters/*.toml")):
        data = _read(path)
        if data is not None:
            ruleset = path.parent.parent.name
            yield Example(f"{ruleset}/{path.stem}", ruleset, path, data)


def _read(path: Path) -> dict[str, Any] | None:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
