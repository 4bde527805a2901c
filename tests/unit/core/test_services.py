"""Use cases on in-memory storage: returned objects and the stored rows, events and jobs behind them."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import timedelta
from typing import Any

import msgspec
import pytest

from avatar_service.core.errors import Conflict, Invalid, NotFound, Unauthenticated
from avatar_service.core.model import (
    ApiKeyCreate,
    ConversationCreate,
    GameSessionCreate,
    MemoryBulkCreate,
    MemoryCreate,
    MemoryPatch,
    MemorySearch,
    MoveCreate,
    Personality,
    PersonalityCreate,
    PersonalityPatch,
    UserCreate,
    UserPatch,
    VideoCreate,
    WebhookCreate,
    WebhookPatch,
    public,
)
from avatar_service.core.pagination import page_request
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.core.services.base import Deps
from avatar_service.core.validation import parse

from .conftest import ORG, OTHER_ORG, Core

# --- personalities ----------------------------------------------------------------------------------------


async def test_personality_create_get_list(core: Core) -> None:
    created = await core.personalities.create(
        ORG,
        parse(
            PersonalityCreate,
            {
                "name": "Ada",
                "traits": {"warmth": 0.9},
                "appearance": {"avatar_id": "mia", "style": "cartoon"},
                "metadata": {"team": "blue"},
            },
        ),
    )
    assert created.id.startswith("personality_") and created.object == "personality"
    assert created.traits.warmth == 0.9 and created.traits.humor == 0.5
    assert created.created_at == created.updated_at == core.clock.now()
    assert created.tools == [] and created.tools_secret is None  # no tools: no secret to show
    assert await core.personalities.get(ORG, created.id) == public(created, Personality)
    [row] = core.storage.rows("personalities")
    assert row["organization_id"] == ORG and row["appearance"]["avatar_id"] == "mia"
    assert [p.id for p in (await core.personalities.list(ORG, page_request(None, None))).data] == [created.id]


async def test_personality_patch_merges_nested_objects(core: Core) -> None:
    pid = await core.personality(
        traits=parse(PersonalityCreate, {"name": "x", "traits": {"warmth": 0.2, "humor": 0.8}}).traits
    )
    core.clock.advance(60)
    patch = parse(
        PersonalityPatch,
        {"traits": {"warmth": 0.9}, "voice": {"settings": {"speed": 1.5}}, "name": "Ada Lovelace"},
    )
    updated = await core.personalities.update(ORG, pid, patch)
    assert updated.name == "Ada Lovelace"
    assert (updated.traits.warmth, updated.traits.humor, updated.traits.empathy) == (0.9, 0.8, 0.5)
    assert updated.voice.settings.speed == 1.5 and updated.voice.settings.stability == 0.5
    assert updated.updated_at == core.clock.now() != updated.created_at
    [row] = core.storage.rows("personalities")
    assert row["traits"]["warmth"] == 0.9 and row["traits"]["humor"] == 0.8 and row["name"] == "Ada Lovelace"


async def test_personality_patch_rejects_bad_values_and_changes_nothing(core: Core) -> None:
    pid = await core.personality()
    before = core.storage.rows("personalities")
    with pytest.raises(Invalid) as error:
        await core.personalities.update(ORG, pid, parse(PersonalityPatch, {"traits": {"warmth": 2}}))
    assert error.value.param == "traits.warmth"
    with pytest.raises(Invalid) as error:
        await core.personalities.update(
            ORG, pid, parse(PersonalityPatch, {"appearance": {"avatar_id": "zed"}})
        )
    assert error.value.param == "appearance.avatar_id"
    assert core.storage.rows("personalities") == before


async def test_unknown_avatar_is_invalid_on_create(core: Core) -> None:
    with pytest.raises(Invalid) as error:
        await core.personalities.create(
            ORG, parse(PersonalityCreate, {"name": "A", "appearance": {"avatar_id": "zed"}})
        )
    assert error.value.param == "appearance.avatar_id"
    assert core.storage.rows("personalities") == []


async def test_personality_delete_takes_its_memories(core: Core) -> None:
    pid, keep = await core.personality(), await core.personality()
    uid = await core.user()
    await core.memories.create(ORG, uid, MemoryCreate(personality_id=pid, content="Likes tea"))
    await core.memories.create(ORG, uid, MemoryCreate(personality_id=keep, content="Likes coffee"))
    deleted = await core.personalities.delete(ORG, pid)
    assert (deleted.id, deleted.object, deleted.deleted) == (pid, "personality", True)
    assert [p["id"] for p in core.storage.rows("personalities")] == [keep]
    assert [m["content"] for m in core.storage.rows("memories")] == ["Likes coffee"]
    with pytest.raises(NotFound):
        await core.personalities.get(ORG, pid)


# --- users ------------------------------------------------------------------------------------------------


async def test_external_id_is_unique_per_organization(core: Core) -> None:
    first = await core.users.create(ORG, UserCreate(external_id="cust-1"))
    with pytest.raises(Conflict) as error:
        await core.users.create(ORG, UserCreate(external_id="cust-1"))
    assert (error.value.param, error.value.code) == ("external_id", "resource_exists")
    other = await core.users.create(OTHER_ORG, UserCreate(external_id="cust-1"))  # another tenant may
    nameless = [await core.users.create(ORG, UserCreate()) for _ in range(2)]  # nulls never clash
    second = await core.users.create(ORG, UserCreate(external_id="cust-2"))
    with pytest.raises(Conflict) as error:
        await core.users.update(ORG, second.id, UserPatch(external_id="cust-1"))
    assert error.value.param == "external_id"
    same = await core.users.update(ORG, first.id, UserPatch(external_id="cust-1"))  # its own value is fine
    assert same.external_id == "cust-1"
    rows = core.storage.rows("users")
    assert len(rows) == 5 and {r["id"] for r in rows} == {
        first.id,
        other.id,
        second.id,
        *(u.id for u in nameless),
    }
    assert [r["external_id"] for r in rows if r["id"] == second.id] == ["cust-2"]


async def test_user_update_and_delete_takes_memories(core: Core) -> None:
    pid = await core.personality()
    uid = await core.user(external_id="a", metadata={"plan": "pro"})
    core.clock.advance(5)
    updated = await core.users.update(ORG, uid, parse(UserPatch, {"settings": {"memory_enabled": False}}))
    assert updated.settings.memory_enabled is False and updated.metadata == {"plan": "pro"}
    assert updated.updated_at > updated.created_at
    await core.memories.create(ORG, uid, MemoryCreate(personality_id=pid, content="Has a dog"))
    await core.users.delete(ORG, uid)
    assert core.storage.rows("users") == [] and core.storage.rows("memories") == []


# --- memories ---------------------------------------------------------------------------------------------


async def test_memory_create_emits_one_event(core: Core) -> None:
    pid, uid = await core.personality(), await core.user()
    memory = await core.memories.create(
        ORG, uid, MemoryCreate(personality_id=pid, content="Lives in Lyon", category="location")
    )
    assert memory.id.startswith("mem_") and memory.source.type == "manual" and memory.confidence == 1.0
    [event] = core.events("memory.created")
    assert event["organization_id"] == ORG and event["data"]["id"] == memory.id
    assert event["data"]["content"] == "Lives in Lyon" and event["dispatched"] is False
    [row] = core.storage.rows("memories")
    assert row["embedder"] == "lexical-hash"  # the embedder that made the vector, for re-embedding later
    assert len(row["embedding"]) > 0


async def test_memory_bulk_emits_one_event_each(core: Core) -> None:
    pid, uid = await core.personality(), await core.user()
    result = await core.memories.bulk(
        ORG,
        uid,
        parse(
            MemoryBulkCreate,
            {
                "personality_id": pid,
                "memories": [
                    {"content": "Plays chess", "category": "preference"},
                    {"content": "Sister is Ana", "category": "relationship"},
                    {"content": "Gym on Mondays", "category": "schedule"},
                ],
            },
        ),
    )
    assert result.created_count == 3 == len(result.data)
    assert {m.source.type for m in result.data} == {"bulk"}
    assert sorted(e["data"]["id"] for e in core.events("memory.created")) == sorted(m.id for m in result.data)
    assert len(core.storage.rows("memories")) == 3


async def test_memory_for_unknown_or_foreign_owner(core: Core) -> None:
    pid, uid = await core.personality(), await core.user()
    with pytest.raises(NotFound) as error:
        await core.memories.create(
            ORG, uid, MemoryCreate(personality_id="personality_" + "x" * 24, content="x")
        )
    assert error.value.param == "personality_id"
    with pytest.raises(NotFound):
        await core.memories.create(ORG, "user_" + "x" * 24, MemoryCreate(personality_id=pid, content="x"))
    assert core.storage.rows("memories") == [] and core.events() == []  # the failed transactions left nothing


async def test_memory_update_re_embeds(core: Core) -> None:
    pid, uid = await core.personality(), await core.user()
    memory = await core.memories.create(ORG, uid, MemoryCreate(personality_id=pid, content="Likes tea"))
    [before] = core.storage.rows("memories")
    core.clock.advance(3)
    updated = await core.memories.update(ORG, uid, memory.id, MemoryPatch(content="Likes green tea a lot"))
    assert updated.content == "Likes green tea a lot" and updated.category == memory.category
    [after] = core.storage.rows("memories")
    assert after["embedding"] != before["embedding"] and after["updated_at"] == core.clock.now()
    recategorised = await core.memories.update(ORG, uid, memory.id, MemoryPatch(category="preference"))
    assert recategorised.category == "preference" and recategorised.content == "Likes green tea a lot"
    other = await core.user()
    with pytest.raises(NotFound):  # a memory is reached only through its own user
        await core.memories.update(ORG, other, memory.id, MemoryPatch(category="custom"))


async def test_memory_search_ranks_filters_and_scopes(core: Core) -> None:
    ada, bob, uid = await core.personality(), await core.personality(), await core.user()
    await core.memories.bulk(
        ORG,
        uid,
        parse(
            MemoryBulkCreate,
            {
                "personality_id": ada,
                "memories": [
                    {"content": "The user's dog is called Rex"},
                    {"content": "The user works as a nurse"},
                    {"content": "The user likes jazz music"},
                ],
            },
        ),
    )
    await core.memories.create(
        ORG, uid, MemoryCreate(personality_id=bob, content="The user's dog barks at night")
    )
    hits = (
        await core.memories.search(ORG, uid, MemorySearch(query="dog called Rex", personality_id=ada))
    ).data
    assert hits and hits[0].content == "The user's dog is called Rex"
    assert all(0.0 <= h.relevance <= 1.0 for h in hits)
    assert [h.relevance for h in hits] == sorted((h.relevance for h in hits), reverse=True)
    assert {h.personality_id for h in hits} == {ada}
    everyone = (await core.memories.search(ORG, uid, MemorySearch(query="dog"))).data
    assert "The user's dog barks at night" in {h.content for h in everyone}
    cut = hits[0].relevance
    strict = (
        await core.memories.search(
            ORG, uid, MemorySearch(query="dog called Rex", personality_id=ada, min_relevance=cut)
        )
    ).data
    assert strict and all(h.relevance >= cut for h in strict) and len(strict) <= len(hits)
    one = (await core.memories.search(ORG, uid, MemorySearch(query="dog", limit=1))).data
    assert len(one) == 1


async def test_memory_delete_leaves_search_and_store(core: Core) -> None:
    pid, uid = await core.personality(), await core.user()
    memory = await core.memories.create(
        ORG, uid, MemoryCreate(personality_id=pid, content="Allergic to nuts")
    )
    assert (await core.memories.search(ORG, uid, MemorySearch(query="nuts allergy"))).data
    deleted = await core.memories.delete(ORG, uid, memory.id)
    assert (deleted.id, deleted.object) == (memory.id, "memory")
    assert core.storage.rows("memories") == []
    assert (await core.memories.search(ORG, uid, MemorySearch(query="nuts allergy"))).data == []
    with pytest.raises(NotFound):
        await core.memories.get(ORG, uid, memory.id)


# --- organization isolation -------------------------------------------------------------------------------


async def test_another_organizations_ids_are_not_found(core: Core) -> None:
    pid, uid = await core.personality(), await core.user()
    memory = await core.memories.create(ORG, uid, MemoryCreate(personality_id=pid, content="Secret"))
    conversation = await core.conversations.create(ORG, ConversationCreate(personality_id=pid))
    hook = await core.webhooks.create(
        ORG, WebhookCreate(url="https://hooks.example.com/a", events=["memory.created"])
    )
    for call in (
        core.personalities.get(OTHER_ORG, pid),
        core.personalities.update(OTHER_ORG, pid, PersonalityPatch(name="Mine now")),
        core.personalities.delete(OTHER_ORG, pid),
        core.users.get(OTHER_ORG, uid),
        core.users.delete(OTHER_ORG, uid),
        core.memories.get(OTHER_ORG, uid, memory.id),
        core.conversations.get(OTHER_ORG, conversation.id),
        core.conversations.end(OTHER_ORG, conversation.id),
        core.webhooks.get(OTHER_ORG, hook.id),
    ):
        with pytest.raises(NotFound) as error:
            await call
        assert error.value.code == "resource_missing"
    with pytest.raises(NotFound) as error:  # ids in the body are checked against the caller's organization
        await core.conversations.create(OTHER_ORG, ConversationCreate(personality_id=pid))
    assert error.value.param == "personality_id"
    assert (await core.personalities.list(OTHER_ORG, page_request(None, None))).data == []
    assert (await core.webhooks.list(OTHER_ORG)).data == []
    assert (await core.personalities.get(ORG, pid)).name == "Ada"  # untouched
    assert len(core.storage.rows("users")) == 1


async def test_malformed_ids_are_not_found(core: Core) -> None:
    for ident in ("", "personality_", "user_abc", "x" * 500, "../etc/passwd"):
        with pytest.raises(NotFound):
            await core.personalities.get(ORG, ident)


# --- API keys ---------------------------------------------------------------------------------------------


async def test_api_key_create_shows_the_secret_once(core: Core) -> None:
    created = await core.api_keys.create(ORG, ApiKeyCreate(name="ci", scopes=["write", "read", "write"]))
    assert created.secret.startswith("sk_") and created.key_prefix == created.secret[:8]
    assert created.scopes == ["read", "write"]
    [row] = core.storage.rows("api_keys")
    assert row["secret_hash"] == hashlib.sha256(created.secret.encode()).hexdigest()
    assert created.secret not in str(row)  # only the hash is stored
    shown = await core.api_keys.get(ORG, created.id)
    assert not hasattr(shown, "secret") and shown.name == "ci"
    listed = (await core.api_keys.list(ORG, page_request(None, None))).data
    assert [k.id for k in listed] == [created.id] and not hasattr(listed[0], "secret")


async def test_authenticate_and_revoke(core: Core) -> None:
    created = await core.api_keys.create(ORG, ApiKeyCreate(name="app", scopes=["chat"]))
    caller = await core.api_keys.authenticate(created.secret)
    assert (caller.organization_id, caller.scopes, caller.key_id) == (ORG, frozenset({"chat"}), created.id)
    for bad in ("", "sk_wrong", "pk_" + created.secret[3:], "sk_" + "a" * 300):
        with pytest.raises(Unauthenticated):
            await core.api_keys.authenticate(bad)
    with pytest.raises(NotFound):
        await core.api_keys.revoke(OTHER_ORG, created.id)
    deleted = await core.api_keys.revoke(ORG, created.id)
    assert (deleted.id, deleted.object, deleted.deleted) == (created.id, "api_key", True)
    [row] = core.storage.rows("api_keys")
    assert row["revoked_at"] == core.clock.now()
    with pytest.raises(Unauthenticated):  # at once: revocation drops the cached verification
        await core.api_keys.authenticate(created.secret)
    with pytest.raises(NotFound):
        await core.api_keys.get(ORG, created.id)
    assert (await core.api_keys.list(ORG, page_request(None, None))).data == []
    again = await core.api_keys.revoke(ORG, created.id)  # revoking twice is harmless
    assert again.deleted and core.storage.rows("api_keys")[0]["revoked_at"] == row["revoked_at"]


async def test_last_used_at_is_written_at_most_once_a_minute(core: Core) -> None:
    created = await core.api_keys.create(ORG, ApiKeyCreate(name="app", scopes=["*"]))
    assert core.storage.rows("api_keys")[0]["last_used_at"] is None
    first_use = core.clock.now()
    await core.api_keys.authenticate(created.secret)
    assert core.storage.rows("api_keys")[0]["last_used_at"] == first_use
    for _ in range(5):  # 50 s of traffic: past the cache, within the minute
        core.clock.advance(10)
        await core.api_keys.authenticate(created.secret)
    assert core.storage.rows("api_keys")[0]["last_used_at"] == first_use
    core.clock.advance(10)
    await core.api_keys.authenticate(created.secret)
    assert core.storage.rows("api_keys")[0]["last_used_at"] == first_use + timedelta(seconds=60)
    assert (await core.api_keys.get(ORG, created.id)).last_used_at == first_use + timedelta(seconds=60)


async def test_organization_by_slug_is_created_once(core: Core) -> None:
    first = await core.api_keys.organization("acme")
    assert (await core.api_keys.organization("acme")).id == first.id
    assert [o["slug"] for o in core.storage.rows("organizations")] == ["acme"]


# --- conversations ----------------------------------------------------------------------------------------


async def test_conversation_lifecycle(core: Core) -> None:
    pid, uid = await core.personality(), await core.user()
    created = await core.conversations.create(
        ORG,
        ConversationCreate(personality_id=pid, user_id=uid, mode="voice", initial_message="Hello! I am Ada."),
    )
    assert created.status == "connecting" and created.mode == "voice" and created.transcript is None
    assert created.room_url and created.room_token
    [timer] = core.jobs("conversation.timer")
    assert timer["payload"] == {"organization_id": ORG, "id": created.id}
    assert timer["run_at"] == core.clock.now() + timedelta(seconds=300)  # the join deadline
    first = await core.conversations.get(ORG, created.id, include_transcript=True)
    assert [(t.role, t.content, t.timestamp) for t in first.transcript or []] == [
        ("assistant", "Hello! I am Ada.", 0.0)
    ]

    core.clock.advance(5)
    result = await core.conversations.say(ORG, created.id, "Hi Ada, how are you?")
    assert result.conversation.status == "active"
    assert (result.message.role, result.message.content, result.message.timestamp) == (
        "user",
        "Hi Ada, how are you?",
        5.0,
    )
    assert result.reply.role == "assistant" and result.reply.content
    [started] = core.events("conversation.started")
    assert started["data"]["id"] == created.id and started["data"]["status"] == "active"
    core.clock.advance(2)
    await core.conversations.say(ORG, created.id, "Tell me a joke")
    assert len(core.events("conversation.started")) == 1  # only the first message starts it

    full = await core.conversations.get(ORG, created.id, include_transcript=True)
    assert [t.role for t in full.transcript or []] == ["assistant", "user", "assistant", "user", "assistant"]
    assert [t.timestamp for t in full.transcript or []][1::2] == [5.0, 7.0]
    assert (await core.conversations.get(ORG, created.id)).transcript is None

    core.clock.advance(30)
    ended = await core.conversations.end(ORG, created.id)
    assert ended.status == "ended" and ended.ended_at == core.clock.now() and ended.duration == 32
    [ended_event] = core.events("conversation.ended")
    assert ended_event["data"]["status"] == "ended"
    assert len(core.jobs("memory.extract")) == 1  # a user took part: their memories get extracted
    core.clock.advance(30)
    assert await core.conversations.end(ORG, created.id) == ended  # unchanged, no second event
    assert len(core.events("conversation.ended")) == 1
    with pytest.raises(Conflict):
        await core.conversations.say(ORG, created.id, "Still there?")
    [row] = core.storage.rows("conversations")
    assert row["status"] == "ended" and row["idle_deadline"] is None and row["max_deadline"] is None


async def test_conversation_list_filters(core: Core) -> None:
    pid, uid = await core.personality(), await core.user()
    a = await core.conversations.create(ORG, ConversationCreate(personality_id=pid, user_id=uid))
    b = await core.conversations.create(ORG, ConversationCreate(personality_id=pid))
    await core.conversations.end(ORG, b.id)
    ended = await core.conversations.list(ORG, page_request(None, None), status="ended")
    assert [c.id for c in ended.data] == [b.id]
    mine = await core.conversations.list(ORG, page_request(None, None), user_id=uid)
    assert [c.id for c in mine.data] == [a.id]
    assert not core.jobs("memory.extract")  # nobody spoke in b: nothing to extract


async def test_conversation_fails_when_nobody_joins(core: Core) -> None:
    pid = await core.personality()
    created = await core.conversations.create(ORG, ConversationCreate(personality_id=pid))
    payload = {"organization_id": ORG, "id": created.id}
    core.clock.advance(299)
    await core.conversations.on_timer(payload)
    assert (await core.conversations.get(ORG, created.id)).status == "connecting"
    assert len(core.jobs("conversation.timer")) == 2  # re-armed for the same deadline
    core.clock.advance(1)
    await core.conversations.on_timer(payload)
    failed = await core.conversations.get(ORG, created.id)
    assert failed.status == "failed" and failed.duration == 0 and failed.ended_at == core.clock.now()
    [event] = core.events("conversation.ended")
    assert event["data"]["status"] == "failed"
    await core.conversations.on_timer(payload)  # a late timer changes nothing
    assert len(core.events("conversation.ended")) == 1


async def test_conversation_ends_when_idle(core: Core) -> None:
    pid = await core.personality()
    created = await core.conversations.create(ORG, ConversationCreate(personality_id=pid))
    await core.conversations.say(ORG, created.id, "Hello")
    payload = {"organization_id": ORG, "id": created.id}
    core.clock.advance(400)  # past the join timeout, but the conversation is active: not failed
    await core.conversations.on_timer(payload)
    assert (await core.conversations.get(ORG, created.id)).status == "active"
    core.clock.advance(200)
    await core.conversations.on_timer(payload)
    ended = await core.conversations.get(ORG, created.id)
    assert ended.status == "ended" and ended.duration == 600
    assert [e["data"]["status"] for e in core.events("conversation.ended")] == ["ended"]


async def test_a_busy_conversation_keeps_one_timer_and_still_ends_when_idle(core: Core) -> None:
    from avatar_service.adapters.database_jobs import DatabaseJobQueue

    pid = await core.personality()
    created = await core.conversations.create(ORG, ConversationCreate(personality_id=pid))
    queue = core.container.resolve(DatabaseJobQueue)
    await core.conversations.say(ORG, created.id, "Hello")
    assert len(core.jobs("conversation.timer")) == 1  # the creation's timer (the join deadline) comes first
    for _ in range(5):  # each turn pushes the idle deadline later: the pending timer fires first and re-arms
        core.clock.advance(10)
        await core.conversations.say(ORG, created.id, "And then?")
    assert len(core.jobs("conversation.timer")) == 1
    core.clock.advance(500)  # the join deadline's timer fires: quiet 500 s of the 600 allowed, it re-arms
    await queue.drain()
    assert (await core.conversations.get(ORG, created.id)).status == "active"
    core.clock.advance(110)  # now 610 s quiet
    await queue.drain()
    ended = await core.conversations.get(ORG, created.id)
    assert ended.status == "ended" and ended.end_reason == "idle"
    assert core.jobs("conversation.timer") == []


async def test_conversation_timer_runs_through_the_job_queue(core: Core) -> None:
    from avatar_service.adapters.database_jobs import DatabaseJobQueue

    pid = await core.personality()
    created = await core.conversations.create(ORG, ConversationCreate(personality_id=pid))
    queue = core.container.resolve(DatabaseJobQueue)
    await queue.run_due()
    assert (await core.conversations.get(ORG, created.id)).status == "connecting"  # not due yet
    core.clock.advance(301)
    await queue.drain()
    assert (await core.conversations.get(ORG, created.id)).status == "failed"
    assert core.jobs("conversation.timer") == []  # finished jobs are gone
    assert all(e["dispatched"] for e in core.events())  # the dispatcher fanned the outbox out


# --- videos -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields", [{}, {"text": "Hi", "audio_url": "https://cdn.example.com/a.wav"}, {"text": "   "}]
)
async def test_video_needs_text_or_audio(core: Core, fields: dict[str, str]) -> None:
    pid = await core.personality()
    with pytest.raises(Invalid) as error:
        await core.videos.create(ORG, VideoCreate(personality_id=pid, **fields))
    assert error.value.param == "text"
    assert core.storage.rows("videos") == [] and core.jobs("video.render") == []


async def test_video_create_queues_a_render(core: Core) -> None:
    pid = await core.personality()
    plain = await core.videos.create(ORG, VideoCreate(personality_id=pid, text="Hello there"))
    assert plain.status == "pending" and plain.progress == 0 and plain.webhook_secret is None
    hooked = await core.videos.create(
        ORG,
        VideoCreate(
            personality_id=pid,
            audio_url="https://cdn.example.com/a.wav",
            webhook_url="https://hooks.example.com/v",
        ),
    )
    assert hooked.webhook_secret and hooked.webhook_secret.startswith("whsec_")
    assert not hasattr(await core.videos.get(ORG, hooked.id), "webhook_secret")
    assert sorted(j["payload"]["id"] for j in core.jobs("video.render")) == sorted([plain.id, hooked.id])
    with pytest.raises(NotFound) as error:
        await core.videos.create(ORG, VideoCreate(personality_id="personality_" + "z" * 24, text="x"))
    assert error.value.param == "personality_id"


async def test_video_cancel_semantics(core: Core) -> None:
    pid = await core.personality()
    video = await core.videos.create(ORG, VideoCreate(personality_id=pid, text="Hello"))
    core.clock.advance(1)
    cancelled = await core.videos.cancel(ORG, video.id)
    assert cancelled.status == "cancelled" and cancelled.completed_at == core.clock.now()
    core.clock.advance(1)
    assert await core.videos.cancel(ORG, video.id) == cancelled  # unchanged
    [row] = core.storage.rows("videos")
    assert row["status"] == "cancelled"
    for final in ("completed", "failed"):
        other = await core.videos.create(ORG, VideoCreate(personality_id=pid, text="Hi"))
        async with core.storage(ORG) as uow:  # as the renderer would finish it
            assert await uow.videos.set(other.id, expect={"status": "pending"}, status=final)
            await uow.commit()
        with pytest.raises(Conflict):
            await core.videos.cancel(ORG, other.id)
        assert (await core.videos.get(ORG, other.id)).status == final
    listed = await core.videos.list(ORG, page_request(None, None), status="cancelled")
    assert [v.id for v in listed.data] == [video.id]


# --- games ------------------------------------------------------------------------------------------------


async def test_game_session_moves_and_abandon(core: Core) -> None:
    pid = await core.personality()
    session = await core.games.create(ORG, GameSessionCreate(personality_id=pid, game_id="tic_tac_toe"))
    assert session.status == "active" and session.current_turn == "user" and session.move_count == 0
    result = await core.games.move(ORG, session.id, MoveCreate(move={"cell": 4}))
    assert result.user_move_valid is True and result.user_move_error is None
    assert result.personality_move is not None and result.session.move_count == 2
    assert result.session.current_turn == "user" and result.personality_message
    [row] = core.storage.rows("game_sessions")
    assert row["move_count"] == 2 and row["version"] == 1

    for bad in ({"cell": 4}, {"cell": 99}, {"column": 1}, {}):  # wrong content is answered in-band
        invalid = await core.games.move(ORG, session.id, MoveCreate(move=bad))
        assert invalid.user_move_valid is False and invalid.user_move_error
        assert invalid.session.move_count == 2
    assert core.storage.rows("game_sessions")[0]["version"] == 1  # nothing was written

    abandoned = await core.games.abandon(ORG, session.id)
    assert abandoned.status == "abandoned" and abandoned.current_turn is None
    assert await core.games.abandon(ORG, session.id) == abandoned
    with pytest.raises(Conflict):
        await core.games.move(ORG, session.id, MoveCreate(move={"cell": 0}))
    assert core.storage.rows("game_sessions")[0]["status"] == "abandoned"


async def test_game_where_the_personality_opens(core: Core) -> None:
    pid = await core.personality()
    session = await core.games.create(
        ORG, GameSessionCreate(personality_id=pid, game_id="connect_four", options={"first": "personality"})
    )
    assert session.move_count == 1 and session.current_turn == "user" and session.personality_commentary


async def test_unknown_game_and_bad_options(core: Core) -> None:
    pid = await core.personality()
    with pytest.raises(NotFound) as error:
        await core.games.create(ORG, GameSessionCreate(personality_id=pid, game_id="poker"))
    assert error.value.param == "game_id"
    with pytest.raises(Invalid) as error:
        await core.games.create(
            ORG,
            GameSessionCreate(
                personality_id=pid, game_id="tic_tac_toe", options={"difficulty": "impossible"}
            ),
        )
    assert error.value.param and error.value.param.startswith("options")
    assert core.storage.rows("game_sessions") == []


# --- webhooks ---------------------------------------------------------------------------------------------


async def test_webhook_secret_only_at_creation(core: Core) -> None:
    data = parse(
        WebhookCreate,
        {"url": "https://hooks.example.com/in", "events": ["video.failed", "memory.created", "video.failed"]},
    )
    created = await core.webhooks.create(ORG, data)
    assert created.secret.startswith("whsec_") and created.enabled is True
    assert created.events == ["memory.created", "video.failed"]
    shown = await core.webhooks.get(ORG, created.id)
    assert not hasattr(shown, "secret") and "secret" not in msgspec.to_builtins(shown)
    listed = await core.webhooks.list(ORG)
    assert [w.id for w in listed.data] == [created.id] and "secret" not in msgspec.to_builtins(listed)
    assert core.storage.rows("webhooks")[0]["secret"] == created.secret
    core.clock.advance(1)
    updated = await core.webhooks.update(
        ORG, created.id, parse(WebhookPatch, {"enabled": False, "events": ["knowledge.processed"]})
    )
    assert updated.enabled is False and updated.events == ["knowledge.processed"]
    assert core.storage.rows("webhooks")[0]["secret"] == created.secret  # a patch keeps the secret
    await core.webhooks.delete(ORG, created.id)
    assert core.storage.rows("webhooks") == []


async def test_concurrent_duplicate_external_ids_conflict_on_the_param(
    core: Core, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both requests pass the look-up before either commits (as on PostgreSQL): the unique index decides,
    # and the error must still name the field as the contract says.
    look_up = core.users._unique

    async def slow_look_up(*args: object) -> None:
        await look_up(*args)  # type: ignore[arg-type]
        await asyncio.sleep(0.01)

    monkeypatch.setattr(core.users, "_unique", slow_look_up)
    results = await asyncio.gather(
        *(core.users.create(ORG, UserCreate(external_id="same")) for _ in range(2)), return_exceptions=True
    )
    [error] = [r for r in results if isinstance(r, BaseException)]
    assert isinstance(error, Conflict) and (error.param, error.code) == ("external_id", "resource_exists")
    assert [u["external_id"] for u in core.storage.rows("users")] == ["same"]


async def test_requests_missing_the_key_cache_at_once_share_one_read(core: Core) -> None:
    created = await core.api_keys.create(ORG, ApiKeyCreate(name="app", scopes=["read"]))
    reads: list[str | None] = []
    storage = core.api_keys.deps.storage

    class SlowReads:
        """The store, but every unit of work takes a moment to open, as a real connection does."""

        def __init__(self, organization_id: str | None, *, read_only: bool = False) -> None:
            self.inner = storage(organization_id, read_only=read_only)
            if read_only:
                reads.append(organization_id)

        async def __aenter__(self) -> Any:
            await asyncio.sleep(0.01)
            return await self.inner.__aenter__()

        async def __aexit__(self, *exc: Any) -> None:
            await self.inner.__aexit__(*exc)

    keys = ApiKeys(Deps(SlowReads, core.clock, core.api_keys.deps.ids))  # type: ignore[arg-type]
    callers = await asyncio.gather(*(keys.authenticate(created.secret) for _ in range(20)))
    assert {c.key_id for c in callers} == {created.id} and reads == [None]
    with pytest.raises(Unauthenticated):  # a failed lookup is shared too, and remembered by nobody
        await asyncio.gather(*(keys.authenticate("sk_" + "x" * 43) for _ in range(5)))
    assert reads == [None, None]
