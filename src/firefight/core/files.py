"""Files written whole or not at all: what the user saved is never lost or half-written.

A file is written under a temporary name (private, 0600, while it is incomplete) and then given
the mode a plain ``open(path, "w")`` would give it: an existing file's own mode, else 0666 less
the user's umask (0644 under the usual umask 022), before it takes the file's name.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from firefight.errors import InputError


def write_atomically(path: str | Path, write: Callable[[Path], None]) -> Path:
    """Write via a temporary file in the same folder, fsync it, then ``os.replace``: an existing
    file is never left half-written, even if writing fails or the machine stops mid-way."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    check_replaceable(target)
    if not folder.is_dir():
        raise InputError(f"{target}: folder {folder} does not exist", tip="create it first")
    try:
        fd, tmp_name = tempfile.mkstemp(
            prefix=f".{target.name[:100]}.", suffix=target.suffix[:20], dir=folder
        )
    except OSError as err:
        raise InputError(
            f"{target}: cannot write in {folder} ({err.strerror})",
            tip="choose a folder you can write to",
        ) from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        write(tmp)
        _fsync(tmp)
        tmp.chmod(_mode_for(target))
        tmp.replace(target)
    except OSError as err:
        raise InputError(
            f"{target}: cannot write ({err.strerror})", tip="check the path and free space"
        ) from None
    finally:
        if tmp.exists():
            tmp.unlink()
    return target


def check_replaceable(path: str | Path) -> None:
    """Refuse a path a save must not replace: anything that exists and is not a regular file
    (a pipe, a device, a folder: replacing a FIFO or ``/dev/...`` with a file would break
    whatever reads it), or a name the file system cannot hold."""
    target = Path(path)
    try:
        kind = _kind(target)
    except OSError as err:
        from firefight.core.validation import clip_path  # pydantic: only for a refusal

        raise InputError(
            f"{clip_path(target)}: cannot be written ({err.strerror or type(err).__name__})",
            tip="choose a shorter name in a folder that exists",
        ) from None
    if kind is not None:
        from firefight.core.validation import clip_path

        raise InputError(
            f"{clip_path(target)}: is {kind}, not a regular file: firefight replaces only files",
            tip="give the path of a file to write (a new one, or a file it wrote)",
        )


def _kind(path: Path) -> str | None:
    """What ``path`` is when it exists and is not a regular file, else None."""
    if not path.exists():
        return None
    mode = path.stat().st_mode
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a socket or other special file"


def write_text_atomically(path: str | Path, text: str) -> Path:
    """:func:`write_atomically` for a text file (UTF-8)."""

    def write(tmp: Path) -> None:
        tmp.write_text(text, encoding="utf-8")

    return write_atomically(path, write)


def _mode_for(target: Path) -> int:
    """The permission bits ``target`` gets: those it has, else what the umask allows."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return 0o666 & ~umask()


def umask() -> int:
    """The process's umask, read without changing it where the system shows it (Linux);
    elsewhere set and restored at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def source_folder(source: str | None) -> Path | None:
    """The folder of the file ``source`` names, where relative catalog paths start; None when
    it names no file here (a scenario sent to the tracker, a message such as "scenario:
    combatants[0] (...)", a name too long for the file system)."""
    if not source:
        return None
    try:
        path = Path(source)
        return path.parent if path.exists() else None
    except (OSError, ValueError):  # too long a name, a NUL byte
        return None
