"""Cartesia text to speech: POST /tts/bytes with a raw pcm_s16le output format."""

from __future__ import annotations

import httpx

from avatar_service.adapters.speech._http import clamp, make_client, post_for_audio
from avatar_service.adapters.speech.voices import nearest_offline_voice
from avatar_service.ports.speech import Audio, VoiceChoice

CARTESIA_BASE_URL = "https://api.cartesia.ai"
CARTESIA_VERSION = "2025-04-16"
DEFAULT_VOICE_ID = "e07c00bc-4134-4eae-9ea4-1a55fb45746b"  # the voice in Cartesia's own examples
PCM_RATE = 24_000


class CartesiaSpeech:
    name = "cartesia"

    def __init__(
        self,
        api_key: str,
        base_url: str = CARTESIA_BASE_URL,
        model: str = "sonic-3",
        client: httpx.Client | None = None,
        timeout: httpx.Timeout | float | None = None,
    ) -> None:
        self._api_key = api_key
        self._url = base_url.rstrip("/") + "/tts/bytes"
        self._model = model
        self._client = make_client(client, timeout)

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        body = {
            "model_id": self._model,
            "transcript": text,
            "voice": {"mode": "id", "id": voice.voice_id or DEFAULT_VOICE_ID},
            "output_format": {"container": "raw", "encoding": "pcm_s16le", "sample_rate": PCM_RATE},
            "language": nearest_offline_voice(voice).base_language,
            "generation_config": {"speed": clamp(voice.speed, 0.6, 1.5)},  # sonic-3's accepted range
        }
        headers = {"Authorization": f"Bearer {self._api_key}", "Cartesia-Version": CARTESIA_VERSION}
        return post_for_audio(self._client, self.name, self._url, PCM_RATE, json=body, headers=headers)
