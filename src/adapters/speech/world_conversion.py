"""Voice conversion with the WORLD vocoder (pyworld): new pitch, vocal-tract length and breathiness.

The shipped Piper voice is analysed into F0, spectral envelope and aperiodicity, those are reshaped, and
WORLD synthesises the result. A shorter vocal tract (female and younger voices) raises every formant by
the same factor, so the envelope is warped along the frequency axis; pitch is moved to the voice's own
centre while keeping the sentence's intonation (optionally widened or narrowed).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Joe's pitch. dio alone puts his median near 165 Hz and harvest near 120 Hz, both misled by a weak first
# harmonic: the harmonics of his vowels are about 90-100 Hz apart. A 100 Hz prior for the octave repair gives
# the closest WORLD re-synthesis of his own speech (log-spectral distance over 6 sentences: 8.30 dB, against
# 8.61 dB unrepaired and 8.42-8.54 dB with a 70 or 130 Hz prior); the repaired track's geometric mean over
# bench/voices.py's 20 sentences is then 94.6 Hz. Intonation is measured relative to that centre, so a voice
# keeps its pitch from sentence to sentence.
REPAIR_PRIOR_HZ = 100.0
SOURCE_CENTRE_HZ = 94.6
FRAME_PERIOD_MS = 5.0
_F0_FLOOR, _F0_CEIL = 55.0, 300.0  # joe's range with room to spare (his expressive peaks stay under 250)


@dataclass(frozen=True, slots=True)
class VoiceShape:
    """How a voice differs from the source voice."""

    pitch_hz: float  # centre of the new voice's F0
    pitch_range: float = 1.0  # intonation width: 1 keeps the source's, above 1 livelier, below 1 flatter
    formant_scale: float = 1.0  # frequency-axis warp of the envelope: > 1 a shorter vocal tract
    breathiness: float = 0.0  # 0..1: share of the upper band's harmonics replaced by noise
    tilt_db_per_octave: float = 0.0  # above 500 Hz: > 0 brighter, < 0 darker
    low_fill_hz: float = 0.0  # below this, the envelope is raised towards its level here (a full, chesty low end)


def convert(samples: np.ndarray, sample_rate: int, shape: VoiceShape) -> np.ndarray:
    """int16 mono in, int16 mono out (same rate and nearly the same length)."""
    import pyworld

    if samples.size < sample_rate // 50:  # under 20 ms: nothing WORLD can analyse
        return samples.astype(np.int16, copy=True)
    x = samples.astype(np.float64) / 32768.0
    # dio + stonemask is about ten times faster than harvest; its octave slips are repaired below.
    f0, times = pyworld.dio(x, sample_rate, f0_floor=_F0_FLOOR, f0_ceil=_F0_CEIL, frame_period=FRAME_PERIOD_MS)
    f0 = pyworld.stonemask(x, f0, times, sample_rate)
    f0 = repair_octaves(f0, REPAIR_PRIOR_HZ)
    envelope = pyworld.cheaptrick(x, f0, times, sample_rate)  # default floor: the same FFT size as d4c
    aperiodicity = pyworld.d4c(x, f0, times, sample_rate)

    new_f0 = np.zeros_like(f0)
    voiced = f0 > 0
    new_f0[voiced] = shape.pitch_hz * (f0[voiced] / SOURCE_CENTRE_HZ) ** shape.pitch_range
    freqs = np.linspace(0.0, sample_rate / 2, envelope.shape[1])
    envelope = warp_frequency_axis(envelope, shape.formant_scale)
    aperiodicity = warp_frequency_axis(aperiodicity, shape.formant_scale)
    if shape.tilt_db_per_octave:
        octaves = np.log2(np.maximum(freqs, 500.0) / 500.0)
        envelope *= (10.0 ** (shape.tilt_db_per_octave * octaves / 10.0))[None, :]  # power spectrum: /10
    if shape.low_fill_hz:
        envelope = fill_low_end(envelope, freqs, shape.low_fill_hz)
    if shape.breathiness:
        band = np.clip((freqs - 1000.0) / 3000.0, 0.0, 1.0)[None, :]  # from 1 kHz up, full from 4 kHz
        aperiodicity = np.clip(aperiodicity + shape.breathiness * band * (1.0 - aperiodicity), 0.0, 1.0)

    y = pyworld.synthesize(new_f0, np.ascontiguousarray(envelope), np.ascontiguousarray(aperiodicity),
                           sample_rate, FRAME_PERIOD_MS)
    # Keep the source's loudness: a raised pitch or a tilt changes the level, and the peak must not clip.
    gain = np.sqrt(np.mean(x**2) / max(float(np.mean(y**2)), 1e-12))
    y *= min(gain, 0.97 / max(float(np.abs(y).max()), 1e-9))
    return np.round(y * 32767.0).astype(np.int16)


def warp_frequency_axis(frames: np.ndarray, factor: float) -> np.ndarray:
    """Each row stretched along frequency: what was at f moves to f * factor (the top bin repeats)."""
    if factor == 1.0:
        return frames
    bins = frames.shape[1]
    source = np.clip(np.arange(bins) / factor, 0.0, bins - 1.0)
    low = np.floor(source).astype(np.int64)
    high = np.minimum(low + 1, bins - 1)
    weight = (source - low)[None, :]
    return frames[:, low] * (1.0 - weight) + frames[:, high] * weight


def fill_low_end(envelope: np.ndarray, freqs: np.ndarray, corner_hz: float) -> np.ndarray:
    """Raise the envelope under `corner_hz` to at least its level there, falling by 6 dB towards 0 Hz.

    Joe's recordings carry little below 150 Hz (30 dB under the 200 Hz band), so a voice moved lower has a
    faint first harmonic: it sounds thin, and pitch trackers hear the second harmonic as the pitch.
    """
    corner = int(np.searchsorted(freqs, corner_hz))
    ramp = 0.25 + 0.75 * freqs[:corner] / corner_hz  # power: 1 at the corner, a quarter (-6 dB) at 0 Hz
    out = envelope.copy()
    out[:, :corner] = np.maximum(envelope[:, :corner], envelope[:, corner : corner + 1] * ramp[None, :])
    return out


def repair_octaves(f0: np.ndarray, centre_hz: float, jump_cost: float = 4.0) -> np.ndarray:
    """Undo octave slips: per voiced stretch, each frame's F0 may be halved or doubled so the track is
    smooth (a Viterbi pass over the three choices) and stays near the speaker's centre.

    Joe's first harmonic is weak, so dio often reports twice his pitch for a few frames; converted as is,
    those frames would jump an octave (a warble). A real pitch change between frames is far smaller.
    """
    out = f0.copy()
    voiced = np.flatnonzero(f0 > 0)
    if voiced.size == 0:
        return out
    factors = np.array([0.5, 1.0, 2.0])
    log_centre = np.log2(centre_hz)
    previous_end: float | None = None
    for stretch in np.split(voiced, np.flatnonzero(np.diff(voiced) > 1) + 1):
        candidates = np.log2(f0[stretch][:, None] * factors[None, :])  # frames x choices
        local = np.abs(candidates - log_centre)
        cost = local[0].copy()
        if previous_end is not None:  # the stretch before (across a consonant) pulls too, more weakly
            cost += 0.5 * jump_cost * np.abs(candidates[0] - previous_end)
        back = np.zeros((len(stretch), 3), dtype=np.int64)
        for i in range(1, len(stretch)):
            moves = cost[None, :] + jump_cost * np.abs(candidates[i][:, None] - candidates[i - 1][None, :])
            back[i] = np.argmin(moves, axis=1)
            cost = moves[np.arange(3), back[i]] + local[i]
        state = int(np.argmin(cost))
        for i in range(len(stretch) - 1, -1, -1):
            out[stretch[i]] = f0[stretch[i]] * factors[state]
            state = int(back[i, state])
        previous_end = float(np.log2(out[stretch[-1]]))
    return out
