"""Map a provider's voice_id to the nearest offline voice: a catalogue voice, a language and a gender."""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from avatar_service.adapters.speech.catalogue import BY_ID, CATALOGUE, DEFAULT_VOICE_ID, FEMALE, MALE
from avatar_service.ports.speech import VoiceChoice


@dataclass(frozen=True, slots=True)
class OfflineVoice:
    language: str  # espeak-ng language code, lower case: "en-us", "de", "fr" ...
    gender: str | None  # "female" | "male" | None when the provider's voice is unknown
    voice_id: str = DEFAULT_VOICE_ID  # the catalogue voice that speaks it (catalogue.py)

    @property
    def base_language(self) -> str:
        return self.language.split("-", 1)[0]


DEFAULT_VOICE = OfflineVoice(language="en-us", gender=None)

# The providers' stock voices, each given the catalogue voice nearest in gender and character, so two
# personalities on different stock voices also sound different offline.
OPENAI = {
    "alloy": "iris",  # neutral, mid
    "coral": "nora",  # warm, bright
    "nova": "nora",  # energetic
    "shimmer": "wren",  # soft
    "sage": "wren",  # calm
    "marin": "iris",
    "ash": "felix",
    "ballad": "joe",
    "echo": "joe",
    "fable": "felix",  # expressive
    "onyx": "hugo",  # deep
    "verse": "felix",
    "cedar": "hugo",
}
# Premade voices by id (what the API takes) and by name (what people write).
ELEVENLABS = {
    "21m00Tcm4TlvDq8ikWAM": "iris",  # Rachel: calm
    "AZnzlk1XvdvUeBnXmlld": "nora",  # Domi: strong
    "EXAVITQu4vr4xnSDxMaL": "wren",  # Bella, now Sarah: soft
    "MF3mGyEYCl7XYWbV9V6O": "nora",  # Elli: emotional
    "XB0fDUnXU5powFXDhCwa": "iris",  # Charlotte
    "9BWtsMINqrJLrRacOk9x": "nora",  # Aria: expressive
    "FGY2WhTYpPnrIDTdsKH5": "iris",  # Laura
    "Xb7hH8MSUJpSbSDYk0k2": "wren",  # Alice
    "ErXwobaYiN019PkySvjV": "joe",  # Antoni: well-rounded
    "TxGEqnHWrfWFTfGW9XjX": "hugo",  # Josh: deep
    "VR6AewLTigWG4xSOukaG": "felix",  # Arnold: crisp
    "pNInz6obpgDQGcFmaJgB": "hugo",  # Adam: deep
    "yoZ06aMxZJJ28mfd3POQ": "felix",  # Sam: raspy
    "29vD33N1CtxCmqQRPOHJ": "joe",  # Drew
    "2EiwWnXFnvU5JabPnv8n": "hugo",  # Clyde
    "5Q0t7uMcjvnagumLfvZi": "joe",  # Paul
    "CYw3kZ02Hs0563khs1Fj": "felix",  # Dave
    "D38z5RcWu1voky8WS1ja": "hugo",  # Fin
    "CwhRBWXzGAHq8TQ4Fs17": "joe",  # Roger
    "IKne3meq5aSn9XLyUdCD": "felix",  # Charlie
    "JBFqnCBsd6RMkjVDRZzb": "hugo",  # George
    "N2lVS1w4EtoT3dr4eOWO": "felix",  # Callum
    "pqHfZKP75CvOlQylNhV4": "hugo",  # Bill
    "rachel": "iris", "domi": "nora", "bella": "wren", "sarah": "wren", "elli": "nora", "charlotte": "iris",
    "aria": "nora", "laura": "iris", "alice": "wren", "antoni": "joe", "josh": "hugo", "arnold": "felix",
    "adam": "hugo", "sam": "felix", "drew": "joe", "clyde": "hugo", "paul": "joe", "dave": "felix",
    "fin": "hugo", "roger": "joe", "charlie": "felix", "george": "hugo", "callum": "felix", "bill": "hugo",
}
_AZURE_FEMALE = {
    "jenny", "aria", "ava", "emma", "michelle", "sara", "jane", "nancy", "amber", "ashley", "cora", "elizabeth",
    "libby", "sonia", "maisie", "natasha", "clara", "katja", "amala", "denise", "eloise", "elvira", "isabella",
    "francisca", "xiaoxiao", "nanami", "sunhi", "dariya", "zofia", "fenna", "monica", "anna", "nova", "coral",
    "shimmer", "serena", "evelyn", "lola", "phoebe", "aigul", "hoaimy", "hiujin", "salma",
}
_AZURE_NAME = re.compile(r"^([a-z]{2,3})-([A-Za-z]{2,4})-([A-Za-z]+?)(?:Multilingual)?Neural", re.IGNORECASE)
_GENDER_WORDS = {"female": "female", "woman": "female", "girl": "female", "male": "male", "man": "male"}
_BY_GENDER = {"female": FEMALE, "male": MALE}


def nearest_offline_voice(voice: VoiceChoice) -> OfflineVoice:
    """Best offline stand-in for `voice`. A catalogue id (any provider) is that voice; a provider's stock
    voice gets one of its gender; an id nobody knows gets US English in the default voice."""
    voice_id = (voice.voice_id or "").strip()
    if not voice_id:
        return DEFAULT_VOICE
    lowered = voice_id.lower()
    if lowered in BY_ID:
        return _english(lowered)
    if voice.provider == "openai" and lowered in OPENAI:
        return _english(OPENAI[lowered])
    if voice.provider == "elevenlabs" and (voice_id in ELEVENLABS or lowered in ELEVENLABS):
        return _english(ELEVENLABS.get(voice_id) or ELEVENLABS[lowered])
    match = _AZURE_NAME.match(voice_id)
    if match:
        language, region, name = match.groups()
        gender = "female" if name.lower() in _AZURE_FEMALE else "male"
        return OfflineVoice(_espeak_language(language.lower(), region.lower()), gender, _spread(gender, name))
    for word in re.split(r"[^a-z]+", lowered):
        if word in _GENDER_WORDS:
            gender = _GENDER_WORDS[word]
            return OfflineVoice("en-us", gender, _spread(gender, voice_id))
    return DEFAULT_VOICE


def _english(voice_id: str) -> OfflineVoice:
    return OfflineVoice("en-us", BY_ID[voice_id].gender, voice_id)


def _spread(gender: str, name: str) -> str:
    """One of the gender's voices, the same one for the same name every time (crc32, not hash())."""
    choices = _BY_GENDER[gender]
    return choices[zlib.crc32(name.lower().encode()) % len(choices)]


def offline_voice_map(providers: Iterable[str]) -> dict[str, Any]:
    """For /healthz: the offline voices, and which one speaks each provider's voice ids."""
    return {
        "voices": {voice.id: voice.gender for voice in CATALOGUE},
        "default": DEFAULT_VOICE_ID,
        "providers": {provider: provider_table(provider) for provider in providers},
    }


def provider_table(provider: str) -> dict[str, str]:
    """A provider's stock voices -> catalogue voice, and the rules for every other id."""
    stock = {"openai": OPENAI, "elevenlabs": {k: v for k, v in ELEVENLABS.items() if not k.islower()}}
    table = dict(stock.get(provider, {}))
    if provider == "elevenlabs":
        table["<premade name, e.g. rachel>"] = "as its id"
    if provider == "azure":
        table["<lang>-<region>-<Name>Neural"] = f"by the name's gender: one of {'/'.join(FEMALE)} or {'/'.join(MALE)}"
    table["<catalogue id>"] = "that voice"
    table["<id containing female/male>"] = "a voice of that gender"
    table["<any other id>"] = DEFAULT_VOICE_ID
    return table


def _espeak_language(language: str, region: str) -> str:
    # espeak-ng names English and Portuguese variants by region; most other languages by language alone.
    if language == "en":
        return "en-gb" if region in {"gb", "au", "nz", "ie", "in"} else "en-us"
    if language == "pt":
        return "pt-br" if region == "br" else "pt"
    if language == "zh":
        return "cmn"
    return language
