"""warfare2d20 encounters: the JSON round trip of real states, one-line refusals of bad scenario
input, every example fought with every policy, and exact odds against seeded play."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from firefight.analysis.exact import solve_exact
from firefight.core.loading import read_toml
from firefight.core.turns import state_from_json, state_to_json
from firefight.dice import SeededDice, enumerate_outcomes
from firefight.dice.sources import TooManyPaths
from firefight.encounter import Encounter, Engine, build_scenario, fight, read_scenario
from firefight.encounter.fight import play, policy_rng
from firefight.errors import FirefightError

ENCOUNTERS = Path(__file__).resolve().parents[3] / "examples" / "warfare2d20" / "encounters"
EXAMPLES = sorted(ENCOUNTERS.glob("*.toml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_states_of_real_fights_round_trip_through_json(path: Path) -> None:
    engine = Engine(read_scenario(path, policies=_all(path, "random")))
    types = engine.turns.state_types
    boards = 0
    for seed in range(4):
        enc = fight(engine, seed)
        for state in enc.states:
            text = json.dumps(state_to_json(state))
            assert state_from_json(json.loads(text), types) == state
            boards += state.board is not None
    if path.stem == "ambush":
        assert boards  # a burst or mortar round in progress went through the round trip too


def _all(path: Path, policy: str) -> dict[str, str]:
    return {s["name"]: policy for s in read_toml(path)["sides"]}


#: The preview policies preview every burst and mortar round exactly (about 1,600 outcomes each):
#: seconds a fight in the three big scenarios, so those run with the plain policies here (the
#: preview policies' first steps are checked on every scenario in tests/encounter).
BIG = ("fire_team", "ambush", "suppression")
EVERY_POLICY = [
    (path, policy)
    for path in EXAMPLES
    for policy in ("first", "random", "cautious", "aggressive")
    if not (policy in ("cautious", "aggressive") and path.stem in BIG)
]


@pytest.mark.parametrize(
    ("path", "policy"), EVERY_POLICY, ids=[f"{p.stem}-{q}" for p, q in EVERY_POLICY]
)
def test_every_example_ends_with_every_policy(path: Path, policy: str) -> None:
    engine = Engine(read_scenario(path, policies=_all(path, policy)))
    enc = fight(engine, 5)
    s = enc.state
    assert s.ending in ("terminated", "truncated") and s.round <= engine.max_rounds
    for c in s.combatants:
        f = engine.turns.fighters[c.name]  # type: ignore[attr-defined]
        assert c.hit_points <= f.stats.hit_points and 0 <= c.stamina <= f.stats.stamina
        assert c.actions <= f.actions
    view = engine.turns.view(s.combatants[0])
    assert set(engine.turns.public_keys) <= set(view)
    assert engine.turns.after_fight(s) == []  # the text gives no recovery after a fight


def test_random_seeds_never_crash_and_the_faces_replay() -> None:
    for path in EXAMPLES:
        engine = Engine(read_scenario(path, policies=_all(path, "random")))
        for seed in range(10, 16):
            dice = SeededDice(seed)
            enc = Encounter.begin(engine, dice)
            play(enc, dice, policy_rng(seed))
            again = Encounter.replay(engine, enc.start_faces, enc.steps, [], None, "test")
            assert again.state == enc.state


# -- bad input: one line naming the file, the combatant and the field ---------------------------
DUEL = read_toml(ENCOUNTERS / "duel.toml")


def _changed(where: str, key: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(DUEL)
    if where == "rivera":
        data["combatants"][0][key] = value
    elif where == "battlefield":
        data["battlefield"][key] = value
    else:
        data[key] = value
    return data


BAD = [
    ("rivera", "weapon", "M5", "combatants.Rivera.weapon: unknown weapons 'M5'", "M4"),
    ("rivera", "combatant", {"endurance": 13, "dexterity": 12, "hit_points": 20,
     "stamina": 20, "pain_threshold": 4}, "field mettle: is missing", "mettle"),
    ("rivera", "aim", "ACGO", "unknown sights 'ACGO'", "did you mean 'ACOG'"),
    ("rivera", "armour", "body armor", "unknown armour 'body armor'", "body armour"),
    ("rivera", "cover_nearby", "brik wall", "unknown cover 'brik wall'", "brick wall"),
    ("rivera", "hit_points_left", 99, "hit_points_left: 99 is above the total 20", "at most"),
    ("rivera", "mortar", "50mm HE", "field mortar: unknown shell '50mm HE'", "60mm HE"),
    ("rivera", "wepon", "M4", "field wepon: unknown key 'wepon'", "weapon"),
    ("rivera", "movement", "crawling", "field movement: 'crawling' is not one of", "walking"),
    ("battlefield", "range", "very far", "battlefield.range: Rivera's M4 has no range band "
     "'very far'", "close, medium"),
    ("battlefield", "range", 300, "battlefield.range: range 300 between Rivera and Insurgent "
     "is not a range band", "bands"),
    ("battlefield", "cover", {"Rivera": "brick"}, "battlefield.cover.Rivera: unknown cover "
     "'brick'", "brick wall"),
    ("top", "catalogs", "mine.toml", "catalogs: must be a list of file paths", "catalogs = ["),
]  # fmt: skip


@pytest.mark.parametrize(("where", "key", "value", "message", "tip"), BAD)
def test_bad_scenario_input_is_one_line(
    where: str, key: str, value: Any, message: str, tip: str
) -> None:
    data = _changed(where, key, value)
    with pytest.raises(FirefightError) as err:
        Engine(build_scenario(data, "scen.toml"))
    line = err.value.one_line()
    assert "\n" not in line and line.startswith("scen.toml: ")
    assert message in err.value.message
    assert err.value.tip is not None and tip in err.value.tip


def test_range_pairs_are_checked_for_both_weapons() -> None:
    data = copy.deepcopy(DUEL)
    data["combatants"][0]["weapon"] = "M9"  # close, medium, long only
    data["battlefield"] = {"pairs": [{"between": ["Rivera", "Insurgent"], "range": "extreme"}]}
    with pytest.raises(FirefightError, match=r"battlefield\.pairs: Rivera's M9 has no range band"):
        Engine(build_scenario(data, "scen.toml"))


# -- exact -----------------------------------------------------------------------------------------
def test_an_action_on_exact_dice_agrees_with_seeded_play() -> None:
    """The exact distribution of one shot (the preview's source) against 3,000 seeded shots."""
    engine = Engine(read_scenario(ENCOUNTERS / "duel.toml"))
    start = engine.start(SeededDice(1))
    action = engine.legal_actions(start)[0]
    dist = engine.act_distribution(start, action)
    target = str(action.target)
    p_exact = sum(
        Fraction(w, dist.total)
        for s, w in dist.items()
        if s.combatant(target).hit_points < start.combatant(target).hit_points
    )
    n = 3000
    hits = sum(
        engine.turns.act(start, action, SeededDice(seed)).combatant(target).hit_points
        < start.combatant(target).hit_points
        for seed in range(n)
    )
    se = (float(p_exact) * (1 - float(p_exact)) / n) ** 0.5
    assert abs(hits / n - float(p_exact)) < 4 * se + 0.002
    assert 0.1 < p_exact < 0.9


def test_every_first_action_of_every_example_enumerates_exactly() -> None:
    for path in EXAMPLES:
        engine = Engine(read_scenario(path))
        start = engine.start(SeededDice(2))
        for action in engine.legal_actions(start):
            dist = enumerate_outcomes(
                lambda d, a=action, e=engine, s=start: e.turns.act(s, a, d)  # type: ignore[misc]
            )
            assert dist.truncated_mass == 0 and sum(w for _, w in dist.items()) == dist.total


def test_the_small_duel_solves_exactly_and_agrees_with_seeded_fights() -> None:
    engine = Engine(read_scenario(ENCOUNTERS / "small_duel.toml", max_rounds=3))
    tally, arithmetic = solve_exact(engine)
    # fractions while the denominators stay small, floats after: either way all mass ends
    assert arithmetic in ("fraction", "float")
    assert abs(float(tally.total) - 1) < 1e-12 and float(tally.mass_left) < 1e-12
    p_red = tally.wins["red"]
    n = 1500
    red = sum(fight(engine, seed).state.winner == "red" for seed in range(n))
    se = (float(p_red) * (1 - float(p_red)) / n) ** 0.5
    assert abs(red / n - float(p_red)) < 4 * se + 0.002


def test_a_preview_act_leaves_the_combatants_act_does() -> None:
    """``preview_act`` sums a burst's or mortar round's shared roll out of its first target:
    the combatants' distribution must be ``act``'s, over far fewer paths."""
    engine = Engine(read_scenario(ENCOUNTERS / "ambush.toml"))
    turns = engine.turns
    state = engine.start(SeededDice(1))
    seen: set[str] = set()
    for n in range(6):
        for action in engine.legal_actions(state):
            kind = action.id.split(":")[0]
            if kind not in ("burst", "mortar") or kind in seen:
                continue
            seen.add(kind)
            whole = enumerate_outcomes(partial(_people, turns.act, state, action))
            summed = enumerate_outcomes(
                partial(_people, turns.preview_act, state, action), max_paths=300
            )
            assert summed.probabilities() == whole.probabilities(), action.id
            with pytest.raises(TooManyPaths):  # the shared roll splits every outcome of act's
                enumerate_outcomes(partial(_people, turns.act, state, action), max_paths=300)
        state = engine.step(state, engine.legal_actions(state)[0], SeededDice(n))
    assert seen == {"burst", "mortar"}


def _people(act: Any, state: Any, action: Any, dice: Any) -> Any:
    return act(state, action, dice).combatants
