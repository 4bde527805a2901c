"""From audio to a photo avatar's per-frame pose: mouth opening and shape, eyelids, head sway, breath.

The opening follows the voice's loudness (as the drawn avatars' mouths do); the shape follows its
spectrum: a dark spectrum (low centroid) rounds the lips as "oo" and "oh" do, a bright voiced one spreads
them as "ee" does. Blinks, sway and breath are seeded, so a re-render of the same request is identical.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from avatar_service.adapters.pyav_renderer.motion import _blinks, _frame_features, _mouth_opening, frame_count

BLINK_CLOSURE = np.array([0.0, 0.55, 1.0])  # the drawn avatars' blink levels as lid closure


@dataclass(frozen=True)
class PhotoPlan:
    opening: np.ndarray  # (n,) 0..1
    rounded: np.ndarray  # (n,) 0..1, share of the "round" shape
    spread: np.ndarray  # (n,) 0..1, share of the "wide" shape (rounded + spread <= 1)
    closure: np.ndarray  # (n,) eyelids, 0 open .. 1 shut
    head: np.ndarray  # (n, 4): roll (radians), x and y shift and breath, in face widths
    loudness: np.ndarray  # (n,) RMS per frame (benchmarks and tests)

    def __len__(self) -> int:
        return len(self.opening)


def plan_photo(samples: np.ndarray, sample_rate: int, fps: int, seed: int) -> PhotoPlan:
    n = frame_count(len(samples), sample_rate, fps)
    audio = samples.astype(np.float32) / 32768.0
    rms, _ = _frame_features(audio, sample_rate, fps, n)
    opening = _mouth_opening(rms, fps)
    rounded, spread = _shapes(audio, sample_rate, fps, n, opening)
    rng = np.random.default_rng(seed)
    closure = BLINK_CLOSURE[_blinks(n, fps, rng)]
    head = head_motion(np.arange(n) / fps, opening, rng)
    return PhotoPlan(opening.astype(np.float32), rounded, spread, closure, head, rms)


def _shapes(audio: np.ndarray, sample_rate: int, fps: int, n: int, opening: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray]:
    """Per frame, how round and how spread the lips are, from the spectral centroid of voiced frames."""
    window = int(0.04 * sample_rate)
    starts = np.clip((np.arange(n) / fps * sample_rate).astype(np.int64) - window // 4, 0, None)
    padded = np.concatenate([audio, np.zeros(window, np.float32)])
    frames = padded[starts[:, None] + np.arange(window)[None, :]] * np.hanning(window).astype(np.float32)
    spectrum = np.abs(np.fft.rfft(frames, axis=1))
    freqs = np.fft.rfftfreq(window, 1.0 / sample_rate)
    band = (freqs > 150) & (freqs < 4000)  # the vowel formants; fricative hiss above is left out
    power = spectrum[:, band] ** 2
    centroid = (power * freqs[band]).sum(axis=1) / np.maximum(power.sum(axis=1), 1e-12)
    voiced = opening > 0.15
    rounded = np.zeros(n, np.float32)
    spread = np.zeros(n, np.float32)
    if voiced.sum() >= 8:
        log_c = np.log(np.maximum(centroid, 1.0))
        middle = float(np.median(log_c[voiced]))
        scale = float(np.std(log_c[voiced])) or 1.0
        z = (log_c - middle) / scale
        rounded = np.clip(-(z + 0.35) * 0.8, 0.0, 1.0) * voiced
        spread = np.clip((z - 0.35) * 0.7, 0.0, 0.8) * voiced
    kernel = np.array([0.25, 0.5, 0.25], np.float32)  # lips change shape over a few frames, not at once
    rounded = np.convolve(rounded, kernel, mode="same").astype(np.float32)
    spread = np.convolve(spread, kernel, mode="same").astype(np.float32)
    spread = np.minimum(spread, 1.0 - rounded)
    return rounded, spread


def head_motion(t: np.ndarray, opening: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(n, 4): roll in radians; x shift, y shift and breath in face widths. Smooth and small."""
    phase = rng.uniform(0, 2 * np.pi, 6)
    roll = np.radians(0.9) * (0.6 * np.sin(2 * np.pi * 0.13 * t + phase[0])
                              + 0.4 * np.sin(2 * np.pi * 0.31 * t + phase[1]))
    sway = 0.010 * (0.6 * np.sin(2 * np.pi * 0.17 * t + phase[2]) + 0.4 * np.sin(2 * np.pi * 0.41 * t + phase[3]))
    bob = 0.006 * (0.6 * np.sin(2 * np.pi * 0.11 * t + phase[4]) + 0.4 * np.sin(2 * np.pi * 0.37 * t + phase[5]))
    if len(opening):
        # A slow nod with the speech: the head dips a little while talking.
        width = max(1, int(0.5 * 25))
        nod = np.convolve(opening, np.ones(width) / width, mode="same")
        bob = bob + 0.012 * nod
    breath = 0.005 * np.sin(2 * np.pi * t / 4.2)
    return np.stack([roll, sway, bob, breath], axis=1).astype(np.float32)
