"""The few storage shapes that are not plain repositories: API keys by hash, transcripts, outbox, jobs,
vector versions."""

import functools
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

import msgspec
from sqlalchemy import bindparam, delete, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from avatar_service.adapters.sqlalchemy import tables as t
from avatar_service.adapters.sqlalchemy.connection import LazyConnection
from avatar_service.adapters.sqlalchemy.repository import SqlRepository, insert_into, to_row
from avatar_service.core.model import ApiKeyRecord, Event, Job, TranscriptItem
from avatar_service.core.model.jobs import JobKind


class SqlApiKeys(SqlRepository[ApiKeyRecord]):
    async def by_hash(self, secret_hash: str) -> ApiKeyRecord | None:
        row = (await self.conn.execute(select(t.api_keys).where(t.api_keys.c.secret_hash == secret_hash))).first()
        return self._load(row) if row else None


class SqlTranscripts:
    def __init__(self, conn: LazyConnection) -> None:
        self.conn = conn

    async def append(self, conversation_id: str, items: Sequence[TranscriptItem]) -> None:
        if items:
            rows = [{"conversation_id": conversation_id, **msgspec.structs.asdict(i)} for i in items]
            await self.conn.insert(insert_into(t.transcript_items), rows)

    async def for_conversation(self, conversation_id: str) -> list[TranscriptItem]:
        return _items((await self.conn.execute(_items_of(conversation_id).order_by(t.transcript_items.c.seq))).all())

    async def recent(self, conversation_id: str, limit: int) -> list[TranscriptItem]:
        newest_first = _items_of(conversation_id).order_by(t.transcript_items.c.seq.desc()).limit(limit)
        return _items(reversed((await self.conn.execute(newest_first)).all()))

    async def count(self, conversation_id: str) -> int:
        c = t.transcript_items.c
        return (await self.conn.execute(select(func.count()).where(c.conversation_id == conversation_id))).scalar_one()


def _items_of(conversation_id: str) -> Any:
    c = t.transcript_items.c
    return select(c.role, c.content, c.timestamp, c.interrupted, c.metrics).where(c.conversation_id == conversation_id)


def _items(rows: Iterable[Any]) -> list[TranscriptItem]:
    return [TranscriptItem(role=r.role, content=r.content, timestamp=r.timestamp, interrupted=r.interrupted,
                           metrics=r.metrics) for r in rows]


class SqlOutbox:
    def __init__(self, conn: LazyConnection) -> None:
        self.conn = conn
        self.repo = SqlRepository(conn, t.outbox, Event, None)

    async def add(self, event: Event) -> None:
        await self.repo.add(event)
        self.conn.wrote_work = True

    async def pending(self, limit: int) -> list[Event]:
        c = t.outbox.c
        statement = select(t.outbox).where(c.dispatched.is_(False)).order_by(c.created_at, c.id).limit(limit)
        if self.conn.dialect.name == "postgresql":
            statement = statement.with_for_update(skip_locked=True)
        return [self.repo._load(r) for r in (await self.conn.execute(statement)).all()]

    async def mark_dispatched(self, event_ids: Sequence[str]) -> None:
        if event_ids:
            await self.conn.execute(update(t.outbox).where(t.outbox.c.id.in_(event_ids)).values(dispatched=True))

    async def get(self, event_id: str) -> Event | None:
        return await self.repo.get(event_id)


class SqlJobs:
    def __init__(self, conn: LazyConnection) -> None:
        self.conn = conn
        self.repo = SqlRepository(conn, t.jobs, Job, None)

    async def add(self, job: Job) -> None:
        await self.conn.insert(insert_into(t.jobs), [to_row(t.jobs, job)])
        self.conn.wrote_work = True

    async def any_due(self, now: datetime, kinds: Sequence[JobKind]) -> bool:
        parameters = {"now": now, "kinds": list(kinds), "limit": 1}
        return (await self.conn.execute(_claimable(False), parameters)).first() is not None

    async def claim(self, now: datetime, lock_seconds: float, limit: int, kinds: Sequence[JobKind]) -> list[Job]:
        c = t.jobs.c
        parameters = {"now": now, "kinds": list(kinds), "limit": limit}
        rows = (await self.conn.execute(_claimable(self.conn.dialect.name == "postgresql"), parameters)).all()
        jobs = [self.repo._load(r) for r in rows]
        if jobs:
            until = now + timedelta(seconds=lock_seconds)
            await self.conn.execute(update(t.jobs).where(c.id.in_([j.id for j in jobs]))
                                    .values(locked_until=until, attempts=c.attempts + 1))
        return [msgspec.structs.replace(j, attempts=j.attempts + 1) for j in jobs]

    async def finish(self, job_id: str) -> None:
        await self.repo.delete(job_id)

    async def retry(self, job_id: str, run_at: datetime, error: str) -> None:
        await self.repo.set(job_id, run_at=run_at, locked_until=None, last_error=error[:2000])

    async def queued(self, kind: JobKind) -> list[Job]:
        statement = select(t.jobs).where(t.jobs.c.kind == kind).order_by(t.jobs.c.run_at)
        return [self.repo._load(r) for r in (await self.conn.execute(statement)).all()]


@functools.cache
def _claimable(postgres: bool) -> Any:
    """The due jobs of some kinds that nobody holds, oldest first, built once: the worker claims every half second
    for each kind, and building the statement anew each time cost more than running it."""
    c = t.jobs.c
    now: Any = bindparam("now")
    statement = (select(t.jobs).where(c.run_at <= now, c.kind.in_(bindparam("kinds", expanding=True)),
                                      or_(c.locked_until.is_(None), c.locked_until < now))
                 .order_by(c.run_at).limit(bindparam("limit")))
    return statement.with_for_update(skip_locked=True) if postgres else statement


class SqlVectorVersions:
    # Log entries are pruned in the writer's transaction, a batch at a time: past 2 * KEEP versions above the
    # floor, those older than the newest KEEP go (a process that far behind reloads the namespace in full).
    KEEP = 2000

    def __init__(self, conn: LazyConnection) -> None:
        self.conn = conn

    async def bump(self, namespace: str, changed: Sequence[str]) -> int:
        c = t.vector_versions.c
        # An upsert: SQLite and PostgreSQL both take ON CONFLICT ... RETURNING (SQLite since 3.35).
        dialect_insert = pg_insert if self.conn.dialect.name == "postgresql" else sqlite_insert
        upsert = dialect_insert(t.vector_versions).values(namespace=namespace, version=1, log_floor=0)
        statement = upsert.on_conflict_do_update(index_elements=[c.namespace],
                                                 set_={"version": c.version + 1}).returning(c.version, c.log_floor)
        version, floor = (await self.conn.execute(statement)).one()
        if changed:
            await self.conn.insert(insert_into(t.vector_changes), [
                {"namespace": namespace, "version": version, "vector_id": ident} for ident in dict.fromkeys(changed)])
        if version - floor > 2 * self.KEEP:
            floor = version - self.KEEP
            log = t.vector_changes.c
            await self.conn.execute(delete(t.vector_changes).where(log.namespace == namespace, log.version <= floor))
            await self.conn.execute(update(t.vector_versions).where(c.namespace == namespace).values(log_floor=floor))
        return int(version)

    async def get(self, namespace: str) -> int:
        return (await self.state(namespace))[0]

    async def state(self, namespace: str) -> tuple[int, int]:
        c = t.vector_versions.c
        found = (await self.conn.execute(select(c.version, c.log_floor).where(c.namespace == namespace))).first()
        return (int(found[0]), int(found[1])) if found else (0, 0)

    async def changed_since(self, namespace: str, version: int) -> list[str]:
        log = t.vector_changes.c
        rows = await self.conn.execute(select(log.vector_id).where(log.namespace == namespace, log.version > version)
                                       .distinct())
        return [row[0] for row in rows]
