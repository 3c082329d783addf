"""Rulesets found through the entry-point group ``firefight.rulesets``: the built-ins registered
that way, plugins listed with version and origin, and a broken plugin costing one line.

Plugins here are staged as pip would leave them (a module and a ``.dist-info`` folder with its
entry point) in a temporary folder put on the path: nothing is installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from firefight.rulesets import BUILT_IN, available, forget, get_ruleset, installed, listing

ROOT = Path(__file__).resolve().parents[2]
AMBUSH = ROOT / "examples" / "warfare2d20" / "b_ak47_ambush.toml"

#: A small working plugin: a copy of the toy ruleset's swing under its own id.
GOOD = """
from typing import ClassVar
from tests.encounter.toy import Toy
class Good(Toy):
    id: ClassVar[str] = "good_plugin"
    title: ClassVar[str] = "a good plugin"
    version: ClassVar[str] = "2.5"
RULESET = Good()
"""
BROKEN = {
    # module source, and the reason `firefight rulesets` must give
    "import_fails": ("import no_such_module_anywhere\n", "fails to import"),
    "not_a_ruleset": ("RULESET = object()\n", "its object is a object, not a firefight.api"),
    "half_turns": (
        "from typing import ClassVar\n"
        "from firefight.api import SimpleTurns\n"
        "from tests.encounter.toy import Toy\n"
        "class Half(SimpleTurns):\n"
        "    def combatant(self, entry): return None\n"
        "class HalfRules(Toy):\n"
        "    id: ClassVar[str] = 'half_turns'\n"
        "    turns = Half\n"
        "RULESET = HalfRules()\n",
        "its Turns class Half lacks act, can_fight, harm, legal_actions",
    ),
}


def stage(folder: Path, dist: str, version: str, entries: dict[str, str], modules: dict) -> None:
    """A distribution as pip installs it: its modules and its ``.dist-info`` entry points."""
    info = folder / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    lines = ["[firefight.rulesets]", *(f"{k} = {v}" for k, v in entries.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    for name, source in modules.items():
        (folder / f"{name}.py").write_text(source)


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    stage(tmp_path, "good-plugin", "2.5.1", {"good_plugin": "good_mod:RULESET"}, {"good_mod": GOOD})
    for rid, (source, _) in BROKEN.items():
        stage(
            tmp_path, f"firefight-{rid}", "0.3", {rid: f"{rid}_mod:RULESET"}, {f"{rid}_mod": source}
        )
    stage(tmp_path, "squatter", "1.0", {"graydawn": "good_mod:RULESET"}, {})
    stage(tmp_path, "twin-a", "1.0", {"twin": "good_mod:RULESET"}, {})
    stage(tmp_path, "twin-b", "1.0", {"twin": "good_mod:RULESET"}, {})
    monkeypatch.syspath_prepend(str(tmp_path))
    forget()
    yield tmp_path
    forget()


def test_the_built_ins_are_registered_by_firefights_own_entry_points() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert data["project"]["entry-points"]["firefight.rulesets"] == BUILT_IN
    forget()
    found = installed()
    for rid in BUILT_IN:
        assert found[rid].builtin and found[rid].origin == "built in"
    assert available()[: len(BUILT_IN)] == list(BUILT_IN)


def test_plugins_are_listed_and_the_broken_ones_contained(plugins: Path) -> None:
    rows = {item.entry.id: item for item in listing()}
    good = rows["good_plugin"]
    assert good.ruleset is not None and good.version == "2.5"
    assert good.entry.origin == "good-plugin 2.5.1"
    assert get_ruleset("good_plugin").title == "a good plugin"
    for rid, (_, reason) in BROKEN.items():
        assert rows[rid].ruleset is None
        line = rows[rid].error.one_line()
        assert f"ruleset {rid!r} (firefight-{rid} 0.3)" in line and reason in line, line
        assert "pip uninstall firefight-" in line
    assert "registered twice, by twin-a 1.0 and twin-b 1.0" in rows["twin"].error.one_line()
    squatters = [i for i in listing() if i.entry.distribution == "squatter"]
    assert "firefight's built-in ruleset" in squatters[0].error.one_line()
    assert get_ruleset("graydawn").id == "graydawn"  # the built-in keeps its id
    assert get_ruleset("warfare2d20").id == "warfare2d20"


def run(args: list[str], extra: Path) -> subprocess.CompletedProcess[str]:
    path = [str(extra), str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in path if p), "COLUMNS": "200"}
    code = "from firefight.cli.app import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_the_command_line_lists_them_and_refuses_a_broken_one(plugins: Path) -> None:
    listed = run(["rulesets"], plugins)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert any("good_plugin" in ln and "2.5" in ln and "good-plugin 2.5.1" in ln for ln in lines)
    refused = [ln for ln in lines if ln.startswith("not usable: ")]
    assert len(refused) == len(BROKEN) + 2  # the twin and the squatter too
    as_json = json.loads(run(["rulesets", "--json"], plugins).stdout)
    assert {r["id"] for r in as_json if r["error"] is None} >= {*BUILT_IN, "good_plugin"}
    for rid, (_, reason) in BROKEN.items():
        res = run(["attack", rid, str(AMBUSH), "--seed", "1"], plugins)
        assert res.returncode == 2
        assert len(res.stderr.splitlines()) == 1 and reason in res.stderr, res.stderr
        assert "Traceback" not in res.stderr
    ok = run(["attack", "warfare2d20", str(AMBUSH), "--seed", "1", "--json"], plugins)
    assert ok.returncode == 0 and json.loads(ok.stdout)["ruleset"] == "warfare2d20"


def test_a_scenario_naming_a_broken_ruleset_is_one_line(plugins: Path, tmp_path: Path) -> None:
    scenario = tmp_path / "s.toml"
    scenario.write_text(
        'ruleset = "import_fails"\n[[sides]]\nname = "a"\n[[sides]]\nname = "b"\n'
        '[[combatants]]\nname = "A"\nside = "a"\n[[combatants]]\nname = "B"\nside = "b"\n'
    )
    res = run(["fight", str(scenario), "--seed", "1"], plugins)
    assert res.returncode == 2
    assert "ruleset: ruleset 'import_fails'" in res.stderr and "fails to import" in res.stderr


WATCH = (
    "import sys\nfrom firefight.cli.app import main\ntry:\n    main()\nfinally:\n"
    "    print(sorted(m for m in sys.modules if m.startswith('firefight.rulesets')"
    " or m.endswith('_mod') or m == 'importlib.metadata'), file=sys.stderr)"
)


@pytest.mark.parametrize("line", [["--help"], ["roll", "2d6", "--seed", "1"]])
def test_start_up_imports_no_ruleset_and_reads_no_entry_point(
    line: list[str], plugins: Path
) -> None:
    """``--help`` and ``roll`` cost nothing for the rulesets installed, broken ones included."""
    path = os.pathsep.join([str(plugins), str(ROOT / "src"), str(ROOT)])
    res = subprocess.run(
        [sys.executable, "-c", WATCH, *line],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert res.stderr.splitlines()[-1] == "[]"


def test_a_source_tree_without_metadata_still_finds_the_built_ins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Run from sources with no installed metadata (or metadata from before the entry points),
    the five built-ins come from BUILT_IN; a plugin's entry points still count."""
    import importlib.metadata

    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [])
    forget()
    try:
        found = installed()
        assert list(found) == list(BUILT_IN)
        assert all(e.builtin and e.target == BUILT_IN[e.id] for e in found.values())
        assert get_ruleset("quality_d100").id == "quality_d100"
    finally:
        forget()
