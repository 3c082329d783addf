"""sweep: grids and addressing, seeds per cell, the same table in one process, on a LocalCluster
and on a real `dask scheduler` with two `dask worker`s, and one-line refusals (exit 2)."""

from __future__ import annotations

import csv
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.analysis import sweep
from firefight.analysis.sweep import plan_sweep, run_sweep
from firefight.analysis.sweep_grid import cell_seed, parse_values
from firefight.cli.app import app
from firefight.core.paths import resolve, with_values
from firefight.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples" / "warfare2d20" / "encounters" / "small_duel.toml"
VARY = ["combatants.Red.hit_points_left=1..3", "battlefield.range=close,medium"]
N = 400


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def rows_in_process(vary: list[str] = VARY, n: int = N, seed: int = 3) -> list[dict[str, object]]:
    plan = plan_sweep(DUEL, vary, n=n, seed=seed, exact=False)
    result = run_sweep(plan, cluster=False)
    assert not result.failed
    return result.table()[1]


# ----------------------------------------------------------------------------------------------
# grids, addressing, seeds
# ----------------------------------------------------------------------------------------------
def test_values_ranges_and_lists() -> None:
    assert parse_values("10..16", "f") == (10, 11, 12, 13, 14, 15, 16)
    assert parse_values("0..30:5", "f") == (0, 5, 10, 15, 20, 25, 30)
    assert parse_values("0.5..2:0.5", "f") == (0.5, 1.0, 1.5, 2.0)
    assert parse_values("-2..1", "f") == (-2, -1, 0, 1)
    assert parse_values("leather, chain,plate", "f") == ("leather", "chain", "plate")
    assert parse_values('3,2.5,true,"x y",close', "f") == (3, 2.5, True, "x y", "close")
    for bad, words in [
        ("5..1", "is empty"),
        ("0..30:0", "not positive"),
        ("a,,b", "empty item"),
        ("a,a", "listed twice"),
        ("", "no values"),
    ]:
        with pytest.raises(InputError, match=words):
            parse_values(bad, "f")


def test_paths_address_named_tables() -> None:
    data = {
        "max_rounds": 5,
        "sides": [{"name": "a"}, {"name": "b"}],
        "combatants": [
            {"name": "Cpl. Hicks", "side": "a", "hp": 3},
            {"name": "Rolf", "side": "b", "attack": 12},
        ],
        "battlefield": {"range": "close", "pairs": [{"between": ["Rolf", "Cpl. Hicks"]}]},
    }
    assert resolve(data, "combatants.Rolf.attack", "f")[:2] == (
        ("combatants", 1, "attack"),
        "combatants.Rolf.attack",
    )
    assert resolve(data, "combatants.Cpl. Hicks.hp", "f")[0] == ("combatants", 0, "hp")
    assert resolve(data, 'combatants."Cpl. Hicks".hp', "f")[:2] == (
        ("combatants", 0, "hp"),
        'combatants."Cpl. Hicks".hp',
    )
    assert resolve(data, "sides.b.policy", "f") == (("sides", 1, "policy"), "sides.b.policy", True)
    assert resolve(data, "battlefield.pairs.0.range", "f")[2] is True
    assert resolve(data, "house.stun_target_bonus", "f")[0] == ("house", "stun_target_bonus")
    changed = with_values(data, [(("combatants", 1, "attack"), 15), (("house", "x"), 1)])
    assert changed["combatants"][1]["attack"] == 15 and changed["house"] == {"x": 1}
    assert data["combatants"][1]["attack"] == 12 and "house" not in data
    for path, words in [
        ("combatants.Lennox.attack", "no combatant 'Lennox'.*Cpl. Hicks, Rolf"),
        ("combatants.Rolf", "a whole combatant"),
        ("combatants.Rolf.name", "names cannot be changed"),
        ("max_rounds.x", "not a table"),
        ("combatants..x", "empty part"),
    ]:
        with pytest.raises(InputError, match=words):
            resolve(data, path, "f")


def test_a_cells_seed_is_its_values_and_the_sweeps_seed() -> None:
    a = cell_seed(7, {"x": 1, "y": "close"})
    assert a == cell_seed(7, {"y": "close", "x": 1})  # canonical JSON: key order is no matter
    assert len({a, cell_seed(8, {"x": 1, "y": "close"}), cell_seed(7, {"x": 2, "y": "close"})}) == 3
    assert 0 <= a < 2**63
    # so a cell gives the same row in any sweep that holds it
    whole = rows_in_process()
    part = rows_in_process(["combatants.Red.hit_points_left=2", "battlefield.range=medium"])
    assert part == [
        r
        for r in whole
        if r["combatants.Red.hit_points_left"] == 2 and r["battlefield.range"] == "medium"
    ]


def test_exact_cells_match_simulate_exact() -> None:
    plan = plan_sweep(DUEL, ["max_rounds=1,2"], n=None, seed=None, exact=True)
    rows = run_sweep(plan, cluster=False).table()[1]
    assert [r["max_rounds"] for r in rows] == [1, 2]
    assert all(r["n"] is None and r["seed"] is None for r in rows)
    for r in rows:
        assert r["side.red.ci95_low"] == r["side.red.p_win"] == r["side.red.ci95_high"]
        total = r["side.red.p_win"] + r["side.blue.p_win"] + r["p_draw"] + r["p_truncated"]
        assert total == pytest.approx(1.0)
    assert rows[0]["p_truncated"] > rows[1]["p_truncated"]


# ----------------------------------------------------------------------------------------------
# one table wherever it runs
# ----------------------------------------------------------------------------------------------
def test_local_cluster_gives_the_table_of_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    # chosen by size: the first cell here, then (a cluster costing nothing) the rest there
    monkeypatch.setattr(sweep, "CLUSTER_SECONDS", -1.0)
    plan = plan_sweep(DUEL, VARY, n=N, seed=3, exact=False)
    result = run_sweep(plan, cluster=None, workers=2)
    assert result.where == "the first cell here, the rest on a local cluster of 2 workers"
    assert not result.interrupted
    assert result.table()[1] == rows_in_process()


def test_free_cores_leave_out_other_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sweep.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(sweep.os, "getloadavg", lambda: (1.0, 1.0, 1.0))  # this process
    assert sweep.free_cores() == 2
    monkeypatch.setattr(sweep.os, "getloadavg", lambda: (7.0, 7.0, 7.0))  # a busy machine
    assert sweep.free_cores() == 1


def test_a_sweep_takes_a_local_cluster_only_when_its_size_pays_for_one() -> None:
    assert not sweep.worth_a_cluster(0.3, 4, cores=2)  # goblins: 1.5 s in all
    assert sweep.worth_a_cluster(3.0, 9, cores=2)  # 30 s in all, 13.5 s saved
    assert not sweep.worth_a_cluster(30.0, 9, cores=1)
    assert not sweep.worth_a_cluster(30.0, 1, cores=8)  # one cell left: nothing to share
    code, out, err = cli("sweep", str(DUEL), "--vary", VARY[1], "-n", "50", "--seed", "1")
    assert code == 0, err
    assert "this process (too small a sweep for a local cluster" in " ".join(out.split())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in reversed(procs):
        if p.poll() is None:
            p.terminate()
    for p in reversed(procs):
        try:
            p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=5)


@pytest.fixture
def dask_cluster() -> Iterator[str]:
    """A real `dask scheduler` and two `dask worker` processes on 127.0.0.1, stopped after."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    dask = [sys.executable, "-m", "dask"]
    procs: list[subprocess.Popen[bytes]] = []
    try:
        procs.append(
            subprocess.Popen(
                [
                    *dask,
                    "scheduler",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--no-dashboard",
                    "--idle-timeout",
                    "300",
                ],
                **quiet,  # type: ignore[call-overload]
            )
        )
        deadline = time.monotonic() + 60
        while True:  # the scheduler listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or procs[0].poll() is not None:
                    pytest.fail("dask scheduler did not start")
                time.sleep(0.2)
        for _ in range(2):
            procs.append(
                subprocess.Popen(
                    [
                        *dask,
                        "worker",
                        address,
                        "--nthreads",
                        "1",
                        "--nworkers",
                        "1",
                        "--no-dashboard",
                        "--host",
                        "127.0.0.1",
                        "--death-timeout",
                        "60",
                    ],
                    **quiet,  # type: ignore[call-overload]
                )
            )
        from dask.distributed import Client

        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=90)
        yield address
    finally:
        _stop(procs)


def test_a_remote_scheduler_gives_the_table_of_one_process(dask_cluster: str) -> None:
    args = ["sweep", str(DUEL), *(f"--vary={v}" for v in VARY), "-n", str(N), "--seed", "3"]
    code, out, err = cli(*args, "--scheduler", dask_cluster, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["rows"] == rows_in_process() and report["failed"] == []
    assert report["seed"] == 3 and report["cells"] == 6


# ----------------------------------------------------------------------------------------------
# the command: files, plots, refusals
# ----------------------------------------------------------------------------------------------
def test_csv_parquet_and_plots(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    base = ["sweep", str(DUEL), "--vary", VARY[0], "-n", str(N), "--seed", "3", "--no-cluster"]
    code, out, err = cli(*base, "--out", str(tmp_path / "t.csv"), "--plot", str(tmp_path / "a.png"))
    assert code == 0, err
    assert "table written to" in out and (tmp_path / "a.png").stat().st_size > 1000
    with (tmp_path / "t.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["combatants.Red.hit_points_left"] for r in rows] == ["1", "2", "3"]
    expected = rows_in_process([VARY[0]])
    assert [float(r["side.red.p_win"]) for r in rows] == [r["side.red.p_win"] for r in expected]
    two = ["sweep", str(DUEL), *(f"--vary={v}" for v in VARY), "-n", "200", "--no-cluster"]
    code, _, err = cli(
        *two, "--out", str(tmp_path / "t.parquet"), "--plot", str(tmp_path / "h.png")
    )
    assert code == 0, err
    table = pq.read_table(tmp_path / "t.parquet")
    assert table.num_rows == 6 and table.column_names[:2] == [
        "combatants.Red.hit_points_left",
        "battlefield.range",
    ]
    meta = json.loads(table.schema.metadata[b"firefight.sweep"])
    assert meta["cells"] == 6 and meta["failed"] == []
    assert (tmp_path / "h.png").stat().st_size > 1000


@pytest.mark.parametrize(
    ("vary", "words"),
    [
        ("combatants.Rolf.attack=8..12", "has no combatant 'Rolf'"),
        ("combatants.Red.hit_pionts_left=1..3", "hit_pionts_left is not in the scenario"),
        ("combatants.Red.hit_points_left=5..1", "is empty"),
        ("combatants.Red.hit_points_left=0..30:0", "not positive"),
        ("nonsense", "not PATH=VALUES"),
    ],
)
def test_bad_sweeps_are_one_line_and_exit_2(vary: str, words: str) -> None:
    code, out, err = cli("sweep", str(DUEL), "--vary", vary, "--no-cluster")
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], err
    assert lines[0].count("(tip: ") == 1, err  # the scenario's tip is the line's tip, not nested


def test_a_refused_value_fails_its_cell_and_keeps_the_others(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    code, _, err = cli(
        "sweep",
        str(DUEL),
        "--vary",
        "combatants.Red.hit_points_left=3,40",
        "-n",
        "100",
        "--no-cluster",
        "--out",
        str(table),
    )
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: cell combatants.Red.hit_points_left=40: ")
    assert "above the total 14" in lines[0]
    with table.open() as f:
        assert [r["combatants.Red.hit_points_left"] for r in csv.DictReader(f)] == ["3"]


def test_an_unreachable_scheduler_is_one_line_and_exit_2() -> None:
    port = _free_port()
    code, _, err = cli(
        "sweep",
        str(DUEL),
        "--vary",
        VARY[0],
        "--scheduler",
        f"tcp://127.0.0.1:{port}",
        "--timeout",
        "1",
    )
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith(f"error: cannot reach a Dask scheduler at tcp://127.0.0.1:{port}")


def test_a_mixed_column_and_a_failed_cell_still_give_a_table_and_a_plot(tmp_path: Path) -> None:
    # "close" and 5 in one column: the column becomes words; 5 is refused (warfare2d20 ranges are
    # bands), so its cell fails and is left blank in the plot
    out, png = tmp_path / "t.csv", tmp_path / "p.png"
    code, _, err = cli(
        "sweep",
        str(DUEL),
        "--vary",
        "battlefield.range=close,5,medium",
        "-n",
        "100",
        "--no-cluster",
        "--out",
        str(out),
        "--plot",
        str(png),
    )
    assert code == 2 and err.startswith("error: cell battlefield.range=5: "), err
    with out.open() as f:
        assert [r["battlefield.range"] for r in csv.DictReader(f)] == ["close", "medium"]
    assert png.stat().st_size > 1000
    plan = plan_sweep(DUEL, ["max_rounds=3,4.5"], n=50, seed=1, exact=False)
    result = run_sweep(plan, cluster=False)
    assert [r.values for r in result.failed] == [(("max_rounds", 4.5),)]
    assert result.table() == result.table()
    assert [r["max_rounds"] for r in result.table()[1]] == [3.0]


def _doc_examples() -> list[str]:
    text = (ROOT / "docs" / "sweeps.md").read_text(encoding="utf-8")
    block = text.split("## One example per ruleset")[1].split("```bash")[1].split("```")[0]
    lines = block.replace("\\\n", " ").splitlines()
    return [" ".join(line.split()) for line in lines if line.startswith("firefight sweep")]


@pytest.mark.parametrize("line", _doc_examples())
def test_the_docs_examples_run(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # as written, but with few fights, in this process, and files in a temporary folder
    import shlex

    monkeypatch.chdir(ROOT)
    args = shlex.split(line)[1:]
    for i, word in enumerate(args[:-1]):
        if word == "-n":
            args[i + 1] = "20"
        if word in ("--out", "--plot"):
            args[i + 1] = str(tmp_path / Path(args[i + 1]).name)
    code, _, err = cli(*args, "--no-cluster")
    assert code == 0, err


def test_every_ruleset_has_a_doc_example() -> None:
    rulesets = {line.split("examples/")[1].split("/")[0] for line in _doc_examples()}
    assert rulesets == {
        "warfare2d20",
        "dragonwarriors2",
        "graydawn",
        "tactical_d20",
        "quality_d100",
    }
