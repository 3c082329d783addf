"""Bad input never crashes, hangs or slips through (issue 13), for every command and ruleset.

Two halves:

- exhaustive: a typo in any key of any shipped example (``examples/**/*.toml``, situations and
  house files) is refused when the file loads;
- hypothesis, in-process through the CLI: example files with one value replaced by an edge value
  (huge numbers, booleans, text, lists, tables, NaN), dice expressions, ``--dice``, ``--rows``,
  ``--set`` and ``--seed`` text. Every run ends with exit 0 or 2 within a time limit; exit 2 is
  one ``error:`` line with a tip.

Example counts are small so the suite stays fast; ``FIREFIGHT_FUZZ_EXAMPLES=2000`` runs more.
"""

from __future__ import annotations

import json
import math
import os
import signal
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from firefight.cli.app import app
from firefight.cli.ruleset_commands import load
from firefight.core.house import load_house
from firefight.errors import FirefightError
from firefight.rulesets import get_ruleset

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SITUATIONS = sorted(p for p in EXAMPLES.glob("*/*.toml"))
HOUSES = sorted(EXAMPLES.glob("*/house/*.toml"))
RUNS = int(os.environ.get("FIREFIGHT_FUZZ_EXAMPLES", "25"))
#: Seconds one command may take before it counts as a hang.
TIME_LIMIT = 30
FUZZ = settings(
    max_examples=RUNS,
    deadline=None,
    derandomize=RUNS <= 25,  # the suite is repeatable; a long run explores
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: Tables whose keys are names the user chooses (a typo there is a new name, not a mistake).
FREE_KEYS = {"mortar_shells"}


def toml_text(data: dict[str, Any]) -> str:
    """Data as TOML, every nested table inline (enough to write any mutated example)."""
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in data.items())


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() and k.isascii() else json.dumps(k)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return (
            "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
        )
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return json.dumps(str(v))


def key_paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key of ``data`` as a path (list positions included), outside free-named tables."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield (*path, k)
            if k not in FREE_KEYS:
                yield from key_paths(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from key_paths(v, (*path, i))


def value_paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            out.append((*path, k))
            out.extend(value_paths(v, (*path, k)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.append((*path, i))
            out.extend(value_paths(v, (*path, i)))
    return out


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    node = data
    for part in path[:-1]:
        node = node[part]
    return node


def renamed(data: dict[str, Any], path: tuple[Any, ...], new: str) -> dict[str, Any]:
    out = json.loads(json.dumps(data, default=str))
    parent = _parent(out, path)
    parent[new] = parent.pop(path[-1])
    return out


def replaced(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = json.loads(json.dumps(data, default=str))
    _parent(out, path)[path[-1]] = value
    return out


def typo(key: str) -> str:
    """A one-letter slip: the last two letters swapped, or a letter doubled."""
    swapped = key[:-2] + key[-1] + key[-2] if len(key) > 2 else key + key[-1]
    return swapped if swapped != key else key + key[-1]


def _ruleset_of(path: Path) -> str:
    return path.relative_to(EXAMPLES).parts[0]


# ------------------------------------------------------------------------------ typos


def _typo_cases() -> list[tuple[Path, tuple[Any, ...]]]:
    cases = []
    for f in [*SITUATIONS, *HOUSES]:
        data = tomllib.loads(f.read_text(encoding="utf-8"))
        cases.extend((f, p) for p in key_paths(data))
    return cases


def test_every_example_key_is_tried() -> None:
    """The typo test below sees every shipped example (situations and house files)."""
    assert len(SITUATIONS) >= 40 and len(HOUSES) >= 5
    assert len(_typo_cases()) > 500


def _load_example(f: Path, target: Path) -> None:
    """Load ``target`` the way ``f`` is loaded: as a house file or as a situation."""
    ruleset = get_ruleset(_ruleset_of(f))
    if "house" in f.parts:
        load_house(ruleset.house_model, target)
    else:
        load(ruleset, target, [], None, None)


def test_a_typo_in_any_key_of_any_example_is_refused(tmp_path: Path) -> None:
    """A misspelt key must never be read as the default: every one is refused at load."""
    accepted = []
    checked: set[Path] = set()
    for f, path in _typo_cases():
        data = tomllib.loads(f.read_text(encoding="utf-8"))
        target = tmp_path / f.name

        if f not in checked:  # the file as written loads: a refusal below is the typo's
            target.write_text(toml_text(data), encoding="utf-8")
            _load_example(f, target)
            checked.add(f)
        target.write_text(toml_text(renamed(data, path, typo(str(path[-1])))), encoding="utf-8")
        try:  # one file after another: a single loop keeps the suite fast
            _load_example(f, target)
            accepted.append(f"{f.relative_to(EXAMPLES)}: {path}")
        except FirefightError as err:
            line = err.one_line()
            assert "\n" not in line and len(line) < 500
    assert accepted == []


# ------------------------------------------------------------------------------ the CLI


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang


def invoke(args: list[str]) -> tuple[int, str]:
    """Run the CLI in-process under a time limit; return (exit code, stderr)."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT)
    try:
        res = CliRunner().invoke(app, args)
    except _Hang:  # pragma: no cover - only when a command hangs
        pytest.fail(f"firefight {' '.join(args)[:200]} ran past {TIME_LIMIT} s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    if isinstance(res.exception, _Hang):  # pragma: no cover
        pytest.fail(f"firefight {' '.join(args)[:200]} ran past {TIME_LIMIT} s")
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise AssertionError(f"traceback for firefight {' '.join(args)[:300]}") from res.exception
    assert res.exit_code in (0, 2), (args, res.exit_code, res.output[-500:])
    if res.exit_code == 2:
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1, (args, res.stderr[:500])
        assert lines[0].startswith("error: ") and "(tip: " in lines[0], lines[0]
        assert len(lines[0]) <= 400
        assert "instance of" not in lines[0] and "Traceback" not in lines[0]
    return res.exit_code, res.stderr


EDGE_VALUES = st.one_of(
    st.sampled_from([0, -1, 1, 2**63 - 1, -(2**63), 10**9, 10**6, True, False, "", "yes"]),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.lists(st.integers(-5, 5), max_size=3),
    st.dictionaries(st.sampled_from(["name", "x", "value"]), st.integers(-3, 3), max_size=2),
)


def _command(f: Path, data: dict[str, Any]) -> list[str]:
    kind = data.get("kind", "attack") if isinstance(data.get("kind"), str) else "attack"
    return ["suppress" if kind == "suppression" else "attack", "--seed", "0"]


@FUZZ
@given(data=st.data())
def test_situations_with_one_bad_value_exit_0_or_2(data: st.DataObject) -> None:
    f = data.draw(st.sampled_from(SITUATIONS), label="example")
    raw = tomllib.loads(f.read_text(encoding="utf-8"))
    paths = value_paths(raw)
    path = data.draw(st.sampled_from(paths), label="field")
    value = data.draw(EDGE_VALUES, label="value")
    bad = replaced(raw, path, value)
    rid = _ruleset_of(f)
    command = data.draw(st.sampled_from(["odds", "run"]), label="command")
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "situation.toml"
        target.write_text(toml_text(bad), encoding="utf-8")
        if command == "odds":
            invoke(["odds", rid, str(target), "--json"])
        else:
            verb, *opts = _command(f, raw)
            invoke([verb, rid, str(target), *opts])


@FUZZ
@given(data=st.data())
def test_house_files_with_one_bad_value_exit_0_or_2(data: st.DataObject) -> None:
    rid = data.draw(
        st.sampled_from(
            ["warfare2d20", "dragonwarriors2", "graydawn", "tactical_d20", "quality_d100"]
        ),
        label="ruleset",
    )
    model = get_ruleset(rid).house_model
    fields = list(model.model_fields)
    name = data.draw(st.sampled_from(fields), label="field")
    value = data.draw(EDGE_VALUES, label="value")
    example = data.draw(st.sampled_from(sorted(EXAMPLES.glob(f"{rid}/*.toml"))), label="example")
    with tempfile.TemporaryDirectory() as tmp:
        house = Path(tmp) / "house.toml"
        house.write_text(toml_text({name: value}), encoding="utf-8")
        invoke(["odds", rid, str(example), "--house", str(house), "--json"])


DICE_TEXT = st.text(alphabet="0123456789dDxkhlpm%+-*()abs sort ١٢", max_size=24)


@FUZZ
@given(expr=DICE_TEXT, command=st.sampled_from(["roll", "dist"]))
def test_dice_expressions_exit_0_or_2(expr: str, command: str) -> None:
    invoke([command, expr, "--json"] if command == "dist" else [command, expr, "--seed", "1"])


@FUZZ
@given(
    option=st.sampled_from(["--dice", "--set", "--seed", "--house"]),
    text=st.text(max_size=40),
)
def test_option_text_exits_0_or_2(option: str, text: str) -> None:
    f = EXAMPLES / "warfare2d20" / "b_ak47_ambush.toml"
    invoke(["attack", "warfare2d20", str(f), option, text])


@FUZZ
@given(rows=st.text(alphabet="0123456789-, ١٢٣x", max_size=12))
def test_table_rows_exit_0_or_2(rows: str) -> None:
    invoke(["table", "quality_d100", "--rows", rows, "--json"])
