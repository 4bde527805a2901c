"""PlacedRooms' routing with the database and the workers stood in for: what is forwarded where, what is freed,
what the participant is told when no worker has a place (the real database and processes are in
tests/integration/test_room_workers.py and test_room_placement.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from avatar_service.adapters.room_workers.caller import WorkerUnreachable
from avatar_service.adapters.room_workers.placed import PlacedRooms
from avatar_service.core.errors import AtCapacity, Unavailable
from avatar_service.ports.room_hosts import Placement
from avatar_service.ports.rooms import RoomMedia
from avatar_service.ports.speech import VoiceChoice

NOW = datetime(2026, 11, 23, tzinfo=UTC)


class Hosts:
    def __init__(self, placement: Placement | None) -> None:
        self.placement = placement
        self.released: list[tuple[str, str]] = []

    async def place(self, organization_id: str, conversation_id: str, now: datetime) -> Placement | None:
        return self.placement

    async def find(self, conversation_id: str, now: datetime) -> Placement | None:
        return self.placement

    async def release(self, conversation_id: str, host_id: str) -> None:
        self.released.append((conversation_id, host_id))


class Caller:
    def __init__(self, fail: bool = False, error: Exception | None = None) -> None:
        self.posts: list[tuple[str, str, dict[str, Any]]] = []
        self.error = error or (WorkerUnreachable("refused") if fail else None)

    async def post(self, base_url: str, path: str, payload: dict[str, Any], within: float | None = None) -> Any:
        self.posts.append((base_url, path, payload))
        if self.error is not None:
            raise self.error
        return {"ok": True, "sdp": "answer", "type": "answer"}

    async def aclose(self) -> None:
        return None


class Local:
    name = "aiortc"
    sessions: dict[str, Any] = {}

    def __init__(self) -> None:
        self.hung_up: list[str] = []

    def attach(self, host: Any, portraits: Any = None) -> None:
        return None

    async def hang_up(self, conversation_id: str, status: str, reason: str, message: str) -> None:
        self.hung_up.append(conversation_id)


class Conversations:
    def __init__(self) -> None:
        self.ended: list[tuple[str, str, str | None]] = []

    async def room_media(self, organization_id: str, conversation_id: str) -> RoomMedia:
        return RoomMedia(organization_id, conversation_id, VoiceChoice(provider="openai"))

    async def end(self, organization_id: str, conversation_id: str, status: str = "ended",
                  reason: str | None = None) -> None:
        self.ended.append((conversation_id, status, reason))


class Clock:
    def now(self) -> datetime:
        return NOW


class LiveKit:
    name = "livekit"

    def __init__(self) -> None:
        self.closed: list[str] = []
        self.agents = type("Agents", (), {"sessions": {}})()

    async def close(self, conversation_id: str) -> None:
        self.closed.append(conversation_id)


def rooms(placement: Placement | None, caller: Caller | None = None, livekit: Any = None
          ) -> tuple[PlacedRooms, Hosts, Local, Conversations]:
    hosts, local, conversations = Hosts(placement), Local(), Conversations()
    placed = PlacedRooms(local, hosts, Clock(), b"secret", livekit)  # type: ignore[arg-type]
    placed.caller = caller or Caller()  # type: ignore[assignment]
    placed.attach(conversations)  # type: ignore[arg-type]
    return placed, hosts, local, conversations


ELSEWHERE = Placement("conv_1", "org_1", "rh_other", "http://10.0.0.9:8100")


async def test_an_offer_is_forwarded_to_the_rooms_worker_or_refused_with_retry_after() -> None:
    placed, _, _, _ = rooms(ELSEWHERE)
    assert await placed.answer("org_1", "conv_1", "offer-sdp", "offer") == ("answer", "answer")
    assert placed.caller.posts == [("http://10.0.0.9:8100", "/internal/rooms/conv_1/offer",  # type: ignore[attr-defined]
                                    {"organization_id": "org_1", "sdp": "offer-sdp", "type": "offer"})]
    full, _, _, _ = rooms(None)
    with pytest.raises(AtCapacity) as refused:
        await full.answer("org_1", "conv_1", "offer-sdp", "offer")
    assert refused.value.retry_after > 0 and refused.value.code == "rooms_at_capacity"


async def test_an_unreachable_worker_frees_the_place_it_was_given() -> None:
    placed, hosts, _, _ = rooms(ELSEWHERE, Caller(fail=True))
    with pytest.raises(AtCapacity):
        await placed.answer("org_1", "conv_1", "offer-sdp", "offer")
    assert hosts.released == [("conv_1", "rh_other")]


async def test_the_end_reaches_the_worker_and_frees_the_place_and_a_dead_ones_is_not_called() -> None:
    placed, hosts, local, _ = rooms(ELSEWHERE)
    await placed.hang_up("conv_1", "ended", "hung_up", "bye")
    assert [path for _, path, _ in placed.caller.posts] == ["/internal/rooms/conv_1/hang-up"]  # type: ignore[attr-defined]
    assert hosts.released == [("conv_1", "rh_other")] and not local.hung_up

    dead = Placement("conv_1", "org_1", "rh_dead", "http://10.0.0.9:8100", alive=False)
    placed, hosts, _, _ = rooms(dead)
    await placed.hang_up("conv_1", "failed", "host_lost", "gone")
    assert placed.caller.posts == [] and hosts.released == [("conv_1", "rh_dead")]  # type: ignore[attr-defined]

    placed, hosts, local, _ = rooms(None)  # never placed (an offer never came): this process's room, if any
    await placed.hang_up("conv_1", "ended", "hung_up", "bye")
    assert local.hung_up == ["conv_1"] and hosts.released == []


async def test_the_livekit_avatar_joins_from_a_worker_or_the_conversation_fails_at_once() -> None:
    expires = NOW + timedelta(hours=1)
    placed, _, _, conversations = rooms(ELSEWHERE, livekit=LiveKit())
    await placed.place_livekit("org_1", "conv_1", expires)
    assert placed.caller.posts == [("http://10.0.0.9:8100", "/internal/rooms/conv_1/livekit",  # type: ignore[attr-defined]
                                    {"organization_id": "org_1", "expires_at": expires.isoformat()})]
    assert conversations.ended == []

    livekit = LiveKit()
    placed, _, _, conversations = rooms(None, livekit=livekit)
    await placed.place_livekit("org_1", "conv_1", expires)
    assert conversations.ended == [("conv_1", "failed", "at_capacity")]
    await placed.hang_up("conv_1", "failed", "at_capacity", "full")
    assert livekit.closed == ["conv_1"]  # the LiveKit room goes with the conversation


@pytest.mark.parametrize(("error", "reason"), [
    (WorkerUnreachable("connection refused"), "host_lost"),  # the worker given the place is gone
    (Unavailable("The room's worker failed", code="room_worker_failed"), "media_failed"),  # it could not join
])
async def test_a_failed_livekit_hand_off_fails_the_conversation_at_once(error: Exception, reason: str) -> None:
    livekit = LiveKit()
    placed, hosts, _, conversations = rooms(ELSEWHERE, Caller(error=error), livekit=livekit)
    await placed.place_livekit("org_1", "conv_1", NOW + timedelta(hours=1))
    assert [path for _, path, _ in placed.caller.posts] == ["/internal/rooms/conv_1/livekit"]  # type: ignore[attr-defined]
    assert hosts.released == [("conv_1", "rh_other")]  # the place is freed...
    assert conversations.ended == [("conv_1", "failed", reason)]  # ...and the participant told now, not at timeout
