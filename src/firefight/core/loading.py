"""Validated loading at the edge: TOML files, ``--set PATH=VALUE`` overrides (:mod:`.paths`),
pydantic models.

Every failure becomes one :class:`~firefight.errors.InputError` line naming the file, the field
and the fix; a bad file never reaches rule code.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from firefight.core.paths import apply_overrides, parse_override
from firefight.core.validation import clip, clip_path, field_path, validate
from firefight.errors import InputError

__all__ = [
    "apply_overrides",
    "field_path",
    "load_model",
    "parse_override",
    "parse_toml_text",
    "read_toml",
    "validate",
]

M = TypeVar("M", bound=BaseModel)


#: Largest TOML file read: far above any situation, catalog or house file.
MAX_FILE_BYTES = 1_000_000


def read_toml(path: str | Path) -> dict[str, Any]:
    """Read a TOML file, or raise one clear line (missing file, not a regular file, too large,
    not UTF-8, bad syntax, nested too deeply). A UTF-8 byte-order mark is accepted."""
    p = Path(path)
    name = clip_path(p)
    try:
        if not p.exists():
            raise InputError(f"{name}: no such file", tip="check the path")
        if p.is_dir():
            raise InputError(f"{name}: is a folder, not a TOML file", tip="give a .toml file")
        if not p.is_file():
            raise InputError(
                f"{name}: is not a regular file (a device or pipe)", tip="give a .toml file"
            )
        with p.open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise InputError(
            f"{name}: cannot be read ({err.strerror or type(err).__name__})",
            tip="check the path and its permissions",
        ) from None
    if len(raw) > MAX_FILE_BYTES:
        raise InputError(
            f"{name}: is larger than {MAX_FILE_BYTES:,} bytes", tip="split it into smaller files"
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{name}: is not UTF-8 text", tip="save it as UTF-8") from None
    return parse_toml_text(text, name)


def parse_toml_text(text: str, name: str) -> dict[str, Any]:
    """TOML text (a file's, or sent to the tracker), or one line naming ``name``: bad syntax,
    nesting too deep, or a whole number too long to read."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(
            f"{name}: malformed TOML: {clip(err, 120)}", tip="fix the syntax on that line"
        ) from None
    except RecursionError:
        raise InputError(
            f"{name}: malformed TOML: arrays or tables nest too deeply",
            tip="flatten the nesting (a few levels are enough for any firefight file)",
        ) from None
    except ValueError:  # a whole number of thousands of digits: Python will not convert it
        raise InputError(
            f"{name}: a number has too many digits",
            tip="numbers go from -1,000,000 to 1,000,000",
        ) from None


def load_model(model: type[M], path: str | Path, overrides: Sequence[str] = ()) -> M:
    """Read, override and validate in one step."""
    data = apply_overrides(read_toml(path), overrides)
    return validate(model, data, str(path))
