"""A unit of work's connection, checked out of the pool by its first statement."""

from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine


class LazyConnection:
    """Opens (and begins) on the first `execute`: a read answered from the read cache never takes a pooled
    connection, nor a trip through aiosqlite's thread."""

    __slots__ = ("engine", "opened", "options")

    def __init__(self, engine: AsyncEngine, options: dict[str, Any] | None = None) -> None:
        """`options`: execution options set before the first statement (a reader's: no transaction)."""
        self.engine, self.options = engine, options
        self.opened: AsyncConnection | None = None

    @property
    def dialect(self) -> Dialect:
        return self.engine.dialect

    async def open(self) -> AsyncConnection:
        if self.opened is None:
            conn = await self.engine.connect()
            try:
                if self.options:
                    await conn.execution_options(**self.options)
                await conn.begin()
            except BaseException:
                await conn.close()
                raise
            self.opened = conn
        return self.opened

    async def execute(self, statement: Any, parameters: Any = None) -> Any:
        conn = self.opened or await self.open()
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

    @staticmethod
    async def _run(conn: AsyncConnection, statement: Any, parameters: Any) -> Any:
        return await (conn.execute(statement) if parameters is None else conn.execute(statement, parameters))
