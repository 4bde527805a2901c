"""PostgreSQL's side of the read cache: a LISTEN connection that drops changed rows, and the barrier that
makes a cached read exact (see `read_cache.py` for why it is exact).

The triggers of migration 0009 send `table:id1,id2,...` (up to 50 ids) or just `table` (a bigger change, a
TRUNCATE) on the channel `avatar_cache` when an UPDATE or DELETE of a cached table commits. The connection is
asyncpg's own (no pool, no SQLAlchemy), opened on first use in the running event loop; while it is down the
cache is empty and every read goes to the database, and it is opened again at most once a second.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from typing import Any

from sqlalchemy.engine import make_url

from avatar_service.adapters.sqlalchemy.read_cache import CAPACITY, ReadCache

log = logging.getLogger(__name__)

CHANNEL = "avatar_cache"
# The tables whose rows are cached on PostgreSQL: exactly those migration 0009 put triggers on. A table
# added later is read from the database until a migration gives it the trigger and it is named here.
CACHED_TABLES = frozenset({
    "organizations", "personalities", "users", "memories", "knowledge_items", "conversations",
    "video_generations", "avatars", "game_sessions", "webhooks",
})
BARRIER_TIMEOUT = 2.0  # a barrier not back by then: the connection is dropped and reads go to the database
RETRY_AFTER = 1.0


def asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresReadCache(ReadCache):
    def __init__(self, url: str, capacity: int = CAPACITY) -> None:
        super().__init__(capacity, CACHED_TABLES)
        self.dsn = asyncpg_dsn(url)
        self.barrier_channel = f"avatar_cache_barrier_{os.getpid()}_{secrets.token_hex(4)}"
        self._conn: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._connecting: asyncio.Future[bool] | None = None
        self._failed_at = 0.0
        self._sequence = 0
        self._waiting: dict[str, asyncio.Future[None]] = {}
        self._in_flight: str | None = None
        self._next: asyncio.Future[None] | None = None
        self.barriers = 0
        self._tasks: set[asyncio.Task[Any]] = set()  # referenced until done (the loop keeps weak references)

    # --- the connection ---------------------------------------------------------------------------------

    async def _ready(self) -> bool:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a new event loop (tests, a restarted runner): the old connection is gone
            self._drop()
            self._loop = loop
        if self._conn is not None:
            return True
        if time.monotonic() - self._failed_at < RETRY_AFTER:
            return False
        if self._connecting is None:
            self._connecting = loop.create_future()
            self._tasks.add(task := loop.create_task(self._connect(self._connecting)))
            task.add_done_callback(self._tasks.discard)
        return await asyncio.shield(self._connecting)

    async def _connect(self, done: asyncio.Future[bool]) -> None:
        import asyncpg

        conn = None
        try:
            conn = await asyncpg.connect(self.dsn, statement_cache_size=0)
            # The barrier's NOTIFY commits a transaction; nothing is lost if that commit is not flushed.
            await conn.execute("SET synchronous_commit TO off")
            await conn.add_listener(CHANNEL, self._on_change)
            await conn.add_listener(self.barrier_channel, self._on_barrier)
            conn.add_termination_listener(lambda _conn: self._drop())
            self.clear()  # whatever changed while nobody listened
            self._conn = conn
            done.set_result(True)
        except Exception as error:
            log.warning("read cache: cannot listen on PostgreSQL (%s); reads go to the database", error)
            if conn is not None:
                conn.terminate()
            self._failed_at = time.monotonic()
            done.set_result(False)
        finally:
            self._connecting = None

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        self.clear()
        for future in [*self._waiting.values(), *([self._next] if self._next else [])]:
            if not future.done():
                future.set_exception(ConnectionError("the cache's connection closed"))
        self._waiting.clear()
        self._in_flight = self._next = None
        if conn is not None and not conn.is_closed():
            try:
                conn.terminate()
            except Exception:
                pass

    def _on_change(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        table, _, ids = payload.partition(":")
        self.invalidate(table, ids.split(",") if ids else None)

    # --- the barrier ------------------------------------------------------------------------------------

    def _on_barrier(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        future = self._waiting.pop(payload, None)
        if future is not None and not future.done():
            future.set_result(None)
        if payload == self._in_flight:
            self._in_flight = None
            if self._next is not None:
                self._start(self._next)
                self._next = None

    def _start(self, future: asyncio.Future[None]) -> None:
        self._sequence += 1
        tag = str(self._sequence)
        self._waiting[tag] = future
        self._in_flight = tag
        self.barriers += 1
        task = asyncio.get_running_loop().create_task(self._conn.execute(f"NOTIFY {self.barrier_channel}, '{tag}'"))
        self._tasks.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("read cache: barrier failed (%s)", task.exception())
            self._drop()

    def _barrier(self) -> asyncio.Future[None]:
        """A barrier sent after this call: the one in flight may have been sent before it."""
        if self._in_flight is None:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._start(future)
            return future
        if self._next is None:
            self._next = asyncio.get_running_loop().create_future()
        return self._next

    async def token(self) -> int | None:
        """The generation once every change committed before this call is applied; None: read the database."""
        if not await self._ready():
            return None
        try:
            await asyncio.wait_for(asyncio.shield(self._barrier()), BARRIER_TIMEOUT)
        except (TimeoutError, ConnectionError):
            self._drop()
            self._failed_at = time.monotonic()
            return None
        return self.generation

    def close(self) -> None:
        self._drop()
        self._loop = None

    async def aclose(self) -> None:
        conn, self._conn = self._conn, None
        self._drop()
        if conn is not None and not conn.is_closed():
            await conn.close()
