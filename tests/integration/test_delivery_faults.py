"""Delivery under faults: a receiver that is down then up gets every event once (after dedup by webhook-id),
and an API process killed between the change and the delivery loses nothing (PostgreSQL, real processes)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import update
from standardwebhooks.webhooks import Webhook

from avatar_service.adapters.sqlalchemy import tables
from avatar_service.adapters.system_clock import SystemClock
from avatar_service.core.model import ApiKeyCreate
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.storage import Storage

from .conftest import _truncate_all
from .helpers import Receiver, Service, create_personality, create_user, subscribe
from .test_workers_faults import eventually, service_env, start, stop


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    return {"allow_private_urls": True}


@pytest.fixture
async def pg_url(postgres_database: str) -> str:
    await _truncate_all(postgres_database)
    return postgres_database


def verified_events(secret: str, receiver: Receiver) -> dict[str, dict[str, Any]]:
    """Every received delivery checked with the reference Standard Webhooks library, deduplicated by webhook-id."""
    events: dict[str, dict[str, Any]] = {}
    for received in receiver.requests:
        payload: dict[str, Any] = Webhook(secret).verify(received.body, received.headers)
        assert payload["id"] == received.headers["webhook-id"]
        events[payload["id"]] = payload
    return events


async def _time_passes(storage: Storage) -> None:
    """Every scheduled retry becomes due now (instead of waiting 5 s, 5 min, ...)."""
    engine = storage.engine  # type: ignore[attr-defined]
    async with engine.begin() as conn:
        await conn.execute(update(tables.deliveries).where(tables.deliveries.c.status == "pending")
                           .values(next_retry_at=SystemClock().now()))


async def test_a_receiver_down_then_up_gets_every_event_once(service: Service, client: AsyncTestClient[Any],
                                                             receiver: Receiver) -> None:
    receiver.status = 503
    hook = await subscribe(client, receiver.url + "/hooks", "memory.created")
    personality, user = await create_personality(client), await create_user(client)
    contents = [f"Fact number {n}" for n in range(12)]
    response = await client.post(f"/v1/users/{user['id']}/memories/bulk", json={
        "personality_id": personality["id"], "memories": [{"content": c} for c in contents]})
    assert response.status_code == 201
    await service.drain()
    assert receiver.requests, "the first attempts reach the receiver"
    storage = service.container.resolve(Storage)
    for _ in range(3):  # it stays down for a while: attempts fail, retries are scheduled, nothing is lost
        service.call(_time_passes, storage)
        await service.drain()
    down_attempts = len(receiver.requests)
    receiver.status = 200
    for _ in range(10):  # back up: each pass sends what is due until nothing is pending
        service.call(_time_passes, storage)
        await service.drain()
        log = (await client.get(f"/v1/webhooks/{hook['id']}/deliveries", params={"limit": 100})).json()["data"]
        if not any(d["status"] == "pending" for d in log):
            break
    events = verified_events(hook["secret"], receiver)
    assert sorted(e["data"]["content"] for e in events.values()) == sorted(contents)  # none lost, none extra
    after = receiver.requests[down_attempts:]
    assert len({r.headers["webhook-id"] for r in after}) == len(after) == len(contents)  # once each when up

    log = (await client.get(f"/v1/webhooks/{hook['id']}/deliveries", params={"limit": 100})).json()["data"]
    succeeded = [d for d in log if d["status"] == "succeeded"]
    assert sorted(d["event_id"] for d in succeeded) == sorted(events)  # one success per event
    failed = [d for d in log if d["status"] == "failed"]
    assert failed and all(d["response_status"] == 503 and d["error"] for d in failed)  # each attempt is listed
    assert all(d["next_retry_at"] for d in failed)  # when the retry after it was due
    assert all(d["attempt"] >= 2 for d in succeeded if d["event_id"] in {f["event_id"] for f in failed})


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_an_api_killed_after_the_change_still_delivers_after_restart(pg_url: str, tmp_path: Path) -> None:
    settings = load_settings({}, database_url=pg_url, data_dir=str(tmp_path / "data"), embedder="lexical",
                             secret_key="fault-tests")
    container = bootstrap.server(settings)
    try:
        api_keys: ApiKeys = container.resolve(ApiKeys)
        org = (await api_keys.organization("default")).id
        secret = (await api_keys.create(org, ApiKeyCreate(name="faults", scopes=["*"]))).secret
    finally:
        await container.resolve(Storage).close()
    port = _free_port()
    env = service_env(pg_url, tmp_path / "data", "database", AVATAR_WORKER="external")
    log = tmp_path / "api.log"
    with Receiver() as receiver:
        api = start(["serve", "--port", str(port)], env, log)
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}/v1",
                                         headers={"Authorization": f"Bearer {secret}"}) as http:
                async def up() -> bool:
                    try:
                        return (await http.get("/personalities")).status_code == 200
                    except httpx.TransportError:
                        return False

                await eventually(up, 40, "the API to start", log)
                hook = (await http.post("/webhooks", json={"url": receiver.url + "/x",
                                                           "events": ["memory.created"]})).json()
                pid = (await http.post("/personalities", json={"name": "Ava"})).json()["id"]
                uid = (await http.post("/users", json={})).json()["id"]
                created = await http.post(f"/users/{uid}/memories", json={"personality_id": pid,
                                                                          "content": "Keeps bees"})
                assert created.status_code == 201
        finally:
            api.kill()  # SIGKILL: the change is committed, the delivery never left this process
            api.wait(10)
        assert receiver.requests == []

        restarted = start(["serve", "--port", str(port)], {**env, "AVATAR_WORKER": "embedded"}, log)
        try:
            async def delivered() -> bool:
                return bool(receiver.requests)

            await eventually(delivered, 40, "the delivery after the restart", log)
        finally:
            stop(restarted)
        [event] = verified_events(hook["secret"], receiver).values()
        assert (event["type"], event["data"]["id"], event["data"]["content"]) == ("memory.created",
                                                                                   created.json()["id"], "Keeps bees")
