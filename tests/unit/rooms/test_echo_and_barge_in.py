"""Speech over the avatar's voice: its own echo cancelled (no self-interruption), the user's voice over it still
interrupting, a backchannel letting the reply play on. Real AEC3 and Silero; the reply is Piper's recorded audio."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from avatar_service.adapters.aiortc_rooms.audio import IN_RATE, OUT_RATE, resample
from avatar_service.adapters.aiortc_rooms.barge_in import is_backchannel, is_echo, keeps_reply
from avatar_service.adapters.aiortc_rooms.pipeline import ConversationPipeline
from avatar_service.adapters.aiortc_rooms.voice import VoiceQueue
from avatar_service.adapters.echo_cancel import EchoCanceller, NoEchoCanceller, WebRtcEchoCanceller
from avatar_service.adapters.speech.piper_speech import PiperSpeech
from avatar_service.ports.rooms import RoomMedia
from avatar_service.ports.speech import VoiceChoice

from .fakes import inline

REPLY = ("The museum opens at nine on Sundays and closes at five in the evening. Tickets cost twelve euros at "
         "the front desk, and the garden is open from April to October.")
STEP = IN_RATE // 50  # 20 ms at 16 kHz


@pytest.fixture(scope="module")
def voices() -> Iterator[dict[str, np.ndarray]]:
    piper = PiperSpeech()

    def say(text: str) -> np.ndarray:
        audio = piper.synthesize(text, VoiceChoice(provider="openai", voice_id="joe"))
        return np.asarray(audio.samples, dtype=np.int16), audio.sample_rate

    reply, rate = say(REPLY)
    user, user_rate = say("Wait, I have another question about the tickets.")
    yield {"reply48": resample(reply, rate, OUT_RATE), "user16": resample(user, user_rate, IN_RATE)}


def speaker_echo(reply48: np.ndarray, delay_s: float = 0.2, gain: float = 0.8) -> np.ndarray:
    """The reply as a microphone hears it from a speaker: later, a little quieter, with a short room tail."""
    at16 = resample(reply48, OUT_RATE, IN_RATE).astype(np.float32)
    room = np.exp(-np.arange(480) / 60.0).astype(np.float32)
    room /= room.sum()
    wet = np.convolve(at16, 0.7 * room, mode="full")[: at16.size] + 0.3 * at16
    return np.concatenate([np.zeros(int(delay_s * IN_RATE), np.float32), gain * wet])


class Host:
    async def voice_turn(self, organization_id: str, conversation_id: str, content: str) -> Any:
        raise AssertionError("no turn expected")


class Heard:
    """A transcriber that says what it is told to."""

    def __init__(self, text: str = "") -> None:
        self.text, self.calls = text, 0

    def transcribe(self, samples: Any, sample_rate: int = 16000) -> str:
        self.calls += 1
        return self.text


def pipeline(echo: EchoCanceller, transcriber: Heard | None = None
             ) -> tuple[ConversationPipeline, list[dict[str, Any]]]:
    media = RoomMedia(organization_id="org", conversation_id="conv", voice=VoiceChoice(provider="openai"),
                      video_enabled=False)
    sent: list[dict[str, Any]] = []
    p = ConversationPipeline(media, Host(), None, transcriber or Heard(), inline, VoiceQueue(),  # type: ignore[arg-type]
                             sent.append, lambda e: None, echo)
    return p, sent


class Clock:
    """The canceller's clock, moved on 20 ms a step: the test runs faster than real time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def aec3(clock: Clock) -> WebRtcEchoCanceller:
    return WebRtcEchoCanceller(clock)


async def run(p: ConversationPipeline, microphone: np.ndarray, clock: Clock | None = None) -> list[int]:
    """Plays the queued voice and feeds the microphone in lockstep, 20 ms at a time (each frame sent, then the
    microphone frame captured over the same 20 ms, handled as it ends); the steps where it paused."""
    assert p.voice is not None
    clock = clock or Clock()
    paused = []
    for step in range(microphone.size // STEP):
        clock.now = 0.02 * step
        p.voice.next_frame()  # what goes out (and into the canceller's reference)
        clock.now = 0.02 * (step + 1)
        p.hear(np.clip(microphone[step * STEP:(step + 1) * STEP], -32768, 32767).astype(np.int16))
        if p.voice.paused or not p.voice.pending:
            paused.append(step)
        await asyncio.sleep(0)
    return paused


async def test_the_avatars_own_voice_on_speakers_does_not_interrupt_it(voices: dict[str, np.ndarray]) -> None:
    echo = speaker_echo(voices["reply48"])
    clock = Clock()
    p, sent = pipeline(aec3(clock))
    p.voice.play(voices["reply48"])  # type: ignore[union-attr]
    paused = await run(p, echo[: int(0.95 * voices["reply48"].size / 3)], clock)
    assert paused == [] and sent == [], (paused[:5], sent)
    p.close()


async def test_without_the_canceller_the_echo_would_interrupt(voices: dict[str, np.ndarray]) -> None:
    """The same input with nothing cancelled: the VAD takes the echo for the user (what the canceller prevents)."""
    echo = speaker_echo(voices["reply48"])
    p, _ = pipeline(NoEchoCanceller())
    p.voice.play(voices["reply48"])  # type: ignore[union-attr]
    paused = await run(p, echo[: int(0.95 * voices["reply48"].size / 3)])
    assert paused, "the raw echo never reached the VAD"
    p.close()


async def test_the_users_voice_over_the_echo_still_interrupts(voices: dict[str, np.ndarray]) -> None:
    echo = speaker_echo(voices["reply48"])
    user, onset = voices["user16"].astype(np.float32), 3 * IN_RATE
    microphone = echo[: onset + user.size + IN_RATE].copy()
    microphone[onset:onset + user.size] += user
    clock = Clock()
    p, sent = pipeline(aec3(clock))
    p.voice.play(voices["reply48"])  # type: ignore[union-attr]
    paused = await run(p, microphone, clock)
    first_loud = onset + int(np.flatnonzero(np.abs(user) > 500)[0])
    assert paused and paused[0] * STEP >= onset - STEP, paused[:3]  # nothing before the user spoke
    assert (paused[0] * STEP - first_loud) / IN_RATE <= 0.3  # held within 300 ms of their first word
    assert {"type": "interrupted"} in sent  # too long for a backchannel: the reply was cut
    assert not p.voice.pending  # type: ignore[union-attr]
    p.close()


async def _short_speech_over_the_reply(voices: dict[str, np.ndarray], heard: str) -> tuple[ConversationPipeline,
                                                                                              list[dict[str, Any]]]:
    """0.4 s of the user's voice (an "uh-huh" in length) over a reply that is being written; returns once the
    utterance has been decided."""
    p, sent = pipeline(NoEchoCanceller(), Heard(heard))
    turns: list[str] = []

    async def voice_turn(organization_id: str, conversation_id: str, content: str) -> Any:
        turns.append(content)
        raise asyncio.CancelledError  # the test only checks that the turn was taken

    p.host.voice_turn = voice_turn  # type: ignore[method-assign]
    p.start()
    p.voice.play(np.full(8 * OUT_RATE, 2000, np.int16))  # type: ignore[union-attr]
    short = voices["user16"][: int(0.4 * IN_RATE)].astype(np.float32)
    microphone = np.concatenate([np.zeros(IN_RATE // 2, np.float32), short, np.zeros(IN_RATE, np.float32)])
    await run(p, microphone)
    for _ in range(50):
        await asyncio.sleep(0.01)
    p.turns_taken = turns  # type: ignore[attr-defined]
    return p, sent


async def test_a_backchannel_pauses_the_reply_and_it_plays_on(voices: dict[str, np.ndarray]) -> None:
    p, sent = await _short_speech_over_the_reply(voices, "Uh-huh.")
    assert p.backchannels == 1 and not p.voice.paused and p.voice.pending  # type: ignore[union-attr]
    assert {"type": "interrupted"} not in sent and p.turns_taken == []  # type: ignore[attr-defined]
    p.close()


async def test_a_short_stop_is_an_interruption_and_a_turn(voices: dict[str, np.ndarray]) -> None:
    p, sent = await _short_speech_over_the_reply(voices, "Stop.")
    assert p.backchannels == 0 and not p.voice.pending  # type: ignore[union-attr]
    assert {"type": "interrupted"} in sent and p.turns_taken == ["Stop."]  # type: ignore[attr-defined]
    p.close()


def test_what_counts_as_a_backchannel_or_an_echo() -> None:
    assert all(is_backchannel(t) for t in ("", "Uh-huh.", "Yeah.", "Okay, I see.", "Mm-hmm", "Right.", "Thank you.",
                                           "Thanks.", "you", "That's right.", "Perfect."))
    assert not is_backchannel("Thank you, but where are the toilets?")
    assert not any(is_backchannel(t) for t in ("Stop.", "Wait.", "No, tell me about tickets.", "What?"))
    assert is_echo("opens at nine on", "The museum opens at nine on Sundays")
    assert not is_echo("what about the garden", "The museum opens at nine on Sundays")
    assert keeps_reply("Sundays.", "The museum opens at nine on Sundays") and not keeps_reply("No.", "Hello there.")
