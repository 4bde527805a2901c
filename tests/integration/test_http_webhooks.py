"""Webhooks over HTTP: endpoints (secret shown once), test deliveries, and events sent by the dispatcher."""

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from . import fields
from .helpers import (
    Receiver,
    Service,
    assert_created,
    assert_deleted,
    assert_error,
    assert_id,
    assert_timestamp,
    create_personality,
    create_user,
    subscribe,
)

FIELDS = fields.WEBHOOK
DELIVERY_FIELDS = fields.DELIVERY


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    return {"allow_private_urls": True}  # the receiver listens on 127.0.0.1


def verified(secret: str, received: Any) -> dict[str, Any]:
    """The delivery's body after checking its Standard Webhooks signature with the reference library."""
    payload: dict[str, Any] = Webhook(secret).verify(received.body, received.headers)
    assert received.headers["webhook-id"] == payload["id"]
    assert received.headers["content-type"].startswith("application/json")
    return payload


async def test_endpoint_lifecycle(client: AsyncTestClient[Any]) -> None:
    response = await client.post(
        "/v1/webhooks",
        json={"url": "https://example.com/hooks", "events": ["memory.created", "conversation.started"]},
    )
    created = assert_created(response, FIELDS | {"secret"}, "wh_", "webhook")
    assert created["secret"].startswith("whsec_")
    assert created["enabled"] is True
    assert sorted(created["events"]) == ["conversation.started", "memory.created"]
    assert_timestamp(created["created_at"])
    path = f"/v1/webhooks/{created['id']}"

    fetched = (await client.get(path)).json()
    assert set(fetched) == FIELDS  # the secret is never shown again
    assert fetched == {k: v for k, v in created.items() if k != "secret"}
    listed = await client.get("/v1/webhooks")
    assert listed.status_code == 200
    assert listed.json()["data"] == [fetched]

    patched = await client.patch(
        path, json={"url": "https://example.org/new", "events": ["video.completed"], "enabled": False}
    )
    assert patched.status_code == 200, patched.text
    body = patched.json()
    assert set(body) == FIELDS
    assert (body["url"], body["events"], body["enabled"]) == (
        "https://example.org/new",
        ["video.completed"],
        False,
    )
    assert (await client.get(path)).json() == body
    assert (await client.patch(path, json={"enabled": True})).json()["enabled"] is True

    assert_deleted(await client.delete(path), created["id"], "webhook")
    for response in (
        await client.get(path),
        await client.delete(path),
        await client.patch(path, json={}),
        await client.post(f"{path}/test"),
        await client.get(f"{path}/deliveries"),
    ):
        assert_error(response, 404, code="resource_missing")
    assert (await client.get("/v1/webhooks")).json()["data"] == []


async def test_validation(client: AsyncTestClient[Any]) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"events": ["memory.created"]}, "url"),
        ({"url": "https://example.com"}, "events"),
        ({"url": "ftp://example.com", "events": ["memory.created"]}, "url"),
        ({"url": "https://example.com", "events": []}, "events"),
        ({"url": "https://example.com", "events": ["memory.deleted"]}, "events[0]"),
        ({"url": "https://example.com", "events": ["memory.created"], "enabled": "yes"}, "enabled"),
        ({"url": "https://example.com", "events": ["memory.created"], "secret": "mine"}, "secret"),
    ]
    for body, param in cases:
        assert_error(await client.post("/v1/webhooks", json=body), 400, code="parameter_invalid", param=param)
    hook = (
        await client.post("/v1/webhooks", json={"url": "https://example.com", "events": ["memory.created"]})
    ).json()
    for body, param in [
        ({"events": []}, "events"),
        ({"url": "nope"}, "url"),
        ({"events": ["x"]}, "events[0]"),
    ]:
        assert_error(await client.patch(f"/v1/webhooks/{hook['id']}", json=body), 400, param=param)


async def test_test_delivery_is_signed_and_logged(client: AsyncTestClient[Any], receiver: Receiver) -> None:
    hook = await subscribe(client, receiver.url + "/ok", "memory.created")
    response = await client.post(f"/v1/webhooks/{hook['id']}/test")
    assert response.status_code == 200, response.text
    delivery = response.json()
    assert set(delivery) == DELIVERY_FIELDS
    assert delivery["object"] == "webhook_delivery"
    assert (delivery["webhook_id"], delivery["event_type"], delivery["status"]) == (
        hook["id"],
        "webhook.test",
        "succeeded",
    )
    assert (delivery["attempt"], delivery["response_status"]) == (1, 200)
    assert_timestamp(delivery["delivered_at"])

    [received] = receiver.requests
    assert received.path == "/ok"
    payload = verified(hook["secret"], received)
    assert set(payload) == {"id", "type", "created_at", "data"}
    assert payload["type"] == "webhook.test" and payload["id"] == delivery["event_id"]
    with pytest.raises(WebhookVerificationError):
        Webhook(hook["secret"]).verify(received.body + b" ", received.headers)

    receiver.status = 500
    failed = (await client.post(f"/v1/webhooks/{hook['id']}/test")).json()
    assert (failed["status"], failed["response_status"]) == ("failed", 500)

    log = await client.get(f"/v1/webhooks/{hook['id']}/deliveries")
    assert log.status_code == 200
    page = log.json()
    assert [d["id"] for d in page["data"]] == [failed["id"], delivery["id"]]
    assert all(set(d) == DELIVERY_FIELDS for d in page["data"])
    assert_error(
        await client.get(f"/v1/webhooks/{hook['id']}/deliveries", params={"limit": 0}), 400, param="limit"
    )


async def test_events_are_delivered_by_the_dispatcher(
    service: Service, client: AsyncTestClient[Any], receiver: Receiver
) -> None:
    hook = await subscribe(client, receiver.url + "/memories", "memory.created")
    await subscribe(client, receiver.url + "/knowledge", "knowledge.processed")  # not subscribed to memories
    disabled = await subscribe(client, receiver.url + "/disabled", "memory.created")
    await client.patch(f"/v1/webhooks/{disabled['id']}", json={"enabled": False})
    personality = await create_personality(client)
    user = await create_user(client)
    base = f"/v1/users/{user['id']}/memories"
    memory = (
        await client.post(
            base,
            json={
                "personality_id": personality["id"],
                "content": "Plays the cello",
                "category": "preference",
            },
        )
    ).json()
    assert receiver.requests == []  # never sent from inside the request

    await service.drain()
    [received] = receiver.requests
    assert received.path == "/memories"
    event = verified(hook["secret"], received)
    assert set(event) == {"id", "type", "created_at", "data"}
    assert_id(event["id"], "evt_")
    assert event["type"] == "memory.created"
    assert_timestamp(event["created_at"])
    assert event["data"] == (await client.get(f"{base}/{memory['id']}")).json()
    assert json.loads(received.body) == event

    [logged] = (await client.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    assert (logged["event_id"], logged["event_type"], logged["status"]) == (
        event["id"],
        "memory.created",
        "succeeded",
    )
    assert logged["attempt"] == 1 and logged["response_status"] == 200

    await service.drain()  # nothing is sent twice
    assert len(receiver.requests) == 1

    bulk = await client.post(
        f"{base}/bulk",
        json={
            "personality_id": personality["id"],
            "memories": [{"content": "Lives in Porto"}, {"content": "Works as a nurse"}],
        },
    )
    assert bulk.status_code == 201
    await service.drain()
    events = [verified(hook["secret"], r) for r in receiver.requests[1:]]
    assert sorted(e["data"]["content"] for e in events) == ["Lives in Porto", "Works as a nurse"]
    assert all(e["type"] == "memory.created" and e["data"]["source"]["type"] == "bulk" for e in events)
    assert len({e["id"] for e in events}) == 2


async def test_a_failing_receiver_is_retried_later(
    service: Service, client: AsyncTestClient[Any], receiver: Receiver
) -> None:
    receiver.status = 503
    hook = await subscribe(client, receiver.url + "/down", "memory.created")
    personality = await create_personality(client)
    user = await create_user(client)
    await client.post(
        f"/v1/users/{user['id']}/memories",
        json={"personality_id": personality["id"], "content": "Drinks tea"},
    )
    await service.drain()
    assert len(receiver.requests) == 1
    [pending] = (await client.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    assert (pending["status"], pending["attempt"], pending["response_status"]) == ("pending", 1, 503)
    assert pending["error"]
    assert_timestamp(pending["next_retry_at"])
    assert pending["next_retry_at"] > received_at(receiver)
    await service.drain()  # the retry is not due yet
    assert len(receiver.requests) == 1


def received_at(receiver: Receiver) -> str:
    """The first request's webhook-timestamp as an RFC 3339 string, to compare with next_retry_at."""
    stamp = int(receiver.requests[0].headers["webhook-timestamp"])
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%dT%H:%M:%S")
