"""One participant's peer connection and media pipeline: microphone -> VAD -> Whisper -> dialogue -> voice.

The reply streams: each sentence is synthesised and played as soon as the dialogue engine has written it, while
the rest is still being written. An interruption cancels the reply's writing as well as its voice, so a
language model stops generating (the reply is kept as far as it got, marked interrupted).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import numpy as np
from aiortc import RTCPeerConnection, RTCSessionDescription
from aiortc.mediastreams import MediaStreamError, MediaStreamTrack

from avatar_service.adapters.aiortc_rooms.audio import (
    IN_RATE,
    OUT_RATE,
    MicrophoneResampler,
    ReplyAudioTrack,
    SentenceCutter,
    resample,
    sentences,
)
from avatar_service.adapters.aiortc_rooms.early import EarlyTranscription
from avatar_service.adapters.aiortc_rooms.video import AvatarVideoTrack, LiveAvatar
from avatar_service.adapters.vad import VoiceActivityDetector
from avatar_service.core.errors import Conflict, Unavailable
from avatar_service.ports.offload import Offload
from avatar_service.ports.rooms import ReplyStream, RoomHost, RoomMedia
from avatar_service.ports.speech import SpeechSynthesizer
from avatar_service.ports.transcriber import Transcriber

log = logging.getLogger(__name__)

MAX_PUSH_TO_TALK_SECONDS = 30.0


def _synthesize_48k(speech: SpeechSynthesizer, text: str, media: RoomMedia) -> np.ndarray:
    audio = speech.synthesize(text, media.voice)
    return resample(np.asarray(audio.samples), audio.sample_rate, OUT_RATE)


class RoomSession:
    """A participant in a conversation's room, from the SDP offer until hang-up.

    With `vad_enabled`, Silero VAD cuts the microphone into utterances. Without it, the room is push to
    talk: the page sends ``{"type": "talk", "state": "start"}`` and ``"stop"`` on the ``control`` data
    channel, and exactly the audio in between is one utterance. With `interruption_enabled`, the start of
    the user's speech (or a press of the talk button) drops the rest of the reply being spoken.
    """

    def __init__(self, media: RoomMedia, host: RoomHost, speech: SpeechSynthesizer, transcriber: Transcriber,
                 offload: Offload, composer: LiveAvatar | None, on_closed: Callable[[RoomSession], None],
                 hangover_ms: int = 350, fps: int = 15) -> None:
        self.media, self.host, self.speech, self.transcriber, self.offload = media, host, speech, transcriber, offload
        self.pc = RTCPeerConnection()
        self.voice = ReplyAudioTrack() if media.audio_enabled else None
        self.video = AvatarVideoTrack(composer, self.voice, fps) if composer is not None else None
        self.vad = VoiceActivityDetector(hangover_ms=hangover_ms) if media.vad_enabled else None
        self._hangover = hangover_ms / 1000
        self._on_closed = on_closed
        # An utterance's audio, or its transcription already started in the VAD's hang-over; and when it ended.
        self._utterances: asyncio.Queue[tuple[np.ndarray | asyncio.Future[str], float]] = asyncio.Queue()
        self.early = EarlyTranscription(self._transcribe_soon) if self.vad is not None else None
        self._talking: list[np.ndarray] | None = None  # push to talk: audio since "start"
        self._replying: set[asyncio.Task[Any]] = set()  # the reply's writing and speaking: an interruption ends them
        self._writer: asyncio.Task[Any] | None = None  # the reply being written: the next turn waits for it
        self._channel: Any = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._joined = False
        self._closed = False
        self.heard: list[str] = []  # what the transcriber made of each utterance (tests, debugging)
        self.turn_latencies: list[float] = []  # end of speech -> first reply audio queued, seconds
        self.reply_latencies: list[float] = []  # end of speech -> the whole reply written, seconds

    # --- signaling -------------------------------------------------------------------------------------

    async def accept(self, sdp: str, kind: str) -> RTCSessionDescription:
        pc = self.pc
        pc.on("track", self._on_track)
        pc.on("datachannel", self._on_datachannel)
        pc.on("connectionstatechange", self._on_state)
        await pc.setRemoteDescription(RTCSessionDescription(sdp=sdp, type=kind))
        for transceiver in pc.getTransceivers():
            if transceiver.kind == "audio" and self.voice is not None:
                pc.addTrack(self.voice)
            elif transceiver.kind == "video" and self.video is not None:
                pc.addTrack(self.video)
        await pc.setLocalDescription(await pc.createAnswer())  # gathers every ICE candidate first
        self._spawn(self._turns())
        return pc.localDescription

    def _spawn(self, coroutine: Awaitable[Any]) -> None:
        self._spawn_task(asyncio.ensure_future(coroutine))

    def _spawn_task(self, task: asyncio.Task[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled() or self._closed:
            return
        error = task.exception()
        if error is not None:
            log.error("room %s: media pipeline broke", self.media.conversation_id, exc_info=error)
            self._spawn_detached(self._fail())

    def _spawn_detached(self, coroutine: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coroutine)
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved: no "never retrieved"

    async def _fail(self) -> None:
        """A broken pipeline fails the conversation (conversation.ended with status failed) and hangs up."""
        try:
            await self.host.end(self.media.organization_id, self.media.conversation_id, "failed")
        finally:
            await self.close()

    async def _on_state(self) -> None:
        state = self.pc.connectionState
        if state == "connected" and not self._joined:
            self._joined = True
            try:
                await self.host.joined(self.media.organization_id, self.media.conversation_id)
            except Conflict:  # ended meanwhile
                await self.close()
                return
            self.send({"type": "joined"})
        elif state in ("failed", "closed"):
            # The participant left or their network did; the conversation's idle timer ends it.
            await self.close()

    def _on_datachannel(self, channel: Any) -> None:
        self._channel = channel
        channel.on("message", self._on_message)
        # aiortc reports the page's channel once it is open, so the page learns how this room listens now.
        self.send({"type": "hello", "push_to_talk": self.vad is None, "audio": self.voice is not None,
                   "video": self.video is not None})

    def send(self, event: dict[str, Any]) -> None:
        channel = self._channel
        if channel is not None and channel.readyState == "open":
            channel.send(json.dumps(event))

    def _on_message(self, message: Any) -> None:
        try:
            event = json.loads(message)
        except (TypeError, ValueError):
            return
        if not isinstance(event, dict) or event.get("type") != "talk" or self.vad is not None:
            return
        if event.get("state") == "start":
            self._talking = []
            self.interrupt()
        elif event.get("state") == "stop" and self._talking is not None:
            chunks, self._talking = self._talking, None
            if chunks:
                self._utterances.put_nowait((np.concatenate(chunks), time.monotonic()))

    # --- media -----------------------------------------------------------------------------------------

    def _on_track(self, track: MediaStreamTrack) -> None:
        if track.kind == "audio" and self.media.audio_enabled:
            self._spawn(self._listen(track))

    async def _listen(self, track: MediaStreamTrack) -> None:
        to_16k = MicrophoneResampler()
        while True:
            try:
                frame = await track.recv()
            except MediaStreamError:
                return
            samples = to_16k(frame)
            if self.vad is None:
                talking = self._talking
                if talking is not None and len(talking) * samples.size < MAX_PUSH_TO_TALK_SECONDS * IN_RATE:
                    talking.append(samples)
                continue
            for event in self.vad.feed(samples):
                if event.kind == "speech_start":
                    self.interrupt()
                elif event.samples is not None and event.samples.size:
                    # The VAD decides `hangover_ms` after the last voiced window: that is when speech ended.
                    ended = time.monotonic() - self._hangover
                    guess = self.early.take() if self.early is not None else None
                    utterance = guess if guess is not None else (event.samples * 32767).astype(np.int16)
                    self._utterances.put_nowait((utterance, ended))
            if self.early is not None:
                self.early.feed(samples, self.vad.in_speech)

    def _transcribe_soon(self, samples: np.ndarray) -> asyncio.Future[str]:
        return asyncio.ensure_future(self.offload(self.transcriber.transcribe, samples, IN_RATE))

    def interrupt(self) -> None:
        """The user speaks: with interruption enabled, the reply being spoken stops (within a frame), and so does
        the writing of the rest of it."""
        if not self.media.interruption_enabled:
            return
        for task in list(self._replying):
            task.cancel()
        if self.voice is not None and self.voice.cut():
            self.send({"type": "interrupted"})

    def _reply_task(self, coroutine: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coroutine)
        self._spawn_task(task)
        self._replying.add(task)
        task.add_done_callback(self._replying.discard)
        return task

    async def _turns(self) -> None:
        org, ident = self.media.organization_id, self.media.conversation_id
        while True:
            utterance, ended = await self._utterances.get()
            started = time.monotonic()
            if isinstance(utterance, np.ndarray):
                text = (await self.offload(self.transcriber.transcribe, utterance, IN_RATE)).strip()
            else:
                text = (await utterance).strip()
            heard = time.monotonic()
            if not text:
                continue
            self.heard.append(text)
            self.send({"type": "transcript", "role": "user", "content": text})
            if self._writer is not None:  # one reply is written at a time, so the transcript keeps its order
                await asyncio.wait([self._writer])
            try:
                turn = await self.host.voice_turn(org, ident, text)
            except Conflict as error:  # ended, or the transcript is full: nothing more to say here
                self.send({"type": "error", "message": str(error)})
                await self.close()
                return
            log.info("room %s: queued %.0f ms, speech-to-text %.0f ms (%s), turn begun %.0f ms", ident,
                     1000 * (started - ended), 1000 * (heard - started),
                     "begun early" if not isinstance(utterance, np.ndarray) else "after the hang-over",
                     1000 * (time.monotonic() - heard))
            # Written and spoken in tasks of their own: the next utterance is transcribed meanwhile.
            lines: asyncio.Queue[str | None] = asyncio.Queue()
            if self.voice is not None:
                self._reply_task(self._speak(lines, ended))
            self._writer = self._reply_task(self._write(turn, lines, ended, heard))

    async def _write(self, turn: ReplyStream, lines: asyncio.Queue[str | None], ended: float, heard: float) -> None:
        """Takes the reply's pieces as they are written and hands each sentence on to be spoken once complete."""
        cutter, whole = SentenceCutter(), False
        try:
            async for piece in turn:
                for line in cutter.feed(piece):
                    lines.put_nowait(line)
            for line in cutter.end():
                lines.put_nowait(line)
            whole = True
        except Unavailable as error:  # the engine broke off: what it said is spoken and kept; the room goes on
            self.send({"type": "error", "message": error.message})
        finally:
            lines.put_nowait(None)
            await turn.aclose()  # cut short (interrupted, hung up): the model stops; the part is kept, marked
            written = time.monotonic()
            event: dict[str, Any] = {"type": "transcript", "role": "assistant", "content": turn.text()}
            if not whole:
                event["interrupted"] = True
            self.send(event)
            if whole:
                self.reply_latencies.append(written - ended)
                log.info("room %s: turn %.0f ms, whole reply written %.0f ms after the end of speech",
                         self.media.conversation_id, 1000 * (written - heard), 1000 * (written - ended))

    async def _speak(self, lines: asyncio.Queue[str | None], since: float | None = None) -> None:
        """Speaks sentences as they come: each is synthesised while the one before plays."""
        first = True
        while (line := await lines.get()) is not None:
            samples = await self.offload(_synthesize_48k, self.speech, line, self.media)
            if self._closed or self.voice is None:
                return
            self.voice.play(samples)
            if first and since is not None:
                self.turn_latencies.append(time.monotonic() - since)
                log.info("room %s: first reply audio queued %.0f ms after the end of speech",
                         self.media.conversation_id, 1000 * self.turn_latencies[-1])
            first = False

    async def say(self, text: str, since: float | None = None) -> None:
        """Speaks a whole text (a typed turn's reply) sentence by sentence; an interruption stops it too."""
        if self.voice is None:
            return
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        for line in [*sentences(text), None]:
            lines.put_nowait(line)
        await self._speak(lines, since)

    def speak_soon(self, text: str) -> None:
        self._reply_task(self.say(text))

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        current = asyncio.current_task()
        for task in list(self._tasks):
            if task is not current:
                task.cancel()
        for track in (self.voice, self.video):
            if track is not None:
                track.stop()
        with contextlib.suppress(Exception):  # tearing down a half-built connection must not raise
            await self.pc.close()
        self._on_closed(self)
