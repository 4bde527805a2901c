"""A pause inside a question ends the VAD's utterance, not the question: words that stop mid-sentence wait for the
rest, and the two utterances are one turn; finished words are a turn at once."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from avatar_service.adapters.aiortc_rooms.pipeline import ConversationPipeline
from avatar_service.adapters.aiortc_rooms.turn_end import reads_unfinished
from avatar_service.adapters.aiortc_rooms.voice import VoiceQueue
from avatar_service.ports.rooms import RoomMedia
from avatar_service.ports.speech import VoiceChoice

from .fakes import inline, spoken_16k

RATE = 16_000


def test_words_that_stop_mid_sentence_read_unfinished() -> None:
    for said in ("What time does the", "Can I bring my", "Tickets for adults and", "So...", "Well, I was thinking,"):
        assert reads_unfinished(said), said
    for said in ("What time does the museum open?", "I like that.", "Yes, it is.", "Where are you from?", "Thanks!",
                 "", "Tell me about the cafe."):
        assert not reads_unfinished(said), said


class Told:
    """Reads the first burst (full level) as `first` and the second (half level) as `second`, however often the
    early transcription guesses."""

    def __init__(self, first: str, second: str, peak: float) -> None:
        self.first, self.second, self.peak = first, second, peak

    def transcribe(self, samples: Any, sample_rate: int = 16000) -> str:
        level = float(np.abs(np.asarray(samples, np.float32)).max())
        level *= 32767 if level <= 1.0 else 1  # the VAD's own samples are floats in [-1, 1]
        return self.first if level > 0.75 * self.peak else self.second


@pytest.fixture(scope="module")
def words16() -> Iterator[np.ndarray]:
    yield spoken_16k("Where are the toilets?")


async def _turn_of(speech: np.ndarray, gap: float, first: str, second: str) -> str:
    """Two bursts of speech `gap` seconds apart, fed in real time; the first turn the host is asked for."""
    media = RoomMedia(organization_id="org", conversation_id="conv", voice=VoiceChoice(provider="openai"),
                      video_enabled=False)
    turns: list[str] = []

    class Host:
        async def voice_turn(self, organization_id: str, conversation_id: str, content: str) -> Any:
            turns.append(content)
            raise asyncio.CancelledError

    burst = speech[: int(0.8 * RATE)].astype(np.float32)
    told = Told(first, second, float(np.abs(burst).max()))
    p = ConversationPipeline(media, Host(), None, told, inline, VoiceQueue(),  # type: ignore[arg-type]
                             lambda event: None, lambda error: None)
    p.start()
    microphone = np.concatenate([np.zeros(RATE // 2, np.float32), burst, np.zeros(int(gap * RATE), np.float32),
                                 burst / 2, np.zeros(2 * RATE, np.float32)])
    for step in range(microphone.size // 320):
        p.hear(np.clip(microphone[step * 320:(step + 1) * 320], -32768, 32767).astype(np.int16))
        await asyncio.sleep(0.02)  # real time: the continuation's wait is timed
        if turns:
            break
    p.close()
    return turns[0] if turns else ""


async def test_a_question_the_vad_cut_in_two_is_one_turn(words16: np.ndarray) -> None:
    assert await _turn_of(words16, 0.6, "What time does the", "museum open?") == "What time does the museum open?"


async def test_finished_words_are_a_turn_at_once(words16: np.ndarray) -> None:
    assert await _turn_of(words16, 0.6, "Hello.", "Where are the toilets?") == "Hello."
