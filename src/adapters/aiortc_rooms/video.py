"""The avatar's live video: the renderer's sprites (or a photo avatar's warps) per frame, the mouth following
the voice track."""

from __future__ import annotations

import asyncio
import math
import random
import re
from fractions import Fraction
from typing import TypeAlias

import av
from aiortc.mediastreams import MediaStreamError, MediaStreamTrack

from avatar_service.adapters.aiortc_rooms.audio import ReplyAudioTrack
from avatar_service.adapters.aiortc_rooms.pacing import Pacer
from avatar_service.adapters.pyav_renderer.avatars import AVATARS, BLINK_LEVELS, MOUTH_LEVELS
from avatar_service.adapters.pyav_renderer.backgrounds import make_backdrop
from avatar_service.adapters.pyav_renderer.compositing import FrameComposer
from avatar_service.adapters.pyav_renderer.photo import LivePhoto, PhotoComposer
from avatar_service.adapters.pyav_renderer.photo_rig import photo_rig
from avatar_service.adapters.pyav_renderer.sprites import build_sprites
from avatar_service.ports.portraits import Portrait

VIDEO_CLOCK = 90_000
# What the track draws from: a drawn avatar's sprites, or a photo avatar's warps.
LiveAvatar: TypeAlias = FrameComposer | LivePhoto
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


def avatar_composer(avatar_id: str, style: str, background: str, width: int, height: int,
                    photo: Portrait | None = None) -> LiveAvatar:
    """Sync and CPU-bound (sprites are drawn once per avatar and size, then cached): run it off the loop."""
    if photo is not None:
        # Only backgrounds made on the spot: an image URL would need a fetch the room should not wait for,
        # and transparency means nothing in a call; both show the photo as it is.
        if background != "blur" and not _COLOR.match(background):
            background = ""
        return LivePhoto(PhotoComposer(photo_rig(photo, background, width, height)))
    if avatar_id not in AVATARS:
        avatar_id = next(iter(AVATARS))
    # An image URL would need a fetch the room should not wait for; transparency means nothing in a call.
    if background != "blur" and not _COLOR.match(background):
        background = "blur"
    sprites = build_sprites(avatar_id, style, width, height)
    return FrameComposer(sprites, make_backdrop(background, width, height), width, height, margin=2)


class AvatarVideoTrack(MediaStreamTrack):
    """Frames at `fps`: the mouth opens with the loudness of the voice being sent, the eyes blink now and then."""

    kind = "video"

    def __init__(self, composer: LiveAvatar, voice: ReplyAudioTrack | None, fps: int = 15) -> None:
        super().__init__()
        self._composer, self._voice, self._fps = composer, voice, fps
        self._pacer = Pacer(resync_after=0.5)
        self._index = 0
        self._opening = 0.0
        self._blink_at = 2.0
        self._rng = random.Random()
        self.frames_sent = 0

    def _open(self) -> float:
        level = self._voice.level if self._voice is not None else 0.0
        # Loudness in dB against a speaking level of about -20 dBFS, over a 24 dB range (as the renderer does).
        target = 0.0 if level < 1e-3 else min(max((20 * math.log10(level / 0.1) + 24) / 24, 0.0), 1.0)
        # Open at once, close at a bounded speed: a jaw shuts over about 100 ms, not in one frame.
        self._opening = max(target, self._opening - 0.3 * 25 / self._fps)
        return self._opening

    def _mouth(self) -> int:
        return round(self._open() * (len(MOUTH_LEVELS) - 1))

    def _eyes(self, seconds: float) -> int:
        if seconds >= self._blink_at + 0.15:
            self._blink_at = seconds + self._rng.uniform(2.5, 5.5)
        if seconds < self._blink_at:
            return 0
        return len(BLINK_LEVELS) - 1 if seconds < self._blink_at + 0.1 else 1

    async def recv(self) -> av.VideoFrame:
        if self.readyState != "live":
            raise MediaStreamError
        seconds = self._index / self._fps
        await self._pacer.wait(seconds)
        if isinstance(self._composer, LivePhoto):
            # A photo frame is a few milliseconds of warping: off the loop, like every CPU-bound step.
            closure = self._eyes(seconds) / (len(BLINK_LEVELS) - 1)
            frame = await asyncio.to_thread(self._composer.frame_at, seconds, self._open(), closure)
        else:
            frame = self._composer.frame(0, 0, self._mouth(), self._eyes(seconds))
        # The composer hands back the same frame object for a repeated pose; the sender encodes one frame
        # before asking for the next, so stamping it here is safe.
        frame.pts = int(seconds * VIDEO_CLOCK)
        frame.time_base = Fraction(1, VIDEO_CLOCK)
        self._index += 1
        self.frames_sent += 1
        return frame
