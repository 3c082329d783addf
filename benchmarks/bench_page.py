"""The GM's page in Chromium: its first paint and how long every click takes to be answered, on
every example encounter, against a real ``firefight serve`` process.

For each example the GM's page is opened at a phone's size (390 x 844) and at a laptop's
(1366 x 768): *first paint* is Chromium's first contentful paint, *state shown* the moment the
page has drawn the encounter (its cards, whose turn, the actions), both from the start of the
navigation. Then, at the laptop's size, the GM clicks: the first action group's "roll" (up to
``--steps`` times while the fight lasts), undo, redo, and a refused click (table dice "x"). A
click is *answered* when the page shows the new state (the write's answer drawn) or the
refusal's line, timed inside the page from the click event. The odds previews fill in behind,
as a GM sees them, and share the server's CPU with the clicks.

Times are wall-clock milliseconds on whatever else the machine runs: the load average is
printed and written beside them. Writes its section of docs/performance.md (``--no-write``
only prints; ``--only TEXT`` times only the examples whose name contains TEXT and never writes).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from perfdoc import write_table
from tests.web.serving import Server, chromium

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## The GM's page in Chromium"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
WAIT_MS = 60_000

#: Installed before the page's own scripts: when the state is first drawn, and how long after
#: each click on a button the page showed a new version or a refusal.
TIMING = """
window.__answers = [];
window.__shown = null;
addEventListener("click", (event) => {
  if (event.target.closest("button")) window.__clicked = performance.now();
}, true);
new MutationObserver((records) => {
  for (const r of records) {
    const now = performance.now();
    const version = r.attributeName === "data-version" && r.target.dataset.version !== r.oldValue;
    const refused = r.attributeName === "hidden" && r.target.id === "toast" && !r.target.hidden;
    if (version && window.__shown === null) window.__shown = now;
    if ((version || refused) && window.__clicked !== undefined) {
      window.__answers.push(now - window.__clicked);
      window.__clicked = undefined;
    }
  }
}).observe(document, { subtree: true, attributes: true, attributeOldValue: true,
  attributeFilter: ["data-version", "hidden"] });
"""


def open_gm(page: Page, url: str) -> tuple[float, float]:
    """The GM's page loaded: (first contentful paint, state shown), ms from navigation."""
    page.goto(url)
    page.wait_for_function("window.__shown !== null", timeout=WAIT_MS)
    paint = page.evaluate(
        "() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime"
    )
    shown: float = page.evaluate("window.__shown")
    return float(paint or shown), shown


def answered(page: Page, click: Any) -> float:
    """Milliseconds from the click to its answer on the page; the page settled after."""
    before = page.evaluate("window.__answers.length")
    click()
    page.wait_for_function(f"window.__answers.length > {before}", timeout=WAIT_MS)
    page.wait_for_function("!document.body.dataset.busy", timeout=WAIT_MS)
    took: float = page.evaluate(f"window.__answers[{before}]")
    return took


def clicks(page: Page, steps: int) -> list[tuple[str, float]]:
    """Roll the first group up to ``steps`` times, undo, redo, one refused click."""
    out = []
    for _ in range(steps):
        roll = page.locator("[data-action] [data-roll]").first
        if not roll.count():
            break  # the fight is over
        out.append(("roll", answered(page, roll.click)))
    if out:
        out.append(("undo", answered(page, page.locator("[data-testid=undo]").click)))
        out.append(("redo", answered(page, page.locator("[data-testid=redo]").click)))
    page.locator("[data-testid=dice-mode]").click()
    group = page.locator("[data-action]").first
    if group.count():
        group.locator("input").fill("x")
        out.append(("refused", answered(page, group.locator("[data-table]").click)))
        page.locator("#toast-close").click()
    page.locator("[data-testid=dice-mode]").click()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--steps", type=int, default=3, help="rolls clicked per example")
    parser.add_argument("--only", action="append", metavar="TEXT")
    args = parser.parse_args()
    examples = sorted(
        f"{p.parent.parent.name}/{p.stem}" for p in (ROOT / "examples").glob("*/encounters/*.toml")
    )
    if args.only:
        examples = [e for e in examples if any(text in e for text in args.only)]
    paints: dict[str, list[float]] = {"phone": [], "laptop": []}
    shown: dict[str, list[float]] = {"phone": [], "laptop": []}
    times: dict[str, list[float]] = {}
    worst: list[tuple[float, str]] = []
    with tempfile.TemporaryDirectory() as tmp, chromium() as browser:
        engine = f"Chromium {browser.version}"
        server = Server(Path(tmp) / "bench.sqlite3")
        try:
            for example in examples:
                for size, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
                    made = httpx.post(
                        server.url + "/api/encounters",
                        json={"example": example, "seed": 1},
                        timeout=60,
                    ).json()
                    url = (
                        f"{server.url}/gm/{made['id']}"
                        f"#gm={made['gm_token']}&player={made['player_token']}"
                    )
                    page = browser.new_page(viewport=viewport)
                    page.add_init_script(TIMING)
                    paint, state = open_gm(page, url)
                    paints[size].append(paint)
                    shown[size].append(state)
                    line = f"{example} {size}: first paint {paint:.0f} ms, state {state:.0f} ms"
                    if size == "laptop":
                        done = clicks(page, args.steps)
                        for what, ms in done:
                            times.setdefault(what, []).append(ms)
                            worst.append((ms, f"{example} {what}"))
                        line += "; clicks " + ", ".join(f"{w} {ms:.0f}" for w, ms in done)
                    print(line, flush=True)
                    page.close()
        finally:
            server.stop()
    every = [ms for values in times.values() for ms in values]
    over = sorted((w for w in worst if w[0] >= 200), reverse=True)
    rows = []
    for size in ("phone", "laptop"):
        rows.append(
            (
                f"first paint of the GM's page at a {size}'s size, every example "
                "(median, worst); the encounter drawn (median, worst)",
                "< 1 s",
                f"{statistics.median(paints[size]):.0f} ms, {max(paints[size]):.0f} ms; "
                f"{statistics.median(shown[size]):.0f} ms, {max(shown[size]):.0f} ms",
                "python benchmarks/bench_page.py",
            )
        )
    for what, values in times.items():
        rows.append(
            (
                f"a click on {what}, answered on the page (median, worst of {len(values)})",
                "< 200 ms",
                f"{statistics.median(values):.0f} ms, {max(values):.0f} ms",
                "python benchmarks/bench_page.py",
            )
        )
    slow = "; ".join(f"{name} {ms:.0f} ms" for ms, name in over[:6])
    rows.append(
        (
            "every click of every example",
            "< 200 ms",
            f"{len(every) - len(over)} of {len(every)} under 200 ms"
            + (f"; slowest: {slow}" if slow else ""),
            "python benchmarks/bench_page.py",
        )
    )
    for what, goal, measured, _ in rows:
        print(f"{what}: {measured} (goal {goal})")
    print(f"load average {os.getloadavg()[0]:.1f}")
    if not args.no_write and not args.only:
        from importlib.metadata import version

        versions = f"Playwright {version('playwright')}, {engine}"
        write_table(SECTION, "bench_page.py", versions, rows)


if __name__ == "__main__":
    main()
