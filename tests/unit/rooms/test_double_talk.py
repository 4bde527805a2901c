"""Echo-safe barge-in's pieces: the double-talk detector (an echo alone stands out of its prediction nowhere, a
voice over it often), the words the avatar said lately, and speech over the reply that hardly stood out of the
echo: held, then resumed, unless more speech follows."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from avatar_service.adapters.aiortc_rooms.barge_in import EarlyPause, asks_to_stop, is_echo, keeps_reply, maybe_echo
from avatar_service.adapters.aiortc_rooms.pipeline import ConversationPipeline
from avatar_service.adapters.aiortc_rooms.voice import VoiceQueue
from avatar_service.adapters.echo_cancel import EchoDetector, _levels
from avatar_service.adapters.echo_doubletalk import DoubleTalk
from avatar_service.ports.rooms import RoomMedia
from avatar_service.ports.speech import VoiceChoice

from .fakes import inline, spoken_16k

RATE = 16_000


def _speech_like(seconds: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    envelope = np.repeat(rng.uniform(0.0, 1.0, int(seconds * 10)) ** 3, RATE // 10)
    return (envelope * rng.normal(0, 6000, envelope.size)).astype(np.int16)


def _room(voice: np.ndarray, delay: int, gain: float) -> np.ndarray:
    room = np.exp(-np.arange(1600) / 400.0) * np.random.default_rng(2).normal(0, 0.1, 1600)
    room[0] = 1.0
    echo = np.convolve(voice.astype(np.float64), room)[: voice.size]
    echo = np.concatenate([np.zeros(delay), echo])[: voice.size]
    return echo * gain * np.std(voice) / np.std(echo) + np.random.default_rng(3).normal(0, 30, voice.size)


def _near_share(voice: np.ndarray, microphone: np.ndarray, start: float, end: float = 99.0) -> float:
    detector, double_talk = EchoDetector(), DoubleTalk()
    shares = []
    for i in range(0, voice.size, 320):
        ref_db, mic_db = _levels(voice[i:i + 320]), _levels(np.clip(microphone[i:i + 320], -32768, 32767))
        detector.feed_levels(ref_db, mic_db)
        near = double_talk.feed(ref_db, mic_db, None, detector.steady_lag, detector.present)
        if start * RATE <= i < end * RATE:
            shares.append(near.mean())
    return float(np.mean(shares))


def test_an_echo_alone_is_no_participant_and_a_voice_over_it_is() -> None:
    voice = _speech_like(8.0, 1)
    echo = _room(voice, 2400, 1.0)  # 150 ms later, as loud as the voice as sent
    alone = _near_share(voice, echo, 1.0)
    participant = np.zeros(voice.size)
    participant[5 * RATE:7 * RATE] = _speech_like(2.0, 9)
    over = _near_share(voice, echo + participant, 5.0, 7.0)
    assert alone < 0.01 and over > 0.05, (alone, over)


def test_the_voice_knows_what_it_said_lately() -> None:
    queue = VoiceQueue()
    queue.play(np.full(48_000, 1000, np.int16), "The museum opens at nine.")
    queue.play(np.full(48_000, 1000, np.int16), "Tickets cost twelve euros.")
    assert queue.said(3.0) == ""  # nothing has gone out yet
    for _ in range(60):  # 1.2 s
        queue.next_frame()
    assert queue.said(0.5) == "The museum opens at nine. Tickets cost twelve euros."
    for _ in range(75):
        queue.next_frame()
    assert queue.said(0.5) == "Tickets cost twelve euros."


def test_an_echo_misheard_is_still_an_echo() -> None:
    assert is_echo("Sunday.", "The museum opens at nine on Sundays") and is_echo("open, open", "It opens at nine")
    assert not is_echo("Where are the toilets?", "The museum opens at nine on Sundays")
    assert maybe_echo("Thank you.", weak=True) and not maybe_echo("Thank you.", weak=False)
    assert not maybe_echo("Where are the toilets please?", weak=True)


def test_a_lone_word_that_stood_out_takes_the_turn() -> None:
    assert not any(maybe_echo(said, weak=False) for said in ("toilets", "No.", "Tickets?", "Stop."))


def test_one_word_over_and_over_is_noise_not_a_turn() -> None:
    assert keeps_reply("Enter. Enter. Enter. Enter. Enter. Enter", "The museum opens at nine.")
    assert not any(keeps_reply(said, "The museum opens at nine.") for said in ("No, no, no.", "Stop, stop, stop!",
                                                                                 "Tell me, tell me."))


def test_a_request_to_stop_is_never_taken_for_an_echo() -> None:
    for said in ("Wait, stop, please.", "Stop.", "Hold on.", "hang on a sec", "Wait."):
        assert asks_to_stop(said) and not maybe_echo(said, weak=True), said
    for echo in ("Thank you.", "Hold.", "That's it.", "On the hold."):
        assert not asks_to_stop(echo) and maybe_echo(echo, weak=True), echo


def test_a_voice_standing_out_of_the_echo_pauses_before_the_vad_is_sure() -> None:
    early = EarlyPause(frames=3, wait=5)
    assert [early.feed(1.0, True, True, False) for _ in range(3)] == [None, None, "pause"]
    assert [early.feed(0.0, True, False, False) for _ in range(5)][-1] == "resume"  # the VAD never heard speech
    assert [early.feed(1.0, True, True, False) for _ in range(3)][-1] == "pause"
    assert early.feed(1.0, True, False, True) is None  # the VAD heard it: its rules take over
    assert all(early.feed(0.0, True, False, False) is None for _ in range(10))
    # No echo (a headset, nothing cancelled): the VAD alone decides, as it hears the voice as it is.
    assert all(early.feed(1.0, False, True, False) is None for _ in range(10))


class Echoless:
    """A canceller whose microphone never stands out of the echo it predicts (a leak, as Whisper hears it)."""

    def reference(self, samples: np.ndarray) -> None:
        return None

    def process(self, microphone: np.ndarray, media_time: float | None = None) -> np.ndarray:
        return np.asarray(microphone, dtype=np.int16)

    def near_end(self) -> float:
        return 0.0

    def hears_echo(self) -> bool:
        return True


class Told:
    def __init__(self, *texts: str) -> None:
        self.texts = list(texts)

    def transcribe(self, samples: Any, sample_rate: int = 16000) -> str:
        return self.texts.pop(0) if self.texts else ""


@pytest.fixture(scope="module")
def words16() -> Iterator[np.ndarray]:
    yield spoken_16k("Where are the toilets?")


Outcome = tuple[ConversationPipeline, list[Any], list[str]]


async def _over_the_reply(speech: np.ndarray, bursts: list[tuple[float, float]], *texts: str) -> Outcome:
    media = RoomMedia(organization_id="org", conversation_id="conv", voice=VoiceChoice(provider="openai"),
                      video_enabled=False)
    sent: list[dict[str, Any]] = []
    turns: list[str] = []

    class Host:
        async def voice_turn(self, organization_id: str, conversation_id: str, content: str) -> Any:
            turns.append(content)
            raise asyncio.CancelledError

    p = ConversationPipeline(media, Host(), None, Told(*texts), inline, VoiceQueue(),  # type: ignore[arg-type]
                             sent.append, lambda e: None, Echoless())  # type: ignore[arg-type]
    p.start()
    assert p.voice is not None
    p.voice.play(np.full(10 * 48_000, 2000, np.int16), "The museum opens at nine.")
    microphone = np.zeros(4 * RATE, np.float32)
    for start, length in bursts:
        microphone[int(start * RATE):int(start * RATE) + int(length * RATE)] = speech[: int(length * RATE)]
    for step in range(microphone.size // 320):
        p.voice.next_frame()
        p.hear(np.clip(microphone[step * 320:(step + 1) * 320], -32768, 32767).astype(np.int16))
        for _ in range(3):
            await asyncio.sleep(0)
    for _ in range(20):
        await asyncio.sleep(0.01)
    return p, sent, turns


async def test_a_few_words_hardly_louder_than_the_echo_are_held_then_played_on(words16: np.ndarray) -> None:
    p, sent, turns = await _over_the_reply(words16, [(0.5, 0.4)], "Thank you.")
    assert p.voice is not None and not p.voice.paused and p.voice.pending
    assert {"type": "interrupted"} not in sent and turns == [] and p.backchannels == 1
    p.close()


async def test_a_weak_request_to_stop_interrupts(words16: np.ndarray) -> None:
    p, sent, turns = await _over_the_reply(words16, [(0.5, 0.4)], "Wait, stop please.")
    assert {"type": "interrupted"} in sent and turns == ["Wait, stop please."] and p.backchannels == 0
    p.close()


async def test_more_speech_in_the_hold_is_the_same_question(words16: np.ndarray) -> None:
    p, sent, turns = await _over_the_reply(words16, [(0.5, 0.4), (1.45, 0.4)], "Where?", "Are the toilets far?")
    assert {"type": "interrupted"} in sent and turns == ["Where? Are the toilets far?"]
    p.close()
