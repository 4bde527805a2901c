"""Map a provider's voice_id to the nearest offline voice: a language and, when known, a gender."""

from __future__ import annotations

import re
from dataclasses import dataclass

from avatar_service.ports.speech import VoiceChoice


@dataclass(frozen=True, slots=True)
class OfflineVoice:
    language: str  # espeak-ng language code, lower case: "en-us", "de", "fr" ...
    gender: str | None  # "female" | "male" | None when the provider's voice is unknown

    @property
    def base_language(self) -> str:
        return self.language.split("-", 1)[0]


DEFAULT_VOICE = OfflineVoice(language="en-us", gender=None)

# The providers' stock voices, so a personality that names one gets an offline voice of the same gender.
_OPENAI = {
    "alloy": "female",
    "ash": "male",
    "ballad": "male",
    "coral": "female",
    "echo": "male",
    "fable": "male",
    "nova": "female",
    "onyx": "male",
    "sage": "female",
    "shimmer": "female",
    "verse": "male",
    "marin": "female",
    "cedar": "male",
}
_ELEVENLABS = {
    "21m00Tcm4TlvDq8ikWAM": "female",  # Rachel
    "AZnzlk1XvdvUeBnXmlld": "female",  # Domi
    "EXAVITQu4vr4xnSDxMaL": "female",  # Sarah
    "MF3mGyEYCl7XYWbV9V6O": "female",  # Elli
    "XB0fDUnXU5powFXDhCwa": "female",  # Charlotte
    "ErXwobaYiN019PkySvjV": "male",  # Antoni
    "TxGEqnHWrfWFTfGW9XjX": "male",  # Josh
    "VR6AewLTigWG4xSOukaG": "male",  # Arnold
    "pNInz6obpgDQGcFmaJgB": "male",  # Adam
    "yoZ06aMxZJJ28mfd3POQ": "male",  # Sam
}
_AZURE_FEMALE = {
    "jenny",
    "aria",
    "ava",
    "emma",
    "michelle",
    "sara",
    "jane",
    "nancy",
    "amber",
    "ashley",
    "cora",
    "elizabeth",
    "libby",
    "sonia",
    "maisie",
    "natasha",
    "clara",
    "katja",
    "amala",
    "denise",
    "eloise",
    "elvira",
    "isabella",
    "francisca",
    "xiaoxiao",
    "nanami",
    "sunhi",
    "dariya",
    "zofia",
    "fenna",
}
_AZURE_NAME = re.compile(r"^([a-z]{2,3})-([A-Za-z]{2,4})-([A-Za-z]+?)(?:Multilingual)?Neural", re.IGNORECASE)
_GENDER_WORDS = {"female": "female", "woman": "female", "girl": "female", "male": "male", "man": "male"}


def nearest_offline_voice(voice: VoiceChoice) -> OfflineVoice:
    """Best offline stand-in for `voice`; unknown ids get US English with no gender preference."""
    voice_id = (voice.voice_id or "").strip()
    if not voice_id:
        return DEFAULT_VOICE
    if voice.provider == "openai" and voice_id.lower() in _OPENAI:
        return OfflineVoice("en-us", _OPENAI[voice_id.lower()])
    if voice.provider == "elevenlabs" and voice_id in _ELEVENLABS:
        return OfflineVoice("en-us", _ELEVENLABS[voice_id])
    match = _AZURE_NAME.match(voice_id)
    if match:
        language, region, name = match.groups()
        gender = "female" if name.lower() in _AZURE_FEMALE else "male"
        return OfflineVoice(_espeak_language(language.lower(), region.lower()), gender)
    for word in re.split(r"[^a-z]+", voice_id.lower()):
        if word in _GENDER_WORDS:
            return OfflineVoice("en-us", _GENDER_WORDS[word])
    return DEFAULT_VOICE


def _espeak_language(language: str, region: str) -> str:
    # espeak-ng names English and Portuguese variants by region; most other languages by language alone.
    if language == "en":
        return "en-gb" if region in {"gb", "au", "nz", "ie", "in"} else "en-us"
    if language == "pt":
        return "pt-br" if region == "br" else "pt"
    if language == "zh":
        return "cmn"
    return language
