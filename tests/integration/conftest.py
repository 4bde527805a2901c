"""Integration fixtures: the real HTTP app on a real SQLite file and a real PostgreSQL database, with keys.

Every test that takes `database_url` (directly or through `service`/`client`) runs twice: on SQLite and on
PostgreSQL.

- SQLite: the migrations run once per session into a template file; each test gets a fresh copy of it in its
  own `tmp_path`, so nothing leaks between tests.
- PostgreSQL: the server is a testcontainers `PostgresContainer` when a Docker engine answers, else the one
  named by `AVATAR_TEST_POSTGRES_URL` (e.g. `postgresql+asyncpg://postgres@127.0.0.1:5432/test`). When there
  is neither, the PostgreSQL half of every test is SKIPPED with that reason (never passed in silence).
  One uniquely named database is created per test session (through the admin connection, with asyncpg), the
  migrations run into it once, and it is dropped at the end. Between tests every table except
  `alembic_version` is truncated. A transaction rolled back per test (the usual habit) does not work here:
  the app opens its own connections from its own pool for every unit of work and the job runner, and commits
  them, so a per-test truncate is the practical way to a clean state.

Background work is driven deterministically: the app runs without its embedded worker and tests call
`service.drain()` (`DatabaseJobQueue.drain()`), which runs every due job and the outbox dispatcher.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from avatar_service.adapters.sqlalchemy import SqlStorage
from avatar_service.adapters.sqlalchemy.migrate import upgrade
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.http.app import create_app
from avatar_service.entrypoints.settings import load_settings

from .helpers import Receiver, Service

POSTGRES_ENV = "AVATAR_TEST_POSTGRES_URL"
T = TypeVar("T")


@pytest.fixture(autouse=True)
def _root_logging_restored() -> Iterator[None]:
    """An `avatar` command run in-process (CliRunner) points the root logger at the runner's stderr, which is closed
    when the command returns: every later log line then failed and printed a stack trace, slowing the rest of the
    run. Each test leaves the root logger as it found it."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


# --- databases ---------------------------------------------------------------------------------------


def _run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Runs session-level async set-up on a loop of its own (a test's loop may already be running)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def _migrate(url: str) -> None:
    storage = SqlStorage(url)
    try:
        await upgrade(storage.engine)
    finally:
        await storage.close()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file; each test copies it instead of running Alembic again."""
    path = tmp_path_factory.mktemp("sqlite-template") / "template.db"
    _run(_migrate(f"sqlite+aiosqlite:///{path}"))
    return path


def _dsn(url: str) -> str:
    """A SQLAlchemy URL as a plain DSN asyncpg accepts."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _postgres_from_docker() -> tuple[str, Any] | None:
    try:
        try:
            from testcontainers.community.postgres import PostgresContainer
        except ImportError:
            from testcontainers.postgres import PostgresContainer

        container = PostgresContainer("postgres:16-alpine", driver="asyncpg")
        container.start()
    except Exception:  # no Docker engine, no image, no permission: fall back to the environment
        return None
    return container.get_connection_url(), container


@pytest.fixture(scope="session")
def postgres_admin_url() -> Iterator[str]:
    """A PostgreSQL server to create test databases on, or a skip that says why there is none."""
    found = _postgres_from_docker()
    if found is not None:
        url, container = found
        try:
            yield url
        finally:
            container.stop()
        return
    url = os.environ.get(POSTGRES_ENV, "").strip()
    if not url:
        pytest.skip(
            f"PostgreSQL tests need a Docker engine (for testcontainers) or {POSTGRES_ENV}="
            "postgresql+asyncpg://USER@HOST:PORT/DB; neither is available"
        )
    yield url


async def _admin(url: str, statement: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(_dsn(url))
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def postgres_database(postgres_admin_url: str) -> Iterator[str]:
    """A database of its own for this test session, migrated once, dropped at the end."""
    name = f"avatar_test_{uuid.uuid4().hex[:12]}"
    url = make_url(postgres_admin_url)
    if not url.drivername.startswith("postgresql+"):
        url = url.set(drivername="postgresql+asyncpg")
    try:
        _run(_admin(postgres_admin_url, f'CREATE DATABASE "{name}"'))
    except Exception as error:
        pytest.skip(f"cannot create a test database on {url.render_as_string()}: {error!r}")
    test_url = url.set(database=name).render_as_string(hide_password=False)
    try:
        _run(_migrate(test_url))
        yield test_url
    finally:
        _run(_admin(postgres_admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def _truncate_all(url: str) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            rows = await conn.exec_driver_sql(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                "AND tablename <> 'alembic_version'"
            )
            names = ", ".join(f'"{row[0]}"' for row in rows)
            if names:
                await conn.exec_driver_sql(f"TRUNCATE TABLE {names} RESTART IDENTITY CASCADE")
    finally:
        await engine.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated, empty database of each backend."""
    if request.param == "sqlite":
        path = tmp_path / "avatar.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite+aiosqlite:///{path}"
    url: str = request.getfixturevalue("postgres_database")
    await _truncate_all(url)
    return url


# --- the app ------------------------------------------------------------------------------------------


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    """Extra settings for the app; a module overrides this fixture (e.g. allow_private_urls=True)."""
    return {}


@pytest.fixture
async def service(
    database_url: str, tmp_path: Path, settings_overrides: dict[str, Any]
) -> AsyncIterator[Service]:
    options = {"embedder": "lexical", "secret_key": "integration-tests", **settings_overrides}
    settings = load_settings({}, database_url=database_url, data_dir=str(tmp_path / "data"), **options)
    container = bootstrap.embedded(settings)
    app = create_app(container, run_worker=False)
    async with AsyncTestClient(app) as client:
        service = Service(
            container, client, "", "", "sqlite" if database_url.startswith("sqlite") else "postgres"
        )
        service.organization_id = await service.organization("default")
        service.secret = await service.make_key("*", name="root")
        client.headers["Authorization"] = f"Bearer {service.secret}"
        yield service


@pytest.fixture
def client(service: Service) -> AsyncTestClient[Any]:
    """The test client, sending the '*' key of organization `default` unless a test passes other headers."""
    return service.client


@pytest.fixture
def key(service: Service) -> str:
    """The secret of the '*' key the client sends by default."""
    return service.secret


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A local HTTP server recording what it receives (needs allow_private_urls in the app's settings)."""
    with Receiver() as running:
        yield running
