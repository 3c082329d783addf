"""Rolled tree -> text a person can check against the dice on the table.

``2d20[4, 8]``; dropped dice in ``~tildes~``; a die that rolled its top face and rolled again is
marked ``!``; subtracted faces carry a minus; a CP2020 natural 1 that does not count is ``(1)``.
"""

from __future__ import annotations

from typing import Any

from firefight.dice.nodes import Abs, Add, Mul, Neg, Sub
from firefight.dice.rolling import Face, Rolled


def face_text(face: Face) -> str:
    """One die as a person reads it: ``7``, ``-7``, ``10!`` (exploded), ``~3~`` (dropped)."""
    text = str(face.face)
    if face.note == "replaced":
        return f"({text})"
    if face.sign < 0:
        text = f"-{text}"
    if face.note == "explodes":
        text += "!"
    if not face.kept:
        text = f"~{text}~"
    return text


def render_rolled(rolled: Rolled) -> str:
    """The expression with each die group's faces in brackets."""
    node = rolled.node
    if isinstance(node, (Add, Sub)):
        left, right = (render_rolled(c) for c in rolled.children)
        op = "+" if isinstance(node, Add) else "-"
        if isinstance(node, Sub) and isinstance(rolled.children[1].node, (Add, Sub)):
            right = f"({right})"
        return f"{left} {op} {right}"
    if isinstance(node, Neg):
        return f"-{render_rolled(rolled.children[0])}"
    if isinstance(node, Mul):
        return f"({render_rolled(rolled.children[0])}) * {node.factor}"
    if isinstance(node, Abs):
        return f"abs({render_rolled(rolled.children[0])})"
    if not rolled.faces:
        return str(node)
    return f"{node}[{', '.join(face_text(f) for f in rolled.faces)}]"


def render_line(rolled: Rolled) -> str:
    """``expr -> total``, with tags such as ``double six`` after it."""
    tags = f"  ({', '.join(sorted(rolled.tags))})" if rolled.tags else ""
    return f"{render_rolled(rolled)} = {_value_text(rolled.value)}{tags}"


def _value_text(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(str(v) for v in value) + ")"
    return str(value)


def rolled_json(rolled: Rolled) -> dict[str, Any]:
    """A JSON-ready record: value, tags and every die."""
    return {
        "expr": str(rolled.node),
        "value": list(rolled.value) if isinstance(rolled.value, tuple) else rolled.value,
        "tags": sorted(rolled.tags),
        "dice": [
            {
                "sides": f.sides,
                "face": f.face,
                "kept": f.kept and f.note != "replaced",
                "sign": f.sign,
                "note": f.note,
            }
            for f in rolled.all_faces()
        ],
    }
