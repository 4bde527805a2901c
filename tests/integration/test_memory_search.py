"""Memory search end to end: quality with the real MiniLM model, limits, scoping, bulk events, re-embedding."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from .helpers import Receiver, Service, create_personality, create_user, events_of, subscribe

DATA = Path(__file__).resolve().parents[1] / "data" / "retrieval_set.json"


@pytest.fixture
def settings_overrides(request: pytest.FixtureRequest) -> dict[str, Any]:
    # The quality test runs on the real model; the rest keeps the fast lexical fallback.
    embedder = "auto" if request.node.name.startswith("test_search_quality") else "lexical"
    return {"allow_private_urls": True, "embedder": embedder}


async def test_search_quality_with_minilm(service: Service, client: AsyncTestClient[Any]) -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    memories = [item for item in data["corpus"] if item["kind"] == "memory"]
    queries = [q for q in data["queries"] if q["target"].startswith("m")]
    personality, user = await create_personality(client), await create_user(client)
    base = f"/v1/users/{user['id']}/memories"
    created = (await client.post(f"{base}/bulk", json={"personality_id": personality["id"], "memories": [
        {"content": item["text"]} for item in memories]})).json()["data"]
    ids = {item["id"]: memory["id"] for item, memory in zip(memories, created, strict=True)}
    at1 = at5 = 0
    for query in queries:
        hits = (await client.post(f"{base}/search", json={"query": query["query"], "limit": 5})).json()["data"]
        ranked = [hit["id"] for hit in hits]
        at1 += ranked[0] == ids[query["target"]]
        at5 += ids[query["target"]] in ranked
    recall1, recall5 = at1 / len(queries), at5 / len(queries)
    print(f"\nmemory search through the API, MiniLM: recall@1={recall1:.3f} recall@5={recall5:.3f} "
          f"({len(queries)} paraphrased queries over {len(memories)} memories)")
    assert len(queries) >= 25
    # The memory half of the labelled set is the harder one: MiniLM reaches recall@1 0.806 on it straight
    # from the engine too (tests/unit/retrieval holds the 0.85 bar on the whole set), so the API path
    # (float32 bytes in rows, cached namespace, relevance clamp) loses nothing.
    assert recall1 >= 0.80 and recall5 >= 0.95


async def test_limit_default_relevance_and_scoping(client: AsyncTestClient[Any]) -> None:
    ava, bob = await create_personality(client), await create_personality(client, name="Bob")
    user, stranger = await create_user(client), await create_user(client)
    base = f"/v1/users/{user['id']}/memories"
    facts = [f"User visited museum number {i} in the old town" for i in range(14)]
    await client.post(f"{base}/bulk", json={"personality_id": ava["id"], "memories": [{"content": f} for f in facts]})
    await client.post(base, json={"personality_id": bob["id"], "content": "User visited the museum with Bob"})
    await client.post(f"/v1/users/{stranger['id']}/memories",
                      json={"personality_id": ava["id"], "content": "User visited the museum alone"})

    hits = (await client.post(f"{base}/search", json={"query": "museum visits"})).json()["data"]
    assert len(hits) == 10  # the documented default limit
    assert all(h["user_id"] == user["id"] for h in hits)
    assert [h["relevance"] for h in hits] == sorted((h["relevance"] for h in hits), reverse=True)
    assert all(0 <= h["relevance"] <= 1 for h in hits)

    scoped = (await client.post(f"{base}/search", json={"query": "museum visits", "personality_id": bob["id"],
                                                         "limit": 100})).json()["data"]
    assert [h["content"] for h in scoped] == ["User visited the museum with Bob"]

    everything = (await client.post(f"{base}/search", json={"query": "museum visits", "limit": 100})).json()["data"]
    assert len(everything) == 15
    cut = everything[7]["relevance"]
    above = (await client.post(f"{base}/search", json={"query": "museum visits", "limit": 100,
                                                        "min_relevance": cut})).json()["data"]
    assert above and all(h["relevance"] >= cut for h in above)
    assert [h["id"] for h in above] == [h["id"] for h in everything if h["relevance"] >= cut]
    none = (await client.post(f"{base}/search", json={"query": "quantum chromodynamics lattice",
                                                       "min_relevance": 0.9})).json()["data"]
    assert none == []


async def test_bulk_is_one_transaction_with_one_event_each(service: Service, client: AsyncTestClient[Any],
                                                           receiver: Receiver) -> None:
    await subscribe(client, receiver.url + "/hook", "memory.created")
    personality, user = await create_personality(client), await create_user(client)
    base = f"/v1/users/{user['id']}/memories"
    made = (await client.post(f"{base}/bulk", json={"personality_id": personality["id"], "memories": [
        {"content": f"User fact {i}", "category": "custom"} for i in range(5)]})).json()
    assert made["created_count"] == 5
    # one item invalid: nothing of the batch is stored
    bad = await client.post(f"{base}/bulk", json={"personality_id": personality["id"], "memories": [
        {"content": "User fact ok"}, {"content": ""}]})
    assert bad.status_code == 400
    assert len((await client.get(base, params={"limit": 100})).json()["data"]) == 5
    await service.drain()
    events = events_of(receiver, "memory.created")
    assert sorted(e["data"]["id"] for e in events) == sorted(m["id"] for m in made["data"])
    assert all(e["data"]["source"]["type"] == "bulk" for e in events)


async def test_updates_re_embed(client: AsyncTestClient[Any]) -> None:
    personality, user = await create_personality(client), await create_user(client)
    base = f"/v1/users/{user['id']}/memories"
    memory = (await client.post(base, json={"personality_id": personality["id"],
                                            "content": "User plays the violin in an orchestra"})).json()
    await client.post(base, json={"personality_id": personality["id"], "content": "User drinks green tea"})
    before = (await client.post(f"{base}/search", json={"query": "violin orchestra", "limit": 1})).json()["data"]
    assert before[0]["id"] == memory["id"]
    patched = await client.patch(f"{base}/{memory['id']}", json={"content": "User collects vintage motorbikes"})
    assert patched.status_code == 200, patched.text
    after = (await client.post(f"{base}/search", json={"query": "vintage motorbikes", "limit": 1})).json()["data"]
    assert after[0]["id"] == memory["id"] and after[0]["content"] == "User collects vintage motorbikes"
    stale = (await client.post(f"{base}/search", json={"query": "violin orchestra", "min_relevance": 0.3}
                               )).json()["data"]
    assert memory["id"] not in [h["id"] for h in stale]


async def test_last_used_at_is_set_when_a_reply_uses_a_memory(client: AsyncTestClient[Any]) -> None:
    personality, user = await create_personality(client), await create_user(client)
    base = f"/v1/users/{user['id']}/memories"
    used = (await client.post(base, json={"personality_id": personality["id"],
                                          "content": "User has a dog named Rex"})).json()
    unused = (await client.post(base, json={"personality_id": personality["id"],
                                            "content": "User works as a nurse at night"})).json()
    assert used["last_used_at"] is None
    conversation = (await client.post("/v1/conversations", json={
        "personality_id": personality["id"], "user_id": user["id"], "mode": "voice"})).json()
    reply = await client.post(f"/v1/conversations/{conversation['id']}/messages",
                              json={"content": "What is my dog named Rex like?"})
    assert reply.status_code == 200, reply.text
    assert (await client.get(f"{base}/{used['id']}")).json()["last_used_at"] is not None
    assert (await client.get(f"{base}/{unused['id']}")).json()["last_used_at"] is None
