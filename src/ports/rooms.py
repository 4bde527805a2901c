"""Room provider port: where a conversation's WebRTC room lives and how a client joins it."""

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True, slots=True)
class RoomAccess:
    room_url: str
    room_token: str


class RoomProvider(Protocol):
    name: str

    async def open(self, conversation_id: str, expires_at: datetime) -> RoomAccess: ...

    async def close(self, conversation_id: str) -> None: ...
