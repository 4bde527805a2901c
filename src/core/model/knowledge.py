"""Knowledge items and their indexed chunks."""

from datetime import datetime
from typing import Annotated, Literal

from msgspec import Meta, Struct

from avatar_service.core.model.common import Request, Resource, Url

KnowledgeType = Literal["document", "url", "text", "feed"]
KnowledgeStatus = Literal["pending", "processing", "ready", "failed"]
RefreshInterval = Literal["hourly", "daily", "weekly", "never"]
REFRESH_SECONDS = {"hourly": 3600, "daily": 86400, "weekly": 604800}
PREVIEW_CHARS = 500
MAX_CONTENT = 100_000


class ErrorInfo(Resource, kw_only=True):
    code: str
    message: str


class KnowledgeItem(Resource, kw_only=True):
    id: str
    object: Literal["knowledge_item"] = "knowledge_item"
    type: KnowledgeType
    status: KnowledgeStatus
    created_at: datetime
    name: str | None = None
    source_url: str | None = None
    content_preview: str | None = None
    chunk_count: int = 0
    token_count: int = 0
    error: ErrorInfo | None = None
    updated_at: datetime | None = None
    refresh_interval: RefreshInterval = "never"


class KnowledgeRecord(KnowledgeItem, kw_only=True):
    organization_id: str
    personality_id: str
    # the submitted text (text/document types) or the uploaded file, kept so processing can be re-run
    content: str | None = None
    upload: bytes | None = None
    upload_type: str | None = None
    next_refresh_at: datetime | None = None
    # keys (id or link) of the feed entries already indexed, so a re-fetch adds none twice
    feed_keys: list[str] | None = None


class Chunk(Struct, kw_only=True):
    id: str
    organization_id: str
    personality_id: str
    knowledge_item_id: str
    ordinal: int
    content: str
    token_count: int
    embedding: bytes
    embedder: str


class KnowledgeCreate(Request, kw_only=True):
    type: KnowledgeType
    name: Annotated[str, Meta(max_length=255)] | None = None
    url: Url | None = None
    content: Annotated[str, Meta(max_length=MAX_CONTENT)] | None = None
    refresh_interval: RefreshInterval = "never"


class KnowledgeSearch(Request, kw_only=True):
    query: Annotated[str, Meta(min_length=1, max_length=2000)]
    limit: Annotated[int, Meta(ge=1, le=100)] = 5
    min_relevance: Annotated[float, Meta(ge=0, le=1)] = 0.0


class KnowledgeHit(Resource, kw_only=True):
    knowledge_item_id: str
    content: str
    relevance: float


class KnowledgeSearchResult(Resource, kw_only=True):
    data: list[KnowledgeHit]
