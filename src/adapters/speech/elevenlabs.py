"""ElevenLabs text to speech: POST /v1/text-to-speech/{voice_id}?output_format=pcm_24000 (xi-api-key)."""

from __future__ import annotations

import httpx

from avatar_service.adapters.speech._http import clamp, make_client, post_for_audio
from avatar_service.ports.speech import Audio, VoiceChoice

ELEVENLABS_BASE_URL = "https://api.elevenlabs.io"
DEFAULT_VOICE_ID = "21m00Tcm4TlvDq8ikWAM"  # "Rachel", a premade voice every account has
PCM_RATE = 24_000


class ElevenLabsSpeech:
    name = "elevenlabs"

    def __init__(
        self,
        api_key: str,
        base_url: str = ELEVENLABS_BASE_URL,
        model: str = "eleven_multilingual_v2",
        client: httpx.Client | None = None,
        timeout: httpx.Timeout | float | None = None,
    ) -> None:
        self._api_key = api_key
        self._base_url = base_url.rstrip("/")
        self._model = model
        self._client = make_client(client, timeout)

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        settings: dict[str, float] = {"speed": clamp(voice.speed, 0.7, 1.2)}  # the API's accepted range
        if voice.stability is not None:
            settings["stability"] = clamp(voice.stability, 0.0, 1.0)
        if voice.similarity_boost is not None:
            settings["similarity_boost"] = clamp(voice.similarity_boost, 0.0, 1.0)
        url = f"{self._base_url}/v1/text-to-speech/{voice.voice_id or DEFAULT_VOICE_ID}"
        return post_for_audio(
            self._client,
            self.name,
            url,
            PCM_RATE,
            params={"output_format": f"pcm_{PCM_RATE}"},
            json={"text": text, "model_id": self._model, "voice_settings": settings},
            headers={"xi-api-key": self._api_key, "Accept": "audio/pcm"},
        )
