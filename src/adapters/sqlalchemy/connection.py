"""A unit of work's connection, checked out of the pool by its first statement."""

from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine


class LazyConnection:
    """Opens (and begins) on the first `execute`: a read answered from the read cache never takes a pooled
    connection, nor a trip through aiosqlite's thread."""

    __slots__ = ("engine", "opened", "read_only")

    def __init__(self, engine: AsyncEngine, read_only: bool) -> None:
        self.engine, self.read_only = engine, read_only
        self.opened: AsyncConnection | None = None

    @property
    def dialect(self) -> Dialect:
        return self.engine.dialect

    async def open(self) -> AsyncConnection:
        if self.opened is None:
            conn = await self.engine.connect()
            try:
                if self.read_only:
                    await conn.execution_options(avatar_read_only=True)
                await conn.begin()
            except BaseException:
                await conn.close()
                raise
            self.opened = conn
        return self.opened

    async def execute(self, statement: Any, parameters: Any = None) -> Any:
        conn = self.opened or await self.open()
        return await (conn.execute(statement) if parameters is None else conn.execute(statement, parameters))
