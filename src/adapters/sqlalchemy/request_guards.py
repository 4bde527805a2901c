"""The idempotency store and the shared rate limiter on the service's database (idempotency_keys, rate_limits)."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Table, and_, case, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from avatar_service.adapters.sqlalchemy import tables as t
from avatar_service.adapters.sqlalchemy.storage import SqlStorage
from avatar_service.ports.request_guards import Allowance, StoredResponse

WINDOW = 60  # seconds


class _Writes:
    """Short write transactions that queue behind the storage's SQLite writer lock like every other writer."""

    def __init__(self, storage: SqlStorage) -> None:
        self.engine = storage.engine
        self._lock = storage.write_lock
        self._postgres = self.engine.dialect.name == "postgresql"

    def _insert(self, table: Table) -> Any:
        return (postgresql.insert if self._postgres else sqlite.insert)(table)

    @asynccontextmanager
    async def _begin(self) -> AsyncIterator[AsyncConnection]:
        if self._lock is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._lock, self.engine.begin() as conn:
            yield conn


class SqlIdempotencyStore(_Writes):
    async def claim(self, organization_id: str, key: str, request_hash: str, now: datetime, expires_at: datetime
                    ) -> StoredResponse | None:
        c = t.idempotency_keys.c
        async with self._begin() as conn:
            # An expired key is free again: the 24 hours are over.
            await conn.execute(delete(t.idempotency_keys).where(
                and_(c.organization_id == organization_id, c.key == key, c.expires_at <= now)))
            inserted = await conn.execute(
                self._insert(t.idempotency_keys)
                .values(organization_id=organization_id, key=key, request_hash=request_hash, created_at=now,
                        expires_at=expires_at)
                .on_conflict_do_nothing(index_elements=["organization_id", "key"]))
            if inserted.rowcount == 1:
                return None
            row = (await conn.execute(select(c.request_hash, c.status_code, c.response_body, c.content_type).where(
                and_(c.organization_id == organization_id, c.key == key)))).one()
        return StoredResponse(row.request_hash, row.status_code, row.response_body or b"", row.content_type or "")

    async def save(self, organization_id: str, key: str, status_code: int, body: bytes, content_type: str) -> None:
        c = t.idempotency_keys.c
        async with self._begin() as conn:
            await conn.execute(update(t.idempotency_keys)
                               .where(and_(c.organization_id == organization_id, c.key == key))
                               .values(status_code=status_code, response_body=body, content_type=content_type))

    async def release(self, organization_id: str, key: str) -> None:
        c = t.idempotency_keys.c
        async with self._begin() as conn:
            await conn.execute(delete(t.idempotency_keys).where(
                and_(c.organization_id == organization_id, c.key == key, c.status_code.is_(None))))

    async def purge(self, now: datetime) -> int:
        async with self._begin() as conn:
            result = await conn.execute(delete(t.idempotency_keys).where(t.idempotency_keys.c.expires_at <= now))
        return int(result.rowcount)


class SqlRateLimiter(_Writes):
    """A fixed one-minute window per bucket, counted by one upsert: every API process shares the count."""

    async def hit(self, bucket: str, limit: int, now: datetime) -> Allowance:
        start = now.replace(second=0, microsecond=0)
        statement = self._insert(t.rate_limits).values(bucket=bucket, window_start=start, count=1)
        excluded = statement.excluded
        c = t.rate_limits.c
        statement = statement.on_conflict_do_update(
            index_elements=["bucket"],
            set_={"count": case((c.window_start == excluded.window_start, c.count + 1), else_=1),
                  "window_start": excluded.window_start},
        ).returning(c.count)
        async with self._begin() as conn:
            count = int((await conn.execute(statement)).scalar_one())
        reset = max(1, int((start + timedelta(seconds=WINDOW) - now).total_seconds() + 0.999))
        return Allowance(count <= limit, limit, max(0, limit - count), reset)

    async def purge(self, now: datetime) -> int:
        start = now.replace(second=0, microsecond=0)
        async with self._begin() as conn:
            result = await conn.execute(delete(t.rate_limits).where(t.rate_limits.c.window_start < start))
        return int(result.rowcount)
