"""The avatar's live video: the renderer's sprites (or a photo avatar's warps) per frame, the mouth following
the voice, the head swaying a little at rest and nodding now and then while the user speaks (listening)."""

from __future__ import annotations

import asyncio
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

import av
from aiortc.mediastreams import MediaStreamError, MediaStreamTrack

from avatar_service.adapters.aiortc_rooms.pacing import Pacer
from avatar_service.adapters.aiortc_rooms.voice import VoiceQueue
from avatar_service.adapters.pyav_renderer.avatars import AVATARS, BLINK_LEVELS, MOUTH_LEVELS
from avatar_service.adapters.pyav_renderer.backgrounds import make_backdrop
from avatar_service.adapters.pyav_renderer.compositing import FrameComposer
from avatar_service.adapters.pyav_renderer.motion import MAX_MOTION_UNITS
from avatar_service.adapters.pyav_renderer.photo import LivePhoto, PhotoComposer
from avatar_service.adapters.pyav_renderer.photo_rig import photo_rig
from avatar_service.adapters.pyav_renderer.sprites import build_sprites
from avatar_service.ports.portraits import Portrait

VIDEO_CLOCK = 90_000
# How much later a video frame is seen than a voice frame sent with it (encoding, the video jitter buffer, one
# frame period): the mouth is drawn from the voice that will be heard when the frame is.
VIDEO_LEAD = 0.1


@dataclass(frozen=True, slots=True)
class DrawnAvatar:
    """A drawn avatar's frames, and how many pixels one unit of head motion is at this size."""

    composer: FrameComposer
    px_per_unit: float


# What the track draws from: a drawn avatar's sprites, or a photo avatar's warps.
LiveAvatar: TypeAlias = DrawnAvatar | LivePhoto
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
    margin = 2 * math.ceil((MAX_MOTION_UNITS * sprites.scale + 2) / 2)  # room for the head's motion, as in videos
    composer = FrameComposer(sprites, make_backdrop(background, width, height), width, height, margin=margin)
    return DrawnAvatar(composer, sprites.scale)


class HeadMotion:
    """Where the drawn head sits at a moment: a slow sway (the renderer's two sines per axis), and while the user
    speaks a small nod every couple of seconds, so the avatar looks like it listens. Even pixel offsets, with
    hysteresis, as the renderer does (the 4:2:0 chroma grid stays aligned, no flicker between two positions).

    The nod goes on top of the held position, in whole 2-pixel steps, after the hysteresis: added to the sway
    before it (and clamped with it), a nod smaller than the hysteresis (1.8 px at 480x360) moved nothing whenever
    the sway sat below the held position or at its limit, and 2 of 5 nods were never seen."""

    NOD_EVERY, NOD_SECONDS, NOD_UNITS = 1.8, 0.45, 0.5

    def __init__(self, px_per_unit: float, seed: int = 11) -> None:
        self._px = px_per_unit
        rng = random.Random(seed)
        self._phase = [rng.uniform(0, 2 * math.pi) for _ in range(4)]
        self._current = (0.0, 0.0)
        self._nod_at: float | None = None

    def offset(self, seconds: float, listening: bool) -> tuple[int, int]:
        p, w = self._phase, 2 * math.pi * seconds
        sway_x = 0.6 * math.sin(0.21 * w + p[0]) + 0.4 * math.sin(0.53 * w + p[1])
        sway_y = 0.6 * math.sin(0.17 * w + p[2]) + 0.4 * math.sin(0.43 * w + p[3])
        if listening and (self._nod_at is None or seconds - self._nod_at >= self.NOD_EVERY):
            self._nod_at = seconds
        nod = 0.0
        if self._nod_at is not None and seconds - self._nod_at < self.NOD_SECONDS:
            nod = self.NOD_UNITS * math.sin(math.pi * (seconds - self._nod_at) / self.NOD_SECONDS)
        x = 0.55 * sway_x * self._px
        y = 0.3 * sway_y * self._px
        limit = MAX_MOTION_UNITS * self._px
        x, y = max(-limit, min(limit, x)), max(-limit, min(limit, y))
        cx, cy = self._current
        if abs(x - cx) >= 1.6:
            cx = 2 * round(x / 2)
        if abs(y - cy) >= 1.6:
            cy = 2 * round(y / 2)
        self._current = (cx, cy)
        dip = 2 * round(nod * self._px / 2)
        # Within the composer's margin around the head (the limit plus 2 px, rounded up to even: avatar_composer).
        reach = 2 * math.floor((limit + 2) / 2)
        return int(cx), int(max(-reach, min(reach, cy + dip)))


class AvatarVideoTrack(MediaStreamTrack):
    """Frames at `fps`: the mouth opens with the loudness of the voice being sent, the eyes blink now and then."""

    kind = "video"

    def __init__(self, composer: LiveAvatar, voice: VoiceQueue | None, fps: int = 15,
                 listening: Callable[[], bool] | None = None) -> None:
        super().__init__()
        self._composer, self._voice, self._fps = composer, voice, fps
        self._listening = listening or (lambda: False)
        self._motion = HeadMotion(composer.px_per_unit if isinstance(composer, DrawnAvatar) else 1.0)
        # Told each frame's pose as it is sent (dx, dy, mouth opening 0..1, eye closure 0..1): the recorder draws
        # the recording's video from these afterwards instead of encoding it twice live.
        self.on_pose: Callable[[int, int, float, float], None] | None = None
        self._pacer = Pacer(resync_after=0.5)
        self._index = 0
        self._opening = 0.0
        self._blink_at = 2.0
        self._rng = random.Random()
        self.frames_sent = 0

    def _open(self) -> float:
        voice = self._voice
        ahead = getattr(voice, "level_ahead", None)  # anything with a `level` drives the mouth; a queue, ahead
        level = 0.0 if voice is None else ahead(VIDEO_LEAD) if ahead is not None else voice.level
        # Loudness in dB against a speaking level of about -20 dBFS, over a 24 dB range (as the renderer does).
        target = 0.0 if level < 1e-3 else min(max((20 * math.log10(level / 0.1) + 24) / 24, 0.0), 1.0)
        # Open at once, close at a bounded speed: a jaw shuts over about 100 ms, not in one frame.
        self._opening = max(target, self._opening - 0.3 * 25 / self._fps)
        return self._opening

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
        opening, closure = self._open(), self._eyes(seconds) / (len(BLINK_LEVELS) - 1)
        dx = dy = 0
        if isinstance(self._composer, LivePhoto):
            # A photo frame is a few milliseconds of warping: off the loop, like every CPU-bound step. The photo
            # sways and breathes by itself (LivePhoto); it has no nod to give.
            frame = await asyncio.to_thread(self._composer.frame_at, seconds, opening, closure)
        else:
            dx, dy = self._motion.offset(seconds, self._listening())
            frame = draw(self._composer.composer, dx, dy, opening, closure)
        if self.on_pose is not None:
            self.on_pose(dx, dy, opening, closure)
        # The composer hands back the same frame object for a repeated pose; the sender encodes one frame
        # before asking for the next, so stamping it here is safe.
        frame.pts = int(seconds * VIDEO_CLOCK)
        frame.time_base = Fraction(1, VIDEO_CLOCK)
        self._index += 1
        self.frames_sent += 1
        return frame


def draw(composer: FrameComposer, dx: int, dy: int, opening: float, closure: float) -> av.VideoFrame:
    """A drawn avatar's frame for a pose (the mouth and eyes as 0..1, mapped to the sprites' levels)."""
    mouth = round(opening * (len(MOUTH_LEVELS) - 1))
    eyes = round(closure * (len(BLINK_LEVELS) - 1))
    return composer.frame(dx, dy, mouth, eyes)
