"""dragonwarriors2 encounters: each lasting rule on its own, the exact tables against replay,
and bad scenario input."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firefight.dice import DiceSource, ScriptedDice, enumerate_outcomes
from firefight.encounter import Engine, read_scenario
from firefight.errors import FirefightError
from firefight.rulesets.dragonwarriors2.contests import plus_minus
from firefight.rulesets.dragonwarriors2.encounter_exact import (
    contest_table,
    initiative_table,
    injury_table,
    roll_weights,
)
from firefight.rulesets.dragonwarriors2.fight import roll_initiative
from firefight.rulesets.dragonwarriors2.house import DragonWarriors2House
from firefight.rulesets.dragonwarriors2.injury import injure
from firefight.rulesets.dragonwarriors2.models import Options

from .test_encounter import begin, warrior, write_scenario


def three(tmp_path: Path, **kw: Any) -> Path:
    """Ann and Bea (side a) against Cob (side b), all within reach."""
    return write_scenario(
        tmp_path,
        [
            warrior("Ann", "a", 10, 10, 10, reflexes=10, **kw),
            warrior("Bea", "a", 10, 10, 10, reflexes=10),
            warrior("Cob", "b", 10, 10, 10, reflexes=9),
        ],
    )


# -- D03 initiative and delay ------------------------------------------------------------------
def test_initiative_ties_go_to_reflexes_then_file_order(tmp_path: Path) -> None:
    # Ann 10 + 0 = 10, Bea 10 + 0 = 10 (tie, same Reflexes: file order), Cob 9 + 1 = 10
    # (tie on total, lower Reflexes: last)
    enc, _ = begin(three(tmp_path), [3, 3, 2, 2, 2, 1])
    assert enc.state.order == ("Ann", "Bea", "Cob")
    assert enc.state.acting == "Ann"
    # armour subtracts: chain (-3) puts Ann last with the same rolls
    enc, _ = begin(three(tmp_path, armour="chain"), [3, 3, 2, 2, 2, 1])
    assert enc.state.order == ("Bea", "Cob", "Ann")


def test_delay_moves_behind_the_next_and_never_past_another_delayer(tmp_path: Path) -> None:
    enc, dice = begin(three(tmp_path), [3, 3, 2, 2, 2, 1])
    ids = [a.id for a in enc.engine.legal_actions(enc.state)]
    assert ids[0] == "attack:Cob" and "delay" in ids
    enc.act("delay", dice)
    assert (enc.state.order, enc.state.acting) == (("Bea", "Ann", "Cob"), "Bea")
    # Bea may delay behind Cob but not behind Ann, who delayed already
    delay = [a for a in enc.engine.legal_actions(enc.state) if a.id == "delay"]
    assert delay and delay[0].label == "Bea delays until after Cob"
    enc.act("delay", dice)
    assert (enc.state.order, enc.state.acting) == (("Ann", "Cob", "Bea"), "Ann")
    # Ann may delay again: behind Cob, the only one still holding
    enc.act("delay", dice)
    assert (enc.state.order, enc.state.acting) == (("Cob", "Ann", "Bea"), "Cob")
    # nobody left to pass: Cob has no delay
    assert "delay" not in [a.id for a in enc.engine.legal_actions(enc.state)]
    assert enc.state.round == 1 and enc.state.board.delayed == ("Ann", "Bea")


# -- D08 stances -------------------------------------------------------------------------------
def test_stance_question_only_before_acting_and_a_parry_costs_the_attack(tmp_path: Path) -> None:
    # initiative Ann 10, Bea 10, Cob 10 (file order as above); Ann attacks Cob, who has not
    # acted: Cob is asked; he takes a full parry: Defence 10 + Attack 10 = 20.
    # Ann 10 + (2 - 1) = 11 against 20 + (1 - 1) = 20: Cob wins by 9 but a full parry allows
    # no riposte (D08). Cob has given up his own attack: after Bea, the turn is over.
    faces = [3, 3, 2, 2, 2, 1, 2, 1, 1, 1]
    enc, dice = begin(three(tmp_path), faces)
    enc.act("attack:Cob", dice)
    assert enc.state.acting == "Cob"
    asked = [a.id for a in enc.engine.legal_actions(enc.state)]
    assert asked == ["stance:normal", "stance:full-parry", "stance:aggressive-parry"]
    enc.act("stance:full-parry", dice)
    assert enc.state.combatant("Cob").stance == "full parry"
    assert "Cob wins by 9; full parry allows no riposte (D08)" in enc.steps[-1].lines
    assert enc.state.acting == "Bea"
    # Bea attacks Cob: he has acted (his parry), so no question; the parry still holds:
    # 10 + (1 - 1) = 10 against 20 + (1 - 2) = 19
    dice = ScriptedDice([1, 1, 1, 2, 3, 3, 3, 3, 3, 3])
    enc.act("attack:Cob", dice)
    assert "Cob's Defence +10  full parry: + Attack (stance; D08)" in enc.steps[-1].lines
    # the turn is over (Cob gave up his action); turn 2's initiative was rolled and the
    # stance ended with the turn
    assert enc.state.round == 2
    assert enc.state.combatant("Cob").stance == "normal"


def test_no_stance_question_for_a_stunned_defender(tmp_path: Path) -> None:
    path = write_scenario(
        tmp_path,
        [
            warrior("Ann", "a", 10, 10, 10, reflexes=12),
            warrior("Cob", "b", 10, 10, 10, reflexes=9, stunned=True),
        ],
    )
    enc, _ = begin(path, [3, 3, 3, 3])
    assert enc.state.combatant("Cob").stunned_until == (2, 1)
    # Ann's attack goes straight to the contest: 10 + (3 - 3) = 10 against 0 + (1 - 1) = 0;
    # 10 wounds, stun check 10 + (6 + 6 + 1 - 1) = 22 against 15: holds (still stunned from
    # the start: a scenario's stun lasts through turn 1)
    enc.act("attack:Cob", ScriptedDice([3, 3, 1, 1, 6, 6, 1, 1]))
    cob = enc.state.combatant("Cob")
    assert (cob.wounds, cob.stunned_until) == (10, (2, 1))
    assert enc.state.acting == "Cob"


# -- D05 ripostes as decisions -------------------------------------------------------------------
def test_riposte_is_the_winners_decision_and_hold_ends_the_exchange(tmp_path: Path) -> None:
    path = write_scenario(
        tmp_path,
        [
            warrior("Ann", "a", 10, 10, 10, reflexes=12, riposte="never"),
            warrior("Cob", "b", 10, 10, 10, reflexes=9, weapon="sword", riposte_margin=5),
        ],
    )
    enc, dice = begin(path, [3, 3, 3, 3])
    enc.act("attack:Cob", dice)
    # Ann 10 + (1 - 3) = 8 against Cob 10 + (5 - 1) = 14: Cob wins by 6, may riposte with
    # 6 + 1 (sword) = 7; his habit (margin >= 5) makes riposte the default
    dice = ScriptedDice([1, 3, 5, 1])
    enc.act("stance:normal", dice)
    first, second = enc.engine.legal_actions(enc.state)
    assert (first.id, second.id) == ("riposte:Ann", "hold")
    assert first.label == "Cob ripostes against Ann with Attack 7 (won by 6)"
    # riposte: 7 + (1 - 1) = 7 against Ann 10 + (2 - 1) = 11: Ann wins by 4 and may
    # counter-riposte with Attack 4; her habit is never: hold comes first
    enc.act("riposte:Ann", ScriptedDice([1, 1, 2, 1]))
    assert enc.state.acting == "Ann"
    ids = [a.id for a in enc.engine.legal_actions(enc.state)]
    assert ids == ["hold", "riposte:Cob"]
    enc.act("hold", ScriptedDice([]))
    assert "Ann wins by 4 and does not riposte (a choice) (D05)" in enc.steps[-1].lines
    assert enc.state.acting == "Cob" and enc.state.board.exchange is None
    assert enc.state.board.done == ("Ann",)
    assert [c.choices_used for c in enc.state.combatants] == [0, 0]


# -- D06 / D07 knock-out and death ---------------------------------------------------------------
def test_death_check_once_wounds_exceed_toughness_and_death_ends_the_fight(tmp_path: Path) -> None:
    path = write_scenario(
        tmp_path,
        [
            warrior("Ann", "a", 10, 10, 10, reflexes=12),
            warrior("Cob", "b", 10, 10, 5, reflexes=9, wounds=6),
        ],
    )
    enc, dice = begin(path, [3, 3, 3, 3])
    enc.act("attack:Cob", dice)
    # Ann 10 + (4 - 1) = 13 against 10 + (1 - 1) = 10: 3 wounds (9); 6 already exceeded
    # Toughness 5: death check 5 + (1 - 2) = 4 against 9: he dies (D07); no stun check
    enc.act("stance:normal", ScriptedDice([4, 1, 1, 1, 1, 2]))
    state = enc.state
    cob = state.combatant("Cob")
    assert (cob.wounds, cob.dead, cob.knocked_out) == (9, True, False)
    turns = enc.engine.turns
    assert turns.is_dead(cob) and not turns.can_fight(cob)
    assert turns.harm(cob) == 3
    assert (state.ending, state.winner) == ("terminated", "a")
    assert "Cob: dead no -> yes (D07)" in enc.steps[-1].lines


# -- D09 missiles and range ----------------------------------------------------------------------
def test_missile_difficulty_follows_the_range_and_ammunition_runs_out(tmp_path: Path) -> None:
    path = write_scenario(
        tmp_path,
        [
            warrior("Ann", "a", 10, 10, 10, reflexes=12, missile="javelin", ammunition=1),
            warrior("Bo", "a", 10, 10, 10, reflexes=11),
            warrior("Cob", "b", 10, 10, 10, reflexes=9, shield="shield"),
        ],
        '[battlefield]\nrange = 40\n[[battlefield.pairs]]\nbetween = ["Ann", "Bo"]\nrange = 0\n',
    )
    enc, dice = begin(path, [3, 3, 3, 3, 3, 3])
    actions = {a.id: a for a in enc.engine.legal_actions(enc.state)}
    # a javelin's difficulty is the range in feet, +2 for Cob's shield
    assert "difficulty 42 against Attack 10" in actions["shoot:Cob"].label
    # a thrower closes first while the throw is long
    assert next(iter(actions)) == "close:Cob"
    enc.act("close:Cob", dice)
    board = enc.state.board
    assert enc.engine.turns.distance(board, "Ann", "Cob") == 10
    assert enc.engine.turns.distance(board, "Bo", "Cob") == 40
    # Bo closes on Cob; Ann is 10 ft from Cob, not within reach, so Bo stays beside her
    enc.act("close:Cob", ScriptedDice([]))
    assert enc.engine.turns.distance(enc.state.board, "Bo", "Cob") == 10
    assert enc.engine.turns.distance(enc.state.board, "Bo", "Ann") == 0
    # Cob closes on Ann: 10 -> 0, and on Bo too (within reach of Ann); turn 2 initiative next
    enc.act("close:Ann", ScriptedDice([3, 3, 3, 3, 3, 3]))
    assert enc.state.board.distances == ()
    ids = [a.id for a in enc.engine.legal_actions(enc.state)]
    assert "shoot:Cob" not in ids and ids[0] == "attack:Cob"


def test_ammunition_is_spent(tmp_path: Path) -> None:
    path = write_scenario(
        tmp_path,
        [
            warrior("Ann", "a", 10, 10, 10, reflexes=12, missile="bow", ammunition=1),
            warrior("Cob", "b", 10, 10, 10, reflexes=9),
        ],
        "[battlefield]\nrange = 60\n",
    )
    enc, _ = begin(path, [3, 3, 3, 3])
    # 60 ft = 10 fathoms: 10 + (3 - 3) = 10 against 10 + (4 - 1) = 13: missed
    enc.act("shoot:Cob", ScriptedDice([3, 3, 4, 1]))
    assert enc.state.combatant("Ann").ammunition == 0
    assert "Cob is not hit (missed by 3); no riposte to a missile (D09)" in enc.steps[-1].lines
    enc.act("close:Ann", ScriptedDice([3, 3, 3, 3]))
    assert not [a for a in enc.engine.legal_actions(enc.state) if a.kind == "shoot"]


# -- exact tables against path-by-path replay ------------------------------------------------------
def _same(table: Any, replay: Any) -> None:
    assert set(table.outcomes()) == set(replay.outcomes())
    for k in replay.outcomes():
        assert table.p(k) == replay.p(k), k
    assert table.truncated_mass == replay.truncated_mass


@pytest.mark.parametrize(("bonus", "rolled"), [(0, True), (0, False), (2, True)])
def test_contest_table_is_the_replay_of_the_two_rolls(bonus: int, rolled: bool) -> None:
    from firefight.rulesets.dragonwarriors2.contests import bonus_hook

    hook = bonus_hook(bonus)

    def rolls(d: DiceSource) -> int:
        a = plus_minus(d, "A", "attack", hook)
        return a - (plus_minus(d, "B", "defence", hook) if rolled else 0)

    _same(contest_table(bonus, rolled), enumerate_outcomes(rolls))


@pytest.mark.parametrize(
    ("before", "new", "stun_bonus"), [(0, 4, 5), (7, 9, 5), (12, 3, 5), (0, 95, 5), (2, 6, 3)]
)
def test_injury_table_is_the_replay_of_injure(before: int, new: int, stun_bonus: int) -> None:
    """Also far past Toughness (the stun verdicts' runs reach the rolls' tails) and under a
    house rule that moves the stun check's thresholds."""
    from firefight.rulesets.dragonwarriors2.gear import Fighter, RipostePolicy

    f = Fighter(
        "X", 10, 10, 10, 10, before, False, False, False, None, None, 0, None, 0, "normal",
        RipostePolicy(),
    )  # fmt: skip
    opts = Options()
    house = DragonWarriors2House(stun_target_bonus=stun_bonus, knock_out_margin=stun_bonus)
    replay = enumerate_outcomes(lambda d: injure(d, f, new, opts, house)[1])
    _same(injury_table(10, before, new, opts, house, 0), replay)


def test_initiative_table_is_the_replay_of_roll_initiative_for_two() -> None:
    from firefight.rulesets.dragonwarriors2.gear import Fighter, RipostePolicy

    def f(name: str, reflexes: int, armour: int) -> Fighter:
        return Fighter(
            name, 1, 1, 1, reflexes, 0, False, False, False, None, None, 0, None, armour,
            "normal", RipostePolicy(),
        )  # fmt: skip

    people = [f("A", 10, 3), f("B", 8, 0)]
    replay = enumerate_outcomes(lambda d: tuple(i.name for i in roll_initiative(d, people)))
    _same(initiative_table((("A", 10, 3), ("B", 8, 0)), 0), replay)


def test_initiative_table_for_three_sums_the_orders_of_every_roll() -> None:
    """Three combatants: against the brute-force sum over every triple of results (the rolls
    thinned to results of weight at least 1e-6 of the total; what is left out bounds the gap)."""
    pairs, total = roll_weights(0)
    kept = [(r, w) for r, w in pairs if w * 10**6 >= total]
    brute: dict[tuple[str, ...], int] = {}
    for ra, wa in kept:
        for rb, wb in kept:
            for rc, wc in kept:
                keys = [(10 + ra, 10, 0, "A"), (11 + rb - 1, 11, -1, "B"), (9 + rc, 9, -2, "C")]
                order = tuple(k[3] for k in sorted(keys, reverse=True))
                brute[order] = brute.get(order, 0) + wa * wb * wc
    table = initiative_table((("A", 10, 0), ("B", 11, 1), ("C", 9, 0)), 0)
    assert table is not None
    left_out = 1 - sum(Fraction(w, total) for _, w in kept)
    assert 0 < left_out < Fraction(1, 10**4)
    for order, w in brute.items():
        assert abs(table.p(order) - Fraction(w, total**3)) <= 3 * left_out
    assert len(table.outcomes()) == 6


# -- bad input -------------------------------------------------------------------------------------
BAD = [
    ({"weapon": "swrod"}, "", "combatants.Ann.weapon: unknown weapon 'swrod'", "sword"),
    ({"armour": "chian"}, "", "unknown armour 'chian'", "chain"),
    ({"missile": "sword"}, "", "cannot be thrown or shot", "bow"),
    ({"ammunition": 3}, "", "combatants.Ann.ammunition: ammunition without", "missile"),
    ({"knocked_out": True}, "", "combatants.Ann.knocked_out: Ann cannot start", "false"),
    ({"stance": "turtle"}, "", "field stance", None),
    ({}, '[battlefield]\nrange = "far"', "battlefield.range: 'far' is not a distance", "feet"),
    ({}, "[battlefield]\nrange = -3", "battlefield.range: -3 is not a distance in feet", None),
    ({}, '[battlefield]\ncover = { Ann = "wall" }', "battlefield.cover.Ann: the text has no", None),
]


@pytest.mark.parametrize(("extra", "field", "message", "tip"), BAD)
def test_bad_combatant_and_battlefield_input_is_one_line(
    tmp_path: Path, extra: dict[str, Any], field: str, message: str, tip: str | None
) -> None:
    path = write_scenario(
        tmp_path,
        [warrior("Ann", "a", 10, 10, 10, **extra), warrior("Cob", "b", 10, 10, 10)],
        field,
    )
    with pytest.raises(FirefightError) as err:
        Engine(read_scenario(path))
    text = err.value.message
    assert "\n" not in text and text.startswith(str(path.resolve()))
    assert message in text
    if tip is not None:
        assert tip in (err.value.tip or "")


def test_missing_stat_and_unknown_option_are_one_line(tmp_path: Path) -> None:
    ann = warrior("Ann", "a", 10, 10, 10)
    del ann["toughness"]
    path = write_scenario(tmp_path, [ann, warrior("Cob", "b", 10, 10, 10)])
    with pytest.raises(FirefightError, match=r"combatants\.Ann: field toughness"):
        Engine(read_scenario(path))
    good = [warrior("Ann", "a", 10, 10, 10), warrior("Cob", "b", 10, 10, 10)]
    path = write_scenario(tmp_path, good, top="[options]\nmax_chian = 3", name="o.toml")
    with pytest.raises(FirefightError, match=r"field options.max_chian"):
        Engine(read_scenario(path))


def test_max_chain_cuts_the_chain_before_a_riposte_is_offered(tmp_path: Path) -> None:
    path = write_scenario(
        tmp_path,
        [
            warrior("Ann", "a", 10, 10, 10, reflexes=12),
            warrior("Cob", "b", 10, 10, 10, reflexes=9),
        ],
        top="[options]\nmax_chain = 1",
    )
    enc, dice = begin(path, [3, 3, 3, 3])
    enc.act("attack:Cob", dice)
    # 10 + (1 - 3) = 8 against 10 + (5 - 1) = 14: Cob wins by 6, but one contest is the limit
    enc.act("stance:normal", ScriptedDice([1, 3, 5, 1]))
    assert "chain cut after 1 contests (options.max_chain) (D05)" in enc.steps[-1].lines
    assert enc.state.board.exchange is None
    assert (enc.state.acting, enc.state.board.done) == ("Cob", ("Ann",))


def test_initiative_ties_go_to_the_raw_reflexes_armour_not_counted(tmp_path: Path) -> None:
    """Reading (D03): a tie on the total goes to the higher Reflexes as written on the sheet;
    the armour's cut counts in the total only."""
    path = write_scenario(
        tmp_path,
        [
            warrior("Ann", "a", 10, 10, 10, reflexes=10, armour="chain"),
            warrior("Bea", "b", 10, 10, 10, reflexes=9),
        ],
    )
    # Ann 10 + (5 - 3) - 3 = 9, Bea 9 + (3 - 3) = 9: Ann's Reflexes 10 beat Bea's 9 (her 7
    # after armour would not)
    enc, _ = begin(path, [5, 3, 3, 3])
    assert enc.state.order == ("Ann", "Bea")


def test_a_chain_cut_at_max_chain_ends_the_exchange_unhurt_and_simulate_reports_it(
    tmp_path: Path,
) -> None:
    """D05 with ``options.max_chain = 1``: a defender who wins may not riposte; the exchange
    ends, nobody hurt, the transcript says so and ``simulate`` counts the fights it happened
    in (as the option table promises)."""
    from firefight.analysis.reference import simulate_reference
    from firefight.analysis.report import report_json

    path = write_scenario(
        tmp_path,
        [
            warrior("Ann", "a", 10, 10, 10, reflexes=12),
            warrior("Cob", "b", 10, 10, 10, reflexes=9, riposte="always"),
        ],
        top="max_rounds = 2\n[options]\nmax_chain = 1",
    )
    # Ann 12 + 0, Cob 9 + 0; Ann attacks: 10 + (1 - 3) = 8 vs Cob (normal) 10 + (3 - 1) = 12
    enc, dice = begin(path, [3, 3, 3, 3, 1, 3, 3, 1])
    enc.act("attack:Cob", dice)
    enc.act("stance:normal", dice)
    assert any("chain cut after 1 contests" in line for line in enc.steps[-1].lines)
    assert [c.wounds for c in enc.state.combatants] == [0, 0]
    assert enc.engine.turns.reported(enc.state) == ("exchanges cut at options.max_chain",)
    tally = simulate_reference(Engine(read_scenario(path)), 40, 3)
    shown = report_json(tally, scenario="s", n=40, seed=3, exact=False)["reported"]
    assert 0 < shown["exchanges cut at options.max_chain"]["p"] <= 1
