"""PyAV output: H.264 + AAC in MP4, or VP9 with alpha + Opus in WebM; and the JPEG or PNG thumbnail."""

from __future__ import annotations

import contextlib
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from avatar_service.ports.speech import Audio

AUDIO_RATE = 48_000  # Opus only takes 48 kHz; AAC at 48 kHz plays everywhere


class MediaWriter:
    """One output file; video frames are written in order and the audio is interleaved as they come."""

    def __init__(
        self, path: Path, width: int, height: int, fps: int, transparent: bool, audio: Audio, threads: int = 0
    ) -> None:
        self.path = path
        self._fps = fps
        if transparent:
            self._container = av.open(str(path), mode="w", format="webm")
            video = self._container.add_stream("libvpx-vp9", rate=fps)
            video.pix_fmt = "yuva420p"
            # Realtime deadline and cpu-used 8 are libvpx's fast path; constant quality, no bitrate cap.
            video.options = {
                "deadline": "realtime",
                "cpu-used": "8",
                "row-mt": "1",
                "crf": "30",
                "b": "0",
                "lag-in-frames": "0",
                "g": str(fps * 4),
            }
            video.metadata["alpha_mode"] = "1"  # what browsers look for before decoding the alpha layer
            audio_stream = self._container.add_stream("libopus", rate=AUDIO_RATE)
            audio_stream.bit_rate = 64_000
            audio_format, frame_size = "s16", 960
        else:
            self._container = av.open(str(path), mode="w", format="mp4", options={"movflags": "+faststart"})
            video = self._container.add_stream("libx264", rate=fps)
            video.pix_fmt = "yuv420p"
            video.options = {"preset": "veryfast", "crf": "23", "g": str(fps * 4)}
            audio_stream = self._container.add_stream("aac", rate=AUDIO_RATE)
            audio_stream.bit_rate = 96_000
            audio_format, frame_size = "fltp", 1024
        video.width, video.height = width, height
        video.codec_context.thread_count = threads
        video.codec_context.colorspace = 1  # AVCOL_SPC_BT709
        video.codec_context.color_primaries = 1  # AVCOL_PRI_BT709
        video.codec_context.color_trc = 1  # AVCOL_TRC_BT709
        video.codec_context.color_range = 1  # AVCOL_RANGE_MPEG (limited)
        audio_stream.layout = "mono"
        self._video, self._audio = video, audio_stream
        self._audio_frames = _audio_frames(audio, audio_format, frame_size)
        self._audio_next = 0
        self._time_base = Fraction(1, fps)

    def write(self, frame: av.VideoFrame, index: int) -> None:
        frame.pts = index
        frame.time_base = self._time_base
        for packet in self._video.encode(frame):
            self._container.mux(packet)
        self._write_audio_until((index + 1) / self._fps)

    def _write_audio_until(self, seconds: float | None) -> None:
        """Encode audio up to `seconds` (all of it when None), keeping the two streams interleaved."""
        while self._audio_next < len(self._audio_frames):
            frame = self._audio_frames[self._audio_next]
            if seconds is not None and (frame.pts or 0) / AUDIO_RATE > seconds:
                break
            for packet in self._audio.encode(frame):
                self._container.mux(packet)
            self._audio_next += 1

    def finish(self) -> None:
        for packet in self._video.encode(None):
            self._container.mux(packet)
        self._write_audio_until(None)
        for packet in self._audio.encode(None):
            self._container.mux(packet)
        self._container.close()

    def abort(self) -> None:
        # The file is deleted next, so a half-written trailer does not matter.
        with contextlib.suppress(av.FFmpegError, OSError, ValueError):
            self._container.close()
        self.path.unlink(missing_ok=True)


def _audio_frames(audio: Audio, audio_format: str, frame_size: int) -> list[av.AudioFrame]:
    samples = np.asarray(audio.samples)
    if samples.dtype != np.int16:
        samples = np.clip(np.rint(samples.astype(np.float64)), -32768, 32767).astype(np.int16)
    source = av.AudioFrame.from_ndarray(samples.reshape(1, -1), format="s16", layout="mono")
    source.sample_rate = audio.sample_rate
    resampler = av.AudioResampler(format=audio_format, layout="mono", rate=AUDIO_RATE, frame_size=frame_size)
    frames = [*resampler.resample(source), *resampler.resample(None)]
    position = 0
    for frame in frames:
        frame.pts = position  # in 1/AUDIO_RATE, the encoder's time base
        position += frame.samples
    return frames


def write_thumbnail(path: Path, rgb: np.ndarray, alpha: np.ndarray | None) -> None:
    """JPEG from straight RGB (0..1), or PNG keeping `alpha` (0..1) when given."""
    height, width = rgb.shape[:2]
    if alpha is None:
        pixels = np.clip(np.rint(rgb * 255.0), 0, 255).astype(np.uint8)
        frame = av.VideoFrame.from_ndarray(pixels, format="rgb24").reformat(format="yuvj420p")
        codec = av.CodecContext.create("mjpeg", "w")
        codec.pix_fmt = "yuvj420p"
        codec.options = {"q:v": "3"}
    else:
        rgba = np.concatenate([rgb, alpha[..., None] if alpha.ndim == 2 else alpha], axis=2)
        pixels = np.clip(np.rint(rgba * 255.0), 0, 255).astype(np.uint8)
        frame = av.VideoFrame.from_ndarray(pixels, format="rgba")
        codec = av.CodecContext.create("png", "w")
        codec.pix_fmt = "rgba"
    codec.width, codec.height = width, height
    codec.time_base = Fraction(1, 25)
    packets = [*codec.encode(frame), *codec.encode(None)]
    path.write_bytes(b"".join(bytes(packet) for packet in packets))
