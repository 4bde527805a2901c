"""Conversations: real-time sessions with a personality, and their transcripts."""

from datetime import datetime
from typing import Annotated, Literal

from msgspec import Meta

from avatar_service.core.model.common import Request, Resource

ConversationStatus = Literal["connecting", "active", "ended", "failed"]
Mode = Literal["voice", "video", "voice_video"]
Role = Literal["user", "assistant", "system"]


class ConversationConfig(Resource, forbid_unknown_fields=True):
    video_enabled: bool = True
    audio_enabled: bool = True
    vad_enabled: bool = True
    interruption_enabled: bool = True


class TranscriptItem(Resource):
    role: Role
    content: str
    timestamp: float  # seconds since the conversation's created_at


class Conversation(Resource):
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


class ConversationRecord(Conversation):
    organization_id: str
    config: ConversationConfig = ConversationConfig()
    started_at: datetime | None = None
    last_activity_at: datetime | None = None
    # stored deadlines, so timers survive a restart
    join_deadline: datetime | None = None
    idle_deadline: datetime | None = None
    max_deadline: datetime | None = None


class ConversationCreate(Request):
    personality_id: str
    user_id: str | None = None
    mode: Mode = "voice_video"
    initial_message: Annotated[str, Meta(min_length=1, max_length=5000)] | None = None
    config: ConversationConfig = ConversationConfig()


class MessageCreate(Request):
    content: Annotated[str, Meta(min_length=1, max_length=5000)]


class MessageResult(Resource):
    conversation: Conversation
    message: TranscriptItem
    reply: TranscriptItem
