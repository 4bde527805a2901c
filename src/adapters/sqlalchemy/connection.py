"""A unit of work's connection, checked out of the pool by its first statement."""

from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from avatar_service.core.errors import Conflict

AUTOCOMMIT = {"isolation_level": "AUTOCOMMIT"}


def conflict(error: IntegrityError) -> Conflict:
    return Conflict("The resource conflicts with one that exists", code="resource_exists")


class LazyConnection:
    """Opens (and begins) on the first `execute`: a read answered from the read cache never takes a pooled
    connection, nor a trip through aiosqlite's thread.

    A writer that `defers` (PostgreSQL's) also holds back inserts whose result nobody reads until the next
    statement or the commit. A unit of work that only inserts one row then costs one round trip, the insert in
    autocommit, instead of three (BEGIN, INSERT, COMMIT): on a loopback or LAN connection each round trip's
    system calls were most of a write's CPU. Anything else runs the held-back inserts first, in a transaction, so
    the order of statements, and what the unit of work reads, are as if they had run at once.
    """

    __slots__ = ("deferring", "engine", "held", "opened", "options")

    def __init__(self, engine: AsyncEngine, options: dict[str, Any] | None = None, *, deferring: bool = False) -> None:
        """`options`: execution options set before the first statement (a reader's: no transaction)."""
        self.engine, self.options, self.deferring = engine, options, deferring
        self.opened: AsyncConnection | None = None
        self.held: list[tuple[Any, Any]] = []

    @property
    def dialect(self) -> Dialect:
        return self.engine.dialect

    async def open(self, options: dict[str, Any] | None = None) -> AsyncConnection:
        if self.opened is None:
            conn = await self.engine.connect()
            try:
                if options or self.options:
                    await conn.execution_options(**(options or self.options or {}))
                await conn.begin()
            except BaseException:
                await conn.close()
                raise
            self.opened = conn
        return self.opened

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

    async def _release_held(self, conn: AsyncConnection) -> None:
        held, self.held = self.held, []
        for statement, parameters in held:
            try:
                await self._run(conn, statement, parameters)
            except IntegrityError as error:
                raise conflict(error) from error

    async def execute(self, statement: Any, parameters: Any = None) -> Any:
        conn = self.opened or await self.open()
        if self.held:
            await self._release_held(conn)
        try:
            return await self._run(conn, statement, parameters)
        except DBAPIError as error:
            # A reader whose pooled connection the server had just closed (a restart): the read is safe to
            # run again, once, on a new connection. A writer's error stands (its transaction is gone).
            if self.options is None or not error.connection_invalidated:
                raise
        await conn.close()
        self.opened = None
        return await self._run(await self.open(), statement, parameters)

    async def commit(self) -> None:
        """Commits what ran; a lone held-back insert runs now in autocommit (one round trip)."""
        if self.opened is None and len(self.held) == 1:
            await self.open(AUTOCOMMIT)
        elif self.opened is None and self.held:
            await self.open()
        if self.opened is not None:
            await self._release_held(self.opened)
            await self.opened.commit()

    def discard(self) -> None:
        """Forgets the held-back inserts (a unit of work left without committing)."""
        self.held.clear()

    @staticmethod
    async def _run(conn: AsyncConnection, statement: Any, parameters: Any) -> Any:
        return await (conn.execute(statement) if parameters is None else conn.execute(statement, parameters))
