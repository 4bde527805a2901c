"""Memories: facts kept per user, scoped to a personality, searched semantically."""

from datetime import datetime
from typing import Annotated, Literal

from msgspec import Meta, field

from avatar_service.core.model.common import UNSET, Request, Resource, UnsetType

MemoryCategory = Literal["personal", "location", "preference", "relationship", "schedule", "context", "custom"]
SourceType = Literal["conversation", "manual", "bulk", "import"]
Content = Annotated[str, Meta(min_length=1, max_length=2000)]
Relevance = Annotated[float, Meta(ge=0, le=1)]


class MemorySource(Resource, kw_only=True):
    type: SourceType
    conversation_id: str | None = None
    extracted_from: str | None = None


class Memory(Resource, kw_only=True):
    id: str
    object: Literal["memory"] = "memory"
    user_id: str
    personality_id: str
    content: str
    created_at: datetime
    category: MemoryCategory = "custom"
    confidence: Annotated[float, Meta(ge=0, le=1)] = 1.0
    source: MemorySource = field(default_factory=lambda: MemorySource(type="manual"))
    last_used_at: datetime | None = None


class MemoryHit(Memory, kw_only=True):
    relevance: Relevance


class MemoryRecord(Memory, kw_only=True):
    organization_id: str
    updated_at: datetime
    # float32 bytes of the content's embedding and the embedder that made it
    embedding: bytes = b""
    embedder: str = ""


class MemoryCreate(Request, kw_only=True):
    personality_id: str
    content: Content
    category: MemoryCategory = "custom"


class MemoryItem(Request, kw_only=True):
    content: Content
    category: MemoryCategory = "custom"


class MemoryBulkCreate(Request, kw_only=True):
    personality_id: str
    memories: Annotated[list[MemoryItem], Meta(min_length=1, max_length=100)]


class MemoryBulkResult(Resource, kw_only=True):
    created_count: int
    data: list[Memory]


class MemoryPatch(Request, kw_only=True):
    content: Content | UnsetType = UNSET
    category: MemoryCategory | UnsetType = UNSET


class MemorySearch(Request, kw_only=True):
    query: Annotated[str, Meta(min_length=1, max_length=2000)]
    personality_id: str | None = None
    limit: Annotated[int, Meta(ge=1, le=100)] = 10
    min_relevance: Relevance = 0.0


class MemorySearchResult(Resource, kw_only=True):
    data: list[MemoryHit]
