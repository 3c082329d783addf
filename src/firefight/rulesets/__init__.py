"""The registry of rulesets: found through the entry-point group ``firefight.rulesets``.

A ruleset package declares, in its ``pyproject.toml``::

    [project.entry-points."firefight.rulesets"]
    risk = "firefight_risk:RULESET"

The entry point's name is the ruleset's id; its object is an instance of
:class:`firefight.api.Ruleset`. firefight's five rulesets are registered the same way in
firefight's own ``pyproject.toml`` (:data:`BUILT_IN` holds the same table, for a source tree run
without installed metadata; a test holds the two equal).

Nothing is imported until a ruleset is asked for: the group is read (a few milliseconds, once a
process) and only the module named is imported. A plugin that fails to import, or whose object
breaks the protocol (:func:`firefight.core.ruleset.protocol_problems`), costs one line: the
command naming it gets that line (:class:`PluginError`, exit 2), ``firefight rulesets`` lists it
with the reason, and every other ruleset keeps working. :data:`REGISTRY` adds rulesets for this
process only (tests, notebooks), over what is installed.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from firefight.core.ruleset import RULESET_ID, AnyRuleset, protocol_problems
from firefight.errors import InputError, UnknownNameError

#: The entry-point group a ruleset package registers under.
GROUP = "firefight.rulesets"

#: firefight's own rulesets, as its ``pyproject.toml`` registers them.
BUILT_IN: dict[str, str] = {
    "warfare2d20": "firefight.rulesets.warfare2d20:RULESET",
    "dragonwarriors2": "firefight.rulesets.dragonwarriors2:RULESET",
    "graydawn": "firefight.rulesets.graydawn:RULESET",
    "tactical_d20": "firefight.rulesets.tactical_d20:RULESET",
    "quality_d100": "firefight.rulesets.quality_d100:RULESET",
}

#: Rulesets registered in this process (id -> ``"module"`` or ``"module:attribute"``; a bare
#: module means its ``RULESET``), over the installed ones: for tests and notebooks.
REGISTRY: dict[str, str] = {}


class PluginError(InputError):
    """A ruleset that is installed but cannot be used: it fails to import, breaks the protocol,
    or shares its id with another."""


@dataclass(frozen=True)
class Entry:
    """One registered ruleset, before it is imported."""

    id: str
    #: ``"module:attribute"``.
    target: str
    #: The distribution that registers it (``None``: registered in this process).
    distribution: str | None = None
    #: That distribution's version.
    distribution_version: str | None = None
    #: Why it cannot be used before importing anything (an id taken twice, a bad id).
    conflict: str | None = None

    @property
    def builtin(self) -> bool:
        """One of firefight's own rulesets."""
        return self.distribution == "firefight" and self.id in BUILT_IN

    @property
    def origin(self) -> str:
        """Where it comes from, for people: ``built in``, ``firefight-risk 0.1.0``, ..."""
        if self.builtin:
            return "built in"
        if self.distribution is None:
            return f"registered in this process ({self.target})"
        return f"{self.distribution} {self.distribution_version or ''}".strip()


@dataclass(frozen=True)
class Listed:
    """A registered ruleset after trying to load it: the ruleset, or why it cannot be used."""

    entry: Entry
    ruleset: AnyRuleset | None
    error: PluginError | None

    @property
    def version(self) -> str:
        """The ruleset's own version, else its distribution's; ``?`` when neither is known."""
        own = getattr(self.ruleset, "version", None) if self.ruleset is not None else None
        return str(own or self.entry.distribution_version or "?")

    def to_json(self) -> dict[str, Any]:
        """``firefight rulesets --json``'s row: id, title, version, origin, whether it runs
        whole fights, and the one line saying why it cannot be used (or None)."""
        usable = self.ruleset
        return {
            "id": self.entry.id,
            "title": usable.title if usable is not None else None,
            "version": self.version,
            "origin": self.entry.origin,
            "fights": usable.runs_encounters if usable is not None else None,
            "error": self.error.one_line() if self.error is not None else None,
        }


# ------------------------------------------------------------------------------- discovery

_INSTALLED: dict[str, Entry] | None = None
_LOADED: dict[str, AnyRuleset | PluginError] = {}


def installed() -> dict[str, Entry]:
    """The rulesets the installed distributions register (read once a process), with
    firefight's own filled in from :data:`BUILT_IN` where its metadata does not list them."""
    global _INSTALLED
    if _INSTALLED is None:
        _INSTALLED = _scan()
    return _INSTALLED


def forget() -> None:
    """Read the installed entry points again on next use, and import rulesets afresh (after
    installing a plugin in a running process, and in tests)."""
    global _INSTALLED
    _INSTALLED = None
    _LOADED.clear()


def _scan() -> dict[str, Entry]:
    from importlib.metadata import entry_points

    from firefight import __version__

    claims: dict[str, list[Entry]] = {}
    seen: set[tuple[str, str, str | None]] = set()
    for ep in entry_points(group=GROUP):
        dist = ep.dist
        name = dist.metadata["Name"] if dist is not None else None
        key = (ep.name, ep.value, name)
        if key in seen:  # one distribution found twice on the path (an editable install)
            continue
        seen.add(key)
        version = dist.version if dist is not None else None
        claims.setdefault(ep.name, []).append(Entry(ep.name, ep.value, name, version))
    for rid, target in BUILT_IN.items():
        if not any(e.builtin for e in claims.get(rid, [])):
            claims.setdefault(rid, []).insert(0, Entry(rid, target, "firefight", __version__))
    out: dict[str, Entry] = {}
    for rid, found in claims.items():
        out[rid] = _settle(rid, found)
    return out


def _settle(rid: str, found: list[Entry]) -> Entry:
    """One entry per id: a built-in keeps its id (a plugin claiming it is refused), two plugins
    claiming one id are both refused."""
    first = found[0]
    if not RULESET_ID.fullmatch(rid):
        return _conflict(
            first, f"its id {rid!r} is not lower-case letters, digits and _ (at most 40)"
        )
    builtin = next((e for e in found if e.builtin), None)
    others = [e for e in found if e is not builtin]
    if builtin is not None:
        return builtin
    if len(others) > 1:
        names = " and ".join(e.origin for e in others)
        return _conflict(first, f"the id {rid!r} is registered twice, by {names}")
    return first


def _conflict(entry: Entry, why: str) -> Entry:
    return Entry(entry.id, entry.target, entry.distribution, entry.distribution_version, why)


def entries() -> dict[str, Entry]:
    """Every registered ruleset by id: the installed ones, then :data:`REGISTRY`'s (which
    replace an installed one of the same id in this process)."""
    out = dict(installed())
    for rid, target in REGISTRY.items():
        out[rid] = Entry(rid, target if ":" in target else f"{target}:RULESET")
    return out


def shadowed() -> list[Entry]:
    """Installed plugins refused because a built-in ruleset has their id (listed, not used)."""
    from importlib.metadata import entry_points

    out = []
    for ep in entry_points(group=GROUP):
        dist = ep.dist
        name = dist.metadata["Name"] if dist is not None else None
        if ep.name in BUILT_IN and name != "firefight":
            version = dist.version if dist is not None else None
            out.append(
                _conflict(
                    Entry(ep.name, ep.value, name, version),
                    f"the id {ep.name!r} is firefight's built-in ruleset",
                )
            )
    return out


def available() -> list[str]:
    """The ids of every registered ruleset (the built-in ones first, in :data:`BUILT_IN`'s
    order, then by id), nothing imported."""
    order = list(BUILT_IN)
    found = entries()
    return sorted(found, key=lambda rid: (order.index(rid) if rid in order else len(order), rid))


# ----------------------------------------------------------------------------------- loading


def load(entry: Entry) -> AnyRuleset:
    """The ruleset an entry names, imported and checked once a process; a
    :class:`PluginError` naming the plugin and the reason if it cannot be used."""
    found = _LOADED.get(entry.target) if entry.conflict is None else None
    if found is None:
        found = _import(entry)
        if entry.conflict is None:
            _LOADED[entry.target] = found
    if isinstance(found, PluginError):
        raise found
    return found


def _import(entry: Entry) -> AnyRuleset | PluginError:
    who = f"ruleset {entry.id!r} ({entry.origin})"
    tip = (
        "fix or reinstall the plugin, or remove it: pip uninstall " + entry.distribution
        if entry.distribution is not None and not entry.builtin
        else "fix the module it names"
    )
    if entry.conflict is not None:
        return PluginError(f"{who} cannot be used: {entry.conflict}", tip=tip)
    module_name, _, attribute = entry.target.partition(":")
    try:
        obj: object = importlib.import_module(module_name)
        for part in (attribute or "RULESET").split("."):
            obj = getattr(obj, part)
    except Exception as err:  # a plugin's import may raise anything: contain it in one line
        reason = " ".join(f"{type(err).__name__}: {err}".split())
        return PluginError(f"{who} fails to import {entry.target}: {reason}", tip=tip)
    problems = protocol_problems(obj, entry.id)
    if problems:
        return PluginError(f"{who} breaks the ruleset protocol: {'; '.join(problems)}", tip=tip)
    return cast(AnyRuleset, obj)


def get_ruleset(ruleset_id: str) -> AnyRuleset:
    """The ruleset registered under ``ruleset_id``, exactly (a near miss in case or spaces is
    suggested, never taken)."""
    found = entries()
    if ruleset_id not in found:
        near = str(ruleset_id).strip().lower()
        hint = f"did you mean {near!r}? " if near in found else ""
        raise UnknownNameError(
            f"unknown ruleset {ruleset_id!r}",
            tip=f"{hint}choose one of: {', '.join(available())}",
        )
    return load(found[ruleset_id])


def listing() -> Iterator[Listed]:
    """Every registered ruleset loaded (or the reason it cannot be), then the plugins refused
    for taking a built-in id: what ``firefight rulesets`` shows."""
    found = entries()
    for rid in available():
        entry = found[rid]
        try:
            yield Listed(entry, load(entry), None)
        except PluginError as err:
            yield Listed(entry, None, err)
    for entry in shadowed():
        yield Listed(entry, None, _as_error(entry))


def _as_error(entry: Entry) -> PluginError:
    try:
        load(entry)
    except PluginError as err:  # a conflict always is one
        return err
    raise AssertionError(f"{entry.id}: a conflict loaded")  # pragma: no cover


def is_scenario(data: Mapping[str, Any]) -> bool:
    """Whether TOML data is a scenario (``fight``, ``simulate``, ``encounter``): a scenario
    names its ruleset, a situation (``attack``, ``odds``) never does."""
    return "ruleset" in data


def rulesets_loading(data: Mapping[str, Any], source: str, but: str = "") -> list[tuple[str, str]]:
    """The rulesets (other than ``but``) whose situation files ``data`` is valid as, each with
    the command that resolves it: asked only once a file is refused, to say "this is a
    warfare2d20 file"."""
    found: list[tuple[str, str]] = []
    for rid in available():
        if rid == but:
            continue
        try:
            ruleset = get_ruleset(rid)
        except PluginError:  # a broken plugin is no candidate: its line is in `rulesets`
            continue
        try:
            situation = ruleset.load_situation(data, source=source, house=ruleset.house_model())
        except Exception:  # a probe: any refusal means "not this ruleset's file"
            continue
        found.append((rid, ruleset.kind(situation).command))
    return found
