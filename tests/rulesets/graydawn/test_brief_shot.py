"""graydawn's chosen shots told briefly in a preview (``encounter_plans.shoot`` with ``brief``:
each fighter's wound as the rest of the round reads it, the marks' exact mean carried, from
the kept distribution of the attack's outcome) held to ``act`` itself in exact fractions and
to the shot's own path-by-path sub-rule; each part broken shows."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import pytest

from firefight.core.turns import FightState
from firefight.dice import SeededDice, Weighted, enumerate_outcomes
from firefight.dice.sources import clear_derived
from firefight.encounter import Engine, Preview
from firefight.rulesets.graydawn import encounter_fire, encounter_plans, encounter_turn
from firefight.rulesets.graydawn.damage import save_penalty

from .test_brief_preview import by_act, state_after

#: (example, steps played, the turn previewed): the duel's shooters at a target whose turn is
#: still to come (step 1: its stun save reads the wound) and at one that has acted (step 2:
#: only the round's end reads it), a grapple's point-blank follow-up, an aimed and a moving
#: shot, and a fire team's shot among four.
CASES = [
    ("duel", 1, "fire:Vance:single"),
    ("duel", 1, "brace:Vance:head"),
    ("duel", 1, "grapple:Vance"),
    ("duel", 2, "fire:Kid Rourke:single"),
    ("duel", 2, "advance:Kid Rourke:single"),
    ("duel", 4, "fire2:Vance:single"),
]


def previews(name: str, steps: int, action_id: str) -> tuple[Preview, Preview]:
    """The action's preview told briefly, and ``act``'s own (nothing told briefly)."""
    eng, state = state_after(name, steps)
    action = eng.find_action(state, action_id)
    brief = Engine(eng.scenario).preview(state, action)
    full = by_act(eng).preview(state, action)
    assert brief.exact and full.exact
    return brief, full


@pytest.mark.parametrize(("name", "steps", "action_id"), CASES)
def test_brief_shots_preview_as_act(
    name: str, steps: int, action_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chosen shot told briefly previews exactly what ``act`` does."""
    told: list[int] = []
    inner = encounter_plans.brief_shot

    def counted(*args: Any, **kw: Any) -> Any:
        told.append(1)
        return inner(*args, **kw)

    monkeypatch.setattr(encounter_plans, "brief_shot", counted)
    clear_derived()  # the shot's kept sub-rule is built here, told briefly
    brief, full = previews(name, steps, action_id)
    assert told
    assert brief == full


class _Catch:
    """Rolling dice that keep the shot's sub-rule (its path-by-path rule and its table)."""

    def __init__(self, inner: SeededDice) -> None:
        self.inner = inner
        self.caught: list[tuple[Callable[..., Any], Hashable, Any]] = []
        self.is_exact = False

    @property
    def events(self) -> list[Any]:
        return self.inner.events

    def roll(self, expr: Any, why: str = "") -> Any:
        return self.inner.roll(expr, why)

    def record(self, event: Any) -> None:
        self.inner.record(event)

    def derive(self, why: str, fn: Any, key: Hashable = None, **kw: Any) -> Any:
        if " fires at " in why and kw.get("exact") is not None:
            self.caught.append((fn, key, kw["exact"]))
        return fn(self)


def _shot_rule(name: str, steps: int, action_id: str) -> tuple[Any, Any]:
    """The shot's sub-rule and table, caught on the first seed that reaches the shot (a
    grapple shoots only once it holds)."""
    eng, state = state_after(name, steps)
    action = eng.find_action(state, action_id)
    for seed in range(100):
        catch = _Catch(SeededDice(seed))
        eng.turns.preview_act(state, action, catch)  # type: ignore[arg-type]
        if catch.caught:
            fn, _, table = catch.caught[0]
            return fn, table
    raise AssertionError(f"{action_id} never shot")


def _readings(dist: Any) -> dict[Any, tuple[Fraction, Fraction, Fraction]]:
    """Per outcome as the rest reads it (each fighter without its carried marks): its chance
    and each fighter's mean marks there (the stand-in's plus what it carries)."""
    out: dict[Any, list[Fraction]] = {}
    for (a, t, hits), w in dist.items():
        key = (_plain(a), _plain(t), hits)
        p = Fraction(w, dist.total)
        slot = out.setdefault(key, [Fraction(0)] * 3)
        slot[0] += p
        slot[1] += p * (a.marks + getattr(a, "carried", 0))
        slot[2] += p * (t.marks + getattr(t, "carried", 0))
    return {k: (p, ma / p, mt / p) for k, (p, ma, mt) in out.items()}


def _plain(f: Any) -> Any:
    fields = {k: v for k, v in f.__dict__.items() if k not in ("carried", "_hash")}
    return type(f).__name__, tuple(sorted(fields.items(), key=lambda kv: kv[0]))


@pytest.mark.parametrize(("name", "steps", "action_id"), CASES[:4])
def test_the_shot_table_is_the_shot_path_by_path(name: str, steps: int, action_id: str) -> None:
    """The shot's table (the attack's kept outcomes, applied, told alike merged) reads as its
    sub-rule enumerated path by path: the same chances, the same mean marks in each, and it
    merges: fewer outcomes than the paths."""
    fn, table = _shot_rule(name, steps, action_id)
    clear_derived()
    by_path = enumerate_outcomes(fn)
    merged = table()
    assert _readings(merged) == _readings(by_path)
    assert len(merged) < len(by_path)
    # a table that lost its carried means, or moved chance between two outcomes, reads otherwise
    bare = {
        tuple(
            encounter_turn.evolve(f, carried=Fraction(0)) if hasattr(f, "carried") else f
            for f in shot[:2]
        )
        + shot[2:]: w
        for shot, w in merged.items()
    }
    assert _readings(Weighted(bare, merged.total)) != _readings(by_path)
    (first, w1), (second, w2) = sorted(merged.items(), key=lambda kv: kv[1])[-2:]
    moved = {**dict(merged.items()), first: w2, second: w1}
    assert w1 == w2 or _readings(Weighted(moved, merged.total)) != _readings(by_path)


def _broken_carrying(short: Any, marks: Any) -> Any:
    return encounter_turn._carrying(short, short.marks)  # the marks' mean dropped


def _broken_status(house: Any, before: Any, new: Any, to_come: bool) -> Any:
    short, marks = encounter_turn.brief_shot(house, before, new, to_come)
    return encounter_turn.evolve(short, status=before.status), marks  # the status dropped


_shot_read = encounter_fire.shot_read


def _broken_own_hit(o: Any) -> Any:
    luck, critical, failed, _, missed_by, hit = _shot_read(o)
    return luck, critical, failed, None, missed_by, hit  # the fumble's own wound dropped


BROKEN = [
    ("duel", 2, "fire:Kid Rourke:single", "_carrying", _broken_carrying),
    ("duel", 2, "fire:Kid Rourke:single", "shot_read", _broken_own_hit),
    ("duel", 2, "fire:Kid Rourke:single", "brief_shot", _broken_status),
    ("duel", 1, "grapple:Vance", "brief_shot", _broken_status),
]


@pytest.mark.parametrize(("name", "steps", "action_id", "fn_name", "broken"), BROKEN)
def test_a_broken_brief_shot_shows(
    name: str,
    steps: int,
    action_id: str,
    fn_name: str,
    broken: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each part of a shot told briefly, broken where the rest reads it, previews otherwise
    than ``act`` (so the comparisons above can fail)."""
    _, full = previews(name, steps, action_id)
    clear_derived()  # kept shots told honestly must not serve the broken ones
    module = encounter_fire if fn_name == "shot_read" else encounter_plans
    monkeypatch.setattr(module, fn_name, broken)
    try:
        brief, _ = previews(name, steps, action_id)
        assert brief != full
    finally:
        clear_derived()


def _read(marks: int, house: Any, to_come: bool) -> Any:
    """What the rest of the round reads of a wounded fighter's marks (G18/G19)."""
    stun = to_come and save_penalty(marks, house)
    return encounter_turn._marks_read(marks, house), stun


@pytest.mark.parametrize("to_come", [False, True])
def test_a_stand_in_reads_as_its_marks(to_come: bool) -> None:
    """Every track told briefly stands at marks the round's end (and, with its turn to come,
    the stun save) reads as its own, keeps its status and luck where a stun save may spend it,
    and is never the plain fighter; told as if its turn had passed, a track with its turn to
    come reads otherwise somewhere."""
    eng, state = state_after("duel", 1)
    house = eng.turns.house  # type: ignore[attr-defined]
    before = state.combatant("Vance")
    lost = 0
    for wounding in range(0, 45):
        for status in ("ready", "stunned", "dying"):
            new = encounter_turn.evolve(before, wounding=wounding, status=status, luck=1)
            short, marks = encounter_turn.brief_shot(house, before, new, to_come)
            assert marks == new.marks and short.status == status
            assert _read(short.marks, house, to_come) == _read(marks, house, to_come)
            assert short.luck == (1 if to_come and status == "stunned" else before.luck)
            assert encounter_turn._carrying(short, marks) != new
            past, _ = encounter_turn.brief_shot(house, before, new, False)
            lost += _read(past.marks, house, True) != _read(marks, house, True)
    assert lost > 0


def _state_with(name: str, steps: int, **fields: Any) -> FightState:
    _, state = state_after(name, steps)
    target = state.combatant("Vance")
    people = tuple(
        encounter_turn.evolve(f, **fields) if f is target else f for f in state.combatants
    )
    return encounter_turn.evolve(state, combatants=people)


def test_a_target_whose_turn_takes_fire_is_told_in_full() -> None:
    """A target still to take fire in its own automatic turn (a lost action, G12) reads its
    whole track there: it is not told briefly (``may_tell_briefly``)."""
    state = _state_with("duel", 1, lost_action=True)
    assert not encounter_turn.may_tell_briefly(state, state.combatant("Vance"))
    _, plain = state_after("duel", 1)
    assert encounter_turn.may_tell_briefly(plain, plain.combatant("Vance"))
