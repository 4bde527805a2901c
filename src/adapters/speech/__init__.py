"""Speech engines: the offline voices (Piper, WORLD conversion) and espeak-ng, the providers' HTTP APIs, and the
fallback between them."""

from avatar_service.adapters.speech._http import ProviderSpeechError
from avatar_service.adapters.speech.azure_tts import AzureSpeech
from avatar_service.adapters.speech.cartesia import CartesiaSpeech
from avatar_service.adapters.speech.catalogue import CATALOGUE, DEFAULT_VOICE_ID, CatalogueVoice
from avatar_service.adapters.speech.catalogue_speech import CatalogueSpeech
from avatar_service.adapters.speech.elevenlabs import ElevenLabsSpeech
from avatar_service.adapters.speech.espeak_speech import EspeakError, EspeakSpeech
from avatar_service.adapters.speech.factory import (
    CREDENTIAL_KEYS,
    PROVIDERS,
    ProviderSpeech,
    build_offline_speech,
    build_speech,
)
from avatar_service.adapters.speech.fallback import FallbackSpeech
from avatar_service.adapters.speech.openai_tts import OpenAISpeech
from avatar_service.adapters.speech.piper_speech import PiperSpeech, VoiceUnavailable
from avatar_service.adapters.speech.voices import (
    OfflineVoice,
    nearest_offline_voice,
    offline_voice_map,
    provider_table,
)

__all__ = [
    "CATALOGUE",
    "CREDENTIAL_KEYS",
    "DEFAULT_VOICE_ID",
    "PROVIDERS",
    "AzureSpeech",
    "CartesiaSpeech",
    "CatalogueSpeech",
    "CatalogueVoice",
    "ElevenLabsSpeech",
    "EspeakError",
    "EspeakSpeech",
    "FallbackSpeech",
    "OfflineVoice",
    "OpenAISpeech",
    "PiperSpeech",
    "ProviderSpeech",
    "ProviderSpeechError",
    "VoiceUnavailable",
    "build_offline_speech",
    "build_speech",
    "nearest_offline_voice",
    "offline_voice_map",
    "provider_table",
]
