"""How a conversation ends, and why: Leave, the timers, a failure; the reason stored, shown and sent with
conversation.ended. A recording's signed URL once the room has written it."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from avatar_service.core.errors import Conflict, Unauthenticated
from avatar_service.core.media_urls import MediaSigner
from avatar_service.core.model import ConversationConfig, ConversationCreate
from avatar_service.core.services.rooms import Rooms

from .conftest import ORG, Core


async def _joined(core: Core) -> tuple[str, str]:
    personality = await core.personality()
    conversation = await core.conversations.create(ORG, ConversationCreate(personality_id=personality))
    rooms: Rooms = core.container.resolve(Rooms)
    assert conversation.room_token is not None
    await rooms.join(conversation.id, conversation.room_token)
    return conversation.id, conversation.room_token


async def test_leave_ends_the_conversation_with_its_reason(core: Core) -> None:
    ident, token = await _joined(core)
    core.clock.advance(65)
    rooms: Rooms = core.container.resolve(Rooms)
    ended = await rooms.leave(ident, token)
    assert (ended.status, ended.end_reason, ended.duration) == ("ended", "left", 65)
    [event] = core.events("conversation.ended")
    assert event["data"]["end_reason"] == "left" and event["data"]["duration"] == 65
    assert (await rooms.leave(ident, token)).ended_at == ended.ended_at  # leaving again changes nothing
    assert len(core.events("conversation.ended")) == 1
    state = await rooms.state(ident, token)
    assert state.status == "ended" and state.room_token is None
    with pytest.raises(Conflict):
        await rooms.say(ident, token, "Still there?")
    with pytest.raises(Unauthenticated):
        await rooms.leave(ident, "not-the-token")


@pytest.mark.parametrize(("wait", "reason"), [(601, "idle"), (3601, "max_duration")])
async def test_the_timers_say_why(core: Core, wait: int, reason: str) -> None:
    ident, _ = await _joined(core)
    if reason == "max_duration":  # keep it busy, so only the time limit can end it
        for _ in range(7):
            core.clock.advance(500)
            await core.conversations.say(ORG, ident, "Hello?")
        core.clock.advance(wait - 3500)
    else:
        core.clock.advance(wait)
    await core.conversations.on_timer({"organization_id": ORG, "id": ident})
    conversation = await core.conversations.get(ORG, ident)
    assert (conversation.status, conversation.end_reason) == ("ended", reason)


async def test_failures_and_hang_ups_have_reasons(core: Core) -> None:
    ident, _ = await _joined(core)
    assert (await core.conversations.end(ORG, ident, "failed")).end_reason == "media_failed"
    other, _ = await _joined(core)
    assert (await core.conversations.end(ORG, other)).end_reason == "hung_up"
    personality = await core.personality()
    late = await core.conversations.create(ORG, ConversationCreate(personality_id=personality))
    core.clock.advance(301)
    await core.conversations.on_timer({"organization_id": ORG, "id": late.id})
    assert (await core.conversations.get(ORG, late.id)).end_reason == "join_timeout"


async def test_a_recording_shows_as_a_signed_url_once_written(core: Core) -> None:
    personality = await core.personality()
    created = await core.conversations.create(
        ORG, ConversationCreate(personality_id=personality, config=ConversationConfig(record=True)))
    assert created.recording_url is None
    assert (await core.conversations.room_media(ORG, created.id)).record
    await core.conversations.recorded(ORG, created.id, f"recordings/{created.id}.mp4")
    url = (await core.conversations.get(ORG, created.id)).recording_url
    assert url is not None
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    signer: MediaSigner = core.container.resolve(MediaSigner)
    key = parts.path.removeprefix("/media/")
    assert key == f"recordings/{created.id}.mp4"
    assert signer.valid(key, int(query["expires"]), query["signature"], core.clock.now())
