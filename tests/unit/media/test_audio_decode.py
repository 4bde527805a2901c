"""decode_audio: common containers in, mono int16 at the asked rate out; garbage is AudioUndecodable."""

from __future__ import annotations

import io
import wave

import av
import numpy as np
import pytest

from avatar_service.adapters.audio_decode import AudioUndecodable, decode_audio

RATE = 44_100
SECONDS = 1.5


def _tone(channels: int) -> np.ndarray:
    t = np.arange(int(RATE * SECONDS)) / RATE
    left = np.sin(2 * np.pi * 440 * t) * 12_000
    return np.stack([left] * channels).astype(np.int16)


def _encode(container: str, codec: str, sample_format: str, rate: int = RATE) -> bytes:
    buffer = io.BytesIO()
    with av.open(buffer, mode="w", format=container) as output:
        stream = output.add_stream(codec, rate=rate)
        stream.layout = "stereo"
        source = av.AudioFrame.from_ndarray(_tone(2).T.reshape(1, -1).copy(), format="s16", layout="stereo")
        source.sample_rate = RATE
        resampler = av.AudioResampler(
            format=sample_format,
            layout="stereo",
            rate=rate,
            frame_size=stream.codec_context.frame_size or 1024,
        )
        for frame in [*resampler.resample(source), *resampler.resample(None)]:
            output.mux(stream.encode(frame))
        output.mux(stream.encode(None))
    return buffer.getvalue()


def _wav() -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(2)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(_tone(2).T.tobytes())
    return buffer.getvalue()


@pytest.mark.parametrize(
    "make",
    [
        _wav,
        lambda: _encode("mp3", "libmp3lame", "s16p"),
        lambda: _encode("ogg", "libopus", "s16", rate=48_000),
        lambda: _encode("ipod", "aac", "fltp"),  # .m4a
        lambda: _encode("flac", "flac", "s16"),
    ],
    ids=["wav", "mp3", "ogg-opus", "m4a", "flac"],
)
def test_decodes_to_mono_int16_at_the_target_rate(make) -> None:  # type: ignore[no-untyped-def]
    audio = decode_audio(make(), sample_rate=16_000)
    assert audio.sample_rate == 16_000
    assert audio.samples.dtype == np.int16 and audio.samples.ndim == 1
    assert abs(audio.duration - SECONDS) < 0.12  # codec priming and padding
    middle = audio.samples[4000:12000].astype(np.float64)
    assert 5_000 < np.sqrt(np.mean(middle**2)) < 12_000  # the tone survived the downmix


def test_max_seconds_truncates() -> None:
    audio = decode_audio(_wav(), sample_rate=8000, max_seconds=0.5)
    assert len(audio.samples) == 4000


@pytest.mark.parametrize("data", [b"", b"this is not audio at all" * 40, bytes(range(256)) * 16])
def test_garbage_is_undecodable(data: bytes) -> None:
    with pytest.raises(AudioUndecodable):
        decode_audio(data)
