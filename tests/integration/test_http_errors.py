"""The error contract over HTTP: bodies, types, enums, ranges, lengths, sizes, routes, ids, limits, pages."""

import base64
import json
from typing import Any

from litestar.testing import AsyncTestClient

from .helpers import Service, assert_error, create_personality, create_user, walk

# Broken syntax, invalid UTF-8 (outside and inside a string), NaN, a lone surrogate.
BROKEN_JSON = (b"{bad", b'{"name": "x",}', b"\xff\xfe", b'{"name": NaN}', b'{"name": "\xff"}',
               b'{"name": "\\ud800"}')
LISTS = [
    "/v1/personalities",
    "/v1/users",
    "/v1/conversations",
    "/v1/video/generations",
    "/v1/game-sessions",
    "/v1/api-keys",
]


async def _lists(client: AsyncTestClient[Any]) -> list[str]:
    """Every paginated list, including the nested ones."""
    personality = await create_personality(client)
    user = await create_user(client)
    hook = (
        await client.post("/v1/webhooks", json={"url": "https://example.com/h", "events": ["memory.created"]})
    ).json()
    return [
        *LISTS,
        f"/v1/personalities/{personality['id']}/knowledge",
        f"/v1/users/{user['id']}/memories",
        f"/v1/webhooks/{hook['id']}/deliveries",
    ]


async def test_malformed_json_is_body_invalid(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    user = await create_user(client)
    targets = [
        ("POST", "/v1/personalities"),
        ("PATCH", f"/v1/personalities/{personality['id']}"),
        ("POST", "/v1/users"),
        ("POST", f"/v1/users/{user['id']}/memories/bulk"),
        ("POST", f"/v1/personalities/{personality['id']}/knowledge"),
        ("POST", "/v1/conversations"),
        ("POST", "/v1/video/generations"),
        ("POST", "/v1/webhooks"),
        ("POST", "/v1/game-sessions"),
    ]
    for method, path in targets:
        for body in BROKEN_JSON:
            response = await client.request(
                method, path, content=body, headers={"Content-Type": "application/json"}
            )
            assert_error(response, 400, code="body_invalid", param=None)
    for body in (b"", b"null", b"[1, 2]", b'"text"'):
        response = await client.post(
            "/v1/personalities", content=body, headers={"Content-Type": "application/json"}
        )
        assert_error(response, 400, code="body_invalid", param=None)


async def test_deeply_nested_bodies_are_body_invalid(client: AsyncTestClient[Any]) -> None:
    """msgspec gives up near a thousand levels with RecursionError: that is the client's mistake, not a 500."""
    personality = await create_personality(client)
    user = await create_user(client)
    depth = 5000
    bodies = [
        b"[" * depth + b"]" * depth,
        b'{"name": "x", "metadata": {"a": ' + b"[" * depth + b"]" * depth + b"}}",
        b'{"a": ' * depth + b"1" + b"}" * depth,
        b'{"name": "\\u0000", "metadata": {"a": ' + b"[" * depth + b"]" * depth + b"}}",
    ]
    targets = [("POST", "/v1/personalities"), ("PATCH", f"/v1/personalities/{personality['id']}"),
               ("POST", "/v1/users"), ("POST", f"/v1/users/{user['id']}/memories/bulk"),
               ("POST", "/v1/game-sessions")]
    for method, path in targets:
        for body in bodies:
            response = await client.request(method, path, content=body, headers={"Content-Type": "application/json"})
            assert_error(response, 400, code="body_invalid", param=None)
    names = [p["name"] for p in (await client.get("/v1/personalities")).json()["data"]]
    assert names == [personality["name"]]  # nothing was created


async def test_each_bad_field_is_named(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    pid = personality["id"]
    cases: list[tuple[str, dict[str, Any], str]] = [
        # wrong types
        ("/v1/personalities", {"name": ["Ava"]}, "name"),
        ("/v1/personalities", {"name": "A", "traits": {"warmth": "high"}}, "traits.warmth"),
        ("/v1/users", {"settings": {"memory_enabled": 1}}, "settings.memory_enabled"),
        ("/v1/video/generations", {"personality_id": pid, "text": "hi", "duration": "10"}, "duration"),
        ("/v1/game-sessions", {"personality_id": 7, "game_id": "chess"}, "personality_id"),
        # unknown enum values
        ("/v1/personalities", {"name": "A", "voice": {"provider": "polly"}}, "voice.provider"),
        ("/v1/conversations", {"personality_id": pid, "mode": "text"}, "mode"),
        ("/v1/video/generations", {"personality_id": pid, "text": "hi", "resolution": "2160p"}, "resolution"),
        ("/v1/webhooks", {"url": "https://example.com", "events": ["video.started"]}, "events[0]"),
        # out-of-range numbers
        ("/v1/personalities", {"name": "A", "traits": {"humor": 1.01}}, "traits.humor"),
        ("/v1/personalities", {"name": "A", "voice": {"settings": {"speed": 0.4}}}, "voice.settings.speed"),
        ("/v1/video/generations", {"personality_id": pid, "text": "hi", "duration": 0}, "duration"),
        ("/v1/video/generations", {"personality_id": pid, "text": "hi", "duration": 301}, "duration"),
        (f"/v1/personalities/{pid}/knowledge/search", {"query": "x", "min_relevance": 1.1}, "min_relevance"),
        # over-long strings
        ("/v1/personalities", {"name": "n" * 256}, "name"),
        ("/v1/users", {"external_id": "e" * 256}, "external_id"),
        ("/v1/video/generations", {"personality_id": pid, "text": "t" * 5001}, "text"),
        (f"/v1/personalities/{pid}/knowledge", {"type": "text", "content": "c", "name": "n" * 256}, "name"),
        # missing and unknown fields
        ("/v1/personalities", {}, "name"),
        ("/v1/personalities", {"name": "A", "mood": "happy"}, "mood"),
        ("/v1/personalities", {"name": "A", "voice": {"pitch": 2}}, "voice.pitch"),
        # NUL cannot be stored by PostgreSQL, so it is refused on every backend
        ("/v1/personalities", {"name": "A\u0000B"}, "name"),
        ("/v1/personalities", {"name": "A", "metadata": {"k": ["ok", "a\u0000"]}}, "metadata.k[1]"),
        ("/v1/users", {"external_id": "\u0000"}, "external_id"),
    ]
    for path, body, param in cases:
        assert_error(await client.post(path, json=body), 400, code="parameter_invalid", param=param)
    assert_error(await client.get("/v1/users", params={"external_id": "a\u0000"}), 400, param="external_id")
    assert [p["id"] for p in (await client.get("/v1/personalities")).json()["data"]] == [pid]


async def test_oversized_body_is_413(client: AsyncTestClient[Any]) -> None:
    big = {"name": "A", "description": "d" * (1024 * 1024 + 10)}
    assert_error(await client.post("/v1/personalities", json=big), 413, code="payload_too_large")
    user = await create_user(client)
    assert_error(
        await client.patch(f"/v1/users/{user['id']}", json={"metadata": {"x": "y" * (1024 * 1024)}}), 413
    )
    assert (await client.get("/v1/personalities")).json()["data"] == []


async def test_unknown_routes_and_methods(client: AsyncTestClient[Any]) -> None:
    for path in ("/v1/nothing-here", "/v2/personalities", "/nothing", "/v1/personalities/x/y/z"):
        assert_error(await client.get(path), 404, code="resource_missing")
    for method, path in [
        ("PUT", "/v1/personalities"),
        ("DELETE", "/v1/personalities"),
        ("PATCH", "/v1/users"),
        ("PUT", "/v1/avatars"),
        ("GET", "/v1/users/user_aaaaaaaaaaaaaaaaaaaaaaaa/memories/bulk"),
        ("DELETE", "/v1/games"),
        ("PUT", "/healthz"),
    ]:
        assert_error(await client.request(method, path), 405, code="method_not_allowed")


async def test_garbage_ids_are_404(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    user = await create_user(client)
    prefixes = {
        "/v1/personalities/": "personality_",
        "/v1/users/": "user_",
        "/v1/conversations/": "conv_",
        "/v1/video/generations/": "vid_",
        "/v1/game-sessions/": "gs_",
        "/v1/webhooks/": "wh_",
        "/v1/api-keys/": "key_",
        f"/v1/personalities/{personality['id']}/knowledge/": "kb_",
        f"/v1/users/{user['id']}/memories/": "mem_",
    }
    for base, prefix in prefixes.items():
        for ident in (
            "x",
            "garbage",
            prefix,
            prefix + "short",
            prefix + "a" * 24,
            prefix + "a" * 500,
            prefix + "%20%20%20%20%20%20%20%20%20",
            prefix + "a%00aaaaaaaaaaaaaaaaaaaaaa",
            "%C3%A9" * 10,
            "personality_" + "a" * 24 if prefix != "personality_" else "user_" + "a" * 24,
        ):
            assert_error(await client.get(base + ident), 404, code="resource_missing")


async def test_limits_outside_1_to_100(client: AsyncTestClient[Any]) -> None:
    for path in await _lists(client):
        for limit in ("0", "101", "-1", "abc", "1.5", "", "99999999999999999999"):
            assert_error(
                await client.get(path, params={"limit": limit}), 400, code="parameter_invalid", param="limit"
            )
        for limit in ("1", "100"):
            assert (await client.get(path, params={"limit": limit})).status_code == 200, path


async def test_garbage_cursors(client: AsyncTestClient[Any]) -> None:
    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    cursors = [
        "zzz",
        "!!!",
        "a" * 600,
        b64(b"not json"),
        b64(b"{}"),
        b64(b"[1, 2]"),
        b64(json.dumps(["2024-01-01T00:00:00", "x"]).encode()),  # no time zone
        b64(json.dumps(["yesterday", "personality_x"]).encode()),
        b64(json.dumps(["2024-01-01T00:00:00Z", "x\u0000"]).encode()),
    ]
    for path in await _lists(client):
        for cursor in cursors:
            assert_error(
                await client.get(path, params={"cursor": cursor}),
                400,
                code="parameter_invalid",
                param="cursor",
            )


async def test_pagination_walks_every_item_once(client: AsyncTestClient[Any]) -> None:
    made = [(await create_personality(client, name=f"P{i:02}"))["id"] for i in range(23)]
    for limit in (1, 5, 7, 23, 100):
        seen = [p["id"] for p in await walk(client, "/v1/personalities", limit)]
        assert seen == made[::-1], limit  # newest first, each once

    # Items added while walking do not disturb the walk: every item that existed is seen exactly once.
    first = (await client.get("/v1/personalities", params={"limit": 10})).json()
    seen = [p["id"] for p in first["data"]]
    cursor = first["next_cursor"]
    extra = [(await create_personality(client, name=f"New{i}"))["id"] for i in range(4)]
    while cursor:
        page = (await client.get("/v1/personalities", params={"limit": 10, "cursor": cursor})).json()
        seen += [p["id"] for p in page["data"]]
        cursor = page["next_cursor"]
    assert len(seen) == len(set(seen))
    assert set(made) <= set(seen) and not set(extra) & set(seen)
    assert [p["id"] for p in await walk(client, "/v1/personalities", 8)] == (made + extra)[::-1]


async def test_nested_and_filtered_lists_paginate(service: Service, client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    user = await create_user(client)
    bulk = await client.post(
        f"/v1/users/{user['id']}/memories/bulk",
        json={
            "personality_id": personality["id"],
            "memories": [
                {"content": f"Fact {i}", "category": "personal" if i % 2 else "context"} for i in range(15)
            ],
        },
    )
    assert bulk.status_code == 201
    made = {m["id"] for m in bulk.json()["data"]}
    seen = [m["id"] for m in await walk(client, f"/v1/users/{user['id']}/memories", 4)]
    assert len(seen) == 15 and set(seen) == made  # one transaction: equal timestamps, the id breaks ties
    personal = await walk(client, f"/v1/users/{user['id']}/memories", 3, category="personal")
    assert len(personal) == 7 and all(m["category"] == "personal" for m in personal)
    users = [(await create_user(client, external_id=f"u{i}"))["id"] for i in range(6)]
    assert [u["id"] for u in await walk(client, "/v1/users", 4)] == [*users[::-1], user["id"]]
