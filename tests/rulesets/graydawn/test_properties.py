"""Properties: more cover SP never raises the marks; a better defence roll never raises the hits."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.dice import Dist

from .helpers import RULESET, SMG_2D6, scripted, situation

#: Mass the open-ended d10s leave out (about 1e-12 per check) differs between situations.
TOL = Fraction(1, 10**10)


def dominated(better: Dist, worse: Dist) -> bool:
    """P(better >= m) <= P(worse >= m) for every m: ``better`` is never more."""
    values = set(better.values()) | set(worse.values())
    return all(better.at_least(m) <= worse.at_least(m) + TOL for m in values)


@settings(max_examples=8, deadline=None)
@given(
    sp=st.integers(0, 12),
    mode=st.sampled_from(["single", "burst", "full_auto"]),
    moves=st.sampled_from([0, 0, 2]),
)
def test_more_cover_never_raises_the_marks(sp: int, mode: str, moves: int) -> None:
    dists = []
    for level in (0, 1, 3, 6):
        extra = {
            "attacker": {"weapon": SMG_2D6},
            "target": {
                "armour": {"torso": sp, "head": sp},
                "cover": {"level": level, "position": "active"},
                "stance": {"moves": moves},
            },
            "attack": {"mode": mode, "range_m": 20, "rounds": 10},
        }
        dists.append(RULESET.odds(situation(extra)).distributions["damage"])
    for more, less in zip(dists[1:], dists, strict=False):
        assert dominated(more, less)


@settings(max_examples=15, deadline=None)
@given(
    attack_face=st.integers(2, 9),
    defence_face=st.integers(2, 9),
    dodge=st.integers(0, 6),
    better=st.integers(1, 6),
)
def test_a_better_defence_roll_never_raises_the_hits(
    attack_face: int, defence_face: int, dodge: int, better: int
) -> None:
    """Same dice, a higher defence total: never more hits (full auto, G28)."""
    hits = []
    for bonus in (0, better):
        sit = situation(
            {
                "target": {"skills": {"dodge_cover": dodge}, "mook": True},
                "attack": {
                    "mode": "full_auto",
                    "rounds": 30,
                    "range_m": 50,
                    "system": "opposed",
                    "target_dodges": True,
                    "modifiers": [
                        {"name": "better defence", "value": bonus, "applies_to": "defence"}
                    ],
                },
            }
        )
        # a mook never grazes; after the contest: location 3, all-ones damage, stun save 1
        from firefight.dice import ScriptedDice

        dice = ScriptedDice([attack_face, defence_face, 3] + [1] * 40)
        result = RULESET.resolve(sit, dice)
        hits.append(result.summary["hits"])
    assert hits[1] <= hits[0]


def test_a_better_defence_never_raises_the_hit_distribution() -> None:
    dists = []
    for dodge in (0, 3, 6, 9):
        sit = situation(
            {
                "target": {"skills": {"dodge_cover": dodge}},
                "attack": {"mode": "full_auto", "rounds": 20},
            }
        )
        dists.append(RULESET.odds(sit).distributions["hits"])
    for better, worse in zip(dists[1:], dists, strict=False):
        assert dominated(better, worse)


def test_probabilities_add_up() -> None:
    report = RULESET.odds(situation({"target": {"cover": {"level": 2, "position": "active"}}}))
    total = sum(report.outcomes.values(), Fraction(0))
    assert abs(float(1 - total - report.truncated_mass)) < 1e-15
    assert report.truncated_mass < Fraction(1, 10**10)


def test_seeded_resolution_is_reproducible() -> None:
    from firefight.dice import SeededDice

    sit = situation({"attack": {"mode": "full_auto", "rounds": 30}})
    a = RULESET.resolve(sit, SeededDice(7)).transcript.lines()
    b = RULESET.resolve(sit, SeededDice(7)).transcript.lines()
    assert a == b


def test_scripted_helper_is_used() -> None:
    # keeps the shared helper honest: an exact script passes, a short one raises
    sit = situation()
    assert scripted(sit, [2, 9]).summary["hit"] is False
