#!/usr/bin/env bash
# The plots the docs show, made again from the repository's root: bash docs/img/make_plots.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
img=docs/img
firefight odds warfare2d20 examples/warfare2d20/b_ak47_ambush.toml --plot $img/odds-ak47-ambush.png >/dev/null
firefight odds quality_d100 examples/quality_d100/evading_parry.toml --plot $img/odds-evading-parry.png >/dev/null
firefight simulate examples/warfare2d20/encounters/fire_team.toml -n 5000 --seed 1 \
    --plot $img/simulate-fire-team.png >/dev/null
firefight sweep examples/dragonwarriors2/encounters/goblin_duel.toml \
    --vary combatants.Snag.attack=4..8 -n 5000 --seed 1 --plot $img/sweep-goblins.png >/dev/null
firefight sweep examples/quality_d100/encounters/small_duel.toml \
    --vary combatants.Birk.armour=none,leather,chainmail,plate \
    --vary combatants.Ash.endurance=1..4 -n 2000 --seed 1 --plot $img/sweep-armour.png >/dev/null
