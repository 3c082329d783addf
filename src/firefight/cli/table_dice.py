"""``--ask``: the table's dice asked for at the terminal, group by group; ``encounter dice``.

Each answer runs the resolution once more on the faces so far
(:func:`firefight.dice.asking.ask`), so the questions come from the rule code itself. At a
prompt: the group's faces (``4 8`` or ``4,8``), Enter alone for the program to roll the group,
``all`` for the program to roll the rest, ``back`` to take back the last group, Ctrl-C (or
Ctrl-D) to stop with nothing saved.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from firefight.core.table_dice import People, asked_json, group_words
from firefight.dice.asking import Asked, Group, Program
from firefight.errors import InputError

T = TypeVar("T")

#: Runs the resolution on faces so far, the program rolling what it is told to.
Answer = Callable[[list[int], Program | None], Asked[T]]

#: The tip of every ``--dice`` that gave too few faces.
TOO_FEW_TIP = "give every face in transcript order, or use --ask to be asked roll by roll"

HELP = (
    "Type the faces the table rolled for each group (e.g. 4 8). Enter alone: the program rolls "
    "this group; all: the program rolls the rest; back: take back the last group; Ctrl-C: stop, "
    "nothing saved."
)


def require_terminal(instead: str) -> None:
    """Refuse ``--ask`` off a terminal, naming the way to give faces without prompts."""
    if not sys.stdin.isatty():
        raise InputError(
            "--ask asks for each roll at a terminal, and the input here is not one",
            tip=f"give the table's faces with {instead}",
        )


class Stopped(Exception):
    """Ctrl-C or Ctrl-D at a prompt: nothing is saved."""


def ask_at_terminal(answer: Answer[T], people: People) -> Asked[T]:
    """Ask group by group until the resolution is complete; :class:`Stopped` on Ctrl-C."""
    print(HELP)
    asked = answer([], None)
    while asked.next is not None:
        group = asked.next
        try:
            text = read_answer(f"{group_words(group, people)} > ")
        except (KeyboardInterrupt, EOFError):
            print()
            raise Stopped from None
        word = text.strip().lower()
        before = len(asked.faces)
        if word in ("", "all"):
            asked = answer(list(asked.faces), "rest" if word else "group")
            rolled = ", ".join(str(f) for f in asked.faces[before:])
            print(f"  the program rolled {rolled}")
        elif word == "back":
            if not asked.answered:
                print("  nothing to take back yet")
                continue
            last, taken = asked.answered[-1]
            asked = answer(asked.without_last(), None)
            print(f"  took back {', '.join(map(str, taken))} ({last.why})")
        else:
            typed = typed_faces(text, group)
            if isinstance(typed, str):
                print(f"  {typed}")
                continue
            asked = answer([*asked.faces, *typed], None)
    return asked


def ask_or_stop(answer: Answer[T], people: People) -> Asked[T]:
    """:func:`ask_at_terminal`; Ctrl-C or Ctrl-D at a prompt ends the command (exit 130) with
    nothing resolved or saved."""
    try:
        return ask_at_terminal(answer, people)
    except Stopped:
        print("stopped: nothing saved", file=sys.stderr)
        raise SystemExit(130) from None


def read_answer(prompt: str) -> str:
    """One line typed at the terminal after ``prompt``.

    Not ``input()``: numpy's worker threads may be the ones the kernel hands Ctrl-C's SIGINT to,
    and then the main thread's blocking read would never wake. Waiting in short ``select``
    slices lets Python see the interrupt between them (POSIX; elsewhere ``input()``)."""
    if os.name == "nt":  # pragma: no cover - no select on a console there
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    fd = sys.stdin.fileno()
    while True:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            # a terminal in line mode hands over one typed line per read
            data = os.read(fd, 4096)
            if not data:
                raise EOFError
            return data.decode(errors="replace").rstrip("\r\n")


def typed_faces(text: str, group: Group) -> list[int] | str:
    """The faces typed for ``group``, or one line saying what to type instead."""
    want = f"type {group.count} face{'s' if group.count > 1 else ''} of a d{group.sides}"
    parts = text.replace(",", " ").split()
    if not all(p.isascii() and p.isdigit() and len(p) <= 6 for p in parts):
        return f"{want} as digits, e.g. {' '.join(['4'] * group.count)}"
    faces = [int(p) for p in parts]
    if len(faces) != group.count:
        return f"{want}: {len(faces)} given"
    wrong = [f for f in faces if not 1 <= f <= group.sides]
    if wrong:
        return f"a d{group.sides} shows 1 to {group.sides}, not {wrong[0]}; {want}"
    return faces


def print_asked(asked: Asked[Any], people: People, lines: tuple[str, ...], as_json: bool) -> None:
    """``encounter dice``: the next group the step needs, or that it is complete."""
    if as_json:
        from firefight.cli.output import print_json

        print_json(asked_json(asked, people, lines))
        return
    so_far = ",".join(map(str, asked.faces)) or "none"
    if asked.next is None:
        print(f"complete on faces {so_far}:")
        for line in lines:
            print(f"    {line}")
        return
    group = asked.next
    print(f"next (faces so far: {so_far}): {group_words(group, people)}")
    who = people.who_rolls(group.why)
    by = f"{who} rolls " if who else ""
    first, last = group.start + 1, group.start + group.count
    where = f"face {first}" if first == last else f"faces {first}-{last}"
    print(f"  {by}{group.dice} ({group.kind}): {where} of the step")
