"""Every ``firefight ...`` example in the README and the docs runs as written: each line of a code
block, and each complete command in the text (one naming an example file). A line shown with
its output (``$ firefight dist "2d"`` and the error under it) must give that output.

A newcomer copies these lines first; a renamed field, a missing example file or a changed message
must fail here, not in their terminal. To stay cheap, a command shown in several docs runs once,
a simulation runs at most :data:`MAX_FIGHTS` fights (a sweep's cell fewer; the doc's ``-n`` is
for its figures, the command is what is tested), a sweep runs in this process, and files the
lines write (``--plot``, ``--out``, ``--save``) go to a temporary folder, and a command that takes
minutes as written runs on a shorter fight (:data:`SHORTENED`). Lines that save an encounter and
the lines that use it run in order, as one test.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
DOCS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "docs" / "rules").glob("*.md")),
]
#: Most fights a documented simulation runs here, and a sweep's cell (a graydawn fight takes
#: tens of milliseconds).
MAX_FIGHTS = {"simulate": 30, "sweep": 10}
#: Documented commands that take minutes as written, by their example file, and what the test
#: adds to run them in seconds: the Rolf and Lennox solve (about two minutes of CPU) on the
#: fight's first turn with chains cut after two contests (about 12 s); the command, its file
#: and its options are what is tested.
SHORTENED = {
    "rolf_vs_lennox_first_blood.toml": ["--max-rounds", "1", "--set", "options.max_chain=2"]
}
#: Options whose value is a file the command writes.
WRITES = ("--plot", "--out", "--save")
#: Docs whose commands run elsewhere, where their files are: the plugin author's guide runs in
#: the package ``firefight new-ruleset`` writes (tests/cli/test_new_ruleset.py walks it there).
ELSEWHERE = {"authoring.md"}


@dataclass(frozen=True)
class Example:
    """A documented command, and the error line the doc shows under it (if it shows one)."""

    doc: str
    line: str
    error: str | None = None


def _runnable(line: str) -> bool:
    """A whole command, not a synopsis (``[--json]``), a placeholder (``FILE``, ``...``), a
    pipeline, a server that runs until stopped (tests/web starts ``serve`` for real), a
    prompt at a terminal (tests/cli/test_ask_pty.py drives ``--ask`` on a real pty) or a
    package written (tests/cli/test_new_ruleset.py runs ``new-ruleset`` in a temporary folder)."""
    words = line.split()
    return not (
        re.search(r"\[-|\bFILE\b|SCENARIO|PATH=|\.\.\.|&&|\|", line)
        or words[1] in ("serve", "new-ruleset")
        or "--scheduler" in words
        or "--ask" in words
    )


def _blocks(doc: Path) -> list[Example]:
    out = []
    text = doc.read_text(encoding="utf-8").replace("\\\n", " ")
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S):
        lines = block.splitlines()
        for i, raw in enumerate(lines):
            prompt = raw.startswith("$ ")
            line = raw.removeprefix("$ ").split("  #")[0].strip()
            if not line.startswith("firefight ") or not _runnable(line):
                continue
            shown = lines[i + 1] if prompt and i + 1 < len(lines) else ""
            error = shown if shown.startswith("error: ") else None
            out.append(Example(doc.name, line, error))
    return out


def _inline(doc: Path) -> list[Example]:
    """Complete commands in the text: ``firefight ...`` naming an example file."""
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
    spans = re.findall(r"`(firefight [^`]+)`", text.replace("\n", " "))
    return [Example(doc.name, s) for s in spans if "examples/" in s and _runnable(s)]


def _examples() -> list[Example]:
    """Every documented command once (the first doc that shows it names it)."""
    seen: set[str] = set()
    out = []
    for doc in DOCS:
        if doc.name in ELSEWHERE:
            continue
        for e in (*_blocks(doc), *_inline(doc)):
            key = " ".join(e.line.split())
            if key not in seen or ".json" in key:  # a saved encounter's lines are each doc's own
                seen.add(key)
                out.append(e)
    return out


def _chains(examples: list[Example]) -> list[list[Example]]:
    """Examples in runs: the lines of one doc that name the same saved encounter (``.json``)
    together, in order; every other line alone."""
    runs: dict[tuple[str, str], list[Example]] = {}
    out: list[list[Example]] = []
    for e in examples:
        saved = re.search(r"(\S+\.json)\b", e.line)
        if saved is None:
            out.append([e])
            continue
        key = (e.doc, Path(saved.group(1)).name)
        if key not in runs:
            runs[key] = []
            out.append(runs[key])
        runs[key].append(e)
    return out


EXAMPLES = _examples()
CHAINS = _chains(EXAMPLES)
#: The documented commands that succeed, (doc, line) in order (test_quick_path runs them both
#: ways).
COMMANDS = [(e.doc, e.line) for e in EXAMPLES if e.error is None]


def cheap(line: str, tmp: Path) -> list[str]:
    """The command's words as the test runs them: written files in ``tmp``, at most
    :data:`MAX_FIGHTS` fights, a sweep in this process."""
    args = shlex.split(line)[1:]
    for i, word in enumerate(args[:-1]):
        if word in WRITES:
            args[i + 1] = str(tmp / Path(args[i + 1]).name)
        elif word in ("-n", "--fights") and args[i + 1].isdigit():
            args[i + 1] = str(min(int(args[i + 1]), MAX_FIGHTS[args[0]]))
    args = [str(tmp / Path(w).name) if w.startswith("/tmp/") else w for w in args]
    for name, more in SHORTENED.items():
        if any(Path(w).name == name for w in args):
            args += more
    if args[0] == "sweep":
        if "--workers" in args:
            k = args.index("--workers")
            del args[k : k + 2]
        if "--no-cluster" not in args:
            args.append("--no-cluster")
    return args


def test_the_docs_show_commands() -> None:
    assert len(EXAMPLES) >= 80
    assert {e.doc for e in EXAMPLES} >= {"README.md", "dice.md", "sweeps.md", "performance.md"}
    assert [e.error for e in EXAMPLES if e.error] == [
        "error: expression ends too soon at column 3 of '2d' (tip: a die needs its sides (2d6) "
        "and an operator needs a right side)",
        "error: 0d4 throws no dice at column 14 of '3 + 3d6kh2 + 0d4' (tip: use 1 or more dice)",
    ]


@pytest.mark.parametrize(
    "chain", CHAINS, ids=[f"{c[0].doc}:{EXAMPLES.index(c[0])}" for c in CHAINS]
)
def test_documented_command_runs(
    chain: list[Example], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    for example in chain:
        res = CliRunner().invoke(app, cheap(example.line, tmp_path))
        assert res.exception is None or isinstance(res.exception, SystemExit), example.line
        if example.error is None:
            assert res.exit_code == 0, f"{example.doc}: {example.line}\n{res.stderr}"
        else:
            assert res.exit_code == 2, f"{example.doc}: {example.line}"
            assert res.stderr.strip() == example.error, f"{example.doc}: {example.line}"
