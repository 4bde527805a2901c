"""The self-hosted WebRTC room on loopback: an aiortc client speaks a Piper sentence and hears the reply."""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest

from avatar_service.adapters.aiortc_rooms import AiortcRooms
from avatar_service.adapters.aiortc_rooms.client import RoomClient
from avatar_service.adapters.speech.factory import build_offline_speech, build_speech
from avatar_service.entrypoints import bootstrap
from avatar_service.ports.rooms import RoomProvider
from avatar_service.ports.speech import Audio, SpeechEngines, SpeechSynthesizer, VoiceChoice

from .helpers import Service, create_personality

SENTENCE = "When does the museum open on Sunday morning?"


@pytest.fixture(scope="module")
def offline_voice() -> Iterator[SpeechSynthesizer]:
    """Piper loaded once for the module: every app built here speaks with it, and the client's lines too."""
    voice = build_offline_speech()
    voice.synthesize("Hello.", VoiceChoice(provider="openai"))  # load the model now
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bootstrap, "_speech", lambda settings, voices: SpeechEngines(build_speech({}, offline=voice)))
        yield voice


@pytest.fixture(scope="module")
def question(offline_voice: SpeechSynthesizer) -> tuple[np.ndarray, int]:
    """SENTENCE spoken once for the module: every test (and backend) speaks the same clip. Piper samples its
    voice, so each synthesis differs a little, and the odd one Whisper tiny mishears."""
    speech = offline_voice.synthesize(SENTENCE, VoiceChoice(provider="openai"))
    return np.asarray(speech.samples), speech.sample_rate


@pytest.fixture
def settings_overrides(offline_voice: SpeechSynthesizer) -> dict[str, Any]:
    return {"room_host_addresses": "127.0.0.1"}


def word_error_rate(reference: str, hypothesis: str) -> float:
    ref, hyp = re.findall(r"[a-z0-9']+", reference.lower()), re.findall(r"[a-z0-9']+", hypothesis.lower())
    row = list(range(len(hyp) + 1))  # Levenshtein distance over words, one row at a time
    for i, word in enumerate(ref, 1):
        previous, row[0] = row[0], i
        for j, other in enumerate(hyp, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (word != other))
    return row[-1] / max(len(ref), 1)


async def _open_room(service: Service, appearance: dict[str, Any] | None = None,
                     **config: bool) -> tuple[dict[str, Any], RoomClient]:
    client = service.client
    personality = await create_personality(client, name="Ava", **({"appearance": appearance} if appearance else {}))
    await client.post(f"/v1/personalities/{personality['id']}/knowledge",
                      json={"type": "text", "content": "The museum opens at 9am on Sundays and closes at 5pm."})
    await service.drain()
    response = await client.post("/v1/conversations", json={"personality_id": personality["id"],
                                                            "config": config})
    assert response.status_code == 201, response.text
    conversation = response.json()
    room = RoomClient(receive_video=config.get("video_enabled", True))
    token = conversation["room_token"]

    async def post_offer(sdp: str, kind: str) -> tuple[str, str]:
        answer = await client.post(f"/rooms/{conversation['id']}/offer", params={"token": token},
                                   json={"sdp": sdp, "type": kind})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        return body["sdp"], body["type"]

    await room.join(post_offer)
    return conversation, room


async def _transcript(service: Service, ident: str) -> list[dict[str, Any]]:
    body = (await service.client.get(f"/v1/conversations/{ident}", params={"include_transcript": "true"})).json()
    return list(body["transcript"] or [])


async def _status(service: Service, ident: str) -> str:
    return str((await service.client.get(f"/v1/conversations/{ident}")).json()["status"])


async def test_spoken_turn_is_transcribed_and_answered_aloud(service: Service,
                                                            question: tuple[np.ndarray, int]) -> None:
    conversation, room = await _open_room(service)
    ident = conversation["id"]
    try:
        assert await room.wait_for(lambda: room.pc.connectionState == "connected", 10)
        statuses: list[str] = []
        for _ in range(100):  # the server marks the join when its side of the connection is up
            statuses.append(await _status(service, ident))
            if statuses[-1] == "active":
                break
            await room.wait_for(lambda: False, 0.05)
        assert statuses[-1] == "active", statuses
        # A browser's microphone sends from the moment it connects; this one too, before it speaks (otherwise the
        # room's first frames would be the first word, with nothing before it to keep).
        assert await room.wait_for(lambda: room.microphone._pts >= 48_000 // 2, 10)

        room.microphone.say(*question)
        assert await room.wait_for(lambda: room.microphone.speech_ended_at is not None, 10)
        ended = room.microphone.speech_ended_at
        assert ended is not None
        assert await room.wait_for(lambda: any(t > ended for t in room.heard.audible), 30), \
            f"no reply audio; events: {room.heard.events}"
        first_reply = min(t for t in room.heard.audible if t > ended)

        transcript = await _transcript(service, ident)
        said = [t for t in transcript if t["role"] == "user"]
        assert len(said) == 1, transcript
        assert word_error_rate(SENTENCE, said[0]["content"]) <= 0.10, said[0]
        replies = [t for t in transcript if t["role"] == "assistant"]
        assert replies and replies[-1]["timestamp"] >= said[0]["timestamp"]
        assert "9" in replies[-1]["content"] or "nine" in replies[-1]["content"].lower(), replies
        # The spoken turn's figures, every stage of which happened; the metrics endpoint has them too.
        figures = replies[-1]["metrics"]
        assert set(figures) == {"end_of_speech_to_text_ms", "text_to_reply_ms", "reply_to_first_audio_ms",
                                "end_of_speech_to_first_audio_ms"}, figures
        assert all(isinstance(v, float) and v >= 0 for v in figures.values()), figures
        exposed = (await service.client.get("/metrics")).text
        assert 'avatar_room_turn_seconds_count{stage="first_audio"}' in exposed
        # The data channel told the page what was heard and said; the avatar's video came too.
        kinds = [(e["type"], e.get("role")) for e in room.heard.events]
        assert ("transcript", "user") in kinds and ("transcript", "assistant") in kinds, kinds
        assert await room.wait_for(lambda: room.heard.video_frames > 0, 5)
        print(f"voice-to-voice: {first_reply - ended:.3f} s")  # shown with -s; the benchmark measures it properly

        ended_body = (await service.client.delete(f"/v1/conversations/{ident}")).json()
        assert ended_body["status"] == "ended"
        rooms = service.container.resolve(RoomProvider)
        assert isinstance(rooms, AiortcRooms) and ident not in rooms.sessions  # the peer connection is gone
        assert await room.wait_for(lambda: room.pc.connectionState in ("closed", "failed", "disconnected"), 15)
    finally:
        await room.close()


async def test_interruption_stops_the_reply(service: Service, offline_voice: SpeechSynthesizer) -> None:
    """Speech while the reply plays cuts it off: the client hears silence soon after it starts talking."""
    conversation, room = await _open_room(service, video_enabled=False)
    ident = conversation["id"]
    try:
        assert await room.wait_for(lambda: room.pc.connectionState == "connected", 10)
        rooms = service.container.resolve(RoomProvider)
        assert isinstance(rooms, AiortcRooms)
        assert await room.wait_for(lambda: ident in rooms.sessions, 5)
        session = rooms.sessions[ident]
        long_reply = " ".join(["The museum has four floors of paintings and a garden with old trees."] * 4)
        session.pipeline.speak_soon(long_reply)
        assert await room.wait_for(lambda: bool(room.heard.audible), 20)
        await room.wait_for(lambda: False, 0.5)
        speech = offline_voice.synthesize("Wait, stop please.", VoiceChoice(provider="openai"))
        started = time.monotonic()
        room.microphone.say(np.asarray(speech.samples), speech.sample_rate)
        assert await room.wait_for(lambda: not session.voice.playing, 5)  # type: ignore[union-attr]  # held at once
        stopped = time.monotonic() - started
        # Detection needs ~130 ms of speech and the stop one 20 ms frame (the 300 ms bound is checked in audio
        # time by tests/unit/rooms); this wall-clock bound leaves room for a loaded CI machine.
        assert stopped < 1.5, stopped
        # the page is told over the data channel, which may deliver it a moment after the voice stopped; when the
        # words decide (a short utterance), only after Whisper has read them, which a loaded machine makes slow
        assert await room.wait_for(lambda: any(e["type"] == "interrupted" for e in room.heard.events), 15), \
            (room.heard.events, session.pipeline.heard, session.pipeline.backchannels, session.pipeline.echo.name,
             {k: v for k, v in vars(getattr(session.pipeline.echo, "detector", None) or {}).items()
              if k in ("present", "lag", "correlation", "_lags")})
    finally:
        await room.close()


async def test_a_typed_message_cuts_the_reply_and_is_answered_in_order(service: Service) -> None:
    conversation, room = await _open_room(service, video_enabled=False)
    ident, token = conversation["id"], conversation["room_token"]
    try:
        assert await room.wait_for(lambda: room.pc.connectionState == "connected", 10)
        rooms = service.container.resolve(RoomProvider)
        assert isinstance(rooms, AiortcRooms) and await room.wait_for(lambda: ident in rooms.sessions, 5)
        session = rooms.sessions[ident]
        session.pipeline.speak_soon(" ".join(["The museum has four floors of paintings and old trees."] * 5))
        assert await room.wait_for(lambda: bool(room.heard.audible), 20)
        typed = await service.client.post(f"/rooms/{ident}/messages", params={"token": token},
                                          json={"content": "When does the museum open?"})
        assert typed.status_code == 200, typed.text
        reply = typed.json()["reply"]
        assert set(reply["metrics"]) == {"first_piece_ms", "total_ms"}  # a text turn's figures
        # The long reply was cut for it, and its answer is what plays now, while the data channel shows the lines in
        # the order they were heard.
        assert await room.wait_for(lambda: sum(e["type"] == "transcript" for e in room.heard.events) == 2, 5)
        assert any(e["type"] == "interrupted" for e in room.heard.events), room.heard.events
        lines = [(e["role"], e["content"]) for e in room.heard.events if e["type"] == "transcript"]
        assert lines == [("user", "When does the museum open?"), ("assistant", reply["content"])], lines
        assert session.voice is not None and session.voice.queue.queued_seconds < 8
    finally:
        await room.close()


async def test_leave_ends_the_conversation(service: Service) -> None:
    conversation, room = await _open_room(service, video_enabled=False)
    ident, token = conversation["id"], conversation["room_token"]
    try:
        assert await room.wait_for(lambda: room.pc.connectionState == "connected", 10)
        assert await room.wait_for(lambda: any(e["type"] == "joined" for e in room.heard.events), 10)
        left = await service.client.post(f"/rooms/{ident}/leave", params={"token": token})
        assert left.status_code == 200, left.text
        body = left.json()
        assert (body["status"], body["end_reason"]) == ("ended", "left") and body["duration"] is not None
        assert await room.wait_for(lambda: any(e["type"] == "ended" for e in room.heard.events), 5)
        [ended] = [e for e in room.heard.events if e["type"] == "ended"]
        assert ended["reason"] == "left" and ended["message"]
        typed = await service.client.post(f"/rooms/{ident}/messages", params={"token": token}, json={"content": "Hi"})
        assert typed.status_code == 409
        state = (await service.client.get(f"/rooms/{ident}/state", params={"token": token})).json()
        assert state["status"] == "ended" and state["room_token"] is None
    finally:
        await room.close()


async def test_a_closed_page_ends_the_conversation_within_seconds(service: Service) -> None:
    conversation, room = await _open_room(service, video_enabled=False)
    ident = conversation["id"]
    assert await room.wait_for(lambda: room.pc.connectionState == "connected", 10)
    assert await room.wait_for(lambda: any(e["type"] == "joined" for e in room.heard.events), 10)
    closed = time.monotonic()
    await room.close()  # what a closed tab does to its peer connection
    status = ""
    while time.monotonic() - closed < 15:
        body = (await service.client.get(f"/v1/conversations/{ident}")).json()
        status = body["status"]
        if status == "ended":
            break
        await asyncio.sleep(0.2)
    assert status == "ended" and body["end_reason"] == "left"
    assert time.monotonic() - closed < 10


async def test_a_shutdown_ends_at_once_the_conversation_of_a_participant_who_left(service: Service) -> None:
    """The service stopping (what its lifespan does before storage closes) does not wait out the grace given
    to a reload: the conversation of a participant who had left ends, reason `left`, before storage closes."""
    conversation, room = await _open_room(service, video_enabled=False)
    ident = conversation["id"]
    rooms = service.container.resolve(RoomProvider)
    assert isinstance(rooms, AiortcRooms)
    assert await room.wait_for(lambda: ident in rooms.sessions and rooms.sessions[ident]._joined, 10)
    await room.close()
    assert await room.wait_for(lambda: ident not in rooms.sessions, 10)  # seen to leave; the grace begins
    started = time.monotonic()
    service.call(rooms.aclose)
    assert time.monotonic() - started < rooms.left_grace
    body = (await service.client.get(f"/v1/conversations/{ident}")).json()
    assert (body["status"], body["end_reason"]) == ("ended", "left")


async def test_a_recorded_conversation_is_written_and_served(service: Service, question: tuple[np.ndarray, int]
                                                             ) -> None:
    conversation, room = await _open_room(service, record=True)
    ident = conversation["id"]
    try:
        assert await room.wait_for(lambda: room.pc.connectionState == "connected", 10)
        rooms = service.container.resolve(RoomProvider)
        assert isinstance(rooms, AiortcRooms) and await room.wait_for(lambda: ident in rooms.recorders, 5)
        started = rooms.recorders[ident].started  # the recording's time zero (this process's monotonic clock)
        asked = time.monotonic()
        room.microphone.say(*question)
        assert await room.wait_for(lambda: room.microphone.speech_ended_at is not None, 10)
        asked_until = room.microphone.speech_ended_at
        assert asked_until is not None
        # The reply plays for a second and more (50 audible 20 ms frames) before the conversation ends.
        assert await room.wait_for(lambda: len([t for t in room.heard.audible if t > asked_until]) > 50, 40), \
            room.heard.events
        replied = min(t for t in room.heard.audible if t > asked_until)
        assert (await service.client.get(f"/v1/conversations/{ident}")).json()["recording_url"] is None
        ended = (await service.client.delete(f"/v1/conversations/{ident}")).json()
        assert ended["status"] == "ended" and ended["recording_url"] is None  # written after the end, not during
        url = None
        for _ in range(300):
            url = (await service.client.get(f"/v1/conversations/{ident}")).json()["recording_url"]
            if url:
                break
            await asyncio.sleep(0.1)
        assert url, "no recording"
        media = await service.client.get(url.split("://", 1)[1].split("/", 1)[1].join(["/", ""]))
        assert media.status_code == 200 and media.headers["content-type"] == "video/mp4"
        with av.open(io.BytesIO(media.content)) as container:
            kinds = {s.type for s in container.streams}
            assert kinds == {"video", "audio"}
            rate = container.streams.audio[0].rate
            samples = np.concatenate([f.to_ndarray().reshape(-1) for f in container.decode(audio=0)])

        def loudness(start: float, end: float) -> float:
            """RMS of the recording between two moments of this process's clock (the question's and the reply's
            windows, trimmed by 0.3 s each side for the network and the jitter buffer)."""
            part = samples[int((start - started + 0.3) * rate):int((end - started - 0.3) * rate)]
            assert part.size > 0.3 * rate, (start - started, end - started, samples.size / rate)
            return float(np.sqrt(np.mean(np.square(part, dtype=np.float64))))

        # Both sides, each where it was said: the participant's question, and the avatar's reply after it (the
        # avatar is silent while asked, the microphone while it replies, so a side missing is a quiet window).
        question_rms, reply_rms = loudness(asked, asked_until), loudness(replied, replied + 1.0)
        assert question_rms > 0.01 and reply_rms > 0.01, (question_rms, reply_rms)
        tampered = await service.client.get(url.split("://", 1)[1].split("/", 1)[1].join(["/", ""]) + "0")
        assert tampered.status_code == 403
    finally:
        await room.close()


async def test_a_photo_avatar_is_what_the_room_shows(service: Service) -> None:
    """A portrait uploaded through POST /v1/avatars, a personality wearing it, a voice_video conversation: the
    room composes the photo (not a drawn avatar), and the frames the client receives over WebRTC are the
    portrait, scaled to the frame's height and centred, talking when the avatar speaks."""
    if service.backend == "postgres":
        pytest.skip("the room renders the same on either database; SQLite covers it")
    import cv2

    from avatar_service.adapters.pyav_renderer.photo import LivePhoto

    portrait_path = Path(__file__).parents[1] / "data" / "astronaut.png"
    uploaded = await service.client.post("/v1/avatars", data={"name": "Eileen"},
                                         files={"image": ("astronaut.png", portrait_path.read_bytes(), "image/png")})
    assert uploaded.status_code == 201, uploaded.text
    avatar = uploaded.json()
    conversation, room = await _open_room(service, appearance={"avatar_id": avatar["id"]})
    ident = conversation["id"]
    try:
        assert conversation["mode"] == "voice_video"
        assert await room.wait_for(lambda: room.pc.connectionState == "connected", 10)
        rooms = service.container.resolve(RoomProvider)
        assert isinstance(rooms, AiortcRooms) and await room.wait_for(lambda: ident in rooms.sessions, 5)
        session = rooms.sessions[ident]
        assert session.video is not None and isinstance(session.video._composer, LivePhoto)
        width, height = rooms.video_size
        # The sender starts at a low bitrate and raises it: judge a frame from after the first seconds.
        assert await room.wait_for(lambda: room.heard.video_frames >= 40, 20), room.heard.video_frames
        frame = room.heard.last_video
        assert frame is not None and (frame.width, frame.height) == (width, height)
        got = frame.to_ndarray(format="rgb24").astype(np.float32)
        photo = cv2.cvtColor(cv2.imread(str(portrait_path)), cv2.COLOR_BGR2RGB)
        placed = cv2.resize(photo, (height, height), interpolation=cv2.INTER_AREA).astype(np.float32)
        left = (width - height) // 2
        centre = got[:, left:left + height]
        # The portrait, through VP8: close everywhere in the photo's square (blinks and breathing move a little)...
        difference = float(np.abs(centre - placed).mean())
        assert difference < 12, difference
        # ...and nothing like a drawn avatar or a shifted picture: the same picture moved by a tenth is far off.
        shifted = float(np.abs(centre[:, height // 10:] - placed[:, :-(height // 10)]).mean())
        assert shifted > 2.5 * difference, (difference, shifted)
        # The face talks in the room: while the avatar speaks, the mouth moves across the frames received, far
        # more than the backdrop over her head does.
        seen: dict[int, np.ndarray] = {}

        def thirty_frames() -> bool:
            last = room.heard.last_video
            if last is not None and last.pts is not None:
                seen.setdefault(last.pts, last.to_ndarray(format="rgb24").astype(np.float32))
            return len(seen) >= 30

        session.pipeline.speak_soon("Hello there, welcome aboard the station. It is good to see you again.")
        assert await room.wait_for(lambda: bool(room.heard.audible), 20)
        assert await room.wait_for(thirty_frames, 15, step=0.03), len(seen)
        frames = np.stack(list(seen.values()))
        m_top, m_left, m_bottom, m_right = session.video._composer.composer.rig.mouth_rect
        mouth = float(frames[:, m_top:m_bottom, m_left:m_right].std(axis=0).mean())
        backdrop = float(frames[:, :height // 12, left:left + height].std(axis=0).mean())
        assert mouth > 4 and mouth > 2 * backdrop, (mouth, backdrop)
    finally:
        await room.close()


class CountingVoice:
    """The offline voice's stand-in for the warm-up: what it was asked to say."""

    name = "counting"

    def __init__(self, voice: SpeechSynthesizer) -> None:
        self.voice, self.said = voice, []  # type: ignore[var-annotated]

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        self.said.append(text)
        return self.voice.synthesize(text, voice)


class CountingWhisper:
    """Whisper's stand-in for the warm-up: how often it was loaded and what it heard."""

    def __init__(self) -> None:
        self.loads, self.heard = 0, []  # type: ignore[var-annotated]

    def load(self) -> None:
        self.loads += 1

    def transcribe(self, samples: np.ndarray, sample_rate: int = 16000) -> str:
        self.heard.append((samples.size, sample_rate))
        return "Hello there, how are you?"


async def test_creating_a_voice_conversation_warms_whisper_and_the_voice_once(
        service: Service, offline_voice: SpeechSynthesizer) -> None:
    """The first turn after a start costs what any turn costs: creating a voice conversation loads Whisper and
    runs it once on a sentence the offline voice has just spoken (both engines' first inference, several times
    slower than the next, done before anyone speaks); later conversations do not run them again."""
    rooms = service.container.resolve(RoomProvider)
    assert isinstance(rooms, AiortcRooms) and rooms._warm is None  # nothing warmed before a room is wanted
    whisper, voice = CountingWhisper(), CountingVoice(offline_voice)
    rooms._transcriber, rooms.speech = whisper, SpeechEngines({"openai": voice})
    personality = await create_personality(service.client, name="Ava")
    for _ in range(2):
        created = await service.client.post("/v1/conversations", json={"personality_id": personality["id"]})
        assert created.status_code == 201 and created.json()["mode"] == "voice_video", created.text
        warming = rooms._warm
        assert warming is not None  # begun by the creation, before any participant joins
        for _ in range(300):  # the app's own loop runs it (off that loop, on the offload threads)
            if warming.done():
                break
            await asyncio.sleep(0.1)
        assert warming.done() and warming.exception() is None
    assert voice.said == ["Hello there, how are you?"]
    assert whisper.loads == 1 and len(whisper.heard) == 1
    samples, rate = whisper.heard[0]
    assert samples / rate > 0.5  # the spoken sentence, not an empty clip
