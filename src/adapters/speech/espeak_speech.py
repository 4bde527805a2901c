"""The light offline engine: the espeak-ng command line, any language espeak-ng knows."""

from __future__ import annotations

import shutil
import struct
import subprocess

import numpy as np

from avatar_service.adapters.speech.voices import nearest_offline_voice
from avatar_service.ports.speech import Audio, VoiceChoice

BASE_WORDS_PER_MINUTE = 165


class EspeakError(RuntimeError):
    """espeak-ng is missing or failed."""


class EspeakSpeech:
    """`espeak-ng --stdout`; voice_id picks the language and a male or female variant."""

    name = "espeak-ng"

    def __init__(self, executable: str | None = None, timeout: float = 120.0) -> None:
        self._executable = executable or shutil.which("espeak-ng") or shutil.which("espeak")
        self._timeout = timeout

    @property
    def available(self) -> bool:
        return self._executable is not None

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        if self._executable is None:
            raise EspeakError("espeak-ng is not installed")
        offline = nearest_offline_voice(voice)
        variant = "+f3" if offline.gender == "female" else "+m3"
        words_per_minute = round(BASE_WORDS_PER_MINUTE * min(max(voice.speed, 0.5), 2.0))
        # Text goes through stdin so nothing in it can be read as an option.
        command = [
            self._executable,
            "--stdout",
            "-b",
            "1",
            "-v",
            offline.language + variant,
            "-s",
            str(words_per_minute),
        ]
        try:
            done = subprocess.run(
                command, input=text.encode("utf-8"), capture_output=True, timeout=self._timeout, check=True
            )
        except (subprocess.SubprocessError, OSError) as exc:
            raise EspeakError(f"espeak-ng failed: {exc}") from exc
        return _parse_streamed_wav(done.stdout)


def _parse_streamed_wav(data: bytes) -> Audio:
    # espeak-ng writes its WAV header before it knows the length (sizes are 0x7fffffff), which the
    # stdlib `wave` module rejects; walk the chunks and take everything after "data".
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise EspeakError("espeak-ng did not write WAV")
    position, sample_rate = 12, 22050
    while position + 8 <= len(data):
        chunk_id, size = data[position : position + 4], struct.unpack_from("<I", data, position + 4)[0]
        body = position + 8
        if chunk_id == b"fmt ":
            sample_rate = struct.unpack_from("<I", data, body + 4)[0]
        elif chunk_id == b"data":
            pcm = data[body:]
            pcm = pcm[: len(pcm) - len(pcm) % 2]
            return Audio(samples=np.frombuffer(pcm, dtype="<i2").astype(np.int16), sample_rate=sample_rate)
        position = body + size + (size & 1)
    raise EspeakError("espeak-ng WAV has no data chunk")
