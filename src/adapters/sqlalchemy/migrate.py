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
