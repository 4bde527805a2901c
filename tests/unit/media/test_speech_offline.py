"""The offline engines: Piper's packaged voice, espeak-ng, and which one a voice_id lands on."""

from __future__ import annotations

import numpy as np
import pytest

from avatar_service.adapters.speech import (
    EspeakSpeech,
    FallbackSpeech,
    PiperSpeech,
    VoiceUnavailable,
    nearest_offline_voice,
)
from avatar_service.ports.speech import VoiceChoice

SENTENCE = "Good morning. I am the avatar service, and I can read this sentence aloud."
espeak_missing = pytest.mark.skipif(not EspeakSpeech().available, reason="espeak-ng is not installed")


@pytest.fixture(scope="module")
def piper() -> PiperSpeech:
    return PiperSpeech()


def test_piper_speaks_a_sentence_at_an_intelligible_length(piper: PiperSpeech) -> None:
    audio = piper.synthesize(SENTENCE, VoiceChoice("openai", "alloy"))
    assert piper.name == "piper:en_US-joe-medium"
    assert audio.sample_rate == 22_050 and audio.samples.dtype == np.int16
    # About 13 words: at a normal pace (2 to 4 words a second) that is 3 to 7 seconds.
    assert 2.5 < audio.duration < 8.0
    assert np.abs(audio.samples).max() > 10_000  # not silence


def test_piper_speed_setting_changes_the_pace(piper: PiperSpeech) -> None:
    normal = piper.synthesize(SENTENCE, VoiceChoice("openai", speed=1.0)).duration
    fast = piper.synthesize(SENTENCE, VoiceChoice("openai", speed=2.0)).duration
    assert fast < normal * 0.7


def test_piper_declines_languages_it_has_no_voice_for(piper: PiperSpeech) -> None:
    with pytest.raises(VoiceUnavailable):
        piper.synthesize("Guten Tag.", VoiceChoice("azure", "de-DE-KatjaNeural"))


@espeak_missing
def test_espeak_speaks_and_follows_speed() -> None:
    espeak = EspeakSpeech()
    slow = espeak.synthesize(SENTENCE, VoiceChoice("openai", "nova", speed=0.5))
    fast = espeak.synthesize(SENTENCE, VoiceChoice("openai", "nova", speed=2.0))
    assert slow.samples.dtype == np.int16 and slow.sample_rate > 8000
    assert 1.0 < fast.duration < slow.duration / 2


@espeak_missing
def test_offline_chain_hands_other_languages_to_espeak(piper: PiperSpeech) -> None:
    chain = FallbackSpeech([piper, EspeakSpeech()])
    audio = chain.synthesize("Guten Tag, wie geht es Ihnen?", VoiceChoice("azure", "de-DE-KatjaNeural"))
    assert audio.duration > 0.5
    assert chain.name == "piper:en_US-joe-medium > espeak-ng"


@pytest.mark.parametrize(
    ("provider", "voice_id", "language", "gender"),
    [
        ("openai", "nova", "en-us", "female"),
        ("openai", "onyx", "en-us", "male"),
        ("elevenlabs", "21m00Tcm4TlvDq8ikWAM", "en-us", "female"),
        ("azure", "en-GB-RyanNeural", "en-gb", "male"),
        ("azure", "fr-FR-DeniseNeural", "fr", "female"),
        ("cartesia", "a0e99841-438c-4a64-b679-ae501e7d6091", "en-us", None),
        ("cartesia", None, "en-us", None),
    ],
)
def test_nearest_offline_voice(
    provider: str, voice_id: str | None, language: str, gender: str | None
) -> None:
    voice = nearest_offline_voice(VoiceChoice(provider, voice_id))
    assert (voice.language, voice.gender) == (language, gender)
