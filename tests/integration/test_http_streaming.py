"""`POST /v1/conversations/{id}/messages` with `"stream": true`: server-sent events over a real socket, with the
offline engine and with a local OpenAI-compatible server that streams."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from .live_app import Live, live_app, sse_events
from .openai_server import Break, FakeModel, Say, Status

REPLY = "Our shop opens at nine. Bikes rent for twelve euros a day. Helmets are free with every rental."


@pytest.fixture
def model() -> AsyncIterator[FakeModel]:
    with FakeModel(lambda body: Say(REPLY)) as fake:
        yield fake


@pytest.fixture
async def live(sqlite_template: Path, tmp_path: Path, model: FakeModel) -> AsyncIterator[Live]:
    async with live_app(sqlite_template, tmp_path, dialogue_base_url=model.base_url, dialogue_model="fake") as app:
        yield app


async def conversation(api: Any) -> str:
    personality = (await api.post("/personalities", json={"name": "Ava"})).json()
    created = await api.post("/conversations", json={"personality_id": personality["id"], "mode": "voice"})
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


async def transcript(api: Any, conversation_id: str) -> list[dict[str, Any]]:
    got = await api.get(f"/conversations/{conversation_id}", params={"include_transcript": "true"})
    return list(got.json()["transcript"])


async def test_streamed_turn_deltas_join_to_the_stored_reply(live: Live, model: FakeModel) -> None:
    cid = await conversation(live.api)
    async with live.api.stream("POST", f"/conversations/{cid}/messages",
                               json={"content": "When do you open?", "stream": True}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["cache-control"] == "no-cache"
        body = "".join([chunk async for chunk in response.aiter_text()])
    events = sse_events(body)
    names = [name for name, _ in events]
    assert names[-1] == "done" and set(names[:-1]) == {"delta"} and len(names) > 3
    joined = "".join(data["content"] for name, data in events if name == "delta")
    assert joined == REPLY
    done = events[-1][1]
    assert set(done) == {"conversation", "message", "reply"}
    assert done["reply"]["content"] == REPLY and done["reply"]["role"] == "assistant"
    assert done["message"]["content"] == "When do you open?" and done["conversation"]["status"] == "active"
    assert model.requests[-1]["stream"] is True
    stored = await transcript(live.api, cid)
    assert stored == [done["message"], done["reply"]]  # stored as streamed; no "interrupted" on a whole reply
    # The plain form is the same turn, collected.
    plain = await live.api.post(f"/conversations/{cid}/messages", json={"content": "And prices?"})
    assert plain.status_code == 200 and plain.json()["reply"]["content"] == REPLY


async def test_the_offline_engine_streams_too(sqlite_template: Path, tmp_path: Path) -> None:
    async with live_app(sqlite_template, tmp_path) as live:
        cid = await conversation(live.api)
        response = await live.api.post(f"/conversations/{cid}/messages", json={"content": "Hi, who are you?",
                                                                               "stream": True})
        events = sse_events(response.text)
        assert events[-1][0] == "done" and len(events) >= 2
        joined = "".join(data["content"] for name, data in events if name == "delta")
        assert joined == events[-1][1]["reply"]["content"] and joined
        assert (await transcript(live.api, cid))[-1]["content"] == joined


async def test_errors_before_the_stream_are_ordinary_json(live: Live, model: FakeModel) -> None:
    cid = await conversation(live.api)
    url = f"/conversations/{cid}/messages"
    cases: list[tuple[dict[str, Any], int, str | None, dict[str, str]]] = [
        ({"content": "Hi", "stream": "yes"}, 400, "stream", {}),
        ({"content": "Hi", "stream": 1}, 400, "stream", {}),
        ({"content": "Hi", "stream": None}, 400, "stream", {}),
        ({"content": "", "stream": True}, 400, "content", {}),
        ({"content": "x" * 5001, "stream": True}, 400, "content", {}),
        ({"content": "Hi", "stream": True}, 403, None, {"Authorization": f"Bearer {await live.key('read')}"}),
        ({"content": "Hi", "stream": True}, 401, None, {"Authorization": "Bearer sk_nope"}),
    ]
    for body, status, param, headers in cases:
        response = await live.api.post(url, json=body, headers=headers)
        assert response.status_code == status, (body, response.text)
        assert response.headers["content-type"].startswith("application/json")
        assert response.json()["error"]["param"] == param
    missing = await live.api.post("/conversations/conv_" + "x" * 24 + "/messages", json={"content": "Hi",
                                                                                         "stream": True})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "resource_missing"
    await live.api.delete(f"/conversations/{cid}")
    ended = await live.api.post(url, json={"content": "Hi", "stream": True})
    assert ended.status_code == 409 and ended.headers["content-type"].startswith("application/json")
    assert model.requests == [] and await transcript(live.api, cid) == []


async def test_a_failure_during_the_stream_is_an_error_event(live: Live, model: FakeModel) -> None:
    model.answer = lambda body: Break("We open at nine and close")
    cid = await conversation(live.api)
    response = await live.api.post(f"/conversations/{cid}/messages", json={"content": "Hours?", "stream": True})
    assert response.status_code == 200
    events = sse_events(response.text)
    assert [name for name, _ in events][-1] == "error"
    error = events[-1][1]["error"]
    assert error["code"] == "engine_unavailable" and error["type"] == "api_error" and error["param"] is None
    said = "".join(data["content"] for name, data in events if name == "delta")
    assert "We open at nine and close".startswith(said)
    stored = await transcript(live.api, cid)
    assert [t["role"] for t in stored] == ["user", "assistant"]
    assert stored[1]["interrupted"] is True and stored[1]["content"] == said
    # A model server that refuses before anything is said: the plain form answers 503 (not a 500).
    model.answer = lambda body: Status(400)
    plain = await live.api.post(f"/conversations/{cid}/messages", json={"content": "Hours?"})
    assert plain.status_code == 503 and plain.json()["error"]["code"] == "engine_unavailable"


async def test_a_stream_the_client_drops_is_stored_marked_interrupted(live: Live, model: FakeModel) -> None:
    long_reply = " ".join(f"Word{i}." for i in range(200))
    model.answer = lambda body: Say(long_reply, delay=0.02)
    cid = await conversation(live.api)
    received = []
    async with live.api.stream("POST", f"/conversations/{cid}/messages",
                               json={"content": "Tell me everything", "stream": True}) as response:
        async for line in response.aiter_lines():
            if line.startswith("data: "):
                received.append(json.loads(line[6:])["content"])
            if len(received) == 3:
                break  # the client goes away with the reply a few words in
    for _ in range(200):
        stored = await transcript(live.api, cid)
        if len(stored) == 2:
            break
        await asyncio.sleep(0.05)
    assert [t["role"] for t in stored] == ["user", "assistant"]
    reply = stored[1]
    assert reply["interrupted"] is True
    assert reply["content"].startswith("".join(received)) and long_reply.startswith(reply["content"])
    assert len(reply["content"]) < len(long_reply) / 2  # cut off early, not produced to its end
    for _ in range(100):  # the generation stopped too: the model server saw its client leave
        if model.hangups:
            break
        await asyncio.sleep(0.05)
    assert model.hangups == 1


async def test_idempotent_streams_replay_whole_and_dropped_ones_run_again(live: Live, model: FakeModel) -> None:
    cid = await conversation(live.api)
    url = f"/conversations/{cid}/messages"
    headers = {"Idempotency-Key": "turn-1"}
    first = await live.api.post(url, json={"content": "Hours?", "stream": True}, headers=headers)
    again = await live.api.post(url, json={"content": "Hours?", "stream": True}, headers=headers)
    assert again.headers.get("idempotent-replayed") == "true"
    assert again.text == first.text and again.headers["content-type"].startswith("text/event-stream")
    assert len(await transcript(live.api, cid)) == 2  # the turn ran once
    # A stream that failed is not kept: the same key runs the turn again.
    model.answer = lambda body: Break("We open")
    failed = await live.api.post(url, json={"content": "Prices?", "stream": True}, headers={"Idempotency-Key": "k2"})
    assert sse_events(failed.text)[-1][0] == "error"
    model.answer = lambda body: Say(REPLY)
    retried = await live.api.post(url, json={"content": "Prices?", "stream": True}, headers={"Idempotency-Key": "k2"})
    assert "idempotent-replayed" not in retried.headers and sse_events(retried.text)[-1][0] == "done"


async def test_the_cli_http_backend_yields_pieces_as_they_arrive(live: Live, model: FakeModel) -> None:
    from avatar_service.entrypoints.cli.backends import CliError, Http

    model.answer = lambda body: Say(REPLY, delay=0.1)
    cid = await conversation(live.api)
    http = Http(live.base_url, live.api.headers["Authorization"].removeprefix("Bearer "))
    try:
        arrivals: list[tuple[float, str]] = []
        async for piece in http.say_streamed(cid, "When do you open?"):
            arrivals.append((asyncio.get_running_loop().time(), piece))
        assert "".join(piece for _, piece in arrivals) == REPLY and len(arrivals) > 5
        assert arrivals[-1][0] - arrivals[0][0] > 0.8  # spread over the model's writing, not all at the end
        model.answer = lambda body: Break("We open")
        with pytest.raises(CliError) as failed:
            async for _ in http.say_streamed(cid, "Again?"):
                pass
        assert failed.value.code == "engine_unavailable"
        await live.api.delete(f"/conversations/{cid}")
        with pytest.raises(CliError) as refused:
            async for _ in http.say_streamed(cid, "Still there?"):
                pass
        assert refused.value.code == "state_conflict"
    finally:
        await http.aclose()


async def test_a_rate_limited_stream_is_an_ordinary_429(sqlite_template: Path, tmp_path: Path) -> None:
    async with live_app(sqlite_template, tmp_path, rate_limit_per_minute=4) as live:
        cid = await conversation(live.api)  # two requests
        first = await live.api.post(f"/conversations/{cid}/messages", json={"content": "Hi", "stream": True})
        assert first.status_code == 200 and sse_events(first.text)[-1][0] == "done"
        await live.api.get(f"/conversations/{cid}")
        limited = await live.api.post(f"/conversations/{cid}/messages", json={"content": "Hi", "stream": True})
        assert limited.status_code == 429 and limited.headers["content-type"].startswith("application/json")
        assert limited.json()["error"]["code"] == "rate_limited" and int(limited.headers["retry-after"]) >= 1
