"""Vector caches of two processes on one database: what one process inserts, updates or deletes is seen by the
next search of the other, which reads only the changed rows (never the whole namespace again); after a
restart a namespace comes back from its file plus the changes since."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from avatar_service.adapters import semantic_index
from avatar_service.adapters.semantic_index import IndexedSemantic
from avatar_service.adapters.sqlalchemy.migrate import upgrade
from avatar_service.core.model import (
    MemoryBulkCreate,
    MemoryCreate,
    MemoryPatch,
    MemorySearch,
    PersonalityCreate,
    UserCreate,
)
from avatar_service.core.model.memories import MemoryItem
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.core.services.memories import Memories
from avatar_service.core.services.personalities import Personalities
from avatar_service.core.services.users import Users
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.semantic import Semantic
from avatar_service.ports.storage import Storage

WORDS = ["river", "mountain", "violin", "harbour", "copper", "lantern", "orchard", "glacier", "meadow", "compass"]


class Process:
    """One API process: its own engine, read cache and vector cache, on the shared database and data dir."""

    def __init__(self, database_url: str, data_dir: Path) -> None:
        settings = load_settings({}, database_url=database_url, data_dir=str(data_dir), embedder="lexical",
                                 secret_key="tests")
        self.container = bootstrap.embedded(settings)
        self.memories: Memories = self.container.resolve(Memories)
        self.semantic: IndexedSemantic = self.container.resolve(Semantic)  # type: ignore[assignment]

    async def close(self) -> None:
        self.semantic.close()
        await self.container.resolve(Storage).close()

    async def search(self, org: str, user: str, query: str) -> list[str]:
        found = await self.memories.search(org, user, MemorySearch(query=query, limit=3))
        return [hit.content for hit in found.data]


@pytest.fixture
async def two(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Any]:
    monkeypatch.setattr(semantic_index, "FILE_FROM", 10)  # small namespaces get files too
    a, b = Process(database_url, tmp_path / "data"), Process(database_url, tmp_path / "data")
    await upgrade(a.container.resolve(Storage).engine)  # type: ignore[attr-defined]
    org = (await a.container.resolve(ApiKeys).organization("tests")).id
    personality = await a.container.resolve(Personalities).create(org, PersonalityCreate(name="Ava"))
    user = await a.container.resolve(Users).create(org, UserCreate())
    yield a, b, org, personality.id, user.id, database_url, tmp_path / "data"
    await a.close()
    await b.close()


async def test_changes_of_another_process_are_applied_row_by_row(two: Any) -> None:
    a, b, org, personality, user, *_ = two
    items = [MemoryItem(content=f"User likes the {w} and the {v}") for w in WORDS for v in WORDS[:3]]
    await a.memories.bulk(org, user, MemoryBulkCreate(personality_id=personality, memories=items))
    assert len(await b.search(org, user, "violin")) == 3
    assert (b.semantic.stats.full_loads, b.semantic.stats.rows_loaded) == (1, 30)

    created = await a.memories.create(org, user, MemoryCreate(personality_id=personality,
                                                              content="User keeps bees on the roof"))
    assert (await b.search(org, user, "bees roof"))[0] == "User keeps bees on the roof"
    await a.memories.update(org, user, created.id, MemoryPatch(content="User keeps pigeons in the attic"))
    assert (await b.search(org, user, "pigeons attic"))[0] == "User keeps pigeons in the attic"
    await a.memories.delete(org, user, created.id)
    assert "User keeps pigeons in the attic" not in await b.search(org, user, "pigeons attic")
    # Three changes, one row read for each; the 30 others were never read again.
    assert (b.semantic.stats.full_loads, b.semantic.stats.rows_loaded) == (1, 30)
    assert (b.semantic.stats.catch_ups, b.semantic.stats.rows_caught_up) == (3, 3)


async def test_after_a_restart_the_namespace_comes_from_its_file(two: Any) -> None:
    a, b, org, personality, user, database_url, data_dir = two
    items = [MemoryItem(content=f"User likes the {w} and the {v}") for w in WORDS for v in WORDS[:3]]
    await a.memories.bulk(org, user, MemoryBulkCreate(personality_id=personality, memories=items))
    assert len(await b.search(org, user, "violin")) == 3  # b loads it in full and writes its file
    b.semantic.close()  # the file is on disk
    await a.memories.create(org, user, MemoryCreate(personality_id=personality, content="User keeps bees"))
    restarted = Process(database_url, data_dir)
    try:
        assert (await restarted.search(org, user, "bees"))[0] == "User keeps bees"
        stats = restarted.semantic.stats
        assert (stats.file_loads, stats.full_loads, stats.rows_caught_up) == (1, 0, 1)
    finally:
        await restarted.close()
