"""The streamed text turn: the user's message stored first, the reply's pieces in order, the reply stored once,
and a turn cut short (left, cancelled, failed) stored as what was produced, marked interrupted."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from avatar_service.adapters.in_memory import MemoryStorage
from avatar_service.core.errors import Conflict, Unavailable
from avatar_service.core.model import ConversationCreate, PersonalityCreate
from avatar_service.core.services.base import Deps
from avatar_service.core.services.conversations import Conversations
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.dialogue import DialogueFailed, DialogueRequest
from avatar_service.ports.speech import SpeechEngines

from .conftest import ORG, FakeRenderer, FakeSpeech


class ScriptedEngine:
    """Yields `pieces`, then fails if `fail` is set; `gate` (when given) holds each piece until released."""

    name = "scripted"

    def __init__(self, pieces: list[str], fail: bool = False) -> None:
        self.pieces, self.fail = pieces, fail
        self.gate: asyncio.Queue[None] | None = None
        self.requests: list[DialogueRequest] = []
        self.closed = 0  # streams closed before their end: generation stopped
        self.finished = 0

    async def stream(self, request: DialogueRequest) -> AsyncIterator[str]:
        self.requests.append(request)
        try:
            for piece in self.pieces:
                if self.gate is not None:
                    await self.gate.get()
                yield piece
            if self.fail:
                raise DialogueFailed("the model server went away")
            self.finished += 1
        except (GeneratorExit, asyncio.CancelledError):
            self.closed += 1
            raise

    async def reply(self, request: DialogueRequest) -> str:
        return "".join(self.pieces)


@pytest.fixture
async def setup(tmp_path: Path, clock: Any) -> AsyncIterator[tuple[Conversations, ScriptedEngine, str]]:
    engine = ScriptedEngine(["Hello", " there.", " How can", " I help?"])
    storage = MemoryStorage()
    settings = load_settings({}, embedder="lexical", data_dir=str(tmp_path), secret_key="unit-test-secret")
    container = bootstrap.test(settings, storage, clock=clock, renderer=FakeRenderer(), dialogue=engine,
                               speech=SpeechEngines({p: FakeSpeech() for p in ("elevenlabs", "cartesia", "openai",
                                                                                 "azure")}))
    conversations: Conversations = container.resolve(Conversations)
    from avatar_service.core.services.personalities import Personalities

    personality = await container.resolve(Personalities).create(ORG, PersonalityCreate(name="Ada"))
    conversation = await conversations.create(ORG, ConversationCreate(personality_id=personality.id, mode="voice"))
    yield conversations, engine, conversation.id
    await storage.close()


async def transcript(conversations: Conversations, conversation_id: str) -> list[tuple[str, str, bool]]:
    got = await conversations.get(ORG, conversation_id, include_transcript=True)
    return [(t.role, t.content, t.interrupted) for t in got.transcript or []]


async def test_pieces_arrive_in_order_and_join_to_the_stored_reply(setup: Any) -> None:
    conversations, engine, cid = setup
    turn = await conversations.start_turn(ORG, cid, "Hi")
    assert await transcript(conversations, cid) == [("user", "Hi", False)]  # stored before the reply starts
    pieces = [piece async for piece in turn]
    assert pieces == engine.pieces
    assert turn.result is not None and turn.result.reply.content == "Hello there. How can I help?"
    assert not turn.result.reply.interrupted and turn.result.conversation.status == "active"
    assert await transcript(conversations, cid) == [("user", "Hi", False),
                                                    ("assistant", "Hello there. How can I help?", False)]
    await turn.aclose()  # after the end: nothing more is stored
    assert len(await transcript(conversations, cid)) == 2


async def test_say_is_the_stream_collected(setup: Any) -> None:
    conversations, engine, cid = setup
    result = await conversations.say(ORG, cid, "Hi")
    assert result.reply.content == "Hello there. How can I help?" and engine.finished == 1
    assert result.message.content == "Hi" and not result.reply.interrupted


async def test_a_consumer_that_stops_early_stores_what_was_said_marked(setup: Any) -> None:
    conversations, engine, cid = setup
    turn = await conversations.start_turn(ORG, cid, "Hi")
    seen = []
    async for piece in turn:
        seen.append(piece)
        if len(seen) == 2:
            break
    await turn.aclose()
    assert engine.closed == 1 and engine.finished == 0  # the generation stopped too
    assert await transcript(conversations, cid) == [("user", "Hi", False), ("assistant", "Hello there.", True)]
    assert turn.result is not None and turn.result.reply.interrupted
    await turn.aclose()  # once only
    assert len(await transcript(conversations, cid)) == 2


async def test_a_cancelled_consumer_stores_what_was_said_marked(setup: Any) -> None:
    conversations, engine, cid = setup
    engine.gate = asyncio.Queue()
    turn = await conversations.start_turn(ORG, cid, "Hi")
    seen: list[str] = []
    first = asyncio.Event()

    async def consume() -> None:
        async for piece in turn:
            seen.append(piece)
            first.set()

    task = asyncio.create_task(consume())
    engine.gate.put_nowait(None)
    await first.wait()
    task.cancel()  # while the engine is still writing: the consumer's task goes away, as a dropped client's does
    with pytest.raises(asyncio.CancelledError):
        await task
    await turn.aclose()  # waits for the write the cancellation started
    assert engine.closed == 1
    assert await transcript(conversations, cid) == [("user", "Hi", False), ("assistant", "Hello", True)]


async def test_a_turn_closed_before_it_started_stores_an_empty_interrupted_reply(setup: Any) -> None:
    conversations, _, cid = setup
    turn = await conversations.start_turn(ORG, cid, "Hi")
    await turn.aclose()
    assert await transcript(conversations, cid) == [("user", "Hi", False), ("assistant", "", True)]


async def test_an_engine_failing_midway_is_unavailable_and_the_part_is_stored(setup: Any) -> None:
    conversations, engine, cid = setup
    engine.fail = True
    turn = await conversations.start_turn(ORG, cid, "Hi")
    seen = []
    with pytest.raises(Unavailable) as failed:
        async for piece in turn:
            seen.append(piece)
    assert seen == engine.pieces and failed.value.code == "engine_unavailable"
    assert await transcript(conversations, cid) == [
        ("user", "Hi", False), ("assistant", "Hello there. How can I help?", True)]
    with pytest.raises(Unavailable):  # the plain turn says the same
        await conversations.say(ORG, cid, "Again")


async def test_errors_come_before_the_first_piece(setup: Any) -> None:
    conversations, engine, cid = setup
    await conversations.end(ORG, cid)
    with pytest.raises(Conflict):
        await conversations.start_turn(ORG, cid, "Hi")
    assert engine.requests == [] and await transcript(conversations, cid) == []


async def test_the_engine_gets_the_history_with_the_new_turn_last(setup: Any) -> None:
    conversations, engine, cid = setup
    await conversations.say(ORG, cid, "Hi")
    assert [(t.role, t.content) for t in engine.requests[-1].history] == [("user", "Hi")]
    await conversations.say(ORG, cid, "And now?")
    assert [t.role for t in engine.requests[-1].history] == ["user", "assistant", "user"]


class WatchedGate(asyncio.Queue[None]):
    """The engine's gate, telling when the engine first waits at it."""

    def __init__(self) -> None:
        super().__init__()
        self.waited = asyncio.Event()

    async def get(self) -> None:
        self.waited.set()
        return await super().get()


def count_writes(conversations: Conversations) -> list[bool]:
    """Records, for each unit of work the turn opens from now on, whether it may write."""
    storage = conversations.deps.storage
    opened: list[bool] = []

    def unit(organization_id: str | None, *, read_only: bool = False) -> Any:
        opened.append(not read_only)
        return storage(organization_id, read_only=read_only)

    conversations.deps = Deps(unit, conversations.deps.clock, conversations.deps.ids)  # type: ignore[arg-type]
    return opened


async def test_a_collected_turn_stores_the_message_and_the_reply_in_one_write(setup: Any) -> None:
    conversations, _, cid = setup
    opened = count_writes(conversations)
    result = await conversations.say(ORG, cid, "Hi")
    assert opened.count(True) == 1  # the streamed turn takes two: the message at once, then the reply
    assert await transcript(conversations, cid) == [("user", "Hi", False),
                                                    ("assistant", "Hello there. How can I help?", False)]
    assert result.conversation.status == "active" and result.message.content == "Hi"


async def test_a_collected_turn_whose_engine_fails_stores_the_message_and_the_part(setup: Any) -> None:
    conversations, engine, cid = setup
    engine.fail = True
    with pytest.raises(Unavailable):
        await conversations.say(ORG, cid, "Hi")
    assert await transcript(conversations, cid) == [
        ("user", "Hi", False), ("assistant", "Hello there. How can I help?", True)]


async def test_a_collected_turn_whose_conversation_ended_meanwhile_is_refused_and_stores_nothing(setup: Any) -> None:
    conversations, engine, cid = setup
    gate = engine.gate = WatchedGate()
    said = asyncio.create_task(conversations.say(ORG, cid, "Hi"))
    await gate.waited.wait()  # the reply is being written
    await conversations.end(ORG, cid)
    for _ in engine.pieces:
        gate.put_nowait(None)
    with pytest.raises(Conflict):
        await said
    assert await transcript(conversations, cid) == []
