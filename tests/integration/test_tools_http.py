"""Tools end to end over HTTP: a local OpenAI-compatible model that calls them with `tool_calls` deltas, the
service POSTing each call signed through the SSRF guard to an HTTPS tool that verifies the signature with the
`standardwebhooks` package, the answer back to the model, and the call in the transcript; in text turns, streamed
turns and a room's spoken turn."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest
from aiortc.mediastreams import MediaStreamError, MediaStreamTrack

from avatar_service.adapters.aiortc_rooms.audio import FRAME_SAMPLES, OUT_RATE
from avatar_service.adapters.aiortc_rooms.session import RoomSession
from avatar_service.adapters.guarded_http import GuardedHttp
from avatar_service.core.services import tool_calls
from avatar_service.core.services.conversations import Conversations
from avatar_service.ports.speech import Audio, VoiceChoice

from .live_app import Live, live_app, sse_events
from .openai_server import Answer, Call, FakeModel, Say, last_tool_results
from .tls_authority import Authority
from .tool_receiver import ToolReceiver

PARAMETERS = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def weather_model(body: dict[str, Any]) -> Answer:
    """Calls get_weather for Porto; once it has the result, says what the tool answered."""
    results = last_tool_results(body)
    if results:
        return Say(f"The tool says: {results[0]}")
    return Call(("get_weather", {"city": "Porto"}), text="Let me check.")


@pytest.fixture(scope="module")
def ca() -> Authority:
    return Authority()


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with FakeModel(weather_model) as fake:
        yield fake


@pytest.fixture
def receiver(ca: Authority) -> Iterator[ToolReceiver]:
    with ToolReceiver(ca) as tool:
        yield tool


def trusting(ca: Authority, allow_private: bool) -> GuardedHttp:
    return GuardedHttp(allow_private=allow_private, ssl_context=ca.client_context())


@pytest.fixture
async def live(sqlite_template: Path, tmp_path: Path, model: FakeModel, ca: Authority) -> AsyncIterator[Live]:
    # AVATAR_ALLOW_PRIVATE_URLS on: the tool is on loopback (the test's own HTTPS server)
    async with live_app(sqlite_template, tmp_path, dialogue_base_url=model.base_url, dialogue_model="fake",
                        overrides={"http": trusting(ca, allow_private=True)}) as app:
        yield app


async def personality_with_tool(live: Live, receiver: ToolReceiver, url: str | None = None) -> str:
    created = await live.api.post("/personalities", json={"name": "Ava", "tools": [
        {"name": "get_weather", "description": "The weather in a city now.", "parameters": PARAMETERS,
         "url": url or receiver.url()}]})
    assert created.status_code == 201, created.text
    secret = created.json()["tools_secret"]
    assert secret.startswith("whsec_")
    receiver.secret = secret
    return str(created.json()["id"])


async def conversation(live: Live, personality_id: str) -> str:
    created = await live.api.post("/conversations", json={"personality_id": personality_id, "mode": "voice"})
    return str(created.json()["id"])


async def transcript(live: Live, conversation_id: str) -> list[dict[str, Any]]:
    got = await live.api.get(f"/conversations/{conversation_id}", params={"include_transcript": "true"})
    return list(got.json()["transcript"])


async def test_a_tool_call_round_trip_in_a_streamed_turn(live: Live, model: FakeModel,
                                                         receiver: ToolReceiver) -> None:
    pid = await personality_with_tool(live, receiver)
    cid = await conversation(live, pid)
    response = await live.api.post(f"/conversations/{cid}/messages", json={"content": "Weather?", "stream": True})
    events = sse_events(response.text)
    assert events[-1][0] == "done", response.text
    joined = "".join(data["content"] for name, data in events if name == "delta")
    reply = events[-1][1]["reply"]["content"]
    assert joined == reply and reply.startswith("Let me check. The tool says: ")
    assert json.loads(reply.split("The tool says: ")[1]) == {"temperature": 21, "sky": "clear"}
    # The tool got the call, signed with the secret (the receiver verified it with standardwebhooks).
    assert receiver.refused == []
    [call] = receiver.calls
    assert call == {"id": call["id"], "tool": "get_weather", "arguments": {"city": "Porto"},
                    "conversation_id": cid, "personality_id": pid, "user_id": None}
    assert call["id"].startswith("call_")
    # The model was offered the tool in the OpenAI form, then given the call and its result.
    first, second = model.requests
    assert first["tools"] == [{"type": "function", "function": {
        "name": "get_weather", "description": "The weather in a city now.", "parameters": PARAMETERS}}]
    assert "tool_choice" not in first
    assistant, tool = second["messages"][-2:]
    assert assistant["role"] == "assistant" and assistant["content"] == "Let me check."
    [asked] = assistant["tool_calls"]
    assert asked["function"] == {"name": "get_weather", "arguments": json.dumps({"city": "Porto"})}
    assert tool == {"role": "tool", "tool_call_id": asked["id"], "content": '{"temperature":21,"sky":"clear"}'}
    stored = await transcript(live, cid)
    assert [t["role"] for t in stored] == ["user", "tool", "assistant"]
    assert json.loads(stored[1]["content"]) == {"tool": "get_weather", "arguments": {"city": "Porto"},
                                                "result": {"temperature": 21, "sky": "clear"}}
    assert stored[2]["content"] == reply


async def test_tools_work_in_the_plain_turn_too(live: Live, receiver: ToolReceiver) -> None:
    cid = await conversation(live, await personality_with_tool(live, receiver))
    answered = await live.api.post(f"/conversations/{cid}/messages", json={"content": "Weather?"})
    assert answered.status_code == 200 and '"temperature":21' in answered.json()["reply"]["content"]
    assert len(receiver.calls) == 1


@pytest.mark.parametrize(("reply", "reason"), [
    ((500, b'{"error": "down"}', 0.0), "HTTP 500"),
    ((200, b"sunny, probably", 0.0), "not JSON"),
    ((200, b'{"padding": "' + b"x" * 17_000 + b'"}', 0.0), "over 16 KB"),
    ((200, b'{"late": true}', 1.5), "no answer"),
])
async def test_a_failing_tool_is_reported_to_the_model(live: Live, model: FakeModel, receiver: ToolReceiver,
                                                       monkeypatch: pytest.MonkeyPatch, reply: Any,
                                                       reason: str) -> None:
    monkeypatch.setattr(tool_calls, "SECONDS", 0.5)  # the 10 s limit, shortened so the test stays fast
    receiver.reply = lambda call: reply
    cid = await conversation(live, await personality_with_tool(live, receiver))
    answered = await live.api.post(f"/conversations/{cid}/messages", json={"content": "Weather?"})
    assert answered.status_code == 200  # the conversation goes on
    told = json.loads(last_tool_results(model.requests[-1])[0])
    assert told["error"].startswith("The tool call failed:") and reason in told["error"]
    assert answered.json()["reply"]["content"].startswith("Let me check. The tool says: ")
    stored = await transcript(live, cid)
    assert stored[1]["role"] == "tool" and reason in json.loads(stored[1]["content"])["error"]


async def test_at_most_four_tool_rounds_a_turn(live: Live, model: FakeModel, receiver: ToolReceiver) -> None:
    def insistent(body: dict[str, Any]) -> Answer:
        if body.get("tool_choice") == "none":
            return Say("I checked four times; it is mild.")
        return Call(("get_weather", {"city": "Porto"}))

    model.answer = insistent
    cid = await conversation(live, await personality_with_tool(live, receiver))
    response = await live.api.post(f"/conversations/{cid}/messages", json={"content": "Weather?", "stream": True})
    events = sse_events(response.text)
    assert events[-1][1]["reply"]["content"] == "I checked four times; it is mild."
    assert len(receiver.calls) == 4 and len(model.requests) == 5
    assert [r.get("tool_choice") for r in model.requests] == [None, None, None, None, "none"]
    assert [t["role"] for t in await transcript(live, cid)] == ["user", *["tool"] * 4, "assistant"]


async def test_a_private_tool_url_is_refused_by_the_guard(sqlite_template: Path, tmp_path: Path,
                                                          model: FakeModel, receiver: ToolReceiver,
                                                          ca: Authority) -> None:
    # AVATAR_ALLOW_PRIVATE_URLS off (the default): loopback and private addresses are refused before any
    # connection is made (names are resolved and checked first).
    async with live_app(sqlite_template, tmp_path, dialogue_base_url=model.base_url, dialogue_model="fake",
                        overrides={"http": trusting(ca, allow_private=False)}) as live:
        for url in (receiver.url(), receiver.url("localhost"), "https://10.0.0.7/tools/weather",
                    "https://169.254.169.254/latest/meta-data"):
            model.requests.clear()
            cid = await conversation(live, await personality_with_tool(live, receiver, url))
            answered = await live.api.post(f"/conversations/{cid}/messages", json={"content": "Weather?"})
            assert answered.status_code == 200
            told = json.loads(last_tool_results(model.requests[-1])[0])["error"]
            assert "url_not_allowed" in told, (url, told)
            stored = await transcript(live, cid)
            assert "url_not_allowed" in json.loads(stored[1]["content"])["error"]
    assert receiver.calls == [] and receiver.refused == []  # nothing reached the tool


async def test_tools_on_personalities_over_http(live: Live, receiver: ToolReceiver) -> None:
    tool = {"name": "get_weather", "parameters": PARAMETERS, "url": receiver.url()}
    bad = await live.api.post("/personalities", json={"name": "Bo", "tools": [tool, {**tool, "name": "b",
                                                                                    "url": "http://x.example"}]})
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "tools[1].url"
    bad = await live.api.post("/personalities", json={"name": "Bo", "tools": [tool, tool]})
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "tools[1].name"
    bad = await live.api.post("/personalities", json={"name": "Bo", "tools": [{**tool, "parameters": []}]})
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "tools[0].parameters"
    plain = await live.api.post("/personalities", json={"name": "Bo"})
    assert plain.json()["tools"] == [] and plain.json()["tools_secret"] is None
    pid = plain.json()["id"]
    first = await live.api.patch(f"/personalities/{pid}", json={"tools": [tool]})
    assert first.status_code == 200 and first.json()["tools_secret"].startswith("whsec_")
    assert first.json()["tools"] == [{"name": "get_weather", "description": "", "parameters": PARAMETERS,
                                      "url": receiver.url()}]
    got = await live.api.get(f"/personalities/{pid}")
    assert "tools_secret" not in got.json() and got.json()["tools"] == first.json()["tools"]
    again = await live.api.patch(f"/personalities/{pid}", json={"name": "Bob"})
    assert again.json()["tools_secret"] is None
    listed = await live.api.get("/personalities")
    assert all("tools_secret" not in p for p in listed.json()["data"])


class Words:
    """Speech that records each line the room speaks (a short tone stands for its audio)."""

    name = "words"

    def __init__(self) -> None:
        self.said: list[str] = []

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        self.said.append(text)
        return Audio(samples=np.full(2400, 3000, np.int16), sample_rate=24_000)


class Microphone(MediaStreamTrack):
    """The user's microphone: these 48 kHz samples as stereo 20 ms frames, as fast as asked for, then the end."""

    kind = "audio"

    def __init__(self, samples: np.ndarray) -> None:
        super().__init__()
        self._samples, self._at = samples, 0

    async def recv(self) -> av.AudioFrame:
        if self._at >= self._samples.size:
            raise MediaStreamError
        chunk = np.zeros(FRAME_SAMPLES, np.int16)
        part = self._samples[self._at:self._at + FRAME_SAMPLES]
        chunk[:part.size] = part
        frame = av.AudioFrame.from_ndarray(np.repeat(chunk, 2).reshape(1, -1), format="s16", layout="stereo")
        frame.sample_rate, frame.pts, frame.time_base = OUT_RATE, self._at, Fraction(1, OUT_RATE)
        self._at += FRAME_SAMPLES
        await asyncio.sleep(0)
        return frame


class Heard:
    """Speech-to-text that hears the user's question whatever was said."""

    def transcribe(self, samples: Any, sample_rate: int = 16000) -> str:
        return "What's the weather in Porto?"


async def test_a_tool_call_in_a_room_turn(live: Live, model: FakeModel, receiver: ToolReceiver) -> None:
    """A spoken turn in the room goes through the same use case as a text turn (voice_turn -> start_turn): the
    model's streamed `tool_calls` are run signed, the tool's answer reaches the model, the room speaks the reply
    that holds it, and the transcript holds the `tool` item."""

    def weather_in_words(body: dict[str, Any]) -> Answer:
        results = last_tool_results(body)
        if results:
            got = json.loads(results[0])
            return Say(f"It is {got['temperature']} degrees and {got['sky']} in Porto.")
        return Call(("get_weather", {"city": "Porto"}), text="Let me check.")

    model.answer = weather_in_words
    pid = await personality_with_tool(live, receiver)
    cid = await conversation(live, pid)
    media = await live.container.resolve(Conversations).room_media(live.organization_id, cid)
    media = dataclasses.replace(media, video_enabled=False, vad_enabled=False)
    speech = Words()
    session = RoomSession(media, live.container.resolve(Conversations), speech, Heard(), asyncio.to_thread, None,
                          lambda s: None)
    sent: list[dict[str, Any]] = []
    replied = asyncio.Event()

    def send(event: dict[str, Any]) -> None:
        sent.append(event)
        if event.get("role") == "assistant":
            replied.set()

    session.pipeline.send = send  # type: ignore[method-assign]
    session.pipeline.start()
    try:
        session._on_message('{"type": "talk", "state": "start"}')  # push to talk: half a second of sound
        await session._listen(Microphone(np.full(OUT_RATE // 2, 2000, np.int16)))
        session._on_message('{"type": "talk", "state": "stop"}')
        async with asyncio.timeout(20):
            await replied.wait()  # the reply is written and stored
            await asyncio.gather(*session.pipeline._replying)  # and every sentence of it spoken
    finally:
        await session.close()
    [line] = [e for e in sent if e.get("role") == "assistant"]
    assert line["content"] == "Let me check. It is 21 degrees and clear in Porto." and "interrupted" not in line
    assert " ".join(speech.said) == line["content"]  # spoken, sentence by sentence, with the tool's answer
    assert receiver.refused == []
    [call] = receiver.calls  # verified with standardwebhooks against the personality's tools_secret
    assert call["arguments"] == {"city": "Porto"} and call["conversation_id"] == cid
    assert model.requests[0]["tools"][0]["function"]["name"] == "get_weather"
    stored = await transcript(live, cid)
    assert [t["role"] for t in stored] == ["user", "tool", "assistant"]
    assert stored[0]["content"] == "What's the weather in Porto?"
    assert json.loads(stored[1]["content"]) == {"tool": "get_weather", "arguments": {"city": "Porto"},
                                                "result": {"temperature": 21, "sky": "clear"}}
    assert stored[2]["content"] == line["content"] and not stored[2].get("interrupted")
    assert stored[2]["metrics"]["end_of_speech_to_first_audio_ms"] is not None  # stored as a spoken turn
