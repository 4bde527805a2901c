"""The in-memory unit of work and storage for unit tests: copy-on-write drafts, one writer at a time."""

from __future__ import annotations

import asyncio
import copy
import itertools
from types import TracebackType
from typing import Any, Self

from avatar_service.adapters.in_memory.queues import (
    MemoryApiKeys,
    MemoryJobs,
    MemoryOutbox,
    MemoryTranscripts,
    MemoryVectorVersions,
)
from avatar_service.adapters.in_memory.repository import MemoryRepository, Row
from avatar_service.core import model as m

TABLES = (
    "organizations",
    "api_keys",
    "personalities",
    "users",
    "memories",
    "knowledge",
    "chunks",
    "conversations",
    "transcripts",
    "videos",
    "avatars",
    "game_sessions",
    "webhooks",
    "deliveries",
    "outbox",
    "jobs",
    "vector_versions",
    "vector_changes",
)
Tables = dict[str, dict[Any, Row]]


class MemoryUnitOfWork:
    """Reads see the last commit until the first write; from then on a private draft of the tables.

    Writers take the storage's one writer lock at their first write and hold it until commit or exit,
    as SQLite serialises writers (and PostgreSQL row locks make a conditional update wait and re-check).
    Every statement replaces a table's dict whole and rows are never changed in place, so a draft is
    a shallow copy and commit() a single swap.
    """

    def __init__(self, storage: MemoryStorage, organization_id: str | None) -> None:
        self.storage, self.org = storage, organization_id
        self._draft: Tables | None = None

    def _repo(self, table: str, record: Any) -> Any:
        return MemoryRepository(self, table, record, self.org)

    async def __aenter__(self) -> Self:
        self.organizations = self._repo("organizations", m.Organization)
        self.api_keys = MemoryApiKeys(self, "api_keys", m.ApiKeyRecord, self.org)
        self.personalities = self._repo("personalities", m.PersonalityRecord)
        self.users = self._repo("users", m.UserRecord)
        self.memories = self._repo("memories", m.MemoryRecord)
        self.knowledge = self._repo("knowledge", m.KnowledgeRecord)
        self.chunks = self._repo("chunks", m.Chunk)
        self.conversations = self._repo("conversations", m.ConversationRecord)
        self.transcripts = MemoryTranscripts(self)
        self.videos = self._repo("videos", m.VideoRecord)
        self.avatars = self._repo("avatars", m.AvatarRecord)
        self.game_sessions = self._repo("game_sessions", m.GameSessionRecord)
        self.webhooks = self._repo("webhooks", m.WebhookRecord)
        self.deliveries = self._repo("deliveries", m.DeliveryRecord)
        self.outbox = MemoryOutbox(self)
        self.jobs = MemoryJobs(self)
        self.vector_versions = MemoryVectorVersions(self)
        return self

    def read(self, table: str) -> dict[Any, Row]:
        return (self._draft if self._draft is not None else self.storage.data)[table]

    async def lock(self) -> None:
        """Starts the draft under the writer lock (once per transaction)."""
        if self._draft is None:
            await self.storage.acquire()
            self._draft = dict(self.storage.data)

    def replace(self, table: str, rows: dict[Any, Row]) -> None:
        assert self._draft is not None, "lock() first"
        self._draft[table] = rows

    def _end(self) -> None:
        if self._draft is not None:
            self._draft = None
            self.storage.release()

    async def commit(self) -> None:
        if self._draft is not None:
            self.storage.data = self._draft
        self._end()  # as in SQL, later writes start a new transaction that exit discards

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._end()


class MemoryStorage:
    def __init__(self) -> None:
        self.data: Tables = {name: {} for name in TABLES}
        self._writer = asyncio.Lock()
        self._writer_task: asyncio.Task[Any] | None = None
        self._seq = itertools.count(1)

    def __call__(self, organization_id: str | None, *, read_only: bool = False) -> MemoryUnitOfWork:
        return MemoryUnitOfWork(self, organization_id)

    async def acquire(self) -> None:
        task = asyncio.current_task()
        if self._writer.locked() and self._writer_task is task:
            # waiting would never end; on SQLite the same nesting stalls until the busy timeout
            raise RuntimeError(
                "A unit of work writes while another one of the same task holds the writer lock"
            )
        await self._writer.acquire()
        self._writer_task = task

    def release(self) -> None:
        self._writer_task = None
        self._writer.release()

    def next_seq(self) -> int:
        return next(self._seq)

    def rows(self, table: str) -> list[Row]:
        """Copies of the committed rows of a table, in insertion order (for assertions in tests)."""
        return copy.deepcopy(list(self.data[table].values()))

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        return None
