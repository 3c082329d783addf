"""The conformance kit on RISK and its examples: firefight's promises for every ruleset."""

from pathlib import Path

from firefight.testing import RulesetConformance


class TestRiskConformance(RulesetConformance):
    ruleset = "risk"
    examples = Path(__file__).resolve().parents[1] / "examples"
