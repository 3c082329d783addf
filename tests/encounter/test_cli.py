"""`firefight fight` and `firefight encounter ...` in-process, on the toy ruleset."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, [str(a) for a in args])


def test_fight_json_shape(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    res = run("fight", toy_scenario(ann_hp=3, bob_hp=3), "--seed", "4", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert list(out)[:7] == ["ruleset", "seed", "ending", "winner", "rounds", "combatants", "steps"]
    assert out["ruleset"] == "toy" and out["seed"] == 4 and out["ending"] == "terminated"
    assert out["winner"] in ("red", "blue")
    assert set(out["combatants"]) == {"Ann", "Bob"}
    assert {"side", "out"} <= set(out["combatants"]["Ann"])
    loser = next(n for n, c in out["combatants"].items() if c["side"] != out["winner"])
    assert out["combatants"][loser]["out"] is True
    assert all({"actor", "action", "faces", "events"} <= set(s) for s in out["steps"])


def test_fight_narrates_and_takes_policy_and_max_rounds(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    res = run(
        "fight",
        toy_scenario(ann_hp=9, bob_hp=9),
        "--seed",
        "1",
        "--max-rounds",
        "2",
        "--policy",
        "red=cautious",
    )
    assert res.exit_code == 0, res.output
    assert "round 1" in res.stdout and "round 2" in res.stdout and "round 3" not in res.stdout
    assert "stopped at max_rounds (2)" in res.stdout
    bad = run("fight", toy_scenario(), "--policy", "green=random")
    assert bad.exit_code == 2 and "has no side 'green'" in bad.output
    bad = run("fight", toy_scenario(), "--policy", "red")
    assert bad.exit_code == 2 and "SIDE=NAME" in bad.output


def test_encounter_step_by_step(toy_scenario, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    file = tmp_path / "e.json"
    scenario = toy_scenario(ann_hp=2, bob_hp=2)
    assert run("encounter", "start", scenario, "--save", file, "--seed", "1").exit_code == 0
    again = run("encounter", "start", scenario, "--save", file)
    assert again.exit_code == 2 and "exists already" in again.output
    res = run("encounter", "actions", file, "--json")
    rows = json.loads(res.stdout)
    assert [r["id"] for r in rows] == ["attack:Bob", "dodge", "wait"]
    assert rows[0]["odds"]["expected_harm"] == {"Bob": 0.5}
    res = run("encounter", "act", file, "attack:Bob", "--dice", "6")
    assert res.exit_code == 0, res.output
    shown = json.loads(run("encounter", "show", file, "--json").stdout)
    assert set(shown) >= {"round", "turn", "ending", "combatants", "steps"}
    assert shown["steps"] == 1 and shown["turn"] == "Bob"
    assert shown["combatants"]["Bob"]["hp"] == "1/2"
    assert run("encounter", "undo", file).exit_code == 0
    assert json.loads(run("encounter", "show", file, "--json").stdout)["steps"] == 0
    assert run("encounter", "redo", file).exit_code == 0
    assert (
        json.loads(run("encounter", "show", file, "--json").stdout)["combatants"]["Bob"]["hp"]
        == "1/2"
    )
    assert run("encounter", "auto", file, "--seed", "3").exit_code == 0
    end = json.loads(run("encounter", "show", file, "--json").stdout)
    assert end["ending"] == "terminated"
    late = run("encounter", "act", file, "wait")
    assert late.exit_code == 2 and "fight is over" in late.output


def test_refused_actions_leave_the_file_untouched(toy_scenario, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    file = tmp_path / "e.json"
    assert run("encounter", "start", toy_scenario(), "--save", file).exit_code == 0
    before = file.read_bytes()
    for args, message in [
        (("attack:Zed",), "has no action 'attack:Zed'"),
        (("attack:Bob", "--dice", "9"), "shows 9, which a d6"),
        (("attack:Bob", "--dice", "2,3"), "left unused"),
        (("attack:Bob", "--dice", "2", "--seed", "1"), "both given"),
    ]:
        res = run("encounter", "act", file, *args)
        assert res.exit_code == 2, res.output
        assert message in res.output and "Traceback" not in res.output
        assert len(res.output.strip().splitlines()) == 1
        assert file.read_bytes() == before
    assert run("encounter", "undo", file).exit_code == 2
    assert file.read_bytes() == before


def test_missing_or_foreign_records(tmp_path: Path) -> None:
    res = run("encounter", "show", tmp_path / "none.json")
    assert res.exit_code == 2 and "no such record" in res.output
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2")
    res = run("encounter", "show", junk)
    assert res.exit_code == 2 and "not a readable record" in res.output


def test_actions_estimate_what_the_budget_leaves_unfinished(
    toy_scenario: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An action whose exact odds do not finish in their time (here: every exact preview runs
    out of it) and no refinement (--ceiling 0): its odds are an estimate from plays of its rule
    code within the budget and say so, with their intervals, in the table and the JSON;
    actions that do nothing say that."""
    from firefight.analysis.budget import Stop
    from firefight.encounter import Engine

    def out_of_time(*_: Any, **__: Any) -> Any:
        raise Stop(cancelled=False)

    file = tmp_path / "e.json"
    assert run("encounter", "start", toy_scenario(), "--save", file, "--seed", "1").exit_code == 0
    monkeypatch.setattr(Engine, "preview", out_of_time)
    args = ("encounter", "actions", file, "--budget", "0.05", "--ceiling", "0")
    res = run(*args)
    assert res.exit_code == 0, res.output
    assert "lands ~" in res.stdout and "estimated from" in res.stdout
    assert res.stdout.count("no effect on anyone now") == 2  # dodge and wait, not the attack
    rows = json.loads(run(*args, "--json").stdout)
    attack = next(r["odds"] for r in rows if r["id"] == "attack:Bob")
    assert attack["exact"] is False and attack["samples"] >= 1
    lo, hi = attack["ci95"]["p_success"]
    assert lo <= attack["p_success"] <= hi
    assert attack["note"].startswith("estimated from") and "refining" not in attack["note"]


def test_actions_refine_to_exact_and_give_win_chances(toy_scenario, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """By default the list is refined to its end: exact odds, the actor's risk before his next
    turn, and with --win each side's chance of winning after each action (a toy duel's chain
    is exact)."""
    file = tmp_path / "e.json"
    scenario = toy_scenario(ann_hp=2, bob_hp=2)
    assert run("encounter", "start", scenario, "--save", file, "--seed", "1").exit_code == 0
    rows = json.loads(run("encounter", "actions", file, "--win", "--json").stdout)
    assert [r["id"] for r in rows] == ["attack:Bob", "dodge", "wait"]
    for row in rows:
        assert row["odds"]["exact"] and row["odds"]["risk"]["exact"]
        assert row["win"]["exact"] and set(row["win"]["p"]) == {"red", "blue"}
    assert rows[0]["win"]["p"]["red"] > rows[2]["win"]["p"]["red"]  # attacking beats waiting
    table = run("encounter", "actions", file, "--win")
    assert table.exit_code == 0 and "red win" in table.stdout and "(exact)" in table.stdout


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--budget", "0", "--budget 0 is outside 0.001..3600 seconds"),
        ("--ceiling", "-1", "--ceiling -1 is outside 0..3600 seconds"),
        ("--budget", "lots", "Invalid value for '--budget': must be a valid number"),
    ],
)
def test_actions_refuse_a_bad_budget(
    toy_scenario: Any, tmp_path: Path, option: str, value: str, message: str
) -> None:
    file = tmp_path / "e.json"
    assert run("encounter", "start", toy_scenario(), "--save", file).exit_code == 0
    res = run("encounter", "actions", file, option, value)
    assert res.exit_code == 2 and message in res.output and "Traceback" not in res.output


def test_actions_stop_cleanly_on_ctrl_c(toy_scenario, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Ctrl-C while the first answers are worked out prints what was done, the rest marked not
    worked out, and exits 130 with the progress in words; the saved encounter is untouched."""
    from firefight.encounter import Engine

    file = tmp_path / "e.json"
    assert run("encounter", "start", toy_scenario(), "--save", file, "--seed", "1").exit_code == 0
    before = file.read_bytes()
    inner = Engine.preview
    calls: list[int] = []

    def interrupted(self, state, action, **kw):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return inner(self, state, action, **kw)

    monkeypatch.setattr(Engine, "preview", interrupted)
    res = run("encounter", "actions", file, "--json")
    assert res.exit_code == 130
    rows = json.loads(res.stdout)
    assert [r["odds"]["exact"] for r in rows] == [True, False, False]
    assert all(r["odds"]["note"] == "not worked out yet" for r in rows[1:])
    assert "interrupted (Ctrl-C): exact for 1 of 3" in res.stderr
    assert file.read_bytes() == before


def test_fight_explain_leaves_the_fight_as_it_was(toy_scenario) -> None:  # type: ignore[no-untyped-def]
    """--explain adds each step's win chances (the action chosen against the best) and plays
    the very same fight: its own dice are untouched."""
    scenario = toy_scenario(ann_hp=3, bob_hp=3)
    plain = json.loads(run("fight", scenario, "--seed", "4", "--json").stdout)
    explained = json.loads(run("fight", scenario, "--seed", "4", "--json", "--explain").stdout)
    assert [{k: v for k, v in s.items() if k != "explain"} for s in explained["steps"]] == plain[
        "steps"
    ]
    for step in explained["steps"]:
        why = step["explain"]
        assert why["chosen"]["exact"] and why["best"]["id"]
        assert why["best"]["p"][why["side"]] >= why["chosen"]["p"][why["side"]] - 1e-12
    told = run("fight", scenario, "--seed", "4", "--explain")
    assert told.exit_code == 0 and told.stdout.count("win chance (") == len(plain["steps"])
    alone = run("fight", scenario, "--budget", "1")
    assert alone.exit_code == 2 and "--budget is for --explain" in alone.output
