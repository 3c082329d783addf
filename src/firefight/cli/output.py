"""Writing results: JSON to stdout, and files written whole or not at all."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

from firefight.core.files import write_atomically
from firefight.display import (
    adds_up,
    outcome_groups,
    percent,
    plural,
    probability,
    value_words,
    words,
)

__all__ = [
    "MAX_TABLE_ROWS",
    "TextConsole",
    "adds_up",
    "count_bar",
    "outcome_groups",
    "percent",
    "plain_console",
    "plain_lines",
    "plural",
    "print_json",
    "probability",
    "styled",
    "value_words",
    "words",
    "write_atomically",
]

#: Most rows a table on the terminal shows; longer distributions go to --json or --plot.
MAX_TABLE_ROWS = 2000


def plain_console(*, stderr: bool = False) -> Any:
    """The rich console every command prints through: nothing it prints is read as markup or
    as an emoji code, and nothing is highlighted, so ids, names, labels and titles from the
    user's files print exactly as written (``[bold]``, ``[/]`` and ``:smile:`` included).
    Styling goes by ``style=`` or :func:`styled` runs, never by markup. Imports rich."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, markup=False, emoji=False)


#: A run of text printed as written, or (text, rich style) for a styled run.
Run = str | tuple[str, str]


def styled(*runs: Run) -> Any:
    """``runs`` as one rich ``Text``, each printed as written (no markup, no emoji codes)."""
    from rich.text import Text

    return Text.assemble(*runs)


def count_bar(console: Any, quiet: bool) -> Any:
    """A rich progress bar counting done of total items on ``console`` (stderr), gone when it
    ends; off with ``quiet`` (JSON output) or off a terminal. Its descriptions print as
    written (no markup: a cell's label may hold any text). Imports rich when called."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=quiet or not console.is_terminal,
    )


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))


def plain_lines(lines: Sequence[str]) -> bool:
    """Print ``lines`` exactly as :func:`plain_console` would, without importing rich (about
    50 ms of a short command), where that is certain: the output is not a terminal (rich adds
    no style codes) and every line is printable ASCII. Returns False, having printed nothing,
    otherwise."""
    console = TextConsole()
    if any(console._plain(line) is None for line in lines):
        return False
    for line in lines:
        console.print(line)
    return True


class TextConsole:
    """:func:`plain_console` for lines of text: it prints them itself where rich would print
    plain text (see :func:`plain_lines`), wrapping and drawing rules as rich does, and hands
    anything else (tables, a terminal, text it cannot vouch for) to rich, imported then.
    ``tests/cli/test_quick_path.py`` holds both to the same bytes."""

    def __init__(self) -> None:
        self._width = _plain_width()
        self._rich: Any = None

    @property
    def rich(self) -> Any:
        """The rich console, made on first need."""
        if self._rich is None:
            self._rich = plain_console()
        return self._rich

    def print(self, *runs: Any) -> None:
        """One line of ``runs`` (:data:`Run`: each as written, or (text, style)), or one rich
        renderable (a table); never read as markup or emoji codes."""
        if len(runs) == 1 and not isinstance(runs[0], (str, tuple)):
            self.rich.print(runs[0])
            return
        plain = self._plain("".join(r if isinstance(r, str) else r[0] for r in runs))
        if plain is None:
            self.rich.print(styled(*runs))
        else:
            assert self._width is not None
            sys.stdout.write("".join(f"{line}\n" for line in _wrap(plain, self._width)))
            sys.stdout.flush()

    def rule(self, title: str, *, style: str) -> None:
        """``Console.rule(title, style=style)``: the title centred in a line of "─"."""
        plain = self._plain(title)
        width = self._width
        if not plain or width is None or len(plain) > width - 4:
            self.rich.rule(title, style=style)
            return
        side = (width - len(plain)) // 2
        right = "─" * min(side + 1, width - (side - 1) - len(plain))
        line = f"{'─' * (side - 1)} {plain} {right}"[:width].ljust(width)
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def _plain(self, text: object) -> str | None:
        """The text rich would print, or None: not a string, not printable ASCII, or no plain
        width."""
        if not isinstance(text, str) or self._width is None:
            return None
        if not (getattr(sys.stdout, "encoding", None) or "utf-8").lower().startswith("utf"):
            return None
        if not (text.isascii() and text.isprintable()):
            return None
        return text


#: A word as rich wraps it: leading space, the word, the space after it.
_WORD = re.compile(r"\s*\S+\s*")


def _wrap(text: str, width: int) -> list[str]:
    """``text`` cut into lines as rich's ``Text.wrap`` cuts printable ASCII (``divide_line``
    with folding, then trailing space beyond the width dropped, then cropped)."""
    breaks: list[int] = []
    offset = 0
    match = _WORD.match(text, 0)
    while match is not None:
        start, word = match.start(), match.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:
            pieces = [word[i : i + width] for i in range(0, len(word), width)]
            for i, piece in enumerate(pieces):
                if start:
                    breaks.append(start)
                if i == len(pieces) - 1:
                    offset = len(piece)
                else:
                    start += len(piece)
        elif offset and start:
            breaks.append(start)
            offset = len(word)
        match = _WORD.match(text, match.end())
    lines = []
    for a, b in zip([0, *breaks], [*breaks, len(text)], strict=True):
        line = text[a:b]
        if len(line) > width:
            excess = len(line) - width
            spaces = len(line) - len(line.rstrip())
            line = line[: len(line) - min(spaces, excess)]
        lines.append(line[:width])
    return lines


def _plain_width() -> int | None:
    """The width rich's Console wraps at when it writes plain text (rich's own rules: the
    ``TTY_COMPATIBLE`` and ``FORCE_COLOR`` variables, then ``isatty``; ``COLUMNS``, else the
    first terminal among stdin, stdout, stderr, else 80); None when rich would write to a
    terminal, or on a platform or in a shell (Windows, Jupyter) with rules of its own."""
    env = os.environ
    tty = env.get("TTY_COMPATIBLE", "")
    if tty == "1" or os.name == "nt" or "IPython" in sys.modules:
        return None
    if tty != "0":
        force = env.get("FORCE_COLOR")
        if force:
            return None
        if force is None:
            try:
                if sys.stdout.isatty():
                    return None
            except ValueError:
                return None
    columns = env.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns) if columns.isascii() and int(columns) > 0 else None
    for fd in (0, 1, 2):
        try:
            return os.get_terminal_size(fd).columns or 80
        except (AttributeError, ValueError, OSError):
            pass
    return 80
