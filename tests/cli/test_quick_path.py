"""The entry point's quick path (``firefight.cli.app``) prints what the Typer app prints.

Every command line the quick path takes is run both ways here, on the same files: the same
stdout, stderr, exit code and saved files, byte for byte. That covers every documented command it
takes, in the docs' order (one saved fight played through), and the refusals. The lines it must
leave to Typer, the option tables against Typer's own, ``--help`` in real processes and the
plain printing that stands in for rich are checked too.
"""

from __future__ import annotations

import inspect
import io
import os
import random
import shlex
import subprocess
import sys
import typing
from contextlib import nullcontext
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from typer.main import get_command
from typer.testing import CliRunner

from firefight.analysis import budget, choices, horizon
from firefight.cli import app as entry
from firefight.cli import commands, output
from firefight.cli.app import QUICK, quick_command, run_quick

from .test_docs_commands import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
EX = "examples"
AMBUSH = f"{EX}/warfare2d20/b_ak47_ambush.toml"
DUEL = f"{EX}/warfare2d20/encounters/duel.toml"


@pytest.fixture(autouse=True)
def _fixed_fresh_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands without --seed draw one from numpy's entropy: the same one for both routes."""
    seq = np.random.SeedSequence
    monkeypatch.setattr(np.random, "SeedSequence", lambda *a, **k: seq(*(a or (2026,)), **k))
    monkeypatch.chdir(ROOT)


@pytest.fixture(autouse=True)
def _budgets_run_to_their_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """`encounter actions` gives its answers the CPU seconds of its budget: with the clock held
    still, every attempt runs to its end, so both routes give the same answers; a risk is
    then final after its first plays and a chain past 3 states is given up, so it is quick."""
    monkeypatch.setattr(budget, "CLOCK", lambda: 0.0)
    monkeypatch.setattr(choices.RiskWork, "close", 1.0)
    monkeypatch.setattr(horizon, "MAX_STATES", 3)


def typer_route(argv: list[str], rich_only: bool = False) -> tuple[int, bytes, bytes]:
    """Typer's route; ``rich_only``: every line printed by rich itself (no plain printing), so
    that the quick route's plain printing is held to rich's bytes."""
    with mock.patch.object(output, "_plain_width", lambda: None) if rich_only else nullcontext():
        res = CliRunner().invoke(commands.app, argv)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res.exit_code, res.stdout_bytes, res.stderr_bytes


def quick_route(argv: list[str]) -> tuple[int, bytes, bytes]:
    command = quick_command(argv)
    assert command is not None, argv
    code = 0
    with CliRunner().isolation() as (out, err, _):
        try:
            run_quick(command)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        return code, out.getvalue(), err.getvalue()


def same_both_ways(
    argv: list[str], files: list[Path], rich_only: bool = False
) -> tuple[int, bytes, bytes]:
    """Run ``argv`` on Typer's route, then (the files put back) on the quick route; assert the
    same output, exit code and files after. Returns Typer's result."""
    before = {f: f.read_bytes() if f.exists() else None for f in files}
    slow = typer_route(argv, rich_only)
    after_slow = {f: f.read_bytes() if f.exists() else None for f in files}
    for f, data in before.items():
        if data is None:
            f.unlink(missing_ok=True)
        else:
            f.write_bytes(data)
    fast = quick_route(argv)
    assert fast == slow, argv
    assert {f: f.read_bytes() if f.exists() else None for f in files} == after_slow, argv
    return slow


@pytest.mark.parametrize("rich_only", [False, True], ids=["same code", "rich"])
def test_every_documented_quick_line_prints_the_same(tmp_path: Path, rich_only: bool) -> None:
    taken = 0
    for _, line in COMMANDS:
        argv = shlex.split(line.replace("/tmp/", f"{tmp_path}/"))[1:]
        for i, word in enumerate(argv[:-1]):
            if word == "--plot":
                argv[i + 1] = str(tmp_path / argv[i + 1])
        if quick_command(argv) is None:
            if argv[0] == "encounter":  # the saved fight the next lines play: start, the GM's hand
                assert typer_route(argv)[0] == 0, line
            continue
        files = [Path(w) for w in argv if w.startswith(str(tmp_path))]
        assert same_both_ways(argv, files, rich_only)[0] == 0, line
        taken += 1
    assert taken >= 40


@pytest.mark.parametrize(
    "line",
    [
        "roll 2d20 --seed 1",
        "roll --seed 1 2d20",
        "roll 2d20 --seed 007",
        "roll 2d20",
        "roll 4d6kh3 --seed 7 --json --json",
        "roll 60d6 --seed 3",  # a line longer than 80 columns: rich wraps it
        "roll 'pm6 + :smile:' --seed 3",
        "roll 2d --seed 1",
        "roll 1000001d6 --seed 1",
        "dist 2d6",
        "dist 3d6 --json",
        "dist 5000d6",
        "dist 'd6 @ 3'",
        f"attack warfare2d20 {AMBUSH} --seed 3",
        f"attack warfare2d20 {AMBUSH}",
        f"attack warfare2d20 {AMBUSH} --seed 3 --dice 1,2",
        f"attack warfare2d20 {AMBUSH} --dice 1,2",
        f"attack warfare2d20 {AMBUSH} --dice x",
        f"attack warfare2d20 {AMBUSH} --set nosuch=1 --seed 1",
        f"attack warfare2d20 {AMBUSH} --set target.armour=none --set attacker.name=Kim --seed 1",
        f"attack warfare2d20 ./{AMBUSH} --house {EX}/graydawn/house/tough_cover.toml --seed 1",
        f"attack Warfare2d20 {AMBUSH} --seed 1",
        f"attack nosuch {AMBUSH} --seed 1",
        "attack warfare2d20 nosuch.toml --seed 1",
        f"attack warfare2d20 {EX} --seed 1",
        f"suppress warfare2d20 {AMBUSH} --seed 1",
        f"suppress graydawn {EX}/graydawn/suppress_lane.toml --seed 2 --json",
        f"odds warfare2d20 {AMBUSH}",
        f"odds warfare2d20 {AMBUSH} --json",
        f"odds dragonwarriors2 {EX}/dragonwarriors2/bow_shot.toml",
        f"odds quality_d100 {EX}/quality_d100/trip.toml",
        f"odds tactical_d20 {EX}/tactical_d20/heavy_cover.toml",
        f"odds graydawn {EX}/graydawn/suppress_lane.toml",
        f"odds warfare2d20 {EX}/warfare2d20/h_initiative.toml",
        f"odds warfare2d20 {AMBUSH} --plot odds.txt",
    ],
)
def test_quick_lines_print_the_same(line: str) -> None:
    same_both_ways(shlex.split(line), [], rich_only=True)


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A warfare2d20 duel started and played two steps, saved."""
    file = tmp_path / "duel.json"
    assert typer_route(["encounter", "start", DUEL, "--save", str(file), "--seed", "1"])[0] == 0
    assert typer_route(["encounter", "auto", str(file), "--steps", "2", "--seed", "2"])[0] == 0
    return file


@pytest.mark.parametrize(
    "lines",
    [
        ["encounter actions FILE", "encounter actions FILE --json"],
        ["encounter show FILE", "encounter show FILE --json"],
        ["encounter act FILE done --seed 5", "encounter act FILE aim --seed 5"],
        ["encounter act FILE nosuch --seed 5", "encounter act FILE done --dice 3"],
        ["encounter act FILE done --seed 1 --dice 3", "encounter act FILE done"],
        ["encounter auto FILE --steps 3 --seed 4", "encounter undo FILE", "encounter undo FILE"],
        ["encounter redo FILE", "encounter undo FILE", "encounter redo FILE"],
        ["encounter auto FILE --seed 9", "encounter auto FILE --seed 9", "encounter show FILE"],
        ["encounter auto FILE --steps 0", "encounter actions nosuch.json"],
    ],
)
@pytest.mark.parametrize("rich_only", [False, True], ids=["same code", "rich"])
def test_quick_encounter_lines_print_and_save_the_same(
    saved: Path, lines: list[str], rich_only: bool
) -> None:
    for line in lines:
        same_both_ways(shlex.split(line.replace("FILE", str(saved))), [saved], rich_only)


@pytest.mark.parametrize(
    "line",
    [
        "",
        "--version",
        "rulesets",
        "roll",
        "roll --help",
        "roll 2d20 3d6",
        "roll 2d20 --seed=1",
        "roll 2d20 --seed",
        "roll 2d20 --seed -1",
        "roll 2d20 --seed 1.5",
        "roll 2d20 --seed ' 1'",
        "roll 2d20 --seed 1 --seed 2",
        "roll 2d20 --seed 12345678901234567890",
        "roll -- -d6",
        "roll -d6",
        "roll ''",
        "roll 2d20 -h",
        "dist 2d6 --plot",
        f"attack warfare2d20 {AMBUSH} --house ''",
        f"attack warfare2d20 {AMBUSH} --set",
        f"odds warfare2d20 {AMBUSH} --seed 1",
        "odds warfare2d20",
        "encounter",
        "encounter start x.toml --save y.json",
        "encounter act FILE",
        "encounter act FILE a b",
        "encounter undo FILE --json",
        "fight x.toml",
        "table quality_d100",
    ],
)
def test_other_lines_go_to_typer(line: str) -> None:
    assert quick_command(shlex.split(line)) is None


def test_completion_and_windows_go_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    assert quick_command(["roll", "2d20"]) is not None
    monkeypatch.setenv("_FIREFIGHT_COMPLETE", "bash_complete")
    assert quick_command(["roll", "2d20"]) is None
    monkeypatch.delenv("_FIREFIGHT_COMPLETE")
    monkeypatch.setattr(os, "name", "nt")
    assert quick_command(["roll", "2d20"]) is None


def _kind(annotation: object) -> str:
    """The quick path's kind of a Typer parameter's annotation (``int | None`` -> int)."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)] or [annotation]
    inner = args[0]
    if typing.get_origin(inner) is list:
        return _kind(typing.get_args(inner)[0]) + "*"
    kinds = {int: "int", float: "float", Path: "path", str: "text", bool: "flag"}
    return kinds[inner]  # type: ignore[index]


@pytest.mark.parametrize("words", list(QUICK), ids=" ".join)
def test_quick_tables_match_the_typer_commands(words: tuple[str, ...]) -> None:
    """Each quick command has Typer's arguments (in order, of the same kinds) and options (same
    names, flags, kinds, repeatable ones); no option of Typer's is missing."""
    kinds, options, _ = QUICK[words]
    group = get_command(commands.app)
    command = group
    for word in words:
        command = command.commands[word]  # type: ignore[attr-defined]
    hints = typing.get_type_hints(command.callback, include_extras=True)  # type: ignore[arg-type]
    arguments, typer_options = [], {}
    for param in command.params:
        hint = typing.get_args(hints[param.name])[0]
        if param.param_type_name == "argument":
            arguments.append(_kind(hint))
        elif "--help" not in param.opts:
            (name,) = [o for o in param.opts if o.startswith("--")]
            typer_options[name] = _kind(hint)
    assert tuple(arguments) == kinds
    assert typer_options == options
    signature = inspect.signature(command.callback)  # type: ignore[arg-type]
    assert len(signature.parameters) == len(kinds) + len(options)


def _process(code: str, *args: str, columns: str) -> bytes:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": columns}
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, env=env, check=True, cwd=ROOT
    ).stdout


@pytest.mark.parametrize("columns", ["80", "200", "79", "60"])
def test_help_is_typers_in_real_processes(columns: str) -> None:
    quick = _process("from firefight.cli.app import main; main()", "--help", columns=columns)
    slow = _process("from firefight.cli.commands import app; app()", "--help", columns=columns)
    assert quick == slow


@pytest.mark.parametrize(("columns", "quick"), [("80", True), ("300", True), ("79", False)])
def test_help_is_quick_only_at_typers_usual_width(
    monkeypatch: pytest.MonkeyPatch, columns: str, quick: bool
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    assert (entry.quick_help() is not None) is quick


def test_help_as_a_module_names_the_module() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "100"}
    out = subprocess.run(
        [sys.executable, "-m", "firefight.cli.app", "--help"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    assert out.startswith("Usage: python -m firefight.cli.app [OPTIONS] COMMAND [ARGS]...\n")
    assert out.endswith(entry.HELP)


@pytest.mark.parametrize(
    "args",
    [
        ["roll", "2d20", "--seed", "1"],
        ["odds", "warfare2d20", AMBUSH],
        ["attack", "nosuch", AMBUSH],
    ],
)
def test_quick_processes_print_what_typer_processes_print(args: list[str]) -> None:
    """Whole processes (real stdout, exit codes, no test runner between): the same bytes."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    runs = [
        subprocess.run([sys.executable, "-c", code, *args], capture_output=True, env=env, cwd=ROOT)
        for code in (
            "from firefight.cli.app import main; main()",
            "from firefight.cli.commands import app; app()",
        )
    ]
    quick, slow = ((r.returncode, r.stdout, r.stderr) for r in runs)
    assert quick == slow


#: Packages a short command pays for only when it needs them (docs/performance.md, "Where the
#: time goes"): Typer, click and pydantic never on the quick path, rich only to print a table
#: or to a terminal, matplotlib only for --plot, numpy only to roll, FLINT only for big pools.
WATCHED = ("typer", "click", "pydantic", "rich", "matplotlib", "numpy", "flint")


@pytest.mark.parametrize(
    ("line", "loaded"),
    [
        ("roll 2d20 --seed 1", ["numpy"]),
        ("roll 2d20 --seed 1 --json", ["numpy"]),
        ("roll '4d6kh3 + d10x' --json", ["numpy"]),
        ("dist 3d6 --json", []),
        ("dist 4d6kh3 --json", []),
        ("dist 2d10x --json", []),  # two exploding dice: a small answer, no FLINT
        ("dist 2pm6 --json", []),
        ("dist 3d6", ["rich"]),  # a table: rich draws it
        ("dist 2d --json", []),  # refusals are one plain line
        ("dist 1000d20", []),
        ("dist 'sort(3d6)' --json", []),
        ("dist 'd3000 + d3000' --plot PNG", ["matplotlib", "numpy"]),  # a chart, no table
    ],
)
def test_the_quick_path_loads_only_what_the_output_needs(
    tmp_path: Path, line: str, loaded: list[str]
) -> None:
    """Run in a fresh process, off a terminal: the watched packages the command imported."""
    code = (
        "import sys\nfrom firefight.cli.app import main\ntry:\n    main()\nfinally:\n"
        f"    print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(WATCHED)!r}),"
        " file=sys.stderr)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    res = subprocess.run(
        [sys.executable, "-c", code, *shlex.split(line.replace("PNG", str(tmp_path / "d.png")))],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert res.returncode in (0, 2), res.stderr
    assert res.stderr.splitlines()[-1] == str(loaded), res.stderr


# ------------------------------------------------------------- plain printing instead of rich


def _rich(lines: list[str]) -> str:
    console = output.plain_console()
    for line in lines:
        console.print(line)
    return sys.stdout.getvalue()  # type: ignore[attr-defined]


def test_plain_lines_print_what_rich_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(14)
    alphabet = "ab 0:[]~,-=()" + "x" * 40 + "é\t"
    printed = 0
    for _ in range(400):
        width = rng.choice(["80", "20", "7", "150"])
        monkeypatch.setenv("COLUMNS", width)
        lines = [
            "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
            for _ in range(rng.randrange(1, 4))
        ]
        monkeypatch.setattr(sys, "stdout", io.StringIO())
        plain = output.plain_lines(lines)
        text = sys.stdout.getvalue()
        monkeypatch.setattr(sys, "stdout", io.StringIO())
        if plain:
            printed += 1
            assert text == _rich(lines), (width, lines)
        else:
            assert text == ""
    assert printed > 60


@pytest.mark.parametrize(
    ("env", "plain"),
    [
        ({}, True),
        ({"FORCE_COLOR": "1"}, False),
        ({"FORCE_COLOR": ""}, True),
        ({"TTY_COMPATIBLE": "1"}, False),
        ({"TTY_COMPATIBLE": "0", "FORCE_COLOR": "1"}, True),
        ({"COLUMNS": "0"}, False),
        ({"COLUMNS": "5"}, True),
    ],
)
def test_plain_lines_leave_terminals_to_rich(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], plain: bool
) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    lines = ["2d20[5, 6] = 11", "seed 1"]
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert output.plain_lines(lines) is plain
    text = sys.stdout.getvalue()
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert text == (_rich(lines) if plain else "")


def test_plain_lines_on_a_terminal_leave_it_to_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "stdout", Tty())
    assert not output.plain_lines(["seed 1"])
    assert sys.stdout.getvalue() == ""


class _NoRich:
    """Stands in for rich's console: notes whether TextConsole handed it anything."""

    used = False

    def print(self, *args: object, **kwargs: object) -> None:
        self.used = True

    def rule(self, *args: object, **kwargs: object) -> None:
        self.used = True


def test_text_console_prints_what_rich_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random lines (styled runs or not, long words, runs of spaces, brackets, tags, emoji
    codes) and rules at random widths: wherever TextConsole prints itself, rich prints the
    same bytes, and neither reads markup or emoji codes."""
    rng = random.Random(11)
    pieces = ["ab", "x" * 12, " ", "  ", "[bold]", "[/bold]", "[dim]", "[/dim]", "[5, 6]", ":"]
    pieces += ["round 1", "(W01)", "->", "`firefight encounter`", "é", "\\", "[/x]", "-"]
    pieces += [":smile:", "[/]", ":Runner:"]
    plain = 0
    for _ in range(600):
        width = rng.choice(["80", "30", "12", "9", "101"])
        monkeypatch.setenv("COLUMNS", width)
        runs = [
            rng.choice(pieces) if rng.random() < 0.6 else (rng.choice(pieces), "bold")
            for _ in range(rng.randrange(0, 14))
        ]
        text = "".join(r if isinstance(r, str) else r[0] for r in runs)
        rule = rng.random() < 0.2
        monkeypatch.setattr(sys, "stdout", io.StringIO())
        console = output.TextConsole()
        console._rich = fallback = _NoRich()
        console.rule(text, style="dim") if rule else console.print(*runs)
        mine = not fallback.used
        ours = sys.stdout.getvalue()
        monkeypatch.setattr(sys, "stdout", io.StringIO())
        reference = output.plain_console()
        reference.rule(text, style="dim") if rule else reference.print(output.styled(*runs))
        if mine:
            plain += 1
            assert ours == sys.stdout.getvalue(), (width, runs, rule)
    assert plain > 150
