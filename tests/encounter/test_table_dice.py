"""The table's dice asked for roll by roll: on every shipped situation file and example
encounter (the start and its first two steps), answering group by group with the faces seeded
dice rolled ends in exactly the faces, transcript and state that the same faces given at once
(``--dice``) give, each group asked in the order the transcript lists its rolls."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firefight.core.house import load_house
from firefight.core.loading import read_toml
from firefight.core.table_dice import People, asked_json, group_words, people_in_situation
from firefight.dice import DiceSource, Roll, ScriptedDice, SeededDice
from firefight.dice.asking import Asked, Group, ask, needs
from firefight.encounter import Encounter, Engine, read_scenario
from firefight.encounter.table_dice import ask_start, ask_step, step_json
from firefight.errors import ScriptError
from firefight.rulesets import available, get_ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SITUATIONS = [(rid, p) for rid in available() for p in sorted((EXAMPLES / rid).glob("*.toml"))]
SCENARIOS = sorted(EXAMPLES.glob("*/encounters/*.toml"))


def asked_group_by_group(
    answer: Callable[[list[int]], Asked[Any]], tape: list[int]
) -> tuple[Asked[Any], list[Asked[Any]]]:
    """Answer each group the rule asks for with the next faces of ``tape``; every answer."""
    faces: list[int] = []
    answers = [answer(faces)]
    while (group := answers[-1].next) is not None:
        assert group.start == len(faces), "a group's faces follow the faces so far"
        assert group.count >= 1 and group.sides >= 1
        faces = faces + tape[group.start : group.start + group.count]
        assert len(faces) == group.start + group.count, "the seeded run rolled those dice"
        answers.append(answer(faces))
    return answers[-1], answers


def assert_in_transcript_order(asked: Asked[Any]) -> None:
    """The groups, in the order asked, are the transcript's rolls in order: each roll's faces
    are exactly those of the groups asked for it, under the roll's own words."""
    rolls = [e for e in asked.events if isinstance(e, Roll)]
    groups = list(asked.answered)
    for roll in rolls:
        faces: list[int] = []
        while len(faces) < len(roll.faces):
            group, answered = groups.pop(0)
            assert (group.why, group.expr) == (roll.why, roll.expr)
            faces.extend(answered)
        # a sorted roll (warfare2d20's soak) shows its faces high to low
        shown = sorted(faces, reverse=True) if roll.expr.startswith("sort(") else faces
        assert tuple(shown) == roll.faces
    assert not groups, "every group asked is a roll of the transcript"


def _situation(rid: str, path: Path) -> tuple[Callable[[DiceSource], Any], People]:
    ruleset = get_ruleset(rid)
    data = read_toml(path)
    house = load_house(ruleset.house_model, None)
    situation = ruleset.load_situation(data, source=str(path), house=house)
    return (lambda d: ruleset.resolve(situation, d)), people_in_situation(data)


@pytest.mark.parametrize(("rid", "path"), SITUATIONS, ids=[f"{r}/{p.name}" for r, p in SITUATIONS])
def test_every_situation_asked_group_by_group_is_its_scripted_resolution(
    rid: str, path: Path
) -> None:
    run, people = _situation(rid, path)
    seeded = SeededDice(31)
    expected = run(seeded)
    tape = list(seeded.tape)
    final, answers = asked_group_by_group(lambda faces: ask(run, faces), tape)
    assert final.complete and list(final.faces) == tape
    assert final.result.transcript.lines() == expected.transcript.lines()
    assert final.result.outcome == expected.outcome
    assert final.result.summary == expected.summary
    scripted = ScriptedDice(tape)
    assert run(scripted).transcript.lines() == expected.transcript.lines()
    assert_in_transcript_order(final)
    for answer in answers[:-1]:
        assert answer.next is not None
        assert answer.next.rule, f"a rule ID for {answer.next.why!r}"
        assert group_words(answer.next, people).endswith(
            f"roll {answer.next.dice}" + (f", {answer.next.note}" if answer.next.note else "")
        )


@pytest.mark.parametrize(
    "path", SCENARIOS, ids=[f"{p.parent.parent.name}/{p.stem}" for p in SCENARIOS]
)
def test_every_encounter_start_and_first_steps_asked_group_by_group(path: Path) -> None:
    engine = Engine(read_scenario(path))
    seeded = SeededDice(7)
    expected = Encounter.begin(engine, seeded)
    start, _ = asked_group_by_group(lambda faces: ask_start(engine, faces), list(seeded.tape))
    assert start.complete and start.faces == expected.start_faces
    assert start.result.start_lines == expected.start_lines
    assert start.result.state == expected.state
    assert_in_transcript_order(start)
    enc = Encounter.begin(engine, ScriptedDice(start.faces))
    for _ in range(2):
        if enc.state.ending is not None:
            break
        action = engine.legal_actions(enc.state)[0].id
        dice = SeededDice(11)
        step = enc.trial(action, dice)
        asked, _ = asked_group_by_group(
            lambda faces, action=action: ask_step(enc, action, faces), list(step.faces)
        )
        assert asked.complete and asked.faces == step.faces
        assert asked.result == step, "the same faces, transcript and events"
        assert_in_transcript_order(asked)
        recorded = enc.act(action, ScriptedDice(asked.faces), faces_of_this_step=True)
        assert recorded == step
        seeded_twin = Encounter.begin(engine, ScriptedDice(start.faces))
        for done in enc.steps[:-1]:
            seeded_twin.act(done.action, ScriptedDice(done.faces))
        seeded_twin.act(action, SeededDice(11))
        assert seeded_twin.state == enc.state, "the state --dice gives"


def test_a_step_after_an_addition_is_asked_under_the_engine_the_addition_made() -> None:
    """An addition rebuilds the engine (the one before it kept for its undo): a step that
    involves the newcomer is asked for, and recorded, under the engine the fight goes on under."""
    from firefight.encounter.edits import AddCombatant, SkipTurn
    from tests.encounter.test_edits import started, table_of

    enc = started("warfare2d20/duel", seed=1)
    side, table = table_of("warfare2d20/duel", 1, "Second")
    enc.edit(AddCombatant(side=side, combatant=table), SeededDice(1))
    assert enc.engine is not enc.first_engine
    for _ in range(4):
        involved = [
            a for a in enc.engine.legal_actions(enc.state) if "Second" in (a.actor, a.target)
        ]
        rolling = [a.id for a in involved if enc.trial(a.id, SeededDice(11)).faces]
        if rolling:
            break
        enc.edit(SkipTurn(), SeededDice(2))
    action = rolling[0]
    step = enc.trial(action, SeededDice(11))
    asked, _ = asked_group_by_group(lambda faces: ask_step(enc, action, faces), list(step.faces))
    assert asked.complete and asked.faces == step.faces and asked.result == step
    assert enc.act(action, ScriptedDice(asked.faces), faces_of_this_step=True) == step
    while enc.steps:
        enc.undo()
    assert enc.engine is enc.first_engine
    assert "Second" not in enc.state.names()
    first = next(
        a.id for a in enc.engine.legal_actions(enc.state) if enc.trial(a.id, SeededDice(3)).faces
    )
    before = enc.trial(first, SeededDice(3))
    again, _ = asked_group_by_group(lambda faces: ask_step(enc, first, faces), list(before.faces))
    assert again.result == before


# ------------------------------------------------------------------ exploding and open-ended


def test_a_graydawn_d10_asks_for_each_explosion_and_implosion_one_die_at_a_time() -> None:
    run, people = _situation("graydawn", EXAMPLES / "graydawn" / "rifle_vs_cover.toml")
    first = ask(run, [])
    assert first.next is not None
    assert (first.next.kind, first.next.dice, first.next.rule) == ("exploding", "1d10", "G02/G04")
    exploded = ask(run, [10])
    assert exploded.next is not None
    assert (exploded.next.why, exploded.next.dice) == ("attack roll (G02/G04)", "1d10")
    assert exploded.next.note == "the 10 explodes: one more d10"
    again = ask(run, [10, 10])
    assert again.next is not None and again.next.note == "the 10 explodes: one more d10"
    assert ask(run, [10, 10, 4]).next.why == "defence roll (G04)"  # type: ignore[union-attr]
    imploded = ask(run, [10, 10, 4, 1])
    assert imploded.next is not None and imploded.next.why == "defence roll (G04)"
    assert imploded.next.note == "the 1 does not count: one more d10, subtracted"
    deeper = ask(run, [10, 10, 4, 1, 10])
    assert deeper.next is not None
    assert deeper.next.note == "the 10 explodes: one more d10, subtracted"
    assert people.who_rolls(deeper.next.why) == "raider", "the defence roll is the target's"
    done = ask(run, [10, 10, 4, 1, 10, 3], program="rest", seed=5)
    scripted = run(ScriptedDice(done.faces))
    assert done.result.transcript.lines() == scripted.transcript.lines()
    assert "1d10x[(1), -10!, -3]" in "\n".join(scripted.transcript.lines())


def test_a_dragonwarriors2_riposte_chain_asks_for_each_extra_die() -> None:
    """The text's Rolf vs Lennox exchanges: a 6 on a plus die asks for one more plus die before
    the minus die, and the ripostes each win asks for come one at a time."""
    run, people = _situation(
        "dragonwarriors2", EXAMPLES / "dragonwarriors2" / "rolf_vs_lennox.toml"
    )
    printed = [1, 5, 1, 4, 1, 2, 2, 1, 6, 1, 1, 1, 4, 1, 2, 3, 1, 6, 5, 1, 1, 5, 1, 2, 1, 3, 1, 4]
    printed += [1, 3, 3, 3, 6, 1, 1, 6, 3, 1]
    final, answers = asked_group_by_group(lambda faces: ask(run, faces), printed)
    assert final.complete and list(final.faces) == printed
    assert_in_transcript_order(final)
    asked = [a.next for a in answers[:-1]]
    assert all(g is not None and g.kind == "plus-minus" and g.count == 1 for g in asked)
    riposte = [g for g in asked if g and "riposte" in g.why]
    assert riposte[0].why == "Rolf: riposte" and riposte[0].note == "the plus die"
    assert riposte[1].note == "the 6 explodes: one more plus die"
    assert riposte[2].note == "the minus die"
    assert {g.rule for g in asked if g} == {"D01"}
    assert "Rolf: counter-riposte" in {g.why for g in asked if g}
    assert people.who_rolls("Lennox: riposte") == "Lennox"


def test_a_quality_d100_roll_is_one_d100() -> None:
    run, people = _situation("quality_d100", EXAMPLES / "quality_d100" / "melee_broadsword.toml")
    first = ask(run, [])
    assert first.next is not None
    assert (first.next.kind, first.next.dice, first.next.sides) == ("d100", "1d100", 100)
    assert people.who_rolls(first.next.why) == "Aldric"
    with pytest.raises(ScriptError, match="shows 101, which a d100"):
        ask(run, [101])


# ------------------------------------------------------------------ mixed dice, back, refusals


def test_the_program_rolls_one_group_or_all_the_rest_and_the_faces_replay() -> None:
    run, _ = _situation("warfare2d20", EXAMPLES / "warfare2d20" / "b_ak47_ambush.toml")
    one = ask(run, [10, 17], program="group", seed=3)
    assert len(one.faces) == 4 and one.faces[:2] == (10, 17)
    assert one.answered[-1][0].why == "defender point man 2d20 (W01)"
    rest = ask(run, list(one.faces), program="rest", seed=4)
    assert rest.complete and rest.faces[:4] == one.faces
    assert run(ScriptedDice(rest.faces)).transcript.lines() == rest.result.transcript.lines()
    back = ask(run, rest.without_last())
    assert back.next is not None and back.next.start == rest.answered[-1][0].start


def test_a_partly_given_group_asks_for_the_rest_of_it_and_back_takes_it_all() -> None:
    run, people = _situation("warfare2d20", EXAMPLES / "warfare2d20" / "b_ak47_ambush.toml")
    part = ask(run, [10, 17, 20, 16, 10])
    assert part.next is not None
    assert (part.next.dice, part.next.given, part.next.start) == ("2d12", 1, 5)
    assert part.next.note == "1 of its 3 dice given"
    assert part.without_last() == [10, 17, 20, 16]
    out = asked_json(part, people)
    assert out["next"]["group"] == len(out["answered"]) == 3
    assert out["next"]["who"] == "insurgent" and out["next"]["rule"] == "W06"


def test_faces_left_over_are_refused_as_scripted_dice_refuse_them() -> None:
    run, _ = _situation("warfare2d20", EXAMPLES / "warfare2d20" / "a_basic_hit.toml")
    seeded = SeededDice(1)
    run(seeded)
    with pytest.raises(ScriptError, match="left unused"):
        ask(run, [*seeded.tape, 3])


def test_too_few_faces_say_how_many_in_all_and_what_each_missing_die_is_for() -> None:
    run, _ = _situation("warfare2d20", EXAMPLES / "warfare2d20" / "b_ak47_ambush.toml")
    faces = [10, 17, 20, 16, 10, 8, 3, 8, 8, 4]
    found = needs(run, faces)
    assert found is not None and found.counts == (12, 12)
    words = found.words("--dice")
    assert words == (
        "--dice gave 10 faces; this resolution needs 12 in all: "
        "11-12 2d10 for 'endurance check for point man: 2d10 vs 13 (W09)'"
    )
    earlier = needs(run, faces[:9])
    assert earlier is not None and earlier.counts == (10, 12), "a soak that stops the damage"
    assert (
        "needs 10 to 12 in all, depending on what they show: next 10 1d10 for 'soak body "
        "armour 3d10 (W06)' (2 of its 3 dice given), then for example 11-12 2d10"
        in (earlier.words("--dice"))
    )
    unknown = needs(run, faces[:2])
    assert unknown is not None and unknown.counts is None, "too many branches to count"
    assert unknown.words("--dice").startswith(
        "--dice gave 2 faces; this resolution needs more: next 3-4 2d20 for 'defender point man "
        "2d20 (W01)', then for example 5-7 3d12 for 'damage AK-47 3d12 (W06)'"
    )
    assert needs(run, [*faces, 7, 7]) is None


def test_a_step_that_rolls_nothing_is_complete_at_once() -> None:
    """A dragonwarriors2 attack is declared in one step and rolled in the defender's."""
    engine = Engine(read_scenario(EXAMPLES / "dragonwarriors2" / "encounters" / "fencers.toml"))
    enc = Encounter.begin(engine, SeededDice(1))
    action = next(a.id for a in engine.legal_actions(enc.state) if a.kind == "attack")
    out = step_json(enc, action, ask_step(enc, action, []))
    assert out["complete"] and out["faces_so_far"] == [] and out["answered"] == []
    assert out["transcript"] == list(enc.trial(action, ScriptedDice([])).lines)


def test_the_rule_is_read_from_the_rolls_brackets_else_the_special_dies_own() -> None:
    def rule(why: str, kind: str = "plain") -> str:
        return Group(0, 1, 10, kind, "1d10", why).rule  # type: ignore[arg-type]

    assert rule("damage M16 3d10 (W06)") == "W06", "a weapon's name is no rule"
    assert rule("Aldric D100 vs strike chance 81 (Q01)") == "Q01"
    assert rule("weapon damage dice (T03, T05)") == "T03/T05"
    assert rule("Rolf: attack", "plus-minus") == "D01"
    assert rule("panic", "exploding") == "G02"
    assert rule("a roll") == ""
