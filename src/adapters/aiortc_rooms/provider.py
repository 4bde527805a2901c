"""AiortcRooms: the RoomProvider whose rooms the service hosts itself, one aiortc peer per participant."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import shutil
import tempfile
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from avatar_service.adapters.aiortc_rooms.ice import add_host_addresses
from avatar_service.adapters.aiortc_rooms.pipeline import Observe
from avatar_service.adapters.aiortc_rooms.pipeline_session import SessionTurns, close_sessions
from avatar_service.adapters.aiortc_rooms.recording import RoomRecorder
from avatar_service.adapters.aiortc_rooms.session import RoomSession
from avatar_service.adapters.aiortc_rooms.video import LiveAvatar, avatar_composer
from avatar_service.adapters.echo_cancel import echo_canceller
from avatar_service.adapters.hosted_rooms import HostedRooms
from avatar_service.core.errors import Conflict, Invalid, NotFound
from avatar_service.ports.blobs import BlobStore
from avatar_service.ports.offload import Offload
from avatar_service.ports.portraits import PortraitSource
from avatar_service.ports.rooms import RoomAccess, RoomHost, RoomMedia
from avatar_service.ports.speech import SpeechEngines, VoiceChoice
from avatar_service.ports.transcriber import Transcriber

log = logging.getLogger(__name__)
# Recordings are encoded one at a time, on a thread of their own: a long one never holds the shared offload.
_RECORDING_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="room-recording")


@functools.cache
def shared_transcriber() -> Transcriber:
    """One Whisper model per process, shared by every room (it is read-only; loading takes seconds)."""
    from avatar_service.adapters.whisper_transcriber import FasterWhisperTranscriber

    return FasterWhisperTranscriber(short_window=10.0)  # a room's utterances are short: 4x faster, same WER


class AiortcRooms(SessionTurns):
    """Join page and token from HostedRooms; the media from aiortc peers living in this process.

    The conversation side (`RoomHost`, the Conversations use case) is attached after construction, since
    Conversations itself needs a RoomProvider.
    """

    name = "aiortc"

    def __init__(self, hosted: HostedRooms, speech: SpeechEngines, offload: Offload,
                 transcriber: Transcriber | None = None, host_addresses: Sequence[str] = (),
                 video_size: tuple[int, int] = (480, 360), fps: int = 15, hangover_ms: int = 350,
                 blobs: BlobStore | None = None, work_dir: Path | None = None, observe: Observe | None = None,
                 left_grace: float = 3.0, warm_up: bool = True) -> None:
        self.hosted, self.speech, self.offload = hosted, speech, offload
        self._transcriber = transcriber
        self.video_size, self.fps, self.hangover_ms = video_size, fps, hangover_ms
        self.blobs, self.observe, self.left_grace, self.warm_up = blobs, observe, left_grace, warm_up
        self.work_dir = work_dir or Path(tempfile.gettempdir()) / "avatar-rooms"
        self.host: RoomHost | None = None
        self.portraits: PortraitSource | None = None
        self.sessions: dict[str, RoomSession] = {}
        self.recorders: dict[str, RoomRecorder] = {}
        self.recordings: set[asyncio.Task[None]] = set()  # being written
        self._warm: asyncio.Future[None] | None = None
        self._background: set[asyncio.Future[Any]] = set()
        # At shutdown: participants who left are not waited for (the event, made by the first wait, wakes them), and
        # whether one came back is decided by the rooms open when the shutdown began
        self._wake: asyncio.Event | None = None
        self._open_at_close: dict[str, RoomSession] | None = None
        add_host_addresses(host_addresses)

    def attach(self, host: RoomHost, portraits: PortraitSource | None = None) -> None:
        self.host, self.portraits = host, portraits

    @property
    def transcriber(self) -> Transcriber:
        if self._transcriber is None:
            self._transcriber = shared_transcriber()
        return self._transcriber

    def _keep(self, future: asyncio.Future[Any]) -> None:
        self._background.add(future)
        future.add_done_callback(self._background.discard)
        future.add_done_callback(_log_failure)

    def warm(self) -> asyncio.Future[None]:
        """Loads Whisper and the offline voice and runs each once, off the loop, once per provider: a first turn
        then costs what any turn costs (an unused model's first inference is several times slower)."""
        if self._warm is None:
            self._warm = asyncio.ensure_future(self.offload(_warm_once, self.transcriber, self.speech))
            self._keep(self._warm)
        return self._warm

    async def prepare(self, organization_id: str, media: RoomMedia) -> LiveAvatar | None:
        """What a room (here or in LiveKit) needs before its session starts: the engines warmed (at once if the
        conversation was made before this process started) and, with video, the avatar's composer."""
        composer = None
        if media.video_enabled:
            photo = None
            if self.portraits is not None and media.style == "realistic":
                photo = await self.portraits.portrait(organization_id, media.avatar_id)
            composer = await self.offload(avatar_composer, media.avatar_id, media.style, media.background,
                                          *self.video_size, photo)
        if media.audio_enabled and self.warm_up:
            self.warm()
        return composer

    async def open(self, conversation_id: str, expires_at: datetime) -> RoomAccess:
        if self.warm_up:
            self.warm()  # while the participant is sent to the page
        return await self.hosted.open(conversation_id, expires_at)

    def verify(self, conversation_id: str, token: str, now: datetime) -> bool:
        return self.hosted.verify(conversation_id, token, now)

    async def answer(self, organization_id: str, conversation_id: str, sdp: str, kind: str) -> tuple[str, str]:
        if self.host is None:
            raise RuntimeError("AiortcRooms.attach(conversations) was never called")
        if kind != "offer":
            raise Invalid("Send an SDP offer; this room answers", param="type")
        media = await self.host.room_media(organization_id, conversation_id)  # NotFound / Conflict when over
        composer = await self.prepare(organization_id, media)
        session = RoomSession(media, self.host, self.speech.for_provider(media.voice.provider), self.transcriber,
                              self.offload, composer, self._forget, self.hangover_ms, self.fps,
                              echo=echo_canceller() if media.audio_enabled else None, observe=self.observe,
                              on_left=self._left)
        if media.record:
            self._record(media, session, composer)
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

    # --- the end ----------------------------------------------------------------------------------------

    async def close(self, conversation_id: str) -> None:
        session = self.sessions.pop(conversation_id, None)
        if session is not None:
            await session.close()
        self._finish_recording(conversation_id)

    async def hang_up(self, conversation_id: str, status: str, reason: str, message: str) -> None:
        session = self.sessions.pop(conversation_id, None)
        if session is not None:
            await session.hang_up(status, reason, message)
        self._finish_recording(conversation_id)

    def _left(self, session: RoomSession) -> None:
        """The participant's connection closed or failed: unless they are back within `left_grace` seconds (a
        reload), the conversation ends, reason `left`."""
        media = session.media
        self._keep(asyncio.ensure_future(self._end_unless_back(media.organization_id, media.conversation_id,
                                                               session)))

    async def departing(self, organization_id: str, conversation_id: str) -> None:
        """The page is going away (its `pagehide` beacon): as when its connection closes."""
        session = self.sessions.get(conversation_id)
        self._keep(asyncio.ensure_future(self._end_unless_back(organization_id, conversation_id, session)))

    async def _end_unless_back(self, organization_id: str, ident: str, session: RoomSession | None) -> None:
        if self._open_at_close is None:
            self._wake = self._wake or asyncio.Event()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.left_grace)
        if self._came_back(ident, session):
            return  # a reload joined again
        if self.host is not None:
            with contextlib.suppress(NotFound, Conflict):
                await self.host.end(organization_id, ident, "ended", reason="left")

    async def aclose(self) -> None:
        """At shutdown, before storage closes: every room here closes (a reply being spoken is stored as far as
        it got), the conversation of a participant who had left ends now rather than after the grace, and the
        recordings being written are finished. The conversations of rooms still open stay active: their pages
        join again when the service is back."""
        self._open_at_close = {ident: s for ident, s in self.sessions.items() if not s._closed}
        if self._wake is not None:
            self._wake.set()
        # (not the warm-up, which writes nothing: a shutdown does not wait seconds for Whisper to load)
        await close_sessions(self.sessions, self.close,
                             lambda: [*(task for task in self._background if task is not self._warm), *self.recordings])

    def _came_back(self, ident: str, session: RoomSession | None) -> bool:
        """Whether the conversation's participant, who left `session`, is in another session of it now."""
        if self._open_at_close is not None:  # shutting down: the sessions it is closing count
            current = self._open_at_close.get(ident)
            return current is not None and current is not session
        current = self.sessions.get(ident)
        return current is not None and current is not session and not current._closed

    def _forget(self, session: RoomSession) -> None:
        ident = session.media.conversation_id
        if self.sessions.get(ident) is session:
            del self.sessions[ident]

    # --- recordings -------------------------------------------------------------------------------------

    def _record(self, media: RoomMedia, session: RoomSession, composer: Any) -> None:
        recorder = self.recorders.get(media.conversation_id)
        if recorder is None:
            recorder = RoomRecorder(self.work_dir / "recordings" / media.conversation_id, media.organization_id)
            self.recorders[media.conversation_id] = recorder
        recorder.avatar = composer
        session.pipeline.microphone_taps.append(recorder.hear)
        if session.voice is not None:
            session.voice.queue.taps.append(recorder.say)
        if session.video is not None:
            session.video.on_pose = recorder.pose

    def _finish_recording(self, conversation_id: str) -> None:
        recorder = self.recorders.pop(conversation_id, None)
        if recorder is None:
            return
        recorder.stop()
        task = asyncio.ensure_future(self._write_recording(conversation_id, recorder))
        self.recordings.add(task)
        task.add_done_callback(self.recordings.discard)
        task.add_done_callback(_log_failure)

    async def _write_recording(self, conversation_id: str, recorder: RoomRecorder) -> None:
        """Encodes the MP4 on the recording thread, stores it, and tells the conversation (never blocking the end)."""
        if self.blobs is None or self.host is None:
            return
        path = recorder.folder / "recording.mp4"
        try:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(_RECORDING_THREAD, recorder.write_mp4, path)
            key = f"recordings/{conversation_id}.mp4"
            await self.blobs.put_file(key, path, "video/mp4")
            await self.host.recorded(recorder.organization_id, conversation_id, key)
        finally:
            await asyncio.to_thread(shutil.rmtree, recorder.folder, True)


def _log_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("room background work failed", exc_info=task.exception())


_WARMED: set[int] = set()  # transcribers warmed in this process (the shared one: once per process)
_WARMING = threading.Lock()


def _warm_once(transcriber: Transcriber, speech: SpeechEngines) -> None:
    with _WARMING:
        if id(transcriber) in _WARMED:
            return
        _WARMED.add(id(transcriber))
        _warm(transcriber, speech)


def _warm(transcriber: Transcriber, speech: SpeechEngines) -> None:
    voice = VoiceChoice(provider="openai", voice_id="joe")  # a catalogue voice: always the offline engine, no API
    audio = speech.for_provider("openai").synthesize("Hello there, how are you?", voice)
    load = getattr(transcriber, "load", None)
    if load is not None:
        load()
    transcriber.transcribe(np.asarray(audio.samples), audio.sample_rate)
    from avatar_service.adapters.vad import default_scorer

    # Silero's session (checked against its hash first); where it is missing the energy detector is used and a
    # warning logged, but a tampered graph raises: the warm-up's failure is logged (_log_failure) and each room's
    # VAD refuses it again.
    default_scorer()
