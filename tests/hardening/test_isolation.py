"""Organization isolation (OWASP API1/API3) and the contract's scope table (API5), swept over every operation.

Organization `a` owns one of everything; organization `b` tries every operation that takes an id with a's ids
(404 `resource_missing`, also for ids in a body) and sees none of a's objects in any list, search or webhook
event. Then keys holding a single scope try every operation: refused with 403 `insufficient_scope` exactly
when the contract's scope table says so.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from integration.helpers import Receiver, assert_error
from litestar.testing import AsyncTestClient

from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.core.scopes import grants

from .conftest import build_app, prepare, settings_for

SCOPES = ["read", "write", "conversations", "chat", "voice", "video"]
KEYS: dict[str, tuple[str, list[str]]] = {
    "a": ("org-a", ["*"]), "b": ("org-b", ["*"]), **{s: ("org-a", [s]) for s in SCOPES},
    "conversations+voice": ("org-a", ["conversations", "voice"]),
}


@dataclass
class World:
    client: AsyncTestClient[Any]
    secrets: dict[str, str]
    ids: dict[str, str]
    receiver: Receiver

    def headers(self, key: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.secrets[key]}"}

    async def drain(self) -> None:
        queue: DatabaseJobQueue = self.client.app.state.container.resolve(DatabaseJobQueue)
        self.client.blocking_portal.call(queue.drain)


async def _created(client: AsyncTestClient[Any], path: str, body: dict[str, Any], headers: dict[str, str],
                   status: int = 201) -> dict[str, Any]:
    response = await client.post(path, json=body, headers=headers)
    assert response.status_code == status, response.text
    created: dict[str, Any] = response.json()
    return created


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    settings = settings_for(tmp_path, allow_private_urls=True, rate_limit_per_minute=0)
    secrets = await prepare(settings, KEYS)
    with Receiver() as receiver:
        async with AsyncTestClient(build_app(settings)) as client:
            a = {"Authorization": f"Bearer {secrets['a']}"}
            b = {"Authorization": f"Bearer {secrets['b']}"}
            # b listens to every event before a does anything.
            every = ["conversation.started", "conversation.ended", "video.completed", "video.failed",
                     "knowledge.processed", "memory.created"]
            await _created(client, "/v1/webhooks", {"url": receiver.url + "/b", "events": every}, b)
            ids: dict[str, str] = {}
            ids["personality"] = (await _created(client, "/v1/personalities", {"name": "Secret Ava"}, a))["id"]
            p = ids["personality"]
            ids["knowledge"] = (await _created(client, f"/v1/personalities/{p}/knowledge", {
                "type": "text", "name": "secret", "content": "The vault code of organization a is 4711."}, a))["id"]
            ids["user"] = (await _created(client, "/v1/users", {"external_id": "alice"}, a))["id"]
            u = ids["user"]
            ids["memory"] = (await _created(client, f"/v1/users/{u}/memories", {
                "personality_id": p, "content": "Alice keeps the vault code 4711"}, a))["id"]
            conversation = await _created(client, "/v1/conversations", {"personality_id": p, "user_id": u}, a)
            ids["conversation"] = conversation["id"]
            await _created(client, f"/v1/conversations/{ids['conversation']}/messages",
                           {"content": "What is the vault code?"}, a, status=200)
            ids["video"] = (await _created(client, "/v1/video/generations", {"personality_id": p, "text": "Hi"},
                                           a))["id"]
            # Cancelled before any job runs: no render starts in these tests.
            await _created(client, f"/v1/video/generations/{ids['video']}/cancel", {}, a, status=200)
            ids["game_session"] = (await _created(client, "/v1/game-sessions",
                                                  {"personality_id": p, "game_id": "tic_tac_toe"}, a))["id"]
            ids["webhook"] = (await _created(client, "/v1/webhooks", {
                "url": receiver.url + "/a", "events": every}, a))["id"]
            ids["api_key"] = (await _created(client, "/v1/api-keys", {"name": "a2", "scopes": ["read"]}, a))["id"]
            portrait = (Path(__file__).parents[1] / "data" / "astronaut.png").read_bytes()
            uploaded = await client.post("/v1/avatars", files={"image": ("me.png", portrait, "image/png")},
                                         data={"name": "Secret Ava's face"}, headers=a)
            assert uploaded.status_code == 201, uploaded.text
            ids["avatar"] = uploaded.json()["id"]
            world = World(client, secrets, ids, receiver)
            await world.drain()
            yield world


def _operations(ids: dict[str, str]) -> list[tuple[str, str, dict[str, Any] | None]]:
    """Every operation that takes an id, with a's ids (and a body that is valid apart from the id)."""
    p, k, u, m = ids["personality"], ids["knowledge"], ids["user"], ids["memory"]
    c, v, g, w, key = ids["conversation"], ids["video"], ids["game_session"], ids["webhook"], ids["api_key"]
    return [
        ("GET", f"/v1/avatars/{ids['avatar']}", None),
        ("DELETE", f"/v1/avatars/{ids['avatar']}", None),
        ("GET", f"/v1/personalities/{p}", None),
        ("PATCH", f"/v1/personalities/{p}", {"name": "mine"}),
        ("DELETE", f"/v1/personalities/{p}", None),
        ("GET", f"/v1/personalities/{p}/knowledge", None),
        ("POST", f"/v1/personalities/{p}/knowledge", {"type": "text", "content": "x"}),
        ("POST", f"/v1/personalities/{p}/knowledge/search", {"query": "vault"}),
        ("GET", f"/v1/personalities/{p}/knowledge/{k}", None),
        ("DELETE", f"/v1/personalities/{p}/knowledge/{k}", None),
        ("GET", f"/v1/users/{u}", None),
        ("PATCH", f"/v1/users/{u}", {"metadata": {}}),
        ("DELETE", f"/v1/users/{u}", None),
        ("GET", f"/v1/users/{u}/memories", None),
        ("POST", f"/v1/users/{u}/memories/search", {"query": "vault"}),
        ("GET", f"/v1/users/{u}/memories/{m}", None),
        ("PATCH", f"/v1/users/{u}/memories/{m}", {"content": "mine"}),
        ("DELETE", f"/v1/users/{u}/memories/{m}", None),
        ("GET", f"/v1/conversations/{c}", None),
        ("DELETE", f"/v1/conversations/{c}", None),
        ("POST", f"/v1/conversations/{c}/messages", {"content": "hello"}),
        ("GET", f"/v1/video/generations/{v}", None),
        ("POST", f"/v1/video/generations/{v}/cancel", None),
        ("GET", f"/v1/game-sessions/{g}", None),
        ("POST", f"/v1/game-sessions/{g}/move", {"move": {"cell": 4}}),
        ("POST", f"/v1/game-sessions/{g}/abandon", None),
        ("GET", f"/v1/webhooks/{w}", None),
        ("PATCH", f"/v1/webhooks/{w}", {"enabled": False}),
        ("POST", f"/v1/webhooks/{w}/test", None),
        ("GET", f"/v1/webhooks/{w}/deliveries", None),
        ("DELETE", f"/v1/webhooks/{w}", None),
        ("GET", f"/v1/api-keys/{key}", None),
        ("DELETE", f"/v1/api-keys/{key}", None),
    ]


async def test_another_organizations_ids_are_missing(world: World) -> None:
    b = world.headers("b")
    for method, path, body in _operations(world.ids):
        response = await world.client.request(method, path, headers=b, json=body)
        assert_error(response, 404, code="resource_missing")
    # Ids in a body: b's own user with a's personality, and so on.
    mine = await _created(world.client, "/v1/users", {}, b)
    p, u = world.ids["personality"], world.ids["user"]
    referencing: list[tuple[str, dict[str, Any], str]] = [
        ("/v1/conversations", {"personality_id": p}, "personality_id"),
        ("/v1/video/generations", {"personality_id": p, "text": "hi"}, "personality_id"),
        ("/v1/game-sessions", {"personality_id": p, "game_id": "tic_tac_toe"}, "personality_id"),
        (f"/v1/users/{mine['id']}/memories", {"personality_id": p, "content": "x"}, "personality_id"),
        (f"/v1/users/{mine['id']}/memories/bulk", {"personality_id": p, "memories": [{"content": "x"}]},
         "personality_id"),
    ]
    for path, sent, param in referencing:
        assert_error(await world.client.post(path, json=sent, headers=b), 404, code="resource_missing", param=param)
    mine_p = await _created(world.client, "/v1/personalities", {"name": "B"}, b)
    assert_error(await world.client.post("/v1/conversations", headers=b, json={
        "personality_id": mine_p["id"], "user_id": u}), 404, code="resource_missing", param="user_id")
    # An avatar is named in an appearance, where an unknown one is a 400 (the contract): a's is unknown to b.
    for method, path in (("POST", "/v1/personalities"), ("PATCH", f"/v1/personalities/{mine_p['id']}")):
        response = await world.client.request(method, path, headers=b, json={
            "name": "B", "appearance": {"avatar_id": world.ids["avatar"]}})
        assert_error(response, 400, param="appearance.avatar_id")
    # Nothing b tried changed anything of a's.
    a = world.headers("a")
    for method, path, _body in _operations(world.ids):
        if method == "GET":
            assert (await world.client.get(path, headers=a)).status_code == 200, path


async def test_no_list_search_or_event_shows_another_organizations_objects(world: World) -> None:
    b, a = world.headers("b"), world.headers("a")
    secret_ids = set(world.ids.values())
    for path in ["/v1/personalities", "/v1/users", "/v1/conversations", "/v1/video/generations",
                 "/v1/game-sessions", "/v1/webhooks", "/v1/api-keys", "/v1/users?external_id=alice", "/v1/avatars"]:
        response = await world.client.get(path, headers=b)
        assert response.status_code == 200, response.text
        assert not secret_ids & {item["id"] for item in response.json()["data"]}, path
        assert "Secret Ava" not in response.text and "4711" not in response.text
        assert (await world.client.get(path, headers=a)).json()["data"], path  # a does see its own
    # b's own personality and user, searched for a's words, find only b's (nothing).
    p = (await _created(world.client, "/v1/personalities", {"name": "B"}, b))["id"]
    u = (await _created(world.client, "/v1/users", {}, b))["id"]
    for path, body in [(f"/v1/personalities/{p}/knowledge/search", {"query": "vault code 4711"}),
                       (f"/v1/users/{u}/memories/search", {"query": "vault code 4711", "personality_id": p})]:
        response = await world.client.post(path, json=body, headers=b)
        assert response.status_code == 200, response.text
        assert response.json()["data"] == [], path
    # Events: a's actions were delivered to a's endpoint, none to b's.
    await _created(world.client, f"/v1/users/{world.ids['user']}/memories",
                   {"personality_id": world.ids["personality"], "content": "another"}, a)
    await world.drain()
    bodies = {r.path: [] for r in world.receiver.requests}  # type: dict[str, list[dict[str, Any]]]
    for received in world.receiver.requests:
        bodies[received.path].append(json.loads(received.body))
    assert {e["type"] for e in bodies.get("/a", [])} >= {"knowledge.processed", "memory.created",
                                                         "conversation.started"}
    assert bodies.get("/b", []) == []
    deliveries = await world.client.get(f"/v1/webhooks/{world.ids['webhook']}/deliveries", headers=a)
    assert deliveries.json()["data"]
    b_hooks = (await world.client.get("/v1/webhooks", headers=b)).json()["data"]
    for hook in b_hooks:
        listed = (await world.client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=b)).json()["data"]
        assert listed == [], listed


# The contract's scope table (section 4): what each operation needs. `write` includes `read`.
MISSING = "x_" + "0" * 24
SCOPE_TABLE: list[tuple[str, str, tuple[str, ...]]] = [
    ("GET", "/v1/api-keys", ("*",)), ("POST", "/v1/api-keys", ("*",)), ("GET", f"/v1/api-keys/{MISSING}", ("*",)),
    ("DELETE", f"/v1/api-keys/{MISSING}", ("*",)),
    ("GET", "/v1/webhooks", ("*",)), ("POST", "/v1/webhooks", ("*",)), ("GET", f"/v1/webhooks/{MISSING}", ("*",)),
    ("PATCH", f"/v1/webhooks/{MISSING}", ("*",)), ("DELETE", f"/v1/webhooks/{MISSING}", ("*",)),
    ("POST", f"/v1/webhooks/{MISSING}/test", ("*",)), ("GET", f"/v1/webhooks/{MISSING}/deliveries", ("*",)),
    ("GET", "/v1/personalities", ("read",)), ("POST", "/v1/personalities", ("write",)),
    ("GET", f"/v1/personalities/{MISSING}", ("read",)), ("PATCH", f"/v1/personalities/{MISSING}", ("write",)),
    ("DELETE", f"/v1/personalities/{MISSING}", ("write",)),
    ("GET", f"/v1/personalities/{MISSING}/knowledge", ("read",)),
    ("POST", f"/v1/personalities/{MISSING}/knowledge", ("write",)),
    ("GET", f"/v1/personalities/{MISSING}/knowledge/{MISSING}", ("read",)),
    ("DELETE", f"/v1/personalities/{MISSING}/knowledge/{MISSING}", ("write",)),
    ("POST", f"/v1/personalities/{MISSING}/knowledge/search", ("read",)),
    ("GET", "/v1/users", ("read",)), ("POST", "/v1/users", ("write",)), ("GET", f"/v1/users/{MISSING}", ("read",)),
    ("PATCH", f"/v1/users/{MISSING}", ("write",)), ("DELETE", f"/v1/users/{MISSING}", ("write",)),
    ("GET", f"/v1/users/{MISSING}/memories", ("read",)), ("POST", f"/v1/users/{MISSING}/memories", ("write",)),
    ("POST", f"/v1/users/{MISSING}/memories/bulk", ("write",)),
    ("POST", f"/v1/users/{MISSING}/memories/search", ("read",)),
    ("GET", f"/v1/users/{MISSING}/memories/{MISSING}", ("read",)),
    ("PATCH", f"/v1/users/{MISSING}/memories/{MISSING}", ("write",)),
    ("DELETE", f"/v1/users/{MISSING}/memories/{MISSING}", ("write",)),
    # `read` grants every GET (contract, section 4), so listing and reading conversations and videos too.
    ("GET", "/v1/conversations", ("conversations|read",)),
    ("GET", f"/v1/conversations/{MISSING}", ("conversations|read",)),
    ("DELETE", f"/v1/conversations/{MISSING}", ("conversations",)),
    ("POST", f"/v1/conversations/{MISSING}/messages", ("chat",)),
    ("GET", "/v1/video/generations", ("video|read",)), ("POST", "/v1/video/generations", ("video",)),
    ("GET", f"/v1/video/generations/{MISSING}", ("video|read",)),
    ("POST", f"/v1/video/generations/{MISSING}/cancel", ("video",)),
    ("GET", "/v1/games", ("read",)), ("GET", "/v1/avatars", ("read",)), ("GET", "/v1/voices", ("read",)),
    ("POST", "/v1/avatars", ("write",)), ("GET", f"/v1/avatars/{MISSING}", ("read",)),
    ("DELETE", f"/v1/avatars/{MISSING}", ("write",)),
    ("GET", "/v1/game-sessions", ("read",)), ("POST", "/v1/game-sessions", ("chat",)),
    ("GET", f"/v1/game-sessions/{MISSING}", ("read",)), ("POST", f"/v1/game-sessions/{MISSING}/move", ("chat",)),
    ("POST", f"/v1/game-sessions/{MISSING}/abandon", ("chat",)),
    # Conversations by mode: `conversations` and the mode's media scopes.
    ("POST", "/v1/conversations", ("conversations", "voice", "video")),
]



async def test_scope_sweep(world: World) -> None:
    documented = {(m.upper(), p) for p, item in world.client.app.openapi_schema.paths.items()  # type: ignore[union-attr]
                  for m in ("get", "post", "patch", "delete") if getattr(item, m) and p.startswith("/v1/")}
    swept = {(m, p.replace(MISSING, "{}")) for m, p, _ in SCOPE_TABLE}
    assert len(swept) == len(documented), "every /v1 operation is in the scope table"
    for method, path, needed in SCOPE_TABLE:
        for scope in SCOPES:
            allowed = all(grants([scope], need) for need in needed)
            body = {"personality_id": MISSING, "mode": "voice_video"} if path == "/v1/conversations" else {}
            response = await world.client.request(method, path, headers=world.headers(scope),
                                                  json=body if method in ("POST", "PATCH") else None)
            if allowed:
                assert response.status_code != 403, (scope, method, path, response.text)
            else:
                assert_error(response, 403, code="insufficient_scope")
    # A conversation's mode decides: voice with `conversations`+`voice` passes; video or both do not.
    key = world.headers("conversations+voice")
    for mode, refused in (("voice", False), ("video", True), ("voice_video", True)):
        response = await world.client.post("/v1/conversations", headers=key,
                                           json={"personality_id": MISSING, "mode": mode})
        if refused:
            assert_error(response, 403, code="insufficient_scope")
        else:
            assert_error(response, 404, code="resource_missing", param="personality_id")
