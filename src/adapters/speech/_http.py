"""What the four provider adapters share: one httpx client, error mapping, PCM or container bytes to Audio."""

from __future__ import annotations

import httpx
import numpy as np

from avatar_service.adapters.audio_decode import AudioUndecodable, decode_audio
from avatar_service.ports.speech import Audio

DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=5.0)
# Container signatures: RIFF (wav), ID3 or MPEG sync (mp3), OggS, ftyp at offset 4 (mp4/m4a), fLaC.
_CONTAINER_MAGIC = (b"RIFF", b"ID3", b"OggS", b"fLaC")


class ProviderSpeechError(RuntimeError):
    """The provider answered with an error, an unexpected body, or not at all."""


def make_client(client: httpx.Client | None, timeout: httpx.Timeout | float | None) -> httpx.Client:
    return client if client is not None else httpx.Client(timeout=timeout or DEFAULT_TIMEOUT)


def post_for_audio(
    client: httpx.Client, provider: str, url: str, sample_rate: int, **kwargs: object
) -> Audio:
    """POST and turn the body into Audio; raw bodies are read as 16-bit little-endian mono PCM."""
    try:
        response = client.post(url, **kwargs)  # type: ignore[arg-type]
    except httpx.HTTPError as exc:
        raise ProviderSpeechError(f"{provider}: {type(exc).__name__}: {exc}") from exc
    if response.status_code >= 400:
        raise ProviderSpeechError(f"{provider}: HTTP {response.status_code}: {response.text[:300]}")
    content_type = response.headers.get("content-type", "")
    if content_type.startswith(("application/json", "text/")):
        raise ProviderSpeechError(f"{provider}: expected audio, got {content_type}: {response.text[:300]}")
    return audio_from_bytes(response.content, sample_rate, provider)


def audio_from_bytes(data: bytes, sample_rate: int, provider: str) -> Audio:
    if not data:
        raise ProviderSpeechError(f"{provider}: empty audio")
    if data.startswith(_CONTAINER_MAGIC) or data[4:8] == b"ftyp" or data[:2] in (b"\xff\xfb", b"\xff\xf3"):
        try:
            return decode_audio(data, sample_rate)
        except AudioUndecodable as exc:
            raise ProviderSpeechError(f"{provider}: undecodable audio: {exc}") from exc
    usable = len(data) - len(data) % 2
    return Audio(samples=np.frombuffer(data[:usable], dtype="<i2").astype(np.int16), sample_rate=sample_rate)


def clamp(value: float, low: float, high: float) -> float:
    return min(max(value, low), high)
