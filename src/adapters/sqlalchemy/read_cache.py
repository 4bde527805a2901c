"""Records read by id, kept for as long as the SQLite database is unchanged.

A GET of one resource is the commonest request, and on SQLite its statement costs far more in trips through
aiosqlite's thread than in SQLite itself. This cache answers it in-process, and stays exact across processes:
`PRAGMA data_version` on a connection of its own changes whenever any other connection (of this process, of a
worker, of the CLI) commits a change to the file. Any change empties the whole cache. That costs writes nothing
and is right for the embedded default, where reads of a few hot rows dominate; PostgreSQL has no such counter
and is not cached.

The probe is a microsecond call on the event loop that never waits: its busy timeout is zero, and a busy
database (only during crash recovery) just means the cache is skipped. Entries are msgpack bytes, so every hit
decodes a record of its own that a caller may change freely.
"""

import sqlite3
from typing import Any, TypeVar

import msgspec

R = TypeVar("R", bound=msgspec.Struct)
Key = tuple[str, str | None, str]  # table, organization (None: any), id
CAPACITY = 10_000


class ReadCache:
    def __init__(self, database_path: str, capacity: int = CAPACITY) -> None:
        self.path, self.capacity = database_path, capacity
        self._probe: sqlite3.Connection | None = None
        self._version: int | None = None
        self._entries: dict[Key, bytes] = {}
        self._encoder = msgspec.msgpack.Encoder()

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
            self._entries.clear()
            self._version = version
        return version

    def get(self, key: Key, kind: type[R]) -> R | None:
        data = self._entries.get(key)
        return msgspec.msgpack.decode(data, type=kind) if data is not None else None

    def put(self, key: Key, record: Any, read_at: int | None) -> None:
        """Keep `record`, read at version `read_at`, unless the database moved on since: a write that committed
        while it was being read may have changed it."""
        if read_at is None or read_at != self._version:
            return
        if len(self._entries) >= self.capacity:
            del self._entries[next(iter(self._entries))]  # the oldest entry
        self._entries[key] = self._encoder.encode(record)

    def close(self) -> None:
        if self._probe is not None:
            self._probe.close()
            self._probe = None
        self._entries.clear()
