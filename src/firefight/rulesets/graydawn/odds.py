"""Exact odds of both situation kinds, read off the outcome distribution of the very rule that
resolves them: :func:`.attack.resolve_outcome` for attacks, :func:`.suppression_round._run` for a
round of suppression, each enumerated once on exact dice (the attack's last sub-rule, the hit
stage, spread over its table rather than replayed: :func:`.attack.outcome_weights`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from firefight.core.collector import collector_paused
from firefight.core.odds import OddsReport, outcome_distribution
from firefight.dice import Dist
from firefight.rulesets.graydawn.attack import outcome_weights
from firefight.rulesets.graydawn.damage import Saves, Wound
from firefight.rulesets.graydawn.models import LOCATIONS, wound_state
from firefight.rulesets.graydawn.situation import AttackSituation
from firefight.rulesets.graydawn.suppression import CHECK_RESULTS
from firefight.rulesets.graydawn.suppression_round import RULESET_ID, _run
from firefight.rulesets.graydawn.suppression_situation import SuppressionSituation


def attack_distribution(sit: AttackSituation) -> Any:
    """Exact distribution of :class:`AttackOutcome`: the enumeration of :func:`resolve_outcome`,
    its hit stage spread over its table rather than replayed (:func:`.attack.outcome_weights`)."""
    return outcome_weights(sit)


@collector_paused
def attack_odds(sit: AttackSituation) -> OddsReport:
    """P(hit), hits, location, marks and the wound-track probabilities, read off the exact
    outcome distribution of :func:`resolve_outcome` in one pass."""
    if sit.attack.mode == "reload":
        from firefight.rulesets.graydawn.reload import reload_odds

        return reload_odds(sit)
    dist = attack_distribution(sit)
    a, t = sit.attacker, sit.target
    weapon = a.weapon.name if a.weapon else "?"
    title = f"graydawn: {a.name} ({weapon}, {sit.attack.mode}) vs {t.name}"
    counts: dict[str, int] = {}
    locations: dict[str, int] = dict.fromkeys(LOCATIONS, 0)
    kinds: dict[str, int] = {}
    hits: dict[int, int] = {}
    damage: dict[int, int] = {}
    # A long burst has ~13,000 outcomes but far fewer distinct wounds, saves and attack
    # results: their weights are summed first (in first-seen order), then counted once each.
    wounds: dict[Wound, int] = {}
    saves: dict[Saves, int] = {}
    attacks: dict[tuple[bool, bool, bool, bool, bool, str | None], int] = {}
    #: the fumble's wound to the attacker (G06): (marks added, stunned) -> weight
    own: dict[tuple[int, bool], int] = {}

    def bump(name: str, weight: int, flag: bool = True) -> None:
        if flag:
            counts[name] = counts.get(name, 0) + weight

    # Wounds and saves by object first: the tables hand out the same objects to many outcomes,
    # and an object's id hashes in C; then by value, in the order the objects came.
    wound_objects: dict[int, list[Any]] = {}
    save_objects: dict[int, list[Any]] = {}
    for o, weight in dist.items():
        hits[o.hits] = hits.get(o.hits, 0) + weight
        damage[o.damage] = damage.get(o.damage, 0) + weight
        slot = wound_objects.get(id(o.wound))
        if slot is None:
            wound_objects[id(o.wound)] = [o.wound, weight]
        else:
            slot[1] += weight
        slot = save_objects.get(id(o.saves))
        if slot is None:
            save_objects[id(o.saves)] = [o.saves, weight]
        else:
            slot[1] += weight
        what = (
            o.hit,
            o.critical is not None,
            o.wound.penetrated,
            o.jammed,
            o.ally_hit is not None,
            o.location,
        )
        attacks[what] = attacks.get(what, 0) + weight
        if o.own is not None:
            hurt = (o.own[2], o.own[3].stunned)
            own[hurt] = own.get(hurt, 0) + weight
    for wound, weight in wound_objects.values():
        wounds[wound] = wounds.get(wound, 0) + weight
    for save, weight in save_objects.values():
        saves[save] = saves.get(save, 0) + weight
    for (hit, critical, penetrated, jammed, ally, location), weight in attacks.items():
        bump("hit", weight, hit)
        bump("miss", weight, not hit and not critical)
        bump("critical failure", weight, critical)
        bump("stopped", weight, hit and not penetrated)
        bump("jammed", weight, jammed)
        bump("ally", weight, ally)
        if location is not None:
            locations[location] += weight
    for wound, weight in wounds.items():
        bump("grazed", weight, wound.grazed)
        bump("wound", weight, wound.penetrated and not wound.grazed)
        bump("crippled", weight, wound.crippled)
        bump("severed", weight, wound.severed)
        bump("killed", weight, wound.killed_outright)
        if wound.penetrated:
            kinds[wound.kind] = kinds.get(wound.kind, 0) + weight
    for save, weight in saves.items():
        bump("stunned", weight, save.stunned)
        bump("death needed", weight, save.death_save_needed)
        bump("death failed", weight, save.death_save_failed)

    def p(name: str) -> Fraction:
        return Fraction(counts.get(name, 0), dist.total)

    probabilities = {
        "p_graze": p("grazed"),
        "p_crippled": p("crippled"),
        "p_severed": p("severed"),
        "p_killed_outright_head": p("killed"),
        "p_stunned": p("stunned"),
        "p_death_save_needed": p("death needed"),
        "p_death_save_failed": p("death failed"),
    }
    w = a.armed()
    if w.kind != "unarmed":  # G06: the reliability roll failed
        probabilities["p_jammed" if w.is_firearm else "p_broken"] = p("jammed")
    distributions = {
        "hits": Dist.from_mapping(hits, dist.total),
        "damage": Dist.from_mapping(damage, dist.total),
    }
    if own:
        probabilities["p_attacker_hurt"] = Fraction(
            sum(wt for (marks, _), wt in own.items() if marks), dist.total
        )
        probabilities["p_attacker_stunned"] = Fraction(
            sum(wt for (_, stunned), wt in own.items() if stunned), dist.total
        )
        mine: dict[int, int] = {0: dist.total - sum(own.values())}
        for (marks, _), wt in own.items():
            mine[marks] = mine.get(marks, 0) + wt
        distributions["attacker damage"] = Dist.from_mapping(mine, dist.total)
    if sit.attack.allies_in_melee:
        probabilities["p_ally_hit"] = p("ally")
    location_table: dict[str, Fraction] = {k: Fraction(v, dist.total) for k, v in locations.items()}
    kind_table: dict[str, Fraction] = {k: Fraction(v, dist.total) for k, v in kinds.items()}
    return OddsReport(
        ruleset="graydawn",
        title=title,
        p_hit=p("hit"),
        outcomes={
            "miss": p("miss"),
            "critical failure": p("critical failure"),
            "hit, stopped by cover/armour": p("stopped"),
            "hit, grazed": p("grazed"),
            "hit, wound": p("wound"),
        },
        distributions=distributions,
        tables={"location": location_table, "wound_kind": kind_table},
        probabilities=probabilities,
        truncated_mass=dist.truncated_mass,
        notes=(f"target starts with {t.wounds.marks} marks ({wound_state(t.wounds.marks)})",),
    )


def suppression_outcomes(situation: SuppressionSituation) -> Any:
    """Every outcome of :func:`resolve_suppression` with its exact probability."""
    return outcome_distribution(lambda d: _run(situation, d)[0])


@collector_paused
def suppression_odds(situation: SuppressionSituation) -> OddsReport:
    """Exact odds from the same code: levels, the check, hits, P(hit) by covering fire / lane."""
    w = suppression_outcomes(situation)
    t = situation.target
    check: dict[str, Fraction] = {}
    for name in CHECK_RESULTS:
        p = w.probability(lambda o, name=name: o.check == name)
        if p:
            check[name] = p
    dists: dict[str, Dist] = {}
    probs: dict[str, Fraction] = {}
    if situation.shooters:
        dists["levels"] = w.to_dist(lambda o: o.levels)
        dists["hits"] = w.to_dist(lambda o: o.hits)
    fire = {s.fire for s in situation.shooters}
    if fire & {"covering", "burst"}:
        probs["p_hit_covering_fire"] = w.probability(lambda o: o.fire_hits > 0)
    if "lane" in fire:
        probs["p_hit_lane"] = w.probability(lambda o: o.hits > 0 if t.in_lane != "no" else False)
    probs["p_panic"] = w.probability(lambda o: o.panicked)
    if situation.area is not None:
        probs["p_half_damage"] = w.probability(lambda o: o.dive == "half")
    p_hit = w.probability(lambda o: o.hits > 0) if situation.shooters else None
    outcomes = {f"check {k}": v for k, v in check.items()}
    return OddsReport(
        ruleset=RULESET_ID,
        title=f"graydawn suppression: {situation.name}",
        p_hit=p_hit,
        outcomes=outcomes,
        distributions=dists,
        tables={"check": check},
        probabilities=probs,
        truncated_mass=w.truncated_mass,
        notes=(
            "hits = hits on the target from the fire this round, at most the rounds fired (G11)",
        ),
    )
