"""Memories: manual and bulk creation, updates that re-embed, semantic search and recall."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from avatar_service.core.model import (
    Deleted,
    Memory,
    MemoryBulkCreate,
    MemoryBulkResult,
    MemoryCreate,
    MemoryHit,
    MemoryPatch,
    MemoryRecord,
    MemorySearch,
    MemorySearchResult,
    MemorySource,
    Page,
    public,
    replace,
)
from avatar_service.core.model.common import UNSET
from avatar_service.core.pagination import PageRequest
from avatar_service.core.services.base import Deps, emit, fetch, fetch_owned, page_of
from avatar_service.core.services.filters import given
from avatar_service.core.services.vector_cache import Source, Stored, fresh, rows_missing, stored
from avatar_service.ports.semantic import Semantic
from avatar_service.ports.storage import UnitOfWork

# Named here: inside the class `list` is the method.
Ranked = list[tuple[MemoryRecord, float]]


def namespace(user_id: str) -> str:
    return f"memories:{user_id}"


def relevance(cosine: float) -> float:
    """Cosine similarity as a 0..1 relevance: unrelated or opposite texts are 0."""
    return round(min(1.0, max(0.0, cosine)), 4)


class Memories:
    def __init__(self, deps: Deps, semantic: Semantic) -> None:
        self.deps = deps
        self.semantic = semantic

    async def _owner(self, uow: UnitOfWork, user_id: str, personality_id: str | None) -> None:
        await fetch(uow.users, "user", user_id)
        if personality_id is not None:
            await fetch(uow.personalities, "personality", personality_id, param="personality_id")

    def _record(self, organization_id: str, user_id: str, personality_id: str, content: str, category: str,
                source: MemorySource, embedding: bytes, now: datetime, confidence: float = 1.0) -> MemoryRecord:
        return MemoryRecord(
            id=self.deps.ids.new("memory"), user_id=user_id, personality_id=personality_id, content=content,
            created_at=now, updated_at=now, category=category, confidence=confidence,
            source=source, organization_id=organization_id, embedding=embedding,
            embedder=self.semantic.embedder_name,
        )

    async def add_records(self, uow: UnitOfWork, records: list[MemoryRecord]) -> None:
        """Stores new memories with one memory.created event each (inside the caller's transaction)."""
        await uow.memories.add_many(records)
        for record in records:
            await emit(uow, self.deps, record.organization_id, "memory.created", public(record, Memory))

    async def bump(self, uow: UnitOfWork, user_id: str, changed: Sequence[str]) -> int:
        """Marks these vectors of the user changed, inside the transaction that changes them."""
        return await uow.vector_versions.bump(namespace(user_id), changed)

    async def publish(self, user_id: str, version: int, records: Sequence[MemoryRecord] = (),
                      removed: Sequence[str] = ()) -> None:
        """After commit: brings this process's cache to `version` (other processes reload on their next search)."""
        await self.semantic.apply(namespace(user_id), version, ids=[r.id for r in records],
                                  vectors=[r.embedding for r in records], groups=[r.personality_id for r in records],
                                  removed=removed)

    async def create(self, organization_id: str, user_id: str, data: MemoryCreate) -> Memory:
        [embedding] = await self.semantic.embed([data.content])
        record = self._record(organization_id, user_id, data.personality_id, data.content, data.category,
                              MemorySource(type="manual"), embedding, self.deps.clock.now())
        async with self.deps.storage(organization_id) as uow:
            await self._owner(uow, user_id, data.personality_id)
            await self.add_records(uow, [record])
            version = await self.bump(uow, user_id, [record.id])
            await uow.commit()
        await self.publish(user_id, version, [record])
        return public(record, Memory)

    async def bulk(self, organization_id: str, user_id: str, data: MemoryBulkCreate) -> MemoryBulkResult:
        embeddings = await self.semantic.embed([item.content for item in data.memories])
        now = self.deps.clock.now()
        records = [
            self._record(organization_id, user_id, data.personality_id, item.content, item.category,
                         MemorySource(type="bulk"), embedding, now)
            for item, embedding in zip(data.memories, embeddings, strict=True)
        ]
        # One transaction for the whole batch: all of it is stored (one event each), or none.
        async with self.deps.storage(organization_id) as uow:
            await self._owner(uow, user_id, data.personality_id)
            await self.add_records(uow, records)
            version = await self.bump(uow, user_id, [r.id for r in records])
            await uow.commit()
        await self.publish(user_id, version, records)
        return MemoryBulkResult(created_count=len(records), data=[public(r, Memory) for r in records])

    @staticmethod
    async def _mine(uow: UnitOfWork, user_id: str, memory_id: str) -> MemoryRecord:
        return await fetch_owned(uow.users, "user", user_id, uow.memories, "memory", memory_id, "user_id")

    async def get(self, organization_id: str, user_id: str, memory_id: str) -> Memory:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            return public(await self._mine(uow, user_id, memory_id), Memory)

    async def list(self, organization_id: str, user_id: str, page: PageRequest,
                   personality_id: str | None = None, category: str | None = None) -> Page[Memory]:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            await fetch(uow.users, "user", user_id)
            records, more = await uow.memories.page(
                page, user_id=user_id, **given(personality_id=personality_id, category=category))
        return page_of(records, more, Memory)

    async def update(self, organization_id: str, user_id: str, memory_id: str, patch: MemoryPatch) -> Memory:
        changes: dict[str, object] = {}
        if patch.content is not UNSET:
            [changes["embedding"]] = await self.semantic.embed([patch.content])
            changes["content"] = patch.content
            changes["embedder"] = self.semantic.embedder_name
        if patch.category is not UNSET:
            changes["category"] = patch.category
        async with self.deps.storage(organization_id) as uow:
            record = await self._mine(uow, user_id, memory_id)
            record = replace(record, **changes, updated_at=self.deps.clock.now())
            await uow.memories.update(record)
            version = await self.bump(uow, user_id, [record.id]) if "embedding" in changes else None
            await uow.commit()
        if version is not None:
            await self.publish(user_id, version, [record])
        return public(record, Memory)

    async def delete(self, organization_id: str, user_id: str, memory_id: str) -> Deleted:
        async with self.deps.storage(organization_id) as uow:
            record = await self._mine(uow, user_id, memory_id)
            await uow.memories.delete(record.id)
            version = await self.bump(uow, user_id, [record.id])
            await uow.commit()
        await self.publish(user_id, version, removed=[record.id])
        return Deleted(id=record.id, object="memory")

    def _source(self, uow: UnitOfWork, user_id: str) -> Source:
        # Only vectors of the current embedder: another model's vectors live in another space.
        columns, embedder = ("id", "personality_id", "embedding"), self.semantic.embedder_name

        async def everything() -> Stored:
            return stored(await uow.memories.columns(columns, user_id=user_id, embedder=embedder))

        async def some(ids: Sequence[str]) -> Stored:
            return stored(await uow.memories.columns(columns, id=list(ids), user_id=user_id,
                                                     embedder=embedder))

        return Source(everything, some)

    async def ensure_loaded(self, uow: UnitOfWork, user_id: str) -> None:
        """The user's cached vectors, as new as storage (what another process changed is read again)."""
        await fresh(uow, self.semantic, namespace(user_id), self._source(uow, user_id))

    async def ranked_by_vector(self, uow: UnitOfWork, user_id: str, vector: bytes, personality_id: str | None,
                               limit: int, min_relevance: float = 0.0) -> Ranked:
        ns = namespace(user_id)
        source = self._source(uow, user_id)
        await fresh(uow, self.semantic, ns, source)
        for attempt in range(3):
            hits = await self.semantic.search(ns, vector, limit, personality_id)
            hits = [(ident, relevance(score)) for ident, score in hits if relevance(score) >= min_relevance]
            records = {r.id: r for r in await uow.memories.get_many([ident for ident, _ in hits])} if hits else {}
            if len(records) == len(hits) or attempt == 2:
                break
            # the search runs again rather than returning a short list
            await rows_missing(uow, self.semantic, ns, source, [ident for ident, _ in hits if ident not in records])
        return [(records[ident], score) for ident, score in hits if ident in records]

    async def search(self, organization_id: str, user_id: str, data: MemorySearch) -> MemorySearchResult:
        # Embedded before the unit of work: under load the embedding waits for a thread, and a pooled
        # connection held meanwhile is one the reads lack.
        [vector] = await self.semantic.embed([data.query])
        async with self.deps.storage(organization_id, read_only=True) as uow:
            await self._owner(uow, user_id, data.personality_id)
            ranked = await self.ranked_by_vector(uow, user_id, vector, data.personality_id, data.limit,
                                                 data.min_relevance)
        return MemorySearchResult(
            data=[MemoryHit(**{f: getattr(r, f) for f in Memory.__struct_fields__}, relevance=score)
                  for r, score in ranked])
