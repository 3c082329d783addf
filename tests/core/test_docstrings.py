"""Every public member of the ``dice`` and ``core`` modules says in a docstring what it is for.

Public members are the module itself and the classes and functions it defines without a leading
underscore, with their public methods and properties. A method that overrides a documented one
(a node's ``children``) inherits its docstring, as ``help()`` shows it. Constants and type aliases
are documented with ``#:`` comments, which no test can read, so they are left out.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

import firefight.core
import firefight.dice

MODULES = sorted(
    [firefight.dice.__name__, firefight.core.__name__]
    + [
        f"{pkg.__name__}.{info.name}"
        for pkg in (firefight.dice, firefight.core)
        for info in pkgutil.iter_modules(pkg.__path__)
    ]
)


def _has_doc(obj: Any) -> bool:
    doc = getattr(obj, "__doc__", None)
    return isinstance(doc, str) and bool(doc.strip())


def _class_doc(cls: type) -> bool:
    """The class's own docstring; a dataclass's generated signature ``Name(field, ...)`` is none."""
    doc = cls.__dict__.get("__doc__")
    return _has_doc(cls) and isinstance(doc, str) and not doc.startswith(f"{cls.__name__}(")


def _member_doc(cls: type, name: str) -> bool:
    """The member's docstring, or that of the first class up the MRO that documents it."""
    for klass in cls.__mro__:
        value = klass.__dict__.get(name)
        if value is None:
            continue
        if isinstance(value, (classmethod, staticmethod)):
            value = value.__func__
        if _has_doc(value):
            return True
    return False


def _is_member(value: Any) -> bool:
    return isinstance(value, (property, classmethod, staticmethod)) or inspect.isfunction(value)


def _public(module: ModuleType) -> Iterator[str]:
    """The qualified names of the module's public members that lack a docstring."""
    if not _has_doc(module):
        yield "(module docstring)"
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isclass(obj):
            if not _class_doc(obj):
                yield name
            for attr, value in vars(obj).items():
                if not attr.startswith("_") and _is_member(value) and not _member_doc(obj, attr):
                    yield f"{name}.{attr}"
        elif callable(obj) and not hasattr(obj, "__origin__") and not _has_doc(obj):
            yield name  # (an alias such as Ruleset[Any, Any] is callable but has no doc of its own)


@pytest.mark.parametrize("name", MODULES)
def test_public_members_have_docstrings(name: str) -> None:
    missing = list(_public(importlib.import_module(name)))
    assert missing == [], f"{name}: no docstring on {', '.join(missing)}"


def test_the_walk_finds_what_it_should() -> None:
    """The walk sees methods, properties and functions, a dataclass's own docstring, and lets an
    override inherit a docstring (and only a docstring) from the class it overrides."""
    source = (
        "from dataclasses import dataclass\n"
        "@dataclass\n"
        "class Bare:\n"
        "    x: int\n"
        "    def method(self): pass\n"
        "    @property\n"
        "    def prop(self): return 1\n"
        "    @classmethod\n"
        "    def make(cls): pass\n"
        "    def _private(self): pass\n"
        "class Child(Bare):\n"
        "    'Documented.'\n"
        "    def method(self): pass\n"
        "    def run(self):\n"
        "        'Documented.'\n"
        "class Grandchild(Child):\n"
        "    'Documented.'\n"
        "    def run(self): pass\n"
        "def function(): pass\n"
        "def _private(): pass\n"
    )
    module = ModuleType("fake")
    exec(compile(source, "fake", "exec", dont_inherit=True), module.__dict__)
    assert sorted(_public(module)) == [
        "(module docstring)",
        "Bare",
        "Bare.make",
        "Bare.method",
        "Bare.prop",
        "Child.method",
        "function",
    ]
