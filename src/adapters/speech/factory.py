"""Build one speech engine per voice provider from the deployment's credentials."""

from __future__ import annotations

from collections.abc import Mapping

from avatar_service.adapters.speech.azure_tts import AzureSpeech
from avatar_service.adapters.speech.cartesia import CARTESIA_BASE_URL, CartesiaSpeech
from avatar_service.adapters.speech.catalogue import BY_ID
from avatar_service.adapters.speech.catalogue_speech import CatalogueSpeech
from avatar_service.adapters.speech.elevenlabs import ELEVENLABS_BASE_URL, ElevenLabsSpeech
from avatar_service.adapters.speech.espeak_speech import EspeakSpeech
from avatar_service.adapters.speech.fallback import FallbackSpeech
from avatar_service.adapters.speech.openai_tts import OPENAI_BASE_URL, OpenAISpeech
from avatar_service.ports.speech import Audio, SpeechSynthesizer, VoiceChoice

PROVIDERS = ("elevenlabs", "cartesia", "openai", "azure")

# Credential keys, e.g. from AVATAR_OPENAI_API_KEY; the *_base_url keys point an adapter elsewhere
# (a proxy, a regional endpoint, or a test server).
CREDENTIAL_KEYS = (
    "elevenlabs_api_key",
    "elevenlabs_base_url",
    "cartesia_api_key",
    "cartesia_base_url",
    "openai_api_key",
    "openai_base_url",
    "azure_speech_key",
    "azure_speech_region",
    "azure_base_url",
)


def build_offline_speech(catalogue: CatalogueSpeech | None = None) -> SpeechSynthesizer:
    """The catalogue's voices (Piper, converted with WORLD), then espeak-ng (other languages, or if they fail)."""
    espeak = EspeakSpeech()
    engines: list[SpeechSynthesizer] = [catalogue or CatalogueSpeech()]
    if espeak.available:
        engines.append(espeak)
    return FallbackSpeech(engines)


class ProviderSpeech:
    """A provider's API with the offline voices behind it. A catalogue voice id (`iris`, `joe` ...) names no
    voice of the provider's, so it goes straight to the offline voices instead of failing a request first."""

    def __init__(self, online: SpeechSynthesizer, offline: SpeechSynthesizer) -> None:
        self.offline = offline
        self.chain = FallbackSpeech([online, offline])
        self.name = self.chain.name

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        if (voice.voice_id or "").strip().lower() in BY_ID:
            return self.offline.synthesize(text, voice)
        return self.chain.synthesize(text, voice)


def build_speech(
    credentials: Mapping[str, str], offline: SpeechSynthesizer | None = None
) -> dict[str, SpeechSynthesizer]:
    """Provider -> engine. A provider with credentials gets its API with the offline engine behind it."""
    offline = offline or build_offline_speech()
    creds = {key: value for key, value in credentials.items() if value}
    engines: dict[str, SpeechSynthesizer] = {}
    for provider in PROVIDERS:
        online = provider_engine(provider, creds)
        engines[provider] = ProviderSpeech(online, offline) if online else offline
    return engines


def provider_engine(provider: str, creds: Mapping[str, str]) -> SpeechSynthesizer | None:
    """The provider's HTTP adapter, or None when its credentials are not configured."""
    if provider == "elevenlabs" and creds.get("elevenlabs_api_key"):
        base_url = creds.get("elevenlabs_base_url") or ELEVENLABS_BASE_URL
        return ElevenLabsSpeech(creds["elevenlabs_api_key"], base_url)
    if provider == "cartesia" and creds.get("cartesia_api_key"):
        return CartesiaSpeech(creds["cartesia_api_key"], creds.get("cartesia_base_url") or CARTESIA_BASE_URL)
    if provider == "openai" and creds.get("openai_api_key"):
        return OpenAISpeech(creds["openai_api_key"], creds.get("openai_base_url") or OPENAI_BASE_URL)
    if provider == "azure" and creds.get("azure_speech_key"):
        region = creds.get("azure_speech_region") or "eastus"
        return AzureSpeech(creds["azure_speech_key"], region, creds.get("azure_base_url") or None)
    return None
