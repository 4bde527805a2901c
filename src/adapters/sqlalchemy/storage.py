"""The SQL unit of work and the storage that opens it, on SQLite or PostgreSQL."""

from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import anyio
from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from avatar_service.adapters.sqlalchemy import tables as t
from avatar_service.adapters.sqlalchemy.connection import LazyConnection
from avatar_service.adapters.sqlalchemy.insert_batches import InsertBatches
from avatar_service.adapters.sqlalchemy.pg_listener import PostgresReadCache
from avatar_service.adapters.sqlalchemy.queues import (
    SqlApiKeys,
    SqlJobs,
    SqlOutbox,
    SqlTranscripts,
    SqlVectorVersions,
)
from avatar_service.adapters.sqlalchemy.read_cache import CacheSession, SqliteReadCache
from avatar_service.adapters.sqlalchemy.repository import SqlRepository
from avatar_service.adapters.sqlalchemy.sqlite_one_trip import OneTripConnection, one_trip_dbapi
from avatar_service.core import model as m

CLOSE_GRACE = 10.0  # seconds closing waits for open units of work

REPOSITORIES: dict[str, tuple[Any, Any, Any]] = {
    "organizations": (SqlRepository, t.organizations, m.Organization),
    "api_keys": (SqlApiKeys, t.api_keys, m.ApiKeyRecord),
    "personalities": (SqlRepository, t.personalities, m.PersonalityRecord),
    "users": (SqlRepository, t.users, m.UserRecord),
    "memories": (SqlRepository, t.memories, m.MemoryRecord),
    "knowledge": (SqlRepository, t.knowledge_items, m.KnowledgeRecord),
    "chunks": (SqlRepository, t.chunks, m.Chunk),
    "conversations": (SqlRepository, t.conversations, m.ConversationRecord),
    "transcripts": (SqlTranscripts, None, None),
    "videos": (SqlRepository, t.videos, m.VideoRecord),
    "avatars": (SqlRepository, t.avatars, m.AvatarRecord),
    "game_sessions": (SqlRepository, t.game_sessions, m.GameSessionRecord),
    "webhooks": (SqlRepository, t.webhooks, m.WebhookRecord),
    "deliveries": (SqlRepository, t.deliveries, m.DeliveryRecord),
    "outbox": (SqlOutbox, None, None),
    "jobs": (SqlJobs, None, None),
    "vector_versions": (SqlVectorVersions, None, None),
}


class SqlUnitOfWork:
    def __init__(self, storage: "SqlStorage", organization_id: str | None, read_only: bool) -> None:
        self.org, self.read_only = organization_id, read_only
        # Writers hold back their inserts (see LazyConnection and, on SQLite, sqlite_one_trip)
        self.connection = LazyConnection(storage.engine, storage.read_only_options if read_only else None,
                                         deferring=not read_only, batches=None if read_only else storage.insert_batches)
        # Reads of this unit of work by id may be answered from the cache; a writer reads the database
        self._cache = CacheSession(storage.read_cache) if read_only and storage.read_cache is not None else None
        self._write_lock = None if read_only else storage.write_lock
        self._storage = storage
        self._committed = False

    async def __aenter__(self) -> Self:
        self._storage.entered()
        if self._write_lock is None:
            return self  # connects on its first statement, if any
        try:
            await self._write_lock.acquire()
        except BaseException:
            self._storage.left()
            raise
        try:
            await self.connection.open()  # the pooled connection now; its BEGIN goes with the first statement
        except BaseException:
            self._write_lock.release()
            self._storage.left()
            raise
        return self

    def __getattr__(self, name: str) -> Any:
        """Repositories are made on first use: most units of work touch one or two of them."""
        if name not in REPOSITORIES:
            raise AttributeError(name)
        kind, table, record = REPOSITORIES[name]
        repo = kind(self.connection, table, record, self.org, self._cache) if record else kind(self.connection)
        setattr(self, name, repo)
        return repo

    async def commit(self) -> None:
        await self.connection.commit()
        self._committed = True
        if self.connection.wrote_work:  # its rows are visible to other connections now
            for listener in self._storage.work_listeners:
                listener()

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        try:
            await self._end()
        finally:
            self._storage.left()

    async def _end(self) -> None:
        self.connection.discard()
        conn = self.connection.opened
        if conn is None and self._write_lock is None:
            return  # a read answered without the database: nothing to end
        # Shielded: a cancelled caller must still end its transaction, or SQLite's write lock leaks.
        with anyio.CancelScope(shield=True):
            try:
                if conn is not None and not self._committed and not self.read_only:  # a reader began nothing
                    await conn.rollback()
            finally:
                try:
                    if conn is not None:
                        await conn.close()
                finally:  # whatever the connection did, the next writer must not wait for ever
                    if self._write_lock is not None:
                        self._write_lock.release()


def _sqlite_setup(engine: AsyncEngine) -> None:
    """WAL so readers never wait; writers BEGIN IMMEDIATE so two of them queue instead of deadlocking.

    A read-only unit of work begins no transaction at all (see `_begin`): each SELECT reads its own snapshot.
    """

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
        # Read-only: no BEGIN at all, each SELECT reads its own WAL snapshot (and the round trips of
        # BEGIN and ROLLBACK through aiosqlite's thread were most of a read's cost).
        if conn.get_execution_options().get("avatar_read_only"):
            return
        dbapi_connection = conn.connection.dbapi_connection
        if isinstance(dbapi_connection, OneTripConnection):
            dbapi_connection.hold_begin()  # sent with the first statement, in its trip
        else:
            conn.exec_driver_sql("BEGIN IMMEDIATE")


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL; None for another database or an in-memory one."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return parsed.database


def create_engine(url: str) -> AsyncEngine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        # Units of work always end their own transactions, so the pool need not roll back on return.
        engine = create_async_engine(url, module=one_trip_dbapi(), pool_size=8, max_overflow=8,
                                     pool_reset_on_return=None)
        _sqlite_setup(engine)
        return engine
    # Connections open on demand and all 40 are kept: an overflow connection is closed on return, so with 30
    # kept and 10 more allowed, 32 concurrent writers (plus the embedded worker) opened and closed one every
    # hundred requests or so, each a TLS probe, a startup and the dialect's codec set-up (2-3% of a write's CPU).
    # The ceiling is the same 40 per process as before.
    engine = create_async_engine(url, pool_size=40, max_overflow=0)
    _postgres_setup(engine)
    return engine


def _postgres_setup(engine: AsyncEngine) -> None:
    """A pooled connection the server has closed (a restart) is replaced when it is checked out.

    The driver knows at once when its socket closed, so this costs no round trip; `pool_pre_ping` cost three
    on every checkout (BEGIN, an empty query, ROLLBACK), half of a read's time.
    """

    @event.listens_for(engine.sync_engine, "checkout")
    def _checkout(_dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        driver = record.driver_connection
        is_closed = getattr(driver, "is_closed", None)  # asyncpg; psycopg has a `closed` property
        if is_closed() if callable(is_closed) else getattr(driver, "closed", False):
            raise DisconnectionError("the server closed this connection")


class SqlStorage:
    def __init__(self, url: str, *, read_cache: bool = True) -> None:
        self.url = url
        self.open_units = 0  # units of work entered and not yet left: closing waits for them
        self._drained: anyio.Event | None = None  # made by a close that waits, in its own event loop
        self.engine = create_engine(url)
        sqlite_file = sqlite_path(url)
        # SQLite has one writer at a time: writers of this process queue here, in order, instead of
        # sleeping in SQLite's busy handler (whose back-off sleeps made p99 latency explode under load).
        self.write_lock = anyio.Lock() if self.engine.dialect.name == "sqlite" else None
        self.read_cache: SqliteReadCache | PostgresReadCache | None = (
            SqliteReadCache(sqlite_file) if sqlite_file
            else PostgresReadCache(url) if self.engine.dialect.name == "postgresql" and read_cache else None)
        # A reader takes no transaction: each SELECT reads its own snapshot (READ COMMITTED would take a new
        # one per statement anyway), and BEGIN and ROLLBACK were two of a read's round trips. SQLite's is the
        # BEGIN its `begin` listener leaves out; PostgreSQL's is autocommit, a setting of the driver's only.
        self.read_only_options: dict[str, Any] = (
            {"avatar_read_only": True} if self.engine.dialect.name == "sqlite" else {"isolation_level": "AUTOCOMMIT"})
        # Called after each commit that added jobs or outbox events (the job queue's wake-up). The unit of work
        # knows what it added: engine-wide statement and commit events had put every statement of the process
        # through SQLAlchemy's event dispatch (about 8% of a write's CPU) to find the few that write work.
        self.work_listeners: list[Callable[[], None]] = []
        self.insert_batches = InsertBatches(self.engine) if self.engine.dialect.name == "postgresql" else None

    def __call__(self, organization_id: str | None, *, read_only: bool = False) -> SqlUnitOfWork:
        return SqlUnitOfWork(self, organization_id, read_only)

    async def ping(self) -> bool:
        try:
            async with self.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
            return True
        except Exception:
            return False

    def entered(self) -> None:
        self.open_units += 1

    def left(self) -> None:
        self.open_units -= 1
        if self.open_units == 0 and self._drained is not None:
            self._drained.set()

    async def close(self) -> None:
        """Units of work still open (a request finishing, a room's last reply being stored) end first, for at
        most CLOSE_GRACE seconds. One cut off here had its connection torn down as the event loop shut down:
        aiosqlite's close, cancelled midway, then waited for a thread that had already stopped, and the loop's
        shutdown hung with it."""
        if self.open_units:
            self._drained = anyio.Event()
            with anyio.move_on_after(CLOSE_GRACE):
                await self._drained.wait()
        if isinstance(self.read_cache, PostgresReadCache):
            await self.read_cache.aclose()
        elif self.read_cache is not None:
            self.read_cache.close()
        if self.insert_batches is not None:
            await self.insert_batches.wait()
        await self.engine.dispose()
