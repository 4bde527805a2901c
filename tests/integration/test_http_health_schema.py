"""Health and the OpenAPI document: no key needed; every path of the spec and contract, with its fields."""

import re
from typing import Any

from litestar.testing import AsyncTestClient

from . import fields
from .helpers import Service

# (method, path) of the spec's endpoints (path parameters named as in the spec) and the contract's additions.
SPEC = [
    ("get", "/v1/api-keys/{key_id}"),
    ("get", "/v1/webhooks"),
    ("get", "/v1/webhooks/{webhook_id}"),
    ("get", "/v1/users"),
    ("post", "/v1/users"),
    ("post", "/v1/users/{user_id}/memories/search"),
    ("post", "/v1/users/{user_id}/memories/bulk"),
    ("patch", "/v1/users/{user_id}/memories/{memory_id}"),
    ("get", "/v1/personalities"),
    ("get", "/v1/personalities/{personality_id}/knowledge"),
    ("post", "/v1/personalities/{personality_id}/knowledge"),
    ("post", "/v1/conversations"),
    ("get", "/v1/conversations/{conversation_id}"),
    ("delete", "/v1/conversations/{conversation_id}"),
    ("post", "/v1/video/generations"),
    ("get", "/v1/video/generations"),
    ("get", "/v1/game-sessions"),
    ("post", "/v1/game-sessions/{session_id}/move"),
]
CONTRACT = [
    ("post", "/v1/api-keys"),
    ("get", "/v1/api-keys"),
    ("delete", "/v1/api-keys/{}"),
    ("post", "/v1/webhooks"),
    ("patch", "/v1/webhooks/{}"),
    ("delete", "/v1/webhooks/{}"),
    ("post", "/v1/webhooks/{}/test"),
    ("get", "/v1/webhooks/{}/deliveries"),
    ("get", "/v1/users/{}"),
    ("patch", "/v1/users/{}"),
    ("delete", "/v1/users/{}"),
    ("post", "/v1/users/{}/memories"),
    ("get", "/v1/users/{}/memories"),
    ("get", "/v1/users/{}/memories/{}"),
    ("delete", "/v1/users/{}/memories/{}"),
    ("post", "/v1/personalities"),
    ("get", "/v1/personalities/{}"),
    ("patch", "/v1/personalities/{}"),
    ("delete", "/v1/personalities/{}"),
    ("get", "/v1/personalities/{}/knowledge/{}"),
    ("delete", "/v1/personalities/{}/knowledge/{}"),
    ("post", "/v1/personalities/{}/knowledge/search"),
    ("get", "/v1/conversations"),
    ("post", "/v1/conversations/{}/messages"),
    ("get", "/v1/video/generations/{}"),
    ("post", "/v1/video/generations/{}/cancel"),
    ("get", "/v1/avatars"),
    ("get", "/v1/games"),
    ("post", "/v1/game-sessions"),
    ("get", "/v1/game-sessions/{}"),
    ("post", "/v1/game-sessions/{}/abandon"),
    ("get", "/healthz"),
]
# Each resource's fields (fields.py), checked on the schema each operation answers with.
RESOURCES: dict[tuple[str, str, str], set[str]] = {
    ("get", "/v1/api-keys/{key_id}", "200"): fields.API_KEY,
    ("get", "/v1/webhooks/{webhook_id}", "200"): fields.WEBHOOK,
    ("post", "/v1/webhooks", "201"): fields.WEBHOOK | {"secret"},
    ("patch", "/v1/users/{user_id}/memories/{memory_id}", "200"): fields.MEMORY,
    ("get", "/v1/personalities/{}", "200"): fields.PERSONALITY,
    ("post", "/v1/personalities/{personality_id}/knowledge", "201"): fields.KNOWLEDGE_ITEM,
    ("get", "/v1/game-sessions/{}", "200"): fields.GAME_SESSION,
    ("get", "/v1/video/generations/{}", "200"): fields.VIDEO,
    ("get", "/v1/conversations/{conversation_id}", "200"): fields.CONVERSATION,
    ("post", "/v1/users", "201"): fields.USER,
    ("post", "/v1/game-sessions/{session_id}/move", "200"): fields.MOVE_RESULT,
    ("post", "/v1/users/{user_id}/memories/bulk", "201"): {"created_count", "data"},
}
# The spec's request fields.
REQUESTS: dict[tuple[str, str], set[str]] = {
    ("post", "/v1/users"): {"external_id", "metadata", "settings"},
    ("post", "/v1/users/{user_id}/memories/search"): {"query", "personality_id", "limit", "min_relevance"},
    ("post", "/v1/users/{user_id}/memories/bulk"): {"personality_id", "memories"},
    ("patch", "/v1/users/{user_id}/memories/{memory_id}"): {"content", "category"},
    ("post", "/v1/personalities/{personality_id}/knowledge"): {
        "type",
        "name",
        "url",
        "content",
        "refresh_interval",
    },
    ("post", "/v1/conversations"): {"personality_id", "user_id", "mode", "initial_message", "config"},
    ("post", "/v1/video/generations"): {
        "personality_id",
        "text",
        "audio_url",
        "duration",
        "resolution",
        "background",
        "webhook_url",
    },
    ("post", "/v1/game-sessions/{session_id}/move"): {"move", "message"},
}
QUERIES: dict[tuple[str, str], set[str]] = {
    ("get", "/v1/users"): {"limit", "cursor", "external_id"},
    ("get", "/v1/personalities"): {"limit", "cursor"},
    ("get", "/v1/personalities/{personality_id}/knowledge"): {"type", "limit", "cursor"},
    ("get", "/v1/conversations/{conversation_id}"): {"include_transcript"},
    ("get", "/v1/video/generations"): {"limit", "cursor", "status"},
    ("get", "/v1/game-sessions"): {"limit", "cursor", "status"},
}


def _shape(path: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", path)


def _resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _operation(doc: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    for candidate, operations in doc["paths"].items():
        if candidate == path or _shape(candidate) == path:
            assert method in operations, (method, path)
            operation: dict[str, Any] = operations[method]
            return operation
    raise AssertionError(f"{method.upper()} {path} is not in the OpenAPI document")


async def test_healthz_needs_no_key(service: Service, client: AsyncTestClient[Any]) -> None:
    response = await client.get("/healthz", headers={"Authorization": "Bearer nonsense"})
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    engines = body["engines"]
    assert set(engines["voice"]) == {"elevenlabs", "cartesia", "openai", "azure"}
    assert all(isinstance(name, str) and name for name in engines["voice"].values())
    for capability in ("embedder", "speech_to_text", "dialogue"):
        assert isinstance(engines[capability], str) and engines[capability], capability
    assert engines["voice_activity"] == "silero-v6"  # the VAD a room of this process gets
    request = client.build_request("GET", "/healthz")
    del request.headers["authorization"]
    assert (await client.send(request)).status_code == 200


async def test_openapi_document_covers_the_interface(client: AsyncTestClient[Any]) -> None:
    request = client.build_request("GET", "/schema/openapi.json")
    del request.headers["authorization"]
    response = await client.send(request)
    assert response.status_code == 200
    doc = response.json()
    assert doc["openapi"].startswith("3.")
    for method, path in SPEC:
        assert path in doc["paths"] and method in doc["paths"][path], f"{method.upper()} {path}"
    shapes = {(m, _shape(p)) for p, ops in doc["paths"].items() for m in ops}
    for method, path in CONTRACT:
        assert (method, path) in shapes, f"{method.upper()} {path}"

    for (method, path, status), names in RESOURCES.items():
        operation = _operation(doc, method, path)
        schema = _resolve(doc, operation["responses"][status]["content"]["application/json"]["schema"])
        assert names <= set(schema["properties"]), (method, path, names - set(schema["properties"]))
    for (method, path), names in REQUESTS.items():
        content = _operation(doc, method, path)["requestBody"]["content"]
        schema = _resolve(doc, content["application/json"]["schema"])
        assert names <= set(schema["properties"]), (method, path, names - set(schema["properties"]))
    for (method, path), names in QUERIES.items():
        parameters = {
            p["name"] for p in _operation(doc, method, path).get("parameters", []) if p["in"] == "query"
        }
        assert names <= parameters, (method, path, names - parameters)
    upload = _operation(doc, "post", "/v1/personalities/{personality_id}/knowledge")["requestBody"]["content"]
    assert {"file", "name", "refresh_interval"} <= set(
        _resolve(doc, upload["multipart/form-data"]["schema"])["properties"]
    )


async def test_schema_page_needs_no_key(client: AsyncTestClient[Any]) -> None:
    request = client.build_request("GET", "/schema")
    del request.headers["authorization"]
    response = await client.send(request)
    assert response.status_code == 200
    assert "html" in response.headers["content-type"]


async def test_openapi_document_describes_the_streamed_turn(client: AsyncTestClient[Any]) -> None:
    """POST /v1/conversations/{id}/messages documents both forms of its 200 (JSON, and server-sent events with
    `"stream": true`) and the `stream` boolean of its body, so clients and the fuzzing see the streamed form."""
    doc = (await client.get("/schema/openapi.json")).json()
    operation = _operation(doc, "post", "/v1/conversations/{}/messages")
    ok = operation["responses"]["200"]["content"]
    assert set(ok) == {"application/json", "text/event-stream"}
    assert set(_resolve(doc, ok["application/json"]["schema"])["properties"]) >= {"conversation", "message",
                                                                                   "reply"}
    events = ok["text/event-stream"]["schema"]
    assert events["type"] == "string"
    for said in ("event: delta", "event: done", "event: error", '"stream": true'):
        assert said in events["description"], said
    body = _resolve(doc, operation["requestBody"]["content"]["application/json"]["schema"])
    assert body["properties"]["stream"] == {"type": "boolean", "default": False}
    assert body["required"] == ["content"]  # streaming is asked for, never required
    assert body["additionalProperties"] is False  # a misspelt "stream" is a 400, not a silent JSON turn
    assert "application/json" in operation["responses"]["503"]["content"]  # the engine down before the first byte
