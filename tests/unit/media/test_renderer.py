"""PyAVRenderer end to end: files probed with PyAV, lip sync against the audio, alpha, cancel, progress."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np
import pytest

from avatar_service.adapters.pyav_renderer import AVATARS, STYLES, BackgroundUnreadable, PyAVRenderer
from avatar_service.adapters.pyav_renderer.sprites import build_sprites
from avatar_service.ports.renderer import RenderCancelled, RenderRequest
from avatar_service.ports.speech import Audio

RATE = 22_050


def syllables(seconds: float, seed: int = 3) -> Audio:
    """Speech-like audio: voiced bursts of varying loudness and length with pauses between."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    envelope = np.zeros(n)
    position = int(0.3 * RATE)
    while position < n:
        length = int(rng.uniform(0.08, 0.3) * RATE)
        envelope[position : position + length] = rng.uniform(0.2, 1.0) * np.hanning(length)[: n - position]
        position += length + int(rng.uniform(0.03, 0.35) * RATE)
    t = np.arange(n) / RATE
    carrier = (
        np.sin(2 * np.pi * 140 * t) + 0.5 * np.sin(2 * np.pi * 280 * t) + 0.25 * np.sin(2 * np.pi * 900 * t)
    )
    return Audio(samples=(envelope * carrier * 12_000).astype(np.int16), sample_rate=RATE)


def request(tmp_path: Path, audio: Audio, **overrides: str) -> RenderRequest:
    fields = {"avatar_id": "ava", "style": "realistic", "background": "#203040", "resolution": "480p"}
    fields.update(overrides)
    return RenderRequest(audio=audio, out_dir=tmp_path / "out", **fields)


@pytest.fixture(scope="module")
def renderer() -> PyAVRenderer:
    return PyAVRenderer()


def test_lists_the_shipped_avatars(renderer: PyAVRenderer) -> None:
    avatars = renderer.list_avatars()
    assert {a.id for a in avatars} >= {"ava", "leo", "mia", "sam"}
    assert {a.style for a in avatars} == set(STYLES) == {"realistic", "cartoon"}


@pytest.mark.parametrize("avatar_id", sorted(AVATARS))
@pytest.mark.parametrize("style", STYLES)
def test_state_patches_lie_on_opaque_head(avatar_id: str, style: str) -> None:
    # Mouth and eye patches replace pixels outright, so everything under them must be the head itself.
    sprites = build_sprites(avatar_id, style, 854, 480)
    top, left = sprites.head_rect[:2]
    for rect in (sprites.mouth_rect, sprites.eyes_rect):
        r0, c0, r1, c1 = rect
        assert sprites.head[r0 - top : r1 - top, c0 - left : c1 - left, 3].min() > 0.999


def test_mp4_end_to_end(renderer: PyAVRenderer, tmp_path: Path) -> None:
    audio = syllables(3.0)
    progress: list[int] = []
    result = renderer.render(request(tmp_path, audio), progress.append, lambda: False)
    assert result.video_path.suffix == ".mp4" and result.content_type == "video/mp4"
    assert abs(result.duration - audio.duration) < 0.05
    with av.open(str(result.video_path)) as container:
        assert "mp4" in container.format.name
        video, sound = container.streams.video[0], container.streams.audio[0]
        assert video.codec_context.name == "h264" and sound.codec_context.name == "aac"
        assert (video.codec_context.width, video.codec_context.height) == (854, 480)
        assert abs(container.duration / av.time_base - audio.duration) < 0.15
        frames = sum(1 for _ in container.decode(video=0))
    assert frames == int(np.ceil(audio.duration * renderer.fps))
    with av.open(str(result.thumbnail_path)) as thumb:
        image = next(thumb.decode(video=0))
        assert thumb.streams.video[0].codec_context.name == "mjpeg"
        assert (image.width, image.height) == (854, 480)
    assert progress[0] == 0 and progress[-1] == 100 and progress == sorted(set(progress))


def test_mouth_follows_the_audio(renderer: PyAVRenderer, tmp_path: Path) -> None:
    audio = syllables(6.0, seed=11)
    result = renderer.render(request(tmp_path, audio), lambda _: None, lambda: False)
    sprites = build_sprites("ava", "realistic", 854, 480)
    r0, c0, r1, c1 = sprites.mouth_rect
    openness, changes, previous = [], [], None
    with av.open(str(result.video_path)) as container:
        for frame in container.decode(video=0):
            luma = frame.to_ndarray(format="gray")[r0 - 6 : r1 + 6, c0 - 6 : c1 + 6].astype(np.float32)
            openness.append(float((luma < 70).mean()))  # the open mouth's dark inside
            if previous is not None:
                changes.append(float(np.abs(luma - previous).mean()))
            previous = luma
    fps = renderer.fps
    hop = RATE / fps
    samples = audio.samples.astype(np.float64)
    rms = np.array(
        [np.sqrt(np.mean(samples[int(i * hop) : int((i + 1) * hop)] ** 2)) for i in range(len(openness))]
    )
    assert np.corrcoef(openness, rms)[0, 1] > 0.6
    # Frame-to-frame change in the mouth region goes with the change in loudness.
    assert np.corrcoef(changes, np.abs(np.diff(rms)))[0, 1] > 0.4


def test_transparent_webm_has_an_alpha_plane(renderer: PyAVRenderer, tmp_path: Path) -> None:
    audio = syllables(1.5)
    result = renderer.render(
        request(tmp_path, audio, background="transparent", style="cartoon", avatar_id="sam"),
        lambda _: None,
        lambda: False,
    )
    assert result.video_path.suffix == ".webm" and result.content_type == "video/webm"
    assert result.thumbnail_path.suffix == ".png"
    with av.open(str(result.video_path)) as container:
        assert "webm" in container.format.name
        stream = container.streams.video[0]
        assert container.streams.audio[0].codec_context.name == "opus"
        # FFmpeg's native VP9 decoder ignores the alpha side data; libvpx's decoder restores it.
        decoder = av.CodecContext.create("libvpx-vp9", "r")
        frame = next(f for packet in container.demux(stream) for f in decoder.decode(packet))
    assert frame.format.name == "yuva420p"
    alpha = np.frombuffer(frame.planes[3], np.uint8).reshape(frame.height, -1)[:, : frame.width]
    assert alpha[0, 0] < 16 and alpha[frame.height // 2, frame.width // 2] > 240  # clear corner, opaque face
    with av.open(str(result.thumbnail_path)) as thumb:
        image = next(thumb.decode(video=0)).to_ndarray(format="rgba")
    assert image[0, 0, 3] == 0 and image[240, 427, 3] == 255


def test_cancel_removes_partial_files(renderer: PyAVRenderer, tmp_path: Path) -> None:
    polls = 0

    def should_cancel() -> bool:
        nonlocal polls
        polls += 1
        return polls > 10

    with pytest.raises(RenderCancelled):
        renderer.render(request(tmp_path, syllables(4.0)), lambda _: None, should_cancel)
    assert list((tmp_path / "out").iterdir()) == []


def test_background_colour_and_image(renderer: PyAVRenderer, tmp_path: Path) -> None:
    audio = syllables(0.5)
    result = renderer.render(request(tmp_path, audio, background="#ff0000"), lambda _: None, lambda: False)
    with av.open(str(result.video_path)) as container:
        pixel = next(container.decode(video=0)).to_ndarray(format="rgb24")[10, 10]
    assert pixel[0] > 200 and pixel[1] < 50 and pixel[2] < 50
    # A 4:3 green-over-blue image must be scaled to cover 16:9: green on top, blue at the bottom.
    image = np.zeros((300, 400, 3), np.uint8)
    image[:150, :, 1], image[150:, :, 2] = 255, 255
    path = tmp_path / "bg.png"
    codec = av.CodecContext.create("png", "w")
    codec.width, codec.height, codec.pix_fmt = 400, 300, "rgb24"
    path.write_bytes(
        b"".join(bytes(p) for p in codec.encode(av.VideoFrame.from_ndarray(image, format="rgb24")))
    )
    result = renderer.render(request(tmp_path, audio, background=str(path)), lambda _: None, lambda: False)
    with av.open(str(result.video_path)) as container:
        picture = next(container.decode(video=0)).to_ndarray(format="rgb24")
    assert picture[5, 5, 1] > 200 and picture[5, 5, 2] < 50
    assert picture[474, 5, 2] > 200 and picture[474, 5, 1] < 50


def test_blur_backdrop_renders(renderer: PyAVRenderer, tmp_path: Path) -> None:
    result = renderer.render(
        request(tmp_path, syllables(0.5), background="blur", avatar_id="mia", style="cartoon"),
        lambda _: None,
        lambda: False,
    )
    assert result.video_path.stat().st_size > 0 and result.thumbnail_path.stat().st_size > 0


@pytest.mark.parametrize(
    ("overrides", "error"),
    [
        ({"avatar_id": "nobody"}, ValueError),
        ({"style": "oil-painting"}, ValueError),
        ({"resolution": "4k"}, ValueError),
        ({"background": "/no/such/image.png"}, BackgroundUnreadable),
    ],
)
def test_bad_requests_raise_before_writing(
    renderer: PyAVRenderer, tmp_path: Path, overrides: dict[str, str], error: type[Exception]
) -> None:
    with pytest.raises(error):
        renderer.render(request(tmp_path, syllables(0.5), **overrides), lambda _: None, lambda: False)
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []
