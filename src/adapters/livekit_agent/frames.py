"""Frames between PyAV (what the room's tracks make) and LiveKit's rtc package (what its sources take)."""

from __future__ import annotations

import av
import numpy as np
from livekit import rtc


def voice_frame(frame: av.AudioFrame) -> rtc.AudioFrame:
    """A 20 ms voice frame of the room's audio track (mono int16, 48 kHz) as LiveKit's AudioFrame."""
    samples = np.ascontiguousarray(frame.to_ndarray().reshape(-1), dtype=np.int16)
    return rtc.AudioFrame(samples.tobytes(), frame.sample_rate, 1, samples.size)


def video_frame(frame: av.VideoFrame) -> rtc.VideoFrame:
    """An avatar frame as LiveKit's I420 VideoFrame (the encoder's own format: no conversion on its side)."""
    planes = frame if frame.format.name == "yuv420p" else frame.reformat(format="yuv420p")
    data = planes.to_ndarray()  # (height * 3 / 2, width): Y, then U and V, as I420 lays them out
    return rtc.VideoFrame(frame.width, frame.height, rtc.VideoBufferType.I420, np.ascontiguousarray(data).tobytes())


def microphone_samples(frame: rtc.AudioFrame) -> np.ndarray:
    """A frame of the participant's audio (asked of LiveKit at 16 kHz mono) as the pipeline's int16 samples."""
    samples = np.frombuffer(frame.data, dtype=np.int16)
    if frame.num_channels > 1:
        samples = samples.reshape(-1, frame.num_channels).mean(axis=1).astype(np.int16)
    return samples
