"""Decode any audio file PyAV understands (wav, mp3, ogg/opus, m4a ...) to mono int16 PCM."""

from __future__ import annotations

import io

import av
import numpy as np

from avatar_service.ports.speech import Audio

DEFAULT_SAMPLE_RATE = 24_000


class AudioUndecodable(Exception):
    """The bytes are not audio PyAV can decode (garbage, no audio stream, or no samples)."""


def decode_audio(
    data: bytes, sample_rate: int = DEFAULT_SAMPLE_RATE, max_seconds: float | None = None
) -> Audio:
    """Decode `data` to mono int16 at `sample_rate`; stop after `max_seconds` when given."""
    if not data:
        raise AudioUndecodable("empty input")
    limit = int(max_seconds * sample_rate) if max_seconds is not None else None
    chunks: list[np.ndarray] = []
    total = 0
    try:
        with av.open(io.BytesIO(data), mode="r") as container:
            if not container.streams.audio:
                raise AudioUndecodable("no audio stream")
            stream = container.streams.audio[0]
            # The resampler does the downmix and rate conversion in one pass, as ffmpeg would.
            resampler = av.AudioResampler(format="s16", layout="mono", rate=sample_rate)
            for frame in container.decode(stream):
                for out in resampler.resample(frame):
                    total += _collect(out, chunks)
                if limit is not None and total >= limit:
                    break
            else:
                for out in resampler.resample(None):
                    total += _collect(out, chunks)
    except AudioUndecodable:
        raise
    except (av.FFmpegError, ValueError, IndexError) as exc:
        raise AudioUndecodable(str(exc)) from exc
    if total == 0:
        raise AudioUndecodable("no audio samples")
    samples = np.concatenate(chunks)
    if limit is not None:
        samples = samples[:limit]
    return Audio(samples=samples, sample_rate=sample_rate)


def _collect(frame: av.AudioFrame, chunks: list[np.ndarray]) -> int:
    array = frame.to_ndarray().reshape(-1).astype(np.int16, copy=False)
    chunks.append(array)
    return len(array)
