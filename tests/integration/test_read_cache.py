"""SQLite's read cache: reads by id are answered in-process, and any commit by anyone (another engine, another
process) is seen by the very next read. PostgreSQL's: tests/integration/test_read_cache_postgres.py."""

from __future__ import annotations

import shutil
import sqlite3
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import pytest
from sqlalchemy import event

from avatar_service.adapters.sqlalchemy import SqlStorage
from avatar_service.adapters.sqlalchemy.read_cache import SqliteReadCache
from avatar_service.core.model import PersonalityRecord, Traits

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
ORG = "org_aaaaaaaaaaaaaaaaaaaaaaaa"


def personality(ident: str, **fields: Any) -> PersonalityRecord:
    return PersonalityRecord(id=f"personality_{ident}", name=ident, created_at=T0, updated_at=T0,
                             organization_id=ORG, **fields)


@pytest.fixture
def database(tmp_path: Path, sqlite_template: Path) -> Path:
    path = tmp_path / "avatar.db"
    shutil.copyfile(sqlite_template, path)
    return path


@pytest.fixture
async def storage(database: Path) -> AsyncIterator[SqlStorage]:
    sql = SqlStorage(f"sqlite+aiosqlite:///{database}")
    async with sql(None) as uow:
        await uow.personalities.add_many([personality("a", traits=Traits(warmth=0.9)), personality("b")])
        await uow.commit()
    yield sql
    await sql.close()


def count_statements(storage: SqlStorage) -> list[str]:
    seen: list[str] = []
    event.listen(storage.engine.sync_engine, "before_cursor_execute",
                 lambda _conn, _cursor, statement, *_: seen.append(statement))
    return seen


async def read(storage: SqlStorage, ident: str, org: str | None = ORG) -> PersonalityRecord | None:
    async with storage(org, read_only=True) as uow:
        record: PersonalityRecord | None = await uow.personalities.get(ident)
        return record


async def test_a_second_read_by_id_takes_no_statement(storage: SqlStorage) -> None:
    statements = count_statements(storage)
    first = await read(storage, "personality_a")
    assert first is not None and first.traits.warmth == 0.9 and len(statements) == 1
    assert await read(storage, "personality_a") == first
    assert len(statements) == 1
    assert await read(storage, "personality_a", org="org_bbbbbbbbbbbbbbbbbbbbbbbb") is None  # its own key
    assert await read(storage, "personality_missing") is None  # misses are never kept
    assert await read(storage, "personality_missing") is None
    assert len(statements) == 4


async def test_each_hit_is_a_copy_of_its_own(storage: SqlStorage) -> None:
    first = await read(storage, "personality_a")
    assert first is not None
    first.name, first.metadata["changed"] = "mutated", True
    again = await read(storage, "personality_a")
    assert again is not None and again.name == "a" and again.metadata == {}


async def test_a_commit_of_this_process_is_seen_at_once(storage: SqlStorage) -> None:
    assert (await read(storage, "personality_a")).name == "a"  # type: ignore[union-attr]
    async with storage(ORG) as uow:
        await uow.personalities.set("personality_a", name="renamed")
        await uow.commit()
    assert (await read(storage, "personality_a")).name == "renamed"  # type: ignore[union-attr]
    async with storage(ORG) as uow:
        await uow.personalities.delete("personality_a")
        await uow.commit()
    assert await read(storage, "personality_a") is None


async def test_a_commit_of_another_engine_is_seen_at_once(storage: SqlStorage, database: Path) -> None:
    assert (await read(storage, "personality_b")).name == "b"  # type: ignore[union-attr]
    other = SqlStorage(f"sqlite+aiosqlite:///{database}")  # the CLI or a worker, on the same file
    try:
        async with other(ORG) as uow:
            await uow.personalities.set("personality_b", name="from elsewhere")
            await uow.commit()
    finally:
        await other.close()
    assert (await read(storage, "personality_b")).name == "from elsewhere"  # type: ignore[union-attr]


async def test_a_commit_of_another_process_is_seen_at_once(storage: SqlStorage, database: Path) -> None:
    assert (await read(storage, "personality_b")).name == "b"  # type: ignore[union-attr]
    await anyio.run_process([sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                             "c.execute(\"UPDATE personalities SET name = 'by another process' "
                             "WHERE id = 'personality_b'\"); c.commit()", str(database)])
    assert (await read(storage, "personality_b")).name == "by another process"  # type: ignore[union-attr]


async def test_writers_never_read_the_cache(storage: SqlStorage, database: Path) -> None:
    await read(storage, "personality_a")
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE personalities SET name = 'fresh' WHERE id = 'personality_a'")
    statements = count_statements(storage)
    async with storage(ORG) as uow:
        record = await uow.personalities.get("personality_a")
        assert record is not None and record.name == "fresh"
    assert any(s.startswith("SELECT") for s in statements)


def test_a_record_read_before_a_change_is_not_kept(storage: SqlStorage, database: Path) -> None:
    cache = SqliteReadCache(str(database))
    read_at = cache.version()
    with sqlite3.connect(database) as conn:  # commits while the (slow) read of read_at was under way
        conn.execute("UPDATE personalities SET name = 'newer' WHERE id = 'personality_a'")
    assert cache.version() != read_at
    cache.put(("personalities", "personality_a"), ORG, personality("a"), read_at)
    assert cache.get(("personalities", "personality_a"), ORG, PersonalityRecord) is None
    cache.put(("personalities", "personality_a"), ORG, personality("a"), cache.version())
    assert cache.get(("personalities", "personality_a"), ORG, PersonalityRecord) == personality("a")
    cache.close()


def test_the_oldest_entry_goes_first_when_full(database: Path) -> None:
    cache = SqliteReadCache(str(database), capacity=2)
    version = cache.version()
    for ident in ("a", "b", "c"):
        cache.put(("personalities", ident), ORG, personality(ident), version)
    assert [cache.get(("personalities", i), ORG, PersonalityRecord) is not None for i in "abc"] == [False, True, True]
    cache.close()


def test_an_unreadable_database_turns_the_cache_off(tmp_path: Path) -> None:
    cache = SqliteReadCache(str(tmp_path / "missing-dir" / "a.db"))
    assert cache.version() is None
    cache.put(("personalities", "a"), ORG, personality("a"), None)
    assert cache.get(("personalities", "a"), ORG, PersonalityRecord) is None
