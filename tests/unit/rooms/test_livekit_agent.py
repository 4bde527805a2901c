"""The LiveKit transport around the rooms' pipeline, against the `livekit` rtc package's own objects.

There is no LiveKit server here: the room itself is a stand-in that records what the avatar publishes and lets
the test deliver the participant's track, data packets and departure. Everything else is real: the avatar's voice
goes through an `rtc.AudioSource` into a published `LocalAudioTrack` and is read back with an `rtc.AudioStream`, its
video through an `rtc.VideoSource` (I420) read back with an `rtc.VideoStream`, and the participant's microphone is
an `rtc.LocalAudioTrack` fed with the offline voice's speech, which the pipeline hears at 16 kHz and answers.
`LiveKitAgents` runs over a real `AiortcRooms`' engines: joining (a participant already in the room included),
typed turns and their interruption, the participant leaving (the conversation ends, `left`) and hanging up.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import av
import numpy as np
import pytest
from livekit import rtc

from avatar_service.adapters.aiortc_rooms import AiortcRooms
from avatar_service.adapters.aiortc_rooms.video import avatar_composer
from avatar_service.adapters.hosted_rooms import HostedRooms
from avatar_service.adapters.livekit_agent.agents import LiveKitAgents
from avatar_service.adapters.livekit_agent.frames import microphone_samples, video_frame, voice_frame
from avatar_service.adapters.livekit_agent.session import TOPIC, LiveKitSession
from avatar_service.adapters.speech.piper_speech import PiperSpeech
from avatar_service.ports.rooms import RoomMedia
from avatar_service.ports.speech import Audio, SpeechEngines, VoiceChoice

from .fakes import inline

MEDIA = RoomMedia(organization_id="org_1", conversation_id="conv_1", voice=VoiceChoice(provider="openai"))
EXPIRES = datetime(2026, 11, 23, 12, tzinfo=UTC)


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
    def __init__(self, media: RoomMedia = MEDIA) -> None:
        self.media = media
        self.turns: list[str] = []
        self.joins = 0
        self.ended: list[tuple[str, str | None]] = []

    async def room_media(self, organization_id: str, conversation_id: str) -> RoomMedia:
        return self.media

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


TYPED_REPLY = "It closes at five."


class Beeps:
    """A tone 50 ms a character long: 220 Hz, or 660 Hz for the typed reply, to tell the two apart when heard."""

    name = "beeps"

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        t = np.arange(int(0.05 * len(text) * 22050)) / 22050
        pitch = 660 if text == TYPED_REPLY else 220
        return Audio(samples=(8000 * np.sin(2 * np.pi * pitch * t)).astype(np.int16), sample_rate=22050)


def pitch(frame: rtc.AudioFrame) -> float | None:
    """The loudest frequency of a frame, None when it is silent."""
    samples = np.frombuffer(frame.data, np.int16).astype(np.float32)
    if np.abs(samples).max() < 1000:
        return None
    return float(np.argmax(np.abs(np.fft.rfft(samples)))) * frame.sample_rate / samples.size


async def listen(track: Any, heard: list[float | None]) -> None:
    """Reads the avatar's published voice back as LiveKit hands it on, one pitch a frame."""
    stream = rtc.AudioStream.from_track(track=track, sample_rate=48_000, num_channels=1)
    try:
        async for event in stream:
            heard.append(pitch(event.frame))
    finally:
        await stream.aclose()


def agents(host: Host, rooms: list[FakeRoom], room: FakeRoom | None = None) -> LiveKitAgents:
    """LiveKitAgents over a real AiortcRooms' engines (Beeps for speech); each room it makes is `room` or a new
    FakeRoom, kept in `rooms`."""
    engines = AiortcRooms(HostedRooms("http://avatar.example", b"secret"), SpeechEngines({"openai": Beeps()}),
                          inline, transcriber=Transcriber(), warm_up=False)
    engines.attach(host)  # type: ignore[arg-type]

    def make() -> FakeRoom:
        rooms.append(room if room is not None and not rooms else FakeRoom())
        return rooms[-1]

    return LiveKitAgents(engines, "wss://lk.example", lambda ident, expires: f"agent-jwt:{ident}",
                         room_factory=make)


VOICE_ONLY = RoomMedia(organization_id="org_1", conversation_id="conv_1", voice=VoiceChoice(provider="openai"),
                       video_enabled=False)


async def test_push_to_talk_packets_and_a_typed_reply_interrupt() -> None:
    media = RoomMedia(organization_id="org_1", conversation_id="conv_1", voice=VoiceChoice(provider="openai"),
                      vad_enabled=False, video_enabled=False)
    host, rooms = Host(media), []  # type: ignore[var-annotated]
    avatars = agents(host, rooms)
    avatar = await avatars.join("org_1", "conv_1", EXPIRES)
    room = rooms[0]
    heard: list[float | None] = []
    listening = asyncio.ensure_future(listen(room.local_participant.tracks[0][0], heard))
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

        # A typed message over a long reply, as Rooms takes it: the reply is interrupted, then the typed turn's
        # reply is spoken at once (its own pitch heard next, the old reply's never again), in transcript order.
        voice = avatar.voice.queue
        avatar.pipeline.speak_soon("The museum has four floors of paintings. " * 4)
        await until(lambda: voice.queued_seconds > 2, 5)
        await until(lambda: bool(heard) and 150 <= (heard[-1] or 0) <= 300, 3)  # the long reply is playing
        assert await avatars.interrupt("conv_1")
        assert not voice.pending
        await until(lambda: len(room.events("interrupted")) == 2, 1)
        typed = Reply(TYPED_REPLY)
        assert await avatars.reply("conv_1", "When does it close?", typed)
        assert typed.text() == TYPED_REPLY
        await until(lambda: voice.pending, 1)  # the typed reply, queued as soon as it was written...
        assert voice.queued_seconds <= 0.9  # ...alone (0.9 s of it): nothing of the long reply is left
        await until(lambda: any(p is not None and p > 440 for p in heard), 1)
        after = heard[next(i for i, p in enumerate(heard) if p is not None and p > 440):]
        assert all(p is None or p > 440 for p in after), after  # nothing of the old reply after the new one began
        await until(lambda: room.events("transcript")[1:], 2)
        assert [(e["role"], e["content"]) for e in room.events("transcript")] == [
            ("user", "When does it close?"), ("assistant", TYPED_REPLY)]
        assert not room.events("transcript")[1].get("interrupted")
    finally:
        listening.cancel()
        await avatars.close("conv_1")
    assert room.disconnected and "conv_1" not in avatars.sessions


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


@dataclass
class Publication:
    track: Any


@dataclass
class Present:
    """A remote participant as rtc.Room lists it: identity and publications (its microphone's track subscribed)."""

    identity: str
    track_publications: dict[str, Publication] = field(default_factory=dict)


async def test_agents_join_a_room_the_participant_is_already_in_answer_typed_turns_and_hang_up() -> None:
    host, rooms = Host(VOICE_ONLY), []  # type: ignore[var-annotated]
    waiting = FakeRoom()  # the participant joined first: its microphone is published before the avatar connects
    microphone = rtc.LocalAudioTrack.create_audio_track("mic", rtc.AudioSource(48_000, 1))
    waiting.remote_participants["PA_user"] = Present("user", {"TR_mic": Publication(microphone)})
    waiting.remote_participants["PA_other"] = Present("someone-else", {"TR_x": Publication(microphone)})
    avatars = agents(host, rooms, waiting)
    session = await avatars.join("org_1", "conv_1", EXPIRES)
    assert avatars.sessions == {"conv_1": session} and rooms == [waiting]
    assert waiting.connected == ("wss://lk.example", "agent-jwt:conv_1")
    # No track_subscribed event comes for a track that was there before: the avatar listens to it all the same
    # (the participant's only; another participant's track is not theirs).
    await until(lambda: host.joins == 1 and waiting.events("hello"), 2)
    assert waiting.events("joined") and waiting.events("hello")[0]["push_to_talk"] is False
    await asyncio.sleep(0.05)
    assert host.joins == 1

    # A typed turn goes into the room: the user's line, then the reply, spoken.
    turn = Reply("The museum opens at nine.")
    assert await avatars.reply("conv_1", "When does it open?", turn)
    assert await avatars.speak("conv_1", "Welcome back.")
    await until(lambda: waiting.events("transcript")[1:], 2)
    assert [(e["role"], e["content"]) for e in waiting.events("transcript")] == [
        ("user", "When does it open?"), ("assistant", "The museum opens at nine.")]
    assert session.voice is not None and session.voice.queue.pending
    assert not await avatars.reply("conv_other", "Hello?", Reply("-"))  # no such room here
    assert not await avatars.speak("conv_other", "-") and not await avatars.interrupt("conv_other")

    # The end: an `ended` packet with the reason, the room left, the session gone.
    await avatars.hang_up("conv_1", "ended", "max_duration", "The conversation reached its time limit.")
    assert waiting.events("ended") == [{"type": "ended", "status": "ended", "reason": "max_duration",
                                        "message": "The conversation reached its time limit."}]
    assert waiting.disconnected and avatars.sessions == {}
    assert host.ended == []  # the conversation was ended elsewhere: the room only hangs up


async def test_agents_end_the_conversation_as_left_when_the_participant_leaves() -> None:
    host, rooms = Host(VOICE_ONLY), []  # type: ignore[var-annotated]
    avatars = agents(host, rooms)
    await avatars.join("org_1", "conv_1", EXPIRES)
    room = rooms[0]
    room.emit("participant_disconnected", Someone("someone-else"))
    await asyncio.sleep(0.05)
    assert host.ended == [] and "conv_1" in avatars.sessions
    room.emit("participant_disconnected", Someone("user"))
    await until(lambda: host.ended, 2)
    assert host.ended == [("ended", "left")]
    assert room.disconnected and avatars.sessions == {}

    # Joining again (a new agent for the same conversation) replaces the old session, which leaves its room.
    first = await avatars.join("org_1", "conv_1", EXPIRES)
    second = await avatars.join("org_1", "conv_1", EXPIRES)
    assert avatars.sessions == {"conv_1": second} and rooms[1].disconnected and not rooms[2].disconnected
    assert first is not second
    await avatars.close("conv_1")
    assert rooms[2].disconnected and host.ended == [("ended", "left")]  # closing is no leaving


async def test_livekit_rooms_put_the_avatar_in_once_the_conversation_is_stored() -> None:
    from datetime import timedelta

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
