"""A SQLite statement is one trip to aiosqlite's thread, and SQLAlchemy still reads everything it needs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from sqlalchemy import text

from avatar_service.adapters.sqlalchemy.storage import create_engine


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
