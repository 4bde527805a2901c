"""Conversations: real-time sessions with a personality, and their transcripts."""

from datetime import datetime
from typing import Annotated, Literal

from msgspec import Meta, field

from avatar_service.core.model.common import Request, Resource

ConversationStatus = Literal["connecting", "active", "ended", "failed"]
Mode = Literal["voice", "video", "voice_video"]
# `tool`: a call the personality made to one of its tools during a turn (the content says which, with what, and
# what came back, as JSON text)
Role = Literal["user", "assistant", "system", "tool"]


class ConversationConfig(Resource, kw_only=True, forbid_unknown_fields=True):
    video_enabled: bool = True
    audio_enabled: bool = True
    vad_enabled: bool = True
    interruption_enabled: bool = True
    # Both sides' audio and the avatar's video written as one MP4 when the conversation ends (`recording_url`).
    record: bool = False


class TranscriptItem(Resource, kw_only=True, omit_defaults=True):
    """A turn of the transcript; `interrupted` appears only on a reply that was cut short."""

    role: Role
    content: str
    timestamp: float  # seconds since the conversation's created_at
    # A reply cut off before it was finished (the client left the stream, the engine failed, the user spoke over
    # it): the content is what had been produced by then, never passed off as a whole reply.
    interrupted: bool = False
    # How long the turn took, in milliseconds (an assistant turn's). A spoken turn in a room:
    # end_of_speech_to_text_ms, text_to_reply_ms, reply_to_first_audio_ms, end_of_speech_to_first_audio_ms (null
    # where a stage did not happen); a text turn: first_piece_ms, total_ms.
    metrics: dict[str, float | None] | None = None


class Conversation(Resource, kw_only=True):
    id: str
    object: Literal["conversation"] = "conversation"
    personality_id: str
    status: ConversationStatus
    created_at: datetime
    user_id: str | None = None
    mode: Mode = "voice_video"
    room_url: str | None = None
    room_token: str | None = None
    duration: int | None = None
    transcript: list[TranscriptItem] | None = None
    ended_at: datetime | None = None
    # Why it ended: hung_up (DELETE), left (the participant left or closed the page), idle, max_duration,
    # join_timeout, media_failed
    end_reason: str | None = None
    # With config.record: the recording (MP4), signed and expiring like video_url, once written; null before.
    recording_url: str | None = None


class ConversationRecord(Conversation, kw_only=True):
    organization_id: str
    config: ConversationConfig = field(default_factory=ConversationConfig)
    started_at: datetime | None = None
    last_activity_at: datetime | None = None
    # stored deadlines, so timers survive a restart
    join_deadline: datetime | None = None
    idle_deadline: datetime | None = None
    max_deadline: datetime | None = None
    recording_key: str | None = None  # the recording in the blob store


class ConversationCreate(Request, kw_only=True):
    personality_id: str
    user_id: str | None = None
    mode: Mode = "voice_video"
    initial_message: Annotated[str, Meta(min_length=1, max_length=5000)] | None = None
    config: ConversationConfig = field(default_factory=ConversationConfig)


class MessageCreate(Request, kw_only=True):
    content: Annotated[str, Meta(min_length=1, max_length=5000)]
    # true: the reply is streamed as server-sent events (`delta` pieces, then `done` with the result)
    stream: bool = False


class MessageResult(Resource, kw_only=True):
    conversation: Conversation
    message: TranscriptItem
    reply: TranscriptItem
