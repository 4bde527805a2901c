"""A scripted room participant (aiortc): speaks prepared audio, records the reply. For tests and benchmarks."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import av
import numpy as np
from aiortc import RTCPeerConnection, RTCSessionDescription
from aiortc.mediastreams import MediaStreamError, MediaStreamTrack

from avatar_service.adapters.aiortc_rooms.audio import FRAME_SAMPLES, OUT_RATE, audio_frame, resample
from avatar_service.adapters.aiortc_rooms.pacing import Pacer

SILENT_PEAK = 64  # int16: below this a decoded frame counts as silence (Opus leaves a little noise)


class ScriptedMicrophone(MediaStreamTrack):
    """Silence, and whatever `say()` queues, as 20 ms mono 48 kHz frames in real time."""

    kind = "audio"

    def __init__(self) -> None:
        super().__init__()
        self._queue: deque[np.ndarray] = deque()
        self._pacer = Pacer()
        self._pts = 0
        self.speech_ended_at: float | None = None  # monotonic time the last queued sample went out

    def say(self, samples: np.ndarray, rate: int) -> None:
        """Queue speech; silence before and after the voice is trimmed, so `speech_ended_at` is when it ends."""
        audio = resample(samples, rate, OUT_RATE)
        loud = np.flatnonzero(np.abs(audio.astype(np.int32)) > 500)
        audio = audio[loud[0] : loud[-1] + 1] if loud.size else audio[:0]
        for offset in range(0, audio.size, FRAME_SAMPLES):
            chunk = np.zeros(FRAME_SAMPLES, np.int16)
            part = audio[offset : offset + FRAME_SAMPLES]
            chunk[: part.size] = part
            self._queue.append(chunk)
        self.speech_ended_at = None

    @property
    def speaking(self) -> bool:
        return bool(self._queue)

    async def recv(self) -> av.AudioFrame:
        if self.readyState != "live":
            raise MediaStreamError
        await self._pacer.wait(self._pts / OUT_RATE)
        if self._queue:
            chunk = self._queue.popleft()
            if not self._queue:
                self.speech_ended_at = time.monotonic() + FRAME_SAMPLES / OUT_RATE
        else:
            chunk = np.zeros(FRAME_SAMPLES, np.int16)
        frame = audio_frame(chunk, self._pts)
        self._pts += FRAME_SAMPLES
        return frame


@dataclass
class Heard:
    """What the client received: times (monotonic) of audible reply frames, video frames, data events."""

    audible: list[float] = field(default_factory=list)
    audio_frames: int = 0
    video_frames: int = 0
    last_video: av.VideoFrame | None = None  # the latest frame of the avatar, decoded
    events: list[dict[str, Any]] = field(default_factory=list)


class RoomClient:
    """Joins a room by posting its SDP offer through `post_offer` (which returns the answer's sdp and type)."""

    def __init__(self, receive_video: bool = False) -> None:
        self.pc = RTCPeerConnection()
        self.microphone = ScriptedMicrophone()
        self.heard = Heard()
        self._receive_video = receive_video
        self._tasks: list[asyncio.Task[None]] = []
        self.channel: Any = None

    async def join(self, post_offer: Callable[[str, str], Awaitable[tuple[str, str]]]) -> None:
        pc = self.pc
        pc.addTrack(self.microphone)
        if self._receive_video:
            pc.addTransceiver("video", direction="recvonly")
        self.channel = pc.createDataChannel("control")
        self.channel.on("message", lambda message: self.heard.events.append(json.loads(message)))
        pc.on("track", lambda track: self._tasks.append(asyncio.ensure_future(self._drain(track))))
        await pc.setLocalDescription(await pc.createOffer())
        sdp, kind = await post_offer(pc.localDescription.sdp, pc.localDescription.type)
        await pc.setRemoteDescription(RTCSessionDescription(sdp=sdp, type=kind))

    async def _drain(self, track: MediaStreamTrack) -> None:
        while True:
            try:
                frame = await track.recv()
            except MediaStreamError:
                return
            if track.kind == "video":
                self.heard.video_frames += 1
                if isinstance(frame, av.VideoFrame):
                    self.heard.last_video = frame
                continue
            self.heard.audio_frames += 1
            if isinstance(frame, av.AudioFrame) and int(np.abs(frame.to_ndarray()).max(initial=0)) > SILENT_PEAK:
                self.heard.audible.append(time.monotonic())

    def send(self, event: dict[str, Any]) -> None:
        self.channel.send(json.dumps(event))

    async def wait_for(self, predicate: Callable[[], bool], seconds: float, step: float = 0.02) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if predicate():
                return True
            await asyncio.sleep(step)
        return predicate()

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await self.pc.close()
