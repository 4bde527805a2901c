"""What the rule-based extraction makes of a user's turns, as (content, category) pairs."""

from __future__ import annotations

from avatar_service.core.memory.extraction import extract_facts


def facts(*turns: str) -> list[tuple[str, str]]:
    return [(f.content, f.category) for f in extract_facts(turns)]
