"""SQLite statements in one trip to aiosqlite's thread instead of four.

SQLAlchemy's aiosqlite cursor makes a separate trip through aiosqlite's worker thread for each DB-API call of
a statement: make the cursor, execute, fetch the rows, close. Each trip comes back through the event loop,
behind whatever else is ready there. Under load that wait is what a statement costs. A writer pays it while
it holds SQLite's single write lock, so every other writer pays it too: at 64 clients a one-row insert held
the lock for about 9 ms, against about 3 ms unloaded. This cursor runs the whole statement in one call on
the connection's thread and keeps what SQLAlchemy reads afterwards: description, rowcount, lastrowid, rows.

It relies on two private names, `aiosqlite.Connection._execute` (queue a function for the connection's
thread) and `._conn` (its sqlite3 connection). Both have been there since aiosqlite 0.17; the tests that use
SQLite exercise every path here.
"""

from __future__ import annotations

import collections
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.util.concurrency import await_

_Outcome = tuple[Any, int, int | None, list[Any]]


def _run(connection: sqlite3.Connection, call: Callable[[sqlite3.Cursor], Any]) -> _Outcome:
    cursor = connection.cursor()
    try:
        call(cursor)
        description = cursor.description
        return description, cursor.rowcount, cursor.lastrowid, cursor.fetchall() if description else []
    finally:
        cursor.close()


class OneTripCursor(AsyncAdapt_aiosqlite_cursor):
    """A buffered cursor whose statement runs, fetches and closes in one call on aiosqlite's thread."""

    __slots__ = ("_description", "_lastrowid", "_rowcount")

    def __init__(self, adapt_connection: Any) -> None:  # makes no cursor of its own: no trip
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._cursor = None  # type: ignore[assignment]
        self._soft_closed_memoized = {}  # type: ignore[assignment]
        self._rows = collections.deque()
        self._description: Any = None
        self._rowcount: int = -1
        self._lastrowid: int | None = None

    @property
    def description(self) -> Any:
        return self._description

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> Any:
        return self._lastrowid

    @property
    def arraysize(self) -> int:
        return 1

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        pass

    async def _in_one_trip(self, call: Callable[[sqlite3.Cursor], Any]) -> None:
        connection: aiosqlite.Connection = self._connection  # type: ignore[assignment]
        async with self._adapt_connection._execute_mutex:
            outcome: _Outcome = await connection._execute(_run, connection._conn, call)
        self._description, self._rowcount, self._lastrowid, rows = outcome
        self._rows = collections.deque(rows)

    async def _execute_async(self, operation: Any, parameters: Any = None) -> None:
        if parameters is None:
            await self._in_one_trip(lambda cursor: cursor.execute(operation))
        else:
            await self._in_one_trip(lambda cursor: cursor.execute(operation, parameters))

    async def _executemany_async(self, operation: Any, seq_of_parameters: Sequence[Any]) -> None:
        await self._in_one_trip(lambda cursor: cursor.executemany(operation, seq_of_parameters))

    async def _async_soft_close(self) -> None:
        return None  # nothing open: the statement's cursor closed on the thread

    def close(self) -> None:
        self._rows.clear()


class _OneTripConnection(AsyncAdapt_aiosqlite_connection):
    __slots__ = ()
    _cursor_cls = OneTripCursor


class OneTripDBAPI(AsyncAdapt_aiosqlite_dbapi):
    """The aiosqlite DB-API module whose connections make `OneTripCursor`s: `create_async_engine(module=...)`."""

    def connect(self, *arg: Any, **kw: Any) -> _OneTripConnection:
        connection = aiosqlite.connect(*arg, **kw)
        connection._thread.daemon = True  # as SQLAlchemy's own: a pooled connection never holds up exit
        return _OneTripConnection(self, await_(connection))  # type: ignore[arg-type]  # as SQLAlchemy's own


def one_trip_dbapi() -> OneTripDBAPI:
    return OneTripDBAPI(aiosqlite, sqlite3)
