"""W15: every worked example of the text through scripted dice, every printed figure checked.

Where the text prints only totals (2d20 = 29), the faces are ours and sum to the printed total;
where it omits rolls (damage, checks), the faces are ours and the comment says so.
"""

from __future__ import annotations

from firefight.core.transcript import Modifier, Roll
from firefight.rulesets.warfare2d20.attack import AttackOutcome
from firefight.rulesets.warfare2d20.initiative import InitiativeResult
from firefight.rulesets.warfare2d20.thrown import ThrowOutcome

from .helpers import changes, checks, notes, scripted, situation


def test_a_twelve_against_fifteen_is_a_hit() -> None:
    res = scripted(situation("a_basic_hit.toml"), [4, 8, 11, 4, 2, 2, 1])
    rolls = res.transcript.rolls()
    assert [r.total for r in rolls[:2]] == [12, 15]
    assert "delta = |12 - 15| = 3" in notes(res)
    (hit,) = checks(res, "delta vs delta t")
    assert (hit.value, hit.target, hit.passed) == (3, 10, True)


def test_b_ak47_ambush_every_figure() -> None:
    res = scripted(situation("b_ak47_ambush.toml"), [10, 17, 20, 16, 10, 8, 3, 8, 8, 4, 7, 7])
    rolls = res.transcript.rolls()
    assert [r.total for r in rolls[:2]] == [27, 36]
    assert "delta = |27 - 36| = 9" in notes(res)
    (hit,) = checks(res, "delta vs delta t")
    assert (hit.value, hit.target, hit.passed) == (9, 10, True)
    assert rolls[2].value == (10, 8, 3)  # 3d12 damage
    assert rolls[3].value == (8, 8, 4)  # 3d10 body armour
    assert "body armour: 10 vs 8: through; 8 vs 8: tie, stopped; 3 vs 4: stopped" in notes(res)
    assert "damage through soak: 10" in notes(res)
    assert changes(res, "point man", "stamina") == [(20, 16)]  # pain threshold 4
    assert changes(res, "point man", "hit points") == [(20, 14)]  # 6 HP of damage
    (endurance,) = checks(res, "endurance check")  # 6 > 25% of 20
    assert (endurance.value, endurance.target, endurance.passed) == (14, 13, False)
    assert isinstance(res.outcome, AttackOutcome)
    (o,) = res.outcome.targets
    assert (o.result, o.damage, o.stamina_lost, o.hp_lost, o.status) == (
        "hit",
        10,
        4,
        6,
        "unconscious",
    )


C_FACES = [4, 4, 16, 16, 15, 14, 19, 19, 8, 8, 11, 11, 7, 6, 6, 9, 7, 5]


def test_c_moving_to_cover_one_hit_in_three() -> None:
    res = scripted(situation("c_moving_to_cover.toml"), C_FACES)
    totals = [r.total for r in res.transcript.rolls() if r.why.startswith(("attacker", "def"))]
    assert totals == [8, 32, 29, 38, 16, 22]
    for d in ("delta = |8 - 32| = 24", "delta = |29 - 38| = 9", "delta = |16 - 22| = 6"):
        assert d in notes(res)
    tests = checks(res, "delta vs delta t")
    assert [(c.value, c.target, c.passed) for c in tests] == [
        (24, 8, False),
        (9, 8, False),
        (6, 8, True),
    ]
    # The text says "-2 to delta" once; the rule and its own sum (8 or lower) are delta t.
    moving = [e for e in res.transcript.of_type(Modifier) if "moving to cover" in e.name]
    assert {(m.target, m.value) for m in moving} == {("delta t", -2)}
    assert "body armour: 7 vs 9: stopped; 6 vs 7: stopped; 6 vs 5: through" in notes(res)
    assert changes(res, "rifleman", "stamina") == [(20, 16)]
    assert changes(res, "rifleman", "hit points") == [(20, 18)]
    assert checks(res, "endurance check") == []  # 2 HP is under 25% of 20
    assert isinstance(res.outcome, AttackOutcome)
    assert [o.result for o in res.outcome.targets] == ["miss", "miss", "hit"]
    assert res.outcome.targets[2].status == "wounded"


# 24 shared; 29, 21, 23 defenders; mettle checks 15 and 18 (ours: failed); 3d10 [10,10,9] (ours)
D_FACES = [12, 12, 15, 14, 10, 5, 11, 10, 9, 9, 12, 11, 10, 10, 9]


def test_d_m249_two_shocked_one_hit() -> None:
    res = scripted(situation("d_m249.toml"), D_FACES)
    rolls = res.transcript.rolls()
    assert sum(1 for r in rolls if r.why.startswith("attacker")) == 1  # one roll for all three
    for d in ("delta = |24 - 29| = 5", "delta = |24 - 21| = 3", "delta = |24 - 23| = 1"):
        assert d in notes(res)
    for m in (
        "modified delta = 5 +6 = 11",
        "modified delta = 3 +6 = 9",
        "modified delta = 1 +6 = 7",
    ):
        assert m in notes(res)
    assert [(c.value, c.target, c.passed) for c in checks(res, "delta vs delta t")] == [
        (11, 8, False),
        (9, 8, False),
        (7, 8, True),
    ]
    shock = checks(res, "delta vs delta t + delta s")
    assert [(c.value, c.target, c.passed) for c in shock] == [(11, 11, True), (9, 11, True)]
    assert isinstance(res.outcome, AttackOutcome)
    assert [(o.result, o.suppressed) for o in res.outcome.targets] == [
        ("shock", True),
        ("shock", True),
        ("hit", False),
    ]
    assert res.outcome.targets[2].status == "dead"


def test_d_m249_pins_the_w05_contradiction() -> None:
    """The text: "any delta less than or equal to 11 (delta t + delta s = 6 + 3 = 9)".

    The rule is delta t + delta s = 8 + 3 = 11, and only 11 gives the printed outcome (both
    misses suppressed): under the slip's 9 the first man (modified delta 11) would not be shocked.
    """
    res = scripted(situation("d_m249.toml"), D_FACES)
    delta_t = checks(res, "delta vs delta t")[0].target
    (delta_s,) = {m.value for m in res.transcript.of_type(Modifier) if m.target == "delta s"}
    assert (delta_t, delta_s) == (8, 3)
    assert {c.target for c in checks(res, "delta vs delta t + delta s")} == {delta_t + delta_s}
    assert delta_t + delta_s == 11 != 6 + 3
    slip = 6 + 3
    first = checks(res, "delta vs delta t + delta s")[0].value
    assert first == 11 and first > slip  # the slip would leave the first man unshocked


def test_e_fire_team_c_acog_just_enough() -> None:
    res = scripted(situation("e_fire_team_c.toml"), [13, 13, 9, 9, 6, 5, 2, 3, 4])
    assert "delta = |26 - 18| = 8" in notes(res)
    assert "modified delta = 8 -4 = 4" in notes(res)
    aim = [m for m in res.transcript.of_type(Modifier) if m.name.startswith("aim")]
    assert [(m.value, m.target) for m in aim] == [(-4, "delta")]
    (hit,) = checks(res, "delta vs delta t")
    assert (hit.value, hit.target, hit.passed) == (4, 4, True)  # 10 - 6 taking cover
    assert isinstance(res.outcome, AttackOutcome)
    (o,) = res.outcome.targets
    assert o.result == "hit" and o.hp_lost * 4 > 14  # "a serious wound": past 25%


F_FACES = [7, 10, 18, 14, 1, 18, 11, 7, 10, 8, 9, 9, 10, 7, 8, 8, 9, 6, 9, 9, 7, 6, 8, 8]


def test_f_mortar_two_rounds() -> None:
    res = scripted(situation("f_mortar.toml"), F_FACES)
    rolls = [r.total for r in res.transcript.rolls()]
    assert rolls[:4] == [17, 32, 19, 18]
    assert "delta = |17 - 32| = 15" in notes(res)
    assert "delta = |19 - 18| = 1" in notes(res)
    blast = [c for c in res.transcript.events if getattr(c, "name", "").startswith("blast on")]
    first, second = blast[:6], blast[6:]
    assert not any(c.passed for c in first)  # delta 15: "way too high"
    assert [c.value for c in second] == [1, 1, 1, 1, 3, 3]  # far targets: "modified delta 3"
    assert {c.target for c in second} == {12} and all(c.passed for c in second)
    assert "modified delta = 1 + 2 (beyond 10 m) = 3" in {c.detail for c in second}
    # Blast damage is 2d10 and no soak dice are rolled (armour does not stop it).
    assert not any(isinstance(e, Roll) and e.why.startswith("soak") for e in res.transcript)
    assert isinstance(res.outcome, AttackOutcome)
    assert all(o.status in ("dead", "unconscious") for o in res.outcome.targets)  # neutralised


def test_w13_smoke_grenade_lands() -> None:
    res = scripted(situation("g_smoke_grenade.toml"), [8, 8, 5, 5])
    assert "delta = |16 - 10| = 6" in notes(res)
    assert res.outcome == ThrowOutcome(True)


def test_w10_fire_team_c_initiative() -> None:
    res = scripted(situation("h_initiative.toml"), [3, 4, 6, 6, 7, 7, 9, 8])
    order = res.outcome
    assert [r.name for r in order] == ["team leader", "rifleman", "automatic rifleman", "grenadier"]
    assert order[0] == InitiativeResult("team leader", 7, True, True)  # "exceptionally well"
    assert [r.passed for r in order] == [True, True, True, False]  # one fails
    assert not any(r.exceptional for r in order[1:])
