"""Per-key rate limits: RateLimit-* headers on every response, 429 with Retry-After past the limit."""

import asyncio
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from .helpers import Service, assert_error, auth

LIMIT = 5


@pytest.fixture(params=["memory", "database"])
def settings_overrides(request: pytest.FixtureRequest) -> dict[str, Any]:
    return {"rate_limit_per_minute": LIMIT, "rate_limit_storage": request.param}


async def test_limit_per_key(service: Service, client: AsyncTestClient[Any]) -> None:
    probe = await client.get("/v1/personalities")
    if int(probe.headers["ratelimit-reset"]) < 3:  # too close to the minute's end: start in a fresh window
        await asyncio.sleep(int(probe.headers["ratelimit-reset"]) + 0.2)
        probe = await client.get("/v1/personalities")
    assert probe.status_code == 200
    assert probe.headers["ratelimit-limit"] == str(LIMIT)
    remaining = [int(probe.headers["ratelimit-remaining"])]
    for _ in range(LIMIT - 1):
        response = await client.get("/v1/personalities")
        assert response.status_code == 200
        remaining.append(int(response.headers["ratelimit-remaining"]))
    assert remaining == list(range(LIMIT - 1, -1, -1))
    limited = await client.post("/v1/personalities", json={"name": "Ava"})
    assert_error(limited, 429, code="rate_limited", param=None)
    assert limited.json()["error"]["type"] == "rate_limit_error"
    assert 1 <= int(limited.headers["retry-after"]) <= 60
    assert limited.headers["ratelimit-remaining"] == "0"
    assert len((await client.get("/v1/personalities", headers=auth(service.secret))).json().get("data", [])) == 0

    other = await service.make_key("*", name="second")
    fresh = await client.get("/v1/personalities", headers=auth(other))
    assert fresh.status_code == 200 and fresh.headers["ratelimit-remaining"] == str(LIMIT - 1)
    health = await client.get("/healthz")
    assert "ratelimit-limit" not in health.headers  # only the API is limited
