"""The offline voices GET /v1/voices lists: Piper's joe as shipped, and five voices converted from him with WORLD."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from avatar_service.adapters.speech.world_conversion import VoiceShape


@dataclass(frozen=True, slots=True)
class CatalogueVoice:
    id: str
    name: str
    gender: str  # "female" | "male"
    description: str
    shape: VoiceShape | None  # None: Piper's output unchanged
    tempo: float = 1.0  # speaking rate relative to joe's; multiplies the personality's own `speed`
    language: str = "en-US"

    @property
    def version(self) -> str:
        """Changes whenever the voice would sound different, so a stored preview is never stale."""
        return hashlib.sha256(repr((self.shape, self.tempo, PREVIEW_VERSION)).encode()).hexdigest()[:12]


PREVIEW_VERSION = 1  # bump when the preview text or the conversion code changes how a voice sounds

# Pitch centres sit well inside their ranges (female at or above 180 Hz, male at or below 118 Hz), and
# each voice differs from the others in at least two of pitch, vocal-tract length, pace and timbre.
CATALOGUE: tuple[CatalogueVoice, ...] = (
    CatalogueVoice(
        "iris", "Iris", "female", "Warm and clear, mid-pitched, at an even pace.",
        VoiceShape(pitch_hz=215.0, pitch_range=1.0, formant_scale=1.18, breathiness=0.1),
    ),
    CatalogueVoice(
        "nora", "Nora", "female", "Bright, high and lively, a little quicker.",
        VoiceShape(pitch_hz=250.0, pitch_range=1.25, formant_scale=1.22, tilt_db_per_octave=1.5),
        tempo=1.18,
    ),
    CatalogueVoice(
        "wren", "Wren", "female", "Soft, low and calm, breathy, unhurried.",
        VoiceShape(pitch_hz=180.0, pitch_range=0.8, formant_scale=1.12, breathiness=0.4,
                   tilt_db_per_octave=-2.0),
        tempo=0.86,
    ),
    # joe stays as Piper makes him: a WORLD pass that only restored his faint low end cost 2 to 3 points of
    # Whisper WER (bench/voices.py sentences: 3.2-3.6% against 0.4-1.6%) and half his speed.
    CatalogueVoice("joe", "Joe", "male", "Piper's en_US joe voice as shipped: low and relaxed.", None),
    CatalogueVoice(
        "hugo", "Hugo", "male", "Deep and resonant, slow and steady.",
        VoiceShape(pitch_hz=78.0, pitch_range=0.9, formant_scale=0.91, tilt_db_per_octave=-1.0, low_fill_hz=180.0),
        tempo=0.86,
    ),
    CatalogueVoice(
        "felix", "Felix", "male", "Lighter and younger, quick and animated.",
        VoiceShape(pitch_hz=112.0, pitch_range=1.15, formant_scale=1.1, tilt_db_per_octave=2.0, low_fill_hz=200.0),
        tempo=1.18,
    ),
)
BY_ID = {voice.id: voice for voice in CATALOGUE}
DEFAULT_VOICE_ID = "joe"  # an id nobody knows speaks with the least-changed voice
FEMALE = tuple(voice.id for voice in CATALOGUE if voice.gender == "female")
MALE = tuple(voice.id for voice in CATALOGUE if voice.gender == "male")


def preview_text(voice: CatalogueVoice) -> str:
    return f"Hello, I'm {voice.name}, and this is how I sound."
