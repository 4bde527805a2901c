"""Conversations over HTTP: create with mode scopes, text turns, transcripts, ending, listing."""

from typing import Any

from litestar.testing import AsyncTestClient

from . import fields
from .helpers import (
    Service,
    assert_created,
    assert_error,
    assert_timestamp,
    auth,
    create_personality,
    create_user,
)

FIELDS = fields.CONVERSATION


async def test_create_read_and_end(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    user = await create_user(client)
    response = await client.post(
        "/v1/conversations",
        json={"personality_id": personality["id"], "user_id": user["id"], "initial_message": "Hi there!"},
    )
    conversation = assert_created(response, FIELDS, "conv_", "conversation")
    assert conversation["status"] == "connecting"
    assert conversation["mode"] == "voice_video"  # the default
    assert (conversation["personality_id"], conversation["user_id"]) == (personality["id"], user["id"])
    assert conversation["room_url"].startswith(("http://", "https://"))
    assert isinstance(conversation["room_token"], str) and conversation["room_token"]
    assert conversation["ended_at"] is None and conversation["transcript"] is None
    assert_timestamp(conversation["created_at"])

    path = f"/v1/conversations/{conversation['id']}"
    fetched = await client.get(path)
    assert fetched.status_code == 200 and fetched.json() == conversation
    with_transcript = (await client.get(path, params={"include_transcript": "true"})).json()
    assert with_transcript["transcript"] == [{"role": "assistant", "content": "Hi there!", "timestamp": 0.0}]

    ended = await client.delete(path)
    assert ended.status_code == 200, ended.text
    body = ended.json()
    assert set(body) == FIELDS
    assert body["status"] == "ended"
    assert_timestamp(body["ended_at"])
    assert isinstance(body["duration"], int) and body["duration"] >= 0
    again = await client.delete(path)
    assert again.status_code == 200
    assert again.json() == body  # ending an ended conversation returns it unchanged
    assert (await client.get(path)).json()["status"] == "ended"


async def test_messages_and_transcript(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    await client.post(
        f"/v1/personalities/{personality['id']}/knowledge",
        json={"type": "text", "content": "The museum opens at 9am."},
    )
    conversation = (
        await client.post("/v1/conversations", json={"personality_id": personality["id"], "mode": "voice"})
    ).json()
    path = f"/v1/conversations/{conversation['id']}"
    for text in ("Hello!", "When does the museum open?"):
        response = await client.post(f"{path}/messages", json={"content": text})
        assert response.status_code == 200, response.text
        result = response.json()
        assert set(result) == {"conversation", "message", "reply"}
        assert set(result["conversation"]) == FIELDS
        assert result["conversation"]["status"] == "active"
        assert result["message"]["role"] == "user" and result["message"]["content"] == text
        assert result["reply"]["role"] == "assistant" and result["reply"]["content"].strip()
        assert 0 <= result["message"]["timestamp"] <= result["reply"]["timestamp"]

    transcript = (await client.get(path, params={"include_transcript": True})).json()["transcript"]
    assert [t["role"] for t in transcript] == ["user", "assistant", "user", "assistant"]
    assert [t["content"] for t in transcript[::2]] == ["Hello!", "When does the museum open?"]
    assert all(set(t) == {"role", "content", "timestamp"} for t in transcript[::2])
    # a reply carries how long it took: to its first piece and in all, in ms
    assert all(set(t) == {"role", "content", "timestamp", "metrics"} for t in transcript[1::2])
    assert all(set(t["metrics"]) == {"first_piece_ms", "total_ms"} for t in transcript[1::2])
    assert all(0 <= t["metrics"]["first_piece_ms"] <= t["metrics"]["total_ms"] for t in transcript[1::2])
    stamps = [t["timestamp"] for t in transcript]
    assert stamps == sorted(stamps)
    assert (await client.get(path, params={"include_transcript": "false"})).json()["transcript"] is None

    assert_error(await client.post(f"{path}/messages", json={"content": ""}), 400, param="content")
    assert_error(await client.post(f"{path}/messages", json={"content": "x" * 5001}), 400, param="content")
    assert_error(await client.post(f"{path}/messages", json={}), 400, param="content")

    assert (await client.delete(path)).json()["status"] == "ended"
    assert_error(
        await client.post(f"{path}/messages", json={"content": "Still there?"}), 409, code="state_conflict"
    )


async def test_mode_needs_its_scopes(service: Service, client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    voice = await service.make_key("conversations", "voice")
    video = await service.make_key("conversations", "video")
    both = await service.make_key("conversations", "voice", "video")
    no_conversations = await service.make_key("voice", "video", "chat", "write")
    expected = {
        voice: {"voice": 201, "video": 403, "voice_video": 403},
        video: {"voice": 403, "video": 201, "voice_video": 403},
        both: {"voice": 201, "video": 201, "voice_video": 201},
        no_conversations: {"voice": 403, "video": 403, "voice_video": 403},
    }
    for secret, modes in expected.items():
        for mode, status in modes.items():
            response = await client.post(
                "/v1/conversations",
                headers=auth(secret),
                json={"personality_id": personality["id"], "mode": mode},
            )
            if status == 201:
                assert response.status_code == 201, response.text
                assert response.json()["mode"] == mode
            else:
                assert_error(response, 403, code="insufficient_scope")
    # The default mode is voice_video, so it needs both.
    assert_error(
        await client.post(
            "/v1/conversations", headers=auth(voice), json={"personality_id": personality["id"]}
        ),
        403,
    )
    default = await client.post(
        "/v1/conversations", headers=auth(both), json={"personality_id": personality["id"]}
    )
    assert default.status_code == 201 and default.json()["mode"] == "voice_video"


async def test_create_validation(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    pid = personality["id"]
    for body, param in [
        ({}, "personality_id"),
        ({"personality_id": pid, "mode": "audio"}, "mode"),
        ({"personality_id": pid, "config": {"video_enabled": "yes"}}, "config.video_enabled"),
        ({"personality_id": pid, "config": {"subtitles": True}}, "config.subtitles"),
        ({"personality_id": pid, "initial_message": "x" * 5001}, "initial_message"),
        ({"personality_id": pid, "room": "x"}, "room"),
    ]:
        assert_error(
            await client.post("/v1/conversations", json=body), 400, code="parameter_invalid", param=param
        )
    assert_error(
        await client.post("/v1/conversations", json={"personality_id": f"personality_{'x' * 24}"}),
        404,
        code="resource_missing",
        param="personality_id",
    )
    assert_error(
        await client.post("/v1/conversations", json={"personality_id": pid, "user_id": f"user_{'x' * 24}"}),
        404,
        code="resource_missing",
        param="user_id",
    )
    assert (await client.get("/v1/conversations")).json()["data"] == []
    ok = await client.post(
        "/v1/conversations",
        json={
            "personality_id": pid,
            "config": {
                "video_enabled": False,
                "audio_enabled": True,
                "vad_enabled": False,
                "interruption_enabled": True,
            },
        },
    )
    assert ok.status_code == 201, ok.text


async def test_list_filters(client: AsyncTestClient[Any]) -> None:
    first, second = await create_personality(client), await create_personality(client, name="B")
    user = await create_user(client)
    a = (
        await client.post("/v1/conversations", json={"personality_id": first["id"], "user_id": user["id"]})
    ).json()
    b = (await client.post("/v1/conversations", json={"personality_id": second["id"]})).json()
    await client.delete(f"/v1/conversations/{a['id']}")

    async def ids(**params: str) -> list[str]:
        response = await client.get("/v1/conversations", params=params)
        assert response.status_code == 200, response.text
        return [c["id"] for c in response.json()["data"]]

    assert await ids() == [b["id"], a["id"]]
    assert await ids(status="ended") == [a["id"]]
    assert await ids(status="connecting") == [b["id"]]
    assert await ids(personality_id=second["id"]) == [b["id"]]
    assert await ids(user_id=user["id"]) == [a["id"]]
    assert_error(await client.get("/v1/conversations", params={"status": "paused"}), 400, param="status")


async def test_unknown_conversation(client: AsyncTestClient[Any]) -> None:
    for ident in (f"conv_{'x' * 24}", "nonsense"):
        path = f"/v1/conversations/{ident}"
        assert_error(await client.get(path), 404, code="resource_missing")
        assert_error(await client.delete(path), 404, code="resource_missing")
        assert_error(
            await client.post(f"{path}/messages", json={"content": "hi"}), 404, code="resource_missing"
        )


async def test_the_room_door_opens_to_its_own_token_only(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    first, second = [(await client.post("/v1/conversations", json={"personality_id": personality["id"]})).json()
                     for _ in range(2)]
    door = f"/rooms/{first['id']}"
    expired = "rt_1." + first["room_token"].split(".", 1)[1]
    for token in ("", "nonsense", expired, second["room_token"]):
        refused = await client.post(f"{door}/join", params={"token": token})
        assert_error(refused, 401, code="invalid_room_token")
        assert_error(await client.post(f"{door}/messages", params={"token": token}, json={"content": "Hi"}), 401,
                     code="invalid_room_token")
    assert (await client.get(f"/v1/conversations/{first['id']}")).json()["status"] == "connecting"  # unchanged
    joined = await client.post(f"{door}/join", params={"token": first["room_token"]})
    assert joined.status_code == 200 and joined.json()["status"] == "active", joined.text
    blank = await client.post(f"{door}/messages", params={"token": first["room_token"]}, json={"content": "  "})
    assert_error(blank, 400, param="content")
    said = await client.post(f"{door}/messages", params={"token": first["room_token"]}, json={"content": "Hello"})
    assert said.status_code == 200 and said.json()["reply"]["content"], said.text


async def ask_with_knowledge(service: Service, client: AsyncTestClient[Any], items: list[dict[str, str]],
                             question: str) -> str:
    """A new personality given these knowledge items (all ready), asked one question: its reply."""
    personality = await create_personality(client)
    for item in items:
        response = await client.post(f"/v1/personalities/{personality['id']}/knowledge", json={"type": "text", **item})
        assert response.status_code == 201, response.text
    await service.drain()
    conversation = (
        await client.post("/v1/conversations", json={"personality_id": personality["id"], "mode": "voice"})
    ).json()
    reply = await client.post(f"/v1/conversations/{conversation['id']}/messages", json={"content": question})
    return str(reply.json()["reply"]["content"])


async def test_honest_limits_name_topics_not_first_words(service: Service, client: AsyncTestClient[Any]) -> None:
    """An item given no name is named after its first words; "I can help with The museum opens at 9am..." would
    read them out as a topic. Only the names people gave are topics."""
    reply = await ask_with_knowledge(service, client, [
        {"name": "Opening hours", "content": "The museum opens at 9am on Sundays."},
        {"content": "Tickets cost 12 euros and are sold at the front desk."}], "Do you rent out bicycles?")
    assert "opening hours" in reply and "tickets cost" not in reply.lower(), reply


async def test_an_items_name_says_what_its_chunks_are_about(service: Service, client: AsyncTestClient[Any]) -> None:
    """The answerer is handed each chunk's item name: "Pick-up" answers "where do I pick the car up?" from a
    sentence that never says it; an item given no name lends its chunks no title."""
    reply = await ask_with_knowledge(service, client, [
        {"name": "Pick-up", "content": "Our desk is in the arrivals hall of Eindhoven Airport, next to the bakery. "
         "The desk is staffed daily from 6am to 11pm."},
        {"content": "We rent small city cars and electric cars. A small car costs 39 euros per day."}],
        "Where do I pick the car up?")
    assert "arrivals hall" in reply, reply
