"""PlacedRooms: the RoomProvider of a deployment whose rooms live on `avatar worker` processes (PostgreSQL).

Every process of such a deployment has one. In the API, a participant's offer places the room on a live worker
with a free place (`RoomHosts.place`, under row locks) and is forwarded to it; from then on the media runs there,
and whatever the API is asked to do with the room (a typed message, an interruption, the page leaving, the end)
is forwarded to the same worker. In a worker (`host_id` set) the rooms placed on it run in its own `AiortcRooms`.
Whichever process ends a conversation (a DELETE in the API, a timer in any worker, the room itself) reaches the
room through the placement, and the place is released.

A worker that dies stops heartbeating; `sweep` (run by every job runner) fails its conversations with reason
`host_lost` one lease later, which tells their pages, and frees its places.
"""

from __future__ import annotations

import contextlib
import logging
from datetime import datetime
from typing import Any

import msgspec

from avatar_service.adapters.aiortc_rooms import AiortcRooms
from avatar_service.adapters.room_workers.caller import WorkerCaller, WorkerUnreachable
from avatar_service.core.errors import AtCapacity, Conflict, Invalid, NotFound, Unavailable
from avatar_service.core.model import MessageResult
from avatar_service.ports.clock import Clock
from avatar_service.ports.portraits import PortraitSource
from avatar_service.ports.room_hosts import Placement, RoomHosts
from avatar_service.ports.rooms import ReplyStream, RoomAccess, RoomHost

log = logging.getLogger(__name__)
RETRY_AFTER = 5  # seconds: what a participant refused for want of capacity is told to wait
HANG_UP_TIMEOUT = 5.0  # a worker that does not take a hang-up in this long is left to its own timers


class PlacedRooms:
    """RoomProvider + RoomSignaling + RemoteRoomTurns over `RoomHosts`; the media of local rooms in `local`."""

    def __init__(self, local: AiortcRooms, hosts: RoomHosts, clock: Clock, secret: bytes,
                 livekit: Any = None) -> None:
        self.local, self.hosts, self.clock = local, hosts, clock
        self.livekit = livekit  # LiveKitRooms: rooms on a LiveKit server, the avatar joining from a worker
        self.name = livekit.name if livekit is not None else local.name
        self.caller = WorkerCaller(secret)
        self.host_id: str | None = None  # set in a worker that hosts rooms
        self.host: RoomHost | None = None

    def attach(self, host: RoomHost, portraits: PortraitSource | None = None) -> None:
        self.host = host
        self.local.attach(host, portraits)

    def local_for(self, conversation_id: str) -> Any:
        """What holds the conversation's room in this process: the LiveKit avatar, or the aiortc room."""
        agents = self.livekit.agents if self.livekit is not None else None
        if agents is not None and conversation_id in agents.sessions:
            return agents
        return self.local

    def hosted(self) -> dict[str, Any]:
        """The rooms running in this process, by conversation id (their sessions)."""
        agents = self.livekit.agents if self.livekit is not None else None
        return {**self.local.sessions, **(agents.sessions if agents is not None else {})}

    def _now(self) -> datetime:
        return self.clock.now()

    # --- the conversation's room -----------------------------------------------------------------------

    async def open(self, conversation_id: str, expires_at: datetime) -> RoomAccess:
        if self.livekit is not None:  # its token; the avatar is placed on a worker once the conversation is stored
            return await self.livekit.open(conversation_id, expires_at)  # type: ignore[no-any-return]
        return await self.local.hosted.open(conversation_id, expires_at)  # nothing to warm in this process

    def verify(self, conversation_id: str, token: str, now: datetime) -> bool:
        return self.local.verify(conversation_id, token, now)

    async def close(self, conversation_id: str) -> None:
        await self.hang_up(conversation_id, "ended", "hung_up", "The conversation ended.")

    async def _placement(self, conversation_id: str) -> Placement | None:
        return await self.hosts.find(conversation_id, self._now())

    def _here(self, placement: Placement | None) -> bool:
        return placement is None or placement.host_id == self.host_id

    # --- signaling -------------------------------------------------------------------------------------

    async def answer(self, organization_id: str, conversation_id: str, sdp: str, kind: str) -> tuple[str, str]:
        if self.livekit is not None:
            return await self.livekit.answer(organization_id, conversation_id, sdp, kind)  # type: ignore[no-any-return]
        if kind != "offer":
            raise Invalid("Send an SDP offer; this room answers", param="type")
        if self.host is None:
            raise RuntimeError("PlacedRooms.attach(conversations) was never called")
        await self.host.room_media(organization_id, conversation_id)  # NotFound / Conflict before taking a place
        placement = await self.hosts.place(organization_id, conversation_id, self._now())
        if placement is None:
            raise AtCapacity("Every room worker is full; try again shortly", retry_after=RETRY_AFTER,
                             code="rooms_at_capacity")
        if not placement.alive:
            raise Conflict("The worker hosting this conversation stopped; it is being ended", code="room_host_lost")
        if placement.host_id == self.host_id:
            return await self.local.answer(organization_id, conversation_id, sdp, kind)
        try:
            body = await self.caller.post(placement.url, f"/internal/rooms/{conversation_id}/offer",
                                          {"organization_id": organization_id, "sdp": sdp, "type": kind})
        except WorkerUnreachable as error:
            log.error("room %s: worker %s unreachable: %s", conversation_id, placement.host_id, error)
            await self.hosts.release(conversation_id, placement.host_id)
            raise AtCapacity("The room's worker did not answer; try again shortly", retry_after=RETRY_AFTER,
                             code="room_worker_unreachable") from None
        except (Invalid, NotFound, Conflict, Unavailable):
            await self._release_unless_hosting(conversation_id, placement)
            raise
        return str(body["sdp"]), str(body["type"])

    async def _release_unless_hosting(self, conversation_id: str, placement: Placement) -> None:
        """An offer the worker refused: its place is freed unless an earlier offer's room runs there."""
        with contextlib.suppress(Exception):
            state = await self.caller.post(placement.url, f"/internal/rooms/{conversation_id}/present", {})
            if state.get("present"):
                return
        await self.hosts.release(conversation_id, placement.host_id)

    async def _forward(self, placement: Placement, action: str, payload: dict[str, Any],
                       within: float | None = None) -> Any:
        return await self.caller.post(placement.url, f"/internal/rooms/{placement.conversation_id}/{action}",
                                      payload, within)

    async def speak(self, conversation_id: str, text: str) -> bool:
        placement = await self._placement(conversation_id)
        if self._here(placement):
            return await self.local_for(conversation_id).speak(conversation_id, text)  # type: ignore[no-any-return]
        assert placement is not None
        with contextlib.suppress(WorkerUnreachable):
            return bool((await self._forward(placement, "speak", {"text": text}))["ok"])
        return False

    async def interrupt(self, conversation_id: str) -> bool:
        placement = await self._placement(conversation_id)
        if self._here(placement):
            return await self.local_for(conversation_id).interrupt(conversation_id)  # type: ignore[no-any-return]
        assert placement is not None
        with contextlib.suppress(WorkerUnreachable):
            return bool((await self._forward(placement, "interrupt", {}))["ok"])
        return False

    async def reply(self, conversation_id: str, content: str, turn: ReplyStream) -> bool:
        """Only for a room in this process: a typed turn for a room elsewhere goes there whole (`say`)."""
        placement = await self._placement(conversation_id)
        if self._here(placement):
            return await self.local_for(conversation_id).reply(conversation_id, content, turn)  # type: ignore[no-any-return]
        return False

    async def say(self, organization_id: str, conversation_id: str, content: str) -> MessageResult | None:
        placement = await self._placement(conversation_id)
        if self._here(placement) or placement is None or not placement.alive:
            return None
        try:
            body = await self._forward(placement, "say", {"organization_id": organization_id, "content": content})
        except WorkerUnreachable:
            return None  # the worker is gone: the turn is taken here, as text
        if not body.get("connected"):
            return None
        return msgspec.convert(body["result"], MessageResult)

    async def departing(self, organization_id: str, conversation_id: str) -> None:
        placement = await self._placement(conversation_id)
        if self._here(placement):
            await self.local_for(conversation_id).departing(organization_id, conversation_id)
            return
        assert placement is not None
        with contextlib.suppress(WorkerUnreachable):
            await self._forward(placement, "departing", {"organization_id": organization_id})

    async def hang_up(self, conversation_id: str, status: str, reason: str, message: str) -> None:
        placement = await self._placement(conversation_id)
        if self._here(placement):
            await self.local_for(conversation_id).hang_up(conversation_id, status, reason, message)
        elif placement is not None and placement.alive:
            try:
                await self._forward(placement, "hang-up", {"status": status, "reason": reason, "message": message},
                                    within=HANG_UP_TIMEOUT)
            except (WorkerUnreachable, Unavailable) as error:
                log.warning("room %s: could not tell worker %s it ended: %s", conversation_id, placement.host_id,
                            error)
        if placement is not None:
            await self.hosts.release(conversation_id, placement.host_id)
        if self.livekit is not None:
            await self.livekit.close(conversation_id)  # the LiveKit room goes, the participant with it

    async def place_livekit(self, organization_id: str, conversation_id: str, expires_at: datetime) -> None:
        """A new conversation's LiveKit room: the avatar joins it from a worker with a free place (LiveKitRooms
        calls this once the conversation is stored). Whenever the avatar cannot join, the conversation fails at
        once rather than leave its participant alone in the room until the join timeout: no place, reason
        `at_capacity`; the worker given the place did not answer, `host_lost` (the server that was to host it is
        gone); the worker answered but could not join (LiveKit refused it, say), `media_failed`."""
        placement = await self.hosts.place(organization_id, conversation_id, self._now())
        if placement is None or not placement.alive:
            log.warning("room %s: no room worker has a place for the avatar", conversation_id)
            await self._fail_livekit(organization_id, conversation_id, "at_capacity")
            return
        if placement.host_id == self.host_id:
            await self.livekit.agents.join(organization_id, conversation_id, expires_at)
            return
        try:
            await self._forward(placement, "livekit", {"organization_id": organization_id,
                                                       "expires_at": expires_at.isoformat()})
        except (WorkerUnreachable, Invalid, NotFound, Conflict, Unavailable) as error:
            log.error("room %s: worker %s could not join the LiveKit room: %s", conversation_id,
                      placement.host_id, error)
            await self.hosts.release(conversation_id, placement.host_id)
            reason = "host_lost" if isinstance(error, WorkerUnreachable) else "media_failed"
            await self._fail_livekit(organization_id, conversation_id, reason)

    async def _fail_livekit(self, organization_id: str, conversation_id: str, reason: str) -> None:
        """Fails a conversation whose avatar never joined (ending it hangs up and deletes its LiveKit room)."""
        if self.host is not None:
            with contextlib.suppress(NotFound, Conflict):
                await self.host.end(organization_id, conversation_id, "failed", reason=reason)

    # --- dead workers ----------------------------------------------------------------------------------

    async def sweep(self) -> int:
        """Fails the conversations of workers whose heartbeat stopped and frees their places (every job runner
        runs this, so one live process is enough)."""
        return await self.hosts.expire(self._now(), self._fail)

    async def _fail(self, placements: list[Placement]) -> None:
        if self.host is None:
            return
        for placement in placements:
            log.warning("room %s: its worker %s stopped heartbeating; the conversation fails",
                        placement.conversation_id, placement.host_id)
            with contextlib.suppress(NotFound, Conflict):
                await self.host.end(placement.organization_id, placement.conversation_id, "failed",
                                    reason="host_lost")

    async def aclose(self) -> None:
        await self.local.aclose()
        await self.caller.aclose()
