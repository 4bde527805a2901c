"""Room placement on PostgreSQL (SqlRoomHosts): capacity is never exceeded by concurrent placers, a room is
never on two hosts, a dead host's rooms are handed to exactly one sweeper; and the API answers 503 with
Retry-After when no worker has a place."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from avatar_service.adapters.database_room_hosts import SqlRoomHosts
from avatar_service.adapters.room_workers.placed import PlacedRooms
from avatar_service.ports.room_hosts import Placement
from avatar_service.ports.rooms import RoomProvider

from .conftest import _truncate_all
from .helpers import Service, assert_error, create_personality

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


@pytest.fixture
async def database_url(postgres_database: str) -> str:
    """PostgreSQL only: room workers need it (SQLite hosts its rooms in the server)."""
    await _truncate_all(postgres_database)
    return postgres_database


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    return {"room_placement": "workers", "room_lease_seconds": 3.0}


@pytest.fixture
async def engines(database_url: str) -> AsyncIterator[list[AsyncEngine]]:
    """Two engines: two API processes' pools."""
    made = [create_async_engine(database_url) for _ in range(2)]
    yield made
    for engine in made:
        await engine.dispose()


async def test_concurrent_placements_never_pass_a_hosts_capacity(engines: list[AsyncEngine]) -> None:
    first, second = SqlRoomHosts(engines[0]), SqlRoomHosts(engines[1])
    await first.announce("rh_a", "http://127.0.0.1:9001", 3, NOW, 30)
    await first.announce("rh_b", "http://127.0.0.1:9002", 2, NOW, 30)
    await first.announce("rh_old", "http://127.0.0.1:9003", 5, NOW - timedelta(minutes=5), 30)  # expired

    placed = await asyncio.gather(*[(first if i % 2 else second).place("org_1", f"conv_{i}", NOW)
                                    for i in range(12)])
    taken = [p for p in placed if p is not None]
    assert len(taken) == 5, placed  # 3 + 2 places; the dead host takes none
    by_host = {host: sum(p.host_id == host for p in taken) for host in ("rh_a", "rh_b", "rh_old")}
    assert by_host == {"rh_a": 3, "rh_b": 2, "rh_old": 0}
    assert taken[0].url in ("http://127.0.0.1:9001", "http://127.0.0.1:9002")

    # A full house refuses; a released place takes the next room.
    assert await first.place("org_1", "conv_late", NOW) is None
    await first.release(taken[0].conversation_id, taken[0].host_id)
    again = await second.place("org_1", "conv_late", NOW)
    assert again is not None and again.host_id == taken[0].host_id


async def test_a_room_is_never_placed_on_two_hosts(engines: list[AsyncEngine]) -> None:
    first, second = SqlRoomHosts(engines[0]), SqlRoomHosts(engines[1])
    for index in range(4):
        await first.announce(f"rh_{index}", f"http://127.0.0.1:900{index}", 4, NOW, 30)
    # The same conversation's offer arriving at once at two API processes, many times over (a reload racing).
    placed = await asyncio.gather(*[(first if i % 2 else second).place("org_1", "conv_same", NOW) for i in range(16)])
    assert {p.host_id for p in placed if p is not None} == {placed[0].host_id}  # type: ignore[union-attr]
    assert all(p is not None for p in placed)
    # A second placement of the same conversation on another host is refused by the primary key itself.
    assert (await first.placed_on(placed[0].host_id)) == [placed[0]]  # type: ignore[union-attr]
    other = next(f"rh_{i}" for i in range(4) if f"rh_{i}" != placed[0].host_id)  # type: ignore[union-attr]
    await first.release("conv_same", other)  # another host's release leaves it alone
    found = await second.find("conv_same", NOW)
    assert found is not None and found.host_id == placed[0].host_id  # type: ignore[union-attr]


async def test_a_dead_hosts_rooms_go_to_exactly_one_sweeper(engines: list[AsyncEngine]) -> None:
    first, second = SqlRoomHosts(engines[0]), SqlRoomHosts(engines[1])
    await first.announce("rh_dead", "http://127.0.0.1:9001", 4, NOW, 3)
    await first.announce("rh_live", "http://127.0.0.1:9002", 4, NOW, 3)
    for index in range(3):
        await first.place("org_1", f"conv_{index}", NOW)
    later = NOW + timedelta(seconds=2)
    assert await first.heartbeat("rh_live", later, 3)
    failed: list[list[Placement]] = []

    async def fail(placements: list[Placement]) -> None:
        await asyncio.sleep(0.2)  # the other sweeper runs meanwhile
        failed.append(placements)

    swept = await asyncio.gather(first.expire(NOW + timedelta(seconds=4), fail),
                                 second.expire(NOW + timedelta(seconds=4), fail))
    dead_rooms = [p.conversation_id for batch in failed for p in batch]
    assert sorted(swept) == [0, len(dead_rooms)]
    assert dead_rooms and all(p.host_id == "rh_dead" and not p.alive for batch in failed for p in batch)
    assert not await first.placed_on("rh_dead")
    assert not await first.heartbeat("rh_dead", later, 3)  # its row is gone: it would hang up and announce again
    # The live host's rooms stay.
    live = await first.placed_on("rh_live")
    assert {p.conversation_id for p in live} | set(dead_rooms) == {"conv_0", "conv_1", "conv_2"}


async def test_an_offer_with_no_worker_is_refused_with_retry_after(service: Service) -> None:
    assert isinstance(service.container.resolve(RoomProvider), PlacedRooms)
    personality = await create_personality(service.client, name="Ava")
    created = await service.client.post("/v1/conversations", json={"personality_id": personality["id"]})
    assert created.status_code == 201, created.text
    conversation = created.json()
    token = {"token": conversation["room_token"]}
    offer = await service.client.post(f"/rooms/{conversation['id']}/offer", params=token,
                                      json={"sdp": "v=0\r\n", "type": "offer"})
    assert_error(offer, 503, code="rooms_at_capacity")
    assert int(offer.headers["retry-after"]) > 0
    # A bad token is still a 401, an ended conversation a 409: nothing is placed for either.
    bad = await service.client.post(f"/rooms/{conversation['id']}/offer", params={"token": "rt_1.x"},
                                    json={"sdp": "v=0\r\n", "type": "offer"})
    assert bad.status_code == 401
    await service.client.delete(f"/v1/conversations/{conversation['id']}")
    over = await service.client.post(f"/rooms/{conversation['id']}/offer", params=token,
                                     json={"sdp": "v=0\r\n", "type": "offer"})
    assert over.status_code == 409, over.text
