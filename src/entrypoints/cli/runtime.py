"""What every command shares: settings, the container for the profile, migrations."""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import punq

from avatar_service.adapters.sqlalchemy.migrate import upgrade
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import Settings, load_settings
from avatar_service.ports.jobs import JobRunner

T = TypeVar("T")


def settings(**overrides: Any) -> Settings:
    config = load_settings(**{k: v for k, v in overrides.items() if v is not None})
    logging.basicConfig(level=config.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)  # migrations are routine, not news
    return config


def container(config: Settings) -> punq.Container:
    """The profile follows the database: PostgreSQL is the server profile, anything else embedded."""
    if config.database_url.startswith("postgresql"):
        return bootstrap.server(config)
    return bootstrap.embedded(config)


async def migrated(config: Settings) -> punq.Container:
    built = container(config)
    await upgrade(built.resolve(bootstrap.Storage).engine)
    await built.resolve(JobRunner).prepare()  # e.g. procrastinate's own schema
    return built


async def migrate_and_close(config: Settings) -> None:
    """Migrations before serving: the pool is closed on the loop that opened it (asyncpg connections
    belong to their loop; closing them from the next `asyncio.run` logged "Event loop is closed")."""
    built = await migrated(config)
    await built.resolve(bootstrap.Storage).close()


def run(work: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(work())  # type: ignore[arg-type]
