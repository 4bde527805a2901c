"""RoomHosts on the service's database: room workers and their rooms as rows, placed under row locks.

Placing a room locks the live hosts' rows (`FOR UPDATE`, in id order so two placers never deadlock), counts
their placements and inserts the new one in the same transaction: two API processes placing at once are
serialized on the host rows, so a host never takes more rooms than its capacity. A conversation's placement is
its primary key, so one room can never be placed on two hosts. Expiring dead hosts takes their rows with
`FOR UPDATE SKIP LOCKED`, so two processes sweeping at once never fail the same rooms twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from avatar_service.adapters.sqlalchemy import tables as t
from avatar_service.ports.room_hosts import FailRooms, Placement

H, P = t.room_hosts.c, t.room_placements.c


class SqlRoomHosts:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    def _locking(self, statement: Any, **options: Any) -> Any:
        # SQLite has one writer at a time already (and no FOR UPDATE).
        return statement.with_for_update(**options) if self.engine.dialect.name == "postgresql" else statement

    async def announce(self, host_id: str, url: str, capacity: int, now: datetime, lease_seconds: float) -> None:
        expires = now + timedelta(seconds=lease_seconds)
        async with self.engine.begin() as conn:
            done = await conn.execute(update(t.room_hosts).where(H.id == host_id)
                                      .values(url=url, capacity=capacity, expires_at=expires))
            if not done.rowcount:
                await conn.execute(insert(t.room_hosts).values(id=host_id, url=url, capacity=capacity,
                                                               started_at=now, expires_at=expires))

    async def heartbeat(self, host_id: str, now: datetime, lease_seconds: float) -> bool:
        async with self.engine.begin() as conn:
            done = await conn.execute(update(t.room_hosts).where(H.id == host_id)
                                      .values(expires_at=now + timedelta(seconds=lease_seconds)))
        return bool(done.rowcount)

    async def retire(self, host_id: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(t.room_placements).where(P.host_id == host_id))
            await conn.execute(delete(t.room_hosts).where(H.id == host_id))

    async def place(self, organization_id: str, conversation_id: str, now: datetime) -> Placement | None:
        async with self.engine.begin() as conn:
            hosts = (await conn.execute(self._locking(
                select(H.id, H.url, H.capacity, H.expires_at).where(H.expires_at > now, H.capacity > 0)
                .order_by(H.id)))).all()
            current = await self._current(conn, conversation_id, now)
            if current is not None:
                return current
            counts: dict[str, int] = dict((await conn.execute(
                select(P.host_id, func.count()).where(P.host_id.in_([h.id for h in hosts])).group_by(P.host_id)
            )).all()) if hosts else {}
            free = [(counts.get(h.id, 0) / h.capacity, h.id, h.url) for h in hosts if counts.get(h.id, 0) < h.capacity]
            if not free:
                return None
            _, host_id, url = min(free)
            try:
                async with conn.begin_nested():
                    await conn.execute(insert(t.room_placements).values(
                        conversation_id=conversation_id, organization_id=organization_id, host_id=host_id,
                        placed_at=now))
            except IntegrityError:  # placed by another process meanwhile (SQLite, where nothing was locked)
                return await self._current(conn, conversation_id, now)
        return Placement(conversation_id, organization_id, host_id, url)

    @staticmethod
    async def _current(conn: Any, conversation_id: str, now: datetime) -> Placement | None:
        row = (await conn.execute(
            select(P.conversation_id, P.organization_id, P.host_id, H.url, H.expires_at)
            .select_from(t.room_placements.outerjoin(t.room_hosts, H.id == P.host_id))
            .where(P.conversation_id == conversation_id))).first()
        if row is None:
            return None
        alive = row.expires_at is not None and row.expires_at > now
        return Placement(row.conversation_id, row.organization_id, row.host_id, row.url or "", alive)

    async def find(self, conversation_id: str, now: datetime) -> Placement | None:
        async with self.engine.connect() as conn:
            return await self._current(conn, conversation_id, now)

    async def placed_on(self, host_id: str) -> list[Placement]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(P.conversation_id, P.organization_id, P.host_id, H.url)
                .select_from(t.room_placements.join(t.room_hosts, H.id == P.host_id))
                .where(P.host_id == host_id))).all()
        return [Placement(r.conversation_id, r.organization_id, r.host_id, r.url) for r in rows]

    async def release(self, conversation_id: str, host_id: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(t.room_placements).where(P.conversation_id == conversation_id,
                                                               P.host_id == host_id))

    async def expire(self, now: datetime, fail: FailRooms) -> int:
        failed = 0
        async with self.engine.begin() as conn:
            dead = (await conn.execute(self._locking(
                select(H.id, H.url).where(H.expires_at <= now), skip_locked=True))).all()
            if not dead:
                return 0
            ids = [row.id for row in dead]
            urls = {row.id: row.url for row in dead}
            rows = (await conn.execute(select(P.conversation_id, P.organization_id, P.host_id)
                                       .where(P.host_id.in_(ids)))).all()
            placements = [Placement(r.conversation_id, r.organization_id, r.host_id, urls[r.host_id], alive=False)
                          for r in rows]
            if placements:
                # The conversations are failed (their own transactions) before the rows go: a sweeper that dies
                # midway leaves the host for the next sweep, and failing an ended conversation changes nothing.
                await fail(placements)
                failed = len(placements)
            await conn.execute(delete(t.room_placements).where(P.host_id.in_(ids)))
            await conn.execute(delete(t.room_hosts).where(H.id.in_(ids)))
        return failed
