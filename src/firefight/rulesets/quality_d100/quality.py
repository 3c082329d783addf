"""Q01: the quality of success of a D100 roll against a chance (strike chance or defence).

Every percentage rounds up. Each level needs the roll at or under its own threshold and every
lower one, so a quality never skips a level. Excellent and Fantastic exist only for chances above
100 and 200. Natural 01 is at least Decisive, natural 00 is always Poor. A die modifier (aiming,
assassin ranks: Q06) moves the roll, not the chance; the natural-face rules look at the die.
"""

from __future__ import annotations

from functools import lru_cache

from firefight.core.transcript import Note
from firefight.dice import DiceSource, Weighted, enumerate_outcomes
from firefight.rulesets.quality_d100.house import QualityD100House

#: Quality names and letters by level (Table 1 / Table 2).
NAMES: tuple[str, ...] = (
    "Poor",
    "Average",
    "Better",
    "Crucial",
    "Decisive",
    "Excellent",
    "Fantastic",
)
LETTERS = "PABCDEF"
BEST = len(NAMES) - 1
TEXT_RULES = QualityD100House()

#: The printed table's row 1 (Q02): the chance at which Average..Decisive start for a roll of 1.
PRINTED_ROW_1_STARTS: tuple[int, ...] = (1, 2, 3, 5)


def name(level: int) -> str:
    """``"Better (2)"`` for a quality level; levels at or below 0 are Poor."""
    level = max(0, min(BEST, level))
    return f"{NAMES[level]} ({level})"


def percent_up(percent: int, amount: int) -> int:
    """``percent``% of ``amount``, rounded up (the text's one rounding rule), in integers."""
    return -((-percent * amount) // 100)


def thresholds(chance: int, house: QualityD100House = TEXT_RULES) -> tuple[int | None, ...]:
    """Highest (modified) roll for each level Average..Fantastic; None where the level is absent."""
    over_100 = chance - house.excellent_offset
    over_200 = chance - house.fantastic_offset
    return (
        chance,
        percent_up(house.better_percent, chance),
        percent_up(house.crucial_percent, chance),
        percent_up(house.decisive_percent, chance),
        percent_up(house.decisive_percent, over_100) if over_100 > 0 else None,
        percent_up(house.decisive_percent, over_200) if over_200 > 0 else None,
    )


def _printed_row_1(chance: int, house: QualityD100House) -> int:
    level = sum(1 for start in PRINTED_ROW_1_STARTS if chance >= start)
    above = thresholds(chance, house)[len(PRINTED_ROW_1_STARTS) :]
    for extra, limit in enumerate(above, start=len(PRINTED_ROW_1_STARTS) + 1):
        if limit is None or limit < 1:
            break
        level = extra
    return level


def quality(
    roll: int, chance: int, *, natural: int | None = None, house: QualityD100House = TEXT_RULES
) -> int:
    """Quality level 0..6 of a modified ``roll`` against ``chance``; ``natural`` is the die face
    (defaults to ``roll``) for the natural 01 / 00 rules."""
    face = roll if natural is None else natural
    if face == 100:
        return 0
    if house.printed_row_1 and roll == 1:
        return _printed_row_1(chance, house)
    level = 0
    for candidate, limit in enumerate(thresholds(chance, house), start=1):
        if limit is None or roll > limit:
            break
        level = candidate
    if face == 1:
        level = max(level, house.natural_best_min_quality)
    return level


def roll_quality(
    dice: DiceSource,
    chance: int,
    die_modifier: int = 0,
    house: QualityD100House = TEXT_RULES,
    who: str = "attacker",
    against: str = "strike chance",
) -> int:
    """Roll D100 for ``who`` against ``chance`` and return the quality level (Q01)."""
    r = dice.roll("d100", why=f"{who} D100 vs {against} {chance} (Q01)")
    natural = r.total
    level = quality(natural + die_modifier, chance, natural=natural, house=house)
    if dice.is_exact:  # speed only: exact dice keep no transcript
        return level
    shown = f"{natural}{die_modifier:+d} = {natural + die_modifier}" if die_modifier else natural
    special = {1: ", natural 01", 100: ", natural 00"}.get(natural, "")
    dice.record(Note(f"{who} rolls {shown} vs {chance}{special}: {name(level)}", "Q01"))
    return level


@lru_cache(maxsize=4096)
def quality_distribution(
    chance: int, die_modifier: int = 0, house: QualityD100House = TEXT_RULES
) -> Weighted[int]:
    """Exact distribution of the quality level, from :func:`roll_quality` on exact dice."""
    return enumerate_outcomes(lambda d: roll_quality(d, chance, die_modifier, house))
