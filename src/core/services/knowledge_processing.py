"""The knowledge job: obtain text, chunk it, embed it, swap the item's chunks in one transaction."""

import logging
from datetime import timedelta
from typing import Any

from avatar_service.core.knowledge.chunking import chunk_text
from avatar_service.core.model import Chunk, ErrorInfo, KnowledgeItem, KnowledgeRecord, public, replace
from avatar_service.core.model.knowledge import PREVIEW_CHARS, REFRESH_SECONDS
from avatar_service.core.services.base import Deps, emit
from avatar_service.core.services.knowledge import namespace
from avatar_service.core.states import check_move
from avatar_service.ports.extractor import ExtractError, TextExtractor
from avatar_service.ports.fetcher import Fetcher, FetchError
from avatar_service.ports.jobs import JobQueue
from avatar_service.ports.offload import Offload
from avatar_service.ports.semantic import Semantic

log = logging.getLogger(__name__)
CHUNK_TOKENS = 200  # well inside MiniLM's 256-piece window, leaving room for special tokens
OVERLAP_TOKENS = 30


class Failed(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


class KnowledgeProcessor:
    def __init__(self, deps: Deps, jobs: JobQueue, semantic: Semantic, fetcher: Fetcher,
                 extractor: TextExtractor, offload: Offload) -> None:
        self.deps, self.jobs, self.semantic = deps, jobs, semantic
        self.fetcher, self.extractor, self.offload = fetcher, extractor, offload

    async def __call__(self, payload: dict[str, Any]) -> None:
        org, item_id = payload["organization_id"], payload["id"]
        async with self.deps.storage(org) as uow:
            record = await uow.knowledge.get(item_id)
            if record is None:
                return  # deleted meanwhile
            if record.status != "processing":  # a re-run after a crash finds it processing already
                record = replace(record, status=check_move("knowledge_item", record.status, "processing"),
                                 updated_at=self.deps.clock.now())
                await uow.knowledge.update(record)
                await uow.commit()
        try:
            text = await self._text(record)
            pieces = await self.offload(chunk_text, text, self.semantic.count_tokens, CHUNK_TOKENS, OVERLAP_TOKENS)
            if not pieces:
                raise Failed("content_empty", "No text could be extracted from the content")
            vectors = await self.semantic.embed([p.text for p in pieces])
        except (Failed, FetchError, ExtractError) as error:
            await self._finish(record, error=ErrorInfo(code=error.code, message=error.message))
            return
        except Exception as error:  # a bug must still end the item, never leave it processing
            log.exception("knowledge processing failed for %s", item_id)
            await self._finish(record, error=ErrorInfo(code="processing_failed", message=str(error)[:300]))
            return
        chunks = [
            Chunk(id=self.deps.ids.new("chunk"), organization_id=org, personality_id=record.personality_id,
                  knowledge_item_id=record.id, ordinal=i, content=p.text, token_count=p.token_count,
                  embedding=vec, embedder=self.semantic.embedder_name)
            for i, (p, vec) in enumerate(zip(pieces, vectors, strict=True))
        ]
        await self._finish(record, chunks=chunks, text=text)

    async def _text(self, record: KnowledgeRecord) -> str:
        if record.upload is not None:
            return await self.offload(self.extractor.text, record.upload, record.upload_type or "", None)
        if record.content is not None:
            return record.content
        assert record.source_url is not None
        fetched = await self.fetcher.fetch(record.source_url)
        if record.type == "feed":
            entries = await self.offload(self.extractor.feed, fetched.body)
            return "\n\n".join(f"{e.title}\n{e.text}".strip() for e in entries)
        return await self.offload(self.extractor.text, fetched.body, fetched.content_type, fetched.url)

    async def _finish(self, record: KnowledgeRecord, *, chunks: list[Chunk] | None = None, text: str = "",
                      error: ErrorInfo | None = None) -> None:
        now = self.deps.clock.now()
        org = record.organization_id
        ns = namespace(record.personality_id)
        async with self.deps.storage(org) as uow:
            current = await uow.knowledge.get(record.id)
            if current is None:
                return
            old_ids = [c.id for c in await uow.chunks.find(knowledge_item_id=record.id)]
            if error is None:
                assert chunks is not None
                # The swap is one transaction: searches see the old chunks or the new ones, never half.
                await uow.chunks.delete_where(knowledge_item_id=record.id)
                await uow.chunks.add_many(chunks)
                changes: dict[str, Any] = {
                    "status": check_move("knowledge_item", current.status, "ready"),
                    "chunk_count": len(chunks), "token_count": sum(c.token_count for c in chunks),
                    "content_preview": text[:PREVIEW_CHARS], "error": None,
                }
            else:
                changes = {"status": check_move("knowledge_item", current.status, "failed"), "error": error}
            interval = REFRESH_SECONDS.get(current.refresh_interval)
            if interval:
                changes["next_refresh_at"] = next_at = now + timedelta(seconds=interval)
                await self.jobs.enqueue(uow, "knowledge.process", {"organization_id": org, "id": record.id},
                                        run_at=next_at)
            updated = replace(current, **changes, updated_at=now)
            await uow.knowledge.update(updated)
            await emit(uow, self.deps, org, "knowledge.processed", public(updated, KnowledgeItem))
            await uow.commit()
        if chunks is not None:
            await self.semantic.remove(ns, old_ids)
            await self.semantic.upsert(ns, [c.id for c in chunks], [c.embedding for c in chunks],
                                       [c.knowledge_item_id for c in chunks])
