"""Properties of the exact odds (hypothesis, small budgets: each case enumerates a chain)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.rulesets import get_ruleset

from .conftest import exchange, fighter, load

RULESET = get_ruleset("dragonwarriors2")
score = st.integers(min_value=0, max_value=18)
policy = st.sampled_from([("never", 3), ("always", 3), ("margin", 2), ("margin", 4)])


def p_hit(att: dict[str, object], dfn: dict[str, object]) -> Fraction:
    p = RULESET.odds(load(exchange(att, dfn))).p_hit
    assert p is not None
    return p


@settings(max_examples=8, deadline=None)
@given(attack=score, defence=score, d_attack=score, d_defence=score, a_pol=policy, d_pol=policy)
def test_higher_attack_never_lowers_p_hit(
    attack: int,
    defence: int,
    d_attack: int,
    d_defence: int,
    a_pol: tuple[str, int],
    d_pol: tuple[str, int],
) -> None:
    def att(a: int) -> dict[str, object]:
        return fighter("A", a, defence, 10, riposte=a_pol[0], riposte_margin=a_pol[1])

    dfn = fighter("D", d_attack, d_defence, 10, riposte=d_pol[0], riposte_margin=d_pol[1])
    assert p_hit(att(attack + 1), dfn) >= p_hit(att(attack), dfn)


@settings(max_examples=8, deadline=None)
@given(attack=score, defence=score, d_attack=score, d_defence=score, d_pol=policy)
def test_full_parry_never_raises_the_attackers_p_hit(
    attack: int, defence: int, d_attack: int, d_defence: int, d_pol: tuple[str, int]
) -> None:
    att = fighter("A", attack, defence, 10, riposte="always")
    normal = fighter("D", d_attack, d_defence, 10, riposte=d_pol[0], riposte_margin=d_pol[1])
    parry = {**normal, "stance": "full parry"}
    assert p_hit(att, parry) <= p_hit(att, normal)
