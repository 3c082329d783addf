"""Validated loading at the edge: TOML files, ``--set key=value`` overrides, pydantic models.

Every failure becomes one :class:`~firefight.errors.InputError` line naming the file, the field
and the fix; a bad file never reaches rule code.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from firefight.errors import InputError

M = TypeVar("M", bound=BaseModel)


def read_toml(path: str | Path) -> dict[str, Any]:
    """Read a TOML file, or raise one clear line (missing file, not TOML, bad syntax)."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file", tip="check the path")
    if p.is_dir():
        raise InputError(f"{p}: is a folder, not a TOML file")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"{p}: cannot be read ({type(err).__name__})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"{p}: malformed TOML: {err}", tip="fix the syntax on that line") from None


def field_path(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def validate(model: type[M], data: Mapping[str, Any], source: str = "input") -> M:
    """Validate ``data`` against ``model``; the first error becomes one line with its field."""
    try:
        return model.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = field_path(first["loc"])
        msg = first["msg"]
        kind = first["type"]
        tip = {
            "missing": f"add {where} to the file",
            "extra_forbidden": f"remove {where} or check its spelling",
            "int_parsing": f"{where} must be a whole number",
            "int_type": f"{where} must be a whole number",
            "literal_error": f"{where}: {msg}",
        }.get(kind)
        more = f" (and {len(err.errors()) - 1} more)" if len(err.errors()) > 1 else ""
        raise InputError(f"{source}: field {where}: {msg}{more}", tip=tip) from None


def parse_override(text: str) -> tuple[list[str], Any]:
    """``a.b=3`` -> (["a", "b"], 3). Values are read as TOML (numbers, booleans, "strings",
    [arrays]); anything that is not valid TOML is taken as a bare string."""
    if "=" not in text:
        raise InputError(f"--set {text!r} has no '='", tip="write --set key=value, e.g. aim=scope")
    key, raw = text.split("=", 1)
    key = key.strip()
    if not key or any(not part for part in key.split(".")):
        raise InputError(f"--set {text!r} has an empty key", tip="write --set section.key=value")
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()
    return key.split("."), value


def apply_overrides(data: dict[str, Any], overrides: Sequence[str]) -> dict[str, Any]:
    """Return a copy of ``data`` with each ``key=value`` set (nested tables created as needed)."""
    import copy

    out = copy.deepcopy(data)
    for text in overrides:
        path, value = parse_override(text)
        node: Any = out
        for part in path[:-1]:
            nxt = node.get(part) if isinstance(node, dict) else None
            if nxt is None:
                nxt = {}
                node[part] = nxt
            if not isinstance(nxt, dict):
                raise InputError(f"--set {text!r}: {part} is not a table", tip="check the key path")
            node = nxt
        if isinstance(node, list):
            raise InputError(f"--set {text!r}: cannot set inside a list")
        node[path[-1]] = value
    return out


def load_model(model: type[M], path: str | Path, overrides: Sequence[str] = ()) -> M:
    """Read, override and validate in one step."""
    data = apply_overrides(read_toml(path), overrides)
    return validate(model, data, str(path))
