"""The offline voices: pitch by gender, intelligibility, speed, and how different they are from each other.

For every catalogue voice, 20 sentences are synthesised one at a time (as the room does) and measured:
- median F0 with pyworld's harvest over all voiced frames (female must be >= 165 Hz, male <= 140 Hz);
- WER of the shipped faster-whisper tiny.en transcription against the text (must be <= 10 %);
- synthesis speed: seconds of speech per second of wall time (Piper, plus WORLD for converted voices);
- a listen proxy: mean F0, spectral centroid, speaking rate and long-term average spectrum, and per pair of
  voices the pitch distance in semitones and the spectral distance in dB.

Run: .venv/bin/python bench/voices.py [--sentences 20] [--save DIR]  (DIR gets one WAV per voice to listen to)
"""

from __future__ import annotations

import argparse
import itertools
import re
import statistics
import sys
import time
import wave
from pathlib import Path

import numpy as np
import pyworld

from avatar_service.adapters.speech.catalogue import CATALOGUE
from avatar_service.adapters.speech.catalogue_speech import CatalogueSpeech
from avatar_service.adapters.whisper_transcriber import FasterWhisperTranscriber
from avatar_service.ports.speech import Audio, VoiceChoice

SENTENCES = [
    "The museum opens at nine in the morning and closes after sunset.",
    "Please remember to bring a warm jacket because the evening will be cold.",
    "My sister planted tomatoes, beans and sunflowers in the garden last spring.",
    "Could you tell me the quickest way to get to the train station?",
    "The new library has a quiet reading room on the second floor.",
    "We watched the storm roll across the valley from the kitchen window.",
    "He forgot his umbrella, so he waited under the bridge until the rain stopped.",
    "Learning a new language takes patience, practice and a little courage.",
    "The children laughed when the puppy chased its own tail around the yard.",
    "Our flight was delayed, but the airline gave everyone a free lunch.",
    "She painted the old wooden fence a bright shade of blue.",
    "A good night of sleep makes it much easier to focus the next day.",
    "The chef added fresh basil and a squeeze of lemon to the soup.",
    "If you have any questions about your order, just send us a message.",
    "The mountain trail was steep, but the view from the top was worth it.",
    "I would like to book a table for four people on Friday evening.",
    "The river flows slowly past the village and into the wide green sea.",
    "Thank you for your patience while we fix the problem with the website.",
    "They built a small cabin in the forest with their own hands.",
    "Reading before bed helps me relax after a long and busy day.",
]
NUMBERS = {"1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
           "8": "eight", "9": "nine", "10": "ten", "2nd": "second"}
FEMALE_MIN_HZ, MALE_MAX_HZ, MAX_WER = 165.0, 140.0, 0.10
BANDS = np.geomspace(100.0, 8000.0, 20)  # third-octave-ish bands for the long-term average spectrum


def words(text: str) -> list[str]:
    tokens = re.findall(r"[a-z0-9']+", text.lower().replace("-", " "))
    return [NUMBERS.get(token, token) for token in tokens]


def edit_distance(reference: list[str], hypothesis: list[str]) -> int:
    row = list(range(len(hypothesis) + 1))
    for i, ref in enumerate(reference, 1):
        previous, row[0] = row[0], i
        for j, hyp in enumerate(hypothesis, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (ref != hyp))
    return row[-1]


def voiced_f0(audio: Audio) -> np.ndarray:
    x = audio.samples.astype(np.float64) / 32768.0
    f0, _ = pyworld.harvest(x, audio.sample_rate, f0_floor=50.0, f0_ceil=500.0, frame_period=10.0)
    return f0[f0 > 0]


def spectrum(audio: Audio) -> tuple[float, np.ndarray]:
    """Spectral centroid (Hz) and band levels (dB) over the frames that are not silence."""
    x = audio.samples.astype(np.float64) / 32768.0
    size, hop = 1024, 256
    frames = np.lib.stride_tricks.sliding_window_view(x, size)[::hop] * np.hanning(size)
    power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    loud = power.sum(axis=1) > 1e-3 * power.sum(axis=1).max()
    mean_power = power[loud].mean(axis=0)
    freqs = np.fft.rfftfreq(size, 1.0 / audio.sample_rate)
    centroid = float((mean_power * freqs).sum() / mean_power.sum())
    edges = np.searchsorted(freqs, BANDS)
    levels = np.array([mean_power[a:b].sum() for a, b in itertools.pairwise(edges)])
    return centroid, 10.0 * np.log10(levels / levels.sum() + 1e-12)


def save(path: Path, parts: list[Audio]) -> None:
    rate = parts[0].sample_rate
    gap = np.zeros(int(0.4 * rate), dtype=np.int16)
    samples = np.concatenate([np.concatenate([p.samples, gap]) for p in parts])
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.astype("<i2").tobytes())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sentences", type=int, default=20)
    parser.add_argument("--save", type=Path, default=None)
    args = parser.parse_args()
    sentences = SENTENCES[: args.sentences]
    engine, whisper = CatalogueSpeech(), FasterWhisperTranscriber()
    whisper.load()
    engine.synthesize("Warming up.", VoiceChoice("openai", "joe"))  # Piper's model load is not a voice's cost
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    rows, profiles, failures = [], {}, []
    for voice in CATALOGUE:
        audios, seconds, errors, total_words, f0s = [], 0.0, 0, 0, []
        for sentence in sentences:
            started = time.perf_counter()
            audio = engine.synthesize(sentence, VoiceChoice("openai", voice.id))
            seconds += time.perf_counter() - started
            audios.append(audio)
            reference = words(sentence)
            errors += edit_distance(reference, words(whisper.transcribe(audio.samples, audio.sample_rate)))
            total_words += len(reference)
            f0s.append(voiced_f0(audio))
        f0 = np.concatenate(f0s)
        speech_seconds = sum(a.duration for a in audios)
        joined = Audio(np.concatenate([a.samples for a in audios]), audios[0].sample_rate)
        centroid, levels = spectrum(joined)
        median_f0, wer = float(np.median(f0)), errors / total_words
        profiles[voice.id] = (float(np.exp(np.mean(np.log(f0)))), levels)
        rate = sum(len(words(s)) for s in sentences) / speech_seconds * 60
        rows.append((voice.id, voice.gender, median_f0, float(np.exp(np.mean(np.log(f0)))), centroid, rate,
                     wer, speech_seconds / seconds))
        ok_pitch = median_f0 >= FEMALE_MIN_HZ if voice.gender == "female" else median_f0 <= MALE_MAX_HZ
        if not ok_pitch:
            failures.append(f"{voice.id}: median F0 {median_f0:.0f} Hz")
        if wer > MAX_WER:
            failures.append(f"{voice.id}: WER {wer:.1%}")
        if args.save:
            save(args.save / f"{voice.id}.wav", audios[:3])

    print(f"{len(sentences)} sentences per voice; F0 by pyworld.harvest; WER by faster-whisper tiny.en (int8)")
    print(f"{'voice':7} {'gender':7} {'median F0':>9} {'mean F0':>8} {'centroid':>9} {'words/min':>9} "
          f"{'WER':>6} {'x real time':>11}")
    for vid, gender, med, mean, centroid, rate, wer, speed in rows:
        print(f"{vid:7} {gender:7} {med:7.0f} Hz {mean:5.0f} Hz {centroid:6.0f} Hz {rate:9.0f} {wer:6.1%} "
              f"{speed:10.1f}x")
    print("\npairwise: pitch distance (semitones) / long-term spectrum distance (dB RMS over 19 bands)")
    ids = [row[0] for row in rows]
    print("       " + "".join(f"{vid:>13}" for vid in ids))
    distances = []
    for a in ids:
        cells = []
        for b in ids:
            semitones = abs(12 * np.log2(profiles[a][0] / profiles[b][0]))
            spectral = float(np.sqrt(np.mean((profiles[a][1] - profiles[b][1]) ** 2)))
            cells.append(f"{semitones:5.1f} /{spectral:5.1f}" if a != b else f"{'-':>12}")
            if a < b:
                distances.append((semitones, spectral, a, b))
        print(f"{a:7}" + "".join(f"{cell:>13}" for cell in cells))
    closest = min(distances, key=lambda d: d[0] / 2 + d[1] / 2)  # 2 semitones ~ 2 dB: similar weights
    print(f"closest pair: {closest[2]}-{closest[3]} ({closest[0]:.1f} semitones, {closest[1]:.1f} dB); "
          f"median speed {statistics.median(r[7] for r in rows):.1f}x real time")
    if failures:
        print("FAILED: " + "; ".join(failures))
        return 1
    print("all voices pass: female median F0 >= 165 Hz, male <= 140 Hz, WER <= 10%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
