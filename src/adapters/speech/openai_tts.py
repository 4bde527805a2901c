"""OpenAI text to speech: POST /v1/audio/speech with response_format "pcm" (24 kHz, 16-bit, mono)."""

from __future__ import annotations

import httpx

from avatar_service.adapters.speech._http import clamp, make_client, post_for_audio
from avatar_service.ports.speech import Audio, VoiceChoice

OPENAI_BASE_URL = "https://api.openai.com/v1"
PCM_RATE = 24_000  # fixed by the API for "pcm"


class OpenAISpeech:
    name = "openai"

    def __init__(
        self,
        api_key: str,
        base_url: str = OPENAI_BASE_URL,
        model: str = "gpt-4o-mini-tts",
        client: httpx.Client | None = None,
        timeout: httpx.Timeout | float | None = None,
    ) -> None:
        self._api_key = api_key
        self._url = base_url.rstrip("/") + "/audio/speech"
        self._model = model
        self._client = make_client(client, timeout)

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        body = {
            "model": self._model,
            "input": text,
            "voice": voice.voice_id or "alloy",
            "response_format": "pcm",
            "speed": clamp(voice.speed, 0.25, 4.0),
        }
        headers = {"Authorization": f"Bearer {self._api_key}"}
        return post_for_audio(self._client, self.name, self._url, PCM_RATE, json=body, headers=headers)
