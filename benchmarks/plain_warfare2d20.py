"""A plain direct solver of a warfare2d20 duel, written from the text (W01-W03, W06, W08-W11)
and docs/rules/warfare2d20.md (its readings, the W11 heart-rate model and the encounter's turn
structure), for ``bench_exact.py`` to race against ``firefight simulate --exact``: no firefight
code, floats, identical states merged after every shot (its rolls summed out).

What it covers (and refuses otherwise): two combatants on two sides, each side's policy
``first`` (every action a shot at the other in the weapon's first fire mode: the first legal
action), that mode without a shock margin (delta s 0: no shock, so nobody is pinned), no cover,
no ambushers, no house rules or extra catalogs, one range band for the battlefield.

The fight: initiative once, when the confrontation starts (W10): 2d10 each, a pass at or under
mettle; passes act before failures, the lower roll first, a tie to the one listed first. Each
round both take dexterity // 4 actions (W11), one at a time in that order, round and round.
A shot (W01-W03): attacker and defender roll 2d20; delta = |attacker - defender| + the shooter's
range, movement, recoil and out-of-breath modifiers; a hit when that is at most delta t = 10 +
rate of fire + the target's visibility. A hit's damage dice face the armour's soak dice, both
high to low, a damage die through only when strictly higher, a damage die with no soak die
against it through in full (W06); stamina takes the pain threshold off it while stamina lasts,
the rest comes off hit points (W08); hit points at 0 or below: dead; otherwise hit points lost
above 25% of the total call for 2d10 at or under endurance, or the target falls unconscious
(W09). Either ends the duel. Fatigue (W11, the project's model): a round's heart rate is the
pace's base (still 80, walking 100, running 130, sprinting 160) or the rate carried, whichever
is higher, plus 10 an action; over 140 + 2 x endurance the next round's shots take +1 delta and
1 more per full 10 beats over; 30 beats come off between rounds. Under ``first`` both take every
action while the duel lasts, so each round's fatigue is known before the fight.
"""

from __future__ import annotations

import itertools
import json
import sys
import tomllib
from collections import Counter
from pathlib import Path

CATALOG = Path(__file__).resolve().parents[1] / "src/firefight/rulesets/warfare2d20/catalog.toml"
BASE_DELTA_T = 10
MOVEMENT_DELTA = {"still": 0, "walking": 2, "running": 4, "sprinting": 6}
VISIBILITY_DELTA_T = {"clearly visible": 0, "vaguely visible": -2, "hardly visible": -4}
#: The W11 model (docs/rules/warfare2d20.md): base heart rate by pace, beats per action, the
#: breath limit 140 + 2 x endurance, a penalty step of 10 beats, 30 beats recovered a round.
HEART_BASE = {"still": 80, "walking": 100, "running": 130, "sprinting": 160}
PER_ACTION, BREATH_BASE, BREATH_PER_ENDURANCE, PENALTY_STEP, RECOVERY = 10, 140, 2, 10, 30
#: W09: a hit taking more than this share of the total hit points calls the endurance check.
ENDURANCE_PERCENT = 25
#: A shot's effect on its target: (hit points, stamina) if he stands -> probability, P(out),
#: and the harm done by the shots that put him out, weighted by their probability.
Struck = tuple[dict[tuple[int, int], float], float, float]


def pool(expr: str) -> Counter[tuple[int, ...]]:
    """``NdX`` rolled, as the faces high to low -> ways."""
    n, sides = (int(x) for x in expr.lower().split("d"))
    return Counter(
        tuple(sorted(faces, reverse=True))
        for faces in itertools.product(range(1, sides + 1), repeat=n)
    )


def total_under(expr: str, score: int) -> float:
    """P(the dice's total is at most ``score``): the 2d10 checks (W09, W10)."""
    rolls = pool(expr)
    return sum(w for faces, w in rolls.items() if sum(faces) <= score) / rolls.total()


def abs_delta() -> dict[int, float]:
    """|2d20 - 2d20| -> probability (W01)."""
    two = Counter(a + b for a in range(1, 21) for b in range(1, 21))
    out: dict[int, float] = {}
    for x, wx in two.items():
        for y, wy in two.items():
            out[abs(x - y)] = out.get(abs(x - y), 0.0) + wx * wy / 400**2
    return out


def through(damage: str, soak: str | None) -> dict[int, float]:
    """Damage through the soak roll -> probability (W06): pair by pair, high to low."""
    hits = pool(damage)
    soaks = pool(soak) if soak else Counter({(): 1})
    ways = hits.total() * soaks.total()
    out: dict[int, float] = {}
    for faces, w in hits.items():
        for stops, v in soaks.items():
            got = sum(d for i, d in enumerate(faces) if i >= len(stops) or d > stops[i])
            out[got] = out.get(got, 0.0) + w * v / ways
    return out


def entry(catalog: dict, section: str, value: object) -> dict:
    """A catalog name (any case) or an inline table."""
    if isinstance(value, dict):
        return value
    found = {k.lower(): v for k, v in catalog[section].items()}
    return found[str(value).lower()]


class Fighter:
    def __init__(self, spec: dict, catalog: dict, band: str | None) -> None:
        for field in ("ambusher", "cover_nearby", "modifiers"):
            if spec.get(field):
                raise SystemExit(f"{spec['name']}: {field} is not covered")
        self.name, self.side = spec["name"], spec["side"]
        stats = entry(catalog, "combatants", spec["combatant"])
        self.hit_points, self.endurance = stats["hit_points"], stats["endurance"]
        self.mettle, self.pain = stats["mettle"], stats["pain_threshold"]
        self.actions = max(1, stats["dexterity"] // 4)
        self.hp = spec.get("hit_points_left", stats["hit_points"])
        self.stamina = spec.get("stamina_left", stats["stamina"])
        weapon = entry(catalog, "weapons", spec["weapon"])
        self.damage = weapon["damage"]
        mode = next(iter(weapon["fire_modes"].values()))  # the first mode: the first action
        if mode.get("delta_s", 0):
            raise SystemExit(f"{self.name}: a first fire mode with a shock margin")
        self.pace = spec.get("movement", "still")
        self.delta = (
            mode.get("recoil", 0)
            + MOVEMENT_DELTA[self.pace]
            + (weapon.get("range_modifiers", {}).get(band, 0) if band else 0)
        )
        self.rate_of_fire = mode.get("delta_t", 0)
        self.visibility = VISIBILITY_DELTA_T[spec.get("visibility", "clearly visible")]
        armour = spec.get("armour")
        self.soak = entry(catalog, "armour", armour)["soak"] if armour else None

    def breath(self, rounds: int) -> list[int]:
        """The out-of-breath delta of this fighter's shots in rounds 1..rounds (W11)."""
        penalties, carried = [0], 0
        limit = BREATH_BASE + BREATH_PER_ENDURANCE * self.endurance
        for _ in range(rounds - 1):
            rate = max(HEART_BASE[self.pace], carried) + PER_ACTION * self.actions
            over = rate - limit
            penalties.append(over // PENALTY_STEP + 1 if over > 0 else 0)
            carried = rate - RECOVERY
        return penalties


def first_listed_first(x: Fighter, y: Fighter) -> float:
    """P(the one listed first acts first) (W10)."""
    rolls = pool("2d10")
    ways = rolls.total() ** 2
    p = 0.0
    for a, wa in rolls.items():
        for b, wb in rolls.items():
            ra, rb = sum(a), sum(b)
            rank_a = (0 if ra <= x.mettle else 1, ra)
            rank_b = (0 if rb <= y.mettle else 1, rb)
            if rank_a <= rank_b:
                p += wa * wb / ways
    return p


def schedule(order: tuple[int, int], fighters: list[Fighter]) -> list[int]:
    """Who shoots, shot by shot, in one round: one action each in turn while any are left."""
    left = [f.actions for f in fighters]
    out = []
    while any(left):
        for i in order:
            if left[i]:
                out.append(i)
                left[i] -= 1
    return out


def solve(path: Path) -> dict:
    scenario = tomllib.loads(path.read_text())
    catalog = tomllib.loads(CATALOG.read_text())
    for key in ("house", "catalogs"):
        if key in scenario:
            raise SystemExit(f"{key} is not covered")
    if any(s.get("policy", "first") != "first" for s in scenario["sides"]):
        raise SystemExit("only the first policy")
    field = scenario.get("battlefield", {})
    if field.get("pairs") or field.get("cover"):
        raise SystemExit("only one range band and no cover")
    fighters = [Fighter(c, catalog, field.get("range")) for c in scenario["combatants"]]
    if len(fighters) != 2 or fighters[0].side == fighters[1].side:
        raise SystemExit("only duels: two combatants on two sides")
    rounds = scenario.get("max_rounds", 50)
    deltas = abs_delta()
    breath = [f.breath(rounds) for f in fighters]
    damage = [through(fighters[i].damage, fighters[1 - i].soak) for i in (0, 1)]
    cool = [total_under("2d10", f.endurance) for f in fighters]

    def shot(i: int, r: int) -> tuple[float, dict[int, float]]:
        """Fighter i's shot in round r: P(miss), and a hit's damage through the soak."""
        target = fighters[1 - i]
        most = BASE_DELTA_T + fighters[i].rate_of_fire + target.visibility
        most -= fighters[i].delta + breath[i][r - 1]
        hit = sum(p for d, p in deltas.items() if d <= most)
        return 1.0 - hit, {dmg: hit * p for dmg, p in damage[i].items()}

    moves: dict[tuple[int, int, int, int], Struck] = {}

    def struck(i: int, r: int, hp: int, st: int) -> Struck:
        """Fighter i's shot in round r at the other, standing at (hp, st): his (hit points,
        stamina) after it if still standing -> probability, P(out), and the harm the shot
        does to him, summed over the ways he goes out (W08, W09)."""
        key = (i, breath[i][r - 1], hp, st)
        if key not in moves:
            t = fighters[1 - i]
            miss, hits = shot(i, r)
            stay = {(hp, st): miss}
            out = harm = 0.0
            for dmg, q in hits.items():
                absorbed = min(t.pain, st, dmg)
                lost = dmg - absorbed
                after = (hp - lost, st - absorbed)
                standing = 1.0
                if hp - lost <= 0:
                    standing = 0.0
                elif lost * 100 > ENDURANCE_PERCENT * t.hit_points:
                    standing = cool[1 - i]
                out += q * (1 - standing)
                harm += q * (1 - standing) * dmg
                if standing:
                    stay[after] = stay.get(after, 0.0) + q * standing
            moves[key] = (stay, out, harm)
        return moves[key]

    wins = {f.side: 0.0 for f in fighters}
    taken = {f.name: 0.0 for f in fighters}
    ended = [0.0] * rounds
    truncated = 0.0

    def harm(k: int, state: tuple[int, ...]) -> int:
        """What fighter k has lost in the fight so far (stamina and hit points)."""
        f = fighters[k]
        return f.hp - state[2 * k] + f.stamina - state[2 * k + 1]

    p_first = first_listed_first(*fighters)
    for p_order, order in ((p_first, (0, 1)), (1.0 - p_first, (1, 0))):
        plan = schedule(order, fighters)
        # (hit points, stamina) of each -> probability, both still fighting
        states = {(fighters[0].hp, fighters[0].stamina, fighters[1].hp, fighters[1].stamina): 1.0}
        for r in range(1, rounds + 1):
            for i in plan:
                j = 1 - i
                nxt: dict[tuple[int, ...], float] = {}
                for state, p in states.items():
                    stay, out, lost = struck(i, r, state[2 * j], state[2 * j + 1])
                    for (hp, st), q in stay.items():
                        key = (hp, st, state[2], state[3]) if j == 0 else (*state[:2], hp, st)
                        nxt[key] = nxt.get(key, 0.0) + p * q
                    if out:
                        gone = p_order * p * out
                        wins[fighters[i].side] += gone
                        ended[r - 1] += gone
                        taken[fighters[i].name] += gone * harm(i, state)
                        taken[fighters[j].name] += gone * harm(j, state) + p_order * p * lost
                states = nxt
        for state, p in states.items():
            truncated += p_order * p
            for k, f in enumerate(fighters):
                taken[f.name] += p_order * p * harm(k, state)
    return {"wins": wins, "truncated": truncated, "rounds": ended, "taken": taken}


if __name__ == "__main__":
    print(json.dumps(solve(Path(sys.argv[1]))))
