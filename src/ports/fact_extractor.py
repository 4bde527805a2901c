"""Fact extraction port: the facts about the user that a finished conversation's user turns state."""

from collections.abc import Sequence
from typing import Protocol

from avatar_service.core.memory.facts import Fact


class FactExtractor(Protocol):
    """The rules (core.memory.extraction.RuleFacts) by default; a language model when one is configured."""

    name: str

    async def facts(self, user_turns: Sequence[str]) -> list[Fact]:
        """Facts in the third person with "User" as the subject, each with a category from CATEGORIES and a
        confidence below 1. Never raises for what the turns say: an extractor that cannot answer falls back."""
        ...
