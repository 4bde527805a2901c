"""Idempotency-Key on POSTs: a repeat replays the first response without doing the work again."""

from typing import Any

from litestar.testing import AsyncTestClient

from .helpers import assert_error, auth


async def test_a_repeat_replays_the_first_response(client: AsyncTestClient[Any]) -> None:
    body = {"name": "Ava", "description": "a guide"}
    first = await client.post("/v1/personalities", json=body, headers={"Idempotency-Key": "create-ava-1"})
    assert first.status_code == 201, first.text
    assert "idempotent-replayed" not in first.headers
    again = await client.post("/v1/personalities", json=body, headers={"Idempotency-Key": "create-ava-1"})
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    listed = (await client.get("/v1/personalities")).json()["data"]
    assert [p["id"] for p in listed] == [first.json()["id"]]  # the work was done once

    other = await client.post("/v1/personalities", json=body, headers={"Idempotency-Key": "create-ava-2"})
    assert other.status_code == 201 and other.json()["id"] != first.json()["id"]
    plain = await client.post("/v1/personalities", json=body)
    assert plain.status_code == 201 and plain.json()["id"] not in {first.json()["id"], other.json()["id"]}


async def test_another_body_under_the_same_key_is_a_conflict(client: AsyncTestClient[Any]) -> None:
    key = {"Idempotency-Key": "k-conflict"}
    assert (await client.post("/v1/personalities", json={"name": "Ava"}, headers=key)).status_code == 201
    assert_error(await client.post("/v1/personalities", json={"name": "Bob"}, headers=key), 409,
                 code="idempotency_conflict", param=None)
    assert_error(await client.post("/v1/users", json={"name": "Ava"}, headers=key), 409, code="idempotency_conflict")
    assert len((await client.get("/v1/personalities")).json()["data"]) == 1


async def test_errors_are_replayed_but_not_server_errors_or_missing_keys(client: AsyncTestClient[Any]) -> None:
    key = {"Idempotency-Key": "bad-body"}
    first = await client.post("/v1/personalities", json={"name": 5}, headers=key)
    assert_error(first, 400, param="name")
    replay = await client.post("/v1/personalities", json={"name": 5}, headers=key)
    assert replay.json() == first.json() and replay.headers["idempotent-replayed"] == "true"
    # no key at all: the guard answers 401 and nothing is remembered under the header's value
    anonymous = await client.post("/v1/personalities", json={"name": "Ava"},
                                  headers={"Idempotency-Key": "anon", "Authorization": ""})
    assert_error(anonymous, 401)
    assert (await client.post("/v1/personalities", json={"name": "Ava"},
                              headers={"Idempotency-Key": "anon"})).status_code == 201
    assert_error(await client.post("/v1/personalities", json={"name": "Ava"}, headers={"Idempotency-Key": "x" * 300}),
                 400, param="Idempotency-Key")


async def test_keys_belong_to_one_organization(service: Any, client: AsyncTestClient[Any]) -> None:
    other = await service.make_key("*", organization="other-org")
    key = {"Idempotency-Key": "shared-name"}
    mine = await client.post("/v1/personalities", json={"name": "Ava"}, headers=key)
    theirs = await client.post("/v1/personalities", json={"name": "Ava"}, headers={**key, **auth(other)})
    assert mine.status_code == theirs.status_code == 201
    assert mine.json()["id"] != theirs.json()["id"]
    assert "idempotent-replayed" not in theirs.headers
