"""AiortcRooms: the RoomProvider whose rooms the service hosts itself, one aiortc peer per participant."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Sequence
from datetime import datetime

from avatar_service.adapters.aiortc_rooms.ice import add_host_addresses
from avatar_service.adapters.aiortc_rooms.session import RoomSession
from avatar_service.adapters.aiortc_rooms.video import avatar_composer
from avatar_service.adapters.hosted_rooms import HostedRooms
from avatar_service.core.errors import Invalid
from avatar_service.ports.offload import Offload
from avatar_service.ports.portraits import PortraitSource
from avatar_service.ports.rooms import RoomAccess, RoomHost
from avatar_service.ports.speech import SpeechEngines
from avatar_service.ports.transcriber import Transcriber

log = logging.getLogger(__name__)


@functools.cache
def shared_transcriber() -> Transcriber:
    """One Whisper model per process, shared by every room (it is read-only; loading takes seconds)."""
    from avatar_service.adapters.whisper_transcriber import FasterWhisperTranscriber

    return FasterWhisperTranscriber()


class AiortcRooms:
    """Join page and token from HostedRooms; the media from aiortc peers living in this process.

    The conversation side (`RoomHost`, the Conversations use case) is attached after construction, since
    Conversations itself needs a RoomProvider.
    """

    name = "aiortc"

    def __init__(self, hosted: HostedRooms, speech: SpeechEngines, offload: Offload,
                 transcriber: Transcriber | None = None, host_addresses: Sequence[str] = (),
                 video_size: tuple[int, int] = (480, 360), fps: int = 15, hangover_ms: int = 350) -> None:
        self.hosted, self.speech, self.offload = hosted, speech, offload
        self._transcriber = transcriber
        self.video_size, self.fps, self.hangover_ms = video_size, fps, hangover_ms
        self.host: RoomHost | None = None
        self.portraits: PortraitSource | None = None
        self.sessions: dict[str, RoomSession] = {}
        add_host_addresses(host_addresses)

    def attach(self, host: RoomHost, portraits: PortraitSource | None = None) -> None:
        self.host, self.portraits = host, portraits

    @property
    def transcriber(self) -> Transcriber:
        if self._transcriber is None:
            self._transcriber = shared_transcriber()
        return self._transcriber

    async def open(self, conversation_id: str, expires_at: datetime) -> RoomAccess:
        return await self.hosted.open(conversation_id, expires_at)

    def verify(self, conversation_id: str, token: str, now: datetime) -> bool:
        return self.hosted.verify(conversation_id, token, now)

    async def close(self, conversation_id: str) -> None:
        session = self.sessions.pop(conversation_id, None)
        if session is not None:
            await session.close()

    async def answer(self, organization_id: str, conversation_id: str, sdp: str, kind: str) -> tuple[str, str]:
        if self.host is None:
            raise RuntimeError("AiortcRooms.attach(conversations) was never called")
        if kind != "offer":
            raise Invalid("Send an SDP offer; this room answers", param="type")
        media = await self.host.room_media(organization_id, conversation_id)  # NotFound / Conflict when over
        composer = None
        if media.video_enabled:
            photo = None
            if self.portraits is not None and media.style == "realistic":
                photo = await self.portraits.portrait(organization_id, media.avatar_id)
            composer = await self.offload(avatar_composer, media.avatar_id, media.style, media.background,
                                          *self.video_size, photo)
        if media.audio_enabled:
            # Warm the model while ICE and DTLS connect, so the first utterance does not wait for it.
            warm = asyncio.ensure_future(self.offload(_load, self.transcriber))
            warm.add_done_callback(_log_failure)
        session = RoomSession(media, self.host, self.speech.for_provider(media.voice.provider), self.transcriber,
                              self.offload, composer, self._forget, self.hangover_ms, self.fps)
        previous = self.sessions.get(conversation_id)
        if previous is not None:  # one participant per room: a reload of the page replaces the old peer
            await previous.close()
        self.sessions[conversation_id] = session
        try:
            answer = await session.accept(sdp, kind)
        except Exception:
            await session.close()
            raise
        return answer.sdp, answer.type

    async def speak(self, conversation_id: str, text: str) -> bool:
        session = self.sessions.get(conversation_id)
        if session is None or session.voice is None:
            return False
        session.speak_soon(text)
        return True

    def _forget(self, session: RoomSession) -> None:
        ident = session.media.conversation_id
        if self.sessions.get(ident) is session:
            del self.sessions[ident]


def _log_failure(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("loading the speech-to-text model failed", exc_info=task.exception())


def _load(transcriber: Transcriber) -> None:
    load = getattr(transcriber, "load", None)
    if load is not None:
        load()
