"""``firefight new-ruleset NAME [--dir PATH]``: a ruleset package to start from.

It writes ``firefight-NAME/`` (hyphens for underscores) from the templates in ``scaffold/``: a
``pyproject.toml`` registering the ruleset under the entry-point group ``firefight.rulesets``, a
ruleset module importing only ``firefight.api`` (one situation kind, a turn structure, house
rules), a situation, a scenario and a house-rule file in the package's ``examples`` folder (the
ruleset's ``examples``: the tracker offers the scenario), and tests running its rules and the
conformance kit. ``pip install -e firefight-NAME`` then makes it a ruleset like the built-in
ones, and its tests pass as written (``tests/cli/test_new_ruleset.py`` installs one into a fresh
virtual environment). The folder is written whole or not at all.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from firefight.core.ruleset import RULESET_ID
from firefight.errors import InputError

TEMPLATES = Path(__file__).with_name("scaffold")

#: Template -> where it goes in the package (``{package}`` is the module's name).
LAYOUT = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "README.md.tmpl": "README.md",
    "ruleset.py.tmpl": "src/{package}/__init__.py",
    "attack.toml.tmpl": "src/{package}/examples/attack.toml",
    "duel.toml.tmpl": "src/{package}/examples/duel.toml",
    "house.toml.tmpl": "src/{package}/examples/house/target_nine.toml",
    "test_rules.py.tmpl": "tests/test_rules.py",
    "test_conformance.py.tmpl": "tests/test_conformance.py",
}


def names(rid: str) -> dict[str, str]:
    """What the templates fill in for ruleset id ``rid``."""
    from firefight import __version__

    words = rid.split("_")
    return {
        "id": rid,
        "dist": "firefight-" + rid.replace("_", "-"),
        "package": f"firefight_{rid}",
        "cls": "".join(w.capitalize() for w in words if w) or "Rules",
        "title": " ".join(words).strip().capitalize() or rid,
        "firefight_version": __version__,
    }


def check_id(name: str) -> str:
    """The ruleset id ``name``, or one line saying why it cannot be one."""
    if not RULESET_ID.fullmatch(name):
        raise InputError(
            f"{name!r} is not a ruleset id",
            tip="use lower-case letters, digits and _ (starting with a letter, at most 40)",
        )
    from firefight.rulesets import available

    if name in available():
        raise InputError(
            f"a ruleset called {name!r} is already registered",
            tip="choose another name (`firefight rulesets` lists the ones taken)",
        )
    return name


def render(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def new_ruleset(name: str, folder: Path) -> Path:
    """Write the package for ruleset ``name`` into ``folder``; returns its path."""
    values = names(check_id(name))
    if not folder.is_dir():
        raise InputError(f"--dir {folder}: no such folder", tip="create it, or give another")
    target = folder / values["dist"]
    if target.exists():
        raise InputError(f"{target} already exists", tip="remove it, or give another --dir or name")
    staging = Path(tempfile.mkdtemp(prefix=".new-ruleset-", dir=folder))
    try:
        for template, where in LAYOUT.items():
            path = staging / where.format(package=values["package"])
            path.parent.mkdir(parents=True, exist_ok=True)
            text = (TEMPLATES / template).read_text(encoding="utf-8")
            path.write_text(render(text, values), encoding="utf-8")
        (staging / "src" / values["package"] / "py.typed").touch()
        os.rename(staging, target)  # the whole folder appears at once, or nothing does
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def run(name: str, folder: Path) -> None:
    made = new_ruleset(name, folder)
    print(f"wrote {made}: the ruleset package {made.name} (id {name!r})")
    print(f"next: pip install -e {made}")
    print(f"      cd {made} && python -m pytest")
    duel = f"src/{names(name)['package']}/examples/duel.toml"
    print(f"      firefight fight {duel} --seed 1")
    print(f"      firefight simulate {duel} --exact")
    print("guide: docs/authoring.md")
