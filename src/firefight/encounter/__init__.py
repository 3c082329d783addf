"""Encounters: whole fights on the rulesets' turn structures (the layer above ``rulesets``).

``read_scenario`` validates a scenario file; ``Engine`` settles rounds, lists legal actions,
steps on any dice source, and computes exact previews and transition kernels; ``Encounter`` is a
fight being played with its record (undo, redo, atomic saves); ``fight`` plays one to the end by
the sides' policies. The rulesets' side is :mod:`firefight.core.turns`.
"""

from firefight.encounter.engine import ESTIMATE_PLAYS, Engine, Preview
from firefight.encounter.fight import fight, fight_json, play, policy_rng, show_json
from firefight.encounter.policies import POLICIES, register_policy
from firefight.encounter.record import Encounter, Step, load_record, save_record
from firefight.encounter.scenario import Scenario, build_scenario, read_scenario

__all__ = [
    "ESTIMATE_PLAYS",
    "POLICIES",
    "Encounter",
    "Engine",
    "Preview",
    "Scenario",
    "Step",
    "build_scenario",
    "fight",
    "fight_json",
    "load_record",
    "play",
    "policy_rng",
    "read_scenario",
    "register_policy",
    "save_record",
    "show_json",
]
