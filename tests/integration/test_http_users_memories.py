"""Users and their memories over HTTP: create, read, list, update, delete, bulk, search."""

from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from . import fields
from .helpers import (
    Service,
    assert_created,
    assert_deleted,
    assert_error,
    assert_timestamp,
    create_personality,
    create_user,
)

USER_FIELDS = fields.USER
MEMORY_FIELDS = fields.MEMORY


async def test_user_lifecycle(client: AsyncTestClient[Any]) -> None:
    response = await client.post(
        "/v1/users",
        json={"external_id": "crm-1", "metadata": {"plan": "pro"}, "settings": {"memory_enabled": False}},
    )
    user = assert_created(response, USER_FIELDS, "user_", "user")
    assert (user["external_id"], user["metadata"], user["settings"]) == (
        "crm-1",
        {"plan": "pro"},
        {"memory_enabled": False},
    )
    assert (await client.get(f"/v1/users/{user['id']}")).json() == user

    patched = await client.patch(
        f"/v1/users/{user['id']}", json={"settings": {"memory_enabled": True}, "metadata": {"plan": "team"}}
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["settings"] == {"memory_enabled": True}
    assert patched.json()["metadata"] == {"plan": "team"}
    assert patched.json()["external_id"] == "crm-1"

    assert_deleted(await client.delete(f"/v1/users/{user['id']}"), user["id"], "user")
    assert_error(await client.get(f"/v1/users/{user['id']}"), 404, code="resource_missing")
    assert_error(await client.delete(f"/v1/users/{user['id']}"), 404, code="resource_missing")


async def test_defaults_and_validation(client: AsyncTestClient[Any]) -> None:
    user = await create_user(client)
    assert (
        user["external_id"] is None
        and user["metadata"] == {}
        and user["settings"] == {"memory_enabled": True}
    )
    for body, param in [
        ({"external_id": "x" * 256}, "external_id"),
        ({"external_id": 5}, "external_id"),
        ({"settings": {"memory_enabled": "yes"}}, "settings.memory_enabled"),
        ({"settings": {"colour": 1}}, "settings.colour"),
        ({"metadata": []}, "metadata"),
        ({"nickname": "x"}, "nickname"),
    ]:
        assert_error(await client.post("/v1/users", json=body), 400, code="parameter_invalid", param=param)
    assert_error(
        await client.post("/v1/users", json={"metadata": {f"k{i}": i for i in range(51)}}),
        400,
        param="metadata",
    )
    assert_error(
        await client.patch(f"/v1/users/{user['id']}", json={"external_id": "y" * 256}),
        400,
        param="external_id",
    )


async def test_external_id_is_unique_and_filterable(client: AsyncTestClient[Any]) -> None:
    first = await create_user(client, external_id="same")
    other = await create_user(client, external_id="other")
    assert_error(await client.post("/v1/users", json={"external_id": "same"}), 409, param="external_id")
    assert_error(
        await client.patch(f"/v1/users/{other['id']}", json={"external_id": "same"}), 409, param="external_id"
    )
    response = await client.get("/v1/users", params={"external_id": "same"})
    assert response.status_code == 200
    assert [u["id"] for u in response.json()["data"]] == [first["id"]]
    everyone = (await client.get("/v1/users")).json()["data"]
    assert [u["id"] for u in everyone] == [other["id"], first["id"]]


async def test_memory_lifecycle(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    user = await create_user(client)
    base = f"/v1/users/{user['id']}/memories"
    response = await client.post(
        base,
        json={
            "personality_id": personality["id"],
            "content": "Has a dog named Rex",
            "category": "relationship",
        },
    )
    memory = assert_created(response, MEMORY_FIELDS, "mem_", "memory")
    assert (memory["user_id"], memory["personality_id"]) == (user["id"], personality["id"])
    assert memory["confidence"] == 1.0
    assert memory["source"]["type"] == "manual"
    assert memory["category"] == "relationship"
    assert memory["last_used_at"] is None
    assert_timestamp(memory["created_at"])
    assert (await client.get(f"{base}/{memory['id']}")).json() == memory

    patched = await client.patch(
        f"{base}/{memory['id']}", json={"content": "Has two dogs", "category": "personal"}
    )
    assert patched.status_code == 200, patched.text
    assert (patched.json()["content"], patched.json()["category"]) == ("Has two dogs", "personal")
    assert_error(
        await client.patch(f"{base}/{memory['id']}", json={"content": "x" * 2001}), 400, param="content"
    )
    assert_error(
        await client.patch(f"{base}/{memory['id']}", json={"category": "hobby"}), 400, param="category"
    )

    listed = (await client.get(base)).json()
    assert [m["id"] for m in listed["data"]] == [memory["id"]]
    assert_deleted(await client.delete(f"{base}/{memory['id']}"), memory["id"], "memory")
    assert_error(await client.get(f"{base}/{memory['id']}"), 404, code="resource_missing")
    assert (await client.get(base)).json()["data"] == []


async def test_memory_create_needs_real_owners(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    user = await create_user(client)
    missing_user = f"/v1/users/user_{'x' * 24}/memories"
    assert_error(
        await client.post(missing_user, json={"personality_id": personality["id"], "content": "x"}),
        404,
        code="resource_missing",
    )
    base = f"/v1/users/{user['id']}/memories"
    assert_error(
        await client.post(base, json={"personality_id": f"personality_{'x' * 24}", "content": "x"}),
        404,
        code="resource_missing",
        param="personality_id",
    )
    assert_error(await client.post(base, json={"personality_id": personality["id"]}), 400, param="content")
    assert_error(
        await client.post(base, json={"personality_id": personality["id"], "content": ""}),
        400,
        param="content",
    )
    assert_error(
        await client.post(
            base, json={"personality_id": personality["id"], "content": "x", "category": "hobby"}
        ),
        400,
        param="category",
    )


async def test_bulk_create_and_search(service: Service, client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    other = await create_personality(client, name="Other")
    user = await create_user(client)
    base = f"/v1/users/{user['id']}/memories"
    response = await client.post(
        f"{base}/bulk",
        json={
            "personality_id": personality["id"],
            "memories": [
                {"content": "User loves hiking in the Alps", "category": "preference"},
                {"content": "User has a dog named Rex", "category": "relationship"},
                {"content": "User lives in Lisbon", "category": "location"},
            ],
        },
    )
    assert response.status_code == 201, response.text
    result = response.json()
    assert set(result) == {"created_count", "data"}
    assert result["created_count"] == 3 and len(result["data"]) == 3
    assert all(m["source"]["type"] == "bulk" and set(m) == MEMORY_FIELDS for m in result["data"])
    await client.post(base, json={"personality_id": other["id"], "content": "User has a cat named Tom"})

    found = await client.post(
        f"{base}/search", json={"query": "dog named Rex", "personality_id": personality["id"], "limit": 2}
    )
    assert found.status_code == 200, found.text
    hits = found.json()["data"]
    assert 1 <= len(hits) <= 2
    assert hits[0]["content"] == "User has a dog named Rex"
    assert all(0 <= hit["relevance"] <= 1 and hit["personality_id"] == personality["id"] for hit in hits)
    assert set(hits[0]) == MEMORY_FIELDS | {"relevance"}
    assert [h["relevance"] for h in hits] == sorted((h["relevance"] for h in hits), reverse=True)

    strict = await client.post(f"{base}/search", json={"query": "dog named Rex", "min_relevance": 1.0})
    assert all(hit["relevance"] >= 1.0 for hit in strict.json()["data"])

    filtered = await client.get(base, params={"personality_id": other["id"]})
    assert [m["content"] for m in filtered.json()["data"]] == ["User has a cat named Tom"]
    by_category = await client.get(base, params={"category": "location"})
    assert [m["content"] for m in by_category.json()["data"]] == ["User lives in Lisbon"]
    assert_error(await client.get(base, params={"category": "hobby"}), 400, param="category")


async def test_bulk_and_search_validation(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    user = await create_user(client)
    base = f"/v1/users/{user['id']}/memories"
    pid = personality["id"]
    too_many = [{"content": f"fact {i}"} for i in range(101)]
    for body, param in [
        ({"personality_id": pid, "memories": too_many}, "memories"),
        ({"personality_id": pid, "memories": []}, "memories"),
        ({"memories": [{"content": "x"}]}, "personality_id"),
        (
            {"personality_id": pid, "memories": [{"content": "x", "category": "hobby"}]},
            "memories[0].category",
        ),
        ({"personality_id": pid, "memories": [{"content": "ok"}, {}]}, "memories[1].content"),
    ]:
        assert_error(await client.post(f"{base}/bulk", json=body), 400, code="parameter_invalid", param=param)
    assert (await client.get(base)).json()["data"] == []
    for body, param in [
        ({"query": "x", "min_relevance": 1.5}, "min_relevance"),
        ({"query": "x", "limit": 0}, "limit"),
        ({"query": ""}, "query"),
        ({}, "query"),
    ]:
        assert_error(await client.post(f"{base}/search", json=body), 400, param=param)
    hundred = [{"content": f"fact number {i}"} for i in range(100)]
    response = await client.post(f"{base}/bulk", json={"personality_id": pid, "memories": hundred})
    assert response.status_code == 201 and response.json()["created_count"] == 100


async def test_deleting_a_user_deletes_their_memories(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    user = await create_user(client)
    base = f"/v1/users/{user['id']}/memories"
    memory = (
        await client.post(base, json={"personality_id": personality["id"], "content": "Likes tea"})
    ).json()
    assert_deleted(await client.delete(f"/v1/users/{user['id']}"), user["id"], "user")
    assert_error(await client.get(f"{base}/{memory['id']}"), 404, code="resource_missing")
    assert_error(await client.get(base), 404, code="resource_missing")


async def test_a_memory_is_reached_only_through_its_user(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    owner, stranger = await create_user(client), await create_user(client)
    memory = (
        await client.post(
            f"/v1/users/{owner['id']}/memories",
            json={"personality_id": personality["id"], "content": "Likes tea"},
        )
    ).json()
    wrong = f"/v1/users/{stranger['id']}/memories/{memory['id']}"
    assert_error(await client.get(wrong), 404, code="resource_missing")
    assert_error(await client.patch(wrong, json={"content": "x"}), 404, code="resource_missing")
    assert_error(await client.delete(wrong), 404, code="resource_missing")


@pytest.mark.parametrize("settings_overrides", [{"embedder": "auto"}])  # the real default embedder, once
async def test_search_finds_paraphrases_with_the_default_embedder(
    client: AsyncTestClient[Any], settings_overrides: dict[str, Any]
) -> None:
    health = (await client.get("/healthz")).json()
    assert "lexical" not in health["engines"]["embedder"]
    personality = await create_personality(client)
    user = await create_user(client)
    base = f"/v1/users/{user['id']}/memories"
    facts = [
        "User has a dog named Rex",
        "User loves hiking in the Alps",
        "User lives in Lisbon",
        "User is allergic to peanuts",
    ]
    response = await client.post(
        f"{base}/bulk",
        json={"personality_id": personality["id"], "memories": [{"content": f} for f in facts]},
    )
    assert response.status_code == 201
    for query, expected in [
        ("What pet does the user own?", facts[0]),
        ("Which city is home?", facts[2]),
        ("Any food the user cannot eat?", facts[3]),
        ("favourite outdoor activity in the mountains", facts[1]),
    ]:
        hits = (await client.post(f"{base}/search", json={"query": query, "limit": 1})).json()["data"]
        assert [h["content"] for h in hits] == [expected], query
