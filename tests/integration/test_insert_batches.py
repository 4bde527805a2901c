"""PostgreSQL's group insert: lone inserts of concurrent units of work share statements, and each caller still gets
its own outcome (adapters/sqlalchemy/insert_batches.py)."""

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import event, func, select

from avatar_service.adapters.sqlalchemy import SqlStorage, tables
from avatar_service.core.errors import Conflict
from avatar_service.core.model import UserRecord

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
ORG = "org_aaaaaaaaaaaaaaaaaaaaaaaa"


@pytest.fixture
async def storage(postgres_database: str) -> AsyncIterator[SqlStorage]:
    sql = SqlStorage(postgres_database)
    async with sql.engine.begin() as conn:
        await conn.execute(tables.users.delete())
    try:
        yield sql
    finally:
        await sql.close()


def user(ident: str, external_id: str | None = None, **fields: object) -> UserRecord:
    return UserRecord(id=f"user_{ident}", created_at=T0, updated_at=T0, organization_id=ORG, external_id=external_id,
                      **fields)  # type: ignore[arg-type]


async def create(storage: SqlStorage, record: UserRecord) -> str:
    try:
        async with storage(ORG) as uow:
            await uow.users.add(record)
            await uow.commit()
    except Conflict:
        return "conflict"
    return "created"


async def count(storage: SqlStorage) -> int:
    async with storage.engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(tables.users))).scalar_one())


async def test_concurrent_lone_inserts_share_statements_and_all_land(storage: SqlStorage) -> None:
    statements: list[int] = []
    event.listen(storage.engine.sync_engine, "before_execute",
                 lambda _conn, _clause, multiparams, _params, _options: statements.append(len(multiparams)))
    outcomes = await asyncio.gather(*(create(storage, user(str(n))) for n in range(40)))
    assert outcomes == ["created"] * 40
    assert await count(storage) == 40
    assert len(statements) < 40 and max(statements) > 1  # grouped, never more than one statement per insert


async def test_a_conflict_in_a_batch_is_its_callers_alone(storage: SqlStorage) -> None:
    assert await create(storage, user("first", external_id="taken")) == "created"
    records = [user(str(n)) for n in range(10)] + [user("second", external_id="taken")]
    outcomes = await asyncio.gather(*(create(storage, record) for record in records))
    assert outcomes == ["created"] * 10 + ["conflict"]
    assert await count(storage) == 11


async def test_a_value_the_database_refuses_fails_only_its_own_insert(storage: SqlStorage) -> None:
    records = [user(str(n)) for n in range(10)] + [user("long", external_id="x" * 300)]  # the column holds 255
    results = await asyncio.gather(*(create(storage, record) for record in records), return_exceptions=True)
    assert results[:10] == ["created"] * 10
    assert isinstance(results[10], Exception)
    assert await count(storage) == 10


async def test_a_caller_that_goes_away_does_not_stop_the_others(storage: SqlStorage) -> None:
    tasks = [asyncio.create_task(create(storage, user(str(n)))) for n in range(20)]
    await asyncio.sleep(0)
    tasks[3].cancel()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert [d for i, d in enumerate(done) if i != 3] == ["created"] * 19
    assert await count(storage) in (19, 20)  # the one cancelled may have been sent already
