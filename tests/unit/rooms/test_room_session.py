"""The room's media pipeline without a network: voice track pacing, cutting, push to talk, interruption by VAD."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from fractions import Fraction
from typing import Any

import av
import numpy as np
import pytest
from aiortc.mediastreams import MediaStreamError, MediaStreamTrack

from avatar_service.adapters.aiortc_rooms.audio import (
    FRAME_SAMPLES,
    OUT_RATE,
    ReplyAudioTrack,
    SentenceCutter,
    resample,
    sentences,
)
from avatar_service.adapters.aiortc_rooms.early import EarlyTranscription
from avatar_service.adapters.aiortc_rooms.session import RoomSession
from avatar_service.adapters.speech.piper_speech import PiperSpeech
from avatar_service.ports.rooms import RoomMedia
from avatar_service.ports.speech import Audio, VoiceChoice

from .fakes import inline


class Reply:
    """A reply being written: its pieces, each once `gate` lets it through (all at once without a gate)."""

    def __init__(self, pieces: list[str], gate: asyncio.Queue[None] | None = None) -> None:
        self.pieces, self.gate = pieces, gate
        self.written: list[str] = []
        self.closed = False  # aclose() came (the reply was stopped, or stored after its end)
        self.finished = False  # every piece was written

    async def _pieces(self) -> AsyncIterator[str]:
        for piece in self.pieces:
            if self.gate is not None:
                await self.gate.get()
            self.written.append(piece)
            yield piece
        self.finished = True

    def __aiter__(self) -> AsyncIterator[str]:
        return self._pieces()

    def text(self) -> str:
        return "".join(self.written)

    def set_metrics(self, metrics: dict[str, float | None]) -> None:
        self.metrics = metrics

    async def aclose(self) -> None:
        self.closed = True


class Host:
    def __init__(self) -> None:
        self.turns: list[str] = []
        self.ended: list[str] = []
        self.replies: list[Reply] = []
        self.next_reply: Reply | None = None

    async def room_media(self, organization_id: str, conversation_id: str) -> RoomMedia:
        raise NotImplementedError

    async def joined(self, organization_id: str, conversation_id: str) -> None:
        return None

    async def voice_turn(self, organization_id: str, conversation_id: str, content: str) -> Reply:
        self.turns.append(content)
        reply, self.next_reply = self.next_reply or Reply(["Nice to hear you.", " I am listening."]), None
        self.replies.append(reply)
        return reply

    async def end(self, organization_id: str, conversation_id: str, status: str = "ended",
                  reason: str | None = None) -> None:
        self.ended.append(status)

    async def recorded(self, organization_id: str, conversation_id: str, key: str) -> None:
        raise NotImplementedError


class Beeps:
    name = "beeps"

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        t = np.arange(int(0.01 * len(text) * 22050)) / 22050
        return Audio(samples=(8000 * np.sin(2 * np.pi * 220 * t)).astype(np.int16), sample_rate=22050)


class Transcriber:
    def __init__(self) -> None:
        self.heard: list[int] = []

    def transcribe(self, samples: Any, sample_rate: int = 16000) -> str:
        self.heard.append(len(samples))
        return "hello there"


class Feed(MediaStreamTrack):
    """An incoming microphone: the given 48 kHz stereo frames as fast as they are asked for, then the end."""

    kind = "audio"

    def __init__(self, samples: np.ndarray, on_frame: Any = None) -> None:
        super().__init__()
        self._samples, self._at, self._on_frame = samples, 0, on_frame

    async def recv(self) -> av.AudioFrame:
        if self._at >= self._samples.size:
            raise MediaStreamError
        chunk = np.zeros(FRAME_SAMPLES, np.int16)
        part = self._samples[self._at : self._at + FRAME_SAMPLES]
        chunk[: part.size] = part
        stereo = np.repeat(chunk, 2).reshape(1, -1)  # what aiortc's Opus decoder delivers: s16 stereo, packed
        frame = av.AudioFrame.from_ndarray(stereo, format="s16", layout="stereo")
        frame.sample_rate, frame.pts, frame.time_base = OUT_RATE, self._at, Fraction(1, OUT_RATE)
        if self._on_frame is not None:
            self._on_frame(self._at / OUT_RATE)
        self._at += FRAME_SAMPLES
        await asyncio.sleep(0)
        return frame


def _session(**config: bool) -> tuple[RoomSession, Host, Transcriber]:
    media = RoomMedia(organization_id="org", conversation_id="conv", voice=VoiceChoice(provider="openai"),
                      video_enabled=False, **config)
    host, transcriber = Host(), Transcriber()
    session = RoomSession(media, host, Beeps(), transcriber, inline, None, lambda s: None)
    return session, host, transcriber


@pytest.fixture(scope="module")
def spoken() -> Iterator[np.ndarray]:
    audio = PiperSpeech().synthesize("Sorry, can I ask something else?", VoiceChoice(provider="openai"))
    yield resample(np.asarray(audio.samples), audio.sample_rate, OUT_RATE)


def test_sentences_start_short() -> None:
    assert sentences("Hi! How are you?") == ["Hi!", "How are you?"]
    assert sentences("The museum opens at nine on Sundays, and it closes at five. Anything else?") == [
        "The museum opens at nine on Sundays,", "and it closes at five.", "Anything else?"]
    assert sentences("  ") == []


def test_speech_is_cut_at_the_one_splitters_sentences_and_at_pauses() -> None:
    assert sentences("Dr. Vos is in room no. 5 until 5 p.m. on Fridays. Ask at the desk; it is on the left: "
                     "past the cafe.") == ["Dr. Vos is in room no. 5 until 5 p.m. on Fridays.", "Ask at the desk;",
                                           "it is on the left:", "past the cafe."]


async def test_voice_track_paces_20ms_frames_and_cuts_at_once() -> None:
    track = ReplyAudioTrack()
    track.play(np.full(OUT_RATE, 3000, np.int16))  # one second of "speech"
    loop = asyncio.get_running_loop()
    start = loop.time()
    frames = [await track.recv() for _ in range(5)]
    assert 0.06 <= loop.time() - start <= 0.25  # four frame periods of waiting, in real time
    assert all(f.samples == FRAME_SAMPLES and f.sample_rate == OUT_RATE for f in frames)
    assert [f.pts for f in frames] == [i * FRAME_SAMPLES for i in range(5)]
    assert track.level > 0.05 and track.playing
    assert track.cut() is True
    assert not track.playing and not np.any((await track.recv()).to_ndarray())
    assert track.cut() is False
    track.stop()
    with pytest.raises(MediaStreamError):
        await track.recv()


async def test_push_to_talk_takes_exactly_the_audio_between_start_and_stop() -> None:
    session, host, transcriber = _session(vad_enabled=False)
    assert session.pipeline.vad is None
    session.pipeline.start()
    session.voice.play(np.full(OUT_RATE, 3000, np.int16))  # type: ignore[union-attr]
    one_second = np.full(OUT_RATE, 2000, np.int16)
    await session._listen(Feed(one_second))  # talk not pressed: ignored
    session._on_message('{"type": "talk", "state": "start"}')
    assert not session.voice.playing  # type: ignore[union-attr]  # pressing talk interrupts the reply
    await session._listen(Feed(one_second))
    session._on_message('{"type": "talk", "state": "stop"}')
    for _ in range(100):
        if session.voice.playing:  # type: ignore[union-attr]
            break
        await asyncio.sleep(0.01)
    assert host.turns == ["hello there"]
    assert transcriber.heard and abs(transcriber.heard[0] - 16000) <= 400  # one second at 16 kHz
    assert session.voice.playing  # type: ignore[union-attr]  # the reply is being spoken
    await session.close()


async def test_without_interruption_the_reply_plays_on() -> None:
    session, _, _ = _session(vad_enabled=False, interruption_enabled=False)
    session.voice.play(np.full(OUT_RATE, 3000, np.int16))  # type: ignore[union-attr]
    session._on_message('{"type": "talk", "state": "start"}')
    assert session.voice.playing  # type: ignore[union-attr]
    await session.close()


async def test_speech_stops_the_reply_within_300_ms_of_its_onset(spoken: np.ndarray) -> None:
    session, _, _ = _session()
    assert session.pipeline.vad is not None
    session.voice.play(np.full(10 * OUT_RATE, 3000, np.int16))  # type: ignore[union-attr]
    lead = int(0.5 * OUT_RATE)
    audio = np.concatenate([np.zeros(lead, np.int16), spoken])
    onset = float(np.flatnonzero(np.abs(audio) > 500)[0]) / OUT_RATE
    stopped_at: list[float] = []

    def watch(at: float) -> None:
        if not stopped_at and not session.voice.playing:  # type: ignore[union-attr]
            stopped_at.append(at)

    await session._listen(Feed(audio, watch))
    assert stopped_at, "the reply was never interrupted"
    assert stopped_at[0] - onset <= 0.3, stopped_at[0] - onset
    await session.close()


async def test_a_broken_pipeline_fails_the_conversation() -> None:
    session, host, transcriber = _session(vad_enabled=False)

    def broken(samples: Any, sample_rate: int = 16000) -> str:
        raise RuntimeError("model file is corrupt")

    transcriber.transcribe = broken  # type: ignore[method-assign]
    session.pipeline.start()
    session._on_message('{"type": "talk", "state": "start"}')
    await session._listen(Feed(np.full(OUT_RATE // 2, 2000, np.int16)))
    session._on_message('{"type": "talk", "state": "stop"}')
    for _ in range(100):
        if session._closed:
            break
        await asyncio.sleep(0.01)
    assert host.ended == ["failed"] and session._closed


async def test_early_transcription_starts_at_a_pause_and_is_dropped_if_speech_goes_on() -> None:
    started: list[int] = []

    def start(samples: np.ndarray) -> asyncio.Future[str]:
        started.append(samples.size)
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        future.set_result(f"guess {len(started)}")
        return future

    so_far: list[np.ndarray] = []  # the VAD's utterance in progress (its pre-roll included)
    early = EarlyTranscription(start, lambda: np.concatenate(so_far), quiet_frames=3)
    loud, quiet = np.full(320, 3000, np.int16), np.zeros(320, np.int16)
    early.feed(quiet, in_speech=False)
    so_far += [quiet, quiet]  # the pre-roll the VAD keeps
    for _ in range(5):
        so_far.append(loud)
        early.feed(loud, in_speech=True)
    for _ in range(3):
        so_far.append(quiet)
        early.feed(quiet, in_speech=True)
    assert started == [(2 + 5 + 3) * 320]  # the VAD's utterance so far, up to the third quiet frame
    early.feed(loud, in_speech=True)  # they go on: that guess is dropped
    for _ in range(4):
        so_far.append(quiet)
        early.feed(quiet, in_speech=True)
    assert len(started) == 2
    guess = early.take()
    assert guess is not None and await guess == "guess 2"
    assert early.take() is None


@pytest.mark.parametrize("text", [
    "The museum opens at nine on Sundays, and it closes at five. Tickets cost 12.50 euros! Anything else?",
    "Dr. Vos sees patients on Mondays. Ask for room no. 5 at the desk; it is on the left: past the cafe.",
    "Sure: three options.\n- The park\n- The zoo until 5 p.m. on Sundays… Then J. R. R. Tolkien wrote it.",
])
def test_a_reply_still_being_written_is_cut_into_the_same_sentences(text: str) -> None:
    for size in range(1, len(text) + 1):
        cutter, said = SentenceCutter(), []
        for start in range(0, len(text), size):
            said += cutter.feed(text[start:start + size])
        assert said + cutter.end() == sentences(text)


def test_a_sentence_is_out_once_the_next_one_begins() -> None:
    cutter = SentenceCutter()
    assert cutter.feed("Hello there. How") == ["Hello there."]  # out as soon as the next word starts
    assert cutter.feed(" are") == [] and cutter.end() == ["How are"]


def test_a_first_sentence_a_piece_closes_is_out_before_the_reply_ends() -> None:
    # (a one-sentence reply is spoken before its turn is stored, so it is stored with its first audio's figures)
    cutter = SentenceCutter()
    assert cutter.feed("We open at 9am") + cutter.closed_first() == []
    assert cutter.feed(" on Sundays.") + cutter.closed_first() == ["We open at 9am on Sundays."]
    assert cutter.feed(" And") + cutter.closed_first() == [] and cutter.end() == ["And"]  # only the first


async def _talk(session: RoomSession) -> None:
    """One push-to-talk utterance: start, half a second of sound, stop."""
    session._on_message('{"type": "talk", "state": "start"}')
    await session._listen(Feed(np.full(OUT_RATE // 2, 2000, np.int16)))
    session._on_message('{"type": "talk", "state": "stop"}')


async def _until(condition: Any, seconds: float = 5.0) -> bool:
    for _ in range(int(seconds / 0.01)):
        if condition():
            return True
        await asyncio.sleep(0.01)
    return condition()


async def test_the_first_sentence_plays_while_the_rest_is_still_being_written() -> None:
    session, host, _ = _session(vad_enabled=False)
    gate: asyncio.Queue[None] = asyncio.Queue()
    host.next_reply = Reply(["Nice to ", "hear you.", " I am", " listening."], gate)
    session.pipeline.start()
    await _talk(session)
    for _ in range(3):  # "Nice to hear you." and the start of the next sentence; the rest is held back
        gate.put_nowait(None)
    assert await _until(lambda: session.voice.playing)  # type: ignore[union-attr]
    [reply] = host.replies
    pipeline = session.pipeline
    assert await _until(lambda: reply.written == ["Nice to ", "hear you.", " I am"])
    assert not reply.finished
    assert len(pipeline.turn_latencies) == 1 and pipeline.reply_latencies == []
    gate.put_nowait(None)
    assert await _until(lambda: bool(pipeline.reply_latencies))
    assert reply.finished and reply.closed
    assert pipeline.reply_latencies[0] > pipeline.turn_latencies[0]
    # stored with the spoken turn's figures: every stage happened, and they add up
    figures = reply.metrics
    assert set(figures) == {"end_of_speech_to_text_ms", "text_to_reply_ms", "reply_to_first_audio_ms",
                            "end_of_speech_to_first_audio_ms"}
    assert all(isinstance(v, float) and v >= 0 for v in figures.values()), figures
    parts = figures["end_of_speech_to_text_ms"] + figures["text_to_reply_ms"] + figures["reply_to_first_audio_ms"]
    assert abs(parts - figures["end_of_speech_to_first_audio_ms"]) <= 0.5
    await session.close()


async def test_an_interruption_stops_the_writing_too() -> None:
    session, host, _ = _session(vad_enabled=False)
    gate: asyncio.Queue[None] = asyncio.Queue()
    host.next_reply = Reply(["Let me tell you.", " It goes", " on", " and on."], gate)
    sent: list[dict[str, Any]] = []
    session.pipeline.send = sent.append  # type: ignore[method-assign]
    session.pipeline.start()
    await _talk(session)
    for _ in range(2):  # a sentence is known to be over when the next piece begins
        gate.put_nowait(None)
    assert await _until(lambda: session.voice.playing)  # type: ignore[union-attr]
    [reply] = host.replies
    session._on_message('{"type": "talk", "state": "start"}')  # the user talks over the reply
    assert not session.voice.playing  # type: ignore[union-attr]
    assert await _until(lambda: reply.closed)
    for _ in range(3):
        gate.put_nowait(None)  # the model would go on; nobody asks it for more
    await asyncio.sleep(0.05)
    assert reply.written == ["Let me tell you.", " It goes"] and not reply.finished
    [line] = [e for e in sent if e.get("role") == "assistant"]
    assert line["content"] == "Let me tell you. It goes" and line["interrupted"] is True
    assert line["metrics"]["end_of_speech_to_first_audio_ms"] is not None
    await session.close()


async def test_an_engine_failing_midway_leaves_the_room_open() -> None:
    from avatar_service.core.errors import Unavailable

    class Failing(Reply):
        async def _pieces(self) -> AsyncIterator[str]:
            self.written.append("We open at")
            yield "We open at"
            raise Unavailable("The dialogue engine failed: gone")

    session, host, _ = _session(vad_enabled=False)
    host.next_reply = Failing([])
    sent: list[dict[str, Any]] = []
    session.pipeline.send = sent.append  # type: ignore[method-assign]
    session.pipeline.start()
    await _talk(session)
    assert await _until(lambda: any(e.get("role") == "assistant" for e in sent))
    assert {"type": "error", "message": "The dialogue engine failed: gone"} in sent
    assert not session._closed and host.ended == []
    await session.close()


async def test_an_interruption_in_the_room_stops_the_model_and_keeps_the_reply_marked(tmp_path: Any) -> None:
    """With the real Conversations use case (in-memory store) and an engine writing one word every 20 ms: the
    first sentence is spoken while the engine writes on, talking over it stops the engine, and the transcript
    keeps what was written, marked interrupted."""
    from avatar_service.adapters.in_memory import MemoryStorage
    from avatar_service.core.model import ConversationCreate, PersonalityCreate
    from avatar_service.core.services.conversations import Conversations
    from avatar_service.core.services.personalities import Personalities
    from avatar_service.entrypoints import bootstrap
    from avatar_service.entrypoints.settings import load_settings
    from avatar_service.ports.dialogue import DialogueRequest
    from avatar_service.ports.speech import SpeechEngines

    class SlowEngine:
        name = "slow"
        stopped = False

        async def stream(self, request: DialogueRequest) -> AsyncIterator[str]:
            try:
                for word in ("Hello there.", *(f" Word{i}" for i in range(200))):
                    await asyncio.sleep(0.02)
                    yield word
            except (GeneratorExit, asyncio.CancelledError):
                SlowEngine.stopped = True
                raise

        async def reply(self, request: DialogueRequest) -> str:
            return ""

    class Renderer:
        name = "none"

        def list_avatars(self) -> list[Any]:
            from avatar_service.ports.renderer import AvatarInfo

            return [AvatarInfo("ava", "Ava", "cartoon")]

    storage = MemoryStorage()
    settings = load_settings({}, embedder="lexical", data_dir=str(tmp_path), secret_key="unit-test-secret")
    speech = SpeechEngines({p: Beeps() for p in ("elevenlabs", "cartesia", "openai", "azure")})
    container = bootstrap.test(settings, storage, renderer=Renderer(), dialogue=SlowEngine(), speech=speech)
    conversations: Conversations = container.resolve(Conversations)
    ava = await container.resolve(Personalities).create("org", PersonalityCreate(name="Ava"))
    conversation = await conversations.create("org", ConversationCreate(personality_id=ava.id, mode="voice"))
    media = RoomMedia(organization_id="org", conversation_id=conversation.id, voice=VoiceChoice(provider="openai"),
                      video_enabled=False, vad_enabled=False)
    session = RoomSession(media, conversations, Beeps(), Transcriber(), inline, None, lambda s: None)
    session.pipeline.start()
    await _talk(session)
    assert await _until(lambda: session.voice.playing)  # type: ignore[union-attr]  # the first sentence, early
    writer = session.pipeline._writer
    assert writer is not None and not writer.done()  # the engine is still writing
    session._on_message('{"type": "talk", "state": "start"}')  # the user talks over it
    assert await _until(lambda: writer.done())
    assert SlowEngine.stopped
    transcript = (await conversations.get("org", conversation.id, include_transcript=True)).transcript or []
    assert [(t.role, t.interrupted) for t in transcript] == [("user", False), ("assistant", True)]
    # (the first sentence is out as its piece closes it: the words after it are written while it plays, if any yet)
    assert transcript[1].content.startswith("Hello there.") and len(transcript[1].content.split()) < 100
    metrics = transcript[1].metrics or {}
    assert metrics["end_of_speech_to_first_audio_ms"] is not None and "first_piece_ms" not in metrics
    await session.close()
    await storage.close()


class Channel:
    """A page's data channel as aiortc hands it over: open, recording what is sent."""

    readyState = "open"

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def on(self, _event: str, _handler: Any) -> None:
        pass

    def send(self, message: str) -> None:
        self.sent.append(json.loads(message))


async def test_joined_before_the_data_channel_opened_still_reaches_the_page() -> None:
    # ICE reports `connected` (and the room says `joined`) before the SCTP association carrying the data channel
    # is up; the event used to be dropped, and a page waiting for it never learned it was in.
    session, _host, _transcriber = _session()
    await session._join()
    channel = Channel()
    session._on_datachannel(channel)
    assert [event["type"] for event in channel.sent] == ["hello", "joined"]
    session.send({"type": "state", "status": "listening"})
    assert channel.sent[-1] == {"type": "state", "status": "listening"}
    await session.close()
