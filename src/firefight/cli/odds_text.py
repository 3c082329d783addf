"""An action's answers in words, for the command line's tables (the GM's page has its own,
``static/odds.js``, reading the same JSON the same way).

Exact figures show with one decimal, estimates as ``~41% (38-44%)`` with their 95% intervals;
a figure that rounds to nothing is left out (a shooter's own 0.0% says nothing).
"""

from __future__ import annotations

from typing import Any


def pct(p: float, interval: list[float] | None = None) -> str:
    """``41.2%`` (exact), or ``~41% (38-44%)`` with an estimate's interval."""
    if interval is None:
        return f"{100 * p:.1f}%"
    lo, hi = interval
    return f"~{100 * p:.0f}% ({100 * lo:.0f}-{100 * hi:.0f}%)"


def _shown(p: float, estimated: bool) -> bool:
    """Whether a chance says anything at the precision it is shown at."""
    return round(100 * p, 0 if estimated else 1) > 0


def odds_text(row: dict[str, Any], labels: dict[str, str] | None = None) -> str:
    """The odds of one action (a row of ``Evaluation.rows``) in one line."""
    odds = row.get("odds") or {}
    samples = odds.get("samples", 0)
    if not odds.get("exact", True) and not samples:
        return str(odds.get("note") or "not worked out yet")
    ci = odds.get("ci95", {}) if samples else {}
    est = bool(samples)
    parts: list[str] = []
    p_success = odds.get("p_success", 0.0)
    if _shown(p_success, est):
        parts.append("lands " + pct(p_success, ci.get("p_success")))
    conditions = odds.get("conditions", {})
    for name in dict.fromkeys([*odds.get("p_out", {}), *conditions]):
        said = []
        p = odds.get("p_out", {}).get(name, 0.0)
        if _shown(p, est):
            said.append("out " + pct(p, ci.get("p_out", {}).get(name)))
        for what, q in conditions.get(name, {}).items():
            if _shown(q, est):
                said.append(f"{what} " + pct(q, ci.get("conditions", {}).get(name, {}).get(what)))
        if said:
            parts.append(f"{name} " + ", ".join(said))
    for name, h in odds.get("expected_harm", {}).items():
        if round(h, 2):
            parts.append(f"{name} {'+' if h > 0 else ''}{h:.2f} harm")
    text = "; ".join(parts) or "no effect on anyone now"
    if "same_as" in odds:
        other = (labels or {}).get(odds["same_as"], odds["same_as"])
        why = odds.get("same_why")
        text += f"; same odds here as {other}" + (f": {why}" if why else "")
    risk = odds.get("risk")
    if risk is not None:
        shown = pct(risk["p"], None if risk["exact"] else risk["ci95"])
        text += f"; {row['actor']} hurt before next turn {shown}"
        defence = odds.get("defence")
        if defence is not None and row.get("defensive") and defence["p_less"] >= 0.005:
            other = (labels or {}).get(defence["against"], defence["against"])
            text += f" ({100 * defence['p_less']:.0f} points less than {other})"
    if est:
        text += f"; estimated from {samples:,} plays"
    return text


def win_text(row: dict[str, Any], side: str) -> str:
    """``side``'s chance of winning if the action is taken: exact, or with its interval."""
    win = row.get("win")
    if not win:
        return "-"
    p = win["p"].get(side, 0.0)
    if win["exact"]:
        return f"{100 * p:.1f}% (exact)"
    lo, hi = win["ci95"][side]
    return f"{100 * p:.0f}% +-{100 * max(p - lo, hi - p):.0f} ({win['fights']:,} fights)"
