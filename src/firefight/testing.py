"""The conformance kit: what every ruleset promises, checked the same way for any of them.

A ruleset package runs it in its own tests, on its own example files (the folder its ruleset
ships, ``Ruleset.examples``, unless the class names another)::

    from firefight.testing import RulesetConformance

    class TestConformance(RulesetConformance):
        ruleset = "risk"

pytest then runs the checks below as tests. Each is also a plain function raising
``AssertionError`` with the file and what broke, for other test runners:

- :func:`check_protocol`: the registered object is a ruleset (id, title, situation kinds, house
  model, turn structure with every method), found by its id;
- :func:`check_situation`: a situation file loads; a seeded resolution is repeatable, has a
  transcript and a JSON form; its faces replayed as scripted dice give the same resolution, and
  so do they given group by group as the table's dice are asked for (:func:`check_asked`); its
  odds are a probability distribution with a JSON form; the exact distribution of its outcomes
  matches seeded sampling (:func:`check_sampling`); a misspelt key is refused in one line;
- :func:`check_scenario`: a scenario plays to its end on seeded dice; every state on the way
  survives the JSON round trip; the record replays to the same state; its start and first
  :data:`ASKED_STEPS` steps, asked for roll by roll on their faces, record the same; a misspelt
  key is refused in one line;
- :func:`check_processes`: the same seeds give the same resolutions and fights in a new process
  (another hash seed);
- :func:`check_house_file`: a house-rule file loads into the ruleset's model;
- :func:`check_shipped_examples`: the examples folder a ruleset declares is in its package, and
  every file there loads (situations, scenarios naming the ruleset, house rules).

The statistical check is a chi-square goodness-of-fit test of :data:`SAMPLES` seeded outcomes
against the exact distribution, with a fixed seed and a stated false-alarm rate
(:data:`FALSE_ALARM`: one in a million per check for correct rule code; with a fixed seed a
passing check always passes). An outcome sampled that the exact odds call impossible fails at
once.

Layer: with ``analysis`` (it plays fights through the engine); it imports no test framework.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tomllib
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from firefight.core.house import HouseRules, load_house
from firefight.core.loading import read_toml
from firefight.core.ruleset import AnyRuleset, protocol_problems
from firefight.core.turns import state_from_json, state_to_json
from firefight.dice import ScriptedDice, SeededDice, Weighted, enumerate_outcomes
from firefight.dice.asking import Asked, ask
from firefight.dice.sources import TooManyPaths
from firefight.errors import FirefightError

#: Seeded outcomes drawn per statistical check.
SAMPLES = 2000
#: The chance that a statistical check fails correct rule code (per check).
FALSE_ALARM = 1e-6
#: The normal quantile of :data:`FALSE_ALARM` (one-sided), for the chi-square critical value.
Z_FALSE_ALARM = 4.753
#: Most enumeration paths for a situation's exact outcome distribution; past it the
#: statistical check is not run for that file (its odds are still checked).
MAX_PATHS = 5_000
#: The seed every check uses.
SEED = 2026
#: Seconds a child process may take to replay the examples.
PROCESS_TIMEOUT = 300
#: Steps of each example fight (after its start) asked for roll by roll as the table's dice.
ASKED_STEPS = 5


# ------------------------------------------------------------------------------- the ruleset


def check_protocol(ruleset_id: str) -> AnyRuleset:
    """The ruleset registered under ``ruleset_id``: it loads and keeps the protocol."""
    from firefight.rulesets import get_ruleset

    ruleset = get_ruleset(ruleset_id)
    problems = protocol_problems(ruleset, ruleset_id)
    assert not problems, f"{ruleset_id}: " + "; ".join(problems)
    rules = ruleset.house_model()
    assert isinstance(rules, HouseRules), f"{ruleset_id}: house_model() is not HouseRules"
    again = type(rules).model_validate(rules.model_dump())
    assert again == rules, f"{ruleset_id}: the house rules' defaults do not round-trip"
    return ruleset


def check_house_file(ruleset: AnyRuleset, path: Path) -> None:
    """A shipped house-rule file loads into the ruleset's house model."""
    rules = load_house(ruleset.house_model, path)
    assert isinstance(rules, ruleset.house_model), f"{path}: not {ruleset.house_model.__name__}"


# ---------------------------------------------------------------------------- situations


@dataclass(frozen=True)
class SituationCheck:
    """What :func:`check_situation` ran on one file."""

    path: Path
    #: The statistic and its critical value, or None when the exact outcomes were too many
    #: paths to enumerate (:data:`MAX_PATHS`).
    chi_square: tuple[float, float] | None
    outcomes: int


def load_situation(ruleset: AnyRuleset, path: Path) -> Any:
    """A situation file loaded with the text's house rules."""
    house = load_house(ruleset.house_model, None)
    return ruleset.load_situation(read_toml(path), source=str(path), house=house)


def check_situation(
    ruleset: AnyRuleset, path: Path, *, samples: int = SAMPLES, seed: int = SEED
) -> SituationCheck:
    """Every promise of a situation file (see the module docstring)."""
    situation = load_situation(ruleset, path)
    row = ruleset.kind(situation)
    assert row.name == situation.kind, f"{path}: loaded as {situation.kind!r}, row {row.name!r}"
    first_dice = SeededDice(seed)
    first = ruleset.resolve(situation, first_dice)
    second = ruleset.resolve(situation, SeededDice(seed))
    assert first.ruleset == ruleset.id, f"{path}: resolution names {first.ruleset!r}"
    assert first.outcome == second.outcome, f"{path}: one seed, two outcomes"
    assert first.transcript.lines() == second.transcript.lines(), f"{path}: one seed, two stories"
    hash(first.outcome)
    assert first.transcript.rolls(), f"{path}: the transcript names no roll"
    json.dumps(first.to_json())
    _check_scripted(ruleset, situation, first_dice.tape, first, path)
    asked = check_asked(partial(ruleset.resolve, situation), first_dice.tape, str(path))
    assert asked.result is not None and asked.result.outcome == first.outcome, (
        f"{path}: its faces asked for group by group give another outcome"
    )
    assert asked.result.transcript.lines() == first.transcript.lines(), (
        f"{path}: its faces asked for group by group give another transcript"
    )
    _check_odds(ruleset, situation, path)
    chi = check_sampling(ruleset, situation, samples=samples, seed=seed, where=str(path))
    house = load_house(ruleset.house_model, None)
    check_refusal(
        lambda data: ruleset.load_situation(data, source=str(path), house=house),
        read_toml(path),
        path,
    )
    return SituationCheck(path, chi, len(first.transcript.rolls()))


def _check_scripted(
    ruleset: AnyRuleset, situation: Any, tape: list[int], seeded: Any, path: Path
) -> None:
    """The faces a seeded resolution showed, typed in as a table's dice, tell the same story."""
    scripted_dice = ScriptedDice(tape)
    scripted = ruleset.resolve(situation, scripted_dice)
    assert scripted.outcome == seeded.outcome, f"{path}: its faces replayed give another outcome"
    assert scripted.transcript.lines() == seeded.transcript.lines(), (
        f"{path}: its faces replayed give another transcript"
    )
    assert not scripted_dice.unused, f"{path}: its faces replayed leave {scripted_dice.unused}"


T = TypeVar("T")


def check_asked(run: Callable[[Any], T], faces: Sequence[int], where: str) -> Asked[T]:
    """``faces`` given to ``run`` as a table gives them when asked roll by roll
    (:func:`firefight.dice.asking.ask`, what ``--ask``, ``encounter dice`` and the tracker's
    dialog use): each group asked for answered from ``faces``, until the rule is complete. It
    must end on exactly ``faces``; the caller compares the result with the one ``--dice``
    gives."""
    given: list[int] = []

    def answer() -> Asked[T]:
        try:
            return ask(run, given)
        except FirefightError as err:  # faces left over or impossible: the runs disagree
            raise AssertionError(f"{where}: asked for group by group: {err.one_line()}") from None

    asked = answer()
    for _ in range(len(faces)):
        if asked.complete:
            break
        group = asked.next
        assert group is not None and group.start == len(given), (
            f"{where}: the table is asked for faces from {group and group.start}, "
            f"having given {len(given)}"
        )
        given.extend(faces[group.start : group.start + group.count])
        asked = answer()
    assert asked.complete, f"{where}: still asking for {asked.next} after its {len(faces)} faces"
    assert list(asked.faces) == list(faces), (
        f"{where}: asked for group by group, it ends on faces {list(asked.faces)}, not {faces}"
    )
    return asked


def _check_odds(ruleset: AnyRuleset, situation: Any, path: Path) -> None:
    report = ruleset.odds(situation)
    assert report.ruleset == ruleset.id, f"{path}: odds name {report.ruleset!r}"
    if report.p_hit is not None:
        assert 0 <= report.p_hit <= 1, f"{path}: P(hit) = {report.p_hit}"
    for label, p in report.outcomes.items():
        assert 0 <= p <= 1, f"{path}: outcome {label!r} has probability {p}"
    for name, d in report.distributions.items():
        total = sum((p for _, p in d.probabilities()), Fraction(0)) + d.truncated_mass
        assert abs(total - 1) < Fraction(1, 10**9), f"{path}: distribution {name} adds to {total}"
    assert report.truncated_mass < Fraction(1, 10**9), f"{path}: mass left out by depth limits"
    data = report.to_json()
    assert json.loads(json.dumps(data)) == data, f"{path}: odds JSON does not round-trip"


def outcome_fn(ruleset: AnyRuleset, situation: Any) -> Callable[[Any], Hashable]:
    """The situation's rule code on any dice, returning the outcome odds enumerate."""
    row = ruleset.kind(situation)

    def run(dice: Any) -> Hashable:
        record = row.resolve(situation, dice)
        return record if row.outcome is None else row.outcome(record)

    return run


def check_sampling(
    ruleset: AnyRuleset,
    situation: Any,
    *,
    samples: int = SAMPLES,
    seed: int = SEED,
    where: str = "situation",
) -> tuple[float, float] | None:
    """The exact distribution of the situation's outcomes against ``samples`` seeded ones: a
    chi-square test at :data:`FALSE_ALARM`. Returns (statistic, critical value), or None when
    the exact distribution is past :data:`MAX_PATHS` paths."""
    run = outcome_fn(ruleset, situation)
    try:
        exact = enumerate_outcomes(run, max_paths=MAX_PATHS)
    except TooManyPaths:
        return None
    dice = SeededDice(seed)
    drawn = [run(dice) for _ in range(samples)]
    return chi_square_check(exact, drawn, where)


def chi_square_check(exact: Weighted[Any], drawn: list[Any], where: str) -> tuple[float, float]:
    """Outcomes ``drawn`` against ``exact``: categories pooled (most likely first) until each
    pool expects at least 5; an outcome the distribution cannot give fails at once (unless
    mass was left out by depth limits, which then forms a pool of its own)."""
    n = len(drawn)
    total = exact.total
    probs = sorted(((o, Fraction(w, total)) for o, w in exact.items()), key=lambda x: -x[1])
    pool_of: dict[Any, int] = {}
    expected: list[float] = []
    run = math.inf
    for outcome, p in probs:
        if run >= 5:
            expected.append(0.0)
            run = 0.0
        pool_of[outcome] = len(expected) - 1
        expected[-1] += n * float(p)
        run += n * float(p)
    if len(expected) > 1 and expected[-1] < 5:
        last = len(expected) - 1
        expected[-2] += expected.pop()
        pool_of = {o: min(i, last - 1) for o, i in pool_of.items()}
    left_out = float(exact.truncated_mass)
    observed = [0] * (len(expected) + (1 if left_out else 0))
    for outcome in drawn:
        i = pool_of.get(outcome)
        if i is None:
            assert left_out, f"{where}: sampled {outcome!r}, which the exact odds call impossible"
            i = len(expected)
        observed[i] += 1
    if left_out:
        expected.append(n * left_out)
    dof = len(expected) - 1
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)
    if dof == 0:
        return 0.0, 0.0
    limit = critical_value(dof)
    assert stat <= limit, (
        f"{where}: {n} seeded outcomes do not fit the exact odds "
        f"(chi-square {stat:.1f} > {limit:.1f} with {dof} degrees of freedom; "
        f"false-alarm rate {FALSE_ALARM:g})"
    )
    return stat, limit


def critical_value(dof: int, z: float = Z_FALSE_ALARM) -> float:
    """The chi-square quantile exceeded with probability :data:`FALSE_ALARM` (the
    Wilson-Hilferty approximation, good to a few percent from 1 degree of freedom)."""
    h = 2 / (9 * dof)
    return dof * (1 - h + z * math.sqrt(h)) ** 3


def check_refusal(
    load: Callable[[dict[str, Any]], Any],
    data: dict[str, Any],
    path: Path,
    skip: tuple[str, ...] = ("kind", "name", "side", "ruleset"),
) -> None:
    """A misspelt key (the first key not in ``skip``, its last letter doubled) is refused with
    one line naming it, as a :class:`~firefight.errors.FirefightError` (exit 2 at the command
    line)."""
    key = next((k for k in data if isinstance(k, str) and k not in skip), None)
    if key is None:
        return
    typo = key + key[-1]
    bad = {(typo if k == key else k): v for k, v in data.items()}
    try:
        load(bad)
    except FirefightError as err:
        line = err.one_line()
        assert "\n" not in line, f"{path}: the refusal of {typo!r} is not one line: {line!r}"
        assert typo in line, f"{path}: the refusal of {typo!r} does not name it: {line!r}"
        return
    raise AssertionError(f"{path}: the misspelt key {typo!r} was accepted")


# ----------------------------------------------------------------------------- scenarios


@dataclass(frozen=True)
class ScenarioCheck:
    """What :func:`check_scenario` played."""

    path: Path
    ending: str
    rounds: int
    steps: int
    states: int


def check_scenario(path: Path, *, seed: int = SEED) -> ScenarioCheck:
    """A scenario plays to its end; its states and record round-trip (see the module
    docstring)."""
    from firefight.encounter import Encounter, Engine, fight, read_scenario
    from firefight.encounter.scenario import build_scenario

    scenario = read_scenario(path)
    engine = Engine(scenario)
    enc = fight(engine, seed)
    state = enc.state
    assert state.ending in ("terminated", "truncated"), f"{path}: the fight did not end"
    types = engine.turns.state_types
    states = list(enc.states)
    for s in states:
        back = state_from_json(json.loads(json.dumps(state_to_json(s))), types)
        assert back == s, f"{path}: a state does not survive the JSON round trip: {s}"
    record = json.loads(json.dumps(enc.to_json()))
    replayed = Encounter.from_json(record, str(path))
    assert replayed.state == state, f"{path}: the record replays to another state"
    _check_asked_fight(enc, path)
    for c in state.combatants:
        json.dumps(engine.turns.view(c))
    data = dict(scenario.data)
    source = str(path)
    check_refusal(lambda d: build_scenario(d, source), data, path)
    first, *rest = data["combatants"]
    check_refusal(
        lambda d: build_scenario({**data, "combatants": [d, *rest]}, source), dict(first), path
    )
    return ScenarioCheck(path, str(state.ending), state.round, len(enc.steps), len(states))


def _check_asked_fight(enc: Any, path: Path) -> None:
    """The fight's start and first :data:`ASKED_STEPS` steps, their faces given group by group
    as the table's dice are asked for, record what the seeded fight recorded."""
    from firefight.encounter import Encounter
    from firefight.encounter.table_dice import ask_start, ask_step

    engine = enc.first_engine
    start = check_asked(lambda d: Encounter.begin(engine, d), enc.start_faces, f"{path}: start")
    assert ask_start(engine, list(enc.start_faces)).complete
    table = start.result
    assert table is not None and table.start_lines == enc.start_lines, (
        f"{path}: the start asked for roll by roll tells another story"
    )
    for i, step in enumerate(enc.steps[:ASKED_STEPS], start=1):
        if step.is_edit:
            return
        where = f"{path}: step {i} ({step.action})"
        asked = check_asked(partial(table.trial, step.action), step.faces, where)
        assert ask_step(table, step.action, list(step.faces)).result == asked.result
        assert asked.result == step, f"{where}: asked for roll by roll, it records another step"
        table.act(step.action, ScriptedDice(list(step.faces)), faces_of_this_step=True)
    assert table.states == enc.states[: len(table.states)], f"{path}: the asked fight differs"


# ------------------------------------------------------------------------- other processes

_CHILD = """
import json, sys
sys.path[:0] = {path!r}
from firefight.rulesets import REGISTRY
REGISTRY.update({registry!r})
from firefight.testing import fingerprints
print(json.dumps(fingerprints({ruleset!r}, {situations!r}, {scenarios!r}, {seed!r})))
"""


def fingerprints(
    ruleset_id: str, situations: Iterable[str], scenarios: Iterable[str], seed: int = SEED
) -> dict[str, Any]:
    """What the seed gives for each file: a situation's resolution and a scenario's whole fight,
    as JSON (compared between processes by :func:`check_processes`)."""
    from firefight.encounter import Engine, fight, fight_json, read_scenario
    from firefight.rulesets import get_ruleset

    ruleset = get_ruleset(ruleset_id)
    out: dict[str, Any] = {}
    for name in situations:
        situation = load_situation(ruleset, Path(name))
        out[name] = ruleset.resolve(situation, SeededDice(seed)).to_json()
    for name in scenarios:
        engine = Engine(read_scenario(name))
        out[name] = fight_json(fight(engine, seed), seed)
    same: dict[str, Any] = json.loads(json.dumps(out))
    return same


def check_processes(
    ruleset_id: str, situations: Iterable[Path], scenarios: Iterable[Path], seed: int = SEED
) -> None:
    """The same seeds give the same resolutions and fights in a new Python process (its own
    hash seed), this process's in-process registrations passed on."""
    from firefight.rulesets import REGISTRY

    sit = [str(p) for p in situations]
    sce = [str(p) for p in scenarios]
    here = fingerprints(ruleset_id, sit, sce, seed)
    code = _CHILD.format(
        path=list(sys.path),
        registry=dict(REGISTRY),
        ruleset=ruleset_id,
        situations=sit,
        scenarios=sce,
        seed=seed,
    )
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=PROCESS_TIMEOUT
    )
    assert res.returncode == 0, f"{ruleset_id}: the other process failed: {res.stderr[-2000:]}"
    there = json.loads(res.stdout)
    for name in here:
        assert here[name] == there[name], f"{name}: another process gives another result"


# ------------------------------------------------------------------------ the examples folder


@dataclass(frozen=True)
class Examples:
    """A ruleset package's example files, by what they are: situation files, scenarios
    (files naming their ``ruleset``) and house-rule files (under a ``house`` folder)."""

    situations: tuple[Path, ...]
    scenarios: tuple[Path, ...]
    house: tuple[Path, ...]

    @classmethod
    def find(cls, folder: Path) -> Examples:
        situations: list[Path] = []
        scenarios: list[Path] = []
        house: list[Path] = []
        for path in sorted(folder.rglob("*.toml")):
            if "house" in path.relative_to(folder).parts[:-1]:
                house.append(path)
                continue
            with path.open("rb") as f:
                data = tomllib.load(f)
            (scenarios if "ruleset" in data else situations).append(path)
        return cls(tuple(situations), tuple(scenarios), tuple(house))


def check_shipped_examples(ruleset: AnyRuleset) -> Examples | None:
    """The example files ``Ruleset.examples`` names, each loaded: a situation as
    ``attack``/``odds`` read it, a scenario as ``fight`` does (it must name this ruleset, or the
    tracker does not offer it), a house-rule file into the house model. None: it declares none."""
    if ruleset.examples is None:
        return None
    folder = ruleset.example_folder()
    assert folder is not None, (
        f"{ruleset.id}: examples = {ruleset.examples!r} is no folder beside "
        f"{type(ruleset).__module__} (ship it as package data)"
    )
    found = Examples.find(folder)
    assert found.situations or found.scenarios, f"{folder}: no example files"
    from firefight.encounter import read_scenario

    for path in found.situations:
        load_situation(ruleset, path)
    for path in found.scenarios:
        named = read_scenario(path).data.get("ruleset")
        assert named == ruleset.id, f"{path}: names ruleset {named!r}, not {ruleset.id!r}"
    for path in found.house:
        check_house_file(ruleset, path)
    return found


class RulesetConformance:
    """Subclass in a ``test_*.py`` file, set :attr:`ruleset` (and :attr:`examples` unless the
    ruleset ships its own), and pytest runs every check of this kit on the ruleset and its
    examples (see the module docstring)."""

    #: The ruleset's id, as registered.
    ruleset: ClassVar[str]
    #: The folder of its example files (situations, scenarios, ``house/`` files); None: the
    #: folder the ruleset ships (``Ruleset.examples``).
    examples: ClassVar[Path | None] = None
    #: Seeded outcomes per statistical check.
    samples: ClassVar[int] = SAMPLES
    #: How many example situations must be small enough (:data:`MAX_PATHS`) for the
    #: statistical check: lower it only for rule code that branches too widely (say why).
    min_sampled: ClassVar[int] = 1

    def _examples(self) -> Examples:
        folder = self.examples
        if folder is None:
            folder = check_protocol(self.ruleset).example_folder()
            assert folder is not None, (
                f"{self.ruleset}: no examples folder (set examples on the ruleset or this class)"
            )
        found = Examples.find(Path(folder))
        assert found.situations or found.scenarios, f"{folder}: no example files"
        return found

    def test_protocol(self) -> None:
        check_protocol(self.ruleset)

    def test_shipped_examples(self) -> None:
        check_shipped_examples(check_protocol(self.ruleset))

    def test_situations(self) -> None:
        ruleset = check_protocol(self.ruleset)
        checked = [
            check_situation(ruleset, p, samples=self.samples) for p in self._examples().situations
        ]
        sampled = sum(c.chi_square is not None for c in checked)
        assert sampled >= min(self.min_sampled, len(checked)), (
            f"{sampled} example situations are small enough for the statistical check "
            f"(at most {MAX_PATHS:,} paths), not {self.min_sampled}"
        )

    def test_scenarios(self) -> None:
        ruleset = check_protocol(self.ruleset)
        found = self._examples()
        if ruleset.runs_encounters:
            assert found.scenarios, f"{self.ruleset} runs fights but ships no scenario"
        for path in found.scenarios:
            check_scenario(path)

    def test_house_files(self) -> None:
        ruleset = check_protocol(self.ruleset)
        for path in self._examples().house:
            check_house_file(ruleset, path)

    def test_other_process(self) -> None:
        found = self._examples()
        check_processes(self.ruleset, found.situations, found.scenarios)
