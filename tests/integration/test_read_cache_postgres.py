"""PostgreSQL's read cache: reads by id are answered in-process, and a write committed anywhere (another engine,
another process) is seen by the very next read that starts after it, whatever the timing of the notification."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import anyio
import pytest
from sqlalchemy import event

from avatar_service.adapters.sqlalchemy import SqlStorage
from avatar_service.adapters.sqlalchemy.pg_listener import PostgresReadCache, asyncpg_dsn
from avatar_service.core.model import PersonalityRecord

from .conftest import _truncate_all

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
ORG = "org_aaaaaaaaaaaaaaaaaaaaaaaa"


def personality(ident: str) -> PersonalityRecord:
    return PersonalityRecord(id=f"personality_{ident}", name=ident, created_at=T0, updated_at=T0, organization_id=ORG)


@pytest.fixture
async def storage(postgres_database: str) -> AsyncIterator[SqlStorage]:
    await _truncate_all(postgres_database)
    sql = SqlStorage(postgres_database)
    async with sql(None) as uow:
        await uow.personalities.add_many([personality(str(i)) for i in range(60)])
        await uow.commit()
    yield sql
    await sql.close()


def statements_of(storage: SqlStorage) -> list[str]:
    seen: list[str] = []
    event.listen(storage.engine.sync_engine, "before_cursor_execute",
                 lambda _conn, _cursor, statement, *_: seen.append(statement))
    return seen


async def name_of(storage: SqlStorage, ident: str) -> str | None:
    async with storage(ORG, read_only=True) as uow:
        record = await uow.personalities.get(f"personality_{ident}")
        return record.name if record else None


async def test_a_second_read_by_id_takes_no_statement(storage: SqlStorage) -> None:
    statements = statements_of(storage)
    assert await name_of(storage, "1") == "1"
    assert await name_of(storage, "1") == "1"
    assert await name_of(storage, "1") == "1"
    assert len(statements) == 1
    assert isinstance(storage.read_cache, PostgresReadCache) and storage.read_cache.hits == 2


async def test_a_write_of_another_engine_is_seen_by_the_next_read(postgres_database: str, storage: SqlStorage) -> None:
    other = SqlStorage(postgres_database, read_cache=False)  # another API process, a worker, the CLI
    try:
        for round_ in range(30):  # each read right after the commit: no time for the notification to travel
            assert await name_of(storage, "2") is not None
            async with other(ORG) as uow:
                await uow.personalities.set("personality_2", name=f"round {round_}")
                await uow.commit()
            assert await name_of(storage, "2") == f"round {round_}"
        async with other(ORG) as uow:
            await uow.personalities.delete("personality_2")
            await uow.commit()
        assert await name_of(storage, "2") is None
    finally:
        await other.close()


async def test_a_write_of_another_process_is_seen_by_the_next_read(postgres_database: str,
                                                                    storage: SqlStorage) -> None:
    script = ("import asyncio, asyncpg, sys\n"
              "async def main():\n"
              "    conn = await asyncpg.connect(sys.argv[1])\n"
              "    for i in range(10):\n"
              "        await conn.execute(\"UPDATE personalities SET name = $1 WHERE id = 'personality_3'\", f'p{i}')\n"
              "        print(i, flush=True)\n"
              "        sys.stdin.readline()\n"
              "asyncio.run(main())\n")
    async with await anyio.open_process([sys.executable, "-c", script, asyncpg_dsn(postgres_database)]) as process:
        assert process.stdout is not None and process.stdin is not None
        buffered = b""
        for i in range(10):
            assert await name_of(storage, "3") is not None  # cached before the write
            while b"\n" not in buffered:  # the other process committed and said so
                buffered += await process.stdout.receive()
            line, buffered = buffered.split(b"\n", 1)
            assert line.decode().strip() == str(i)
            assert await name_of(storage, "3") == f"p{i}"
            await process.stdin.send(b"\n")


async def test_a_big_change_drops_the_whole_table(postgres_database: str, storage: SqlStorage) -> None:
    for i in range(60):
        await name_of(storage, str(i))
    other = SqlStorage(postgres_database, read_cache=False)
    try:
        async with other(ORG) as uow:  # 60 rows: more than a notification names, so the table's name alone
            for i in range(60):
                await uow.personalities.set(f"personality_{i}", name=f"renamed {i}")
            await uow.commit()
    finally:
        await other.close()
    assert [await name_of(storage, str(i)) for i in (0, 30, 59)] == ["renamed 0", "renamed 30", "renamed 59"]


async def test_a_record_invalidated_while_it_was_read_is_not_kept(storage: SqlStorage) -> None:
    cache = storage.read_cache
    assert isinstance(cache, PostgresReadCache)
    token = await cache.token()
    assert token is not None
    cache.invalidate("personalities", ["personality_4"])  # a change arrived while the read was under way
    cache.put(("personalities", "personality_4"), ORG, personality("4"), token)
    assert cache.get(("personalities", "personality_4"), ORG, PersonalityRecord) is None
    cache.put(("personalities", "personality_5"), ORG, personality("5"), token)  # another row: kept
    assert cache.get(("personalities", "personality_5"), ORG, PersonalityRecord) is not None


async def test_reads_go_to_the_database_while_the_listener_is_down(postgres_database: str,
                                                                   storage: SqlStorage) -> None:
    cache = storage.read_cache
    assert isinstance(cache, PostgresReadCache)
    assert await name_of(storage, "6") == "6"
    cache._conn.terminate()  # the connection drops (a server restart)
    other = SqlStorage(postgres_database, read_cache=False)
    try:
        async with other(ORG) as uow:
            await uow.personalities.set("personality_6", name="while down")
            await uow.commit()
    finally:
        await other.close()
    assert await name_of(storage, "6") == "while down"
    assert await name_of(storage, "6") == "while down"
