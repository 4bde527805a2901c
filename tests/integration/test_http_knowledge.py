"""Knowledge items over HTTP: add (JSON, URL and multipart), background processing, search, list, delete."""

from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from avatar_service.ports.storage import Storage

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
    events_of,
    subscribe,
)

FIELDS = fields.KNOWLEDGE_ITEM
MUSEUM = (
    "The city museum opens at 9am and closes at 5pm every day except Monday. Tickets cost 12 euros for "
    "adults and children under twelve enter for free. The museum café serves lunch from noon."
)


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    return {"allow_private_urls": True}  # the webhook receiver and the served pages are on 127.0.0.1


async def test_text_item_is_processed_into_chunks(
    service: Service, client: AsyncTestClient[Any], receiver: Receiver
) -> None:
    await subscribe(client, receiver.url + "/hook", "knowledge.processed")
    personality = await create_personality(client)
    base = f"/v1/personalities/{personality['id']}/knowledge"
    response = await client.post(base, json={"type": "text", "name": "Museum facts", "content": MUSEUM})
    item = assert_created(response, FIELDS, "kb_", "knowledge_item")
    assert (item["type"], item["status"], item["name"]) == ("text", "pending", "Museum facts")
    assert item["refresh_interval"] == "never"
    assert_timestamp(item["created_at"])

    await service.drain()
    ready = (await client.get(f"{base}/{item['id']}")).json()
    assert ready["status"] == "ready", ready
    assert ready["chunk_count"] >= 1
    assert ready["token_count"] > 0
    assert ready["content_preview"] == MUSEUM[:500]
    assert ready["error"] is None
    assert_timestamp(ready["updated_at"])

    [event] = events_of(receiver, "knowledge.processed")
    assert set(event) == {"id", "type", "created_at", "data"}
    assert_id(event["id"], "evt_")
    assert_timestamp(event["created_at"])
    assert event["data"] == ready

    found = await client.post(f"{base}/search", json={"query": "When does the museum open?"})
    assert found.status_code == 200, found.text
    hits = found.json()["data"]
    assert hits and set(hits[0]) == {"knowledge_item_id", "content", "relevance"}
    assert hits[0]["knowledge_item_id"] == item["id"]
    assert "9am" in hits[0]["content"]
    assert 0 <= hits[0]["relevance"] <= 1

    listed = (await client.get(base)).json()
    assert [i["id"] for i in listed["data"]] == [item["id"]] and listed["has_more"] is False


async def test_long_preview_is_cut_at_500(service: Service, client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    base = f"/v1/personalities/{personality['id']}/knowledge"
    content = " ".join(f"Fact number {i} is that the sky was clear on day {i}." for i in range(400))
    item = (await client.post(base, json={"type": "text", "content": content})).json()
    await service.drain()
    ready = (await client.get(f"{base}/{item['id']}")).json()
    assert ready["status"] == "ready"
    assert ready["content_preview"] == content[:500]
    assert ready["chunk_count"] > 1


async def test_url_item_is_fetched(
    service: Service, client: AsyncTestClient[Any], receiver: Receiver
) -> None:
    receiver.pages["/guide.txt"] = ("text/plain; charset=utf-8", MUSEUM.encode())
    personality = await create_personality(client)
    base = f"/v1/personalities/{personality['id']}/knowledge"
    url = receiver.url + "/guide.txt"
    response = await client.post(base, json={"type": "url", "url": url, "refresh_interval": "daily"})
    assert response.status_code == 201, response.text
    item = response.json()
    assert (item["source_url"], item["refresh_interval"]) == (url, "daily")
    await service.drain()
    ready = (await client.get(f"{base}/{item['id']}")).json()
    assert ready["status"] == "ready", ready
    assert "9am" in ready["content_preview"]

    gone = (await client.post(base, json={"type": "url", "url": receiver.url + "/missing"})).json()
    await service.drain()
    failed = (await client.get(f"{base}/{gone['id']}")).json()
    assert failed["status"] == "failed"
    assert failed["error"]["code"] and failed["error"]["message"]


async def test_multipart_uploads(service: Service, client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    base = f"/v1/personalities/{personality['id']}/knowledge"
    text = b"Opening hours: the library opens at 8am on weekdays."
    markdown = b"# Parking\n\nThe car park is behind the station and costs 3 euros per hour.\n"
    made = []
    for filename, body, content_type, name in [
        ("hours.txt", text, "text/plain", "Hours"),
        ("parking.md", markdown, "text/markdown", None),
    ]:
        response = await client.post(
            base, files={"file": (filename, body, content_type)}, data={"name": name} if name else {}
        )
        assert response.status_code == 201, response.text
        item = response.json()
        assert item["type"] == "document" and item["status"] == "pending"
        assert item["name"] == (name or filename)
        made.append(item)
    await service.drain()
    for item in made:
        ready = (await client.get(f"{base}/{item['id']}")).json()
        assert ready["status"] == "ready", ready
        assert ready["chunk_count"] >= 1 and ready["token_count"] > 0
    assert "8am" in (await client.get(f"{base}/{made[0]['id']}")).json()["content_preview"]
    assert "car park" in (await client.get(f"{base}/{made[1]['id']}")).json()["content_preview"]
    hits = (await client.post(f"{base}/search", json={"query": "car park cost", "limit": 1})).json()["data"]
    assert [h["knowledge_item_id"] for h in hits] == [made[1]["id"]]

    assert_error(await client.post(base, files={"other": ("a.txt", b"x", "text/plain")}), 400, param="file")
    not_utf8 = (
        b'--XX\r\nContent-Disposition: form-data; name="name"\r\n\r\n\xff\xfe\r\n--XX\r\n'
        b'Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n'
        b"hello\r\n--XX--\r\n"
    )
    response = await client.post(
        base, content=not_utf8, headers={"Content-Type": "multipart/form-data; boundary=XX"}
    )
    assert_error(response, 400, code="body_invalid")
    assert_error(await client.post(base, files={"file": ("empty.txt", b"", "text/plain")}), 400, param="file")
    assert_error(
        await client.post(
            base, files={"file": ("a.txt", b"abc", "text/plain")}, data={"refresh_interval": "monthly"}
        ),
        400,
        param="refresh_interval",
    )
    assert_error(
        await client.post(base, files={"file": ("a.txt", b"abc", "text/plain")}, data={"name": "n" * 256}),
        400,
        param="name",
    )


async def test_validation_names_the_field(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    base = f"/v1/personalities/{personality['id']}/knowledge"
    cases: list[tuple[dict[str, Any], str]] = [
        ({"content": "x"}, "type"),
        ({"type": "pdf", "content": "x"}, "type"),
        ({"type": "text"}, "content"),
        ({"type": "text", "content": ""}, "content"),
        ({"type": "text", "content": "x" * 100_001}, "content"),
        ({"type": "text", "content": "x", "name": "n" * 256}, "name"),
        ({"type": "url"}, "url"),
        ({"type": "feed"}, "url"),
        ({"type": "url", "url": "ftp://example.com/x"}, "url"),
        ({"type": "url", "url": "https://example.com", "refresh_interval": "monthly"}, "refresh_interval"),
        ({"type": "text", "content": "x", "colour": "red"}, "colour"),
    ]
    for body, param in cases:
        assert_error(await client.post(base, json=body), 400, code="parameter_invalid", param=param)
    assert (await client.get(base)).json()["data"] == []
    ok = await client.post(base, json={"type": "text", "content": "x" * 100_000})
    assert ok.status_code == 201, ok.text

    for body, param in [
        ({}, "query"),
        ({"query": ""}, "query"),
        ({"query": "x", "limit": 101}, "limit"),
        ({"query": "x", "min_relevance": -0.5}, "min_relevance"),
    ]:
        assert_error(await client.post(f"{base}/search", json=body), 400, param=param)
    assert_error(await client.get(base, params={"type": "pdf"}), 400, param="type")


async def test_missing_personality_or_item(client: AsyncTestClient[Any]) -> None:
    ghost = f"/v1/personalities/personality_{'x' * 24}/knowledge"
    assert_error(
        await client.post(ghost, json={"type": "text", "content": "x"}), 404, code="resource_missing"
    )
    assert_error(await client.get(ghost), 404, code="resource_missing")
    assert_error(await client.post(f"{ghost}/search", json={"query": "x"}), 404, code="resource_missing")
    first, second = await create_personality(client), await create_personality(client, name="B")
    item = (
        await client.post(f"/v1/personalities/{first['id']}/knowledge", json={"type": "text", "content": "x"})
    ).json()
    for path in (
        f"/v1/personalities/{second['id']}/knowledge/{item['id']}",
        f"/v1/personalities/{first['id']}/knowledge/kb_{'y' * 24}",
        f"/v1/personalities/{first['id']}/knowledge/garbage",
    ):
        assert_error(await client.get(path), 404, code="resource_missing")
        assert_error(await client.delete(path), 404, code="resource_missing")


async def test_list_filters_by_type(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    base = f"/v1/personalities/{personality['id']}/knowledge"
    text = (await client.post(base, json={"type": "text", "content": "a fact"})).json()
    doc = (await client.post(base, json={"type": "document", "content": "a document"})).json()
    assert [i["id"] for i in (await client.get(base)).json()["data"]] == [doc["id"], text["id"]]
    assert [i["id"] for i in (await client.get(base, params={"type": "text"})).json()["data"]] == [text["id"]]
    assert (await client.get(base, params={"type": "feed"})).json()["data"] == []


async def test_delete_removes_the_chunks(service: Service, client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    base = f"/v1/personalities/{personality['id']}/knowledge"
    keep = (
        await client.post(base, json={"type": "text", "content": "Bicycles can be rented at the pier."})
    ).json()
    drop = (await client.post(base, json={"type": "text", "content": MUSEUM})).json()
    await service.drain()
    hits = (await client.post(f"{base}/search", json={"query": "museum tickets"})).json()["data"]
    assert drop["id"] in {h["knowledge_item_id"] for h in hits}

    assert_deleted(await client.delete(f"{base}/{drop['id']}"), drop["id"], "knowledge_item")
    assert_error(await client.get(f"{base}/{drop['id']}"), 404, code="resource_missing")
    assert_error(await client.delete(f"{base}/{drop['id']}"), 404, code="resource_missing")
    hits = (await client.post(f"{base}/search", json={"query": "museum tickets"})).json()["data"]
    assert drop["id"] not in {h["knowledge_item_id"] for h in hits}
    assert {h["knowledge_item_id"] for h in hits} <= {keep["id"]}

    async def chunks_of(item_id: str) -> int:
        async with service.container.resolve(Storage)(service.organization_id) as uow:
            return len(await uow.chunks.find(knowledge_item_id=item_id))

    assert service.call(chunks_of, drop["id"]) == 0  # gone from the database, not only from the index
    assert service.call(chunks_of, keep["id"]) >= 1
