"""Azure AI Speech text to speech: SSML POSTed to {region}.tts.speech.microsoft.com/cognitiveservices/v1."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

import httpx

from avatar_service.adapters.speech._http import clamp, make_client, post_for_audio
from avatar_service.ports.speech import Audio, VoiceChoice

DEFAULT_VOICE = "en-US-JennyNeural"
OUTPUT_FORMAT = "raw-24khz-16bit-mono-pcm"
PCM_RATE = 24_000


def azure_base_url(region: str) -> str:
    return f"https://{region}.tts.speech.microsoft.com"


class AzureSpeech:
    name = "azure"

    def __init__(
        self,
        api_key: str,
        region: str = "eastus",
        base_url: str | None = None,
        client: httpx.Client | None = None,
        timeout: httpx.Timeout | float | None = None,
    ) -> None:
        self._api_key = api_key
        self._url = (base_url or azure_base_url(region)).rstrip("/") + "/cognitiveservices/v1"
        self._client = make_client(client, timeout)

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        voice_name = voice.voice_id or DEFAULT_VOICE
        # The locale is the first two parts of every Azure voice name ("en-US-JennyNeural").
        parts = voice_name.split("-")
        locale = "-".join(parts[:2]) if len(parts) >= 3 else "en-US"
        rate = f"{(clamp(voice.speed, 0.5, 2.0) - 1.0) * 100:+.0f}%"
        ssml = (
            f"<speak version='1.0' xmlns='http://www.w3.org/2001/10/synthesis' xml:lang={quoteattr(locale)}>"
            f"<voice name={quoteattr(voice_name)}><prosody rate={quoteattr(rate)}>{escape(text)}</prosody>"
            "</voice></speak>"
        )
        headers = {
            "Ocp-Apim-Subscription-Key": self._api_key,
            "Content-Type": "application/ssml+xml",
            "X-Microsoft-OutputFormat": OUTPUT_FORMAT,
            "User-Agent": "avatar-service",
        }
        return post_for_audio(
            self._client, self.name, self._url, PCM_RATE, content=ssml.encode("utf-8"), headers=headers
        )
