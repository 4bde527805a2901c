"""Speech synthesis port: text to mono 16-bit PCM audio."""

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
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


@dataclass(frozen=True, slots=True)
class VoiceInfo:
    """One offline voice, as GET /v1/voices lists it."""

    id: str
    name: str
    gender: str  # "female" | "male"
    language: str  # BCP 47, e.g. "en-US"
    engine: str
    description: str
    version: str  # changes whenever the voice would sound different (its stored preview is then redone)


class VoiceCatalogue(Protocol):
    """The offline voices a `voice_id` may name. render_preview is sync and CPU-bound."""

    def voices(self) -> Sequence[VoiceInfo]: ...

    def render_preview(self, voice_id: str, path: Path) -> None:
        """Writes a short WAV of the voice speaking to `path`."""
        ...


class AudioDecoder(Protocol):
    """Sync and CPU-bound: bytes of any common audio format to mono int16 (raises on garbage)."""

    def __call__(self, data: bytes, sample_rate: int = 24_000, max_seconds: float | None = None) -> Audio: ...
