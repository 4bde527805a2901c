"""Knowledge items: accept (processing is a job), read, list, delete with chunks, and search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from avatar_service.core.errors import Invalid, TooLarge
from avatar_service.core.model import (
    Deleted,
    KnowledgeCreate,
    KnowledgeHit,
    KnowledgeItem,
    KnowledgeRecord,
    KnowledgeSearch,
    KnowledgeSearchResult,
    Page,
    public,
)
from avatar_service.core.pagination import PageRequest
from avatar_service.core.services.base import Deps, fetch, fetch_owned, page_of
from avatar_service.core.services.filters import given
from avatar_service.core.services.vector_cache import Source, Stored, fresh, rows_missing, stored
from avatar_service.ports.jobs import JobQueue
from avatar_service.ports.semantic import Semantic
from avatar_service.ports.storage import UnitOfWork

MAX_UPLOAD = 20 * 1024 * 1024
Hits = list[KnowledgeHit]  # named here: inside the class `list` is the method


@dataclass(frozen=True, slots=True)
class Upload:
    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True, slots=True)
class KnowledgeLimits:
    max_upload: int = MAX_UPLOAD  # bytes of one uploaded file (AVATAR_MAX_UPLOAD_BYTES)


def namespace(personality_id: str) -> str:
    return f"knowledge:{personality_id}"


class Knowledge:
    def __init__(self, deps: Deps, jobs: JobQueue, semantic: Semantic, limits: KnowledgeLimits) -> None:
        self.deps = deps
        self.jobs = jobs
        self.semantic = semantic
        self.limits = limits

    async def add(self, organization_id: str, personality_id: str, data: KnowledgeCreate,
                  upload: Upload | None = None) -> KnowledgeItem:
        _check(data, upload, self.limits.max_upload)
        now = self.deps.clock.now()
        content = data.content
        name = data.name or (upload.filename if upload else None) or data.url or (content or "")[:60] or None
        record = KnowledgeRecord(
            id=self.deps.ids.new("knowledge_item"), type=data.type, status="pending", created_at=now,
            updated_at=now, name=name, source_url=data.url, refresh_interval=data.refresh_interval,
            organization_id=organization_id, personality_id=personality_id, content=content,
            upload=upload.data if upload else None, upload_type=upload.content_type if upload else None,
        )
        async with self.deps.storage(organization_id) as uow:
            await fetch(uow.personalities, "personality", personality_id)
            await uow.knowledge.add(record)
            await self.jobs.enqueue(uow, "knowledge.process", {"organization_id": organization_id, "id": record.id})
            await uow.commit()
        self.jobs.wake()
        return public(record, KnowledgeItem)

    @staticmethod
    async def _mine(uow: UnitOfWork, personality_id: str, item_id: str) -> KnowledgeRecord:
        return await fetch_owned(uow.personalities, "personality", personality_id, uow.knowledge, "knowledge_item",
                                 item_id, "personality_id")

    async def get(self, organization_id: str, personality_id: str, item_id: str) -> KnowledgeItem:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            return public(await self._mine(uow, personality_id, item_id), KnowledgeItem)

    async def list(self, organization_id: str, personality_id: str, page: PageRequest,
                   type: str | None = None) -> Page[KnowledgeItem]:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            await fetch(uow.personalities, "personality", personality_id)
            records, more = await uow.knowledge.page(page, personality_id=personality_id, **given(type=type))
        return page_of(records, more, KnowledgeItem)

    async def delete(self, organization_id: str, personality_id: str, item_id: str) -> Deleted:
        async with self.deps.storage(organization_id) as uow:
            record = await self._mine(uow, personality_id, item_id)
            chunk_ids = [c.id for c in await uow.chunks.find(knowledge_item_id=record.id)]
            await uow.chunks.delete_where(knowledge_item_id=record.id)
            await uow.knowledge.delete(record.id)
            version = await uow.vector_versions.bump(namespace(personality_id), chunk_ids)
            await uow.commit()
        await self.semantic.apply(namespace(personality_id), version, removed=chunk_ids)
        return Deleted(id=record.id, object="knowledge_item")

    def _source(self, uow: UnitOfWork, personality_id: str) -> Source:
        columns, embedder = ("id", "knowledge_item_id", "embedding"), self.semantic.embedder_name

        async def everything() -> Stored:
            return stored(await uow.chunks.columns(columns, personality_id=personality_id,
                                                   embedder=embedder))

        async def some(ids: Sequence[str]) -> Stored:
            return stored(await uow.chunks.columns(columns, id=list(ids), personality_id=personality_id,
                                                   embedder=embedder))

        return Source(everything, some)

    async def ranked_by_vector(self, uow: UnitOfWork, personality_id: str, vector: bytes, limit: int,
                               min_relevance: float = 0.0) -> Hits:
        ns = namespace(personality_id)
        source = self._source(uow, personality_id)
        await fresh(uow, self.semantic, ns, source)
        for attempt in range(3):
            hits = await self.semantic.search(ns, vector, limit)
            hits = [(ident, max(0.0, min(1.0, score))) for ident, score in hits]
            hits = [(ident, score) for ident, score in hits if score >= min_relevance]
            chunks = {c.id: c for c in await uow.chunks.get_many([i for i, _ in hits])} if hits else {}
            if len(chunks) == len(hits) or attempt == 2:
                break
            await rows_missing(uow, self.semantic, ns, source, [i for i, _ in hits if i not in chunks])
        return [KnowledgeHit(knowledge_item_id=chunks[i].knowledge_item_id, content=chunks[i].content,
                             relevance=round(score, 4)) for i, score in hits if i in chunks]

    async def search(self, organization_id: str, personality_id: str, data: KnowledgeSearch
                     ) -> KnowledgeSearchResult:
        [vector] = await self.semantic.embed([data.query])  # before the unit of work (see Memories.search)
        async with self.deps.storage(organization_id, read_only=True) as uow:
            await fetch(uow.personalities, "personality", personality_id)
            hits = await self.ranked_by_vector(uow, personality_id, vector, data.limit, data.min_relevance)
        return KnowledgeSearchResult(data=hits)


def _check(data: KnowledgeCreate, upload: Upload | None, max_upload: int) -> None:
    """Which fields each type needs (the spec: url for url/feed, content for text)."""
    if upload is not None:
        if data.type != "document":
            raise Invalid("A file upload is a knowledge item of type 'document'", param="type")
        if len(upload.data) > max_upload:
            raise TooLarge(f"Uploads are limited to {max_upload} bytes", param="file")
        if not upload.data:
            raise Invalid("The uploaded file is empty", param="file")
        return
    if data.type == "text":
        if not data.content or not data.content.strip():
            raise Invalid("A 'text' item needs non-empty 'content'", param="content")
        if data.url is not None:
            raise Invalid("A 'text' item takes 'content', not 'url'", param="url")
    elif data.type in ("url", "feed"):
        if data.url is None:
            raise Invalid(f"A '{data.type}' item needs 'url'", param="url")
        if data.content is not None:
            raise Invalid(f"A '{data.type}' item takes 'url', not 'content'", param="content")
    elif (data.url is None) == (data.content is None):
        raise Invalid("A 'document' item needs exactly one of 'url', 'content' or a file upload", param="url")
    elif data.content is not None and not data.content.strip():
        raise Invalid("'content' is empty", param="content")
    if data.refresh_interval != "never" and data.type not in ("url", "feed") and not (
            data.type == "document" and data.url):
        raise Invalid("refresh_interval applies to items fetched from a URL", param="refresh_interval")
