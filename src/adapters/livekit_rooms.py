"""Rooms on a LiveKit server: the room is named after the conversation, the token is a LiveKit access JWT."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta

import aiohttp
from livekit import api

from avatar_service.ports.rooms import RoomAccess

log = logging.getLogger(__name__)

PARTICIPANT_IDENTITY = "user"  # one human per conversation room
AGENT_IDENTITY = "avatar"
MIN_TTL = timedelta(minutes=1)


class LiveKitRooms:
    """For deployments that run a LiveKit server (and their own voice agent in it).

    `room_url` is the LiveKit server's URL and `room_token` an access token that lets its bearer join only
    the room named after the conversation, until the conversation's maximum duration. A LiveKit client
    connects with both (`room.connect(room_url, room_token)`); the service does not carry the media itself.
    """

    name = "livekit"

    def __init__(self, url: str, api_key: str, api_secret: str, close_timeout: float = 5.0) -> None:
        if not (url and api_key and api_secret):
            raise ValueError("LiveKit rooms need AVATAR_LIVEKIT_URL, AVATAR_LIVEKIT_API_KEY and _API_SECRET")
        self.url, self._key, self._secret = url.rstrip("/"), api_key, api_secret
        self._close_timeout = close_timeout

    def _token(self, conversation_id: str, identity: str, name: str, expires_at: datetime, agent: bool) -> str:
        ttl = max(expires_at - datetime.now(UTC), MIN_TTL)
        grants = api.VideoGrants(room_join=True, room=conversation_id, can_publish=True, can_subscribe=True,
                                 can_publish_data=True, agent=agent or None)
        return (api.AccessToken(self._key, self._secret).with_identity(identity).with_name(name)
                .with_metadata(json.dumps({"conversation_id": conversation_id}))
                .with_grants(grants).with_ttl(ttl).to_jwt())

    async def open(self, conversation_id: str, expires_at: datetime) -> RoomAccess:
        token = self._token(conversation_id, PARTICIPANT_IDENTITY, "User", expires_at, agent=False)
        return RoomAccess(room_url=self.url, room_token=token)

    def agent_token(self, conversation_id: str, expires_at: datetime) -> str:
        """A token for the deployment's voice agent to join the same room as the personality."""
        return self._token(conversation_id, AGENT_IDENTITY, "Avatar", expires_at, agent=True)

    async def close(self, conversation_id: str) -> None:
        """Deletes the room, which disconnects everyone in it. Best effort: the server may be unreachable."""
        try:
            lkapi = api.LiveKitAPI(self.url, self._key, self._secret,
                                   timeout=aiohttp.ClientTimeout(total=self._close_timeout))
            try:
                await lkapi.room.delete_room(api.DeleteRoomRequest(room=conversation_id))
            finally:
                await lkapi.aclose()
        except Exception as error:  # the conversation ends regardless; LiveKit's own empty-room timeout cleans up
            log.warning("could not delete LiveKit room %s: %s", conversation_id, error)
