"""Speech synthesis port: text to mono 16-bit PCM audio."""

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Audio:
    samples: Any  # 1-D numpy int16 array, mono
    sample_rate: int

    @property
    def duration(self) -> float:
        return len(self.samples) / self.sample_rate if self.sample_rate else 0.0


@dataclass(frozen=True, slots=True)
class VoiceChoice:
    provider: str  # elevenlabs | cartesia | openai | azure
    voice_id: str | None = None
    speed: float = 1.0  # 0.5..2.0
    stability: float | None = None
    similarity_boost: float | None = None


class SpeechSynthesizer(Protocol):
    """Sync and CPU-bound (or blocking HTTP): callers run it off the event loop."""

    name: str  # engine name shown by /healthz, e.g. "piper:en_US-joe-medium" or "espeak-ng"

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio: ...


@dataclass(frozen=True, slots=True)
class SpeechEngines:
    """One synthesizer per voice provider (each falls back to the offline engine)."""

    engines: dict[str, SpeechSynthesizer]

    def for_provider(self, provider: str) -> SpeechSynthesizer:
        return self.engines[provider]


class AudioDecoder(Protocol):
    """Sync and CPU-bound: bytes of any common audio format to mono int16 (raises on garbage)."""

    def __call__(self, data: bytes, sample_rate: int = 24_000, max_seconds: float | None = None) -> Audio: ...
