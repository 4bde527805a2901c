"""SQLite statements in one trip to aiosqlite's thread instead of four.

SQLAlchemy's aiosqlite cursor makes a separate trip through aiosqlite's worker thread for each DB-API call of
a statement: make the cursor, execute, fetch the rows, close. Each trip comes back through the event loop,
behind whatever else is ready there. Under load that wait is what a statement costs. A writer pays it while
it holds SQLite's single write lock, so every other writer pays it too: at 64 clients a one-row insert held
the lock for about 9 ms, against about 3 ms unloaded. This cursor runs the whole statement in one call on
the connection's thread and keeps what SQLAlchemy reads afterwards: description, rowcount, lastrowid, rows.

A writer's statements whose results nobody reads are held back and sent with the next statement: its
`BEGIN IMMEDIATE` (`hold_begin`) and the inserts it runs while `holding` is set. A unit of work that checks
its owner, inserts two rows and commits made six trips with the write lock held and makes three: the BEGIN
goes with the first SELECT, the inserts with the COMMIT. An error of a held statement (a unique violation)
surfaces from the statement or the commit it was sent with.

It relies on two private names, `aiosqlite.Connection._execute` (queue a function for the connection's
thread) and `._conn` (its sqlite3 connection). Both have been there since aiosqlite 0.17; the tests that use
SQLite exercise every path here.
"""

from __future__ import annotations

import collections
import contextlib
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.util.concurrency import await_

_Outcome = tuple[Any, int, int | None, list[Any]]


_Held = tuple[str, Any, bool]  # operation, parameters, many
BEGIN = ("BEGIN IMMEDIATE", None, False)


def _run_held(cursor: sqlite3.Cursor, held: list[_Held]) -> None:
    for operation, parameters, many in held:
        if many:
            cursor.executemany(operation, parameters)
        elif parameters is None:
            cursor.execute(operation)
        else:
            cursor.execute(operation, parameters)


def _run(connection: sqlite3.Connection, held: list[_Held], call: Callable[[sqlite3.Cursor], Any]) -> _Outcome:
    cursor = connection.cursor()
    try:
        _run_held(cursor, held)
        call(cursor)
        description = cursor.description
        return description, cursor.rowcount, cursor.lastrowid, cursor.fetchall() if description else []
    finally:
        cursor.close()


def _commit(connection: sqlite3.Connection, held: list[_Held]) -> None:
    """Runs the held statements and commits; if either fails, rolls back. SQLAlchemy ends its own transaction at a
    failed commit and sends no ROLLBACK afterwards, and the pool does not reset a connection it takes back: a
    transaction left open here would keep SQLite's write lock on a pooled connection."""
    cursor = connection.cursor()
    try:
        _run_held(cursor, held)
        connection.commit()
    except BaseException:
        connection.rollback()
        raise
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
        adapt: OneTripConnection = self._adapt_connection  # type: ignore[assignment]
        async with adapt._execute_mutex:
            outcome: _Outcome = await connection._execute(_run, connection._conn, adapt.take_held(), call)
        self._description, self._rowcount, self._lastrowid, rows = outcome
        self._rows = collections.deque(rows)

    def _hold(self, statement: _Held, rowcount: int) -> bool:
        """Holds the statement back when its connection is `holding`, as if it had run; else False."""
        adapt: OneTripConnection = self._adapt_connection  # type: ignore[assignment]
        if not adapt.holding:
            return False
        adapt.held.append(statement)
        self._description, self._rowcount, self._lastrowid, self._rows = None, rowcount, None, collections.deque()
        return True

    async def _execute_async(self, operation: Any, parameters: Any = None) -> None:
        if self._hold((operation, parameters, False), 1):
            return
        if parameters is None:
            await self._in_one_trip(lambda cursor: cursor.execute(operation))
        else:
            await self._in_one_trip(lambda cursor: cursor.execute(operation, parameters))

    async def _executemany_async(self, operation: Any, seq_of_parameters: Sequence[Any]) -> None:
        if self._hold((operation, seq_of_parameters, True), len(seq_of_parameters)):
            return
        await self._in_one_trip(lambda cursor: cursor.executemany(operation, seq_of_parameters))

    async def _async_soft_close(self) -> None:
        return None  # nothing open: the statement's cursor closed on the thread

    def close(self) -> None:
        self._rows.clear()


class OneTripConnection(AsyncAdapt_aiosqlite_connection):
    """Makes `OneTripCursor`s, and keeps the statements they hold back until the next one or the commit."""

    __slots__ = ("held", "holding")
    _cursor_cls = OneTripCursor
    _ss_cursor_cls = OneTripCursor  # type: ignore[assignment]  # (buffered: a streamed query takes the held first too)

    def __init__(self, dbapi: Any, connection: Any) -> None:
        super().__init__(dbapi, connection)
        self.held: list[_Held] = []
        self.holding = False  # statements run now are held back (see `holding`)

    def hold_begin(self) -> None:
        """The transaction begins with the next statement, in its trip."""
        self.held.append(BEGIN)

    def take_held(self) -> list[_Held]:
        held, self.held = self.held, []
        return held

    def commit(self) -> None:
        held = self.take_held()
        if held == [BEGIN]:
            return  # nothing ran: nothing began, nothing to commit
        connection: aiosqlite.Connection = self._connection  # type: ignore[assignment]
        if not held and connection._connection is None:
            return  # closed already (as SQLAlchemy's own commit)
        try:
            await_(connection._execute(_commit, connection._conn, held))
        except Exception as error:
            self._handle_exception(error)

    def rollback(self) -> None:
        if self.take_held()[:1] == [BEGIN]:
            return  # the BEGIN was never sent: no transaction to end
        super().rollback()


@contextlib.contextmanager
def holding(dbapi_connection: Any) -> Iterator[None]:
    """Statements run inside are held back until the next statement or the commit (on SQLite; elsewhere run now)."""
    if not isinstance(dbapi_connection, OneTripConnection):
        yield
        return
    dbapi_connection.holding = True
    try:
        yield
    finally:
        dbapi_connection.holding = False


class OneTripDBAPI(AsyncAdapt_aiosqlite_dbapi):
    """The aiosqlite DB-API module whose connections make `OneTripCursor`s: `create_async_engine(module=...)`."""

    def connect(self, *arg: Any, **kw: Any) -> OneTripConnection:
        connection = aiosqlite.connect(*arg, **kw)
        connection._thread.daemon = True  # as SQLAlchemy's own: a pooled connection never holds up exit
        return OneTripConnection(self, await_(connection))  # type: ignore[arg-type]  # as SQLAlchemy's own


def one_trip_dbapi() -> OneTripDBAPI:
    return OneTripDBAPI(aiosqlite, sqlite3)
