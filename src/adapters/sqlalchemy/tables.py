"""Tables: column names are the record Structs' field names, so rows convert without mapping code."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    false,
)
from sqlalchemy.engine import Dialect


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every backend (SQLite keeps no time zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


metadata = MetaData()
ID = String(96)


def _id() -> Column[str]:
    return Column("id", ID, primary_key=True)


def _org() -> Column[str]:
    return Column("organization_id", ID, nullable=False)


def _ts(name: str, nullable: bool = True) -> Column[datetime]:
    return Column(name, UTCDateTime(), nullable=nullable)


organizations = Table(
    "organizations", metadata, _id(), Column("slug", String(100), nullable=False, unique=True),
    _ts("created_at", False),
)

api_keys = Table(
    "api_keys", metadata, _id(), _org(), Column("name", String(255), nullable=False),
    Column("key_prefix", String(16), nullable=False), Column("scopes", JSON, nullable=False),
    _ts("created_at", False), _ts("last_used_at"), Column("secret_hash", String(64), nullable=False, unique=True),
    _ts("revoked_at"), Column("rate_limit_per_minute", Integer),
    Index("ix_api_keys_org_created", "organization_id", "created_at", "id"),
)

personalities = Table(
    "personalities", metadata, _id(), _org(), Column("name", String(255), nullable=False),
    _ts("created_at", False), _ts("updated_at", False), Column("description", Text, nullable=False),
    Column("system_prompt", Text, nullable=False), Column("voice", JSON, nullable=False),
    Column("appearance", JSON, nullable=False), Column("traits", JSON, nullable=False),
    Column("metadata", JSON, nullable=False), Column("tools", JSON, nullable=False, server_default="[]"),
    Column("tool_signing_secret", String(128)),
    Index("ix_personalities_org_created", "organization_id", "created_at", "id"),
)

users = Table(
    "users", metadata, _id(), _org(), _ts("created_at", False), _ts("updated_at", False),
    Column("external_id", String(255)), Column("metadata", JSON, nullable=False),
    Column("settings", JSON, nullable=False),
    Index("ix_users_org_created", "organization_id", "created_at", "id"),
    Index("ux_users_org_external", "organization_id", "external_id", unique=True),
)

memories = Table(
    "memories", metadata, _id(), _org(), Column("user_id", ID, nullable=False),
    Column("personality_id", ID, nullable=False), Column("content", Text, nullable=False),
    _ts("created_at", False), _ts("updated_at", False), Column("category", String(32), nullable=False),
    Column("confidence", Float, nullable=False), Column("source", JSON, nullable=False), _ts("last_used_at"),
    Column("embedding", LargeBinary, nullable=False), Column("embedder", String(64), nullable=False),
    Index("ix_memories_user_created", "organization_id", "user_id", "created_at", "id"),
    Index("ix_memories_personality", "personality_id"),
)

knowledge_items = Table(
    "knowledge_items", metadata, _id(), _org(), Column("personality_id", ID, nullable=False),
    Column("type", String(16), nullable=False), Column("status", String(16), nullable=False),
    _ts("created_at", False), _ts("updated_at"), Column("name", String(255)), Column("source_url", Text),
    Column("content_preview", Text), Column("chunk_count", Integer, nullable=False),
    Column("token_count", Integer, nullable=False), Column("error", JSON),
    Column("refresh_interval", String(16), nullable=False), Column("content", Text),
    Column("upload", LargeBinary), Column("upload_type", String(255)), _ts("next_refresh_at"),
    Column("feed_keys", JSON),
    Index("ix_knowledge_personality_created", "organization_id", "personality_id", "created_at", "id"),
)

chunks = Table(
    "chunks", metadata, _id(), _org(), Column("personality_id", ID, nullable=False),
    Column("knowledge_item_id", ID, nullable=False), Column("ordinal", Integer, nullable=False),
    Column("content", Text, nullable=False), Column("token_count", Integer, nullable=False),
    Column("embedding", LargeBinary, nullable=False), Column("embedder", String(64), nullable=False),
    Index("ix_chunks_item", "knowledge_item_id"),
    Index("ix_chunks_personality", "personality_id"),
)

conversations = Table(
    "conversations", metadata, _id(), _org(), Column("personality_id", ID, nullable=False),
    Column("status", String(16), nullable=False), _ts("created_at", False), Column("user_id", ID),
    Column("mode", String(16), nullable=False), Column("room_url", Text), Column("room_token", Text),
    Column("duration", Integer), _ts("ended_at"), Column("config", JSON, nullable=False), _ts("started_at"),
    _ts("last_activity_at"), _ts("join_deadline"), _ts("idle_deadline"), _ts("max_deadline"),
    Column("end_reason", String(32)), Column("recording_key", Text),
    Index("ix_conversations_org_created", "organization_id", "created_at", "id"),
)

transcript_items = Table(
    "transcript_items", metadata, Column("seq", BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                                         autoincrement=True),
    Column("conversation_id", ID, nullable=False), Column("role", String(16), nullable=False),
    Column("content", Text, nullable=False), Column("timestamp", Float, nullable=False),
    Column("interrupted", Boolean, nullable=False, server_default=false()), Column("metrics", JSON),
    Index("ix_transcript_conversation", "conversation_id", "seq"),
)

videos = Table(
    "video_generations", metadata, _id(), _org(), Column("status", String(16), nullable=False),
    _ts("created_at", False), Column("personality_id", ID), Column("progress", Integer, nullable=False),
    Column("duration", Float), Column("error", JSON), _ts("completed_at"), Column("text", Text),
    Column("audio_url", Text), Column("max_duration", Integer), Column("resolution", String(8), nullable=False),
    Column("background", Text), Column("webhook_url", Text), Column("webhook_secret", String(128)),
    Column("video_key", Text), Column("thumbnail_key", Text), _ts("updated_at"),
    Index("ix_videos_org_created", "organization_id", "created_at", "id"),
)

# Photo avatars: the picture and its preview are blobs; what was measured on the picture is kept here.
avatars = Table(
    "avatars", metadata, _id(), _org(), Column("name", String(255), nullable=False),
    _ts("created_at", False), _ts("updated_at", False), Column("image_key", Text, nullable=False),
    Column("preview_key", Text, nullable=False), Column("width", Integer, nullable=False),
    Column("height", Integer, nullable=False), Column("face_box", JSON, nullable=False),
    Column("landmarks", JSON, nullable=False),
    Index("ix_avatars_org_created", "organization_id", "created_at", "id"),
)

game_sessions = Table(
    "game_sessions", metadata, _id(), _org(), Column("game_id", String(64), nullable=False),
    Column("personality_id", ID, nullable=False), Column("status", String(16), nullable=False),
    _ts("created_at", False), Column("user_id", ID), Column("current_turn", String(16)),
    Column("state", JSON, nullable=False), Column("winner", String(16)), Column("move_count", Integer, nullable=False),
    Column("personality_commentary", Text), _ts("updated_at"), Column("version", Integer, nullable=False),
    Index("ix_games_org_created", "organization_id", "created_at", "id"),
)

webhooks = Table(
    "webhooks", metadata, _id(), _org(), Column("url", Text, nullable=False), Column("events", JSON, nullable=False),
    _ts("created_at", False), Column("enabled", Boolean, nullable=False), Column("secret", String(128), nullable=False),
    _ts("updated_at", False), _ts("failing_since"),
    Index("ix_webhooks_org_created", "organization_id", "created_at", "id"),
)

deliveries = Table(
    "webhook_deliveries", metadata, _id(), _org(), Column("webhook_id", ID), Column("event_id", ID, nullable=False),
    Column("event_type", String(64), nullable=False), Column("status", String(16), nullable=False),
    Column("attempt", Integer, nullable=False), Column("response_status", Integer), Column("duration_ms", Integer),
    Column("error", Text), _ts("next_retry_at"), _ts("created_at", False), _ts("delivered_at"),
    Column("url", Text, nullable=False), Column("payload", LargeBinary, nullable=False),
    Index("ix_deliveries_webhook_created", "webhook_id", "created_at", "id"),
    Index("ix_deliveries_due", "status", "next_retry_at"),
)

outbox = Table(
    "outbox", metadata, _id(), _org(), Column("type", String(64), nullable=False), _ts("created_at", False),
    Column("data", JSON, nullable=False), Column("target_url", Text), Column("target_secret", String(128)),
    Column("dispatched", Boolean, nullable=False),
    Index("ix_outbox_pending", "dispatched", "created_at"),
)

jobs = Table(
    "jobs", metadata, _id(), Column("kind", String(64), nullable=False), Column("payload", JSON, nullable=False),
    _ts("run_at", False), Column("attempts", Integer, nullable=False), Column("key", String(128)),
    _ts("locked_until"), Column("last_error", Text),
    Index("ix_jobs_due", "run_at"),
)

idempotency_keys = Table(
    "idempotency_keys", metadata, Column("organization_id", ID, primary_key=True),
    Column("key", String(255), primary_key=True),
    Column("request_hash", String(64), nullable=False), Column("status_code", Integer),
    Column("response_body", LargeBinary), Column("content_type", String(128)), _ts("created_at", False),
    _ts("expires_at", False),
    Index("ix_idempotency_expires", "expires_at"),
)

# One counter per vector namespace (a user's memories, a personality's chunks), bumped in the transaction
# that changes the namespace's vectors; each bump logs the vector ids it changed in vector_changes, so a
# process whose cached index is older applies just those rows. Entries up to `log_floor` are pruned: a
# process holding an older version reloads the namespace in full.
vector_versions = Table(
    "vector_versions", metadata, Column("namespace", String(160), primary_key=True),
    Column("version", BigInteger, nullable=False),
    Column("log_floor", BigInteger, nullable=False, server_default="0"),
)

vector_changes = Table(
    "vector_changes", metadata, Column("namespace", String(160), primary_key=True),
    Column("version", BigInteger, primary_key=True), Column("vector_id", ID, primary_key=True),
)

rate_limits = Table(
    "rate_limits", metadata, Column("bucket", String(160), primary_key=True), _ts("window_start", False),
    Column("count", Integer, nullable=False),
)

# Room workers (`avatar worker` with AVATAR_ROOM_CAPACITY > 0) and the rooms placed on them: a host is alive while
# its heartbeat keeps `expires_at` ahead; a conversation has at most one placement (its primary key), so two
# workers can never host the same room.
room_hosts = Table(
    "room_hosts", metadata, _id(), Column("url", Text, nullable=False), Column("capacity", Integer, nullable=False),
    _ts("started_at", False), _ts("expires_at", False),
)

room_placements = Table(
    "room_placements", metadata, Column("conversation_id", ID, primary_key=True), _org(),
    Column("host_id", ID, nullable=False), _ts("placed_at", False),
    Index("ix_room_placements_host", "host_id"),
)
