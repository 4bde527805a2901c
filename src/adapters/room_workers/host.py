"""A worker that hosts rooms: its internal server, its announcement and heartbeat, its places kept honest.

`RoomWorker.run()` (in `avatar worker` with AVATAR_ROOM_CAPACITY > 0) starts the internal server, announces the
worker (id, URL, capacity) and heartbeats every quarter of the lease; its row expires three quarters of a lease
after the last heartbeat, so its rooms fail within one lease of its death. A heartbeat that finds the row gone
means the others took this worker for dead and failed its rooms: the rooms still running here are hung up (their
conversations are over) and the worker announces itself again. A place whose room is no longer here (a
participant that never connected) is released after two heartbeats. Stopping (SIGTERM) fails the rooms still
running, with reason `host_lost`, so their pages say so at once, then retires the worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket

import anyio

from avatar_service.adapters.room_workers.placed import PlacedRooms
from avatar_service.adapters.room_workers.server import Say, WorkerServer
from avatar_service.core.errors import Conflict, NotFound
from avatar_service.core.services.conversations import ENDINGS

log = logging.getLogger(__name__)
# Why these two: every job runner sweeps dead hosts every quarter lease (bootstrap._register_jobs), and a dead
# worker's rooms must fail within the lease (AVATAR_ROOM_LEASE_SECONDS) of its death. A row that expired one
# full lease after the last heartbeat was found up to a quarter lease later: 1.25 leases. Expiring it after
# three quarters of silence, the first sweep after that comes at most 0.75 + 0.25 = 1 lease after the last
# heartbeat, so at most one lease after the death (which comes after that heartbeat). Heartbeats every quarter
# lease keep the margin a live worker had against being taken for dead: three heartbeat intervals fit in the
# time to expiry, as three thirds fitted in the full lease before (one late or lost heartbeat is harmless).
HEARTBEATS_PER_LEASE = 4
DEAD_AFTER = 0.75  # of the lease: a worker silent this long is dead, and the next sweep fails its rooms


class RoomWorker:
    def __init__(self, rooms: PlacedRooms, host_id: str, url: str, capacity: int, lease_seconds: float,
                 secret: bytes, say: Say, bind_url: str = "") -> None:
        if capacity <= 0:
            raise ValueError("a room worker needs a capacity of at least 1")
        self.rooms, self.id, self.capacity, self.lease = rooms, host_id, capacity, lease_seconds
        self.silence = lease_seconds * DEAD_AFTER  # how long the row outlives a heartbeat
        self.server = WorkerServer(rooms, say, secret, bind_url or url)
        self._announce_url = url
        self.url = url
        self._missing: set[str] = set()
        self.started = asyncio.Event()

    async def run(self) -> None:
        self.url = await self.server.start(announced(self._announce_url))
        self.rooms.host_id = self.id
        hosts, clock = self.rooms.hosts, self.rooms.clock
        try:
            await hosts.announce(self.id, self.url, self.capacity, clock.now(), self.silence)
            log.info("room worker %s takes up to %d rooms at %s", self.id, self.capacity, self.url)
            self.started.set()
            while True:
                await anyio.sleep(self.lease / HEARTBEATS_PER_LEASE)
                try:
                    with anyio.CancelScope(shield=True):
                        await self._beat()
                except Exception:
                    log.exception("room worker %s: heartbeat failed", self.id)
        finally:
            with anyio.CancelScope(shield=True):
                await self._stop()

    async def _beat(self) -> None:
        hosts, clock = self.rooms.hosts, self.rooms.clock
        if not await hosts.heartbeat(self.id, clock.now(), self.silence):
            log.error("room worker %s was taken for dead (a heartbeat came too late): hanging up its rooms", self.id)
            for ident in list(self.rooms.hosted()):
                await self.rooms.local_for(ident).hang_up(ident, "failed", "host_lost", ENDINGS["host_lost"])
            await hosts.announce(self.id, self.url, self.capacity, clock.now(), self.silence)
            return
        here = set(self.rooms.hosted())
        for placement in await hosts.placed_on(self.id):
            ident = placement.conversation_id
            if ident in here:
                self._missing.discard(ident)
            elif ident in self._missing:  # placed two heartbeats ago and never (or no longer) here
                self._missing.discard(ident)
                await hosts.release(ident, self.id)
            else:
                self._missing.add(ident)

    async def _stop(self) -> None:
        host = self.rooms.host
        for ident, session in list(self.rooms.hosted().items()):
            if host is not None:
                with contextlib.suppress(NotFound, Conflict, Exception):
                    await host.end(session.media.organization_id, ident, "failed", reason="host_lost")
        with contextlib.suppress(Exception):
            await self.rooms.hosts.retire(self.id)
        await self.server.stop()
        await self.rooms.aclose()


def announced(url: str) -> str:
    """AVATAR_WORKER_URL with `{hostname}` or `{ip}` filled in (this machine's name, or the address it resolves to:
    in a container, the container's own), so replicas started from one configuration announce themselves."""
    if "{hostname}" in url or "{ip}" in url:
        name = socket.gethostname()
        url = url.replace("{hostname}", name).replace("{ip}", socket.gethostbyname(name) if "{ip}" in url else "")
    return url
