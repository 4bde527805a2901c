"""One storage contract, three backends: the in-memory adapter must behave as SQLite and PostgreSQL do."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from avatar_service.adapters.in_memory import MemoryStorage
from avatar_service.adapters.sqlalchemy import SqlStorage, tables
from avatar_service.core.errors import Conflict
from avatar_service.core.model import (
    ApiKeyRecord,
    Event,
    GameSessionRecord,
    Job,
    Organization,
    PersonalityRecord,
    Traits,
    TranscriptItem,
    UserRecord,
)
from avatar_service.core.pagination import PageRequest
from avatar_service.ports.storage import Storage

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
A, B = "org_aaaaaaaaaaaaaaaaaaaaaaaa", "org_bbbbbbbbbbbbbbbbbbbbbbbb"


@pytest.fixture(params=["memory", "sqlite", "postgres"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    if request.param == "memory":
        yield MemoryStorage()
        return
    if request.param == "sqlite":
        path = tmp_path / "avatar.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        sql = SqlStorage(f"sqlite+aiosqlite:///{path}")
    else:
        sql = SqlStorage(request.getfixturevalue("postgres_database"))
        async with sql.engine.begin() as conn:
            for table in tables.metadata.sorted_tables:
                await conn.execute(table.delete())
    try:
        yield sql
    finally:
        await sql.close()


def personality(ident: str, org: str = A, at: datetime = T0, **fields: Any) -> PersonalityRecord:
    fields.setdefault("name", ident)
    return PersonalityRecord(
        id=f"personality_{ident}", created_at=at, updated_at=at, organization_id=org, **fields
    )


def user(ident: str, org: str = A, external_id: str | None = None, at: datetime = T0) -> UserRecord:
    return UserRecord(
        id=f"user_{ident}", created_at=at, updated_at=at, external_id=external_id, organization_id=org
    )


async def seed(storage: Storage, *records: PersonalityRecord) -> None:
    async with storage(None) as uow:
        await uow.personalities.add_many(list(records))
        await uow.commit()


async def test_add_get_round_trip(storage: Storage) -> None:
    record = personality("p1", traits=Traits(warmth=0.9), metadata={"k": [1, 2]})
    await seed(storage, record)
    async with storage(A) as uow:
        assert await uow.personalities.get(record.id) == record
        assert await uow.personalities.get("personality_missing") is None


async def test_organization_scoping(storage: Storage) -> None:
    await seed(storage, personality("a1"), personality("b1", org=B))
    async with storage(B) as uow:
        assert [p.id for p in await uow.personalities.find()] == ["personality_b1"]
        assert await uow.personalities.get("personality_a1") is None
        assert [p.id for p in await uow.personalities.get_many(["personality_a1", "personality_b1"])] == [
            "personality_b1"]
        assert await uow.personalities.set("personality_a1", name="stolen") is False
        assert await uow.personalities.update(personality("a1", name="stolen")) is False
        assert await uow.personalities.delete("personality_a1") is False
        assert await uow.personalities.delete_where(name="a1") == 0
        await uow.commit()
    async with storage(None) as uow:
        assert sorted(p.id for p in await uow.personalities.find()) == ["personality_a1", "personality_b1"]
        assert (await uow.personalities.get("personality_a1")).name == "a1"  # type: ignore[union-attr]


async def test_filters_null_and_in(storage: Storage) -> None:
    async with storage(None) as uow:
        await uow.users.add_many([user("u1", external_id="x"), user("u2"), user("u3", external_id="y")])
        await uow.commit()
    async with storage(A) as uow:
        assert [u.id for u in await uow.users.find(external_id=None)] == ["user_u2"]
        assert sorted(u.id for u in await uow.users.find(external_id=["x", "y", "z"])) == [
            "user_u1",
            "user_u3",
        ]
        assert sorted(u.id for u in await uow.users.find(id=("user_u1", "user_u2"))) == ["user_u1", "user_u2"]
        assert await uow.users.find(external_id=[]) == []


async def test_page_find_and_due_order(storage: Storage) -> None:
    # two share a timestamp: the id orders them
    await seed(
        storage,
        personality("p1", at=T0),
        personality("p3", at=T0 + timedelta(seconds=1)),
        personality("p2", at=T0 + timedelta(seconds=1)),
        personality("p4", at=T0 + timedelta(seconds=2)),
    )
    async with storage(A) as uow:
        first, more = await uow.personalities.page(PageRequest(limit=3))
        assert [p.id[12:] for p in first] == ["p4", "p3", "p2"] and more is True
        rest, more = await uow.personalities.page(
            PageRequest(limit=3, after=(first[-1].created_at, first[-1].id))
        )
        assert [p.id[12:] for p in rest] == ["p1"] and more is False
        exact, more = await uow.personalities.page(PageRequest(limit=4))
        assert len(exact) == 4 and more is False
        assert [p.id[12:] for p in await uow.personalities.find(limit=2)] == ["p4", "p3"]
        due = await uow.personalities.due("created_at", T0 + timedelta(seconds=1), 10)
        assert [p.created_at for p in due] == [T0, T0 + timedelta(seconds=1), T0 + timedelta(seconds=1)]
        assert len(await uow.personalities.due("created_at", T0 + timedelta(seconds=5), 2)) == 2


async def test_update_and_set_with_expectations(storage: Storage) -> None:
    record = GameSessionRecord(
        id="gs_1",
        game_id="tic_tac_toe",
        personality_id="personality_p",
        status="active",
        created_at=T0,
        organization_id=A,
        state={"board": [0] * 9},
    )
    async with storage(A) as uow:
        await uow.game_sessions.add(record)
        await uow.commit()
    async with storage(A) as uow:
        moved = GameSessionRecord(
            **{**{f: getattr(record, f) for f in record.__struct_fields__}, "version": 1, "move_count": 1}
        )
        assert await uow.game_sessions.update(moved, expect={"version": 7}) is False
        assert await uow.game_sessions.update(moved, expect={"version": 0}) is True
        assert await uow.game_sessions.set("gs_1", expect={"status": "waiting"}, status="abandoned") is False
        assert await uow.game_sessions.set("gs_1", expect={"status": "active"}, status="completed") is True
        assert await uow.game_sessions.set("gs_missing", status="completed") is False
        await uow.commit()
    async with storage(A) as uow:
        stored = await uow.game_sessions.get("gs_1")
        assert stored is not None and (stored.version, stored.move_count, stored.status) == (
            1,
            1,
            "completed",
        )


async def test_delete_where_counts(storage: Storage) -> None:
    await seed(storage, personality("p1", name="x"), personality("p2", name="x"), personality("p3", name="y"))
    async with storage(A) as uow:
        assert await uow.personalities.delete_where(name="x") == 2
        assert await uow.personalities.delete("personality_p3") is True
        assert await uow.personalities.delete("personality_p3") is False
        await uow.commit()
    async with storage(A) as uow:
        assert await uow.personalities.find() == []


async def test_unique_constraints(storage: Storage) -> None:
    key = ApiKeyRecord(
        id="key_1",
        name="k",
        key_prefix="sk_abcde",
        scopes=["*"],
        created_at=T0,
        organization_id=A,
        secret_hash="h" * 64,
    )
    async with storage(None) as uow:
        await uow.api_keys.add(key)
        await uow.organizations.add(Organization(id="org_1", slug="acme", created_at=T0))
        await uow.users.add_many([user("u1", external_id="x"), user("u2"), user("u3"), user("b1", B, "x")])
        await uow.commit()
    attempts = [
        lambda uow: uow.api_keys.add(
            ApiKeyRecord(**{**{f: getattr(key, f) for f in key.__struct_fields__}, "id": "key_2"})
        ),
        lambda uow: uow.organizations.add(Organization(id="org_2", slug="acme", created_at=T0)),
        lambda uow: uow.users.add(user("u4", external_id="x")),
        lambda uow: uow.users.set("user_u2", external_id="x"),
        lambda uow: uow.users.add(user("u1")),  # the primary key
    ]
    for attempt in attempts:
        async with storage(None) as uow:
            with pytest.raises(Conflict) as error:  # at the write, or at the commit an insert was held back to
                await attempt(uow)
                await uow.commit()
            assert error.value.code == "resource_exists"
    async with storage(None) as uow:
        assert len(await uow.users.find()) == 4
        assert (await uow.api_keys.by_hash("h" * 64)).id == "key_1"  # type: ignore[union-attr]
        assert await uow.api_keys.by_hash("nope") is None


async def test_transcripts_in_order(storage: Storage) -> None:
    async with storage(A) as uow:
        await uow.transcripts.append(
            "conv_1", [TranscriptItem(role="assistant", content="hi", timestamp=0.0)]
        )
        await uow.transcripts.append("conv_2", [TranscriptItem(role="user", content="other", timestamp=1.0)])
        await uow.transcripts.append(
            "conv_1", [TranscriptItem(role="user", content=f"m{i}", timestamp=i + 1.0) for i in range(3)]
        )
        await uow.commit()
    async with storage(A) as uow:
        items = await uow.transcripts.for_conversation("conv_1")
        assert [i.content for i in items] == ["hi", "m0", "m1", "m2"]
        assert items[0] == TranscriptItem(role="assistant", content="hi", timestamp=0.0)
        assert await uow.transcripts.count("conv_1") == 4 and await uow.transcripts.count("conv_9") == 0
        # the last ones, oldest first (what a turn reads of a long transcript)
        assert [i.content for i in await uow.transcripts.recent("conv_1", 2)] == ["m1", "m2"]
        assert [i.content for i in await uow.transcripts.recent("conv_1", 10)] == ["hi", "m0", "m1", "m2"]
        assert await uow.transcripts.recent("conv_9", 5) == []


async def test_outbox(storage: Storage) -> None:
    async with storage(A) as uow:
        for i in (2, 0, 1):
            await uow.outbox.add(
                Event(
                    id=f"evt_{i}",
                    organization_id=A,
                    type="memory.created",
                    created_at=T0 + timedelta(seconds=i),
                    data={"n": i},
                )
            )
        await uow.commit()
    async with storage(None) as uow:
        assert [e.id for e in await uow.outbox.pending(2)] == ["evt_0", "evt_1"]  # oldest first
        await uow.outbox.mark_dispatched(["evt_0", "evt_1"])
        await uow.commit()
    async with storage(None) as uow:
        assert [e.id for e in await uow.outbox.pending(10)] == ["evt_2"]
        event = await uow.outbox.get("evt_0")
        assert event is not None and event.dispatched is True and event.data == {"n": 0}


async def test_jobs_claim_lock_retry_finish(storage: Storage) -> None:
    async with storage(None) as uow:
        await uow.jobs.add(Job(id="job_late", kind="memory.extract", payload={}, run_at=T0 + timedelta(seconds=60)))
        await uow.jobs.add(Job(id="job_b", kind="memory.extract", payload={"x": 1}, run_at=T0 + timedelta(seconds=1)))
        await uow.jobs.add(Job(id="job_a", kind="memory.extract", payload={}, run_at=T0))
        await uow.jobs.add(Job(id="job_other", kind="video.render", payload={}, run_at=T0))
        await uow.commit()
    now = T0 + timedelta(seconds=5)
    async with storage(None) as uow:
        claimed = await uow.jobs.claim(now, 30, 10, ["memory.extract"])
        await uow.commit()
    assert [(j.id, j.attempts) for j in claimed] == [("job_a", 1), ("job_b", 1)]
    assert claimed[1].payload == {"x": 1}
    async with storage(None) as uow:
        assert await uow.jobs.claim(now + timedelta(seconds=10), 30, 10, ["memory.extract"]) == []  # still locked
        await uow.jobs.retry("job_a", now, "boom" * 1000)
        await uow.jobs.finish("job_b")
        await uow.commit()
    async with storage(None) as uow:
        again = await uow.jobs.claim(now + timedelta(seconds=10), 30, 1, ["memory.extract"])
        await uow.commit()
    assert [(j.id, j.attempts, j.last_error and len(j.last_error)) for j in again] == [("job_a", 2, 2000)]
    async with storage(None) as uow:  # an expired lock lets the job run again
        expired = await uow.jobs.claim(now + timedelta(seconds=41), 30, 10, ["memory.extract", "video.render"])
    assert sorted(j.id for j in expired) == ["job_a", "job_other"]


async def test_a_reader_tells_whether_any_job_is_due(storage: Storage) -> None:
    async with storage(None) as uow:
        await uow.jobs.add(Job(id="job_soon", kind="memory.extract", payload={}, run_at=T0 + timedelta(seconds=60)))
        await uow.jobs.add(Job(id="job_now", kind="video.render", payload={}, run_at=T0))
        await uow.commit()
    async with storage(None, read_only=True) as uow:
        assert not await uow.jobs.any_due(T0, ["memory.extract"])  # not yet
        assert await uow.jobs.any_due(T0 + timedelta(seconds=60), ["memory.extract"])
        assert await uow.jobs.any_due(T0, ["memory.extract", "video.render"])
    async with storage(None) as uow:
        assert [j.id for j in await uow.jobs.claim(T0, 30, 10, ["video.render"])] == ["job_now"]
        await uow.commit()
    async with storage(None, read_only=True) as uow:
        assert not await uow.jobs.any_due(T0 + timedelta(seconds=10), ["video.render"])  # held by its worker


async def test_exit_without_commit_discards(storage: Storage) -> None:
    async with storage(A) as uow:
        await uow.personalities.add(personality("p1"))
        await uow.transcripts.append("conv_1", [TranscriptItem(role="user", content="x", timestamp=0.0)])
    with pytest.raises(RuntimeError):
        async with storage(A) as uow:
            await uow.personalities.add(personality("p2"))
            raise RuntimeError("the use case failed")
    async with storage(A) as uow:
        assert await uow.personalities.find() == [] and await uow.transcripts.count("conv_1") == 0
        assert await uow.personalities.get("personality_p1") is None


async def test_a_transaction_sees_its_own_writes(storage: Storage) -> None:
    async with storage(A) as uow:
        await uow.personalities.add(personality("p1"))
        await uow.personalities.set("personality_p1", name="renamed")
        assert (await uow.personalities.get("personality_p1")).name == "renamed"  # type: ignore[union-attr]
        await uow.commit()


async def test_records_are_copies(storage: Storage) -> None:
    record = personality("p1", metadata={"tags": ["a"]})
    async with storage(A) as uow:
        await uow.personalities.add(record)
        record.metadata["tags"].append("changed after add")
        record.name = "changed after add"
        await uow.commit()
    async with storage(A) as uow:
        loaded = await uow.personalities.get("personality_p1")
        assert loaded is not None and loaded.metadata == {"tags": ["a"]} and loaded.name == "p1"
        loaded.metadata["tags"].append("changed after get")
        loaded.traits.warmth = 1.0
    async with storage(A) as uow:
        again = await uow.personalities.get("personality_p1")
        assert again is not None and again.metadata == {"tags": ["a"]} and again.traits.warmth == 0.5


async def test_concurrent_conditional_updates_lose_nothing(storage: Storage) -> None:
    record = GameSessionRecord(
        id="gs_1",
        game_id="g",
        personality_id="personality_p",
        status="active",
        created_at=T0,
        organization_id=A,
    )
    async with storage(A) as uow:
        await uow.game_sessions.add(record)
        await uow.commit()

    async def move(count: int) -> bool:
        async with storage(A) as uow:
            current = await uow.game_sessions.get("gs_1")
            assert current is not None
            await asyncio.sleep(0.01)  # both read the same version before either writes
            won = await uow.game_sessions.set(
                "gs_1", expect={"version": current.version}, version=current.version + 1, move_count=count
            )
            await asyncio.sleep(0.01)
            await uow.commit()
            return won

    results = await asyncio.gather(move(1), move(2))
    # SQLite serialises the two transactions (both may win, one after the other); the memory adapter and
    # PostgreSQL let the second conditional write see the first commit and fail. No update is ever lost.
    async with storage(A) as uow:
        final = await uow.game_sessions.get("gs_1")
        assert final is not None and True in results and final.version == results.count(True)


async def test_memory_uncommitted_writes_are_invisible_to_others() -> None:
    # Not on SQLite: BEGIN IMMEDIATE makes a second open transaction wait for the first.
    storage = MemoryStorage()
    async with storage(A) as writer:
        await writer.personalities.add(personality("p1"))
        async with storage(A) as reader:
            assert await reader.personalities.get("personality_p1") is None
        await writer.commit()
        async with storage(A) as reader:
            assert await reader.personalities.get("personality_p1") is not None


async def test_memory_nested_writers_fail_fast_instead_of_hanging() -> None:
    storage = MemoryStorage()
    async with storage(A) as outer:
        await outer.personalities.add(personality("p1"))
        async with storage(A) as inner:
            with pytest.raises(RuntimeError):
                await inner.personalities.add(personality("p2"))
    assert await storage.ping() is True


async def test_closing_waits_for_open_units_of_work(storage: Storage) -> None:
    """A write still open when the service shuts down (a room's last reply being stored) is committed, not cut
    off by the engine's disposal (on SQLite that once hung the event loop's own shutdown)."""
    if not isinstance(storage, SqlStorage):
        pytest.skip("closing the in-memory storage has nothing to wait for")
    opened = asyncio.Event()

    async def slow_write() -> None:
        async with storage(A) as uow:
            opened.set()
            await asyncio.sleep(0.3)  # the shutdown begins meanwhile
            await uow.personalities.add(personality("late"))
            await uow.commit()

    writing = asyncio.ensure_future(slow_write())
    await opened.wait()
    await storage.close()
    assert writing.done() and writing.exception() is None
    async with storage(A, read_only=True) as uow:  # (the engine opens a new pool: the fixture closes it again)
        assert (await uow.personalities.get("personality_late")) is not None
