"""`Request-Id` on every response, in every error body, and on every log line written for the request."""

import io
import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from avatar_service.core.model import ApiKeyCreate
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.core.services.personalities import Personalities
from avatar_service.entrypoints.logs import handler

from .helpers import Service, assert_error, auth

GENERATED = re.compile(r"req_[A-Za-z0-9_-]{24}")


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    return {"max_body_bytes": 4096}


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """What the JSON handler writes while the test runs (the root logger's, as `avatar serve` sets it up)."""
    stream = io.StringIO()
    added = handler("json", stream)
    root = logging.getLogger()
    level = root.level
    root.addHandler(added)
    root.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        root.removeHandler(added)
        root.setLevel(level)


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


async def test_every_kind_of_response_has_one(service: Service, client: AsyncTestClient[Any]) -> None:
    org = service.organization_id
    slow = service.call(service.container.resolve(ApiKeys).create, org,
                        ApiKeyCreate(name="slow", scopes=["*"], rate_limit_per_minute=1))
    answers = {
        "v1": await client.get("/v1/personalities"),
        "healthz": await client.get("/healthz"),
        "media": await client.get("/media/videos/x.mp4", params={"expires": 1, "signature": "x"}),
        "rooms": await client.post("/rooms/conversation_aaaaaaaaaaaaaaaaaaaaaaaa/join", json={}),
        "schema": await client.get("/schema/openapi.json"),
        "static": await client.get("/static/favicon.svg"),
        "401": await client.get("/v1/personalities", headers={"Authorization": "Bearer nope"}),
        "404": await client.get("/no/such/path"),
        "405": await client.put("/healthz"),
        "413": await client.post("/v1/personalities", json={"name": "x" * 10_000}),
        "429": [await client.get("/v1/personalities", headers=auth(str(slow.secret))) for _ in range(2)][-1],
    }
    assert answers["v1"].status_code == 200 and answers["healthz"].status_code == 200
    assert answers["static"].status_code == 200 and answers["schema"].status_code == 200
    assert answers["media"].status_code == 403 and answers["rooms"].status_code in (400, 401, 403, 404)
    for status in ("401", "404", "405", "413", "429"):
        assert_error(answers[status], int(status))  # the body's request_id is the header's
    ids = [response.headers["request-id"] for response in answers.values()]
    assert all(GENERATED.fullmatch(ident) for ident in ids), ids
    assert len(set(ids)) == len(ids)  # one per request


@pytest.mark.parametrize("sent", ["abc-123", "7f9c2c3e-5d1a-4f8b-9a0e-1c2d3e4f5a6b", "Root_1.5e3:x", "a" * 128])
async def test_a_well_formed_incoming_id_is_kept(client: AsyncTestClient[Any], sent: str) -> None:
    assert (await client.get("/v1/personalities", headers={"Request-Id": sent})).headers["request-id"] == sent
    missing = await client.get("/v1/personalities/personality_x", headers={"Request-Id": sent})
    assert assert_error(missing, 404)["request_id"] == sent


@pytest.mark.parametrize("sent", ["", "has space", "a" * 129, "semi;colon", "new\\nline", "é"])
async def test_a_malformed_incoming_id_is_replaced(client: AsyncTestClient[Any], sent: str) -> None:
    response = await client.get("/healthz", headers={"Request-Id": sent.encode("utf-8")})  # type: ignore[dict-item]
    assert GENERATED.fullmatch(response.headers["request-id"]), response.headers["request-id"]


async def test_a_server_error_logs_its_traceback_under_the_id_it_answers(
        service: Service, client: AsyncTestClient[Any], json_log: io.StringIO,
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*_: Any) -> Any:
        logging.getLogger("some.library").warning("about to fail")  # any logger, not only the service's
        raise RuntimeError("the bug")

    monkeypatch.setattr(service.container.resolve(Personalities), "list", broken)
    response = await client.get("/v1/personalities", headers={"Request-Id": "support-case-42"})
    error = assert_error(response, 500, code="internal_error")
    assert error["request_id"] == "support-case-42" and "support-case-42" in error["message"]
    assert "the bug" not in response.text  # nothing of the internals
    mine = [line for line in lines(json_log) if line.get("request_id") == "support-case-42"]
    assert {line["logger"] for line in mine} >= {"some.library", "avatar_service.http"}
    [failure] = [line for line in mine if line["level"] == "ERROR"]
    assert "RuntimeError: the bug" in failure["exception"] and "Traceback" in failure["exception"]


async def test_lines_outside_a_request_have_no_id(client: AsyncTestClient[Any], json_log: io.StringIO) -> None:
    await client.get("/healthz")
    logging.getLogger("avatar_service.test").info("between requests")
    [line] = [line for line in lines(json_log) if line["message"] == "between requests"]
    assert "request_id" not in line


async def test_the_document_declares_it_on_every_response(client: AsyncTestClient[Any]) -> None:
    document = (await client.get("/schema/openapi.json")).json()
    responses = [response for item in document["paths"].values() for operation in item.values()
                 if isinstance(operation, dict) and "responses" in operation
                 for response in operation["responses"].values()]
    assert len(responses) > 100
    assert all(response["headers"]["Request-Id"]["required"] for response in responses)
    assert "request_id" in document["components"]["schemas"]["Error"]["properties"]["error"]["required"]
