"""RoomWorker with its collaborators stood in for (the host table in memory, the internal server not listening):
a heartbeat that finds its row gone hangs up the rooms and announces the worker again, a place whose room never
arrived is released after two heartbeats, and stopping (SIGTERM cancels `run`) fails the rooms as `host_lost`
and retires the worker. The real database and processes are in tests/integration/test_room_workers.py."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from avatar_service.adapters.room_workers.host import RoomWorker
from avatar_service.adapters.room_workers.placed import PlacedRooms
from avatar_service.core.services.conversations import ENDINGS
from avatar_service.ports.room_hosts import Placement
from avatar_service.ports.rooms import RoomMedia
from avatar_service.ports.speech import VoiceChoice

LEASE = 0.2  # seconds: short, so run()'s heartbeats come every few tens of milliseconds


class Clock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class Hosts:
    """RoomHosts in memory: the rows a sweeper, a placer and the worker itself read and write."""

    def __init__(self) -> None:
        self.rows: dict[str, tuple[str, int, datetime]] = {}  # host id -> (url, capacity, expires at)
        self.placements: dict[str, tuple[str, str]] = {}  # conversation id -> (organization id, host id)
        self.announced: list[str] = []
        self.released: list[str] = []
        self.retired: list[str] = []
        self.leases: set[float] = set()  # how long each announcement and heartbeat kept the row alive

    async def announce(self, host_id: str, url: str, capacity: int, now: datetime, lease_seconds: float) -> None:
        self.leases.add(lease_seconds)
        self.rows[host_id] = (url, capacity, now + timedelta(seconds=lease_seconds))
        self.announced.append(host_id)

    async def heartbeat(self, host_id: str, now: datetime, lease_seconds: float) -> bool:
        if host_id not in self.rows:
            return False
        self.leases.add(lease_seconds)
        url, capacity, _ = self.rows[host_id]
        self.rows[host_id] = (url, capacity, now + timedelta(seconds=lease_seconds))
        return True

    async def retire(self, host_id: str) -> None:
        self.rows.pop(host_id, None)
        self.placements = {c: p for c, p in self.placements.items() if p[1] != host_id}
        self.retired.append(host_id)

    async def placed_on(self, host_id: str) -> list[Placement]:
        return [Placement(c, org, h, self.rows[h][0]) for c, (org, h) in self.placements.items()
                if h == host_id and h in self.rows]

    async def release(self, conversation_id: str, host_id: str) -> None:
        if self.placements.get(conversation_id, ("", ""))[1] == host_id:
            del self.placements[conversation_id]
            self.released.append(conversation_id)

    async def find(self, conversation_id: str, now: datetime) -> Placement | None:
        return None


@dataclass
class Session:
    media: RoomMedia


def media(conversation_id: str) -> RoomMedia:
    return RoomMedia("org_1", conversation_id, VoiceChoice(provider="openai"))


class Local:
    """The worker's AiortcRooms: its sessions, and the hang-ups it was asked for."""

    name = "aiortc"

    def __init__(self) -> None:
        self.sessions: dict[str, Session] = {}
        self.hung_up: list[tuple[str, str, str, str]] = []
        self.closed = False

    def attach(self, host: Any, portraits: Any = None) -> None:
        return None

    async def hang_up(self, conversation_id: str, status: str, reason: str, message: str) -> None:
        self.sessions.pop(conversation_id, None)
        self.hung_up.append((conversation_id, status, reason, message))

    async def aclose(self) -> None:
        self.sessions.clear()
        self.closed = True


class Conversations:
    def __init__(self) -> None:
        self.ended: list[tuple[str, str, str | None]] = []

    async def end(self, organization_id: str, conversation_id: str, status: str = "ended",
                  reason: str | None = None) -> None:
        self.ended.append((conversation_id, status, reason))


class Server:
    def __init__(self) -> None:
        self.stopped = False

    async def start(self, announce_url: str | None = None) -> str:
        return "http://10.0.0.7:8100"

    async def stop(self) -> None:
        self.stopped = True


class Caller:
    closed = False

    async def aclose(self) -> None:
        self.closed = True


def worker() -> tuple[RoomWorker, Hosts, Local, Conversations]:
    hosts, local, conversations = Hosts(), Local(), Conversations()
    rooms = PlacedRooms(local, hosts, Clock(), b"secret")  # type: ignore[arg-type]
    rooms.attach(conversations)  # type: ignore[arg-type]
    rooms.caller = Caller()  # type: ignore[assignment]
    made = RoomWorker(rooms, "rh_1", "http://10.0.0.7:8100", 2, LEASE, b"secret", say=None)  # type: ignore[arg-type]
    made.server = Server()  # type: ignore[assignment]
    return made, hosts, local, conversations


async def until(predicate: Any, seconds: float = 2.0) -> None:
    for _ in range(int(seconds / 0.005)):
        if predicate():
            return
        await asyncio.sleep(0.005)
    assert predicate(), "timed out"


async def test_a_late_heartbeat_hangs_up_the_rooms_and_announces_the_worker_again() -> None:
    made, hosts, local, _ = worker()
    running = asyncio.create_task(made.run())
    try:
        await asyncio.wait_for(made.started.wait(), 2)
        assert hosts.announced == ["rh_1"] and hosts.rows["rh_1"][:2] == ("http://10.0.0.7:8100", 2)
        local.sessions["conv_1"] = Session(media("conv_1"))
        hosts.placements["conv_1"] = ("org_1", "rh_1")
        await asyncio.sleep(LEASE)  # heartbeats come and find the row: nothing is hung up
        assert local.hung_up == [] and hosts.announced == ["rh_1"]

        del hosts.rows["rh_1"]  # a sweeper took the worker for dead and failed its conversations
        hosts.placements.clear()
        await until(lambda: len(hosts.announced) == 2)
        assert local.hung_up == [("conv_1", "failed", "host_lost", ENDINGS["host_lost"])]
        assert local.sessions == {}
        assert hosts.rows["rh_1"][:2] == ("http://10.0.0.7:8100", 2)  # back, under the same id and URL
        # Its row outlives a heartbeat by three quarters of the lease: with sweeps every quarter lease, a dead
        # worker's rooms fail within one lease of its last heartbeat.
        assert hosts.leases == {LEASE * 0.75}
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)


async def test_a_place_whose_room_never_arrived_is_released_after_two_heartbeats() -> None:
    made, hosts, local, _ = worker()
    await hosts.announce("rh_1", "http://10.0.0.7:8100", 2, Clock().now(), LEASE)
    for ident in ("conv_here", "conv_never", "conv_late"):
        hosts.placements[ident] = ("org_1", "rh_1")
    local.sessions["conv_here"] = Session(media("conv_here"))

    await made._beat()  # conv_never and conv_late are not here yet: noted, not released
    assert hosts.released == []
    local.sessions["conv_late"] = Session(media("conv_late"))  # its participant connected in between
    await made._beat()
    assert hosts.released == ["conv_never"]
    assert set(hosts.placements) == {"conv_here", "conv_late"}

    del local.sessions["conv_here"]  # a room that was here and ended without its place being freed
    await made._beat()
    await made._beat()
    assert hosts.released == ["conv_never", "conv_here"] and set(hosts.placements) == {"conv_late"}


async def test_stopping_fails_the_rooms_as_host_lost_and_retires_the_worker() -> None:
    made, hosts, local, conversations = worker()
    running = asyncio.create_task(made.run())
    await asyncio.wait_for(made.started.wait(), 2)
    for ident in ("conv_1", "conv_2"):
        local.sessions[ident] = Session(media(ident))
        hosts.placements[ident] = ("org_1", "rh_1")

    running.cancel()  # what SIGTERM does to `avatar worker`'s task group
    await asyncio.gather(running, return_exceptions=True)
    assert sorted(conversations.ended) == [("conv_1", "failed", "host_lost"), ("conv_2", "failed", "host_lost")]
    assert hosts.retired == ["rh_1"] and hosts.rows == {} and hosts.placements == {}
    assert made.server.stopped and made.rooms.caller.closed and local.closed  # type: ignore[attr-defined]
