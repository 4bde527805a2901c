"""From audio to a per-frame plan: mouth pose from loudness and brightness, blinks, brows and head sway."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from avatar_service.adapters.pyav_renderer.avatars import BLINK_LEVELS, MOUTH_LEVELS


@dataclass(frozen=True)
class FramePlan:
    mouth: np.ndarray  # (n,) index into MOUTH_POSES
    eyes: np.ndarray  # (n,) index into EYE_POSES
    offsets: np.ndarray  # (n, 2) head offset in pixels (x, y), always even so chroma planes stay aligned
    loudness: np.ndarray  # (n,) RMS per frame, kept for tests and tuning

    def __len__(self) -> int:
        return len(self.mouth)


def frame_count(samples: int, sample_rate: int, fps: int) -> int:
    return max(1, int(np.ceil(samples * fps / sample_rate)))


def plan_frames(samples: np.ndarray, sample_rate: int, fps: int, px_per_unit: float, seed: int) -> FramePlan:
    n = frame_count(len(samples), sample_rate, fps)
    audio = samples.astype(np.float32) / 32768.0
    rms, zcr = _frame_features(audio, sample_rate, fps, n)
    opening = _mouth_opening(rms, fps)
    levels = np.rint(opening * (len(MOUTH_LEVELS) - 1)).astype(np.int64)
    # Dark, low-zero-crossing vowels ("oo", "oh") get the rounded mouth set.
    voiced = levels > 0
    rounded = np.zeros(n, dtype=bool)
    if voiced.sum() >= 4:
        rounded = voiced & (zcr < np.percentile(zcr[voiced], 30))
    mouth = levels + rounded * len(MOUTH_LEVELS)
    rng = np.random.default_rng(seed)
    blink = _blinks(n, fps, rng)
    brows = _brow_raises(opening, fps)
    eyes = blink + brows * len(BLINK_LEVELS)
    offsets = _head_motion(n, fps, opening, px_per_unit, rng)
    return FramePlan(mouth=mouth, eyes=eyes, offsets=offsets, loudness=rms)


def _frame_features(audio: np.ndarray, sample_rate: int, fps: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    # Frame i covers [i/fps, (i+1)/fps) shifted 20 ms earlier: lips move slightly before the sound.
    bounds = np.rint((np.arange(n + 1) / fps + 0.02) * sample_rate).astype(np.int64)
    bounds = np.clip(bounds, 0, len(audio))
    energy = np.concatenate([[0.0], np.cumsum(audio.astype(np.float64) ** 2)])
    crossings = np.concatenate([[0], np.cumsum(np.signbit(audio[1:]) != np.signbit(audio[:-1])), [0]])
    crossings[-1] = crossings[-2] if len(crossings) > 1 else 0
    length = np.maximum(bounds[1:] - bounds[:-1], 1)
    rms = np.sqrt((energy[bounds[1:]] - energy[bounds[:-1]]) / length).astype(np.float32)
    zcr = ((crossings[bounds[1:]] - crossings[bounds[:-1]]) / length).astype(np.float32)
    return rms, zcr


def _mouth_opening(rms: np.ndarray, fps: int) -> np.ndarray:
    peak = float(rms.max()) if len(rms) else 0.0
    if peak < 1e-4:
        return np.zeros_like(rms)
    active = rms[rms > 0.05 * peak]
    reference = float(np.percentile(active, 90))
    decibels = 20.0 * np.log10(np.maximum(rms, 1e-6) / reference)
    target = np.clip((decibels + 24.0) / 24.0, 0.0, 1.0)
    target[rms < 0.04 * reference] = 0.0
    # Open at once, close at a bounded speed: a jaw shuts over ~100 ms, not in one frame.
    release = 0.3 * 25.0 / fps
    opening = np.empty_like(target)
    previous = 0.0
    for i, value in enumerate(target):
        previous = max(float(value), previous - release)
        opening[i] = previous
    return opening


def _blinks(n: int, fps: int, rng: np.random.Generator) -> np.ndarray:
    blink = np.zeros(n, dtype=np.int64)
    shape = [1, 2, 2, 1] if fps >= 20 else [1, 2, 1]  # half, closed, closed, half: about 160 ms
    t = rng.uniform(0.6, 2.2)
    while t * fps < n:
        start = int(t * fps)
        for k, value in enumerate(shape):
            if start + k < n:
                blink[start + k] = value
        t += 0.4 if rng.random() < 0.15 else rng.uniform(2.2, 5.5)  # sometimes a double blink
    return blink


def _brow_raises(opening: np.ndarray, fps: int) -> np.ndarray:
    # Brows lift when a phrase starts loudly after a pause, and settle after half a second.
    raised = np.zeros(len(opening), dtype=np.int64)
    quiet, hold = max(1, int(0.35 * fps)), int(0.5 * fps)
    i = quiet
    while i < len(opening):
        if opening[i] > 0.6 and opening[i - quiet : i].max() < 0.15:
            raised[i : i + hold] = 1
            i += hold
        i += 1
    return raised


def _head_motion(
    n: int, fps: int, opening: np.ndarray, px_per_unit: float, rng: np.random.Generator
) -> np.ndarray:
    t = np.arange(n) / fps
    phase = rng.uniform(0, 2 * np.pi, 4)
    sway_x = 0.6 * np.sin(2 * np.pi * 0.21 * t + phase[0]) + 0.4 * np.sin(2 * np.pi * 0.53 * t + phase[1])
    sway_y = 0.6 * np.sin(2 * np.pi * 0.17 * t + phase[2]) + 0.4 * np.sin(2 * np.pi * 0.43 * t + phase[3])
    # A slow nod with the speech: the head dips a little while talking.
    kernel = np.ones(max(1, int(0.4 * fps))) / max(1, int(0.4 * fps))
    nod = np.convolve(opening, kernel, mode="same")
    units = np.stack([0.55 * sway_x, 0.3 * sway_y + 0.3 * nod], axis=1) * px_per_unit
    # Even pixels keep the 4:2:0 chroma grid aligned; hysteresis stops flicker between two positions.
    offsets = np.empty((n, 2), dtype=np.int64)
    current = 2 * np.rint(units[0] / 2)
    for i in range(n):
        moved = np.abs(units[i] - current) >= 1.6
        current = np.where(moved, 2 * np.rint(units[i] / 2), current)
        offsets[i] = current
    return offsets


MAX_MOTION_UNITS = 0.6  # the largest |offset| per axis _head_motion produces, in avatar units
