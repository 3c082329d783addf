"""RISK runs wherever a built-in ruleset runs: ``attack``/``odds`` on one roll, ``fight``,
``encounter`` (faces typed in, undo, redo, auto), ``simulate`` (fast, reference, exact),
``sweep`` (the table, on a real local cluster) and the GM's tracker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from firefight.cli.app import app
from typer.testing import CliRunner

PLUGIN = Path(__file__).resolve().parents[1]
EXAMPLES = PLUGIN / "src" / "firefight_risk" / "examples"
ROLL = EXAMPLES / "roll.toml"
BATTLE = EXAMPLES / "battle.toml"


def cli(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(app, [str(a) for a in args])
    return res.exit_code, res.stdout, res.stderr


def test_attack_and_odds_on_one_roll() -> None:
    code, out, _ = cli("attack", "risk", ROLL, "--dice", "6,5,1,6,4", "--json")
    assert code == 0
    summary = json.loads(out)["summary"]
    assert (summary["attacker loses"], summary["defender loses"]) == (1, 1)
    code, out, _ = cli("odds", "risk", ROLL, "--json")
    assert code == 0
    assert json.loads(out)["outcomes"]["each loses 1"] == "2611/7776"
    code, _, err = cli("attack", "risk", ROLL, "--dice", "6,5,1,6")
    assert code == 2
    assert err.startswith(
        "error: --dice gave 4 faces; this resolution needs 5 in all: 5 1d6 for "
        '"defender\'s dice (R03)"'
    )


def test_fight_and_a_saved_encounter(tmp_path: Path) -> None:
    code, out, _ = cli("fight", BATTLE, "--seed", "4", "--json")
    assert code == 0
    assert json.loads(out)["winner"] in ("Attacker", "Defender")
    saved = tmp_path / "battle.json"
    assert cli("encounter", "start", BATTLE, "--save", saved, "--seed", "1")[0] == 0
    code, out, _ = cli("encounter", "actions", saved, "--json")
    assert code == 0
    actions = json.loads(out)
    assert [a["id"] for a in actions] == ["attack", "attack:2", "attack:1", "stop"]
    assert actions[-1]["odds"]["p_out"]["Attacker"] == 1.0  # stopping leaves the battle
    assert cli("encounter", "act", saved, "attack", "--dice", "6,6,6,1,1")[0] == 0
    state = json.loads(cli("encounter", "show", saved, "--json")[1])
    assert state["combatants"]["Defender"]["armies"] == 1
    assert cli("encounter", "undo", saved)[0] == 0
    assert json.loads(cli("encounter", "show", saved, "--json")[1])["steps"] == 0
    assert cli("encounter", "redo", saved)[0] == 0
    assert cli("encounter", "auto", saved, "--seed", "2")[0] == 0
    assert json.loads(cli("encounter", "show", saved, "--json")[1])["ending"] == "terminated"


def test_the_gms_hand(tmp_path: Path) -> None:
    """The GM sets armies (reinforcements) and calls the attack off; a third army is refused in
    the ruleset's words; everything undoes."""
    saved = tmp_path / "battle.json"
    assert cli("encounter", "start", BATTLE, "--save", saved, "--seed", "1")[0] == 0
    assert cli("encounter", "edit", saved, "Defender.armies=7")[0] == 0
    state = json.loads(cli("encounter", "show", saved, "--json")[1])
    assert state["combatants"]["Defender"]["armies"] == 7
    code, _, err = cli("encounter", "edit", saved, "Defender.armies=-1")
    assert code == 2 and "armies" in err and len(err.splitlines()) == 1
    code, _, err = cli("encounter", "edit", saved, "Defender.stopped=true")
    assert code == 2 and "stopped" in err
    ally = '{name = "Ally", armies = 2}'
    code, _, err = cli("encounter", "add", saved, "--side", "Attacker", "--combatant", ally)
    assert code == 2 and "two combatants on two sides" in err
    assert cli("encounter", "edit", saved, "Attacker.stopped=true")[0] == 0
    state = json.loads(cli("encounter", "show", saved, "--json")[1])
    assert state["ending"] == "terminated" and state["winner"] == "Defender"
    assert cli("encounter", "undo", saved)[0] == 0
    assert cli("encounter", "undo", saved)[0] == 0
    state = json.loads(cli("encounter", "show", saved, "--json")[1])
    assert state["combatants"]["Defender"]["armies"] == 3 and state["ending"] is None


def test_simulate_fast_reference_and_exact_agree() -> None:
    code, out, _ = cli("simulate", BATTLE, "--exact", "--json")
    assert code == 0
    exact = json.loads(out)["sides"]["Attacker"]["win"]
    assert Fraction(exact["fraction"]) == Fraction(208367138941435, 270826551115776)
    for how in ([], ["--reference"]):
        code, out, _ = cli("simulate", BATTLE, "-n", "4000", "--seed", "3", "--json", *how)
        assert code == 0
        low, high = json.loads(out)["sides"]["Attacker"]["win"]["ci95"]
        assert low <= exact["p"] <= high, how


def test_the_sweep_prints_the_table_on_a_local_cluster() -> None:
    """The command line as written (two workers of a real Dask cluster, which find the plugin
    the way this process does), bounded in time."""
    args = [
        "sweep",
        str(BATTLE),
        "--exact",
        "--vary",
        "combatants.Attacker.armies=1..10",
        "--vary",
        "combatants.Defender.armies=1..10",
    ]
    env = {**os.environ, "COLUMNS": "100"}
    code = "from firefight.cli.app import main; main()"
    res = subprocess.run(
        [sys.executable, "-c", code, *args, "--workers", "2"],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
    )
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert any("(100 cells, exact; a local cluster of 2 workers" in line for line in lines)
    grid = lines[lines.index(next(x for x in lines if x.startswith("Attacker wins (%)"))) :]
    rows = {r.split()[0]: r.split()[1:] for r in grid if r.split() and r.split()[0].isdigit()}
    assert rows["1"][:3] == ["41.7", "10.6", "2.7"]
    last = ["100.0", "99.4", "98.1", "95.4", "91.6", "86.1", "80.0", "72.4", "65.0", "56.8"]
    assert rows["10"] == last


@pytest.fixture
def tracker(tmp_path: Path):  # type: ignore[no-untyped-def]
    from firefight.web.store import Store
    from firefight.web.tracker import Tracker

    return Tracker(Store(f"sqlite:///{tmp_path / 't.sqlite3'}"))


def test_the_tracker_runs_a_battle(tracker) -> None:  # type: ignore[no-untyped-def]
    from firefight.encounter.edits import SetField

    made = tracker.create(scenario=BATTLE.read_text(encoding="utf-8"), seed=1)
    actions = tracker.actions(made.id)
    assert actions[0]["id"] == "attack"
    odds = actions[0]["odds"]
    assert odds["exact"]
    # 3 dice against 2: the defender loses 2 * 2890/7776 + 2611/7776 armies in the mean
    assert odds["expected_harm"]["Defender"] == pytest.approx((2 * 2890 + 2611) / 7776)
    version = tracker.version(made.id)
    after = tracker.act(made.id, "attack", dice=[6, 6, 6, 1, 1], version=version)
    assert after["combatants"]["Defender"]["armies"] == 1
    player = tracker.player(made.id)
    assert "armies" in json.dumps(player)
    reinforced = SetField(combatant="Defender", field="armies", value=4)
    after = tracker.edit(made.id, reinforced, version=tracker.version(made.id))
    assert after["combatants"]["Defender"]["armies"] == 4
    tracker.undo(made.id, version=tracker.version(made.id))
    tracker.undo(made.id, version=tracker.version(made.id))
    assert tracker.state(made.id)["combatants"]["Defender"]["armies"] == 3
