"""Records read by id, answered in-process and kept exact across processes, on SQLite and PostgreSQL.

A GET of one resource is the commonest request, and its statement costs far more in the driver (aiosqlite's
thread, SQLAlchemy and asyncpg's round trip) than in the database. This cache answers it from memory. It is
exact, not timed: a read that starts after a write was acknowledged, in any process, sees the write.

- **SQLite**: `PRAGMA data_version` on a connection of its own changes whenever any other connection (of this
  process, of a worker, of the CLI) commits a change to the file. Any change empties the whole cache. The
  probe is a microsecond call on the event loop that never waits (busy timeout zero; a busy database, only
  during crash recovery, just means the cache is skipped).
- **PostgreSQL** (`pg_listener.py`): triggers on the cached tables `NOTIFY` the ids a committed UPDATE or
  DELETE touched (migration 0009), and a connection of this process `LISTEN`s and drops those entries. A
  notification arrives a moment after its commit, so before answering from memory a unit of work waits for a
  barrier: a `NOTIFY` of its own, on the listening connection, sent after the unit of work began. The queue
  delivers notifications in commit order, so once the barrier comes back every change committed before it
  has been applied. Concurrent readers share one barrier (one round trip on one connection, with no
  SQLAlchemy in the way), which is far cheaper than the read it replaces. Inserts need no notification (a
  missing id is never kept), so creating rows costs nothing.

Entries are msgpack bytes, so every hit decodes a record of its own that a caller may change freely. A
record is only kept if nothing invalidated it while it was being read.
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict, deque
from typing import Any, Protocol, TypeVar

import msgspec

R = TypeVar("R", bound=msgspec.Struct)
Key = tuple[str, str]  # table, id
CAPACITY = 10_000
RECENT = 4096  # invalidations remembered, to tell whether one hit a record being read


class Freshness(Protocol):
    """How a backend tells that the cache is exact right now."""

    def close(self) -> None: ...


class ReadCache:
    """The entries and their invalidation; `token()` comes from the backend's check."""

    def __init__(self, capacity: int = CAPACITY, tables: frozenset[str] | None = None) -> None:
        self.capacity = capacity
        self.tables = tables  # None: every table (SQLite: any commit empties everything)
        self.generation = 0  # bumped by every invalidation
        self.hits = self.misses = 0
        self._entries: OrderedDict[Key, tuple[str | None, bytes]] = OrderedDict()
        self._recent: deque[tuple[int, str, str | None]] = deque(maxlen=RECENT)
        self._encoder = msgspec.msgpack.Encoder()

    def caches(self, table: str) -> bool:
        return self.tables is None or table in self.tables

    def get(self, key: Key, organization: str | None, kind: type[R]) -> R | None:
        found = self._entries.get(key)
        if found is None or found[0] != organization:
            self.misses += 1
            return None
        self.hits += 1
        return msgspec.msgpack.decode(found[1], type=kind)

    def put(self, key: Key, organization: str | None, record: Any, read_at: int | None) -> None:
        """Keep `record`, read after generation `read_at`, unless it was invalidated since: a write that
        committed while it was being read may have changed it."""
        if read_at is None or self._invalidated_since(read_at, key):
            return
        if len(self._entries) >= self.capacity:
            self._entries.popitem(last=False)  # the oldest entry
        self._entries[key] = (organization, self._encoder.encode(record))

    def _invalidated_since(self, generation: int, key: Key) -> bool:
        if generation == self.generation:
            return False
        if not self._recent or self._recent[0][0] > generation + 1:
            return True  # more happened than is remembered
        for seen, table, ident in reversed(self._recent):
            if seen <= generation:
                return False
            if table == key[0] and ident in (None, key[1]):
                return True
        return False

    def invalidate(self, table: str, ids: list[str] | None) -> None:
        """Drops these rows of `table` (None: all of it)."""
        if ids is None:
            self.generation += 1
            self._recent.append((self.generation, table, None))
            for key in [k for k in self._entries if k[0] == table]:
                del self._entries[key]
            return
        for ident in ids:
            self.generation += 1
            self._recent.append((self.generation, table, ident))
            self._entries.pop((table, ident), None)

    def clear(self) -> None:
        self.generation += 1
        self._recent.clear()  # with the deque empty, every read under way is refused by put()
        self._entries.clear()


class SqliteReadCache(ReadCache):
    """SQLite: the file's `data_version`; any commit by anyone empties the cache."""

    def __init__(self, database_path: str, capacity: int = CAPACITY) -> None:
        super().__init__(capacity)
        self.path = database_path
        self._probe: sqlite3.Connection | None = None
        self._version: int | None = None

    def version(self) -> int | None:
        """The database's version now, emptying the cache if it moved; None when it cannot be told."""
        version: int | None = None
        try:
            if self._probe is None:
                self._probe = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=0)
            version = self._probe.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            pass  # unknown: nothing is kept, nothing is answered from memory
        if version != self._version or version is None:
            self.clear()
            self._version = version
        return self.generation if version is not None else None

    async def token(self) -> int | None:
        return self.version()

    def close(self) -> None:
        if self._probe is not None:
            self._probe.close()
            self._probe = None
        self.clear()


class CacheSession:
    """One read-only unit of work's view: the exactness check runs once, at its first read by id."""

    __slots__ = ("_checked", "_token", "cache")

    def __init__(self, cache: Any) -> None:
        self.cache = cache
        self._token: int | None = None
        self._checked = False

    async def token(self) -> int | None:
        if not self._checked:
            self._token = await self.cache.token()
            self._checked = True
        return self._token

    def caches(self, table: str) -> bool:
        return bool(self.cache.caches(table))
