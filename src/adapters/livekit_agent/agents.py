"""LiveKitAgents: the avatar participants this process runs in LiveKit rooms, one `LiveKitSession` a conversation.

The engines (speech, Whisper, the offload pool, the look of the avatar, metrics) are those of the process's
`AiortcRooms`, so a LiveKit room costs what an aiortc room costs and shares the same model instances. `join`
makes the agent token for the room named after the conversation and connects; the rest mirrors the aiortc
provider's signaling side (typed turns, interruption, the end), so `Rooms` and `Conversations` drive both alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from avatar_service.adapters.aiortc_rooms import AiortcRooms
from avatar_service.adapters.aiortc_rooms.pipeline_session import SessionTurns, close_sessions
from avatar_service.adapters.echo_cancel import echo_canceller
from avatar_service.adapters.livekit_agent.session import LiveKitSession
from avatar_service.core.errors import Conflict, NotFound

log = logging.getLogger(__name__)
AgentToken = Callable[[str, datetime], str]  # (conversation id, expires at) -> a LiveKit JWT for the avatar


class LiveKitAgents(SessionTurns):
    def __init__(self, engines: AiortcRooms, url: str, agent_token: AgentToken, participant: str = "user",
                 room_factory: Callable[[], Any] | None = None) -> None:
        self.engines, self.url, self._token, self.participant = engines, url, agent_token, participant
        self._room_factory = room_factory
        self.sessions: dict[str, LiveKitSession] = {}
        self._background: set[asyncio.Task[Any]] = set()

    async def join(self, organization_id: str, conversation_id: str, expires_at: datetime) -> LiveKitSession:
        """Joins the conversation's LiveKit room as the avatar (the conversation must be open)."""
        engines = self.engines
        if engines.host is None:
            raise RuntimeError("LiveKitAgents: the engines' AiortcRooms.attach(conversations) was never called")
        media = await engines.host.room_media(organization_id, conversation_id)  # NotFound / Conflict when over
        composer = await engines.prepare(organization_id, media)
        session = LiveKitSession(
            media, engines.host, engines.speech.for_provider(media.voice.provider), engines.transcriber,
            engines.offload, composer, self._forget, engines.hangover_ms, engines.fps,
            echo=echo_canceller() if media.audio_enabled else None, observe=engines.observe, on_left=self._left,
            participant=self.participant, room=self._room_factory() if self._room_factory else None,
            video_size=engines.video_size)
        previous = self.sessions.get(conversation_id)
        if previous is not None:
            await previous.close()
        self.sessions[conversation_id] = session
        try:
            await session.start(self.url, self._token(conversation_id, expires_at))
        except Exception:
            await session.close()
            raise
        log.info("room %s: the avatar joined its LiveKit room", conversation_id)
        return session

    def _forget(self, session: LiveKitSession) -> None:
        ident = session.media.conversation_id
        if self.sessions.get(ident) is session:
            del self.sessions[ident]

    def _left(self, session: LiveKitSession) -> None:
        media, host = session.media, self.engines.host
        if host is None:
            return

        async def end() -> None:
            with contextlib.suppress(NotFound, Conflict):
                await host.end(media.organization_id, media.conversation_id, "ended", reason="left")

        task = asyncio.ensure_future(end())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def aclose(self) -> None:
        """At shutdown: the avatar leaves every room, the replies and endings under way are stored."""
        await close_sessions(self.sessions, self.close, lambda: self._background)
        await self.engines.aclose()

    # --- what Rooms and Conversations ask of a room (speak, interrupt, reply: SessionTurns) --------------------

    async def departing(self, organization_id: str, conversation_id: str) -> None:
        return None  # a LiveKit participant's leaving is seen in the room itself (participant_disconnected)

    async def hang_up(self, conversation_id: str, status: str, reason: str, message: str) -> None:
        session = self.sessions.pop(conversation_id, None)
        if session is not None:
            await session.hang_up(status, reason, message)

    async def close(self, conversation_id: str) -> None:
        session = self.sessions.pop(conversation_id, None)
        if session is not None:
            await session.close()
