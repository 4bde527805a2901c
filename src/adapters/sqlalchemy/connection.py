"""A unit of work's connection, checked out of the pool by its first statement."""

from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from avatar_service.adapters.sqlalchemy.sqlite_one_trip import holding
from avatar_service.core.errors import Conflict

AUTOCOMMIT = {"isolation_level": "AUTOCOMMIT"}


def conflict(error: IntegrityError) -> Conflict:
    return Conflict("The resource conflicts with one that exists", code="resource_exists")


class LazyConnection:
    """Opens (and begins) on the first `execute`: a read answered from the read cache never takes a pooled
    connection, nor a trip through aiosqlite's thread.

    A writer that `defers` also holds back inserts whose result nobody reads until the next statement or the
    commit. On PostgreSQL a unit of work that only inserts one row then costs one round trip, the insert in
    autocommit, instead of three (BEGIN, INSERT, COMMIT): on a loopback or LAN connection each round trip's
    system calls were most of a write's CPU. Anything else runs the held-back inserts first, in a transaction, so
    the order of statements, and what the unit of work reads, are as if they had run at once. On SQLite they go
    further: they are sent in the trip of the next statement or of the COMMIT (`sqlite_one_trip.holding`).

    Each step runs its synchronous SQLAlchemy calls in one greenlet (`AsyncConnection.run_sync`): the options,
    the BEGIN, the held-back inserts, the statement and the COMMIT of a step, instead of a greenlet for each
    call. A lone insert was six (connect, options, begin, insert, commit, close) and is three; at about 15 µs
    each that was 5% of a POST's CPU.
    """

    __slots__ = ("batches", "begun", "deferring", "engine", "held", "opened", "options", "wrote_work")

    def __init__(self, engine: AsyncEngine, options: dict[str, Any] | None = None, *, deferring: bool = False,
                 batches: Any = None) -> None:
        """`options`: execution options set before the first statement (a reader's: no transaction). `batches`: an
        `InsertBatches` that sends a lone held-back insert with those of other units of work committing at once."""
        self.engine, self.options, self.deferring, self.batches = engine, options, deferring, batches
        self.opened: AsyncConnection | None = None
        self.begun = False
        self.held: list[tuple[Any, Any]] = []
        self.wrote_work = False  # a job or an outbox event was added: a worker wakes once it is committed

    @property
    def dialect(self) -> Dialect:
        return self.engine.dialect

    async def open(self) -> None:
        """Connects and begins now (a SQLite writer, holding the write lock; its BEGIN goes with its first
        statement, see sqlite_one_trip)."""
        await self._step(_nothing)

    async def _step(self, work: Callable[[Connection], Any], options: dict[str, Any] | None = None) -> Any:
        """Runs `work` on the connection, first connecting, beginning and running the held-back inserts, all in
        one greenlet. `options`: instead of the usual ones, when this step begins."""
        if self.opened is not None:
            return await self.opened.run_sync(self._run, work)
        conn = self.opened = await self.engine.connect()
        try:
            return await conn.run_sync(self._begin_and_run, options or self.options, work)
        except BaseException:
            if not self.begun:  # nothing began for the unit of work to end: the connection goes back now
                self.opened = None
                await conn.close()
            raise

    def _begin_and_run(self, conn: Connection, options: dict[str, Any] | None, work: Callable[[Connection], Any]
                       ) -> Any:
        if options:
            conn.execution_options(**options)
        conn.begin()
        self.begun = True
        return self._run(conn, work)

    def _run(self, conn: Connection, work: Callable[[Connection], Any]) -> Any:
        held, self.held = self.held, []
        try:
            if held:
                with holding(conn.connection.dbapi_connection):  # SQLite: sent with `work`'s statement, in its trip
                    for statement, parameters in held:
                        conn.execute(statement, parameters)
            return work(conn)
        except IntegrityError as error:
            if held:  # a held-back insert's violation, wherever it surfaced
                raise conflict(error) from error
            raise

    async def insert(self, statement: Any, parameters: Any) -> None:
        """An insert whose result the caller does not read: held back when deferring, else run now. A unique
        or foreign-key violation is a `Conflict`, here or from the statement or commit that runs it."""
        if self.deferring:
            self.held.append((statement, parameters))
            return
        try:
            await self.execute(statement, parameters)
        except IntegrityError as error:
            raise conflict(error) from error

    async def execute(self, statement: Any, parameters: Any = None) -> Any:
        def run(conn: Connection) -> Any:
            return conn.execute(statement) if parameters is None else conn.execute(statement, parameters)

        try:
            return await self._step(run)
        except DBAPIError as error:
            # A reader whose pooled connection the server had just closed (a restart): the read is safe to
            # run again, once, on a new connection. A writer's error stands (its transaction is gone).
            if self.options is None or not error.connection_invalidated or self.opened is None:
                raise
        await self.opened.close()
        self.opened, self.begun = None, False
        return await self._step(run)

    async def commit(self) -> None:
        """Commits what ran; a lone held-back insert runs now in autocommit (one round trip, maybe shared)."""
        if self.opened is None and not self.held:
            return
        if self.opened is None and len(self.held) == 1:
            if self.batches is not None:
                statement, parameters = self.held.pop()
                await self.batches.insert(statement, parameters if isinstance(parameters, list) else [parameters])
                return
            await self._step(Connection.commit, AUTOCOMMIT)
            return
        await self._step(Connection.commit)

    def discard(self) -> None:
        """Forgets the held-back inserts (a unit of work left without committing)."""
        self.held.clear()


def _nothing(_conn: Connection) -> None:
    return None
