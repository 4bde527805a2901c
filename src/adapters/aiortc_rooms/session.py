"""One participant's aiortc peer connection: the transport around the room's `ConversationPipeline`.

The page's microphone track is decoded, resampled to 16 kHz and handed to the pipeline; the pipeline's voice
queue goes out as the audio track and drives the avatar's video track; its events go out on the `control` data
channel, and push-to-talk presses come in on it. When the peer connection closes or fails (the tab was closed,
the network went), the provider is told, so the conversation can end within seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

from aiortc import RTCPeerConnection, RTCSessionDescription
from aiortc.jitterbuffer import JitterBuffer
from aiortc.mediastreams import MediaStreamError, MediaStreamTrack

from avatar_service.adapters.aiortc_rooms.audio import MicrophoneResampler
from avatar_service.adapters.aiortc_rooms.pipeline import Observe
from avatar_service.adapters.aiortc_rooms.pipeline_session import PipelineSession
from avatar_service.adapters.aiortc_rooms.video import LiveAvatar
from avatar_service.adapters.echo_cancel import EchoCanceller
from avatar_service.ports.offload import Offload
from avatar_service.ports.rooms import RoomHost, RoomMedia
from avatar_service.ports.speech import SpeechSynthesizer
from avatar_service.ports.transcriber import Transcriber

log = logging.getLogger(__name__)

SILENT_PEER_SECONDS = 5.0  # a browser sends microphone frames (silent ones too) while its page is open
MAX_UNSENT = 64  # events kept for a data channel that has not opened yet (the first few seconds)


def _own_stream(sender: Any) -> None:
    """aiortc puts every track of a peer connection in one MediaStream (one msid), and a browser then keeps the
    streams' audio and video in sync: it holds the voice back until the video, which takes longer to encode and
    decode, catches up (150 ms and more of every reply's start). In a stream of its own the voice plays as soon as
    it arrives; the video track draws each frame's mouth from the voice a little ahead (`VIDEO_LEAD`), so the lips
    still meet the sound. aiortc has no option for it: the sender's stream id is set before the answer is made."""
    sender._stream_id = str(uuid.uuid4())


def _quick_audio_receiver(receiver: Any) -> None:
    """aiortc holds each incoming audio packet until four more have come (`JitterBuffer(prefetch=4)`): 80 ms
    added to every end of speech the VAD sees. One frame of look-ahead is enough to put reordered packets back in
    order on the paths a room takes; aiortc has no option for it, so its private buffer is replaced."""
    name = "_RTCRtpReceiver__jitter_buffer"
    if getattr(receiver, name, None) is not None:
        setattr(receiver, name, JitterBuffer(capacity=16, prefetch=1))


class RoomSession(PipelineSession):
    """A participant in a conversation's room, from the SDP offer until hang-up."""

    def __init__(self, media: RoomMedia, host: RoomHost, speech: SpeechSynthesizer, transcriber: Transcriber,
                 offload: Offload, composer: LiveAvatar | None, on_closed: Callable[[RoomSession], None],
                 hangover_ms: int = 350, fps: int = 15, echo: EchoCanceller | None = None,
                 observe: Observe | None = None, on_left: Callable[[RoomSession], None] | None = None) -> None:
        super().__init__(media, host, speech, transcriber, offload, composer, hangover_ms, fps, echo, observe)
        self.pc = RTCPeerConnection()
        self._on_closed, self._on_left = on_closed, on_left
        self._channel: Any = None
        # Events sent before the page's data channel opened (ICE may report `connected`, and `joined` be sent,
        # before the SCTP association is up): delivered, in order, once it opens, never dropped.
        self._unsent: list[str] = []
        self._last_heard: float | None = None  # when the last microphone frame came

    # --- signaling -------------------------------------------------------------------------------------

    async def accept(self, sdp: str, kind: str) -> RTCSessionDescription:
        pc = self.pc
        pc.on("track", self._on_track)
        pc.on("datachannel", self._on_datachannel)
        pc.on("connectionstatechange", self._on_state)
        await pc.setRemoteDescription(RTCSessionDescription(sdp=sdp, type=kind))
        for transceiver in pc.getTransceivers():
            if transceiver.kind == "audio":
                _quick_audio_receiver(transceiver.receiver)
                if self.voice is not None:
                    pc.addTrack(self.voice)
            elif transceiver.kind == "video" and self.video is not None:
                pc.addTrack(self.video)
                _own_stream(transceiver.sender)
        await pc.setLocalDescription(await pc.createAnswer())  # gathers every ICE candidate first
        self.pipeline.start()
        return pc.localDescription

    async def _on_state(self) -> None:
        state = self.pc.connectionState
        if state == "connected":
            await self._join()
        elif state in ("failed", "closed") and not self._closed:
            # The participant left (closed the tab) or their network did: the provider ends the conversation
            # unless they come back at once (a reload joins again with a new peer connection).
            await self._gone(f"connection {state}")

    def _on_datachannel(self, channel: Any) -> None:
        self._channel = channel
        channel.on("message", self._on_message)
        channel.on("close", self._on_channel_closed)
        # aiortc reports the page's channel once it is open, so the page learns how this room listens now.
        self._hello()
        unsent, self._unsent = self._unsent, []
        for message in unsent:
            channel.send(message)

    def _on_channel_closed(self) -> None:
        # The page's SCTP association went (a closed tab usually takes it down before ICE notices anything).
        if not self._closed:
            self._spawn(self._gone("its data channel closed"))

    async def _gone(self, why: str) -> None:
        log.info("room %s: the participant is gone (%s)", self.media.conversation_id, why)
        await self.close()
        if self._on_left is not None:
            self._on_left(self)

    async def _watch(self) -> None:
        """A page that stops sending its microphone is gone, whatever ICE thinks (its consent checks take 30 s)."""
        while True:
            await asyncio.sleep(1.0)
            heard = self._last_heard
            if heard is not None and time.monotonic() - heard > SILENT_PEER_SECONDS:
                await self._gone(f"no microphone frame for {SILENT_PEER_SECONDS:.0f} s")
                return

    def send(self, event: dict[str, Any]) -> None:
        channel = self._channel
        if channel is None:
            if len(self._unsent) < MAX_UNSENT:
                self._unsent.append(json.dumps(event))
        elif channel.readyState == "open":
            channel.send(json.dumps(event))

    def _on_message(self, message: Any) -> None:
        try:
            event = json.loads(message)
        except (TypeError, ValueError):
            return
        if isinstance(event, dict) and event.get("type") == "talk" and isinstance(event.get("state"), str):
            self.pipeline.talk(event["state"])

    # --- media -----------------------------------------------------------------------------------------

    def _on_track(self, track: MediaStreamTrack) -> None:
        if track.kind == "audio":
            self._spawn(self._listen(track))
            self._spawn(self._watch())

    async def _listen(self, track: MediaStreamTrack) -> None:
        to_16k = MicrophoneResampler()
        while True:
            try:
                frame = await track.recv()
            except MediaStreamError:
                return
            self._last_heard = time.monotonic()
            if self.media.audio_enabled:
                # The RTP timestamp (aiortc's pts) says when the frame was captured: the echo canceller lines
                # the microphone up with the voice by it, whenever the frame is handled.
                captured = float(frame.pts * frame.time_base) if frame.pts is not None and frame.time_base else None
                self.pipeline.hear(to_16k(frame), captured)

    # --- the end ---------------------------------------------------------------------------------------

    async def hang_up(self, status: str, reason: str, message: str) -> None:
        """Tells the page the conversation is over, and why, then closes the connection."""
        self.ended = {"type": "ended", "status": status, "reason": reason, "message": message}
        self.send(self.ended)
        channel = self._channel
        if channel is not None and channel.readyState == "open":
            # Give SCTP a moment to put the message on the wire before the transport goes.
            for _ in range(10):
                await asyncio.sleep(0.03)
                if getattr(channel, "bufferedAmount", 0) == 0:
                    break
            await asyncio.sleep(0.05)
        await self.close()

    async def close(self) -> None:
        if not self._stop():
            return
        with contextlib.suppress(Exception):  # tearing down a half-built connection must not raise
            await self.pc.close()
        self._on_closed(self)
