"""What memory extraction produces (`Fact`), its categories, and the rule-based extractor's entry point.

Kept apart from the rules themselves (extraction.py and the grammar it reads with): their thousand-odd
patterns take about 0.3 s to compile, which every process that wires the service up (each CLI command
included) would pay at start. The rules load on the first extraction instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

CATEGORIES = ("personal", "location", "preference", "relationship", "schedule", "context", "custom")


@dataclass(frozen=True, slots=True)
class Fact:
    content: str
    category: str
    confidence: float  # always below 1: 1.0 is kept for memories a person entered by hand
    extracted_from: str


class RuleFacts:
    """The FactExtractor port on the rules of extraction.py: offline, deterministic, well under a millisecond a
    turn once loaded."""

    name = "rules"

    async def facts(self, user_turns: Sequence[str]) -> list[Fact]:
        from avatar_service.core.memory.extraction import extract_facts

        return extract_facts(user_turns)
