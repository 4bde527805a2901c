"""What every command shares: settings, the container for the profile, migrations."""

import asyncio
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import punq

from avatar_service.adapters.sqlalchemy.migrate import upgrade
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.logs import configure_logging
from avatar_service.entrypoints.settings import Settings, load_settings
from avatar_service.ports.jobs import JobRunner

T = TypeVar("T")


def settings(**overrides: Any) -> Settings:
    config = load_settings(**{k: v for k, v in overrides.items() if v is not None})
    configure_logging(config.log_level, config.log_format)
    return config


def tell(config: Settings, message: str) -> None:
    """A note for whoever started the command, on stderr: plain text, or a log line when the logs are JSON
    (so stderr stays one JSON object per line for a log collector)."""
    if config.log_format == "json":
        logging.getLogger("avatar_service.cli").info(message)
    else:
        print(message, file=sys.stderr)


def share_metrics(config: Settings) -> None:
    """`avatar serve` (each of its --workers) and `avatar worker`: metrics go to files in one folder
    (prometheus-client's multiprocess mode), so the /metrics of any API process on this machine reports every
    process's requests, jobs and deliveries. Files are never removed here: counters keep adding up across
    restarts, which Prometheus reads as it should; empty the folder only while every process is stopped."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR") or str(config.metrics_path.resolve())
    os.makedirs(folder, exist_ok=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder  # inherited by uvicorn's worker processes
    if "prometheus_client" in sys.modules:  # its storage was chosen at import: too late for files
        from avatar_service.adapters.prometheus_metrics import multiprocess

        if not multiprocess():
            logging.getLogger(__name__).warning("prometheus_client was imported before %s was set: this "
                                                "process's metrics stay in memory", folder)


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
