"""The SQL unit of work and the storage that opens it, on SQLite or PostgreSQL."""

from pathlib import Path
from types import TracebackType
from typing import Any, Self

import anyio
from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from avatar_service.adapters.sqlalchemy import tables as t
from avatar_service.adapters.sqlalchemy.queues import SqlApiKeys, SqlJobs, SqlOutbox, SqlTranscripts
from avatar_service.adapters.sqlalchemy.repository import SqlRepository
from avatar_service.core import model as m


class SqlUnitOfWork:
    def __init__(self, engine: AsyncEngine, organization_id: str | None) -> None:
        self.engine, self.org = engine, organization_id
        self._conn: AsyncConnection | None = None
        self._committed = False

    def _repo(self, table: Any, record: Any) -> Any:
        assert self._conn is not None
        return SqlRepository(self._conn, table, record, self.org)

    async def __aenter__(self) -> Self:
        conn = self._conn = await self.engine.connect()
        await conn.begin()
        self.organizations = self._repo(t.organizations, m.Organization)
        self.api_keys = SqlApiKeys(conn, t.api_keys, m.ApiKeyRecord, self.org)
        self.personalities = self._repo(t.personalities, m.PersonalityRecord)
        self.users = self._repo(t.users, m.UserRecord)
        self.memories = self._repo(t.memories, m.MemoryRecord)
        self.knowledge = self._repo(t.knowledge_items, m.KnowledgeRecord)
        self.chunks = self._repo(t.chunks, m.Chunk)
        self.conversations = self._repo(t.conversations, m.ConversationRecord)
        self.transcripts = SqlTranscripts(conn)
        self.videos = self._repo(t.videos, m.VideoRecord)
        self.game_sessions = self._repo(t.game_sessions, m.GameSessionRecord)
        self.webhooks = self._repo(t.webhooks, m.WebhookRecord)
        self.deliveries = self._repo(t.deliveries, m.DeliveryRecord)
        self.outbox = SqlOutbox(conn)
        self.jobs = SqlJobs(conn)
        return self

    async def commit(self) -> None:
        assert self._conn is not None
        await self._conn.commit()
        self._committed = True

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        assert self._conn is not None
        # Shielded: a cancelled caller must still end its transaction, or SQLite's write lock leaks.
        with anyio.CancelScope(shield=True):
            try:
                if not self._committed:
                    await self._conn.rollback()
            finally:
                await self._conn.close()


def _sqlite_setup(engine: AsyncEngine) -> None:
    """WAL for concurrent readers; BEGIN IMMEDIATE so two writers queue instead of deadlocking."""

    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def create_engine(url: str) -> AsyncEngine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, pool_size=8, max_overflow=8)
        _sqlite_setup(engine)
        return engine
    return create_async_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


class SqlStorage:
    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = create_engine(url)

    def __call__(self, organization_id: str | None) -> SqlUnitOfWork:
        return SqlUnitOfWork(self.engine, organization_id)

    async def ping(self) -> bool:
        try:
            async with self.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
            return True
        except Exception:
            return False

    async def close(self) -> None:
        await self.engine.dispose()
