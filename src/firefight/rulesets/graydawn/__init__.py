"""graydawn: X-Com Gray Dawn on CP2020 (opposed exploding d10s, hit locations, SP, wound track).

Two situation kinds: ``attack`` (this package's attack-and-damage half, :mod:`.attack`) and
``suppression`` (the suppression half, :mod:`.suppression`), declared in :mod:`.ruleset`. The
data model both share is in :mod:`.models`.
"""

from firefight.rulesets.graydawn.ruleset import RULESET, Graydawn

__all__ = ["RULESET", "Graydawn"]
