"""The LiveKit transport around the rooms' pipeline, against the `livekit` rtc package's own objects.

There is no LiveKit server here: the room itself is a stand-in that records what the avatar publishes and lets
the test deliver the participant's track, data packets and departure. Everything else is real: the avatar's voice
goes through an `rtc.AudioSource` into a published `LocalAudioTrack` and is read back with an `rtc.AudioStream`, its
video through an `rtc.VideoSource` (I420) read back with an `rtc.VideoStream`, and the participant's microphone is
an `rtc.LocalAudioTrack` fed with the offline voice's speech, which the pipeline hears at 16 kHz and answers.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import av
import numpy as np
import pytest
from livekit import rtc

from avatar_service.adapters.aiortc_rooms.video import avatar_composer
from avatar_service.adapters.livekit_agent.frames import microphone_samples, video_frame, voice_frame
from avatar_service.adapters.livekit_agent.session import TOPIC, LiveKitSession
from avatar_service.adapters.speech.piper_speech import PiperSpeech
from avatar_service.ports.rooms import RoomMedia
from avatar_service.ports.speech import Audio, VoiceChoice

MEDIA = RoomMedia(organization_id="org_1", conversation_id="conv_1", voice=VoiceChoice(provider="openai"))


@dataclass
class Someone:
    identity: str


@dataclass
class Packet:
    data: bytes
    topic: str
    participant: Someone


class FakeParticipant:
    def __init__(self) -> None:
        self.tracks: list[tuple[Any, Any]] = []
        self.packets: list[tuple[dict[str, Any], str]] = []

    async def publish_track(self, track: Any, options: Any) -> None:
        self.tracks.append((track, options))

    async def publish_data(self, payload: str, *, reliable: bool = True, topic: str = "") -> None:
        self.packets.append((json.loads(payload), topic))


class FakeRoom:
    """rtc.Room's surface the session uses; `emit` delivers what a LiveKit server would."""

    def __init__(self) -> None:
        self.handlers: dict[str, Any] = {}
        self.local_participant = FakeParticipant()
        self.remote_participants: dict[str, Any] = {}
        self.connected: tuple[str, str] | None = None
        self.disconnected = False

    def on(self, event: str, handler: Any) -> None:
        self.handlers[event] = handler

    def emit(self, event: str, *args: Any) -> None:
        self.handlers[event](*args)

    async def connect(self, url: str, token: str) -> None:
        self.connected = (url, token)

    async def disconnect(self) -> None:
        self.disconnected = True

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [event for event, topic in self.local_participant.packets if event["type"] == kind and topic == TOPIC]


class Reply:
    def __init__(self, text: str) -> None:
        self._text, self.written = text, ""

    async def _pieces(self) -> AsyncIterator[str]:
        for word in self._text.split(" "):
            self.written += word + " "
            yield word + " "

    def __aiter__(self) -> AsyncIterator[str]:
        return self._pieces()

    def text(self) -> str:
        return self.written.strip()

    def set_metrics(self, metrics: dict[str, float | None]) -> None:
        self.metrics = metrics

    async def aclose(self) -> None:
        return None


class Host:
    def __init__(self) -> None:
        self.turns: list[str] = []
        self.joins = 0
        self.ended: list[tuple[str, str | None]] = []

    async def room_media(self, organization_id: str, conversation_id: str) -> RoomMedia:
        return MEDIA

    async def joined(self, organization_id: str, conversation_id: str) -> None:
        self.joins += 1

    async def voice_turn(self, organization_id: str, conversation_id: str, content: str) -> Reply:
        self.turns.append(content)
        return Reply("The museum opens at nine.")

    async def end(self, organization_id: str, conversation_id: str, status: str = "ended",
                  reason: str | None = None) -> None:
        self.ended.append((status, reason))

    async def recorded(self, organization_id: str, conversation_id: str, key: str) -> None:
        return None


class Transcriber:
    def __init__(self) -> None:
        self.heard: list[int] = []

    def transcribe(self, samples: Any, sample_rate: int = 16000) -> str:
        self.heard.append(len(samples))
        return "When does the museum open?"


async def inline(fn: Any, *args: Any) -> Any:
    return fn(*args)


async def until(predicate: Any, seconds: float = 2.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if predicate():
            return
        await asyncio.sleep(0.02)
    assert predicate(), "timed out"


@pytest.fixture(scope="module")
def piper() -> PiperSpeech:
    return PiperSpeech()


def session(room: FakeRoom, host: Host, speech: Any, media: RoomMedia = MEDIA, closed: list[Any] | None = None,
            left: list[Any] | None = None) -> LiveKitSession:
    composer = avatar_composer("ava", "cartoon", "", 160, 120) if media.video_enabled else None
    return LiveKitSession(media, host, speech, Transcriber(), inline, composer,
                          on_closed=(closed if closed is not None else []).append,
                          on_left=(left if left is not None else []).append, room=room, video_size=(160, 120))


def test_frames_convert_both_ways() -> None:
    samples = (8000 * np.sin(np.arange(960) / 10)).astype(np.int16)
    frame = av.AudioFrame.from_ndarray(samples.reshape(1, -1), format="s16", layout="mono")
    frame.sample_rate = 48_000
    out = voice_frame(frame)
    assert (out.sample_rate, out.num_channels, out.samples_per_channel) == (48_000, 1, 960)
    assert np.array_equal(microphone_samples(out), samples)
    stereo = rtc.AudioFrame(np.repeat(samples, 2).tobytes(), 48_000, 2, 960)
    assert np.array_equal(microphone_samples(stereo), samples)

    picture = np.zeros((120, 160, 3), np.uint8)
    picture[:, :80] = (200, 30, 30)  # red left half, black right half
    video = video_frame(av.VideoFrame.from_ndarray(picture, format="rgb24"))
    assert (video.width, video.height, video.type) == (160, 120, rtc.VideoBufferType.I420)
    back = np.frombuffer(video.convert(rtc.VideoBufferType.RGBA).data, np.uint8).reshape(120, 160, 4)
    assert abs(int(back[60, 20, 0]) - 200) < 20 and back[60, 140, :3].max() < 20


async def test_the_avatar_publishes_its_voice_and_video_and_answers_the_participant(piper: PiperSpeech) -> None:
    room, host = FakeRoom(), Host()
    avatar = session(room, host, piper)
    await avatar.start("wss://lk.example", "agent-jwt")
    try:
        assert room.connected == ("wss://lk.example", "agent-jwt")
        (voice, voice_options), (video, video_options) = room.local_participant.tracks
        assert isinstance(voice, rtc.LocalAudioTrack) and voice_options.source == rtc.TrackSource.SOURCE_MICROPHONE
        assert isinstance(video, rtc.LocalVideoTrack) and video_options.source == rtc.TrackSource.SOURCE_CAMERA

        # The published video: the avatar's frames, at the room's size.
        frames = rtc.VideoStream(video)
        first = await asyncio.wait_for(anext(aiter(frames)), 5)
        assert (first.frame.width, first.frame.height) == (160, 120)
        await frames.aclose()

        # The participant speaks (their microphone as LiveKit would hand it over)...
        heard = rtc.AudioStream.from_track(track=voice, sample_rate=48_000, num_channels=1)
        microphone = rtc.AudioSource(48_000, 1)
        room.emit("track_subscribed", rtc.LocalAudioTrack.create_audio_track("mic", microphone), None,
                  Someone("user"))
        question = piper.synthesize("When does the museum open on Sunday morning?", MEDIA.voice)
        speech = av.AudioResampler(format="s16", layout="mono", rate=48_000)
        clip = av.AudioFrame.from_ndarray(np.asarray(question.samples, np.int16).reshape(1, -1), format="s16",
                                          layout="mono")
        clip.sample_rate = question.sample_rate
        samples = np.concatenate([f.to_ndarray().reshape(-1) for f in speech.resample(clip) + speech.resample(None)])
        samples = np.concatenate([np.zeros(24_000, np.int16), samples, np.zeros(48_000, np.int16)])
        for start in range(0, samples.size - 960, 960):
            await microphone.capture_frame(rtc.AudioFrame(samples[start:start + 960].tobytes(), 48_000, 1, 960))
        # ...the pipeline hears the utterance, takes the turn, and the reply goes out on the avatar's track.
        loud = 0
        async with asyncio.timeout(15):
            async for event in heard:
                if np.abs(np.frombuffer(event.frame.data, np.int16)).max() > 1000:
                    loud += 1
                    if loud >= 10:
                        break
        await heard.aclose()
        assert host.joins == 1 and host.turns == ["When does the museum open?"]
        assert room.events("hello") and room.events("joined")
        await until(lambda: room.events("transcript")[1:], 5)
        lines = [(e["role"], e["content"]) for e in room.events("transcript")]
        assert lines == [("user", "When does the museum open?"), ("assistant", "The museum opens at nine.")]
        assert set(room.events("transcript")[1]["metrics"]) >= {"end_of_speech_to_first_audio_ms"}
    finally:
        await avatar.close()
    assert room.disconnected


class Beeps:
    name = "beeps"

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        t = np.arange(int(0.05 * len(text) * 22050)) / 22050
        return Audio(samples=(8000 * np.sin(2 * np.pi * 220 * t)).astype(np.int16), sample_rate=22050)


async def test_push_to_talk_packets_and_a_typed_reply_interrupt() -> None:
    media = RoomMedia(organization_id="org_1", conversation_id="conv_1", voice=VoiceChoice(provider="openai"),
                      vad_enabled=False, video_enabled=False)
    room, host = FakeRoom(), Host()
    avatar = session(room, host, Beeps(), media)
    await avatar.start("wss://lk.example", "agent-jwt")
    try:
        assert len(room.local_participant.tracks) == 1  # voice only
        talk = json.dumps({"type": "talk", "state": "start"}).encode()
        room.emit("data_received", Packet(talk, "other-topic", Someone("user")))
        room.emit("data_received", Packet(talk, TOPIC, Someone("someone-else")))
        assert avatar.pipeline._talking is None  # only the participant's own control packets count
        room.emit("data_received", Packet(talk, TOPIC, Someone("user")))
        assert avatar.pipeline._talking == []
        # A long reply plays; a press of the talk button cuts it (the voice queue empties at once).
        avatar.pipeline.speak_soon("The museum has four floors of paintings. " * 4)
        await until(lambda: (avatar.voice is not None and avatar.voice.queue.pending), 5)
        room.emit("data_received", Packet(talk, TOPIC, Someone("user")))
        assert avatar.voice is not None and not avatar.voice.queue.pending
        await until(lambda: room.events("interrupted"), 2)
    finally:
        await avatar.close()


async def test_the_participant_leaving_ends_it_and_a_hang_up_says_why() -> None:
    media = RoomMedia(organization_id="org_1", conversation_id="conv_1", voice=VoiceChoice(provider="openai"),
                      video_enabled=False)
    room, closed, left = FakeRoom(), [], []  # type: ignore[var-annotated]
    avatar = session(room, Host(), Beeps(), media, closed, left)
    await avatar.start("wss://lk.example", "agent-jwt")
    room.emit("participant_disconnected", Someone("someone-else"))
    await asyncio.sleep(0.05)
    assert not left
    room.emit("participant_disconnected", Someone("user"))
    await until(lambda: left, 2)
    assert closed == [avatar] and room.disconnected

    room = FakeRoom()
    avatar = session(room, Host(), Beeps(), media)
    await avatar.start("wss://lk.example", "agent-jwt")
    await avatar.hang_up("ended", "hung_up", "The conversation was ended by the service.")
    assert room.events("ended") == [{"type": "ended", "status": "ended", "reason": "hung_up",
                                     "message": "The conversation was ended by the service."}]
    assert room.disconnected


async def test_livekit_rooms_put_the_avatar_in_once_the_conversation_is_stored() -> None:
    from datetime import UTC, datetime, timedelta

    from avatar_service.adapters.livekit_rooms import LiveKitRooms

    stored: dict[str, str] = {}
    joined: list[tuple[str, str]] = []

    async def lookup(ident: str) -> str | None:
        return stored.get(ident)

    async def dispatch(org: str, ident: str, expires: datetime) -> None:
        joined.append((org, ident))

    rooms = LiveKitRooms("wss://lk.example", "key", "secret-secret-secret-secret-secret", lookup=lookup,
                         dispatch=dispatch)
    access = await rooms.open("conv_1", datetime.now(UTC) + timedelta(hours=1))
    assert access.room_url == "wss://lk.example" and access.room_token
    await asyncio.sleep(0.2)
    assert joined == []  # not stored yet (open runs before the conversation is written)
    stored["conv_1"] = "org_1"
    await until(lambda: joined, 2)
    assert joined == [("org_1", "conv_1")]
    with pytest.raises(Exception, match="LiveKit"):
        await rooms.answer("org_1", "conv_1", "v=0", "offer")  # no SDP here: the participant joins LiveKit
