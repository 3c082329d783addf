"""Q02: the Success Quality Table (57.4), rendered from the Q01 rules.

For each roll 1..100 and each level Average..Fantastic, the cell is the range of chances whose
quality for that roll is that level: "lo-hi", "lo" for one chance, "lo+" when it never ends, and
"-" when no chance gives it or it starts above the chances the printed table reaches (300).
"""

from __future__ import annotations

from firefight.rulesets.quality_d100.house import QualityD100House
from firefight.rulesets.quality_d100.quality import BEST, NAMES, TEXT_RULES, quality

#: Beyond this chance every roll 1..99 already reaches Fantastic (10 x 99 + 200 < 1200).
_SCAN_TO = 1300


def chance_ranges(
    roll: int, house: QualityD100House = TEXT_RULES
) -> dict[int, tuple[int, int | None]]:
    """For one roll: level -> (first chance, last chance or None if open-ended), chances >= 1."""
    spans: dict[int, tuple[int, int | None]] = {}
    for chance in range(1, _SCAN_TO + 1):
        level = quality(roll, chance, house=house)
        if level == 0:
            continue
        lo, _ = spans.get(level, (chance, None))
        spans[level] = (lo, chance)
    return {
        level: (lo, None if hi == _SCAN_TO else hi)
        for level, (lo, hi) in spans.items()
        if hi is not None
    }


def cell(span: tuple[int, int | None] | None, cap: int) -> str:
    if span is None or span[0] > cap:
        return "-"
    lo, hi = span
    if hi is None:
        return f"{lo}+"
    return str(lo) if lo == hi else f"{lo}-{hi}"


def headers() -> list[str]:
    return ["Roll", *(f"{NAMES[level]} ({level})" for level in range(1, BEST + 1))]


def table_rows(
    rows: tuple[int, int] | None = None, printed: bool = False, house: QualityD100House = TEXT_RULES
) -> list[list[str]]:
    """Rows of the table; ``printed`` reads row 1 as printed (Q02 contradiction) instead."""
    lo, hi = rows if rows is not None else (1, 100)
    lo, hi = max(1, lo), min(100, hi)
    if printed:
        house = house.model_copy(update={"printed_row_1": True})
    out = []
    for roll in range(lo, hi + 1):
        spans = chance_ranges(roll, house)
        cells = [cell(spans.get(level), house.printed_chance_cap) for level in range(1, BEST + 1)]
        out.append([str(roll), *cells])
    return out
