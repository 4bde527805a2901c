"""What the room tests share: an offload that runs the call at once, and a short spoken question."""

from __future__ import annotations

from typing import Any

import numpy as np

from avatar_service.adapters.aiortc_rooms.audio import resample
from avatar_service.adapters.speech.piper_speech import PiperSpeech
from avatar_service.ports.speech import VoiceChoice


async def inline(fn: Any, *args: Any) -> Any:
    """The Offload port, in the caller's thread: what a test runs happens before the next await."""
    return fn(*args)


def spoken_16k(text: str) -> np.ndarray:
    """`text` in the offline voice, at the microphone's 16 kHz."""
    audio = PiperSpeech().synthesize(text, VoiceChoice(provider="openai", voice_id="joe"))
    return resample(np.asarray(audio.samples, dtype=np.int16), audio.sample_rate, 16_000)
