"""No lost first words: an utterance whose VAD onset comes late still reaches Whisper from before its first word,
whether the transcription starts early (in the hang-over) or after it."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

import numpy as np
import pytest

from avatar_service.adapters.aiortc_rooms.audio import IN_RATE, resample
from avatar_service.adapters.aiortc_rooms.pipeline import ConversationPipeline
from avatar_service.adapters.aiortc_rooms.voice import VoiceQueue
from avatar_service.adapters.speech.piper_speech import PiperSpeech
from avatar_service.adapters.vad import SileroScorer, VoiceActivityDetector
from avatar_service.ports.rooms import RoomMedia
from avatar_service.ports.speech import VoiceChoice

from .fakes import inline

LAG_WINDOWS = 8  # 256 ms: later than Silero was seen to decide in the browser (about 235 ms)


class LateScorer:
    """Silero, answering each window with the score it gave LAG_WINDOWS windows before: an onset decided late."""

    name = "late-silero"

    def __init__(self) -> None:
        self._inner = SileroScorer()
        self._past: deque[float] = deque([0.0] * LAG_WINDOWS)

    def score(self, window: np.ndarray) -> float:
        self._past.append(self._inner.score(window))
        return self._past.popleft()

    def reset(self) -> None:
        self._inner.reset()
        self._past = deque([0.0] * LAG_WINDOWS)


class Recording:
    def __init__(self) -> None:
        self.audio: list[np.ndarray] = []

    def transcribe(self, samples: Any, sample_rate: int = 16000) -> str:
        audio = np.asarray(samples).reshape(-1)
        self.audio.append(audio.astype(np.float32) / 32768 if audio.dtype == np.int16 else audio.astype(np.float32))
        return ""


@pytest.fixture(scope="module")
def question() -> tuple[np.ndarray, int]:
    """'What time does the museum open?' after 3 s of faint noise (so every sample is findable); its first
    loud sample."""
    # Without Piper's noise: its draws come from the process's one random stream, so the same sentence sounded a
    # little different after other tests had synthesized speech, and Silero decided its onset up to 140 ms apart.
    from piper import SynthesisConfig

    voice = PiperSpeech()._load()
    chunks = voice.synthesize("What time does the museum open?",
                              syn_config=SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0))
    samples = np.concatenate([chunk.audio_int16_array.reshape(-1) for chunk in chunks])
    speech = resample(samples, int(voice.config.sample_rate), IN_RATE).astype(np.float32) / 32768
    noise = np.random.default_rng(3).normal(0, 0.002, 3 * IN_RATE + speech.size + IN_RATE).astype(np.float32)
    noise[3 * IN_RATE:3 * IN_RATE + speech.size] += speech
    return noise, 3 * IN_RATE + int(np.flatnonzero(np.abs(speech) > 0.02)[0])


def start_of(piece: np.ndarray, audio: np.ndarray) -> int:
    """Where `piece` (a slice of `audio` up to float32 round-trips) begins in it."""
    head = piece[:64]
    for offset in range(audio.size - 64):
        if np.allclose(audio[offset:offset + 64], head, atol=1e-4):
            return offset
    raise AssertionError("not a slice of the input")


def utterance_start(pre_roll_ms: int, audio: np.ndarray) -> int:
    vad = VoiceActivityDetector(LateScorer(), hangover_ms=350, pre_roll_ms=pre_roll_ms)
    for i in range(0, audio.size, 320):
        for event in vad.feed(audio[i:i + 320]):
            if event.kind == "speech_end":
                return start_of(event.samples, audio)  # type: ignore[arg-type]
    raise AssertionError("no utterance")


def test_the_rooms_pre_roll_covers_a_late_onset(question: tuple[np.ndarray, int]) -> None:
    audio, first_loud = question
    assert utterance_start(480, audio) < first_loud - 0.05 * IN_RATE
    # The pre-roll the room had before: the first word's beginning was cut off.
    assert utterance_start(192, audio) > first_loud


@pytest.mark.parametrize("early", [True, False])
async def test_the_room_hands_whisper_the_first_word(question: tuple[np.ndarray, int], early: bool) -> None:
    audio, first_loud = question
    media = RoomMedia(organization_id="org", conversation_id="conv", voice=VoiceChoice(provider="openai"),
                      video_enabled=False)
    heard = Recording()
    p = ConversationPipeline(media, None, None, heard, inline, VoiceQueue(), lambda e: None,  # type: ignore[arg-type]
                             lambda e: None)
    assert p.vad is not None
    p.vad.scorer = LateScorer()
    if not early:
        p.early = None
    p.start()
    pcm = (audio * 32767).astype(np.int16)
    for i in range(0, pcm.size, 320):
        p.hear(pcm[i:i + 320])
        await asyncio.sleep(0)
    for _ in range(100):
        if heard.audio:
            break
        await asyncio.sleep(0.01)
    assert heard.audio, "nothing was transcribed"
    assert start_of(heard.audio[0], (pcm.astype(np.float32) / 32768)) < first_loud - 0.05 * IN_RATE
    p.close()
