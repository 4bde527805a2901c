"""The offline voices as one speech engine: Piper speaks, WORLD turns joe into the voice asked for."""

from __future__ import annotations

import dataclasses
import wave
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from avatar_service.adapters.speech.catalogue import BY_ID, CATALOGUE, preview_text
from avatar_service.adapters.speech.piper_speech import PiperSpeech, VoiceUnavailable
from avatar_service.adapters.speech.voices import nearest_offline_voice
from avatar_service.adapters.speech.world_conversion import convert
from avatar_service.ports.speech import Audio, VoiceChoice, VoiceInfo


class CatalogueSpeech:
    """SpeechSynthesizer and VoiceCatalogue. Sync and CPU-bound: Piper (serialised) then WORLD (parallel)."""

    def __init__(self, piper: PiperSpeech | None = None) -> None:
        self.piper = piper or PiperSpeech()
        self.name = self.piper.name + "+world"  # e.g. piper:en_US-joe-medium+world

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        offline = nearest_offline_voice(voice)
        if offline.base_language != "en":
            raise VoiceUnavailable(f"{self.name} does not speak {offline.language}")
        chosen = BY_ID[offline.voice_id]
        speed = min(max(voice.speed, 0.5), 2.0) * chosen.tempo
        audio = self.piper.synthesize(text, dataclasses.replace(voice, speed=speed))
        if chosen.shape is None or not len(audio.samples):
            return audio
        return Audio(samples=convert(audio.samples, audio.sample_rate, chosen.shape), sample_rate=audio.sample_rate)

    def voices(self) -> Sequence[VoiceInfo]:
        return [VoiceInfo(id=v.id, name=v.name, gender=v.gender, language=v.language, description=v.description,
                          engine=self.piper.name + ("+world" if v.shape else ""), version=v.version)
                for v in CATALOGUE]

    def render_preview(self, voice_id: str, path: Path) -> None:
        """A few seconds of the voice introducing itself, as a 16-bit mono WAV file at `path`."""
        voice = BY_ID[voice_id]
        audio = self.synthesize(preview_text(voice), VoiceChoice(provider="openai", voice_id=voice_id))
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(audio.sample_rate)
            out.writeframes(np.asarray(audio.samples, dtype="<i2").tobytes())
