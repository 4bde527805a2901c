"""Conversations: lifecycle by the state table, text turns through the dialogue engine, stored timers."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from avatar_service.core.errors import Conflict
from avatar_service.core.media_urls import MediaSigner
from avatar_service.core.model import (
    Conversation,
    ConversationCreate,
    ConversationRecord,
    MessageResult,
    Page,
    PersonalityRecord,
    TranscriptItem,
    public,
    replace,
)
from avatar_service.core.pagination import PageRequest
from avatar_service.core.services.base import Deps, emit, fetch, page_of
from avatar_service.core.services.filters import given
from avatar_service.core.services.knowledge import Knowledge
from avatar_service.core.services.memories import Memories
from avatar_service.core.services.text_turns import TextTurn
from avatar_service.core.services.tool_calls import Toolbox, ToolRunner
from avatar_service.core.services.turn_grounding import HISTORY_TURNS, TurnGrounding
from avatar_service.core.states import check_move, is_final
from avatar_service.ports.dialogue import DialogueEngine, Persona
from avatar_service.ports.jobs import JobQueue
from avatar_service.ports.rooms import RoomMedia, RoomProvider, RoomSignaling
from avatar_service.ports.speech import VoiceChoice
from avatar_service.ports.storage import UnitOfWork


@dataclass(frozen=True, slots=True)
class ConversationLimits:
    join_timeout: float = 300.0  # seconds to join before the conversation fails
    idle_timeout: float = 600.0  # seconds without a turn before it ends
    max_duration: float = 3600.0
    max_transcript: int = 2000  # turns


# Why a conversation ended, as the room's page tells its participant.
ENDINGS = {
    "hung_up": "The conversation was ended by the service.",
    "left": "You left the conversation.",
    "idle": "The conversation ended after a long silence.",
    "max_duration": "The conversation reached its time limit.",
    "join_timeout": "Nobody joined the conversation in time.",
    "media_failed": "The conversation's audio and video broke down.",
    "host_lost": "The server hosting the conversation stopped.",
    "at_capacity": "Every server that hosts conversations was full; try again shortly.",
}


def persona(p: PersonalityRecord) -> Persona:
    return Persona(name=p.name, system_prompt=p.system_prompt, description=p.description,
                   traits={k: getattr(p.traits, k) for k in p.traits.__struct_fields__})


class Conversations:
    def __init__(self, deps: Deps, jobs: JobQueue, rooms: RoomProvider, dialogue: DialogueEngine,
                 knowledge: Knowledge, memories: Memories, limits: ConversationLimits, tools: ToolRunner,
                 signer: MediaSigner) -> None:
        self.deps, self.jobs, self.rooms, self.dialogue, self.tools = deps, jobs, rooms, dialogue, tools
        self.signer = signer
        self.knowledge, self.memories, self.limits = knowledge, memories, limits
        self.grounding = TurnGrounding(knowledge, memories)

    def _view(self, record: ConversationRecord, transcript: list[TranscriptItem] | None = None) -> Conversation:
        view = public(record, Conversation)
        view.transcript = transcript
        if record.recording_key:
            view.recording_url = self.signer.url(record.recording_key, self.deps.clock.now())
        return view

    async def create(self, organization_id: str, data: ConversationCreate) -> Conversation:
        now = self.deps.clock.now()
        ident = self.deps.ids.new("conversation")
        async with self.deps.storage(organization_id, read_only=True) as uow:
            await fetch(uow.personalities, "personality", data.personality_id, param="personality_id")
            if data.user_id is not None:
                await fetch(uow.users, "user", data.user_id, param="user_id")
        room = await self.rooms.open(ident, now + timedelta(seconds=self.limits.max_duration))
        record = ConversationRecord(
            id=ident, personality_id=data.personality_id, status="connecting", created_at=now,
            user_id=data.user_id, mode=data.mode, room_url=room.room_url, room_token=room.room_token,
            organization_id=organization_id, config=data.config, last_activity_at=now,
            join_deadline=now + timedelta(seconds=self.limits.join_timeout),
            max_deadline=now + timedelta(seconds=self.limits.max_duration),
        )
        async with self.deps.storage(organization_id) as uow:
            await uow.conversations.add(record)
            if data.initial_message:
                await uow.transcripts.append(ident, [TranscriptItem(role="assistant", content=data.initial_message,
                                                                    timestamp=0.0)])
            await self._schedule(uow, record)
            await uow.commit()
        return self._view(record)

    async def _schedule(self, uow: UnitOfWork, record: ConversationRecord,
                        previous: ConversationRecord | None = None) -> None:
        """Arms the timer for the record's next deadline. Given the `previous` record, whose timer is pending,
        it arms none when the next deadline did not come earlier: that timer fires first and re-arms (a turn only
        pushes the idle deadline later, so a busy conversation keeps one pending timer, not one per turn)."""
        due = _next_deadline(record)
        if due is None:
            return
        if previous is not None and (armed := _next_deadline(previous)) is not None and armed <= due:
            return
        await self.jobs.enqueue(uow, "conversation.timer",
                                {"organization_id": record.organization_id, "id": record.id}, run_at=due)

    async def get(self, organization_id: str, conversation_id: str, include_transcript: bool = False
                  ) -> Conversation:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            record = await fetch(uow.conversations, "conversation", conversation_id)
            transcript = await uow.transcripts.for_conversation(record.id) if include_transcript else None
        return self._view(record, transcript)

    async def list(self, organization_id: str, page: PageRequest, status: str | None = None,
                   personality_id: str | None = None, user_id: str | None = None) -> Page[Conversation]:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            records, more = await uow.conversations.page(
                page, **given(status=status, personality_id=personality_id, user_id=user_id))
        return page_of(records, more, Conversation)

    async def _activate(self, uow: UnitOfWork, record: ConversationRecord, now: datetime) -> ConversationRecord:
        if record.status != "connecting":
            return record
        record = replace(record, status=check_move("conversation", record.status, "active"), started_at=now,
                         join_deadline=None)
        await emit(uow, self.deps, record.organization_id, "conversation.started", self._view(record))
        return record

    async def joined(self, organization_id: str, conversation_id: str) -> Conversation:
        """A participant joined the room: the conversation becomes active."""
        now = self.deps.clock.now()
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.conversations, "conversation", conversation_id)
            if is_final("conversation", record.status):
                raise Conflict(f"The conversation is {record.status}")
            armed = record
            record = await self._activate(uow, record, now)
            record = replace(record, last_activity_at=now,
                             idle_deadline=now + timedelta(seconds=self.limits.idle_timeout))
            await uow.conversations.update(record)
            await self._schedule(uow, record, armed)
            await uow.commit()
        return self._view(record)

    async def end(self, organization_id: str, conversation_id: str, status: str = "ended",
                  reason: str | None = None) -> Conversation:
        """Ends (or fails) the conversation; ending an ended one returns it unchanged. `reason`: see ENDINGS
        (by default hung_up, or media_failed for a failure)."""
        now = self.deps.clock.now()
        reason = reason or ("media_failed" if status == "failed" else "hung_up")
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.conversations, "conversation", conversation_id)
            if is_final("conversation", record.status):
                return self._view(record)
            record = await self._close(uow, record, status, now, reason)
            await uow.commit()
        await self._hang_up(record)
        return self._view(record)

    async def _hang_up(self, record: ConversationRecord) -> None:
        """A room still open in this process closes with the conversation, telling its participant why."""
        if isinstance(self.rooms, RoomSignaling):
            reason = record.end_reason or "hung_up"
            await self.rooms.hang_up(record.id, record.status, reason, ENDINGS.get(reason, "The conversation ended."))
        else:
            await self.rooms.close(record.id)

    async def recorded(self, organization_id: str, conversation_id: str, key: str) -> None:
        """The room wrote the conversation's recording to the blob store under `key`."""
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.conversations, "conversation", conversation_id)
            await uow.conversations.update(replace(record, recording_key=key))
            await uow.commit()

    async def _close(self, uow: UnitOfWork, record: ConversationRecord, status: str, now: datetime,
                     reason: str) -> ConversationRecord:
        started = record.started_at or record.created_at
        record = replace(record, status=check_move("conversation", record.status, status), ended_at=now,
                         duration=max(0, int((now - started).total_seconds())) if record.started_at else 0,
                         join_deadline=None, idle_deadline=None, max_deadline=None, end_reason=reason)
        await uow.conversations.update(record)
        await emit(uow, self.deps, record.organization_id, "conversation.ended", self._view(record))
        if record.user_id and record.started_at:
            await self.jobs.enqueue(uow, "memory.extract",
                                    {"organization_id": record.organization_id, "id": record.id})
        return record

    async def on_timer(self, payload: dict[str, Any]) -> None:
        """Ends or fails a conversation whose stored deadline has passed; re-arms otherwise."""
        now = self.deps.clock.now()
        async with self.deps.storage(payload["organization_id"]) as uow:
            record = await uow.conversations.get(payload["id"])
            if record is None or is_final("conversation", record.status):
                return
            if record.status == "connecting" and record.join_deadline and now >= record.join_deadline:
                record = await self._close(uow, record, "failed", now, "join_timeout")
            elif record.max_deadline and now >= record.max_deadline:
                record = await self._close(uow, record, "ended", now, "max_duration")
            elif record.idle_deadline and now >= record.idle_deadline:
                record = await self._close(uow, record, "ended", now, "idle")
            else:
                await self._schedule(uow, record)
                record = None
            await uow.commit()
        if record is not None:  # a room still open in this process hangs up with the conversation
            await self._hang_up(record)
        self.jobs.wake()

    async def say(self, organization_id: str, conversation_id: str, content: str) -> MessageResult:
        """One text turn, collected: the user's message and the personality's reply are stored together, in one
        write once the reply is written (one commit where the streamed turn of `start_turn` takes two)."""
        return await (await self._prepare_turn(organization_id, conversation_id, content)).collect()

    async def start_turn(self, organization_id: str, conversation_id: str, content: str) -> TextTurn:
        """Checks and begins a text turn: the user's message is stored before this returns, so every error a
        caller can cause is raised here. Iterate the turn for the reply's pieces; it stores the reply when it
        ends, marked interrupted if it was cut short (see `TextTurn`)."""
        turn = await self._prepare_turn(organization_id, conversation_id, content)
        await turn.open()
        return turn

    async def _prepare_turn(self, organization_id: str, conversation_id: str, content: str) -> TextTurn:
        """Reads what the turn needs and checks it; the turn's first write (`opening`) is left to the `TextTurn`,
        which makes it on its own (`open`) or with the reply's."""
        # Retrieval reads without the write lock (each read sees the latest commit, not one snapshot); the short
        # write of `opening` holds it and checks the conversation again.
        began = time.monotonic()
        async with self.deps.storage(organization_id, read_only=True) as uow:
            record = await fetch(uow.conversations, "conversation", conversation_id)
            self._open_for_turns(record)
            # the turns the reply reads, not the whole transcript: a long conversation's turns cost a short one's
            history = await uow.transcripts.recent(record.id, HISTORY_TURNS)
            length = len(history) if len(history) < HISTORY_TURNS else await uow.transcripts.count(record.id)
            if length >= self.limits.max_transcript - 1:
                raise Conflict(f"The transcript is at its limit of {self.limits.max_transcript} turns",
                               code="transcript_full")
            personality = await fetch(uow.personalities, "personality", record.personality_id)
        vector = await self.grounding.embed(content, history)
        async with self.deps.storage(organization_id, read_only=True) as uow:
            grounding = await self.grounding.fetch(uow, personality.id, record.user_id, vector)
            # Retrieved for this reply: last_used_at says so. In id order, not ranked order: two turns of one
            # user rank the same memories differently, and opposite lock orders deadlocked on PostgreSQL.
            used = sorted(grounding.used_memories(), key=lambda m: m.id)
        now = self.deps.clock.now()
        message = TranscriptItem(role="user", content=content, timestamp=_since(record, now))

        async def opening(uow: UnitOfWork) -> Conversation:
            armed = await fetch(uow.conversations, "conversation", conversation_id)
            self._open_for_turns(armed)  # it may have ended meanwhile
            current = await self._activate(uow, armed, now)
            current = replace(current, last_activity_at=now,
                              idle_deadline=now + timedelta(seconds=self.limits.idle_timeout))
            await uow.conversations.update(current)
            # One statement (an executemany) for all of them, not one round trip each.
            await uow.memories.set_many([{"id": memory.id, "last_used_at": now} for memory in used])
            await self._schedule(uow, current, armed)
            return self._view(current)

        request = grounding.request(persona(personality), history, content)
        return TextTurn(self.deps, self.dialogue, request, record, message, opening,
                        lambda at: _since(record, at), self.tools, _toolbox(personality, record), began)

    async def voice_turn(self, organization_id: str, conversation_id: str, content: str) -> TextTurn:
        """One spoken turn in the room: the same retrieval, tools and transcript as a text turn; the reply streams
        so the room can speak its first sentence while the rest is written."""
        return await self.start_turn(organization_id, conversation_id, content)

    async def room_media(self, organization_id: str, conversation_id: str) -> RoomMedia:
        """What the room's media pipeline needs: the conversation's config, the personality's voice and look."""
        async with self.deps.storage(organization_id, read_only=True) as uow:
            record = await fetch(uow.conversations, "conversation", conversation_id)
            self._open_for_turns(record)
            personality = await fetch(uow.personalities, "personality", record.personality_id)
        voice, look, config = personality.voice, personality.appearance, record.config
        return RoomMedia(
            organization_id=organization_id, conversation_id=record.id,
            voice=VoiceChoice(provider=voice.provider, voice_id=voice.voice_id, speed=voice.settings.speed,
                              stability=voice.settings.stability, similarity_boost=voice.settings.similarity_boost),
            avatar_id=look.avatar_id, style=look.style, background=look.background or "",
            audio_enabled=config.audio_enabled, video_enabled=config.video_enabled,
            vad_enabled=config.vad_enabled, interruption_enabled=config.interruption_enabled, record=config.record)

    @staticmethod
    def _open_for_turns(record: ConversationRecord) -> None:
        if is_final("conversation", record.status):
            raise Conflict(f"The conversation is {record.status}: it takes no more messages")


def _toolbox(personality: PersonalityRecord, record: ConversationRecord) -> Toolbox | None:
    """The tools this turn may call: the personality's, with their signing secret (none: no toolbox)."""
    if not personality.tools or personality.tool_signing_secret is None:
        return None
    return Toolbox({tool.name: tool for tool in personality.tools}, personality.tool_signing_secret, record.id,
                   personality.id, record.user_id)


def _next_deadline(record: ConversationRecord) -> datetime | None:
    """When the conversation's timer must next look at it: its earliest deadline that applies."""
    deadlines = [d for d in (record.join_deadline if record.status == "connecting" else None,
                             record.idle_deadline, record.max_deadline) if d is not None]
    return min(deadlines) if deadlines else None


def _since(record: ConversationRecord, now: datetime) -> float:
    return round((now - record.created_at).total_seconds(), 3)
