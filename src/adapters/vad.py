"""Streaming voice activity detection: cuts 16 kHz audio frames into utterances for speech-to-text.

Each 32 ms window (512 samples) gets a speech probability from a scorer:

* ``SileroScorer`` (default when available): the Silero VAD v6 ONNX model that faster-whisper ships in its
  package, run one window at a time with its LSTM state carried between calls (~0.1 ms per window on one
  CPU thread), so it tells speech from steady noise, music or breathing far better than energy does.
* ``EnergyScorer`` (fallback, no model): window energy against an adaptive noise floor that falls fast to
  quiet windows and creeps up slowly, mapped to 0..1 with a logistic curve. Good in quiet rooms; loud
  non-speech noise will count as speech.

The detector adds hysteresis (start above ``threshold``, stay in speech until below ``threshold - 0.15``),
a minimum speech length before announcing ``speech_start``, a pre-roll so the utterance keeps its first
phoneme (Silero's probability rises some 100-250 ms into a word, and ``speech_start`` waits ``min_speech_ms``
more, so the pre-roll has to cover both: a room uses 544 ms), and a silence hang-over (``hangover_ms``, 500 ms
by default) after which ``speech_end`` carries the utterance's samples. Frames of any length are accepted
(WebRTC delivers 10-20 ms); int16 or float32.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import numpy as np

from avatar_service.adapters.model_files import SILERO_VAD, ModelFileMismatch

log = logging.getLogger(__name__)

SAMPLE_RATE = 16000
WINDOW = 512  # 32 ms: the window Silero v5/v6 was trained on at 16 kHz
_CONTEXT = 64  # Silero v6 expects the previous 64 samples prepended to each window


class SpeechScorer(Protocol):
    name: str

    def score(self, window: np.ndarray) -> float:
        """Probability (0..1) that this 512-sample float32 window holds speech."""
        ...

    def reset(self) -> None: ...


class SileroScorer:
    """Silero VAD from faster-whisper's package assets, stepped window by window with carried state."""

    name = "silero-v6"

    def __init__(self) -> None:
        from faster_whisper.vad import get_vad_model

        SILERO_VAD.verified()  # the graph faster-whisper will load, against its pinned hash
        # get_vad_model is lru-cached: one ONNX session per process, shared by every detector.
        self._session = get_vad_model().session
        self.reset()

    def reset(self) -> None:
        self._h = np.zeros((1, 1, 128), dtype=np.float32)
        self._c = np.zeros((1, 1, 128), dtype=np.float32)
        self._context = np.zeros(_CONTEXT, dtype=np.float32)

    def score(self, window: np.ndarray) -> float:
        batch = np.concatenate([self._context, window])[None, :]
        out, self._h, self._c = self._session.run(None, {"input": batch, "h": self._h, "c": self._c})
        self._context = window[-_CONTEXT:].copy()
        return float(np.asarray(out).reshape(-1)[0])


class EnergyScorer:
    """Energy above an adaptive noise floor, squashed to 0..1. No model; fooled by loud steady noise."""

    name = "energy"

    def __init__(self, margin_db: float = 12.0, slope_db: float = 3.0, min_floor_db: float = -70.0) -> None:
        self._margin = margin_db  # how far above the floor counts as a 50% speech probability
        self._slope = slope_db
        self._min_floor = min_floor_db  # digital silence must not drag the floor to -inf
        self.reset()

    def reset(self) -> None:
        self._floor: float | None = None

    def score(self, window: np.ndarray) -> float:
        rms = float(np.sqrt(np.mean(window.astype(np.float64) ** 2)))
        level = 20.0 * math.log10(max(rms, 1e-7))
        if self._floor is None:
            self._floor = max(level, self._min_floor)
        elif level < self._floor:
            # Fall fast: a quieter window is better evidence of the room's noise than the current floor.
            self._floor += 0.3 * (level - self._floor)
        else:
            # Rise slowly so a long utterance does not become its own noise floor.
            self._floor += 0.004 * (level - self._floor)
        self._floor = max(self._floor, self._min_floor)
        z = (level - self._floor - self._margin) / self._slope
        return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))


def default_scorer() -> SpeechScorer:
    try:
        return SileroScorer()
    except ModelFileMismatch:
        raise
    except Exception as exc:  # faster-whisper or onnxruntime missing or broken: energy still works in quiet rooms
        log.warning("VAD: Silero unavailable (%s); using the energy detector, which loud steady noise fools", exc)
        return EnergyScorer()


@dataclass(frozen=True, slots=True)
class VadEvent:
    kind: Literal["speech_start", "speech_end"]
    at: float  # seconds since the detector started (or was reset), at the window where it was decided
    # speech_end only: the utterance (pre-roll included, trailing silence trimmed), float32 16 kHz mono
    samples: np.ndarray | None = field(default=None, repr=False)

    @property
    def duration(self) -> float:
        return 0.0 if self.samples is None else len(self.samples) / SAMPLE_RATE


class VoiceActivityDetector:
    """Feed 16 kHz mono frames; get ``speech_start`` and ``speech_end(samples)`` events back."""

    def __init__(
        self,
        scorer: SpeechScorer | Literal["silero", "energy", "auto"] = "auto",
        *,
        threshold: float = 0.5,
        hangover_ms: int = 500,
        min_speech_ms: int = 96,
        pre_roll_ms: int = 192,
        tail_ms: int = 160,
        max_utterance_s: float = 30.0,
    ) -> None:
        if scorer == "silero":
            scorer = SileroScorer()
        elif scorer == "energy":
            scorer = EnergyScorer()
        elif scorer == "auto":
            scorer = default_scorer()
        if isinstance(scorer, str):
            raise ValueError(f"unknown VAD scorer {scorer!r}")
        self.scorer: SpeechScorer = scorer
        self.threshold = threshold
        self._neg_threshold = max(threshold - 0.15, 0.01)
        self._start_windows = max(1, math.ceil(min_speech_ms * SAMPLE_RATE / 1000 / WINDOW))
        self._end_windows = max(1, math.ceil(hangover_ms * SAMPLE_RATE / 1000 / WINDOW))
        self._pre_roll = max(0, math.ceil(pre_roll_ms * SAMPLE_RATE / 1000 / WINDOW))
        self._tail = max(0, math.ceil(tail_ms * SAMPLE_RATE / 1000 / WINDOW))
        self._max_windows = max(1, int(max_utterance_s * SAMPLE_RATE / WINDOW))
        self.reset()

    def reset(self) -> None:
        self.scorer.reset()
        self._pending = np.zeros(0, dtype=np.float32)
        self._windows_seen = 0
        self._history: deque[np.ndarray] = deque(maxlen=self._pre_roll + self._start_windows)
        self._utterance: list[np.ndarray] = []
        self._in_speech = False
        self._voiced_run = 0
        self._silent_run = 0
        self._last_voiced = 0  # index into _utterance of the last voiced window + 1

    @property
    def in_speech(self) -> bool:
        return self._in_speech

    def speech_so_far(self) -> np.ndarray:
        """The utterance in progress as `speech_end` would hand it over now (pre-roll included), float32; empty
        outside speech. Early transcription starts from this, so it keeps exactly the VAD's pre-roll."""
        if not self._in_speech or not self._utterance:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate(self._utterance)

    def feed(self, frame: Any) -> list[VadEvent]:
        audio = np.asarray(frame).reshape(-1)
        if audio.dtype == np.int16:
            audio = audio.astype(np.float32) / 32768.0
        else:
            audio = audio.astype(np.float32, copy=False)
        self._pending = np.concatenate([self._pending, audio]) if self._pending.size else audio
        events: list[VadEvent] = []
        usable = self._pending.size - self._pending.size % WINDOW
        for offset in range(0, usable, WINDOW):
            event = self._step(self._pending[offset : offset + WINDOW].copy())
            if event is not None:
                events.append(event)
        self._pending = self._pending[usable:].copy()
        return events

    def flush(self) -> list[VadEvent]:
        """End of stream: close an open utterance now instead of waiting for the hang-over."""
        if not self._in_speech:
            return []
        return [self._finish()]

    def _now(self) -> float:
        return self._windows_seen * WINDOW / SAMPLE_RATE

    def _step(self, window: np.ndarray) -> VadEvent | None:
        p = self.scorer.score(window)
        self._windows_seen += 1
        if not self._in_speech:
            self._history.append(window)
            self._voiced_run = self._voiced_run + 1 if p >= self.threshold else 0
            if self._voiced_run >= self._start_windows:
                self._in_speech = True
                self._utterance = list(self._history)
                self._history.clear()
                self._last_voiced = len(self._utterance)
                self._silent_run = 0
                return VadEvent("speech_start", self._now())
            return None
        self._utterance.append(window)
        if p < self._neg_threshold:
            self._silent_run += 1
        else:
            self._silent_run = 0
            if p >= self.threshold:
                self._last_voiced = len(self._utterance)
        if self._silent_run >= self._end_windows or len(self._utterance) >= self._max_windows:
            return self._finish()
        return None

    def _finish(self) -> VadEvent:
        keep = min(len(self._utterance), self._last_voiced + self._tail)
        samples = np.concatenate(self._utterance[:keep]) if keep else np.zeros(0, dtype=np.float32)
        self._in_speech = False
        self._utterance = []
        self._voiced_run = 0
        self._silent_run = 0
        return VadEvent("speech_end", self._now(), samples)
