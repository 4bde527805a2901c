"""Room provider port: where a conversation's WebRTC room lives and how a client joins it."""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from avatar_service.ports.speech import VoiceChoice


@dataclass(frozen=True, slots=True)
class RoomAccess:
    room_url: str
    room_token: str


class RoomProvider(Protocol):
    name: str

    async def open(self, conversation_id: str, expires_at: datetime) -> RoomAccess: ...

    async def close(self, conversation_id: str) -> None: ...

    async def aclose(self) -> None:
        """At shutdown, before storage closes: the rooms this process hosts close, and what they were writing
        is written."""


class RoomTokens(Protocol):
    """Checks the token a room's participant brings (the service signs them whoever hosts the media)."""

    def verify(self, conversation_id: str, token: str, now: datetime) -> bool: ...


@dataclass(frozen=True, slots=True)
class RoomMedia:
    """What a room's media pipeline needs to know about its conversation (its config, voice and look)."""

    organization_id: str
    conversation_id: str
    voice: VoiceChoice
    avatar_id: str = "ava"
    style: str = "cartoon"  # "realistic": a photo avatar, whose portrait the room loads by avatar_id
    background: str = ""  # "": the avatar's own (a photo avatar's photo, a drawn avatar's blurred room)
    audio_enabled: bool = True
    video_enabled: bool = True
    vad_enabled: bool = True
    interruption_enabled: bool = True
    record: bool = False  # write both sides' audio and the avatar's video as an MP4 at the end (`RoomHost.recorded`)


class ReplyStream(Protocol):
    """A reply being written (a streamed text turn): its pieces in order as the dialogue engine writes them.
    `aclose` stops it, the engine's generation too; the reply is then kept as far as it got, marked interrupted."""

    def __aiter__(self) -> AsyncIterator[str]: ...

    def text(self) -> str:
        """The reply as written so far."""
        ...

    def set_metrics(self, metrics: dict[str, float | None]) -> None:
        """The turn's latency figures (ms), stored with the reply in place of the text turn's own."""
        ...

    async def aclose(self) -> None: ...


class RoomHost(Protocol):
    """The conversation side of a room, called by the media pipeline (the Conversations use case)."""

    async def room_media(self, organization_id: str, conversation_id: str) -> RoomMedia: ...

    async def joined(self, organization_id: str, conversation_id: str) -> Any: ...

    async def voice_turn(self, organization_id: str, conversation_id: str, content: str) -> ReplyStream:
        """Stores the user's spoken turn and starts the reply (same retrieval and transcript as a text turn)."""
        ...

    async def end(self, organization_id: str, conversation_id: str, status: str = "ended",
                  reason: str | None = None) -> Any: ...

    async def recorded(self, organization_id: str, conversation_id: str, key: str) -> None:
        """The conversation's recording is in the blob store under `key`."""
        ...


@runtime_checkable
class RoomSignaling(Protocol):
    """A provider whose rooms the service hosts itself: SDP offer in, answer out (ICE gathered first)."""

    async def answer(self, organization_id: str, conversation_id: str, sdp: str, kind: str) -> tuple[str, str]:
        """Returns the answer as (sdp, type)."""
        ...

    async def speak(self, conversation_id: str, text: str) -> bool:
        """Says `text` in the room when a participant is connected; False when nobody is there."""
        ...

    async def interrupt(self, conversation_id: str) -> bool:
        """A typed message is coming: the reply being spoken stops (with interruption enabled) and the reply being
        written is stored before this returns. False when nobody is connected."""
        ...

    async def reply(self, conversation_id: str, content: str, turn: ReplyStream) -> bool:
        """Shows the typed `content` and writes its turn's reply into the room, speaking each sentence as it is
        written; returns once it is written and stored. False when nobody is connected (the caller then collects
        the turn itself)."""
        ...

    async def departing(self, organization_id: str, conversation_id: str) -> None:
        """The participant's page is closing: the conversation ends in a few seconds unless they join again."""
        ...

    async def hang_up(self, conversation_id: str, status: str, reason: str, message: str) -> None:
        """The conversation is over: the participant is told why, and the connection closes."""
        ...


@runtime_checkable
class RemoteRoomTurns(Protocol):
    """A provider whose room may live in another process (a room worker): a typed message is handed to that
    process whole, which interrupts, writes and speaks the reply there, as `Rooms.say` does for a room here."""

    async def say(self, organization_id: str, conversation_id: str, content: str) -> Any:
        """The typed turn's `MessageResult` when the room lives elsewhere and took it; None when the room is in
        this process or nobody is connected (the caller then takes the turn itself)."""
        ...
