"""Memory extraction when a conversation ends: stored for memory_enabled users only, near-duplicates update."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from .helpers import Receiver, Service, create_personality, create_user, events_of, subscribe


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    return {"allow_private_urls": True}


async def talk(service: Service, client: AsyncTestClient[Any], personality_id: str, user_id: str,
               *turns: str) -> str:
    conversation = (await client.post("/v1/conversations", json={
        "personality_id": personality_id, "user_id": user_id, "mode": "voice"})).json()
    for turn in turns:
        response = await client.post(f"/v1/conversations/{conversation['id']}/messages", json={"content": turn})
        assert response.status_code == 200, response.text
    assert (await client.delete(f"/v1/conversations/{conversation['id']}")).json()["status"] == "ended"
    await service.drain()
    return str(conversation["id"])


async def test_facts_become_memories_once(service: Service, client: AsyncTestClient[Any],
                                          receiver: Receiver) -> None:
    await subscribe(client, receiver.url + "/hook", "memory.created")
    personality, user = await create_personality(client), await create_user(client)
    first = await talk(service, client, personality["id"], user["id"],
                       "Hi! My name is Ana.", "I live in Lisbon with my husband.", "What's the weather like?")
    memories = (await client.get(f"/v1/users/{user['id']}/memories")).json()["data"]
    contents = " | ".join(m["content"] for m in memories)
    assert "Ana" in contents and "Lisbon" in contents, contents
    assert "weather" not in contents
    for memory in memories:
        assert memory["source"]["type"] == "conversation" and memory["source"]["conversation_id"] == first
        assert memory["source"]["extracted_from"] and 0 < memory["confidence"] < 1
        assert memory["personality_id"] == personality["id"]
    assert {e["data"]["id"] for e in events_of(receiver, "memory.created")} == {m["id"] for m in memories}

    # saying the same again updates the memories it matches instead of adding copies
    second = await talk(service, client, personality["id"], user["id"], "My name is Ana.", "I live in Lisbon.")
    again = (await client.get(f"/v1/users/{user['id']}/memories")).json()["data"]
    assert len(again) == len(memories), [m["content"] for m in again]
    assert any(m["source"]["conversation_id"] == second for m in again)
    assert len(events_of(receiver, "memory.created")) == len(memories)


async def test_nothing_is_stored_when_memory_is_off(service: Service, client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    user = await create_user(client, settings={"memory_enabled": False})
    await talk(service, client, personality["id"], user["id"], "My name is Ana.", "I live in Lisbon.",
               "My sister Maria is a doctor.")
    assert (await client.get(f"/v1/users/{user['id']}/memories")).json()["data"] == []
    # turning memory on later does not mine the past conversation either: only conversations that end then
    await client.patch(f"/v1/users/{user['id']}", json={"settings": {"memory_enabled": True}})
    await service.drain()
    assert (await client.get(f"/v1/users/{user['id']}/memories")).json()["data"] == []
