"""The avatar in one conversation's LiveKit room: the same `ConversationPipeline` as the aiortc room, another
transport around it.

It joins with an agent token, subscribes to the participant's microphone (asked of LiveKit at 16 kHz mono, the
pipeline's rate), publishes the avatar's voice (an `AudioSource` fed from the pipeline's `VoiceQueue`, 20 ms at a
time, through the same paced track the aiortc room sends) and its video (a `VideoSource` fed from the same
`AvatarVideoTrack`, I420). The pipeline's events (what was heard and said, interruptions, the end) go out as
reliable data packets on the topic `control`, the page's push-to-talk presses come in on it, exactly the JSON of
the aiortc room's data channel. When the participant leaves the room the conversation ends (reason `left`).
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from livekit import rtc

from avatar_service.adapters.aiortc_rooms.pipeline import Observe
from avatar_service.adapters.aiortc_rooms.pipeline_session import PipelineSession
from avatar_service.adapters.aiortc_rooms.video import LiveAvatar
from avatar_service.adapters.aiortc_rooms.voice import OUT_RATE
from avatar_service.adapters.echo_cancel import EchoCanceller
from avatar_service.adapters.livekit_agent.frames import microphone_samples, video_frame, voice_frame
from avatar_service.ports.offload import Offload
from avatar_service.ports.rooms import RoomHost, RoomMedia
from avatar_service.ports.speech import SpeechSynthesizer
from avatar_service.ports.transcriber import Transcriber

log = logging.getLogger(__name__)
TOPIC = "control"
IN_RATE = 16_000
VOICE_QUEUE_MS = 60  # what LiveKit's source may hold ahead: short, so an interruption is heard within it


class LiveKitSession(PipelineSession):
    """The avatar participant of one conversation's LiveKit room, from `start()` until `close()`."""

    def __init__(self, media: RoomMedia, host: RoomHost, speech: SpeechSynthesizer, transcriber: Transcriber,
                 offload: Offload, composer: LiveAvatar | None, on_closed: Callable[[LiveKitSession], None],
                 hangover_ms: int = 350, fps: int = 15, echo: EchoCanceller | None = None,
                 observe: Observe | None = None, on_left: Callable[[LiveKitSession], None] | None = None,
                 participant: str = "user", room: Any = None, video_size: tuple[int, int] = (480, 360)) -> None:
        super().__init__(media, host, speech, transcriber, offload, composer, hangover_ms, fps, echo, observe)
        self.participant = participant
        self.room = room if room is not None else rtc.Room()
        self.audio_source = rtc.AudioSource(OUT_RATE, 1, queue_size_ms=VOICE_QUEUE_MS) if self.voice else None
        self.video_source = rtc.VideoSource(*video_size) if self.video is not None else None
        self._on_closed, self._on_left = on_closed, on_left

    # --- joining -----------------------------------------------------------------------------------------

    async def start(self, url: str, token: str) -> None:
        room = self.room
        room.on("track_subscribed", self._on_track)
        room.on("data_received", self._on_data)
        room.on("participant_disconnected", self._on_participant_left)
        room.on("disconnected", self._on_disconnected)
        await room.connect(url, token)
        await self.publish()
        self.pipeline.start()
        for participant in list(getattr(room, "remote_participants", {}).values()):  # already there before us
            for publication in participant.track_publications.values():
                if publication.track is not None:
                    self._on_track(publication.track, publication, participant)

    async def publish(self) -> None:
        """The avatar's voice and video as the room's tracks, each fed from the pipeline."""
        participant = self.room.local_participant
        if self.audio_source is not None and self.voice is not None:
            track = rtc.LocalAudioTrack.create_audio_track("avatar-voice", self.audio_source)
            options = rtc.TrackPublishOptions(source=rtc.TrackSource.SOURCE_MICROPHONE)
            await participant.publish_track(track, options)
            self._spawn(self._send_voice())
        if self.video_source is not None and self.video is not None:
            video = rtc.LocalVideoTrack.create_video_track("avatar-video", self.video_source)
            await participant.publish_track(video, rtc.TrackPublishOptions(source=rtc.TrackSource.SOURCE_CAMERA))
            self._spawn(self._send_video())

    async def _send_voice(self) -> None:
        assert self.voice is not None and self.audio_source is not None
        while True:  # the track paces itself in real time (20 ms a frame), silence between replies included
            await self.audio_source.capture_frame(voice_frame(await self.voice.recv()))

    async def _send_video(self) -> None:
        assert self.video is not None and self.video_source is not None
        while True:
            frame = await self.video.recv()
            self.video_source.capture_frame(video_frame(frame), timestamp_us=int(frame.time * 1_000_000))

    # --- the participant ---------------------------------------------------------------------------------

    def _is_participant(self, participant: Any) -> bool:
        return getattr(participant, "identity", None) == self.participant

    def _on_track(self, track: Any, _publication: Any, participant: Any) -> None:
        if track.kind == rtc.TrackKind.KIND_AUDIO and self._is_participant(participant):
            self._spawn(self._listen(track))

    async def _listen(self, track: Any) -> None:
        if not self._joined:
            if not await self._join():  # ended meanwhile
                return
            self._hello()
        stream = rtc.AudioStream.from_track(track=track, sample_rate=IN_RATE, num_channels=1)
        try:
            async for event in stream:
                if self.media.audio_enabled:
                    self.pipeline.hear(microphone_samples(event.frame))
        finally:
            await stream.aclose()

    def _on_data(self, packet: Any) -> None:
        if getattr(packet, "topic", "") != TOPIC or not self._is_participant(getattr(packet, "participant", None)):
            return
        try:
            event = json.loads(bytes(packet.data))
        except (TypeError, ValueError):
            return
        if isinstance(event, dict) and event.get("type") == "talk" and isinstance(event.get("state"), str):
            self.pipeline.talk(event["state"])

    def _on_participant_left(self, participant: Any) -> None:
        if self._is_participant(participant) and not self._closed:
            log.info("room %s: the participant left the LiveKit room", self.media.conversation_id)
            self._spawn(self._gone())

    def _on_disconnected(self, *_: Any) -> None:
        if not self._closed:
            self._spawn(self._gone())

    async def _gone(self) -> None:
        await self.close()
        if self._on_left is not None:
            self._on_left(self)

    def send(self, event: dict[str, Any]) -> None:
        if self._closed and event.get("type") != "ended":
            return
        payload = json.dumps(event)
        self._spawn(self._publish_data(payload))

    async def _publish_data(self, payload: str) -> None:
        with contextlib.suppress(Exception):  # not connected (yet, or any more): the event has no one to reach
            await self.room.local_participant.publish_data(payload, reliable=True, topic=TOPIC)

    # --- tasks and the end ---------------------------------------------------------------------------------

    async def hang_up(self, status: str, reason: str, message: str) -> None:
        self.ended = {"type": "ended", "status": status, "reason": reason, "message": message}
        await self._publish_data(json.dumps(self.ended))
        await self.close()

    async def close(self) -> None:
        if not self._stop():
            return
        with contextlib.suppress(Exception):
            await self.room.disconnect()
        for source in (self.audio_source, self.video_source):
            if source is not None:
                with contextlib.suppress(Exception):
                    await source.aclose()
        self._on_closed(self)
