"""Wilson's interval, shared by simulated reports and estimated previews."""

from __future__ import annotations

import pytest

from firefight.core.stats import wilson


def test_wilson_against_a_worked_value() -> None:
    # 5 of 10 at 95%: 0.5 -+ 0.2634 (Wilson 1927; e.g. Newcombe 1998, table I's method 3)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)


@pytest.mark.parametrize("n", [1, 7, 1000, 10**6])
def test_wilson_ends_are_exact_at_none_and_all(n: int) -> None:
    """All n successes cannot rule out p = 1, nor none p = 0: those ends are 1.0 and 0.0
    themselves, not a float a hair inside (which put an exact 1 outside its own interval)."""
    assert wilson(n, n)[1] == 1.0 and wilson(0, n)[0] == 0.0
    assert 0.0 < wilson(n, n)[0] < 1.0 and 0.0 < wilson(0, n)[1] < 1.0
    assert wilson(0, 0) == (0.0, 1.0)
