"""The extraction job against the memories a user already has: a contradiction updates, a repeat is skipped."""

from __future__ import annotations

from typing import Any

from avatar_service.core.model import ConversationCreate, MemoryBulkCreate
from avatar_service.core.model.memories import MemoryItem
from avatar_service.core.pagination import page_request
from avatar_service.core.services.memory_extraction import MemoryExtractor

from .conftest import ORG, Core


async def talk(core: Core, personality: str, user: str, *turns: str) -> str:
    conversation = await core.conversations.create(ORG, ConversationCreate(personality_id=personality, user_id=user))
    for turn in turns:
        await core.conversations.say(ORG, conversation.id, turn)
    await core.conversations.end(ORG, conversation.id)
    [job] = [j for j in core.jobs("memory.extract") if j["payload"]["id"] == conversation.id]
    await core.container.resolve(MemoryExtractor)(job["payload"])
    return conversation.id


async def memories(core: Core, user: str) -> list[Any]:
    return (await core.memories.list(ORG, user, page_request(None, None))).data


async def prior(core: Core, personality: str, user: str, *contents: str) -> list[Any]:
    made = await core.memories.bulk(ORG, user, MemoryBulkCreate(personality_id=personality, memories=[
        MemoryItem(content=c, category="location") for c in contents]))
    return list(made.data)


async def test_a_move_updates_where_the_user_lives(core: Core) -> None:
    personality, user = await core.personality(), await core.user()
    [old] = await prior(core, personality, user, "Alice lives in Utrecht")
    conversation = await talk(core, personality, user, "I just moved to Amsterdam from Utrecht.")
    [memory] = await memories(core, user)
    assert memory.id == old.id and memory.content == "User moved to Amsterdam from Utrecht"
    assert memory.category == "location" and memory.confidence < 1
    assert memory.source.type == "conversation" and memory.source.conversation_id == conversation
    assert memory.source.extracted_from == "I just moved to Amsterdam from Utrecht."


async def test_a_new_job_and_a_changed_taste_update_the_older_memory(core: Core) -> None:
    personality, user = await core.personality(), await core.user()
    job, taste = await prior(core, personality, user, "User works as a teacher", "User loves coffee")
    await talk(core, personality, user, "I started a new job as a librarian last week.",
               "I don't like coffee anymore, I drink tea now.")
    by_id = {m.id: m.content for m in await memories(core, user)}
    assert by_id[job.id] == "User works as a librarian" and by_id[taste.id] == "User does not like coffee"
    assert sorted(by_id.values()) == ["User does not like coffee", "User drinks tea", "User works as a librarian"]


async def test_a_repeated_fact_is_not_stored_twice(core: Core) -> None:
    personality, user = await core.personality(), await core.user()
    await prior(core, personality, user, "User lives in Lisbon")
    await talk(core, personality, user, "I live in Lisbon, as you know.", "I live in Lisbon!")
    assert [m.content for m in await memories(core, user)] == ["User lives in Lisbon"]
    await talk(core, personality, user, "My dog Rex loves the beach.")
    await talk(core, personality, user, "My dog Rex loves the beach.")
    contents = sorted(m.content for m in await memories(core, user))
    assert contents == ["User lives in Lisbon", "User's dog Rex loves the beach"]  # the name is in it


async def test_memories_of_another_personality_are_left_alone(core: Core) -> None:
    first, second, user = await core.personality(), await core.personality(), await core.user()
    [old] = await prior(core, first, user, "User lives in Utrecht")
    await talk(core, second, user, "We moved to Rotterdam last month.")
    contents = {m.id: (m.content, m.personality_id) for m in await memories(core, user)}
    assert contents[old.id] == ("User lives in Utrecht", first)
    assert ("User moved to Rotterdam", second) in contents.values()
