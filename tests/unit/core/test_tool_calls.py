"""A personality's tools in a text turn: offered to the engine, called signed when the engine asks, failures told
to the engine, at most four rounds, each call a `tool` transcript item; and the tools' validation and secret."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import msgspec
import pytest

from avatar_service.adapters.in_memory import MemoryStorage
from avatar_service.core.errors import Invalid
from avatar_service.core.model import ConversationCreate, PersonalityCreate, PersonalityPatch
from avatar_service.core.services.conversations import Conversations
from avatar_service.core.services.personalities import Personalities
from avatar_service.core.services.text_turns import NO_TOOL_ANSWER
from avatar_service.core.services.tool_calls import MAX_ANSWER_BYTES, ToolRunner
from avatar_service.core.validation import parse
from avatar_service.core.webhooks.signing import verify
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.dialogue import DialogueRequest, ToolCall, ToolCalls
from avatar_service.ports.speech import SpeechEngines
from avatar_service.ports.tools import ToolAnswer

from .conftest import ORG, FakeRenderer, FakeSpeech

WEATHER = {"name": "get_weather", "description": "The weather in a city now.", "url": "https://tools.example.com/w",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}


class ToolEngine:
    """Each request gets the next answer of `answers` (the last repeats): text pieces and/or a ToolCalls."""

    name = "tool-engine"

    def __init__(self, answers: list[list[str | ToolCalls]]) -> None:
        self.answers = answers
        self.requests: list[DialogueRequest] = []

    async def stream(self, request: DialogueRequest) -> AsyncIterator[str | ToolCalls]:
        self.requests.append(request)
        for item in self.answers[min(len(self.requests), len(self.answers)) - 1]:
            yield item

    async def reply(self, request: DialogueRequest) -> str:
        return "unused"


class FakeCaller:
    def __init__(self, answer: ToolAnswer) -> None:
        self.answer = answer
        self.calls: list[tuple[str, bytes, dict[str, str], float, int]] = []

    async def call(self, url: str, body: bytes, headers: Mapping[str, str], seconds: float,
                   max_bytes: int) -> ToolAnswer:
        self.calls.append((url, body, dict(headers), seconds, max_bytes))
        return self.answer


def weather(city: str = "Porto", ident: str = "c1") -> ToolCalls:
    return ToolCalls((ToolCall(ident, "get_weather", msgspec.json.encode({"city": city}).decode()),))


@pytest.fixture
async def world(tmp_path: Path, clock: Any) -> AsyncIterator[dict[str, Any]]:
    engine = ToolEngine([["Let me check.", weather()], ["It is 21 degrees in Porto."]])
    caller = FakeCaller(ToolAnswer(200, b'{"temperature": 21, "sky": "clear"}'))
    storage = MemoryStorage()
    settings = load_settings({}, embedder="lexical", data_dir=str(tmp_path), secret_key="unit-test-secret")
    container = bootstrap.test(settings, storage, clock=clock, renderer=FakeRenderer(), dialogue=engine,
                               speech=SpeechEngines({p: FakeSpeech() for p in ("elevenlabs", "cartesia", "openai",
                                                                                 "azure")}))
    conversations: Conversations = container.resolve(Conversations)
    conversations.tools = ToolRunner(caller, conversations.deps.ids, clock)
    personalities: Personalities = container.resolve(Personalities)
    ava = await personalities.create(ORG, parse(PersonalityCreate, {"name": "Ava", "tools": [WEATHER]}))
    conversation = await conversations.create(ORG, ConversationCreate(personality_id=ava.id, mode="voice"))
    yield {"engine": engine, "caller": caller, "conversations": conversations, "personalities": personalities,
           "ava": ava, "cid": conversation.id}
    await storage.close()


async def test_a_tool_call_round_trip(world: dict[str, Any]) -> None:
    engine, caller, conversations, ava = world["engine"], world["caller"], world["conversations"], world["ava"]
    turn = await conversations.start_turn(ORG, world["cid"], "What's the weather?")
    pieces = [piece async for piece in turn]
    assert turn.result is not None
    assert "".join(pieces) == turn.result.reply.content == "Let me check. It is 21 degrees in Porto."
    first, second = engine.requests
    assert [t.name for t in first.tools] == ["get_weather"] and first.tools[0].parameters == WEATHER["parameters"]
    assert first.tool_rounds == () and not first.tools_final
    [(url, body, headers, seconds, max_bytes)] = caller.calls
    assert url == WEATHER["url"] and seconds == 10.0 and max_bytes == MAX_ANSWER_BYTES == 16384
    sent = msgspec.json.decode(body)
    assert sent == {"id": sent["id"], "tool": "get_weather", "arguments": {"city": "Porto"},
                    "conversation_id": world["cid"], "personality_id": ava.id, "user_id": None}
    assert sent["id"].startswith("call_") and headers["webhook-id"] == sent["id"]
    verify(ava.tools_secret, headers, body, now=float(headers["webhook-timestamp"]))  # signed with the secret
    [done] = second.tool_rounds
    assert done.text == "Let me check." and done.calls == weather().calls
    assert msgspec.json.decode(done.results[0]) == {"temperature": 21, "sky": "clear"}
    transcript = (await conversations.get(ORG, world["cid"], include_transcript=True)).transcript or []
    assert [t.role for t in transcript] == ["user", "tool", "assistant"]
    assert msgspec.json.decode(transcript[1].content) == {
        "tool": "get_weather", "arguments": {"city": "Porto"}, "result": {"temperature": 21, "sky": "clear"}}


@pytest.mark.parametrize(("answer", "reason"), [
    (ToolAnswer(None, error="url_not_allowed: '10.0.0.1' is a private address"), "url_not_allowed"),
    (ToolAnswer(None, error="fetch_failed: no answer within 10 s"), "no answer within 10 s"),
    (ToolAnswer(500, b'{"oops": true}'), "HTTP 500"),
    (ToolAnswer(200, b"<html>not json</html>"), "not JSON"),
    (ToolAnswer(200, b"[" * 10, too_large=True), "over 16 KB"),
])
async def test_a_failing_tool_is_told_to_the_model_and_the_turn_goes_on(world: dict[str, Any], answer: ToolAnswer,
                                                                       reason: str) -> None:
    world["caller"].answer = answer
    result = await world["conversations"].say(ORG, world["cid"], "What's the weather?")
    assert result.reply.content == "Let me check. It is 21 degrees in Porto." and not result.reply.interrupted
    told = msgspec.json.decode(world["engine"].requests[1].tool_rounds[0].results[0])
    assert told["error"].startswith("The tool call failed:") and reason in told["error"]
    transcript = (await world["conversations"].get(ORG, world["cid"], include_transcript=True)).transcript or []
    item = msgspec.json.decode(transcript[1].content)
    assert transcript[1].role == "tool" and reason in item["error"] and "result" not in item


async def test_calls_the_tool_cannot_take_are_not_made(world: dict[str, Any]) -> None:
    world["engine"].answers = [[ToolCalls((ToolCall("a", "launch_rockets", "{}"), ToolCall("b", "get_weather", "{ci"),
                                           ToolCall("c", "get_weather", "[1, 2]")))], ["Sorry."]]
    await world["conversations"].say(ORG, world["cid"], "Go")
    assert world["caller"].calls == []
    results = [msgspec.json.decode(r)["error"] for r in world["engine"].requests[1].tool_rounds[0].results]
    assert "no tool named 'launch_rockets'" in results[0]
    assert "not valid JSON" in results[1] and "must be a JSON object" in results[2]


async def test_at_most_four_rounds_then_the_model_must_answer(world: dict[str, Any]) -> None:
    world["engine"].answers = [[weather()]]  # a model that would call forever
    turn = await world["conversations"].start_turn(ORG, world["cid"], "Weather?")
    pieces = [piece async for piece in turn]
    result = turn.result
    assert result is not None
    requests = world["engine"].requests
    assert len(world["caller"].calls) == 4 and len(requests) == 5
    assert [len(r.tool_rounds) for r in requests] == [0, 1, 2, 3, 4]
    assert [r.tools_final for r in requests] == [False, False, False, False, True]
    # It said nothing but calls: the user is told so in a sentence, streamed like any piece, stored whole.
    assert pieces == [NO_TOOL_ANSWER] == [result.reply.content] and not result.reply.interrupted
    assert result.reply.content == "Sorry, my tools did not give me an answer this time."
    transcript = (await world["conversations"].get(ORG, world["cid"], include_transcript=True)).transcript or []
    assert [t.role for t in transcript] == ["user", "tool", "tool", "tool", "tool", "assistant"]
    assert transcript[-1].content == NO_TOOL_ANSWER


async def test_a_last_round_with_no_words_ends_with_the_fallback(world: dict[str, Any]) -> None:
    engine = world["engine"]
    engine.answers = [["Let me check.", weather()], [""]]  # the answer after the call is empty
    turn = await world["conversations"].start_turn(ORG, world["cid"], "Weather?")
    pieces = [piece async for piece in turn]
    assert turn.result is not None
    assert pieces == ["Let me check.", " ", NO_TOOL_ANSWER]
    assert turn.result.reply.content == f"Let me check. {NO_TOOL_ANSWER}"
    engine.requests.clear()
    engine.answers = [[""]]  # no tool called: an empty answer stays the engine's own (nothing to own up to)
    assert (await world["conversations"].say(ORG, world["cid"], "Hm?")).reply.content == ""


async def test_a_turn_cut_during_a_round_keeps_the_calls_made(world: dict[str, Any]) -> None:
    world["engine"].answers = [["Let me check.", weather()], ["It is", " 21 degrees."]]
    turn = await world["conversations"].start_turn(ORG, world["cid"], "Weather?")
    seen = []
    async for piece in turn:
        seen.append(piece)
        if piece == "It is":
            break
    await turn.aclose()
    transcript = (await world["conversations"].get(ORG, world["cid"], include_transcript=True)).transcript or []
    assert [(t.role, t.interrupted) for t in transcript] == [("user", False), ("tool", False), ("assistant", True)]
    assert transcript[2].content == "Let me check. It is"


async def test_a_personality_without_tools_offers_none(world: dict[str, Any]) -> None:
    plain = await world["personalities"].create(ORG, PersonalityCreate(name="Bo"))
    cid = (await world["conversations"].create(ORG, ConversationCreate(personality_id=plain.id, mode="voice"))).id
    world["engine"].answers = [["Hello."]]
    await world["conversations"].say(ORG, cid, "Hi")
    assert world["engine"].requests[-1].tools == ()


async def test_the_secret_is_shown_once_by_the_request_that_first_gives_tools(world: dict[str, Any]) -> None:
    personalities: Personalities = world["personalities"]
    ava = world["ava"]
    assert ava.tools_secret and ava.tools_secret.startswith("whsec_") and ava.tools[0].name == "get_weather"
    assert not hasattr(await personalities.get(ORG, ava.id), "tools_secret")
    bo = await personalities.create(ORG, PersonalityCreate(name="Bo"))
    assert bo.tools_secret is None
    given = await personalities.update(ORG, bo.id, parse(PersonalityPatch, {"tools": [WEATHER]}))
    assert given.tools_secret and given.tools_secret.startswith("whsec_")
    again = await personalities.update(ORG, bo.id, parse(PersonalityPatch, {"tools": [WEATHER, {
        **WEATHER, "name": "get_time"}]}))
    assert again.tools_secret is None and [t.name for t in again.tools] == ["get_weather", "get_time"]
    cleared = await personalities.update(ORG, bo.id, parse(PersonalityPatch, {"tools": []}))
    back = await personalities.update(ORG, bo.id, parse(PersonalityPatch, {"tools": [WEATHER]}))
    assert cleared.tools == [] and back.tools_secret is None  # the secret stays the same, so it is not shown


@pytest.mark.parametrize(("tools", "param"), [
    ([{**WEATHER, "name": "get weather"}], "tools[0].name"),
    ([{**WEATHER, "name": "x" * 65}], "tools[0].name"),
    ([WEATHER, {**WEATHER, "name": "b", "url": "http://tools.example.com/w"}], "tools[1].url"),
    ([WEATHER, {**WEATHER, "name": "b"}, {**WEATHER, "name": "c", "url": "https://"}], "tools[2].url"),
    ([WEATHER, {**WEATHER, "name": "b", "url": "https:///nohost"}], "tools[1].url"),
    ([WEATHER, {**WEATHER}], "tools[1].name"),  # the same name twice
    ([{**WEATHER, "parameters": {"type": "string"}}], "tools[0].parameters"),
    ([{**WEATHER, "parameters": "city"}], "tools[0].parameters"),
    ([{**WEATHER, "parameters": {"type": "object", "properties": {"city": "string"}}}],
     "tools[0].parameters.properties"),
    ([{**WEATHER, "parameters": {"type": "object", "required": "city"}}], "tools[0].parameters.required"),
    ([{**WEATHER, "description": "d" * 1025}], "tools[0].description"),
    ([{k: v for k, v in WEATHER.items() if k != "url"}], "tools[0].url"),
    ([{**WEATHER, "secret": "mine"}], "tools[0].secret"),
    ([{**WEATHER, "name": f"t{i}"} for i in range(17)], "tools"),
])
async def test_tools_are_validated_in_the_core(world: dict[str, Any], tools: list[Any], param: str) -> None:
    personalities: Personalities = world["personalities"]
    with pytest.raises(Invalid) as refused:
        await personalities.create(ORG, parse(PersonalityCreate, {"name": "Bo", "tools": tools}))
    assert refused.value.param == param
    with pytest.raises(Invalid) as refused:
        await personalities.update(ORG, world["ava"].id, parse(PersonalityPatch, {"tools": tools}))
    assert refused.value.param == param
    assert [t.name for t in (await personalities.get(ORG, world["ava"].id)).tools] == ["get_weather"]
