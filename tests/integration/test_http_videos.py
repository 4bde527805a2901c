"""Video generations over HTTP: validation, create, read, list, cancel (rendering is tested elsewhere)."""

from typing import Any

from litestar.testing import AsyncTestClient

from . import fields
from .helpers import assert_created, assert_error, assert_timestamp, create_personality

FIELDS = fields.VIDEO


async def test_create_read_list_and_cancel(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    response = await client.post(
        "/v1/video/generations",
        json={
            "personality_id": personality["id"],
            "text": "Welcome to the museum!",
            "duration": 10,
            "resolution": "480p",
            "background": "#336699",
        },
    )
    video = assert_created(response, FIELDS | {"webhook_secret"}, "vid_", "video.generation")
    assert video["webhook_secret"] is None  # no webhook_url given
    assert (video["status"], video["progress"], video["personality_id"]) == ("pending", 0, personality["id"])
    assert video["video_url"] is None and video["thumbnail_url"] is None and video["completed_at"] is None
    assert_timestamp(video["created_at"])

    path = f"/v1/video/generations/{video['id']}"
    fetched = await client.get(path)
    assert fetched.status_code == 200
    assert set(fetched.json()) == FIELDS  # the secret is shown only once
    listed = (await client.get("/v1/video/generations")).json()
    assert [v["id"] for v in listed["data"]] == [video["id"]]
    assert [
        v["id"]
        for v in (await client.get("/v1/video/generations", params={"status": "pending"})).json()["data"]
    ] == [video["id"]]

    cancelled = await client.post(f"{path}/cancel")
    assert cancelled.status_code == 200, cancelled.text
    body = cancelled.json()
    assert set(body) == FIELDS
    assert body["status"] == "cancelled"
    again = await client.post(f"{path}/cancel")
    assert again.status_code == 200 and again.json() == body  # unchanged
    assert (await client.get(path)).json() == body
    assert (await client.get("/v1/video/generations", params={"status": "pending"})).json()["data"] == []
    assert [
        v["id"]
        for v in (await client.get("/v1/video/generations", params={"status": "cancelled"})).json()["data"]
    ] == [video["id"]]


async def test_webhook_secret_is_returned_once(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    response = await client.post(
        "/v1/video/generations",
        json={
            "personality_id": personality["id"],
            "audio_url": "https://example.com/speech.wav",
            "webhook_url": "https://example.com/hooks/video",
        },
    )
    assert response.status_code == 201, response.text
    video = response.json()
    assert video["webhook_secret"].startswith("whsec_")
    assert "webhook_secret" not in (await client.get(f"/v1/video/generations/{video['id']}")).json()
    assert (await client.post(f"/v1/video/generations/{video['id']}/cancel")).json()["status"] == "cancelled"


async def test_validation_names_the_field(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    pid = personality["id"]
    cases: list[tuple[dict[str, Any], str]] = [
        ({"text": "hello"}, "personality_id"),
        ({"personality_id": pid}, "text"),  # neither text nor audio_url
        ({"personality_id": pid, "text": "hi", "audio_url": "https://example.com/a.wav"}, "text"),  # both
        ({"personality_id": pid, "text": "x" * 5001}, "text"),
        ({"personality_id": pid, "text": ""}, "text"),
        ({"personality_id": pid, "text": "hi", "duration": 0}, "duration"),
        ({"personality_id": pid, "text": "hi", "duration": 301}, "duration"),
        ({"personality_id": pid, "text": "hi", "duration": 2.5}, "duration"),
        ({"personality_id": pid, "text": "hi", "resolution": "4k"}, "resolution"),
        ({"personality_id": pid, "text": "hi", "resolution": "720"}, "resolution"),
        ({"personality_id": pid, "text": "hi", "background": "purple"}, "background"),
        ({"personality_id": pid, "text": "hi", "background": "#abc"}, "background"),
        ({"personality_id": pid, "text": "hi", "background": "ftp://example.com/bg.png"}, "background"),
        ({"personality_id": pid, "audio_url": "not a url"}, "audio_url"),
        ({"personality_id": pid, "text": "hi", "webhook_url": "mailto:me@example.com"}, "webhook_url"),
        ({"personality_id": pid, "text": "hi", "voice": "x"}, "voice"),
    ]
    for body, param in cases:
        assert_error(
            await client.post("/v1/video/generations", json=body), 400, code="parameter_invalid", param=param
        )
    assert (await client.get("/v1/video/generations")).json()["data"] == []
    assert_error(
        await client.post(
            "/v1/video/generations", json={"personality_id": f"personality_{'x' * 24}", "text": "hi"}
        ),
        404,
        code="resource_missing",
        param="personality_id",
    )
    assert_error(
        await client.get("/v1/video/generations", params={"status": "rendering"}), 400, param="status"
    )

    ids = []
    for extra in (
        {"text": "x" * 5000, "duration": 1},
        {"text": "hi", "duration": 300, "resolution": "1080p", "background": "transparent"},
        {"text": "hi", "background": "blur"},
        {"text": "hi", "background": "https://example.com/b.jpg"},
    ):
        response = await client.post("/v1/video/generations", json={"personality_id": pid, **extra})
        assert response.status_code == 201, response.text
        ids.append(response.json()["id"])
    for ident in ids:  # nothing renders here
        assert (await client.post(f"/v1/video/generations/{ident}/cancel")).json()["status"] == "cancelled"


async def test_unknown_generation(client: AsyncTestClient[Any]) -> None:
    for ident in (f"vid_{'x' * 24}", "garbage"):
        assert_error(await client.get(f"/v1/video/generations/{ident}"), 404, code="resource_missing")
        assert_error(await client.post(f"/v1/video/generations/{ident}/cancel"), 404, code="resource_missing")
