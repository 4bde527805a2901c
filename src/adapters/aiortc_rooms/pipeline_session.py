"""What a room session is around its `ConversationPipeline`, whatever carries the media (an aiortc peer connection,
a LiveKit room): the voice and video tracks, the background tasks and what their failure means, typed turns, and
the steps of closing that do not depend on the transport. `RoomSession` and `LiveKitSession` add the transport."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from avatar_service.adapters.aiortc_rooms.audio import ReplyAudioTrack
from avatar_service.adapters.aiortc_rooms.pipeline import ConversationPipeline, Observe
from avatar_service.adapters.aiortc_rooms.video import AvatarVideoTrack, LiveAvatar
from avatar_service.adapters.aiortc_rooms.voice import VoiceQueue
from avatar_service.adapters.echo_cancel import EchoCanceller
from avatar_service.core.errors import Conflict
from avatar_service.ports.offload import Offload
from avatar_service.ports.rooms import ReplyStream, RoomHost, RoomMedia
from avatar_service.ports.speech import SpeechSynthesizer
from avatar_service.ports.transcriber import Transcriber


class PipelineSession:
    """One conversation's pipeline and tracks; subclasses carry its media and events (`send`) and end it (`close`,
    which starts with `_stop()`)."""

    def __init__(self, media: RoomMedia, host: RoomHost, speech: SpeechSynthesizer, transcriber: Transcriber,
                 offload: Offload, composer: LiveAvatar | None, hangover_ms: int, fps: int,
                 echo: EchoCanceller | None, observe: Observe | None) -> None:
        self.media, self.host = media, host
        self._tasks: set[asyncio.Task[Any]] = set()
        self._joined = False
        self._closed = False
        self.ended: dict[str, Any] | None = None  # the "ended" event sent, if the conversation ended
        queue = VoiceQueue() if media.audio_enabled else None
        self.voice = ReplyAudioTrack(queue) if queue is not None else None
        self.pipeline = ConversationPipeline(media, host, speech, transcriber, offload, queue, self.send,
                                             self._broken, echo, observe, hangover_ms)
        self.video = (AvatarVideoTrack(composer, queue, fps, listening=lambda: self.pipeline.user_speaking)
                      if composer is not None else None)

    def send(self, event: dict[str, Any]) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    # --- the participant ------------------------------------------------------------------------------------

    async def _join(self) -> bool:
        """The participant is in: the conversation is told, once, and so is the page (`joined`). False when the
        conversation ended meanwhile (the session is then closed)."""
        if not self._joined:
            self._joined = True
            try:
                await self.host.joined(self.media.organization_id, self.media.conversation_id)
            except Conflict:
                await self.close()
                return False
            self.send({"type": "joined"})
        return True

    def _hello(self) -> None:
        """Tells the page how this room listens and what it sends."""
        self.send({"type": "hello", "push_to_talk": self.media.vad_enabled is False, "audio": self.voice is not None,
                   "video": self.video is not None, "interruption": self.media.interruption_enabled})

    # --- typed turns ---------------------------------------------------------------------------------------

    def speak(self, text: str) -> bool:
        """The avatar says `text` once it is free (a game's line); False when the room has no voice."""
        if self.voice is None:
            return False
        self.pipeline.speak_soon(text)
        return True

    async def reply(self, content: str, turn: ReplyStream) -> None:
        """A typed message: shown as the user's, answered as a spoken one is; returns once the reply is written."""
        self.send({"type": "transcript", "role": "user", "content": content})
        await asyncio.wait([self.pipeline.reply(turn)])

    # --- tasks and the end ---------------------------------------------------------------------------------

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and not self._closed and task.exception() is not None:
            self._broken(task.exception())  # type: ignore[arg-type]

    def _broken(self, error: BaseException) -> None:
        """The pipeline stopped: an ended conversation hangs up; anything else fails it."""
        coroutine = self.close() if isinstance(error, Conflict) else self._fail()
        task = asyncio.ensure_future(coroutine)
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved: no "never retrieved"

    async def _fail(self) -> None:
        """A broken pipeline fails the conversation (conversation.ended with status failed) and hangs up."""
        try:
            await self.host.end(self.media.organization_id, self.media.conversation_id, "failed")
        finally:
            await self.close()

    def running(self) -> set[asyncio.Task[Any]]:
        """The session's tasks and its pipeline's, still running: closing cancels them, and what they were
        storing (a reply cut off) is written as they end."""
        return {task for task in (*self._tasks, *self.pipeline.tasks) if not task.done()}

    def _stop(self) -> bool:
        """Closing's first steps: the pipeline, every task but the one closing, and the tracks stop. False when
        the session was closed already (the caller then has nothing left to do)."""
        if self._closed:
            return False
        self._closed = True
        self.pipeline.close()
        current = asyncio.current_task()
        for task in list(self._tasks):
            if task is not current:
                task.cancel()
        for track in (self.voice, self.video):
            if track is not None:
                track.stop()
        return True


class SessionTurns:
    """What `Rooms` and `Conversations` ask of the session of a conversation, for a provider holding `sessions`
    (`AiortcRooms`, `LiveKitAgents`): False when no session of it is here."""

    sessions: Mapping[str, PipelineSession]  # by conversation id

    async def speak(self, conversation_id: str, text: str) -> bool:
        session = self.sessions.get(conversation_id)
        return session is not None and session.speak(text)

    async def interrupt(self, conversation_id: str) -> bool:
        session = self.sessions.get(conversation_id)
        if session is None:
            return False
        await session.pipeline.settle()
        return True

    async def reply(self, conversation_id: str, content: str, turn: ReplyStream) -> bool:
        session = self.sessions.get(conversation_id)
        if session is None:
            return False
        await session.reply(content, turn)
        return True


CLOSE_GRACE = 10.0  # seconds a shutdown waits, in all, for the rooms to close and their last writes


async def close_sessions(sessions: Mapping[str, PipelineSession], close: Callable[[str], Awaitable[None]],
                         pending: Callable[[], Iterable[asyncio.Future[Any]]] = tuple) -> None:
    """At shutdown: closes every session (by its owner's `close`), then waits until their tasks and the owner's
    `pending` work have ended, for at most CLOSE_GRACE seconds in all. `pending` is asked again after each wait:
    closing adds to it (a recording to write, a conversation to end whose participant had left)."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(CLOSE_GRACE):
            running: set[asyncio.Future[Any]] = set()
            for ident, session in list(sessions.items()):
                running |= session.running()
                await close(ident)
            while running := {task for task in running | set(pending())
                              if not task.done() and task is not asyncio.current_task()}:
                await asyncio.wait(running)
