"""Exact polynomial products and powers (dice sums) against a schoolbook loop, FLINT and icepool,
over every route: packed 64-bit and whole-byte slots (the 8-32 bit ones by every small dice test),
FLINT products, binary powering, the equal-faces recurrence, Miller's recurrence, FLINT powers."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import icepool
import pytest
from flint import fmpz_poly

from firefight.dice import exact, poly


def schoolbook(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def routes(monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...]) -> list[str]:
    """Record which of ``poly``'s private routes run."""
    used: list[str] = []
    for name in names:
        real = getattr(poly, name)
        monkeypatch.setattr(
            poly, name, lambda *args, _r=real, _n=name: used.append(_n) or _r(*args)
        )
    return used


def test_products_match_schoolbook(monkeypatch: pytest.MonkeyPatch) -> None:
    used = routes(monkeypatch, ("_coeffs",))
    rng = random.Random(4)
    cases = [(rng.randint(1, 40), rng.randint(1, 40), rng.choice([0, 30, 200])) for _ in range(40)]
    cases += [(rng.randint(230, 300), rng.randint(230, 300), 1000) for _ in range(4)]
    for na, nb, shift in cases:
        a = [rng.randint(1, 2**20) << shift for _ in range(na)]
        b = [rng.randint(0, 2**20) << shift for _ in range(nb)]
        b[0] = b[-1] = 1
        bound = sum(a) * sum(b)
        assert poly.multiply(a, b, bound, "") == schoolbook(a, b)
    assert used, "the FLINT route was not taken"


@pytest.mark.parametrize(
    ("f", "count"),
    [
        ([1] * 6, 1000),  # equal faces, 1000d6
        ([1] * 20, 200),  # equal faces, 200d20
        ([3] * 7, 60),  # equal faces, weights not 1
        ([1, 1], 301),  # a coin
        ([2, 0, 1, 3], 90),  # Miller: a hole and unequal weights
        ([1, 2, 3, 2, 1], 120),  # Miller, symmetric
        ([5, *range(1, 80), 7], 40),  # FLINT: many unequal faces
        ([1, 4, 1], 5),  # binary powering (fits int64)
    ],
)
def test_powers_match_flint(f: list[int], count: int) -> None:
    bound = sum(f) ** count
    expected = [int(c) for c in (fmpz_poly(f) ** count).coeffs()]
    assert poly.power(f, count, bound, "") == expected


@pytest.mark.parametrize("die", ["d10x", "pm6", "200 faces"])
def test_many_face_powers_match_flint_on_both_sides_of_the_threshold(
    monkeypatch: pytest.MonkeyPatch, die: str
) -> None:
    """A die of many unequal faces (an exploding chain) is one packed power up to
    SMALL_POWER_BITS and FLINT's power past it: the same coefficients either way."""
    used = routes(monkeypatch, ("_coeffs",))
    if die == "200 faces":
        rng = random.Random(7)
        f = [rng.randint(1, 2**40) for _ in range(200)]
    else:
        f = exact(die).weight_list()
    sides = set()
    for count in range(2, 13):
        bound = sum(f) ** count
        big = poly.slot_bits(bound) * len(f) * count > poly.SMALL_POWER_BITS
        used.clear()
        expected = [int(c) for c in (fmpz_poly(f) ** count).coeffs()]
        assert poly.power(f, count, bound, "") == expected, count
        assert bool(used) is big, count  # FLINT (read back by _coeffs) only past the threshold
        sides.add(big)
    assert sides == {False, True}


def test_each_power_route_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    used = routes(monkeypatch, ("_binary_power", "_equal_faces_power", "_miller_power", "_coeffs"))
    for f, count in (([1] * 6, 1000), ([2, 0, 1, 3], 90), ([5, *range(1, 80), 7], 40)):
        poly.power(f, count, sum(f) ** count, "")
    poly.power([1, 4, 1], 5, 6**5, "")
    assert set(used) == {"_binary_power", "_equal_faces_power", "_miller_power", "_coeffs"}


@pytest.mark.parametrize(("count", "sides"), [(60, 20), (150, 6), (97, 3)])
def test_big_pools_match_icepool(count: int, sides: int) -> None:
    d = exact(f"{count}d{sides}")
    ice = count @ icepool.d(sides)
    assert d.total == ice.denominator()
    assert d.weight_list() == [int(ice.quantity(v)) for v in range(count, count * sides + 1)]


def test_exact_answers_import_neither_numpy_nor_flint() -> None:
    """A small answer and a big pool's power are pure Python: numpy (~100 ms of CPU) and FLINT
    (40-60 ms) are loaded only for arrays and big products and powers; two exploding dice are a
    small answer (~540 values) however many faces their chains have."""
    code = (
        "import sys\n"
        "from firefight.dice import exact, exact_tagged\n"
        "exact('abs(2d20-2d20)').cdf(10), exact('1000d6').cdf(3500)\n"
        "exact('9d6kh3').probabilities(), exact('200d20').mean\n"
        "exact('2d10x').mean, exact('2pm6').mean, exact('6d10x').mean, exact_tagged('2pm6')\n"
        "print(sorted(m for m in ('numpy', 'flint') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(Path(poly.__file__).parents[2])},
    )
    assert out.stdout.strip() == "[]"


def test_dist_command_imports_no_numpy() -> None:
    """`firefight dist` answers exactly, so it pays for neither numpy nor FLINT (the seeded
    roller imports numpy when it is made, not when the dice package is)."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "firefight", "dist", "3d6"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(Path(poly.__file__).parents[2])},
    )
    assert "10.5" in out.stdout  # the mean: the command did run
    loaded = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines()}
    assert not loaded & {"numpy", "flint"}
