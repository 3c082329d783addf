"""Faces the table rolled by hand, typed as text: parsed once, the same way everywhere.

The CLI's ``--dice 4,8,11,4`` and the web tracker's typed faces both come through
:func:`parse_faces`, so a face that is not a whole number is refused with the same line, naming
the field it came from.
"""

from __future__ import annotations

import re

from firefight.errors import InputError

#: Most faces one resolution takes (far more than any resolution rolls).
MAX_FACES = 10_000

_WHOLE = re.compile(r"[+-]?[0-9]+")


def parse_faces(text: str, field: str = "--dice") -> list[int]:
    """``"4,8, 11 4"`` -> [4, 8, 11, 4]; one clear line if a face is not a whole number (ASCII
    digits only: ``int()`` would quietly read other scripts' digits)."""
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise InputError(f"{field} is empty", tip=f"give the faces rolled, e.g. {field} 4,8,11,4")
    if len(parts) > MAX_FACES:
        raise InputError(
            f"{field} has {len(parts):,} faces, more than {MAX_FACES:,}",
            tip="give the faces of one resolution only",
        )
    faces = []
    for i, part in enumerate(parts, start=1):
        if not _WHOLE.fullmatch(part) or len(part) > 6:
            raise InputError(
                f"{field} face {i} is {_short(part)!r}, not a face of a die",
                tip=f"write the faces as digits 0-9, e.g. {field} 4,8,11,4",
            )
        faces.append(int(part))
    return faces


def _short(part: str, limit: int = 24) -> str:
    return part if len(part) <= limit else part[: limit - 3] + "..."
