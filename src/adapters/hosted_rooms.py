"""Rooms hosted by the service itself: a join page URL and a signed, expiring token per conversation."""

import base64
import hashlib
import hmac
from datetime import datetime

from avatar_service.ports.rooms import RoomAccess


class HostedRooms:
    name = "hosted"

    def __init__(self, public_url: str, secret: bytes) -> None:
        self.public_url = public_url.rstrip("/")
        self.secret = secret

    def _sign(self, conversation_id: str, expires: int) -> str:
        mac = hmac.new(self.secret, f"room:{conversation_id}:{expires}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    async def open(self, conversation_id: str, expires_at: datetime) -> RoomAccess:
        expires = int(expires_at.timestamp())
        token = f"rt_{expires}.{self._sign(conversation_id, expires)}"
        return RoomAccess(room_url=f"{self.public_url}/rooms/{conversation_id}", room_token=token)

    async def close(self, conversation_id: str) -> None:
        return None  # nothing is held open for a room until someone joins it

    def verify(self, conversation_id: str, token: str, now: datetime) -> bool:
        try:
            expires_text, signature = token.removeprefix("rt_").split(".", 1)
            expires = int(expires_text)
        except ValueError:
            return False
        return expires >= now.timestamp() and hmac.compare_digest(self._sign(conversation_id, expires), signature)
