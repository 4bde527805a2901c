"""Per-key rate limits: RateLimit-* headers on every response, 429 with Retry-After past the limit."""

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from avatar_service.core.model import ApiKeyCreate
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.ports.request_guards import IdempotencyStore, RateLimiter

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


async def test_a_key_carries_its_own_limit(service: Service, client: AsyncTestClient[Any]) -> None:
    org = await service.organization("default")
    admin_key = service.call(service.container.resolve(ApiKeys).create, org,
                             ApiKeyCreate(name="admin", scopes=["*"], rate_limit_per_minute=0))
    admin = auth(admin_key.secret)
    created = await client.post("/v1/api-keys", json={"name": "busy backend", "scopes": ["read"],
                                                      "rate_limit_per_minute": LIMIT + 3}, headers=admin)
    assert created.status_code == 201, created.text
    assert created.json()["rate_limit_per_minute"] == LIMIT + 3
    listed = (await client.get(f"/v1/api-keys/{created.json()['id']}", headers=admin)).json()
    assert listed["rate_limit_per_minute"] == LIMIT + 3
    busy = auth(created.json()["secret"])
    probe = await client.get("/v1/personalities", headers=busy)
    if int(probe.headers["ratelimit-reset"]) < 3:  # too close to the minute's end: start in a fresh window
        await asyncio.sleep(int(probe.headers["ratelimit-reset"]) + 0.2)
        probe = await client.get("/v1/personalities", headers=busy)
    assert probe.headers["ratelimit-limit"] == str(LIMIT + 3)
    left = int(probe.headers["ratelimit-remaining"])
    statuses = [(await client.get("/v1/personalities", headers=busy)).status_code for _ in range(left + 1)]
    assert statuses == [200] * left + [429], statuses  # more than the deployment's LIMIT, and no more

    unlimited = await client.post("/v1/api-keys", json={"name": "internal", "scopes": ["read"],
                                                        "rate_limit_per_minute": 0}, headers=admin)
    free = auth(unlimited.json()["secret"])
    for _ in range(LIMIT * 3):
        response = await client.get("/v1/personalities", headers=free)
        assert response.status_code == 200 and "ratelimit-limit" not in response.headers
    for bad in (-1, 1.5, "10", 10**7):
        refused = await client.post("/v1/api-keys", json={"name": "x", "scopes": ["read"],
                                                          "rate_limit_per_minute": bad}, headers=admin)
        assert_error(refused, 400, param="rate_limit_per_minute")


async def test_past_windows_and_expired_idempotency_keys_are_purged(service: Service) -> None:
    limiter, store = service.container.resolve(RateLimiter), service.container.resolve(IdempotencyStore)
    now, org = datetime.now(UTC), service.organization_id

    async def seed(tag: str) -> None:
        await limiter.hit(f"ip:{tag}-old", LIMIT, now - timedelta(minutes=5))
        await limiter.hit(f"ip:{tag}-live", LIMIT, now)
        await store.claim(org, f"{tag}-expired", "hash", now - timedelta(days=2), now - timedelta(days=1))
        await store.claim(org, f"{tag}-live", "hash", now, now + timedelta(days=1))

    async def purge() -> tuple[int, int]:
        return await limiter.purge(now), await store.purge(now)

    service.call(seed, "a")
    assert service.call(purge) == (1, 1)
    service.call(seed, "b")
    await service.drain()  # the worker's hourly purge runs at its start too
    assert service.call(purge) == (0, 0)
    assert service.call(limiter.hit, "ip:b-live", LIMIT, now).remaining == LIMIT - 2  # the live ones stay
    assert service.call(store.claim, org, "b-live", "hash", now, now + timedelta(days=1)) is not None
