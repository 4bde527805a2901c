"""Applies the Alembic migrations shipped in the package to a database URL."""

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).parent / "migrations"


def _config(connection: Any) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    async with engine.connect() as conn:
        await conn.run_sync(lambda sync: command.upgrade(_config(sync), revision))
        await conn.commit()


async def autogenerate(engine: AsyncEngine, message: str) -> None:
    """For developers: writes a new revision from the difference between tables.py and the database."""
    async with engine.connect() as conn:
        await conn.run_sync(lambda sync: command.revision(_config(sync), message=message, autogenerate=True))


async def revisions(engine: AsyncEngine) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The database's current revisions and the package's heads: equal when the database is up to date."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    heads = tuple(ScriptDirectory(str(MIGRATIONS)).get_heads())
    async with engine.connect() as conn:
        current = await conn.run_sync(lambda sync: tuple(MigrationContext.configure(sync).get_current_heads()))
    return current, heads
