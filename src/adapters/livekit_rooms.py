"""Rooms on a LiveKit server: the room is named after the conversation, the token is a LiveKit access JWT, and the
avatar joins it as a participant of its own (`adapters/livekit_agent/`), running the aiortc rooms' pipeline."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
from livekit import api

from avatar_service.core.errors import NotFound
from avatar_service.ports.portraits import PortraitSource
from avatar_service.ports.rooms import ReplyStream, RoomAccess, RoomHost

log = logging.getLogger(__name__)

PARTICIPANT_IDENTITY = "user"  # one human per conversation room
AGENT_IDENTITY = "avatar"
MIN_TTL = timedelta(minutes=1)
STORED_WAIT = 10.0  # seconds: `open` runs before the conversation is stored; the avatar joins once it is
# (organization, conversation, expires at): put the avatar in the room (this process, or a room worker)
Dispatch = Callable[[str, str, datetime], Awaitable[None]]
# conversation id -> its organization once stored (None: not (yet) stored)
Lookup = Callable[[str], Awaitable[str | None]]


class LiveKitRooms:
    """For deployments that run a LiveKit server.

    `room_url` is the LiveKit server's URL and `room_token` an access token that lets its bearer join only the
    room named after the conversation, until the conversation's maximum duration. A LiveKit client connects with
    both (`room.connect(room_url, room_token)`). With `agents` (and `lookup`), the service's avatar joins the same
    room once the conversation is stored, hears the participant and answers with its voice and video, as in the
    service's own rooms; `dispatch` replaces where it joins (a room worker, with rooms placed on workers).
    Without them the deployment runs its own agent there (`agent_token`).
    """

    name = "livekit"

    def __init__(self, url: str, api_key: str, api_secret: str, close_timeout: float = 5.0, agents: Any = None,
                 lookup: Lookup | None = None, dispatch: Dispatch | None = None) -> None:
        if not (url and api_key and api_secret):
            raise ValueError("LiveKit rooms need AVATAR_LIVEKIT_URL, AVATAR_LIVEKIT_API_KEY and _API_SECRET")
        self.url, self._key, self._secret = url.rstrip("/"), api_key, api_secret
        self._close_timeout = close_timeout
        self.agents, self.lookup = agents, lookup
        self.dispatch: Dispatch | None = dispatch or (self.join_here if agents is not None else None)
        self._background: set[asyncio.Task[Any]] = set()

    def attach(self, host: RoomHost, portraits: PortraitSource | None = None) -> None:
        if self.agents is not None:
            self.agents.engines.attach(host, portraits)

    def _token(self, conversation_id: str, identity: str, name: str, expires_at: datetime, agent: bool) -> str:
        ttl = max(expires_at - datetime.now(UTC), MIN_TTL)
        grants = api.VideoGrants(room_join=True, room=conversation_id, can_publish=True, can_subscribe=True,
                                 can_publish_data=True, agent=agent or None)
        return (api.AccessToken(self._key, self._secret).with_identity(identity).with_name(name)
                .with_metadata(json.dumps({"conversation_id": conversation_id}))
                .with_grants(grants).with_ttl(ttl).to_jwt())

    async def open(self, conversation_id: str, expires_at: datetime) -> RoomAccess:
        token = self._token(conversation_id, PARTICIPANT_IDENTITY, "User", expires_at, agent=False)
        if self.dispatch is not None and self.lookup is not None:
            task = asyncio.ensure_future(self._avatar_joins(conversation_id, expires_at))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        return RoomAccess(room_url=self.url, room_token=token)

    async def _avatar_joins(self, conversation_id: str, expires_at: datetime) -> None:
        assert self.lookup is not None and self.dispatch is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STORED_WAIT
        while (organization := await self.lookup(conversation_id)) is None:
            if loop.time() > deadline:
                return  # never stored (the create failed): no room to join
            await asyncio.sleep(0.05)
        try:
            await self.dispatch(organization, conversation_id, expires_at)
        except Exception:
            log.exception("room %s: the avatar could not join its LiveKit room", conversation_id)

    async def join_here(self, organization_id: str, conversation_id: str, expires_at: datetime) -> None:
        await self.agents.join(organization_id, conversation_id, expires_at)

    def agent_token(self, conversation_id: str, expires_at: datetime) -> str:
        """A token for the avatar (the service's agent, or the deployment's own) to join the same room."""
        return self._token(conversation_id, AGENT_IDENTITY, "Avatar", expires_at, agent=True)

    async def close(self, conversation_id: str) -> None:
        """Deletes the room, which disconnects everyone in it. Best effort: the server may be unreachable."""
        if self.agents is not None:
            await self.agents.close(conversation_id)
        try:
            lkapi = api.LiveKitAPI(self.url, self._key, self._secret,
                                   timeout=aiohttp.ClientTimeout(total=self._close_timeout))
            try:
                await lkapi.room.delete_room(api.DeleteRoomRequest(room=conversation_id))
            finally:
                await lkapi.aclose()
        except Exception as error:  # the conversation ends regardless; LiveKit's own empty-room timeout cleans up
            log.warning("could not delete LiveKit room %s: %s", conversation_id, error)

    async def aclose(self) -> None:
        """The avatars this process runs in LiveKit rooms leave them, their last replies stored."""
        if self.agents is not None:
            await self.agents.aclose()

    # --- the room's signaling side, for the avatar this process runs -------------------------------------

    async def answer(self, organization_id: str, conversation_id: str, sdp: str, kind: str) -> tuple[str, str]:
        raise NotFound("This conversation's room is on LiveKit: join it with room_url and room_token",
                       code="resource_missing")

    async def speak(self, conversation_id: str, text: str) -> bool:
        return self.agents is not None and bool(await self.agents.speak(conversation_id, text))

    async def interrupt(self, conversation_id: str) -> bool:
        return self.agents is not None and bool(await self.agents.interrupt(conversation_id))

    async def reply(self, conversation_id: str, content: str, turn: ReplyStream) -> bool:
        return self.agents is not None and bool(await self.agents.reply(conversation_id, content, turn))

    async def departing(self, organization_id: str, conversation_id: str) -> None:
        return None  # the participant's leaving is seen in the LiveKit room itself

    async def hang_up(self, conversation_id: str, status: str, reason: str, message: str) -> None:
        """The conversation is over: the avatar tells the participant why (a data packet), then the room goes."""
        if self.agents is not None:
            await self.agents.hang_up(conversation_id, status, reason, message)
        await self.close(conversation_id)
