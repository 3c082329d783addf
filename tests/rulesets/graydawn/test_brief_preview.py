"""graydawn's brief previews (``preview_act``: a hunkering fighter's wound told by its status
and mortal class with the marks' mean carried apart, levels and re-rolled scores told as the
rest reads them) held to ``act`` itself: the same previews in exact fractions, and a projection
that drops what the rest reads shows."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firefight.core.turns import FightState
from firefight.dice import SeededDice, enumerate_outcomes
from firefight.dice.sources import clear_derived, path_by_path
from firefight.encounter import Engine, Preview, read_scenario
from firefight.rulesets.graydawn import encounter as gd_encounter
from firefight.rulesets.graydawn import encounter_scores, encounter_turn

EXAMPLES = Path(__file__).parents[3] / "examples" / "graydawn" / "encounters"

#: (example, steps played on seeded dice by the first legal action, the declaration previewed):
#: a hunker behind cover after a fumble (duel), a panic's re-rolled score among two (duel) and
#: among five fighters (cover_and_movement), and among seven in an ambush's first round, where
#: the ambushers' bonus sorts them (suppression_panic).
CASES = [
    ("duel", 0, "suppress:Kid Rourke:10"),
    ("duel", 0, "cover_fire:Kid Rourke"),
    ("cover_and_movement", 2, "suppress:Raider Fenn:10"),
    ("cover_and_movement", 2, "suppress:Raider Fenn:20"),
    ("suppression_panic", 5, "suppress:Recruit Abel:10"),
]


def state_after(name: str, steps: int) -> tuple[Engine, FightState]:
    eng = Engine(read_scenario(EXAMPLES / f"{name}.toml"))
    state = eng.start(SeededDice(1))
    for n in range(steps):
        state = eng.step(state, eng.legal_actions(state)[0], SeededDice(n))
    return eng, state


def by_act(eng: Engine) -> Engine:
    """An engine of the same scenario whose previews read ``act`` itself, staged (each stage's
    states merged exactly, nothing told briefly, stood in for or carried apart)."""
    plain = Engine(eng.scenario)
    turns: Any = copy.copy(eng.turns)
    turns.preview_act = turns.act
    turns.preview_stages = lambda s, a: turns._stages(s, a) if s.phase == "declare" else None
    turns.preview_stand_in = lambda s: None
    turns.preview_carry = lambda s: None
    plain.turns = turns
    return plain


def preview(eng: Engine, name: str, steps: int, action_id: str) -> Preview:
    _, state = state_after(name, steps)
    found = eng.preview(state, eng.find_action(state, action_id))
    assert found.exact
    return found


@contextmanager
def counting(monkeypatch: pytest.MonkeyPatch, fn_name: str, module: Any) -> Iterator[list[int]]:
    """Count the calls of ``module.fn_name`` within."""
    calls: list[int] = []
    inner = getattr(module, fn_name)

    def counted(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        return inner(*args, **kw)

    monkeypatch.setattr(module, fn_name, counted)
    yield calls


@pytest.mark.parametrize(("name", "steps", "action_id"), CASES)
def test_brief_previews_are_act_previews(
    name: str, steps: int, action_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every part told briefly previews what ``act`` does, in exact fractions."""
    eng, _ = state_after(name, steps)
    with (
        counting(monkeypatch, "fire_briefly", encounter_turn) as fired,
        counting(monkeypatch, "defer", encounter_scores) as rerolled,
    ):
        brief = preview(eng, name, steps, action_id)
    assert fired or rerolled  # a hunkering fighter or a panic's score was told briefly
    assert brief == preview(by_act(eng), name, steps, action_id)


def test_the_brief_parts_merge() -> None:
    """The brief preview carries fewer states than ``act``'s, and harm carried apart."""
    eng, state = state_after("duel", 0)
    action = eng.find_action(state, "suppress:Kid Rourke:10")
    brief = eng._staged(state, action, eng.turns.preview_stages(state, action) or ())
    turns: Any = eng.turns
    full = by_act(eng)._staged(state, action, turns._stages(state, action))
    assert len(brief) < len(full) / 3
    assert any(apart for (_, _, apart), _ in brief.items())
    assert not any(apart for (_, _, apart), _ in full.items())


BROKEN: list[tuple[str, str, Any, str]] = [
    # the marks' mean dropped: the expected harm falls short
    ("duel", "suppress:Kid Rourke:10", encounter_turn, "_carrying"),
    # the status dropped: nobody goes out of the fight
    ("duel", "suppress:Kid Rourke:10", encounter_turn, "told_wound"),
    # a re-rolled score told above every other: the order after a panic is lost
    ("cover_and_movement", "suppress:Raider Fenn:10", encounter_scores, "order_alike"),
]


def _broken(module: Any, fn_name: str) -> Callable[..., Any]:
    inner = getattr(module, fn_name)
    if fn_name == "_carrying":
        return lambda short, marks: inner(short, short.marks)
    if fn_name == "told_wound":
        return lambda house, before, status, marks: inner(house, before, before.status, marks)
    if fn_name == "order_alike":
        return lambda news, bonuses, fixed: tuple(max(fixed, default=n) + 1 for n in news)
    return lambda f, house: (f.levels > 0, 0)


@pytest.mark.parametrize(("name", "action_id", "module", "fn_name"), BROKEN)
def test_a_broken_brief_part_shows(
    name: str, action_id: str, module: Any, fn_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each part told briefly, broken where the rest reads it, previews otherwise than ``act``
    (so the comparison above can fail)."""
    steps = 2 if name == "cover_and_movement" else 0
    eng, _ = state_after(name, steps)
    honest = preview(by_act(eng), name, steps, action_id)
    clear_derived()  # kept sub-rules told briefly by the honest parts must not serve the broken
    monkeypatch.setattr(module, fn_name, _broken(module, fn_name))
    try:
        assert preview(Engine(eng.scenario), name, steps, action_id) != honest
    finally:
        clear_derived()


def test_harm_carried_apart_is_added_back() -> None:
    """A preview's expected harm counts the means carried apart: without them it falls short
    by exactly their weighted sum."""
    eng, state = state_after("duel", 0)
    action = eng.find_action(state, "suppress:Kid Rourke:10")
    people = eng._staged(state, action, eng.turns.preview_stages(state, action) or ())
    carried = sum(
        (w * mean for (_, _, apart), w in people.items() for _, mean in apart), Fraction(0)
    )
    assert carried > 0
    found = eng.preview(state, action)
    before = state.combatant("Kid Rourke").marks
    bare = sum(
        (
            w * (people_[1].marks - before)
            for (people_, _, _), w in people.items()
            if people_[1].marks != before
        ),
        Fraction(0),
    )
    assert found.harm["Kid Rourke"] == (bare + carried) / people.total


#: A suppressed recruit's automatic turns (suppression_panic, Loader's SMG fire at him):
#: a lost action in the open (hunkering at the levels' penalty, G12) and behind cover, a panic
#: in the open (hunkering, G15) and behind cover (fleeing through automatic fire, G11/G15).
TURNS = [
    {"lost_action": True, "check": "fumble"},
    {"lost_action": True, "check": "fumble", "cover_m": 0, "stance": "active_cover"},
    {"panicked": True, "check": "panic"},
    {"panicked": True, "check": "panic", "cover_m": 0, "stance": "active_cover"},
]


def turn_state(fields: dict[str, Any]) -> tuple[Any, FightState]:
    """Recruit Abel about to take his automatic turn under 6 levels, the others done."""
    eng, state = state_after("suppression_panic", 5)
    people = []
    for f in state.combatants:
        if f.name == "Recruit Abel":
            f = encounter_turn.evolve(f, levels=6, fired_at=10, **fields)
        else:
            f = encounter_turn.evolve(f, acted=True)
        people.append(f)
    state = encounter_turn.evolve(state, combatants=tuple(people), phase="turns", acting=None)
    return eng.turns, state


def readings(turns: Any, state: FightState, brief: bool) -> dict[Any, tuple[Fraction, Fraction]]:
    """Abel's turn as the rest of a round reads it: the chance of each (status, mortal class,
    everything but the wound's detail and luck) and the mean marks there."""
    found = enumerate_outcomes(lambda d: turns._turn(state, "Recruit Abel", d, brief))
    out: dict[Any, list[Fraction]] = {}
    for after, w in found.items():
        f = after.combatant("Recruit Abel")
        marks = f.marks + getattr(f, "carried", 0)
        key = (
            f.status,
            encounter_turn._marks_read(f.marks, turns.house),
            f.stance,
            f.cover_m,
            f.moves,
            f.panicked,
            f.acted,
            f.levels,
            after.board,
        )
        slot = out.setdefault(key, [Fraction(0), Fraction(0)])
        slot[0] += Fraction(w, found.total)
        slot[1] += Fraction(w, found.total) * marks
    return {k: (p, m / p) for k, (p, m) in out.items()}


@pytest.mark.parametrize("fields", TURNS)
def test_a_brief_turn_reads_as_the_turn(fields: dict[str, Any]) -> None:
    """Told briefly (``fire_briefly``), a fighter's automatic turn leaves the same chances of
    all the rest of the round reads, and the same mean marks in each."""
    turns, state = turn_state(fields)
    full = readings(turns, state, brief=False)
    assert len(full) > 1
    assert readings(turns, state, brief=True) == full


@pytest.mark.parametrize("fn_name", ["_carrying", "told_wound"])
def test_a_broken_brief_turn_shows(fn_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A brief wound without its marks' mean, or without its status, reads otherwise."""
    turns, state = turn_state(TURNS[0])
    full = readings(turns, state, brief=False)
    clear_derived()
    monkeypatch.setattr(encounter_turn, fn_name, _broken(encounter_turn, fn_name))
    try:
        assert readings(turns, state, brief=True) != full
    finally:
        clear_derived()


def test_levels_stood_in_for_play_as_the_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fighter's levels stood in for (``preview_stand_in``) give its turn exactly the
    outcomes its own levels give (its turn's end lifts them); a stand-in blind to the penalty
    does not."""
    stood = 0
    for fields in TURNS:
        turns, state = turn_state(fields)
        stand_in = turns.preview_stand_in(state)
        own = enumerate_outcomes(lambda d, t=turns, s=state: t._turn(s, "Recruit Abel", d))
        if stand_in is None:
            continue
        stood += 1
        assert stand_in.combatant("Recruit Abel").levels < 6
        moved = enumerate_outcomes(lambda d, t=turns, s=stand_in: t._turn(s, "Recruit Abel", d))
        assert dict(moved.items()) == dict(own.items()) and moved.total == own.total
    assert stood >= 1
    monkeypatch.setattr(gd_encounter, "_levels_read", _broken(gd_encounter, "_levels_read"))
    turns, state = turn_state(TURNS[0])  # hunkering in the open: the penalty is read
    stand_in = turns.preview_stand_in(state)
    assert stand_in is not None
    own = enumerate_outcomes(lambda d: turns._turn(state, "Recruit Abel", d))
    moved = enumerate_outcomes(lambda d: turns._turn(stand_in, "Recruit Abel", d))
    assert dict(moved.items()) != dict(own.items())


#: A hunkering recruit's wound tables (suppression_panic, Loader's SMG): unhurt, and wounded
#: with stun marks on the track (real marks overwrite them, G21) and already stunned.
WOUNDED = [
    ({}, 1),
    ({}, 6),
    ({"minor": 1, "wounding": 6, "stun_marks": 3}, 4),
    ({"wounding": 9, "status": "stunned"}, 2),
]


def _wound_rows(fields: dict[str, Any], hits: int, turned: Any = None) -> tuple[Any, Any]:
    """One hit count's wound told briefly: from its table and path by path (the wound
    :func:`.encounter_turn._hits_taken` makes, told by :func:`.encounter_turn.brief_wound`),
    each as {stand-in: (chance, mean marks)}; ``turned``: the turns and state to use."""
    turns, state = turned or turn_state({**TURNS[0], **fields})
    f = state.combatant("Recruit Abel")
    args = encounter_turn._hits_args(turns, state, f, hits, True)
    core = args[1]
    clear_derived()
    total, rows = encounter_turn._brief_wounds(args)
    table = {s: (Fraction(w, total), Fraction(m, w)) for s, w, m in rows}
    clear_derived()
    with path_by_path():
        paths = enumerate_outcomes(
            lambda d: encounter_turn.brief_wound(
                turns.house, core, encounter_turn._hits_taken(*args, d)
            )
        )
    clear_derived()
    sums: dict[Any, list[Fraction]] = {}
    for (short, marks), w in paths.items():
        slot = sums.setdefault(short, [Fraction(0), Fraction(0)])
        slot[0] += Fraction(w, paths.total)
        slot[1] += Fraction(w, paths.total) * marks
    return table, {s: (p, m / p) for s, (p, m) in sums.items()}


@pytest.mark.parametrize(("fields", "hits"), WOUNDED)
def test_a_brief_wound_table_is_the_wound_path_by_path(fields: dict[str, Any], hits: int) -> None:
    """A hit count's wound told briefly, built from the hits' table as the status and marks
    read it (``_brief_wounds``), gives each stand-in the chance and mean marks the wound
    enumerated path by path and told one path at a time gives, in exact fractions."""
    table, paths = _wound_rows(fields, hits)
    assert len(paths) > 1
    assert table == paths


def test_brief_wound_tables_read_each_wound_once_for_every_hit_count() -> None:
    """The hit counts of one volley read each wound once (kept in the situation's cache, by
    the read): every count's table, built after the others, is still its own wound told
    path by path."""
    turned = turn_state({**TURNS[0], **WOUNDED[2][0]})
    for hits in (1, 3, 2, 5):
        table, paths = _wound_rows({}, hits, turned)
        assert table == paths


_STATUS_MARKS = encounter_turn._status_marks


@pytest.mark.parametrize(
    "broken",
    [
        lambda f, house, r: ("stunned", r[1].marks + f.marks),  # stun marks never overwritten
        lambda f, house, r: (f.status, _STATUS_MARKS(f, house, r)[1]),  # the status dropped
    ],
)
def test_a_broken_brief_wound_table_shows(broken: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The wound table read otherwise than ``take_outcome`` leaves the fighter (marks or status
    wrong) differs from the path-by-path wound."""
    monkeypatch.setattr(encounter_turn, "_status_marks", broken)
    table, paths = _wound_rows(WOUNDED[2][0], WOUNDED[2][1])
    assert table != paths


@pytest.mark.parametrize("initiative", [None, 0])
def test_a_covering_fire_wound_is_told_where_no_fire_follows(
    initiative: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Covering fire at Kid (behind cover, a pistol firing at him) leaves hundreds of wounds
    on his track; where no fumble of his check can cost him his action, nothing later in the
    round fires into him, and the preview tells the wound as the rest reads it (status, marks'
    classes, carried mean): the same preview as ``act``. At initiative 0 a fumble loses his
    action and he hunkers into fire: told in full, still as ``act``; told briefly there (a
    broken rule), the hunkering reads a stand-in's track and the preview differs."""
    eng, state = state_after("duel", 0)
    if initiative is not None:
        kid = encounter_turn.evolve(state.combatant("Kid Rourke"), initiative=initiative)
        state = encounter_turn.put(state, kid)
    action = eng.find_action(state, "cover_fire:Kid Rourke")
    honest = by_act(eng).preview(state, action)
    clear_derived()
    with counting(monkeypatch, "brief_shot", encounter_turn) as told:
        brief = Engine(eng.scenario).preview(state, action)
    assert brief == honest
    assert bool(told) == (initiative is None)
    if initiative is not None:
        clear_derived()
        monkeypatch.setattr(encounter_turn, "_no_fire_to_come", lambda t, s, f: True)
        try:
            assert Engine(eng.scenario).preview(state, action) != honest
        finally:
            clear_derived()
