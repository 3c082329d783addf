"""The record a resolution returns: its outcome (hashable, what odds enumerate), the transcript,
and a JSON-ready summary of the key figures."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from firefight.core.transcript import Transcript


@dataclass(frozen=True)
class Resolution:
    """One resolved situation: ``outcome`` is what odds enumerate and compare, the
    transcript and summary are what a person reads."""

    ruleset: str
    outcome: Hashable
    transcript: Transcript
    summary: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` form: ruleset, summary and every transcript event."""
        return {
            "ruleset": self.ruleset,
            "summary": dict(self.summary),
            "transcript": self.transcript.to_json(),
        }
