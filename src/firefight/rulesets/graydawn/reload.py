"""Reloading in combat (G40) as a resolution: ``[attack] mode = "reload"`` with ``[attack.reload]``.

- ``only_action``: the round's one action, succeeds automatically;
- ``extra_action``: REF + weapon skill + 1d10 vs 15 at -3 per action past the first; a natural 1
  is a fumble (dropped magazine or jam);
- ``single_shell``: a tube-fed gun at ROF 1, one shell dropped in (-5 initiative, no roll);
- ``shells``: the whole round spent loading a tube: easy (10) REF + skill checks, -3 more for each
  one after the first, one shell per success until the first failure (at most the magazine).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from firefight.core.odds import OddsReport, outcome_distribution
from firefight.core.resolution import Resolution
from firefight.core.transcript import Check, Note, Transcript
from firefight.dice import NATURAL_ONE, DiceSource
from firefight.errors import InputError
from firefight.rulesets.graydawn.checks import D10X, roll_over
from firefight.rulesets.graydawn.plan import stat_penalty
from firefight.rulesets.graydawn.situation import AttackSituation


@dataclass(frozen=True)
class ReloadOutcome:
    loaded: bool
    shells: int = 0
    fumble: bool = False


def _ref(sit: AttackSituation) -> int:
    """REF less the G20 wound-state penalty."""
    a = sit.attacker
    return a.stats.REF + stat_penalty(a.stats.REF, a.wounds.marks)


def reload_outcome(sit: AttackSituation, dice: DiceSource) -> ReloadOutcome:
    h = sit.house
    w = sit.attacker.armed()
    spec = sit.attack.reload
    base = _ref(sit) + sit.attacker.skill(w.skill)
    if spec.method == "only_action":
        if spec.actions > 1:
            raise InputError(
                "attack.reload.actions: 'only_action' means one action this round",
                tip="use method = 'extra_action' for a reload among several actions",
            )
        dice.record(Note("reloading as the only action succeeds automatically", "G40"))
        return ReloadOutcome(True, w.magazine)
    if spec.method == "extra_action":
        if not w.removable_magazine:
            raise InputError(
                f"attack.reload.method: {w.name} has no removable magazine",
                tip="use 'single_shell' or 'shells' for a tube-fed gun (G40)",
            )
        penalty = (spec.actions - 1) * h.extra_action_penalty

        def run(d: DiceSource) -> tuple[bool, bool]:
            roll = d.roll(D10X, why="reload check (G40)")
            total = base + penalty + roll.total
            ok = total >= h.reload_tn
            d.record(
                Check(
                    "reload (REF + skill)",
                    total,
                    h.reload_tn,
                    ok,
                    "G40",
                    f"{base} {penalty:+d} + d10x",
                )
            )
            return ok, NATURAL_ONE in roll.tags and not ok

        key = ("reload", base, penalty, h.reload_tn)
        ok, fumble = dice.derive("reload check", run, key, keep=True)
        if fumble:
            dice.record(Note("fumble: the magazine is dropped or the weapon jams", "G40"))
        return ReloadOutcome(ok, w.magazine if ok else 0, fumble)
    if not w.tube_fed:
        raise InputError(
            f"attack.reload.method: {w.name} is not tube-fed",
            tip="use 'only_action' or 'extra_action' (G40)",
        )
    if spec.method == "single_shell":
        dice.record(Note("one shell dropped in: ROF 1, -5 initiative", "G40"))
        return ReloadOutcome(True, 1)
    shells = 0
    step = 0
    while shells < w.magazine:
        tn = h.tube_reload_tn
        penalty = step * h.extra_action_penalty
        ok, _ = roll_over(
            dice, name=f"shell {shells + 1}", base=base + penalty, target=tn, rule="G40"
        )
        if not ok:
            break
        shells += 1
        step += 1
    return ReloadOutcome(shells > 0, shells)


def resolve_reload(sit: AttackSituation, dice: DiceSource) -> Resolution:
    mark = len(dice.events)
    from firefight.core.house import house_events

    for event in house_events(sit.house):
        dice.record(event)
    o = reload_outcome(sit, dice)
    summary = {"loaded": o.loaded, "rounds/shells": o.shells, "fumble": o.fumble}
    return Resolution("graydawn", o, Transcript.since(dice.events, mark), summary)


def reload_odds(sit: AttackSituation) -> OddsReport:
    w = outcome_distribution(lambda d: reload_outcome(sit, d))
    weapon = sit.attacker.weapon.name if sit.attacker.weapon else "?"
    return OddsReport(
        ruleset="graydawn",
        title=f"graydawn: {sit.attacker.name} reloads the {weapon} ({sit.attack.reload.method})",
        p_hit=None,
        outcomes={
            "loaded": w.probability(lambda o: o.loaded),
            "not loaded": w.probability(lambda o: not o.loaded and not o.fumble),
            "fumble": w.probability(lambda o: o.fumble),
        },
        distributions={"shells": w.to_dist(lambda o: o.shells)},
        probabilities={"p_loaded": w.probability(lambda o: o.loaded)},
        truncated_mass=w.truncated_mass,
        notes=(f"P(fumble) = {float(w.probability(lambda o: o.fumble)):.4f}",)
        if w.probability(lambda o: o.fumble) > Fraction(0)
        else (),
    )
