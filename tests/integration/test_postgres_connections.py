"""PostgreSQL: a pooled connection the server closed (a restart, an administrator) never fails a request.

The pool no longer pings on every checkout (three round trips); instead a connection whose socket closed is
replaced at checkout, and a reader that meets a just-closed one runs its read again on a new one.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from avatar_service.adapters.sqlalchemy import SqlStorage
from avatar_service.core.model import PersonalityRecord

ORG = "org_aaaaaaaaaaaaaaaaaaaaaaaa"
NOW = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)


@pytest.fixture
async def storage(postgres_database: str) -> AsyncIterator[SqlStorage]:
    sql = SqlStorage(postgres_database)
    async with sql(None) as uow:
        await uow.personalities.delete_where(id="personality_restart")
        await uow.personalities.add(PersonalityRecord(id="personality_restart", name="Ada", created_at=NOW,
                                                      updated_at=NOW, organization_id=ORG))
        await uow.commit()
    yield sql
    await sql.close()


async def backend_of(storage: SqlStorage) -> int:
    """The server process behind the pool's one connection (used one at a time, the pool holds just one)."""
    async with storage(None, read_only=True) as uow:
        pid: int = (await uow.connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
        return pid


async def terminate(url: str, pid: int) -> None:
    admin = await asyncpg.connect(make_url(url).set(drivername="postgresql").render_as_string(hide_password=False))
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await admin.close()


async def name(storage: SqlStorage) -> str | None:
    async with storage(ORG, read_only=True) as uow:
        record = await uow.personalities.get("personality_restart")
        return record.name if record else None


async def test_a_read_right_after_its_connection_was_closed_is_run_again(storage: SqlStorage,
                                                                         postgres_database: str) -> None:
    first = await backend_of(storage)
    await terminate(postgres_database, first)
    assert await name(storage) == "Ada"  # at once: the socket may not even be seen closed yet
    assert await backend_of(storage) != first


async def test_a_closed_connection_is_replaced_at_checkout(storage: SqlStorage, postgres_database: str) -> None:
    first = await backend_of(storage)
    await terminate(postgres_database, first)
    await asyncio.sleep(0.3)  # the driver has seen the socket close
    async with storage(ORG) as uow:  # a writer, which is never run twice: its connection must be sound
        assert await uow.personalities.set("personality_restart", name="Grace")
        await uow.commit()
    assert await name(storage) == "Grace"
