"""Each provider adapter against a local server on a loopback port (`fake_tts`) speaking that provider's protocol;
fallback and factory."""

from __future__ import annotations

from xml.etree import ElementTree

import numpy as np
import pytest

from avatar_service.adapters.speech import (
    AzureSpeech,
    CartesiaSpeech,
    ElevenLabsSpeech,
    FallbackSpeech,
    OpenAISpeech,
    ProviderSpeechError,
    build_speech,
)
from avatar_service.ports.speech import Audio, VoiceChoice

from . import fake_tts

EXPECTED = np.frombuffer(fake_tts.PCM_24K, dtype="<i2")


class StubOffline:
    name = "stub-offline"

    def __init__(self) -> None:
        self.calls = 0

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        self.calls += 1
        return Audio(samples=np.zeros(100, np.int16), sample_rate=16_000)


def _check(audio: Audio) -> None:
    assert audio.sample_rate == 24_000
    assert audio.samples.dtype == np.int16
    np.testing.assert_array_equal(audio.samples, EXPECTED)


def test_openai_speech() -> None:
    with fake_tts.serve(fake_tts.openai) as server:
        engine = OpenAISpeech("sk-test", base_url=server.url + "/v1")
        _check(engine.synthesize("Hello there.", VoiceChoice("openai", "nova", speed=1.5)))
    body = server.requests[0].json()
    assert body["voice"] == "nova" and body["input"] == "Hello there." and body["speed"] == 1.5


def test_elevenlabs_speech() -> None:
    with fake_tts.serve(fake_tts.elevenlabs) as server:
        engine = ElevenLabsSpeech("el-test", base_url=server.url)
        voice = VoiceChoice(
            "elevenlabs", "21m00Tcm4TlvDq8ikWAM", speed=2.0, stability=0.4, similarity_boost=0.9
        )
        _check(engine.synthesize("Hi.", voice))
    seen = server.requests[0]
    assert seen.path == "/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM"
    assert seen.json()["voice_settings"] == {"speed": 1.2, "stability": 0.4, "similarity_boost": 0.9}


def test_cartesia_speech() -> None:
    with fake_tts.serve(fake_tts.cartesia) as server:
        engine = CartesiaSpeech("ca-test", base_url=server.url)
        _check(engine.synthesize("Hi.", VoiceChoice("cartesia", "a0e99841-438c-4a64-b679-ae501e7d6091")))
    assert server.requests[0].json()["voice"]["id"] == "a0e99841-438c-4a64-b679-ae501e7d6091"


def test_azure_speech_escapes_text_into_ssml() -> None:
    with fake_tts.serve(fake_tts.azure) as server:
        engine = AzureSpeech("az-test", base_url=server.url)
        _check(engine.synthesize("Fish & chips <now>", VoiceChoice("azure", "en-GB-SoniaNeural", speed=1.25)))
    speak = ElementTree.fromstring(server.requests[0].body)
    assert speak.get("{http://www.w3.org/XML/1998/namespace}lang") == "en-GB"
    voice = speak[0]
    assert voice.get("name") == "en-GB-SoniaNeural"
    assert voice[0].get("rate") == "+25%" and voice[0].text == "Fish & chips <now>"


def test_provider_errors_raise() -> None:
    with fake_tts.serve(fake_tts.openai) as server, pytest.raises(ProviderSpeechError, match="401"):
        OpenAISpeech("wrong", base_url=server.url + "/v1").synthesize("Hi.", VoiceChoice("openai"))
    with pytest.raises(ProviderSpeechError):  # nothing listening any more
        OpenAISpeech("sk-test", base_url=server.url + "/v1", timeout=2.0).synthesize(
            "Hi.", VoiceChoice("openai")
        )


def test_fallback_speaks_offline_when_the_provider_fails() -> None:
    offline = StubOffline()
    with fake_tts.serve(lambda seen: (500, "application/json", b'{"error": "overloaded"}')) as server:
        engine = FallbackSpeech([OpenAISpeech("sk-test", base_url=server.url + "/v1"), offline])
        audio = engine.synthesize("Hi.", VoiceChoice("openai", "alloy"))
    assert offline.calls == 1 and audio.sample_rate == 16_000
    assert engine.name == "openai > stub-offline"


def test_build_speech_without_credentials_is_offline_for_every_provider() -> None:
    offline = StubOffline()
    engines = build_speech({"openai_api_key": ""}, offline=offline)
    assert set(engines) == {"elevenlabs", "cartesia", "openai", "azure"}
    assert all(engine is offline for engine in engines.values())


def test_build_speech_with_credentials_uses_each_provider_first() -> None:
    offline = StubOffline()
    handlers = {
        "openai": fake_tts.openai,
        "elevenlabs": fake_tts.elevenlabs,
        "cartesia": fake_tts.cartesia,
        "azure": fake_tts.azure,
    }
    with (
        fake_tts.serve(handlers["openai"]) as oa,
        fake_tts.serve(handlers["elevenlabs"]) as el,
        fake_tts.serve(handlers["cartesia"]) as ca,
        fake_tts.serve(handlers["azure"]) as az,
    ):
        credentials = {
            "openai_api_key": "sk-test",
            "openai_base_url": oa.url + "/v1",
            "elevenlabs_api_key": "el-test",
            "elevenlabs_base_url": el.url,
            "cartesia_api_key": "ca-test",
            "cartesia_base_url": ca.url,
            "azure_speech_key": "az-test",
            "azure_base_url": az.url,
        }
        engines = build_speech(credentials, offline=offline)
        for provider, engine in engines.items():
            assert engine.name == f"{provider} > stub-offline"
            _check(engine.synthesize("Hello.", VoiceChoice(provider)))
    assert offline.calls == 0
    assert all(len(server.requests) == 1 for server in (oa, el, ca, az))
