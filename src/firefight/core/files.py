"""Files written whole or not at all: what the user saved is never lost or half-written."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from firefight.errors import InputError


def write_atomically(path: str | Path, write: Callable[[Path], None]) -> Path:
    """Write via a temporary file in the same folder, fsync it, then ``os.replace``: an existing
    file is never left half-written, even if writing fails or the machine stops mid-way."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"{target}: folder {folder} does not exist", tip="create it first")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix, dir=folder)
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
        tmp.replace(target)
    except OSError as err:
        raise InputError(
            f"{target}: cannot write ({err.strerror})", tip="check the path and free space"
        ) from None
    finally:
        if tmp.exists():
            tmp.unlink()
    return target


def write_text_atomically(path: str | Path, text: str) -> Path:
    """:func:`write_atomically` for a text file (UTF-8)."""

    def write(tmp: Path) -> None:
        tmp.write_text(text, encoding="utf-8")

    return write_atomically(path, write)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
