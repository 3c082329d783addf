"""Properties of the exact odds: better aim and more visibility never lower P(hit); more soak
dice (armour or cover) never raise damage (first-order stochastic dominance)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.dice import Dist
from firefight.rulesets.warfare2d20 import RULESET
from firefight.rulesets.warfare2d20.soak import damage_table

from .helpers import situation

AIMS = ["none", "aiming", "scope", "high-power scope"]  # worst to best
VISIBILITY = ["hardly visible", "vaguely visible", "clearly visible"]  # least to most
SETTINGS = settings(max_examples=25, deadline=None)

shooting = st.fixed_dictionaries(
    {
        "movement": st.sampled_from(["still", "walking", "running", "sprinting"]),
        "fire_mode": st.sampled_from(["single", "burst", "automatic"]),
        "range": st.sampled_from(["close", "medium", "long", "extreme"]),
        "visibility": st.sampled_from(VISIBILITY),
        "action": st.sampled_from(["none", "moving to cover", "taking cover"]),
        "cover": st.sampled_from([None, "brick wall", "car door"]),
    }
)


def p_hit(shot: dict[str, object], **change: object) -> object:
    shot = {**shot, **change}
    target = {"combatant": "marine", "armour": "body armour"}
    for key in ("visibility", "action", "cover"):
        if shot[key] is not None:
            target[key] = shot[key]  # type: ignore[assignment]
    fields = {k: shot[k] for k in ("movement", "fire_mode", "range")}
    sit = situation("b_ak47_ambush.toml", target=target, aim=shot.get("aim", "none"), **fields)
    return RULESET.odds(sit).p_hit


@SETTINGS
@given(shooting)
def test_better_aim_never_lowers_p_hit(shot: dict[str, object]) -> None:
    chances = [p_hit(shot, aim=a) for a in AIMS]
    assert all(a <= b for a, b in pairwise(chances))  # type: ignore[operator]


@SETTINGS
@given(shooting)
def test_more_visibility_never_lowers_p_hit(shot: dict[str, object]) -> None:
    chances = [p_hit(shot, visibility=v) for v in VISIBILITY]
    assert all(a <= b for a, b in pairwise(chances))  # type: ignore[operator]


def dominated(more: Dist, less: Dist) -> bool:
    """``more`` soak gives damage never more likely to reach any value than ``less`` soak."""
    top = max(more.hi, less.hi)
    return all(more.at_least(v) <= less.at_least(v) for v in range(0, top + 1))


def as_dist(damage: str, layers: tuple[str, ...]) -> Dist:
    return damage_table(damage, layers).to_dist()


@pytest.mark.parametrize("damage", ["3d12", "2d10", "4d6"])
@pytest.mark.parametrize("sides", [6, 10])
def test_more_armour_dice_never_raise_damage(damage: str, sides: int) -> None:
    dists = [
        as_dist(damage, ()) if n == 0 else as_dist(damage, (f"{n}d{sides}",)) for n in range(0, 5)
    ]
    assert all(dominated(b, a) for a, b in pairwise(dists))
    assert dists[-1].mean < dists[0].mean  # and soak does something


@pytest.mark.parametrize("cover", ["1d12", "2d12", "3d12"])
def test_more_cover_dice_never_raise_damage_through_armour(cover: str) -> None:
    n = int(cover[0])
    fewer = as_dist("3d12", (f"{n - 1}d12", "3d10")) if n > 1 else as_dist("3d12", ("3d10",))
    more = as_dist("3d12", (cover, "3d10"))
    assert dominated(more, fewer)


def test_higher_soak_die_never_raises_damage() -> None:
    assert dominated(as_dist("3d12", ("3d12",)), as_dist("3d12", ("3d10",)))
