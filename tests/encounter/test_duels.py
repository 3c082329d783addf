"""Each ruleset's duel small enough for --exact: the fast path and the reference loop agree with
the exact chain (issue 15).

Tolerance: a Wilson interval at z = 4 around each simulated win rate must hold the exact
probability (a false alarm about once in 15,000 seeds); the seeds are fixed, so the test is
repeatable.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from firefight.analysis.exact import solve_exact
from firefight.analysis.fast import simulate_fast
from firefight.analysis.reference import simulate_reference
from firefight.core.stats import wilson
from firefight.encounter import Engine, read_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: Every ruleset's duel small enough to solve exactly: (file, max_rounds (None: the file's),
#: fights on the fast path). graydawn's knife duel is cut to 3 rounds (its 8 take ~1 min to
#: solve, 3 take ~1.5 s) and simulated 2,000 times: its fast path steps nearly every lane plainly,
#: at the reference loop's speed (docs/simulate.md).
EXACT_DUELS = {
    "warfare2d20": ("small_duel.toml", None, 20_000),
    "dragonwarriors2": ("goblin_duel.toml", None, 20_000),
    "graydawn": ("knife_duel_exact.toml", 3, 2_000),
    "tactical_d20": ("knife_duel.toml", None, 20_000),
    "quality_d100": ("small_duel.toml", None, 20_000),
}
#: The rulesets whose kernels are shared across rounds (``Turns.shift_rounds``; not graydawn's).
SHARING_ROUNDS = sorted(set(EXACT_DUELS) - {"graydawn"})


@pytest.mark.parametrize("ruleset", sorted(EXACT_DUELS))
def test_simulation_agrees_with_the_exact_chain(ruleset: str) -> None:
    name, max_rounds, n = EXACT_DUELS[ruleset]
    path = EXAMPLES / ruleset / "encounters" / name
    exact, _ = solve_exact(Engine(read_scenario(path, max_rounds=max_rounds)))
    assert float(exact.mass_left) < 1e-6
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
