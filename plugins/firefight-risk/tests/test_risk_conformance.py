"""The conformance kit on RISK and the examples it ships: firefight's promises for every
ruleset."""

from firefight.testing import RulesetConformance


class TestRiskConformance(RulesetConformance):
    ruleset = "risk"
