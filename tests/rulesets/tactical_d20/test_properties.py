"""Properties that must hold for any situation, checked on exact odds."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.core.catalog import load_catalog
from firefight.rulesets.tactical_d20 import RULESET

from .helpers import attack, load

CATALOG = load_catalog("firefight.rulesets.tactical_d20")
RANGED = sorted(
    name for name, w in CATALOG["weapons"].items() if w.get("kind", "firearm") != "melee"
)
FAST = settings(max_examples=30, deadline=None)


@FAST
@given(
    weaker=st.integers(-12, 0),
    extra=st.integers(0, 12),
    skill=st.integers(-2, 10),
    region=st.sampled_from(["head", "arms", "legs"]),
)
def test_a_larger_target_penalty_never_raises_p_hit(
    weaker: int, extra: int, skill: int, region: str
) -> None:
    attacker = {"use": "operator", "skills": {"firearms": skill}}
    situation = attack(attacker=attacker, weapon="pistol", distance=10, region=region)
    key = f"{region}_penalty"
    small = RULESET.odds(load(situation, **{key: weaker}))
    large = RULESET.odds(load(situation, **{key: weaker - extra}))
    assert small.p_hit is not None and large.p_hit is not None
    assert large.p_hit <= small.p_hit


def test_the_regions_order_p_hit() -> None:
    p = {
        region: RULESET.odds(load(attack(weapon="pistol", distance=10, region=region))).p_hit
        for region in ("torso", "arms", "legs", "head")
    }
    assert p["torso"] > p["arms"] == p["legs"] > p["head"]  # type: ignore[operator]


@FAST
@given(
    weapon=st.sampled_from(RANGED),
    ammo=st.sampled_from(["standard", "buckshot", "birdshot", "armour_piercing"]),
    distance=st.integers(1, 60),
    die=st.integers(-5, 15),
)
def test_heavy_cover_stops_a_non_ap_attack_completely(
    weapon: str, ammo: str, distance: int, die: int
) -> None:
    entry = CATALOG["weapons"][weapon]
    if ammo not in entry.get("ammo", ["standard"]):
        ammo = "standard"
    if ammo == "armour_piercing" and entry.get("calibre") == "rifle":
        ammo = "standard"
    situation = attack(
        attacker={"use": "operator", "skills": {"firearms": die}},
        weapon=weapon,
        ammo=ammo,
        distance=distance,
        cover="heavy",
    )
    report = RULESET.odds(load(situation))
    assert report.p_hit == 0
    assert report.distributions["damage"].p(0) == 1
    assert report.probabilities["p_stunned"] == 0


@FAST
@given(skill=st.integers(-5, 15), more=st.integers(0, 6))
def test_more_proficiency_never_lowers_p_hit_or_damage(skill: int, more: int) -> None:
    def report(s: int):  # type: ignore[no-untyped-def]
        attacker = {"use": "operator", "skills": {"firearms": s}}
        return RULESET.odds(
            load(attack(attacker=attacker, weapon="smg", mode="burst", distance=20))
        )

    low, high = report(skill), report(skill + more)
    assert low.p_hit <= high.p_hit  # type: ignore[operator]
    assert low.distributions["damage"].mean <= high.distributions["damage"].mean


@FAST
@given(dt=st.integers(1, 8), cover=st.sampled_from(["none", "light"]))
def test_thresholds_and_light_cover_never_raise_damage(dt: int, cover: str) -> None:
    def damage(target: dict[str, object], cover: str = "none"):  # type: ignore[no-untyped-def]
        situation = attack(weapon="pistol", distance=10, target=target, cover=cover)
        return RULESET.odds(load(situation)).distributions["damage"]

    # three situations that differ in one thing each: no DT, the DT, the DT behind the cover
    bare = damage({"use": "raider"})
    target = {"use": "raider", "thresholds": {"ballistic": dt}}
    base = damage(target)
    covered = damage(target, cover)
    for lower, higher in ((base, bare), (covered, base)):
        for v in range(0, 15):
            assert lower.at_least(v) <= higher.at_least(v)
    # a DT of 1 or more takes damage away from every hit that does any
    assert base.mean < bare.mean
    if cover == "light":
        assert covered.mean < base.mean
    else:
        assert covered == base
    assert sum((p for _, p in covered.probabilities()), Fraction(0)) == 1
