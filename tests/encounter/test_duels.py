"""Each ruleset's duel small enough for --exact: the fast path and the reference loop agree with
the exact chain (issue 15).

Tolerance: a Wilson interval at z = 4 around each simulated win rate must hold the exact
probability (a false alarm about once in 15,000 seeds); the seeds are fixed, so the test is
repeatable.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firefight.analysis.exact import solve_exact
from firefight.analysis.fast import simulate_fast
from firefight.analysis.reference import simulate_reference
from firefight.core.stats import wilson
from firefight.encounter import Engine, read_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: Every ruleset's duel small enough to solve exactly: (file, max_rounds (None: the file's),
#: fights on the fast path). graydawn's knife duel is cut to 2 rounds (its 8 take minutes to
#: solve, 2 take ~2.5 s: every fumble's broken, dropped and lodged knife, fall and wound to
#: the fumbler is a state of its own) and simulated 2,000 times: its fast path steps nearly
#: every lane plainly, at the reference loop's speed (docs/simulate.md).
EXACT_DUELS = {
    "warfare2d20": ("small_duel.toml", None, 20_000),
    "dragonwarriors2": ("goblin_duel.toml", None, 20_000),
    "graydawn": ("knife_duel_exact.toml", 2, 2_000),
    "tactical_d20": ("knife_duel.toml", None, 20_000),
    "quality_d100": ("small_duel.toml", None, 20_000),
}
#: The rulesets whose kernels are shared across rounds (``Turns.shift_rounds``; not graydawn's).
SHARING_ROUNDS = sorted(set(EXACT_DUELS) - {"graydawn"})


#: What a duel's exact chain must reach, where the duel is there to hold a rule: graydawn's
#: knives fumble (G06: the attack total reaches 0 after a first 1) and the fumbles' states
#: (a broken, dropped or lodged weapon, a fall, an overextension) are in the chain.
MUST_REACH: dict[str, Callable[[Any], bool]] = {
    "graydawn": lambda f: f.broken or not f.ready or f.lodged or f.prone or f.overextended,
}


@pytest.mark.parametrize("ruleset", sorted(EXACT_DUELS))
def test_simulation_agrees_with_the_exact_chain(ruleset: str) -> None:
    name, max_rounds, n = EXACT_DUELS[ruleset]
    path = EXAMPLES / ruleset / "encounters" / name
    chain = Engine(read_scenario(path, max_rounds=max_rounds))
    exact, _ = solve_exact(chain)
    assert float(exact.mass_left) < 1e-6
    # what the open-ended dice's depth leaves out is reported, never spread over the outcomes
    # (docs/dice.md): the outcomes, the mass in play and the mass left out make one
    assert abs(float(exact.total + exact.mass_left + exact.truncated_mass) - 1) < 1e-15
    if ruleset in ("dragonwarriors2", "graydawn"):  # plus-minus d6s, d10x
        assert 0 < float(exact.truncated_mass) < 1e-9
    if ruleset in MUST_REACH:
        reached = [c for state, *_ in chain._kernels for c in state.combatants]
        assert any(MUST_REACH[ruleset](c) for c in reached)
    fast, _ = simulate_fast(Engine(read_scenario(path, max_rounds=max_rounds)), n, 11)
    reference = simulate_reference(Engine(read_scenario(path, max_rounds=max_rounds)), 400, 11)
    for side in exact.sides:
        p = float(exact.wins.get(side, 0))
        for tally, fights in ((fast, n), (reference, 400)):
            lo, hi = wilson(int(tally.wins.get(side, 0)), fights, z=4)
            assert lo <= p <= hi, (side, p, lo, hi, fights)


@pytest.mark.parametrize("max_rounds", [3, None])
@pytest.mark.parametrize("ruleset", SHARING_ROUNDS)
def test_one_kernel_for_every_round_changes_no_answer(ruleset: str, max_rounds: int | None) -> None:
    """Kernels shared across rounds (``Turns.shift_rounds``) give the very same exact answer,
    fractions or floats to the last bit, truncation at ``max_rounds`` included (3 rounds: most
    states are near the limit)."""
    path = EXAMPLES / ruleset / "encounters" / EXACT_DUELS[ruleset][0]
    shared = Engine(read_scenario(path, max_rounds=max_rounds))
    alone = Engine(read_scenario(path, max_rounds=max_rounds), share_rounds=False)
    assert solve_exact(shared) == solve_exact(alone)
    # and the sharing happened: fewer kernels enumerated
    assert len(shared._kernels) < len(alone._kernels)
    # moving a state on and back gives it again, stamps and all (the cache keys on the moved)
    turns = shared.turns
    for state, _, _ in alone._kernels:
        later = turns.shift_rounds(state, 3)
        assert later is not None and later.round == state.round + 3
        assert turns.shift_rounds(later, -3) == state
