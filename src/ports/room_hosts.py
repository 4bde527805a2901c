"""Room hosts port: which worker process hosts which conversation's room, and which workers are alive.

A worker that hosts rooms announces itself (its internal URL and how many rooms it takes) and keeps a lease by
heartbeat; the API places each room on a live host with free capacity when its participant sends the offer. A
host whose lease runs out is dead: its rooms are handed back (`expire`) so the conversations can be failed.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Placement:
    """A conversation's room on a host, and where that host takes signaling."""

    conversation_id: str
    organization_id: str
    host_id: str
    url: str
    alive: bool = True  # False: the host's lease ran out (it is dead; its rooms are being failed)


class RoomHosts(Protocol):
    async def announce(self, host_id: str, url: str, capacity: int, now: datetime, lease_seconds: float) -> None:
        """A host starts (or comes back under the same id): alive for `lease_seconds` from `now`."""
        ...

    async def heartbeat(self, host_id: str, now: datetime, lease_seconds: float) -> bool:
        """Extends the host's lease; False when its row is gone (it was taken for dead and its rooms failed)."""
        ...

    async def retire(self, host_id: str) -> None:
        """A host stops cleanly: its row and its placements go."""
        ...

    async def place(self, organization_id: str, conversation_id: str, now: datetime) -> Placement | None:
        """The conversation's room on a host: its current placement when it has one (a reload joins the same
        host), else the least loaded live host with a free place. None when no live host has one."""
        ...

    async def find(self, conversation_id: str, now: datetime) -> Placement | None: ...

    async def placed_on(self, host_id: str) -> list[Placement]: ...

    async def release(self, conversation_id: str, host_id: str) -> None:
        """The room is over on that host: its place is free again (a placement on another host is left alone)."""
        ...

    async def expire(self, now: datetime, fail: "FailRooms") -> int:
        """Finds the hosts whose lease ran out, calls `fail` with their placements, then deletes both; a host
        another process is expiring at the same moment is skipped. Returns the number of rooms failed."""
        ...


class FailRooms(Protocol):
    async def __call__(self, placements: list[Placement]) -> None: ...
