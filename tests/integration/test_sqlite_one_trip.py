"""A SQLite statement is one trip to aiosqlite's thread, and SQLAlchemy still reads everything it needs; a
writer's BEGIN and inserts go in the trip of its next statement or of its COMMIT."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from sqlalchemy import text

from avatar_service.adapters.sqlalchemy.storage import SqlStorage, create_engine
from avatar_service.core.errors import Conflict
from avatar_service.core.model import UserRecord

ORG = "org_aaaaaaaaaaaaaaaaaaaaaaaa"
T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    made: list[str] = []
    original = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        made.append(getattr(fn, "__name__", repr(fn)))
        return await original(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    return made


async def test_each_statement_is_one_trip_with_rows_rowcount_and_lastrowid(tmp_path: Path,
                                                                         trips: list[str]) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'one.db'}")
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"))
            trips.clear()
            inserted = await conn.execute(text("INSERT INTO pets (name) VALUES (:name)"), {"name": "Rex"})
            assert inserted.lastrowid == 1
            await conn.execute(text("INSERT INTO pets (name) VALUES (:name)"), [{"name": "Mimi"}, {"name": "Bo"}])
            updated = await conn.execute(text("UPDATE pets SET name = upper(name) WHERE id > 1"))
            assert updated.rowcount == 2
            rows = (await conn.execute(text("SELECT id, name FROM pets ORDER BY id"))).all()
            assert [tuple(r) for r in rows] == [(1, "Rex"), (2, "MIMI"), (3, "BO")]
            assert trips == ["_run"] * 4  # one trip each: execute, executemany, update, select with its rows
            missing = (await conn.execute(text("SELECT name FROM pets WHERE id = 9"))).first()
            assert missing is None
        async with engine.connect() as conn:  # committed, and seen by a new connection
            assert (await conn.execute(text("SELECT count(*) FROM pets"))).scalar_one() == 3
            with pytest.raises(Exception, match="NOT NULL"):
                await conn.execute(text("INSERT INTO pets (name) VALUES (NULL)"))
    finally:
        await engine.dispose()


def user(ident: str, external_id: str | None = None) -> UserRecord:
    return UserRecord(id=f"user_{ident}", created_at=T0, updated_at=T0, external_id=external_id, organization_id=ORG)


@pytest.fixture
async def storage(tmp_path: Path, sqlite_template: Path) -> AsyncIterator[SqlStorage]:
    shutil.copyfile(sqlite_template, tmp_path / "avatar.db")
    sql = SqlStorage(f"sqlite+aiosqlite:///{tmp_path / 'avatar.db'}", read_cache=False)
    try:
        yield sql
    finally:
        await sql.close()


async def stored_ids(storage: SqlStorage) -> list[str]:
    async with storage(ORG, read_only=True) as uow:
        return sorted(u.id for u in await uow.users.get_many([f"user_{i}" for i in "abcd"]))


async def warm(storage: SqlStorage, trips: list[str]) -> None:
    """The pool's connection made (its set-up is trips of its own), and the count started afresh."""
    await stored_ids(storage)
    trips.clear()


async def test_a_writer_that_only_inserts_begins_inserts_and_commits_in_one_trip(storage: SqlStorage,
                                                                               trips: list[str]) -> None:
    await warm(storage, trips)
    async with storage(ORG) as uow:
        await uow.users.add(user("a"))
        await uow.users.add(user("b"))
        await uow.commit()
    assert trips == ["_commit"]
    assert await stored_ids(storage) == ["user_a", "user_b"]


async def test_a_writers_begin_goes_with_its_first_read_and_its_inserts_with_the_commit(storage: SqlStorage,
                                                                                      trips: list[str]) -> None:
    await warm(storage, trips)
    async with storage(ORG) as uow:
        assert await uow.users.get("user_a") is None
        await uow.users.add(user("a"))
        await uow.commit()
    assert trips == ["_run", "_commit"]
    trips.clear()
    async with storage(ORG) as uow:  # one that changes its mind sends nothing at all
        await uow.users.add(user("c"))
    assert trips == []
    assert await stored_ids(storage) == ["user_a"]


async def test_a_held_insert_that_conflicts_fails_at_the_next_statement_or_the_commit_and_changes_nothing(
        storage: SqlStorage) -> None:
    async with storage(ORG) as uow:
        await uow.users.add(user("a", external_id="x"))
        await uow.commit()
    with pytest.raises(Conflict):  # surfaces at the read the insert was sent with
        async with storage(ORG) as uow:
            await uow.users.add(user("b"))
            await uow.users.add(user("c", external_id="x"))
            await uow.users.get("user_a")
    with pytest.raises(Conflict):  # surfaces at the commit
        async with storage(ORG) as uow:
            await uow.users.add(user("b"))
            await uow.users.add(user("a"))
            await uow.commit()
    assert await stored_ids(storage) == ["user_a"]
    async with storage(ORG) as uow:  # the failed writers left no transaction open on a pooled connection
        await uow.users.add(user("d"))
        await uow.commit()
    assert await stored_ids(storage) == ["user_a", "user_d"]


async def test_a_commit_that_fails_rolls_back_and_leaves_the_pooled_connection_usable(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'deferred.db'}")
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE owners (id INTEGER PRIMARY KEY)"))
            await conn.execute(text("CREATE TABLE pets (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES owners(id) "
                                    "DEFERRABLE INITIALLY DEFERRED)"))
        with pytest.raises(Exception, match="FOREIGN KEY"):  # a deferred key is checked by the COMMIT itself
            async with engine.begin() as conn:
                await conn.execute(text("INSERT INTO pets (owner) VALUES (7)"))
        async with engine.begin() as conn:  # the same pooled connection: no transaction was left open on it
            await conn.execute(text("INSERT INTO owners (id) VALUES (7)"))
            await conn.execute(text("INSERT INTO pets (owner) VALUES (7)"))
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT count(*) FROM pets"))).scalar_one() == 1
    finally:
        await engine.dispose()
