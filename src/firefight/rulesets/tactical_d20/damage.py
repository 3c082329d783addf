"""Damage dice (T03, T05, T07, T12 readings) and cover (T11): pure functions, no dice.

Readings (see docs/rules/tactical_d20.md):

- A critical hit is a natural 20 (house ``critical_natural``).
- "Doubles damage dice" doubles the *number* of weapon dice: 1d8 -> 2d8 (head hit; torso critical).
- The extra die of a burst, double burst or buckshot shot is one die. The text sizes it on what
  the weapon "normally deals": with ``printed_dice`` (default) that is the printed damage, before a
  head hit or a critical doubles the dice, so a 1-die weapon's extra die is one size lower even on
  a head hit (the SMG example's 1d4); a torso critical, which doubles the dice, moves it one size
  up (the coach gun's "1d8, critical hit die upgrade"). ``rolled_dice`` (house) sizes it on the
  dice the attack rolls after doubling; ``base_dice_critical_upgrade`` (house) is printed dice
  and one size up on any critical.
"""

from __future__ import annotations

from dataclasses import dataclass

from firefight.rulesets.tactical_d20.house import TacticalD20House
from firefight.rulesets.tactical_d20.models import Ammo, Cover, Weapon


def step_die(size: int, by: int, steps: tuple[int, ...]) -> int:
    """The die ``by`` sizes up (negative: down) the ladder, stopping at its ends."""
    i = steps.index(size) + by
    return steps[max(0, min(len(steps) - 1, i))]


def weapon_dice(weapon: Weapon, doubled: bool) -> tuple[int, int]:
    """(count, size) of the weapon dice this attack rolls."""
    count, size = weapon.dice
    return (2 * count if doubled else count), size


def extra_die_size(
    weapon: Weapon, doubled: bool, critical: bool, house: TacticalD20House, *, region: str = "torso"
) -> int:
    """Size of one extra damage die from a burst, double burst or buckshot (T07, T12)."""
    base_count, size = weapon.dice
    if house.extra_die_rule == "rolled_dice":
        rolled = 2 * base_count if doubled else base_count
        return size if rolled > 1 else step_die(size, -1, house.die_steps)
    sized = size if base_count > 1 else step_die(size, -1, house.die_steps)
    # printed_dice: the upgrade comes with the critical that doubles the dice (torso)
    upgrade = critical and (house.extra_die_rule != "printed_dice" or region == "torso")
    return step_die(sized, 1, house.die_steps) if upgrade else sized


@dataclass(frozen=True)
class CoverEffect:
    """What cover does to one attack: stop it, add to the damage threshold, or nothing."""

    stops: bool
    extra_threshold: int
    reason: str


def cover_effect(weapon: Weapon, ammo: Ammo, cover: Cover, house: TacticalD20House) -> CoverEffect:
    """T11: concealment, light and heavy cover against this weapon and ammunition."""
    ap = ammo == "armour_piercing"
    if cover == "none":
        return CoverEffect(False, 0, "")
    if cover == "concealment":
        if weapon.is_ranged and (ammo == "birdshot" or weapon.kind != "firearm"):
            return CoverEffect(True, 0, "birdshot and non-firearm ranged attacks cannot breach it")
        return CoverEffect(False, 0, "concealment: shots pass through")
    if cover == "heavy":
        if ap and weapon.calibre == "rifle":
            return CoverEffect(False, 0, "armour-piercing rifle ammunition ignores heavy cover")
        return CoverEffect(True, 0, "heavy cover protects against all damage")
    if ap and weapon.calibre in ("pistol", "rifle"):
        return CoverEffect(False, 0, f"armour-piercing {weapon.calibre} ammunition ignores it")
    if weapon.damage_type != "ballistic":
        return CoverEffect(True, 0, f"light cover negates {weapon.damage_type} damage")
    return CoverEffect(
        False, house.light_cover_threshold, "light cover adds to the threshold vs ballistic"
    )
