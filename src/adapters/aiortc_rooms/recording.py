"""A conversation's recording: both sides' audio mixed and the avatar's video, written as one MP4 at the end.

While the room runs, the recorder only appends: the cleaned microphone (16 kHz) and the voice as sent (48 kHz)
to two raw files on disk, each at the position its wall-clock time says (a gap, such as a page reload, stays
silent), and the pose of every video frame sent (head offset, mouth, eyes) in memory. Encoding the video live
a second time would cost as much as the room's own encoder; the poses let `write_mp4` draw the same frames again
afterwards, off the event loop, into H.264 + AAC.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, BinaryIO

import av
import numpy as np

from avatar_service.adapters.aiortc_rooms.audio import IN_RATE, OUT_RATE, resample
from avatar_service.adapters.aiortc_rooms.video import VIDEO_LEAD, DrawnAvatar, LiveAvatar, draw
from avatar_service.adapters.pyav_renderer.photo import LivePhoto

log = logging.getLogger(__name__)

FPS = 15


class _Track:
    """Raw mono int16 at `rate` on disk, each chunk placed at its wall-clock position."""

    def __init__(self, path: Path, rate: int, started: float) -> None:
        self.path, self.rate, self._started = path, rate, started
        self._file: BinaryIO | None = path.open("wb")
        self.samples = 0

    def write(self, chunk: np.ndarray, at: float) -> None:
        if self._file is None or chunk.size == 0:
            return
        due = int((at - self._started) * self.rate) - chunk.size  # where this chunk should begin
        if due > self.samples + self.rate // 10:  # more than 100 ms behind the clock: fill the gap with silence
            self._file.write(np.zeros(due - self.samples, np.int16).tobytes())
            self.samples = due
        self._file.write(np.asarray(chunk, dtype=np.int16).tobytes())
        self.samples += chunk.size

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def read(self) -> np.ndarray:
        return np.fromfile(self.path, dtype=np.int16) if self.path.exists() else np.zeros(0, np.int16)


@dataclass
class RoomRecorder:
    """Taps for one conversation's media; `write_mp4` once it is over. Sessions of the same conversation (a page
    reload) add to the same recording."""

    folder: Path
    organization_id: str
    started: float = field(default_factory=time.monotonic)
    poses: list[tuple[float, int, int, float, float]] = field(default_factory=list)
    avatar: LiveAvatar | None = None

    def __post_init__(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.microphone = _Track(self.folder / "microphone.raw", IN_RATE, self.started)
        self.voice = _Track(self.folder / "voice.raw", OUT_RATE, self.started)

    def hear(self, samples: np.ndarray) -> None:
        self.microphone.write(samples, time.monotonic())

    def say(self, frame: np.ndarray) -> None:
        self.voice.write(frame, time.monotonic())

    def pose(self, dx: int, dy: int, opening: float, closure: float) -> None:
        # The live mouth is drawn from the voice VIDEO_LEAD ahead (the browser shows video later than it plays the
        # voice); in the file both play at once, so the pose belongs that much later.
        self.poses.append((time.monotonic() - self.started + VIDEO_LEAD, dx, dy, opening, closure))

    def stop(self) -> None:
        self.microphone.close()
        self.voice.close()

    def write_mp4(self, path: Path) -> Path:
        """Sync and CPU-bound: run it off the loop. Returns `path`."""
        self.stop()
        voice = self.voice.read()
        microphone = resample(self.microphone.read(), IN_RATE, OUT_RATE)
        n = max(voice.size, microphone.size)
        mixed = np.zeros(n, np.int32)
        mixed[: voice.size] += voice
        mixed[: microphone.size] += microphone
        audio = np.clip(mixed, -32768, 32767).astype(np.int16)
        with av.open(str(path), "w", format="mp4") as container:
            video = None
            if self.avatar is not None and self.poses:
                video = container.add_stream("libx264", rate=FPS)
                video.width, video.height = _size(self.avatar)
                video.pix_fmt = "yuv420p"
                video.options = {"preset": "veryfast", "crf": "26"}
            sound = container.add_stream("aac", rate=OUT_RATE)
            sound.layout = "mono"  # type: ignore[union-attr]
            written = 0  # audio samples encoded so far: audio and video go in in time order, interleaved
            if video is not None:
                for index, frame in enumerate(self._frames(n / OUT_RATE)):
                    written = _write_audio(container, sound, audio, written, (index + 1) * OUT_RATE // FPS)
                    container.mux(video.encode(frame))
                container.mux(video.encode(None))
            _write_audio(container, sound, audio, written, audio.size)
            container.mux(sound.encode(None))
        return path

    def _frames(self, seconds: float) -> Iterator[av.VideoFrame]:
        """The recording's video frames at FPS, each drawn from the last pose sent at or before its time."""
        poses, avatar, at = self.poses, self.avatar, 0
        for index in range(int(seconds * FPS)):
            t = index / FPS
            while at + 1 < len(poses) and poses[at + 1][0] <= t:
                at += 1
            _, dx, dy, opening, closure = poses[at]
            if isinstance(avatar, LivePhoto):
                frame = avatar.frame_at(t, opening, closure)
            else:
                assert isinstance(avatar, DrawnAvatar)
                frame = draw(avatar.composer, dx, dy, opening, closure)
            out = frame.reformat(format="yuv420p")
            out.pts = index
            out.time_base = Fraction(1, FPS)
            yield out


def _size(avatar: LiveAvatar) -> tuple[int, int]:
    if isinstance(avatar, DrawnAvatar):
        return avatar.composer.width, avatar.composer.height
    return avatar.composer.width, avatar.composer.height


def _write_audio(container: Any, stream: Any, audio: np.ndarray, start: int, end: int) -> int:
    """Encodes audio[start:end] in 1024-sample frames; returns where it stopped."""
    end = min(end, audio.size)
    while start < end:
        part = np.ascontiguousarray(audio[start : min(start + 1024, end)]).reshape(1, -1)
        frame = av.AudioFrame.from_ndarray(part, format="s16", layout="mono")
        frame.sample_rate = OUT_RATE
        frame.pts = start
        frame.time_base = Fraction(1, OUT_RATE)
        container.mux(stream.encode(frame))
        start += part.shape[1]
    return start
