"""Authentication, the scope table of the contract, API keys, and isolation between organizations."""

from typing import Any

from litestar.testing import AsyncTestClient

from . import fields
from .helpers import (
    Service,
    assert_created,
    assert_deleted,
    assert_error,
    assert_timestamp,
    auth,
    create_personality,
)

KEY_FIELDS = fields.API_KEY


async def test_missing_or_bad_keys_are_401(service: Service, client: AsyncTestClient[Any]) -> None:
    request = client.build_request("GET", "/v1/personalities")
    del request.headers["authorization"]
    error = assert_error(await client.send(request), 401, code="invalid_api_key", param=None)
    assert error["type"] == "authentication_error"
    for header in (
        "",
        "Bearer",
        "Bearer ",
        "Basic dXNlcjpwYXNz",
        f"Token {service.secret}",
        "Bearer garbage",
        "Bearer sk_" + "x" * 43,
        "Bearer " + service.secret + "x",
        "Bearer " + "sk_" + "y" * 500,
    ):
        response = await client.get("/v1/personalities", headers={"Authorization": header})
        assert_error(response, 401, code="invalid_api_key")
        assert response.headers["www-authenticate"].lower().startswith("bearer")
    ok = await client.get("/v1/personalities", headers={"Authorization": f"bearer {service.secret}"})
    assert ok.status_code == 200


async def test_api_keys_and_revocation(client: AsyncTestClient[Any]) -> None:
    response = await client.post("/v1/api-keys", json={"name": "ci", "scopes": ["read", "write"]})
    created = assert_created(response, KEY_FIELDS | {"secret"}, "key_", "api_key")
    assert created["secret"].startswith("sk_")
    assert created["key_prefix"] == created["secret"][:8]
    assert sorted(created["scopes"]) == ["read", "write"]
    assert created["last_used_at"] is None
    assert_timestamp(created["created_at"])
    path = f"/v1/api-keys/{created['id']}"
    fetched = (await client.get(path)).json()
    assert set(fetched) == KEY_FIELDS and "secret" not in fetched

    assert (await client.get("/v1/personalities", headers=auth(created["secret"]))).status_code == 200
    used = (await client.get(path)).json()
    assert_timestamp(used["last_used_at"])
    listed = (await client.get("/v1/api-keys")).json()["data"]
    assert created["id"] in {k["id"] for k in listed}
    assert all("secret" not in k and set(k) == KEY_FIELDS for k in listed)

    assert_deleted(await client.delete(path), created["id"], "api_key")
    assert_error(
        await client.get("/v1/personalities", headers=auth(created["secret"])), 401, code="invalid_api_key"
    )
    assert_error(await client.get(path), 404, code="resource_missing")
    assert created["id"] not in {k["id"] for k in (await client.get("/v1/api-keys")).json()["data"]}

    for body, param in [
        ({"name": "x", "scopes": ["admin"]}, "scopes[0]"),
        ({"name": "x", "scopes": []}, "scopes"),
        ({"scopes": ["read"]}, "name"),
        ({"name": "", "scopes": ["read"]}, "name"),
    ]:
        assert_error(await client.post("/v1/api-keys", json=body), 400, param=param)


async def _world(client: AsyncTestClient[Any]) -> dict[str, str]:
    """One of each resource, made with the '*' key."""
    personality = await create_personality(client)
    pid = personality["id"]
    user = (await client.post("/v1/users", json={"external_id": "u-1"})).json()
    memory = (
        await client.post(
            f"/v1/users/{user['id']}/memories", json={"personality_id": pid, "content": "Likes jazz"}
        )
    ).json()
    item = (
        await client.post(f"/v1/personalities/{pid}/knowledge", json={"type": "text", "content": "Open at 9"})
    ).json()
    conversation = (await client.post("/v1/conversations", json={"personality_id": pid})).json()
    video = (await client.post("/v1/video/generations", json={"personality_id": pid, "text": "Hi"})).json()
    game = (
        await client.post("/v1/game-sessions", json={"personality_id": pid, "game_id": "tic_tac_toe"})
    ).json()
    webhook = (
        await client.post("/v1/webhooks", json={"url": "https://example.com/h", "events": ["memory.created"]})
    ).json()
    key = (await client.post("/v1/api-keys", json={"name": "other", "scopes": ["read"]})).json()
    return {
        "personality": pid,
        "user": user["id"],
        "memory": memory["id"],
        "item": item["id"],
        "conversation": conversation["id"],
        "video": video["id"],
        "game": game["id"],
        "webhook": webhook["id"],
        "key": key["id"],
    }


async def test_scope_table(service: Service, client: AsyncTestClient[Any]) -> None:
    w = await _world(client)
    keys = {
        scope: await service.make_key(scope) for scope in ("read", "write", "conversations", "chat", "video")
    }
    keys["*"] = service.secret
    p, u = w["personality"], w["user"]
    # (method, path, body, the scopes whose keys may call it)
    table: list[tuple[str, str, Any, set[str]]] = [
        ("GET", "/v1/personalities", None, {"read", "write", "*"}),
        ("GET", f"/v1/personalities/{p}", None, {"read", "write", "*"}),
        ("GET", f"/v1/users/{u}/memories", None, {"read", "write", "*"}),
        ("GET", "/v1/games", None, {"read", "write", "*"}),
        ("GET", "/v1/game-sessions", None, {"read", "write", "*"}),
        ("GET", "/v1/avatars", None, {"read", "write", "*"}),
        ("POST", f"/v1/personalities/{p}/knowledge/search", {"query": "open"}, {"read", "write", "*"}),
        ("POST", f"/v1/users/{u}/memories/search", {"query": "jazz"}, {"read", "write", "*"}),
        ("POST", "/v1/personalities", {"name": "New"}, {"write", "*"}),
        ("PATCH", f"/v1/personalities/{p}", {"description": "d"}, {"write", "*"}),
        ("POST", "/v1/users", {}, {"write", "*"}),
        ("POST", f"/v1/users/{u}/memories", {"personality_id": p, "content": "x"}, {"write", "*"}),
        ("POST", f"/v1/personalities/{p}/knowledge", {"type": "text", "content": "x"}, {"write", "*"}),
        # `read` grants every GET (and `write` includes `read`), conversations and videos too
        ("GET", "/v1/conversations", None, {"conversations", "read", "write", "*"}),
        ("GET", f"/v1/conversations/{w['conversation']}", None, {"conversations", "read", "write", "*"}),
        ("POST", f"/v1/conversations/{w['conversation']}/messages", {"content": "Hello"}, {"chat", "*"}),
        ("POST", "/v1/game-sessions", {"personality_id": p, "game_id": "chess"}, {"chat", "*"}),
        ("POST", f"/v1/game-sessions/{w['game']}/move", {"move": {"cell": 0}}, {"chat", "*"}),
        ("POST", "/v1/video/generations", {"personality_id": p, "text": "Hi"}, {"video", "*"}),
        ("GET", "/v1/video/generations", None, {"video", "read", "write", "*"}),
        ("GET", f"/v1/video/generations/{w['video']}", None, {"video", "read", "write", "*"}),
        ("GET", "/v1/api-keys", None, {"*"}),
        ("GET", f"/v1/api-keys/{w['key']}", None, {"*"}),
        ("POST", "/v1/api-keys", {"name": "k", "scopes": ["read"]}, {"*"}),
        ("GET", "/v1/webhooks", None, {"*"}),
        ("GET", f"/v1/webhooks/{w['webhook']}", None, {"*"}),
        ("POST", "/v1/webhooks", {"url": "https://example.com/x", "events": ["memory.created"]}, {"*"}),
    ]
    for method, path, body, allowed in table:
        for scope, secret in keys.items():
            kwargs: dict[str, Any] = {"headers": auth(secret)}
            if body is not None:
                kwargs["json"] = body
            response = await client.request(method, path, **kwargs)
            if scope in allowed:
                assert response.status_code in (200, 201), (scope, method, path, response.text)
            else:
                error = assert_error(response, 403, code="insufficient_scope")
                assert error["type"] == "permission_error", (scope, method, path)
    # The state-changing ends of each family, once per allowed scope.
    secret = keys["conversations"]
    assert (
        await client.delete(f"/v1/conversations/{w['conversation']}", headers=auth(secret))
    ).status_code == 200
    assert_error(await client.post(f"/v1/game-sessions/{w['game']}/abandon", headers=auth(keys["read"])), 403)
    assert (
        await client.post(f"/v1/game-sessions/{w['game']}/abandon", headers=auth(keys["chat"]))
    ).status_code == 200
    assert_error(
        await client.post(f"/v1/video/generations/{w['video']}/cancel", headers=auth(keys["write"])), 403
    )
    cancel = await client.post(f"/v1/video/generations/{w['video']}/cancel", headers=auth(keys["video"]))
    assert cancel.status_code == 200
    assert_error(await client.delete(f"/v1/users/{u}", headers=auth(keys["read"])), 403)
    assert (await client.delete(f"/v1/users/{u}", headers=auth(keys["write"]))).status_code == 200


async def test_organizations_are_isolated(service: Service, client: AsyncTestClient[Any]) -> None:
    w = await _world(client)
    other = auth(await service.make_key("*", organization="acme"))
    p, u = w["personality"], w["user"]
    paths = {
        f"/v1/personalities/{p}": ("GET", "PATCH", "DELETE"),
        f"/v1/personalities/{p}/knowledge": ("GET",),
        f"/v1/personalities/{p}/knowledge/{w['item']}": ("GET", "DELETE"),
        f"/v1/users/{u}": ("GET", "PATCH", "DELETE"),
        f"/v1/users/{u}/memories": ("GET",),
        f"/v1/users/{u}/memories/{w['memory']}": ("GET", "PATCH", "DELETE"),
        f"/v1/conversations/{w['conversation']}": ("GET", "DELETE"),
        f"/v1/video/generations/{w['video']}": ("GET",),
        f"/v1/game-sessions/{w['game']}": ("GET",),
        f"/v1/webhooks/{w['webhook']}": ("GET", "PATCH", "DELETE"),
        f"/v1/webhooks/{w['webhook']}/deliveries": ("GET",),
        f"/v1/api-keys/{w['key']}": ("GET", "DELETE"),
    }
    for path, methods in paths.items():
        for method in methods:
            kwargs: dict[str, Any] = {"headers": other}
            if method == "PATCH":
                kwargs["json"] = {}
            assert_error(await client.request(method, path, **kwargs), 404, code="resource_missing")
    posts = {
        f"/v1/personalities/{p}/knowledge": {"type": "text", "content": "x"},
        f"/v1/personalities/{p}/knowledge/search": {"query": "x"},
        f"/v1/users/{u}/memories/search": {"query": "x"},
        f"/v1/users/{u}/memories/bulk": {"personality_id": p, "memories": [{"content": "x"}]},
        f"/v1/conversations/{w['conversation']}/messages": {"content": "x"},
        f"/v1/video/generations/{w['video']}/cancel": None,
        f"/v1/game-sessions/{w['game']}/move": {"move": {"cell": 0}},
        f"/v1/game-sessions/{w['game']}/abandon": None,
        f"/v1/webhooks/{w['webhook']}/test": None,
    }
    for path, body in posts.items():
        assert_error(await client.post(path, json=body, headers=other), 404, code="resource_missing")
    # Ids of another organization in a body are missing too, and `param` names the field.
    own_personality = (await client.post("/v1/personalities", json={"name": "Mine"}, headers=other)).json()[
        "id"
    ]
    own_user = (await client.post("/v1/users", json={}, headers=other)).json()["id"]
    for path, body, param in [
        ("/v1/conversations", {"personality_id": p}, "personality_id"),
        ("/v1/conversations", {"personality_id": own_personality, "user_id": u}, "user_id"),
        ("/v1/video/generations", {"personality_id": p, "text": "x"}, "personality_id"),
        ("/v1/game-sessions", {"personality_id": p, "game_id": "chess"}, "personality_id"),
        (
            "/v1/game-sessions",
            {"personality_id": own_personality, "game_id": "chess", "user_id": u},
            "user_id",
        ),
        (f"/v1/users/{own_user}/memories", {"personality_id": p, "content": "x"}, "personality_id"),
    ]:
        assert_error(
            await client.post(path, json=body, headers=other), 404, code="resource_missing", param=param
        )
    # Lists never show the other organization's objects.
    for path in (
        "/v1/personalities",
        "/v1/users",
        "/v1/conversations",
        "/v1/video/generations",
        "/v1/game-sessions",
        "/v1/webhooks",
        "/v1/api-keys",
    ):
        seen = {item["id"] for item in (await client.get(path, headers=other)).json()["data"]}
        assert not seen & set(w.values()), path
    assert (await client.get("/v1/users", params={"external_id": "u-1"}, headers=other)).json()["data"] == []
    # external_id is unique per organization, not across them.
    assert (await client.post("/v1/users", json={"external_id": "u-1"}, headers=other)).status_code == 201
    # Nothing of the first organization was touched.
    for path in (
        f"/v1/personalities/{p}",
        f"/v1/users/{u}/memories/{w['memory']}",
        f"/v1/webhooks/{w['webhook']}",
        f"/v1/api-keys/{w['key']}",
        f"/v1/personalities/{p}/knowledge/{w['item']}",
    ):
        assert (await client.get(path)).status_code == 200, path
    assert (await client.get(f"/v1/conversations/{w['conversation']}")).json()["status"] == "connecting"
    assert (await client.get(f"/v1/video/generations/{w['video']}")).json()["status"] == "pending"
    assert (await client.get(f"/v1/game-sessions/{w['game']}")).json()["status"] == "active"


async def test_dependencies_resolve_one_at_a_time_in_order(client: AsyncTestClient[Any]) -> None:
    """No handler spawns tasks to resolve its dependencies (see entrypoints/http/dependency_order.py), and a
    dependency's own dependencies still come first."""
    from litestar.routes import HTTPRoute

    seen = 0
    for route in client.app.routes:
        if isinstance(route, HTTPRoute):
            for _handler, model in route.route_handler_map.values():
                assert all(len(batch) == 1 for batch in model.dependency_batches)
                resolved: set[str] = set()
                for [dependency] in model.dependency_batches:
                    assert {d.key for d in dependency.dependencies} <= resolved
                    resolved.add(dependency.key)
                seen += len(model.dependency_batches)
    assert seen > 50
    assert (await client.get("/v1/personalities")).status_code == 200


async def test_options_needs_no_key(client: AsyncTestClient[Any]) -> None:
    """A browser's preflight carries no Authorization header; it learns the methods, nothing else."""
    request = client.build_request("OPTIONS", "/v1/personalities/personality_x")
    del request.headers["authorization"]
    response = await client.send(request)
    assert response.status_code == 204 and response.content == b""
    assert set(response.headers["allow"].split(", ")) == {"DELETE", "GET", "OPTIONS", "PATCH"}
