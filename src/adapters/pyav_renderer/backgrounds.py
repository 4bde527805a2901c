"""Backdrops behind the avatar: transparent, a blurred room, a flat colour, or an image scaled to cover."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import av
import numpy as np

from avatar_service.adapters.pyav_renderer.raster import hex_rgb

_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


class BackgroundUnreadable(ValueError):
    """The background is neither a keyword, a #rrggbb colour, nor a readable image file."""


@dataclass(frozen=True)
class Backdrop:
    rgb: np.ndarray | None  # (H, W, 3) float32 in 0..1; None when transparent
    transparent: bool


def make_backdrop(background: str, width: int, height: int) -> Backdrop:
    if background == "transparent":
        return Backdrop(None, True)
    if background == "blur":
        return Backdrop(_blurred_room(width, height), False)
    if _COLOR.match(background):
        color = np.asarray(hex_rgb(background), dtype=np.float32)
        return Backdrop(np.broadcast_to(color, (height, width, 3)).copy(), False)
    return Backdrop(_image_cover(Path(background), width, height), False)


def _image_cover(path: Path, width: int, height: int) -> np.ndarray:
    if not path.is_file():
        raise BackgroundUnreadable(f"background image not found: {path}")
    try:
        with av.open(str(path)) as container:
            frame = next(container.decode(video=0))
    except (av.FFmpegError, StopIteration, IndexError, ValueError) as exc:
        raise BackgroundUnreadable(f"background image undecodable: {path.name}") from exc
    rgba = frame.to_ndarray(format="rgba")
    # Images with transparency are laid on black, as a browser would show them on a dark page.
    source = rgba[..., :3].astype(np.float32) * (rgba[..., 3:] / 255.0)
    src_h, src_w = source.shape[:2]
    # "Cover": scale so both sides fill the frame, then crop the middle.
    scale = max(width / src_w, height / src_h)
    crop_w, crop_h = min(src_w, round(width / scale)), min(src_h, round(height / scale))
    x0, y0 = (src_w - crop_w) // 2, (src_h - crop_h) // 2
    cropped = np.ascontiguousarray(source[y0 : y0 + crop_h, x0 : x0 + crop_w]).round().astype(np.uint8)
    resized = av.VideoFrame.from_ndarray(cropped, format="rgb24").reformat(
        width=width, height=height, format="rgb24", interpolation="BICUBIC"
    )
    return resized.to_ndarray().astype(np.float32) / 255.0


@lru_cache(maxsize=4)
def _blurred_room_cached(width: int, height: int) -> np.ndarray:
    # A small sketch of a room (wall, window, shelf, plant, lamp), blurred like an out-of-focus backdrop.
    h, w = 90, 160
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    room = np.empty((h, w, 3), np.float32)
    room[:] = np.asarray([0.78, 0.72, 0.64], np.float32) * (1.0 - 0.25 * (y / h))[..., None]
    room[60:, :] = [0.45, 0.36, 0.30]  # floor / desk
    room[12:52, 104:146] = [0.93, 0.95, 0.98]  # window
    room[12:52, 124:126] = [0.70, 0.68, 0.66]
    room[8:60, 10:46] = [0.36, 0.25, 0.18]  # bookshelf
    rng = np.random.default_rng(7)
    for shelf in (10, 27, 44):
        column = 12
        while column < 44:
            book = int(rng.integers(2, 5))
            room[shelf : shelf + 14, column : column + book] = rng.uniform(0.2, 0.8, 3)
            column += book + 1
    plant = ((x - 62) / 9) ** 2 + ((y - 48) / 12) ** 2 < 1.0
    room[plant] = [0.22, 0.45, 0.25]
    lamp = np.exp(-(((x - 88) / 6) ** 2 + ((y - 20) / 6) ** 2))[..., None]
    room = room * (1.0 - lamp) + np.asarray([1.0, 0.86, 0.6], np.float32) * lamp
    for _ in range(3):  # three box blurs approximate a Gaussian
        room = _box_blur(room, 4)
    small = (np.clip(room, 0.0, 1.0) * 255.0).round().astype(np.uint8)
    full = av.VideoFrame.from_ndarray(small, format="rgb24").reformat(
        width=width, height=height, format="rgb24", interpolation="BICUBIC"
    )
    return full.to_ndarray().astype(np.float32) / 255.0


def _blurred_room(width: int, height: int) -> np.ndarray:
    return _blurred_room_cached(width, height).copy()


def _box_blur(image: np.ndarray, radius: int) -> np.ndarray:
    for axis in (0, 1):
        padded = np.concatenate(
            [
                np.repeat(image.take([0], axis), radius + 1, axis),
                image,
                np.repeat(image.take([-1], axis), radius, axis),
            ],
            axis=axis,
        )
        summed = np.cumsum(padded, axis=axis, dtype=np.float32)
        size = 2 * radius + 1
        upper = summed.take(range(size, summed.shape[axis]), axis)
        lower = summed.take(range(0, summed.shape[axis] - size), axis)
        image = (upper - lower) / size
    return image
