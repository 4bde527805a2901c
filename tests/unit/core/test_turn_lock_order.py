"""A text turn marks the memories it used in id order, not in the order the search ranked them.

Two turns of one user (two conversations) rank the same memories differently; marking them in ranked order
took the rows' locks in opposite orders, and PostgreSQL broke the deadlock by failing one turn with a 500.
Found by bench/load.py at 256 concurrent clients.
"""

from __future__ import annotations

from typing import Any

import pytest

from avatar_service.adapters.in_memory.repository import MemoryRepository
from avatar_service.core.model import ConversationCreate, MemoryCreate, MemorySearch

from .conftest import ORG, Core


async def test_used_memories_are_marked_in_id_order(core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    pid, uid = await core.personality(), await core.user()
    facts = ["Alice keeps bees in the garden", "Alice plays the violin on Sundays", "Alice sails a small boat"]
    for fact in facts:
        await core.memories.create(ORG, uid, MemoryCreate(personality_id=pid, content=fact))
    conversation = await core.conversations.create(ORG, ConversationCreate(personality_id=pid, user_id=uid))
    marked: list[str] = []
    original = MemoryRepository.set

    async def recording(self: Any, ident: str, expect: Any = None, **values: Any) -> bool:
        if "last_used_at" in values:
            marked.append(ident)
        return await original(self, ident, expect, **values)

    monkeypatch.setattr(MemoryRepository, "set", recording)
    orders = []
    # Each question ranks another fact first: whatever the (random) ids, ranked order breaks id order in two.
    for question in ["What about Alice and her bees?", "What about Alice and her violin?",
                     "What about Alice and her boat?"]:
        marked.clear()
        await core.conversations.say(ORG, conversation.id, question)
        # what the turn retrieved (its limit and threshold), best first
        ranked = await core.memories.search(ORG, uid, MemorySearch(query=question, personality_id=pid, limit=5,
                                                                  min_relevance=0.2))
        orders.append([hit.id for hit in ranked.data])
        assert sorted(marked) == sorted(orders[-1]) and marked == sorted(marked)
    assert len({order[0] for order in orders}) == 3 and all(len(order) == 3 for order in orders), orders
