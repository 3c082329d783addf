"""One rule, three dice sources: seeded, scripted and exact enumeration run the same code."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from contextlib import nullcontext
from fractions import Fraction

import pytest

from firefight.dice import (
    DOUBLE_SIX,
    NATURAL_ONE,
    Depth,
    DiceSource,
    ScriptedDice,
    SeededDice,
    Weighted,
    enumerate_outcomes,
    exact,
    exact_sorted,
)
from firefight.dice.sources import (
    TooManyPaths,
    clear_derived,
    derived_distribution,
    kept_value,
    path_by_path,
    spread_last,
)
from firefight.errors import DiceError

Outcome = tuple[str, int]


def skill_attack(dice: DiceSource) -> Outcome:
    """A small rule in the graydawn style: d10x + 11 vs 15; a hit does 2d6, a fumble is noted."""
    roll = dice.roll("d10x + 11", why="skill roll")
    if NATURAL_ONE in roll.tags:
        return ("fumble", 0)
    if roll.total >= 15:
        return ("hit", dice.roll("2d6", why="damage").total)
    return ("miss", 0)


def test_the_same_rule_runs_on_every_source() -> None:
    assert skill_attack(ScriptedDice([10, 4, 3, 5])) == ("hit", 8)
    assert skill_attack(ScriptedDice([1, 10, 4])) == ("fumble", 0)
    assert skill_attack(ScriptedDice([3])) == ("miss", 0)
    assert skill_attack(SeededDice(1))[0] in {"hit", "miss", "fumble"}
    odds = enumerate_outcomes(skill_attack, depth=Depth(4, stop=True))
    assert odds.probability(lambda o: o[0] == "fumble") == Fraction(1, 10)
    # hit: a first face of 4..10 (d10x >= 4 without a natural 1), then the 2d6 damage
    assert odds.probability(lambda o: o[0] == "hit") == Fraction(7, 10)
    assert odds.p(("hit", 12)) == Fraction(7, 10) * Fraction(1, 36)
    damage = odds.map(lambda o: o[1]).to_dist()
    assert damage.p(7) == Fraction(7, 10) * Fraction(6, 36)
    assert odds.truncated_mass == 0


def test_exact_mode_reports_the_mass_left_out() -> None:
    odds = enumerate_outcomes(lambda d: d.roll("d10x").total >= 30)
    assert odds.truncated_mass == exact("d10x").truncated_mass
    assert 0 < odds.truncated_mass < Fraction(1, 10**12)
    assert odds.p(True) == exact("d10x").at_least(30)


def test_seeded_frequencies_agree_with_enumeration() -> None:
    odds = enumerate_outcomes(skill_attack)
    dice = SeededDice(99)
    n = 6_000
    counts = Counter(skill_attack(dice)[0] for _ in range(n))
    for kind in ("hit", "miss", "fumble"):
        p = float(odds.probability(lambda o, k=kind: o[0] == k))  # type: ignore[misc]
        sd = (p * (1 - p) / n) ** 0.5
        assert abs(counts[kind] / n - p) < 5 * sd, kind  # five standard errors


def test_exact_branches_carry_tags() -> None:
    depth = Depth(5, stop=True)
    pm = enumerate_outcomes(lambda d: DOUBLE_SIX in d.roll("pm6").tags, depth=depth)
    assert pm.p(True) == Fraction(1, 36)
    fum = enumerate_outcomes(lambda d: NATURAL_ONE in d.roll("d10x").tags, depth=depth)
    assert fum.p(True) == Fraction(1, 10)


def test_exact_roll_gives_no_faces() -> None:
    seen: list[object] = []

    def rule(dice: DiceSource) -> int:
        r = dice.roll("2d6")
        seen.append(r.rolled)
        dice.record("ignored in exact mode")
        assert dice.events == []
        return r.total

    assert enumerate_outcomes(rule).to_dist() == exact("2d6")
    assert set(seen) == {None}


def test_sorted_dice_in_exact_mode() -> None:
    odds = enumerate_outcomes(lambda d: d.roll("sort(3d6)").value)
    assert odds == exact_sorted("sort(3d6)")
    assert odds.p((6, 6, 6)) == Fraction(1, 216)
    assert odds.p((6, 5, 4)) == Fraction(6, 216)


def soak(dice: DiceSource) -> int:
    """A sub-rule: how many of 3d6 show 5 or more (asked as one quantity)."""
    return sum(1 for f in dice.roll("sort(3d6)").value if f >= 5)  # type: ignore[union-attr]


def test_derive_memoises_and_keeps_the_distribution() -> None:
    calls = Counter[str]()

    def counted_soak(dice: DiceSource) -> int:
        calls["soak"] += 1
        return soak(dice)

    def with_derive(dice: DiceSource) -> tuple[int, int]:
        a = dice.roll("d4", why="hits").total
        return a, dice.derive("soak", counted_soak, key="soak 3d6")

    def without(dice: DiceSource) -> tuple[int, int]:
        a = dice.roll("d4", why="hits").total
        return a, counted_soak(dice)

    fast = enumerate_outcomes(with_derive)
    enumerated_once = calls["soak"]
    calls.clear()
    slow = enumerate_outcomes(without)
    assert fast == slow
    assert enumerated_once == len(exact_sorted("sort(3d6)"))  # one pass over sort(3d6)
    assert calls["soak"] == 4 * enumerated_once  # re-enumerated under every d4 branch
    assert fast.p((1, 3)) == Fraction(1, 4) * Fraction(8, 216)


def test_derive_just_calls_on_rolling_dice() -> None:
    dice = ScriptedDice([6, 5, 1])
    assert dice.derive("soak", soak, key="k") == 2
    assert dice.unused == []


def test_exact_depth_error_is_a_dice_error() -> None:
    with pytest.raises(DiceError, match="depth must be at least 1"):
        exact("d10x", depth=0)


def test_nested_derive_is_enumerated_once_per_top_level_enumeration() -> None:
    calls = Counter[str]()

    def inner(dice: DiceSource) -> int:
        calls["inner"] += 1
        return dice.roll("d6", why="inner").total // 3

    def middle(dice: DiceSource) -> int:
        calls["middle"] += 1
        return dice.roll("d4", why="middle").total + dice.derive("inner", inner, key="inner")

    def top(dice: DiceSource) -> int:
        a = dice.derive("middle", middle, key=("middle", 1))
        b = dice.derive("middle again", middle, key=("middle", 2))
        return a + b

    result = enumerate_outcomes(top)
    assert calls["middle"] == 2 * 4 * 3, "each middle key: 4 d4 faces x 3 inner values"
    assert calls["inner"] == 6, "the nested derive ran once, not once per middle"
    plain = enumerate_outcomes(lambda d: middle(d) + middle(d))
    assert result == plain


def test_derive_with_an_exact_table_branches_over_the_table() -> None:
    def run(dice: DiceSource) -> int:
        return dice.roll("2d6", why="pair").total % 3

    table = exact("2d6").map(lambda v: v % 3)
    from firefight.dice import Weighted

    as_weighted = Weighted(dict(table.items()), table.total)
    asked = Counter[str]()

    def table_fn() -> Weighted[int]:
        asked["table"] += 1
        return as_weighted

    def rule(dice: DiceSource) -> int:
        return dice.derive("pair mod 3", run, key="pair", exact=table_fn)

    assert enumerate_outcomes(rule) == enumerate_outcomes(run)
    assert asked["table"] == 1
    scripted = ScriptedDice([6, 5])
    assert rule(scripted) == 11 % 3, "rolling dice run the sub-rule itself"
    assert [r.why for r in scripted.events] == ["pair"]


def _mod3_table(asked: Counter[str]) -> Callable[[], Weighted[int]]:
    table = exact("2d6").map(lambda v: v % 3)

    def table_fn() -> Weighted[int]:
        asked["table"] += 1
        return Weighted(dict(table.items()), table.total)

    return table_fn


def _mod3(dice: DiceSource) -> int:
    return dice.roll("2d6", why="pair").total % 3


def test_kept_derive_is_computed_once_per_process_by_content_key() -> None:
    clear_derived()
    calls = Counter[str]()

    def counted(dice: DiceSource) -> int:
        calls["run"] += 1
        return dice.roll("d6", why="inner").total // 3

    def rule(dice: DiceSource) -> int:
        # an equal key built afresh: content, not identity, finds the kept result
        return dice.derive("kept", counted, key=("kept", "d6 // 3"), keep=True)

    first = enumerate_outcomes(rule)
    assert calls["run"] == 6
    second = enumerate_outcomes(rule)
    assert second == first
    assert calls["run"] == 6, "the second enumeration found it kept"
    enumerate_outcomes(lambda d: d.derive("plain", counted, key=("kept", "d6 // 3")))
    assert calls["run"] == 12, "without keep=True a key lives for one enumeration"
    clear_derived()
    enumerate_outcomes(rule)
    assert calls["run"] == 18, "clear_derived forgets it"


def test_kept_derive_counts_its_paths_in_the_budget_and_keeps_nothing_half_done() -> None:
    clear_derived()

    def heavy(dice: DiceSource) -> int:
        return dice.roll("d6", why="a").total + dice.roll("d6", why="b").total

    def rule(dice: DiceSource) -> int:
        return dice.derive("heavy", heavy, key="2 x d6 as paths", keep=True)

    plain = enumerate_outcomes(heavy)
    with pytest.raises(TooManyPaths):
        enumerate_outcomes(rule, max_paths=30)  # 36 nested paths
    with pytest.raises(TooManyPaths):
        enumerate_outcomes(rule, max_paths=46)  # nothing was kept by the failed try
    # 36 nested paths + the 11 branches of the outer enumeration
    assert enumerate_outcomes(rule, max_paths=47) == plain
    # kept now: the next enumeration walks only its 11 branches
    assert enumerate_outcomes(rule, max_paths=11) == plain


def test_tables_serve_only_the_default_depth_and_not_path_by_path() -> None:
    clear_derived()
    asked = Counter[str]()
    table_fn = _mod3_table(asked)

    def rule(dice: DiceSource) -> int:
        return dice.derive("pair mod 3", _mod3, key="pair mod 3", exact=table_fn, keep=True)

    expected = enumerate_outcomes(_mod3)
    assert enumerate_outcomes(rule) == expected
    assert asked["table"] == 1
    with path_by_path():
        assert enumerate_outcomes(rule) == expected
    assert enumerate_outcomes(rule, depth=3) == expected
    assert asked["table"] == 1, "path by path and another depth enumerate the sub-rule"
    assert derived_distribution(_mod3, "pair mod 3", exact=table_fn) == expected
    assert asked["table"] == 1, "the same kept entry"


def test_adopt_keeps_the_dict_and_checks_it_in_bulk() -> None:
    import numpy as np

    mine = {"a": 1, "b": 3}
    taken = Weighted.adopt(mine, 6)
    assert taken == Weighted({"a": 1, "b": 3}, 6) and taken.total == 6
    # what the checking constructor would clean, adopt cleans the same way
    zero = Weighted.adopt({"a": 0, "b": 2}, 4)
    assert dict(zero.items()) == {"b": 2}
    wide = Weighted.adopt({"a": np.int64(2)}, 4)
    assert [type(w) for _, w in wide.items()] == [int]
    for bad, total in (({"a": 5}, 4), ({"a": -1, "b": 3}, 4), ({"a": 1}, 0)):
        with pytest.raises(DiceError, match="positive"):
            Weighted.adopt(bad, total)


def test_enumeration_reduces_its_weights_in_place() -> None:
    # 2d6 >= 7 as a yes/no outcome: 21/36 reduces to 7/12 (the gcd pass rewrites the values)
    dist = enumerate_outcomes(lambda d: d.roll("2d6").value >= 7)
    assert dict(dist.items()) == {True: 7, False: 5} and dist.total == 12


def test_a_kept_value_is_built_once_per_route_and_forgotten_with_the_sub_rules() -> None:
    """``kept_value`` serves the value again, but not across routes (path by path builds its
    own, as kept sub-rules do) and not after ``clear_derived``."""
    builds: list[str] = []

    def build(tag: str) -> str:
        builds.append(tag)
        return tag

    clear_derived()
    assert kept_value(("test value", 1), lambda: build("a")) == "a"
    assert kept_value(("test value", 1), lambda: build("b")) == "a"
    with path_by_path():
        assert kept_value(("test value", 1), lambda: build("c")) == "c"
    clear_derived()
    assert kept_value(("test value", 1), lambda: build("d")) == "d"
    assert builds == ["a", "c", "d"]
    clear_derived()


def _landing(dice: DiceSource) -> Outcome | int:
    """The first part of :func:`_ends_in_a_sub_rule`: an outcome, or the bonus the rest reads."""
    roll = dice.roll("d10x + 8", why="skill roll")
    if NATURAL_ONE in roll.tags:
        return ("fumble", 0)
    if roll.total < 12:
        return ("miss", roll.total % 2)  # two misses, met in turns
    return 1 if roll.total < 15 else 3


def _damage(bonus: int) -> tuple[Callable[[DiceSource], int], Callable[[], Weighted[int]]]:
    def run(dice: DiceSource) -> int:
        return min(dice.roll("3d6", why="damage").total + bonus, 14)

    def table() -> Weighted[int]:
        capped = exact("3d6").map(lambda v: min(v + bonus, 14))
        return Weighted(dict(capped.items()), capped.total)

    return run, table


def _ends_in_a_sub_rule(dice: DiceSource) -> Outcome:
    first = _landing(dice)
    if not isinstance(first, int):
        return first
    run, table = _damage(first)
    return ("hit", dice.derive("damage", run, ("dmg", first), exact=table, keep=True))


@pytest.mark.parametrize("plain", [False, True])
def test_spread_last_is_the_enumeration_of_the_whole_rule(plain: bool) -> None:
    """The last sub-rule spread over its table gives the same weights, total and order as
    enumerating the rule path by path (where hits of both bonuses meet at 14 and both misses
    come in turns); path by path, the sub-rule is enumerated on both sides."""

    def rest(x: Outcome | int) -> tuple[Weighted[int], Callable[[int], Outcome]] | None:
        if not isinstance(x, int):
            return None
        run, table = _damage(x)
        return derived_distribution(run, ("dmg", x), exact=table), lambda v: ("hit", v)

    clear_derived()
    with path_by_path() if plain else nullcontext():
        spread = spread_last(enumerate_outcomes(_landing), rest)
        clear_derived()
        whole = enumerate_outcomes(_ends_in_a_sub_rule)
    assert list(spread.items()) == list(whole.items())
    assert spread.total == whole.total and spread.truncated_mass == whole.truncated_mass
    assert {("fumble", 0), ("miss", 0), ("miss", 1), ("hit", 14)} <= set(spread.outcomes())
    clear_derived()
