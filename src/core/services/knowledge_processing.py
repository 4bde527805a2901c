"""The knowledge job: obtain text, chunk it, embed it, swap the item's chunks in one transaction.

Runs are safe to repeat. A job that runs again after a crash finds its item `processing` and does the
work again; one that finds its item already `ready` or `failed` (the crash came after the result was
committed) does nothing. A scheduled refresh carries the `next_refresh_at` it was scheduled for and runs
only while the item still has that value, so an item processed twice never grows two refresh chains.
`sweep` (at start and every few minutes) gives an unfinished item whose job row is gone a new job.

Feeds grow: each entry is chunked on its own, entries already indexed (by id or link, `feed_keys`) are
skipped, and entries that left the feed keep their chunks. A url or document refresh replaces the
item's chunks in one transaction, so a search sees the old chunks or the new ones, never half of each.
A refresh that fails marks the item `failed` with the error and keeps the last good chunks searchable.
"""

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from avatar_service.core.knowledge.chunking import Chunk as Piece
from avatar_service.core.knowledge.chunking import chunk_text
from avatar_service.core.model import Chunk, ErrorInfo, KnowledgeItem, KnowledgeRecord, public, replace
from avatar_service.core.model.jobs import JobKind
from avatar_service.core.model.knowledge import PREVIEW_CHARS, REFRESH_SECONDS
from avatar_service.core.services.base import Deps, emit
from avatar_service.core.services.knowledge import namespace
from avatar_service.core.services.sentence_vectors import sentence_vectors
from avatar_service.core.states import check_move
from avatar_service.ports.extractor import ExtractError, TextExtractor
from avatar_service.ports.fetcher import Fetcher, FetchError
from avatar_service.ports.jobs import JobQueue
from avatar_service.ports.offload import Offload
from avatar_service.ports.semantic import Semantic

log = logging.getLogger(__name__)
CHUNK_TOKENS = 200  # well inside MiniLM's 256-piece window, leaving room for special tokens
OVERLAP_TOKENS = 30
JOB: JobKind = "knowledge.process"
UNFINISHED = ["pending", "processing"]
STALE_SECONDS = 600.0  # an item untouched this long while unfinished, or a refresh this overdue, is swept


class Failed(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@dataclass(slots=True)
class Content:
    """What one run indexes: `sections` are chunked separately (a feed's new entries, or one document)."""

    sections: list[str]
    preview: str
    feed_keys: list[str] | None = None
    additive: bool = False  # a feed re-fetch: the new entries' chunks join the ones indexed before
    pieces: list[Piece] = field(default_factory=list)


def chunk_sections(sections: Sequence[str], count: Callable[[str], int]) -> list[Piece]:
    return [piece for text in sections for piece in chunk_text(text, count, CHUNK_TOKENS, OVERLAP_TOKENS)]


class KnowledgeProcessor:
    def __init__(self, deps: Deps, jobs: JobQueue, semantic: Semantic, fetcher: Fetcher,
                 extractor: TextExtractor, offload: Offload) -> None:
        self.deps, self.jobs, self.semantic = deps, jobs, semantic
        self.fetcher, self.extractor, self.offload = fetcher, extractor, offload

    async def __call__(self, payload: dict[str, Any]) -> None:
        org, item_id = payload["organization_id"], payload["id"]
        refresh_at = payload.get("refresh_at")
        async with self.deps.storage(org) as uow:
            record = await uow.knowledge.get(item_id)
            if record is None:
                return  # deleted meanwhile
            if refresh_at is None and record.status not in UNFINISHED:
                return  # a repeat of a run whose result is committed already
            if refresh_at is not None and _stamp(record) != refresh_at:
                return  # a superseded refresh: the item was processed since and scheduled its own
            if record.status != "processing":  # a re-run after a crash finds it processing already
                record = replace(record, status=check_move("knowledge_item", record.status, "processing"),
                                 updated_at=self.deps.clock.now())
                await uow.knowledge.update(record)
                await uow.commit()
        try:
            content = await self._content(record)
            content.pieces = await self.offload(chunk_sections, content.sections, self.semantic.count_tokens)
            if not content.pieces and not content.additive:
                raise Failed("content_empty", "No text could be extracted from the content")
            vectors = await self.semantic.embed([p.text for p in content.pieces])
        except (Failed, FetchError, ExtractError) as error:
            await self._finish(record, error=ErrorInfo(code=error.code, message=error.message))
            return
        except Exception as error:  # a bug must still end the item, never leave it processing
            log.exception("knowledge processing failed for %s", item_id)
            await self._finish(record, error=ErrorInfo(code="processing_failed", message=str(error)[:300]))
            return
        try:  # the offline answerer ranks their sentences: embedded now, before the item is ready, not in a turn
            await sentence_vectors(self.semantic).warm([p.text for p in content.pieces])
        except Exception:  # they are embedded after the turn that first needs them instead
            log.exception("embedding the sentences of %s failed", item_id)
        await self._finish(record, content=content, vectors=vectors)

    async def _content(self, record: KnowledgeRecord) -> Content:
        if record.upload is not None:
            text = await self.offload(self.extractor.text, record.upload, record.upload_type or "", None)
            return Content([text], text)
        if record.content is not None:
            return Content([record.content], record.content)
        assert record.source_url is not None
        fetched = await self.fetcher.fetch(record.source_url)
        if record.type != "feed":
            text = await self.offload(self.extractor.text, fetched.body, fetched.content_type, fetched.url)
            return Content([text], text)
        entries = await self.offload(self.extractor.feed, fetched.body)
        known = set(record.feed_keys or ())
        everything = [f"{e.title}\n\n{e.text}".strip() for e in entries]
        new_keys: list[str] = []
        sections: list[str] = []
        for entry, text in zip(entries, everything, strict=True):
            if entry.key not in known:
                known.add(entry.key)  # also skips an entry a feed lists twice
                new_keys.append(entry.key)
                sections.append(text)
        return Content(sections, "\n\n".join(everything), feed_keys=[*(record.feed_keys or ()), *new_keys],
                       additive=record.feed_keys is not None)

    async def _finish(self, record: KnowledgeRecord, *, content: Content | None = None,
                      vectors: list[bytes] | None = None, error: ErrorInfo | None = None) -> None:
        now = self.deps.clock.now()
        org = record.organization_id
        ns = namespace(record.personality_id)
        added: list[Chunk] = []
        removed: list[str] = []
        version: int | None = None
        async with self.deps.storage(org) as uow:
            current = await uow.knowledge.get(record.id)
            if current is None or current.status != "processing":
                return  # deleted meanwhile, or a concurrent run of the same item finished first
            existing = await uow.chunks.find(knowledge_item_id=record.id)
            changes: dict[str, Any]
            if content is not None:
                assert vectors is not None
                kept = existing if content.additive else []
                first = max((c.ordinal for c in kept), default=-1) + 1
                added = [
                    Chunk(id=self.deps.ids.new("chunk"), organization_id=org, personality_id=record.personality_id,
                          knowledge_item_id=record.id, ordinal=first + i, content=p.text, token_count=p.token_count,
                          embedding=vec, embedder=self.semantic.embedder_name)
                    for i, (p, vec) in enumerate(zip(content.pieces, vectors, strict=True))
                ]
                if not content.additive:
                    # The swap is one transaction: searches see the old chunks or the new ones, never half.
                    removed = [c.id for c in existing]
                    await uow.chunks.delete_where(knowledge_item_id=record.id)
                await uow.chunks.add_many(added)
                changes = {
                    "status": check_move("knowledge_item", current.status, "ready"),
                    "chunk_count": len(kept) + len(added),
                    "token_count": sum(c.token_count for c in kept) + sum(c.token_count for c in added),
                    "content_preview": content.preview[:PREVIEW_CHARS], "error": None,
                    "feed_keys": content.feed_keys,
                }
                if added or removed:
                    version = await uow.vector_versions.bump(ns, [*removed, *(c.id for c in added)])
            else:
                changes = {"status": check_move("knowledge_item", current.status, "failed"), "error": error}
            interval = REFRESH_SECONDS.get(current.refresh_interval)
            if interval and current.source_url is not None:
                changes["next_refresh_at"] = next_at = now + timedelta(seconds=interval)
                await self.jobs.enqueue(uow, JOB, {"organization_id": org, "id": record.id,
                                                   "refresh_at": next_at.isoformat()}, run_at=next_at)
            updated = replace(current, **changes, updated_at=now)
            await uow.knowledge.update(updated)
            await emit(uow, self.deps, org, "knowledge.processed", public(updated, KnowledgeItem))
            await uow.commit()
        if version is not None:
            await self.semantic.apply(ns, version, ids=[c.id for c in added], vectors=[c.embedding for c in added],
                                      groups=[c.knowledge_item_id for c in added], removed=removed)

    async def sweep(self, stale_after: float = STALE_SECONDS) -> int:
        """Queues a job for every unfinished item that has none, and re-arms overdue refreshes whose job is
        gone (a job row lost, or dropped after its last attempt). Only items untouched for `stale_after`
        seconds count: with a queue that keeps its jobs elsewhere (procrastinate) the jobs table says
        nothing, and the pause keeps a backlog from being queued twice. Returns how many jobs it queued."""
        now = self.deps.clock.now()
        cutoff = now - timedelta(seconds=stale_after)
        queued = 0
        async with self.deps.storage(None) as uow:
            jobs = await uow.jobs.queued(JOB)
            waiting = {j.payload.get("id") for j in jobs if "refresh_at" not in j.payload}
            refreshes = {(j.payload.get("id"), j.payload["refresh_at"]) for j in jobs if "refresh_at" in j.payload}
            for record in await uow.knowledge.find(status=UNFINISHED):
                if (record.updated_at or record.created_at) > cutoff:
                    continue
                if record.id not in waiting and (record.id, _stamp(record)) not in refreshes:
                    await self.jobs.enqueue(uow, JOB, {"organization_id": record.organization_id, "id": record.id})
                    await uow.knowledge.set(record.id, updated_at=now)  # re-queued: not again for a while
                    queued += 1
            for record in await uow.knowledge.due("next_refresh_at", cutoff, 1000):
                if record.status not in UNFINISHED and (record.id, _stamp(record)) not in refreshes:
                    await self.jobs.enqueue(uow, JOB, {"organization_id": record.organization_id, "id": record.id,
                                                       "refresh_at": _stamp(record)})
                    queued += 1
            if queued:
                await uow.commit()
        if queued:
            log.info("knowledge sweep queued %d job(s) for items left without one", queued)
            self.jobs.wake()
        return queued


def _stamp(record: KnowledgeRecord) -> str | None:
    return record.next_refresh_at.isoformat() if record.next_refresh_at else None
