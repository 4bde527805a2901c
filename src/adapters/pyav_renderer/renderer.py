"""PyAVRenderer: the AvatarRenderer port, a 2D avatar lip-synced to the audio and encoded with PyAV."""

from __future__ import annotations

import math
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import av
import numpy as np

from avatar_service.adapters.pyav_renderer.avatars import AVATARS, STYLES
from avatar_service.adapters.pyav_renderer.backgrounds import make_backdrop
from avatar_service.adapters.pyav_renderer.compositing import FrameComposer, _straight
from avatar_service.adapters.pyav_renderer.encoder import MediaWriter, write_thumbnail
from avatar_service.adapters.pyav_renderer.motion import MAX_MOTION_UNITS, FramePlan, plan_frames
from avatar_service.adapters.pyav_renderer.photo import PhotoSession
from avatar_service.adapters.pyav_renderer.sprites import build_sprites
from avatar_service.ports.renderer import AvatarInfo, RenderCancelled, RenderRequest, RenderResult

RESOLUTIONS = {"480p": (854, 480), "720p": (1280, 720), "1080p": (1920, 1080)}
PROGRESS_INTERVAL = 0.25  # seconds between progress callbacks


class PyAVRenderer:
    name = "pyav-2d"

    def __init__(self, fps: int = 25, threads: int = 0) -> None:
        self.fps = fps
        self._threads = threads  # encoder threads; 0 lets the codec pick from the CPU count

    def list_avatars(self) -> list[AvatarInfo]:
        return [AvatarInfo(id=look.id, name=look.name, style=look.default_style) for look in AVATARS.values()]

    def render(
        self, request: RenderRequest, on_progress: Callable[[int], None], should_cancel: Callable[[], bool]
    ) -> RenderResult:
        progress = _Progress(on_progress)
        progress(0)
        session = _prepare(request, self.fps)
        suffix = ".webm" if session.composer.transparent else ".mp4"
        request.out_dir.mkdir(parents=True, exist_ok=True)
        video_path = request.out_dir / f"video{suffix}"
        thumbnail_path = request.out_dir / (
            "thumbnail.png" if session.composer.transparent else "thumbnail.jpg"
        )
        writer = MediaWriter(
            video_path,
            *session.size,
            self.fps,
            session.composer.transparent,
            request.audio,
            threads=self._threads,
        )
        try:
            progress(2)
            total = len(session.plan)
            for index, frame in enumerate(session.frames()):
                if should_cancel():
                    raise RenderCancelled()
                writer.write(frame, index)
                progress(2 + 95 * (index + 1) // total)
            writer.finish()
            session.write_thumbnail(thumbnail_path)
        except BaseException:
            writer.abort()
            thumbnail_path.unlink(missing_ok=True)
            raise
        progress(100, force=True)
        return RenderResult(
            video_path=video_path,
            thumbnail_path=thumbnail_path,
            duration=round(total / self.fps, 3),
            content_type="video/webm" if session.composer.transparent else "video/mp4",
        )


def _prepare(request: RenderRequest, fps: int) -> _Session | PhotoSession:
    if request.photo is None:
        return _Session.prepare(request, fps)
    if request.resolution not in RESOLUTIONS:
        raise ValueError(f"unknown resolution {request.resolution!r}")
    samples = np.asarray(request.audio.samples).reshape(-1)
    if len(samples) == 0 or request.audio.sample_rate <= 0:
        raise ValueError("the audio is empty")
    width, height = RESOLUTIONS[request.resolution]
    return PhotoSession.prepare(request.photo, samples, request.audio.sample_rate, request.background,
                                width, height, fps)


class _Session:
    """One render's plan and composer; also what the benchmark drives to get the very same frames."""

    def __init__(self, plan: FramePlan, composer: FrameComposer, size: tuple[int, int]) -> None:
        self.plan, self.composer, self.size = plan, composer, size

    @classmethod
    def prepare(cls, request: RenderRequest, fps: int) -> _Session:
        if request.avatar_id not in AVATARS:
            raise ValueError(f"unknown avatar_id {request.avatar_id!r}")
        if request.style not in STYLES:
            raise ValueError(f"unknown style {request.style!r}")
        if request.resolution not in RESOLUTIONS:
            raise ValueError(f"unknown resolution {request.resolution!r}")
        samples = np.asarray(request.audio.samples).reshape(-1)
        if len(samples) == 0 or request.audio.sample_rate <= 0:
            raise ValueError("the audio is empty")
        width, height = RESOLUTIONS[request.resolution]
        sprites = build_sprites(request.avatar_id, request.style, width, height)
        margin = 2 * math.ceil((MAX_MOTION_UNITS * sprites.scale + 2) / 2)
        backdrop = make_backdrop(request.background or "blur", width, height)  # a drawn avatar's own: its room
        composer = FrameComposer(sprites, backdrop, width, height, margin)
        # Seeded by the avatar and the audio length, so a re-render of the same request is identical.
        seed = zlib.crc32(f"{request.avatar_id}:{len(samples)}".encode())
        plan = plan_frames(samples, request.audio.sample_rate, fps, sprites.scale, seed)
        return cls(plan, composer, (width, height))

    def frames(self) -> Iterator[av.VideoFrame]:
        plan = self.plan
        for i in range(len(plan)):
            dx, dy = plan.offsets[i]
            yield self.composer.frame(int(dx), int(dy), int(plan.mouth[i]), int(plan.eyes[i]))

    def write_thumbnail(self, path: Path) -> None:
        rgb, alpha = self.composer.still_rgba(0, 0)
        if self.composer.transparent:
            write_thumbnail(path, _straight(rgb, alpha), alpha[..., 0])
        else:
            write_thumbnail(path, rgb, None)


class _Progress:
    """Monotonic, integer, and throttled: callers store it, so a call per frame would be wasteful."""

    def __init__(self, callback: Callable[[int], None]) -> None:
        self._callback = callback
        self._last_value = -1
        self._last_time = 0.0

    def __call__(self, value: int, force: bool = False) -> None:
        value = min(max(int(value), 0), 100)
        now = time.monotonic()
        if value <= self._last_value:
            return
        if force or self._last_value < 0 or now - self._last_time >= PROGRESS_INTERVAL:
            self._last_value, self._last_time = value, now
            self._callback(value)
