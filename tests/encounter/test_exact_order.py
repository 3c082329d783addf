"""The float chain moves each state once, in topological order: the same answers as the passes
(to 1e-12, the terms added in another order) and as the exact fractions."""

from __future__ import annotations

from typing import Any

import pytest

from firefight.analysis import exact
from firefight.encounter import Engine, read_scenario


def _floats(engine: Engine) -> Any:
    """The chain solved in floats from the start (as a fight with open-ended dice is)."""
    return exact._solve(exact._Chain(engine), exact.MAX_STATES, False, None)


def _figures(tally: Any) -> dict[str, float]:
    out = {f"win {k}": float(v) for k, v in tally.wins.items()}
    out |= {f"dealt {k}": float(v) for k, v in tally.dealt.items()}
    out |= {f"taken {k}": float(v) for k, v in tally.taken.items()}
    out |= {f"fell {k}": float(v) for k, v in tally.fell_at.items()}
    out |= {f"ended {k}": float(v) for k, v in tally.ended_at.items()}
    out["truncated"] = float(tally.truncated)
    out["left"] = float(tally.mass_left)
    return out


def test_one_move_per_state_agrees_with_the_passes_and_the_fractions(  # type: ignore[no-untyped-def]
    toy_scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = toy_scenario(max_rounds=4, ann_hp=2, bob_hp=2, bob_skill=3)
    fractions, arithmetic = exact.solve_exact(Engine(read_scenario(path)))
    assert arithmetic == "fraction"
    moved: list[int] = []
    ordered = exact._run_ordered

    def counting(chain, tally, frontier, moves, order):  # type: ignore[no-untyped-def]
        moved.append(len(order))
        return ordered(chain, tally, frontier, moves, order)

    monkeypatch.setattr(exact, "_run_ordered", counting)
    once = _figures(_floats(Engine(read_scenario(path))))
    assert moved and moved[0] > 1  # the ordered route ran, over several states
    expand = exact._expand
    monkeypatch.setattr(exact, "_expand", lambda *a: expand(*a) and None)  # as if they looped
    passes = _figures(_floats(Engine(read_scenario(path))))
    truth = _figures(fractions)
    assert once.keys() == passes.keys() == truth.keys()
    for key, value in truth.items():
        assert once[key] == pytest.approx(value, abs=1e-12), key
        assert passes[key] == pytest.approx(value, abs=1e-12), key
    assert once["left"] == 0.0
