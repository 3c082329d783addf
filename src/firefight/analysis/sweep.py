"""``sweep``: one simulate (or exact chain) per cell of a grid of changed scenario fields, in
this process or on a Dask cluster (a ``LocalCluster`` by default, any scheduler by address).

Each cell is a :class:`CellTask` holding the scenario *data* (house rules inlined), the changes
to make, and the cell's seed, so a worker needs no files; :func:`run_cell` builds the changed
scenario, runs :func:`firefight.analysis.simulate.simulate` on one process and returns one table
row (or the one-line reason the scenario or the rules refused the cell). A cell's seed comes from
the sweep's seed and the cell's values only (:func:`~firefight.analysis.sweep_grid.cell_seed`),
and a cell's work does not depend on where it runs, so the same sweep gives the same table in
one process, on a local cluster or on a remote one. Grids and addressing live in
:mod:`firefight.analysis.sweep_grid`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firefight.analysis.sweep_grid import Vary, cell_seed, column_values, grid, parse_vary
from firefight.core.paths import Locator, parse_override, resolve, with_values
from firefight.errors import FirefightError, InputError

#: Seconds to wait for a scheduler (and for its first worker) before giving up.
CONNECT_TIMEOUT = 10.0


@dataclass(frozen=True)
class CellTask:
    """Everything one cell needs, picklable and file-free."""

    index: int
    #: (column, value) of each varied field, in ``--vary`` order.
    values: tuple[tuple[str, Any], ...]
    sets: tuple[tuple[Locator, Any], ...]
    data: Mapping[str, Any]
    source: str
    n: int | None
    seed: int | None
    exact: bool


@dataclass(frozen=True)
class CellResult:
    index: int
    values: tuple[tuple[str, Any], ...]
    row: dict[str, Any] | None
    error: str | None
    seconds: float

    def label(self) -> str:
        return ", ".join(f"{c}={v}" for c, v in self.values)


def run_cell(task: CellTask) -> CellResult:
    """One cell: build the changed scenario, simulate it on this process, flatten the report."""
    from firefight.analysis.simulate import simulate
    from firefight.encounter.engine import Engine
    from firefight.encounter.scenario import build_scenario

    started = time.perf_counter()
    try:
        data = with_values(task.data, task.sets)
        engine = Engine(build_scenario(data, task.source))
        sim = simulate(engine, task.n, task.seed, exact=task.exact, workers=1)
        if sim.interrupted:  # Ctrl-C here (--no-cluster): the sweep stops, the cell is not done
            raise KeyboardInterrupt
        report = sim.to_json(task.source)
    except FirefightError as err:
        return CellResult(task.index, task.values, None, err.one_line(), _since(started))
    row: dict[str, Any] = dict(task.values)
    row.update(flatten(report))
    row["n"] = task.n
    row["seed"] = task.seed
    row["method"] = sim.method
    return CellResult(task.index, task.values, row, None, _since(started))


def _since(t: float) -> float:
    return time.perf_counter() - t


def flatten(report: Mapping[str, Any]) -> dict[str, Any]:
    """A ``simulate --json`` report as one flat row (see :data:`COLUMNS_DOC`)."""
    row: dict[str, Any] = {}
    for side, entry in report["sides"].items():
        win = entry["win"]
        row[f"side.{side}.p_win"] = win["p"]
        row[f"side.{side}.ci95_low"] = win["ci95"][0]
        row[f"side.{side}.ci95_high"] = win["ci95"][1]
    row["p_draw"] = report["draw"]["p"]
    row["p_truncated"] = report["truncated"]["p"]
    row["mean_rounds"] = report["rounds"]["mean"]
    for name, c in report["combatants"].items():
        row[f"combatant.{name}.p_out"] = c["p_out"]
        row[f"combatant.{name}.p_dead"] = c["p_dead"]
    return row


COLUMNS_DOC = """\
- one column per varied field, named by its path (``combatants.Rolf.attack``);
- ``side.<side>.p_win``, ``side.<side>.ci95_low``, ``side.<side>.ci95_high``: each side's win
  chance and its 95% Wilson interval (``[p, p]`` when exact);
- ``p_draw``, ``p_truncated``: nobody left, stopped at ``max_rounds``;
- ``mean_rounds``;
- ``combatant.<name>.p_out``, ``combatant.<name>.p_dead``;
- ``n`` (fights; empty when exact), ``seed`` (the cell's own seed), ``method``.
"""


# ----------------------------------------------------------------------------------------------
# The plan: the scenario, the grid, the cells
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SweepPlan:
    scenario: str
    source: str
    title: str
    data: Mapping[str, Any]
    varies: tuple[Vary, ...]
    n: int | None
    seed: int | None
    exact: bool
    tasks: tuple[CellTask, ...]

    @property
    def columns(self) -> list[str]:
        return [v.column for v in self.varies]


def plan_sweep(
    scenario: str | Path,
    vary: Sequence[str],
    *,
    n: int | None,
    seed: int | None,
    exact: bool,
    sets: Sequence[str] = (),
) -> SweepPlan:
    """Read the scenario, resolve ``--set`` and ``--vary`` against it, and list the cells.

    A varied field absent from the scenario (so perhaps misspelt) is tried on the grid's first
    line; if the scenario refuses every value there, the whole sweep is refused with that reason.
    """
    from firefight.encounter.scenario import read_scenario

    if not vary:
        raise InputError("nothing to vary", tip="add --vary PATH=VALUES, e.g. max_rounds=5..10")
    if exact and n is not None:
        raise InputError("--exact takes no -n", tip="drop -n for --exact")
    if not exact and n is None:
        n = 10_000
    if seed is not None and seed < 0:
        raise InputError(f"--seed {seed} is negative", tip="give 0 or more")
    base = read_scenario(scenario, list(sets))
    data = dict(base.data)
    source = base.spec.source
    # the fields --set changed (resolved on the changed data: the paths name the same fields)
    fixed = [resolve(data, parse_override(s)[0], f"--set {s}")[0] for s in sets]
    varies = tuple(parse_vary(data, text) for text in vary)
    seen: dict[Locator, str] = {}
    for v, text in zip(varies, vary, strict=True):
        if v.locator in seen:
            raise InputError(f"--vary {text}: {v.column} is varied twice", tip="vary it once")
        seen[v.locator] = text
    for locator, text in zip(fixed, sets, strict=True):
        if locator in seen:
            raise InputError(
                f"--set {text}: the field is varied too (--vary {seen[locator]})",
                tip="drop the --set: each cell takes the field's value from --vary",
            )
    cells = grid(varies)
    if n is not None:  # simulating: -n was given or defaulted above (--exact takes none)
        from firefight.analysis.simulate import MAX_FIGHTS

        if not 1 <= n <= MAX_FIGHTS:
            raise InputError(f"-n {n} is out of range", tip=f"give 1 to {MAX_FIGHTS:,} fights")
        if seed is None:
            import numpy as np

            seed = int(np.random.SeedSequence().generate_state(1)[0])
    first = cells[0]
    for d, v in enumerate(varies):
        if v.new_key:
            _check_new_key(data, source, varies, first, d, vary[d])
    tasks = []
    for index, values in enumerate(cells):
        named = tuple((v.column, value) for v, value in zip(varies, values, strict=True))
        tasks.append(
            CellTask(
                index=index,
                values=named,
                sets=tuple((v.locator, value) for v, value in zip(varies, values, strict=True)),
                data=data,
                source=source,
                n=None if exact else n,
                seed=None if exact or seed is None else cell_seed(seed, dict(named)),
                exact=exact,
            )
        )
    return SweepPlan(
        scenario=str(scenario),
        source=source,
        title=base.spec.title,
        data=data,
        varies=varies,
        n=None if exact else n,
        seed=None if exact else seed,
        exact=exact,
        tasks=tuple(tasks),
    )


def _check_new_key(
    data: Mapping[str, Any],
    source: str,
    varies: Sequence[Vary],
    first: Sequence[Any],
    d: int,
    text: str,
) -> None:
    from firefight.encounter.scenario import build_scenario

    refusals: list[FirefightError] = []
    for value in varies[d].values:
        values = list(first)
        values[d] = value
        changed = with_values(data, [(v.locator, x) for v, x in zip(varies, values, strict=True)])
        try:
            build_scenario(changed, source)
            return
        except FirefightError as err:
            refusals.append(err)
    first_refusal = refusals[0]  # the scenario's own words for it, and its tip as the tip
    raise InputError(
        f"--vary {text}: {varies[d].column} is not in the scenario and {first_refusal.message}",
        tip=first_refusal.tip,
    )


# ----------------------------------------------------------------------------------------------
# Running: in this process, on a LocalCluster, or on a scheduler
# ----------------------------------------------------------------------------------------------
@dataclass
class SweepResult:
    plan: SweepPlan
    results: list[CellResult] = field(default_factory=list)
    interrupted: bool = False
    where: str = "this process"
    seconds: float = 0.0

    @property
    def rows(self) -> list[dict[str, Any]]:
        return [r.row for r in sorted(self.results, key=lambda r: r.index) if r.row is not None]

    @property
    def failed(self) -> list[CellResult]:
        return [r for r in sorted(self.results, key=lambda r: r.index) if r.error is not None]

    def table(self) -> tuple[list[str], list[dict[str, Any]]]:
        """Columns (varied fields first, then results in first-seen order) and rows, with each
        varied column of one type."""
        rows = self.rows
        columns = list(self.plan.columns)
        for row in rows:
            for key in row:
                if key not in columns:
                    columns.append(key)
        typed = {
            v.column: dict(zip((repr(x) for x in v.values), column_values(v.values), strict=True))
            for v in self.plan.varies
        }
        out = []
        for row in rows:
            cells = {c: row.get(c) for c in columns}
            for column, values in typed.items():
                cells[column] = values[repr(row[column])]
            out.append(cells)
        return columns, out

    def sides(self) -> list[str]:
        """The sides with a win column, in the table's order."""
        return [c[len("side.") : -len(".p_win")] for c in self.table()[0] if c.endswith(".p_win")]

    def pivot(self, side: str) -> list[list[float | None]]:
        """``side``'s win chance over two varied fields: one row per value of the first, one
        column per value of the second, None where the cell failed."""
        if len(self.plan.varies) != 2:
            raise InputError(
                f"the sweep varies {len(self.plan.varies)} fields", tip="a grid needs two"
            )
        first, second = self.plan.varies
        at = {
            (repr(r[first.column]), repr(r[second.column])): r[f"side.{side}.p_win"]
            for r in self.rows
        }
        return [[at.get((repr(a), repr(b))) for b in second.values] for a in first.values]

    def to_json(self) -> dict[str, Any]:
        columns, rows = self.table()
        return {
            "scenario": self.plan.scenario,
            "n": self.plan.n,
            "seed": self.plan.seed,
            "exact": self.plan.exact,
            "vary": {v.column: list(v.values) for v in self.plan.varies},
            "cells": len(self.plan.tasks),
            "columns": columns,
            "rows": rows,
            "failed": [{"values": dict(r.values), "error": r.error} for r in self.failed],
            "interrupted": self.interrupted,
        }


OnCell = Callable[[CellResult], None]


#: Seconds a local cluster costs before its first cell and after its last: starting the
#: scheduler and the worker processes, each importing firefight, and closing them (about 5 s
#: measured on a loaded 2-core machine, about half that when quiet).
CLUSTER_SECONDS = 5.0


def run_sweep(
    plan: SweepPlan,
    *,
    cluster: bool | None = True,
    scheduler: str | None = None,
    workers: int | None = None,
    timeout: float = CONNECT_TIMEOUT,
    on_cell: OnCell | None = None,
) -> SweepResult:
    """Run every cell: in this process (``cluster=False``), on a new ``LocalCluster`` of
    ``workers`` processes (default: this machine's cores), or on the scheduler at ``scheduler``.
    ``cluster=None`` chooses by the sweep's size: the first cell runs here, and the rest go to a
    local cluster only when their estimated time (the first cell's, times the cells left) shared
    among the free cores (:func:`free_cores`) saves more than :data:`CLUSTER_SECONDS`.
    Ctrl-C stops the sweep (the client and cluster are closed); the result keeps what finished."""
    if workers is not None and not 1 <= workers <= 512:
        raise InputError(f"--workers {workers} is out of range", tip="give 1 to 512")
    if scheduler is not None and workers is not None:
        raise InputError(
            "--workers is for the local cluster", tip="a scheduler has the workers it has"
        )
    result = SweepResult(plan)
    started = time.perf_counter()
    tasks = list(plan.tasks)
    try:
        if scheduler is None and cluster is None:
            _in_process(tasks[:1], result, on_cell)
            cores = workers if workers is not None else free_cores()
            left = len(tasks) - 1
            if worth_a_cluster(_since(started), left, cores) and not result.interrupted:
                _on_dask(tasks[1:], result, None, workers, timeout, on_cell)
                result.where = f"the first cell here, the rest on {result.where}"
            else:
                _in_process(tasks[1:], result, on_cell)
                result.where = "this process (too small a sweep for a local cluster)"
        elif scheduler is None and not cluster:
            _in_process(tasks, result, on_cell)
        else:
            _on_dask(tasks, result, scheduler, workers, timeout, on_cell)
    finally:
        result.seconds = _since(started)
    return result


def free_cores() -> int:
    """This machine's cores less those busy with other work (the load average beyond this
    process's own): on a machine busy elsewhere a cluster's workers would only queue."""
    cores = os.cpu_count() or 1
    try:
        busy = max(0.0, os.getloadavg()[0] - 1.0)
    except (AttributeError, OSError):  # no load average on this system
        busy = 0.0
    return max(1, round(cores - busy))


def worth_a_cluster(first_cell: float, cells_left: int, cores: int) -> bool:
    """Whether ``cells_left`` cells of about ``first_cell`` seconds each end sooner on a local
    cluster of ``cores`` processes, started for them, than one after another here."""
    import importlib.util

    workers = min(cores, cells_left)
    if workers < 2 or importlib.util.find_spec("distributed") is None:
        return False
    here = first_cell * cells_left
    return here - here / workers > CLUSTER_SECONDS


def _in_process(tasks: list[CellTask], result: SweepResult, on_cell: OnCell | None) -> None:
    if result.interrupted:
        return
    try:
        for task in tasks:
            done = run_cell(task)
            result.results.append(done)
            if on_cell is not None:
                on_cell(done)
    except KeyboardInterrupt:
        result.interrupted = True


def _on_dask(
    tasks: list[CellTask],
    result: SweepResult,
    scheduler: str | None,
    workers: int | None,
    timeout: float,
    on_cell: OnCell | None,
) -> None:
    dd = _distributed()
    cluster: Any = None
    client: Any = None
    try:
        if scheduler is None:
            k = workers if workers is not None else max(1, os.cpu_count() or 1)
            k = max(1, min(k, len(tasks)))
            cluster = dd.LocalCluster(
                n_workers=k,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            client = dd.Client(cluster)
            result.where = f"a local cluster of {k} worker{'s' if k > 1 else ''}"
        else:
            client = _connect(scheduler, timeout)
            result.where = f"the scheduler at {scheduler}"
        futures = client.map(run_cell, tasks, pure=False)
        task_of = {f.key: task for f, task in zip(futures, tasks, strict=True)}
        for future in dd.as_completed(futures, loop=client.loop):
            try:
                done = future.result()
            except Exception as err:  # a worker died, or a bug: keep the other cells
                task = task_of[future.key]
                reason = f"{type(err).__name__}: {err}".replace("\n", " ")
                done = CellResult(task.index, task.values, None, reason, 0.0)
            result.results.append(done)
            if on_cell is not None:
                on_cell(done)
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        _close(client, cluster)


def _distributed() -> Any:
    """``dask.distributed`` (untyped, so held as ``Any``), or one line saying how to get it."""
    import importlib

    try:
        return importlib.import_module("dask.distributed")
    except ImportError:
        raise InputError(
            "a sweep on a cluster needs dask.distributed",
            tip="pip install 'firefight[sweep]', or run it here with --no-cluster",
        ) from None


def _connect(address: str, timeout: float) -> Any:
    _check_address(address)
    dd = _distributed()
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    try:
        client = dd.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise InputError(
            f"cannot reach a Dask scheduler at {address} within {timeout:g} s"
            f" ({type(err).__name__})",
            tip="start one with `dask scheduler` and check the address (see docs/sweeps.md)",
        ) from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (OSError, TimeoutError) as err:
        client.close()
        raise InputError(
            f"the Dask scheduler at {address} has no workers ({type(err).__name__})",
            tip="start some with `dask worker ADDRESS` (see docs/sweeps.md)",
        ) from None
    try:
        client.run(_worker_check)
    except Exception as err:
        client.close()
        raise InputError(
            f"the workers of {address} cannot run a sweep ({type(err).__name__}: {err})",
            tip="install firefight (the same version) where each worker runs",
        ) from None
    return client


#: The Dask protocols a scheduler listens on (``tcp://host:port`` and the like).
PROTOCOLS = ("tcp", "tls", "ws", "wss", "ucx")


def _check_address(address: str) -> None:
    """``[PROTOCOL://]HOST:PORT``, or one line: a client given anything else fails half-built
    and its clean-up prints a traceback seconds after the refusal."""
    protocol, sep, rest = address.strip().rpartition("://")
    protocol = protocol if sep else "tcp"
    host, colon, port = rest.rpartition(":")
    if (
        protocol not in PROTOCOLS
        or not colon
        or not host.strip("[]")
        or any(c.isspace() for c in address.strip())
        or not (port.isascii() and port.isdigit() and 0 < int(port) < 65536)
    ):
        raise InputError(
            f"--scheduler {address!r} is not a scheduler's address",
            tip="give PROTOCOL://HOST:PORT, e.g. tcp://10.0.0.5:8786 (see docs/sweeps.md)",
        )


def _worker_check() -> str:
    import firefight.analysis.sweep

    return firefight.analysis.sweep.__name__


def _close(client: Any, cluster: Any) -> None:
    for thing in (client, cluster):
        if thing is None:
            continue
        with contextlib.suppress(Exception):  # closing is best effort
            thing.close()


# ----------------------------------------------------------------------------------------------
# The table: Parquet (pyarrow) or CSV, written whole or not at all
# ----------------------------------------------------------------------------------------------
TABLE_SUFFIXES = (".parquet", ".csv")


def check_out(path: Path) -> None:
    """Refuse a bad ``--out`` before any cell runs."""
    if path.suffix.lower() not in TABLE_SUFFIXES:
        raise InputError(
            f"--out {path}: write a .parquet or a .csv file", tip="name the file *.parquet"
        )
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"--out {path}: folder {folder} does not exist", tip="create it first")
    from firefight.core.files import check_replaceable

    check_replaceable(path)
    if path.suffix.lower() == ".parquet":
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:
            raise InputError("--out *.parquet needs pyarrow", tip="pip install 'firefight[sweep]'")


def write_table(path: Path, result: SweepResult) -> Path:
    from firefight.core.files import write_atomically

    columns, rows = result.table()
    if path.suffix.lower() == ".parquet":
        import importlib
        import json

        pa: Any = importlib.import_module("pyarrow")
        pq: Any = importlib.import_module("pyarrow.parquet")

        meta = {k: v for k, v in result.to_json().items() if k not in ("rows", "columns")}
        table = pa.table({c: pa.array([r[c] for r in rows]) for c in columns})
        table = table.replace_schema_metadata({"firefight.sweep": json.dumps(meta)})

        def write(tmp: Path) -> None:
            pq.write_table(table, tmp)

        return write_atomically(path, write)

    import csv

    def write_csv(tmp: Path) -> None:
        with tmp.open("w", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow(columns)
            for r in rows:
                out.writerow(["" if r[c] is None else r[c] for c in columns])

    return write_atomically(path, write_csv)
