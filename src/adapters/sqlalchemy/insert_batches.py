"""Lone inserts of concurrent units of work, sent to PostgreSQL together (a group insert).

A PostgreSQL unit of work whose only statement is one insert (a POST that creates one resource) commits it alone, in
autocommit (connection.py). Under load many of them commit at once, and each paid a pooled connection, SQLAlchemy's
execution path and a round trip for its one row: about two thirds of such a POST's CPU. Here, while `SENDERS` batches
of a table are being sent, the next inserts into it wait for one of them to finish and then go together as one
executemany in autocommit (one statement or asyncpg's pipelined executemany: either way atomic, and one round trip).
An insert with nothing to wait for goes at once, so batching adds no latency when there is nothing to batch with.

Each caller's commit returns once its rows are committed, as before. A batch that fails is sent again one caller at a
time, so each caller gets its own outcome (a unique external_id taken, a value the database refuses) and no row is
refused because of a neighbour's. A batch is sent by a task of its own: a caller that goes away (a client that
disconnected) does not cut the statement of the others in half.
"""

import asyncio
from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from avatar_service.adapters.sqlalchemy.connection import AUTOCOMMIT, conflict

# Batches of one table in flight at once. More senders mean smaller batches (more CPU per row); fewer mean an insert
# waits longer for a sender under a light load. Two: one insert alone never waits, and under load a batch holds
# the inserts that arrived during about half a round trip.
SENDERS = 2

_Waiting = list[tuple[list[dict[str, Any]], asyncio.Future[None]]]


class InsertBatches:
    def __init__(self, engine: AsyncEngine, senders: int = SENDERS) -> None:
        self.engine, self.senders = engine, senders
        self._waiting: dict[Any, _Waiting] = {}
        self._sending: dict[Any, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()  # referenced until done (the loop keeps weak references)

    async def insert(self, statement: Any, rows: Sequence[dict[str, Any]]) -> None:
        """Inserts and commits `rows` (atomically), with the rows of other callers when they come at once. A unique
        or foreign-key violation is a `Conflict`, as from any insert (connection.py)."""
        rows = list(rows)
        key = (statement, tuple(rows[0]))  # one executemany needs one statement and one set of columns
        future = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, []).append((rows, future))
        if self._sending.get(key, 0) < self.senders:
            self._sending[key] = self._sending.get(key, 0) + 1
            task = asyncio.get_running_loop().create_task(self._send_while_waiting(key, statement))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        await future

    async def wait(self) -> None:
        """Until the batches being sent are in (before the engine closes: their callers may have gone away)."""
        while self._tasks:
            await asyncio.wait(list(self._tasks))

    async def _send_while_waiting(self, key: Any, statement: Any) -> None:
        try:
            while batch := self._waiting.pop(key, None):
                await self._send(statement, batch)
        finally:
            self._sending[key] -= 1
            if not self._sending[key]:
                del self._sending[key]

    async def _send(self, statement: Any, batch: _Waiting) -> None:
        try:
            await self._run(statement, [row for rows, _ in batch for row in rows])
        except Exception as error:
            if len(batch) == 1:
                _settle(batch[0][1], error)
                return
            for rows, future in batch:  # one at a time: each caller gets its own outcome
                try:
                    await self._run(statement, rows)
                except Exception as alone:
                    _settle(future, alone)
                else:
                    _settle(future, None)
        else:
            for _, future in batch:
                _settle(future, None)

    async def _run(self, statement: Any, rows: list[dict[str, Any]]) -> None:
        async with self.engine.connect() as conn:
            await conn.run_sync(_insert, statement, rows)


def _insert(conn: Connection, statement: Any, rows: list[dict[str, Any]]) -> None:
    conn.execution_options(**AUTOCOMMIT)
    conn.execute(statement, rows)


def _settle(future: asyncio.Future[None], error: Exception | None) -> None:
    if future.done():  # its caller went away: the rows are in (or not) all the same
        return
    if error is None:
        future.set_result(None)
    elif isinstance(error, IntegrityError):
        found = conflict(error)
        found.__cause__ = error
        future.set_exception(found)
    else:
        future.set_exception(error)
