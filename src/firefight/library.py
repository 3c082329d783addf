"""firefight as a library, for notebooks and scripts: the commands' work as functions.

    import firefight as ff

    shot = ff.load_situation("warfare2d20", "examples/warfare2d20/b_ak47_ambush.toml")
    ff.odds(shot)                       # exact odds: tables in Jupyter, in rich, as JSON
    ff.resolve(shot, seed=7)            # one resolution with its transcript
    battle = ff.load_scenario("examples/tactical_d20/encounters/knife_duel.toml")
    ff.fight(battle, seed=1)            # one whole fight, step by step
    ff.simulate(battle, 2000, seed=1)   # who wins, how often, with 95% intervals
    ff.exact(battle)                    # the exact answer
    ff.sweep("examples/...toml", {"combatants.Rolf.attack": range(8, 19)}, exact=True)
    ff.dist("3d6")                      # an exact dice distribution

Every result has ``to_json()`` (the command's ``--json``), ``__rich__`` (``rich.print``) and
``_repr_html_`` (a notebook shows it as tables). Mistakes raise
:class:`~firefight.errors.FirefightError` with the one line the command would print. The names
are also reachable as ``firefight.<name>`` (loaded on first use, so ``import firefight`` stays
light). ``docs/library.md`` walks through a session.

Layer: with ``analysis`` (fights, simulations, sweeps); it imports neither the web nor the CLI.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from firefight.core.house import HouseRules, load_house
from firefight.core.loading import apply_overrides, read_toml
from firefight.core.odds import OddsReport
from firefight.core.resolution import Resolution
from firefight.core.ruleset import AnyRuleset
from firefight.core.validation import validate
from firefight.dice import Dist, ScriptedDice, SeededDice
from firefight.display import (
    FRACTION_WIDTH,
    Display,
    Grid,
    Shown,
    percent,
    plural,
    value_words,
    words,
)
from firefight.encounter import Encounter, Engine, Scenario, fight_json, read_scenario
from firefight.encounter.fight import combatants_json
from firefight.errors import InputError

__all__ = [
    "FightLog",
    "FightReport",
    "Situation",
    "SweepTable",
    "dist",
    "exact",
    "fight",
    "load_scenario",
    "load_situation",
    "odds",
    "resolve",
    "rulesets",
    "simulate",
    "sweep",
]

Source = str | Path | Mapping[str, Any]
#: A scenario: a file, a mapping of its keys, or one loaded already.
ScenarioSource = str | Path | Mapping[str, Any] | Scenario


# ------------------------------------------------------------------------------ rulesets


def rulesets() -> list[dict[str, Any]]:
    """Every registered ruleset (``firefight rulesets --json``): id, title, version, where it
    comes from, whether it runs whole fights, or why it cannot be used."""
    from firefight.rulesets import listing

    return [item.to_json() for item in listing()]


def dist(expression: str) -> Dist:
    """The exact distribution of a dice expression (``firefight dist``)."""
    from firefight.dice import exact as exact_dist

    return exact_dist(expression)


# ---------------------------------------------------------------------------- situations


@dataclass(frozen=True)
class Situation:
    """A situation file loaded for its ruleset (``firefight attack|odds RULESET FILE``)."""

    ruleset: AnyRuleset
    situation: Any
    source: str

    @property
    def kind(self) -> str:
        return self.ruleset.situation_kind(self.situation)

    def resolve(self, *, seed: int | None = None, dice: Sequence[int] | None = None) -> Resolution:
        """See :func:`resolve`."""
        return resolve(self, seed=seed, dice=dice)

    def odds(self) -> OddsReport:
        """See :func:`odds`."""
        return odds(self)


def load_situation(
    ruleset: str,
    source: Source,
    *,
    sets: Sequence[str] = (),
    house: Source | None = None,
) -> Situation:
    """A situation for ``ruleset`` from a TOML file or a mapping of its keys; ``sets`` changes
    fields as ``--set`` does (``"target.armour=none"``), ``house`` gives house rules (a file or
    a mapping)."""
    from firefight.rulesets import get_ruleset

    rules = get_ruleset(ruleset)
    data, where = _data(source)
    data = apply_overrides(data, list(sets))
    situation = rules.load_situation(data, source=where, house=_house(rules, house))
    return Situation(rules, situation, where)


def _data(source: Source) -> tuple[dict[str, Any], str]:
    if isinstance(source, Mapping):
        return dict(source), "situation"
    return read_toml(source), str(source)


def _house(ruleset: AnyRuleset, house: Source | None) -> HouseRules:
    if house is None or isinstance(house, (str, Path)):
        return load_house(ruleset.house_model, house)
    return validate(ruleset.house_model, house, "house rules")


def resolve(
    situation: Situation, *, seed: int | None = None, dice: Sequence[int] | None = None
) -> Resolution:
    """One resolution with its transcript: on the program's dice (``seed``) or on the faces a
    table rolled (``dice``, in transcript order; all must be used)."""
    if seed is not None and dice is not None:
        raise InputError("seed and dice both given", tip="use one: program dice or table dice")
    if dice is not None:
        scripted = ScriptedDice(dice)
        result = situation.ruleset.resolve(situation.situation, scripted)
        scripted.check_all_used()
        return result
    return situation.ruleset.resolve(situation.situation, SeededDice(seed))


def odds(situation: Situation) -> OddsReport:
    """Exact odds, from the rule code that resolves it."""
    return situation.ruleset.odds(situation.situation)


# ----------------------------------------------------------------------------- scenarios


def load_scenario(
    source: ScenarioSource,
    *,
    sets: Sequence[str] = (),
    policies: Mapping[str, str] | None = None,
    max_rounds: int | None = None,
) -> Scenario:
    """A scenario from a TOML file or a mapping of its keys, validated (``sets``, ``policies``
    and ``max_rounds`` as the commands' options: ``sets`` as ``--set``); a loaded scenario is
    returned as it is."""
    if isinstance(source, Scenario):
        return source
    if not isinstance(source, Mapping):
        return read_scenario(source, list(sets), policies, max_rounds)
    from firefight.encounter.scenario import build_scenario, with_policies

    data = apply_overrides(dict(source), list(sets))
    if policies:
        data = with_policies(data, policies, "scenario")
    if max_rounds is not None:
        data["max_rounds"] = max_rounds
    return build_scenario(data, "scenario")


@dataclass(frozen=True)
class FightLog(Shown):
    """One whole fight (``firefight fight``): every step, the ending, who won."""

    encounter: Encounter
    seed: int | None

    @property
    def winner(self) -> str | None:
        return self.encounter.state.winner

    @property
    def ending(self) -> str | None:
        return self.encounter.state.ending

    @property
    def rounds(self) -> int:
        return self.encounter.state.round

    def to_json(self) -> dict[str, Any]:
        """``firefight fight --json``."""
        return fight_json(self.encounter, self.seed)

    def display(self) -> Display:
        """The steps, how it ended and each combatant's state, in the words ``firefight
        fight`` and ``encounter show`` use."""
        enc = self.encounter
        engine = enc.engine
        spec = engine.scenario.spec
        steps = tuple((str(s.round), s.label, "; ".join(s.lines)) for s in enc.steps)
        state = enc.state
        standing = []
        for name, entry in combatants_json(engine, state).items():
            rest = {k: v for k, v in entry.items() if k not in ("side", "out", "dead", "harm")}
            flag = "dead" if entry["dead"] else ("out" if entry["out"] else "fighting")
            detail = ", ".join(f"{words(k)} {value_words(v)}" for k, v in rest.items())
            standing.append((name, str(entry["side"]), f"{flag}; {detail}" if detail else flag))
        if state.ending == "truncated":
            verdict = f"stopped at max_rounds ({engine.max_rounds}): no winner yet"
        else:
            won = f"won by {state.winner}" if state.winner else "nobody left standing"
            verdict = f"fight over after round {state.round}: {won}"
        return Display(
            f"{spec.title} ({spec.ruleset}, seed {self.seed}, {plural(len(enc.steps), 'step')})",
            (verdict,),
            (
                Grid("steps", ("round", "action", "what happened"), steps, right=(0,)),
                Grid("combatants", ("name", "side", "state"), tuple(standing)),
            ),
            after=tuple(f"after the fight: {line}" for line in engine.turns.after_fight(state)),
        )


def fight(scenario: ScenarioSource, *, seed: int | None = None) -> FightLog:
    """One fight to the end on seeded dice, the sides' policies choosing."""
    from firefight.encounter import fight as play_fight

    engine = Engine(load_scenario(scenario))
    return FightLog(play_fight(engine, seed), seed)


@dataclass(frozen=True)
class FightReport(Shown):
    """Who wins how often (``firefight simulate``): exact, or simulated with 95% intervals."""

    scenario: Scenario
    simulation: Any

    @property
    def exact(self) -> bool:
        return bool(self.simulation.exact)

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.scenario.spec.sides)

    def _total(self) -> Any:
        tally = self.simulation.tally
        return tally.total + tally.mass_left if self.exact else tally.total

    def p_win(self, side: str) -> Fraction | float:
        """The chance ``side`` wins: a :class:`~fractions.Fraction` when exact (in fractions),
        else a float."""
        if side not in self.sides:
            raise InputError(f"no side {side!r}", tip=f"sides: {', '.join(self.sides)}")
        return self._share(self.simulation.tally.wins.get(side, 0))

    @property
    def p_draw(self) -> Fraction | float:
        return self._share(self.simulation.tally.draws)

    @property
    def p_truncated(self) -> Fraction | float:
        return self._share(self.simulation.tally.truncated)

    def _share(self, weight: Any) -> Fraction | float:
        total = self._total()
        in_fractions = isinstance(total, (int, Fraction)) and isinstance(weight, (int, Fraction))
        if self.exact and in_fractions:
            return Fraction(weight) / Fraction(total) if total else Fraction(0)
        return float(weight) / float(total) if total else 0.0

    def to_json(self) -> dict[str, Any]:
        """``firefight simulate --json``."""
        data: dict[str, Any] = self.simulation.to_json(self.scenario.spec.source)
        return data

    def display(self) -> Display:
        """Who wins and who falls, in the words ``firefight simulate`` uses."""
        data = self.to_json()
        outcomes = [(f"won by {s}", data["sides"][s]["win"]) for s in self.sides]
        outcomes += [("draw (nobody left)", data["draw"])]
        outcomes += [("stopped at max_rounds", data["truncated"])]
        rows = tuple((label, percent(share["p"]), self._spread(share)) for label, share in outcomes)
        sim = self.simulation
        how = "exact" if self.exact else f"{plural(sim.n, 'fight')}, seed {sim.seed}"
        spec = self.scenario.spec
        combatants = tuple(
            (
                name,
                percent(c["p_out"]),
                percent(c["p_dead"]),
                f"{c['mean_dealt']:.2f}",
                f"{c['mean_taken']:.2f}",
            )
            for name, c in data["combatants"].items()
        )
        long = self.exact and any(self._spread(share) == _LONG for _, share in outcomes)
        return Display(
            f"{spec.title} ({spec.ruleset}, {how})",
            (f"rounds to finish: mean {data['rounds']['mean']:.2f}",),
            (
                Grid(
                    "who wins (exact)" if self.exact else "who wins (95% interval)",
                    ("outcome", "probability", "exact fraction" if self.exact else "95% interval"),
                    rows,
                    "fractions too long to show here are in to_json()" if long else "",
                    right=(1, 2),
                ),
                Grid(
                    "combatants",
                    ("name", "out of the fight", "dead", "mean harm dealt", "mean harm taken"),
                    combatants,
                    right=(1, 2, 3, 4),
                ),
            ),
        )

    def _spread(self, share: Mapping[str, Any]) -> str:
        """The exact fraction where it fits (as ``simulate`` shows it), else the interval."""
        if self.exact:
            fraction = str(share.get("fraction", ""))
            return fraction if len(fraction) <= FRACTION_WIDTH else _LONG
        lo, hi = share["ci95"]
        return f"{percent(lo)} .. {percent(hi)}"


#: What a table shows for an exact fraction longer than :data:`FRACTION_WIDTH`.
_LONG = "in to_json()"


def simulate(
    scenario: ScenarioSource,
    n: int = 10_000,
    *,
    seed: int | None = None,
    reference: bool = False,
) -> FightReport:
    """``n`` fights on seeded dice (the fast path, or the engine loop with ``reference``)."""
    from firefight.analysis.simulate import simulate as run

    loaded = load_scenario(scenario)
    return FightReport(loaded, run(Engine(loaded), n, seed, reference=reference))


def exact(scenario: ScenarioSource) -> FightReport:
    """The exact answer: every way the fight can go, with its probability."""
    from firefight.analysis.simulate import simulate as run

    loaded = load_scenario(scenario)
    return FightReport(loaded, run(Engine(loaded), None, None, exact=True))


# -------------------------------------------------------------------------------- sweeps


@dataclass(frozen=True)
class SweepTable(Shown):
    """A sweep's table (``firefight sweep``): one row per cell."""

    result: Any

    @property
    def columns(self) -> list[str]:
        columns: list[str] = self.result.table()[0]
        return columns

    @property
    def rows(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self.result.table()[1]
        return rows

    def to_json(self) -> dict[str, Any]:
        """``firefight sweep --json``."""
        data: dict[str, Any] = self.result.to_json()
        return data

    def grid(self, side: str) -> list[list[float | None]]:
        """``side``'s win chance over two varied fields: ``grid[i][j]`` for the first field's
        ``i``-th value and the second's ``j``-th (None where the cell failed)."""
        grid: list[list[float | None]] = self.result.pivot(side)
        return grid

    def display(self) -> Display:
        plan = self.result.plan
        varied = [v.column for v in plan.varies]
        sides = self.result.sides()
        rows = tuple(
            (*(str(r[c]) for c in varied), *(percent(r[f"side.{s}.p_win"]) for s in sides))
            for r in self.rows
        )
        how = "exact" if plan.exact else f"{plan.n:,} fights a cell, seed {plan.seed}"
        columns = (*varied, *(f"won by {s}" for s in sides))
        grids = [Grid("cells", columns, rows, right=tuple(range(len(columns))))]
        if len(varied) == 2 and sides:
            grids.append(self._pivot(sides[0]))
        count = plural(len(plan.tasks), "cell")
        return Display(f"{plan.title} ({count}, {how})", (), tuple(grids))

    def _pivot(self, side: str) -> Grid:
        first, second = self.result.plan.varies
        rows = tuple(
            (str(a), *("" if p is None else percent(p) for p in row))
            for a, row in zip(first.values, self.grid(side), strict=True)
        )
        return Grid(
            f"{side} wins (%): {first.column} down, {second.column} across",
            ("", *(str(b) for b in second.values)),
            rows,
            right=tuple(range(len(second.values) + 1)),
        )


def sweep(
    scenario: str | Path,
    vary: Mapping[str, Iterable[Any]] | Sequence[str],
    *,
    exact: bool = False,
    n: int | None = None,
    seed: int | None = None,
    sets: Sequence[str] = (),
    cluster: bool = False,
) -> SweepTable:
    """Win chances over a grid of changed fields (``firefight sweep``), each field addressed as
    ``--vary`` addresses it (``combatants.NAME.FIELD``, ``sides.NAME.policy``, ...). ``vary`` is
    a mapping of path -> values, or ``--vary`` texts (``"max_rounds=5..10"``). Runs in this
    process unless ``cluster`` (a local Dask cluster)."""
    from firefight.analysis.sweep import plan_sweep, run_sweep

    texts = [_vary_text(k, v) for k, v in vary.items()] if isinstance(vary, Mapping) else list(vary)
    plan = plan_sweep(scenario, texts, n=n, seed=seed, exact=exact, sets=list(sets))
    return SweepTable(run_sweep(plan, cluster=cluster))


def _vary_text(path: str, values: Iterable[Any]) -> str:
    """``path=v1,v2,...`` with each value written as TOML reads it back."""
    import json

    def one(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        text = str(v)
        if "," in text:
            raise InputError(f"vary {path}: the value {text!r} holds a comma", tip="rename it")
        return json.dumps(text)

    return f"{path}=" + ",".join(one(v) for v in values)
